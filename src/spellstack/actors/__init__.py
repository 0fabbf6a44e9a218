"""Thin trio shells around the kernel: coordinator, players, stack, SBA checker, tracer."""

from ._clock import ON_TIME, GameClock, SeatTime, parse_clock
from ._coordinator import (
    ENGINE_ERROR,
    GAME_OVER_GRACE,
    Coordinator,
    CoordinatorStatistics,
    GameResult,
    SeatConfig,
)
from ._kernel_actors import sba_actor, stack_actor
from ._lag import LAG_FRACTION, LAG_PERIOD, HeldTime, LoopLag, SeatClock, loop_lag
from ._player import (
    REASON_LIMIT,
    PlayerActor,
    PlayerStatistics,
    SeatConcedes,
    SeatLeaves,
    error_text,
    player_actor,
    raise_unless_policys,
)
from ._run import Client, CoordinatorFactory, play_game, play_one_game, play_setup
from ._seat_channel import MAX_REJECTIONS, MAX_SETTINGS, MAX_STRIKES, ChannelStatistics, SeatChannel
from ._setup import GameSetup
from ._tracer import TRACE_FORMAT, TraceWriter, tracer_actor
from ._wire import Link, TraceRecord, Wire

__all__ = [
    "ENGINE_ERROR",
    "GAME_OVER_GRACE",
    "LAG_FRACTION",
    "LAG_PERIOD",
    "MAX_REJECTIONS",
    "MAX_SETTINGS",
    "MAX_STRIKES",
    "ON_TIME",
    "REASON_LIMIT",
    "TRACE_FORMAT",
    "ChannelStatistics",
    "Client",
    "Coordinator",
    "CoordinatorFactory",
    "CoordinatorStatistics",
    "GameClock",
    "GameResult",
    "GameSetup",
    "HeldTime",
    "Link",
    "LoopLag",
    "PlayerActor",
    "PlayerStatistics",
    "SeatChannel",
    "SeatClock",
    "SeatConcedes",
    "SeatConfig",
    "SeatLeaves",
    "SeatTime",
    "TraceRecord",
    "TraceWriter",
    "Wire",
    "error_text",
    "loop_lag",
    "parse_clock",
    "play_game",
    "play_one_game",
    "play_setup",
    "player_actor",
    "raise_unless_policys",
    "sba_actor",
    "stack_actor",
    "tracer_actor",
]
