"""The harness: what plays, measures and attacks the engine from outside.

It owns the bench's engines (the games and the floor, the kernel driver, traced and
untraced runs, worker processes, concurrent games, the message cycle alone, the profile by
component, the layers board), the fuzz engine (games against a hostile seat, every reply
checked: refusals change nothing, no hidden card is named, every game ends) and the hostile
client it plays (a seeded stream of mutated messages, sent over a seat's raw channel or
returned by a policy), and the soak (random games with the whole pool in random decks, every
action checked). It uses only the public names of the packages below it (scenarios,
actors, bots, protocol, cards, rules): the fuzz plays through ``play_game`` and counts the
coordinator's calls of ``take_action`` and ``check_answer`` from its ``statistics()``. The
command line (``spellstack.cli``) parses arguments, calls it and prints what it reports.
"""

from ._bench_bombing import BOMB_KINDS, bench_bombing, bomb_kinds
from ._bench_games import (
    LAYER_OTHERS,
    LAYER_STATICS,
    bench_games,
    bench_layers,
    bench_profile,
    layer_board,
    machine,
    measure_floor,
)
from ._bench_kernel import BENCH_DECKS, KernelDriver, bench_bots, new_bench_game, play_kernel
from ._bench_messages import RecordedGame, Replay, bench_messages, record_game, replay_messages
from ._bench_modes import (
    Outcome,
    bench_concurrent,
    bench_jobs,
    bench_kernel,
    bench_trace,
    play_actor_games,
    play_games,
    play_kernel_games,
    resident_kb,
)
from ._bench_profile import PROFILE_GROUPS, Profile, group_of, profile_call, profile_report
from ._fuzz import (
    BOMB_CYCLE_EVERY,
    FUZZ_DECKS,
    FUZZ_NAMES,
    GAME_SECONDS,
    LEAVE_CHANCE,
    MAX_GAME_MESSAGES,
    fuzz,
    fuzz_game,
)
from ._fuzz_hidden import HiddenNames, hidden_leaks
from ._fuzz_report import Failure, FuzzReport, KindCounts, PolicyCounts, SiblingCounts, render_fuzz
from ._fuzz_siblings import DEFAULT_BLOCK, SIBLING_TIMEOUT, beside, policy_game
from ._hostile import HOSTILE_KINDS, RAW_KINDS, HostileStream, Outgoing
from ._hostile_policies import POLICY_KINDS, BlockingBot, RaisingBot
from ._hostile_seat import ForfeitGuard, HostileBot, HostileSeat, run_hostile_seat
from ._soak import (
    DEFAULT_HASH_EVERY,
    DEFAULT_STALL,
    GameSoak,
    SoakFailure,
    SoakReport,
    SoakRun,
    render_soak,
    soak,
    soak_deck,
    soak_game,
    soak_game_seed,
    soak_pool,
)
from ._soak_checks import InvariantError, check_invariants, check_no_sba_missed, view_leaks

__all__ = [
    "BENCH_DECKS", "BOMB_CYCLE_EVERY", "BOMB_KINDS", "DEFAULT_BLOCK", "DEFAULT_HASH_EVERY",
    "DEFAULT_STALL", "FUZZ_DECKS", "FUZZ_NAMES", "GAME_SECONDS", "HOSTILE_KINDS", "LAYER_OTHERS",
    "LAYER_STATICS", "LEAVE_CHANCE", "MAX_GAME_MESSAGES", "POLICY_KINDS", "PROFILE_GROUPS",
    "RAW_KINDS", "SIBLING_TIMEOUT", "BlockingBot", "Failure", "ForfeitGuard", "FuzzReport",
    "GameSoak", "HiddenNames", "HostileBot", "HostileSeat", "HostileStream", "InvariantError", "KernelDriver",
    "KindCounts", "Outcome", "Outgoing", "PolicyCounts", "Profile", "RaisingBot", "RecordedGame",
    "Replay", "SiblingCounts", "SoakFailure", "SoakReport", "SoakRun", "bench_bombing",
    "bench_bots", "bench_concurrent", "bench_games", "bench_jobs", "bench_kernel", "bench_layers",
    "bench_messages", "bench_profile", "bench_trace", "beside", "bomb_kinds", "check_invariants",
    "check_no_sba_missed", "fuzz", "fuzz_game", "group_of", "hidden_leaks", "layer_board",
    "machine", "measure_floor", "new_bench_game", "play_actor_games", "play_games", "play_kernel",
    "play_kernel_games", "policy_game", "profile_call", "profile_report", "record_game",
    "render_fuzz", "render_soak", "replay_messages", "resident_kb", "run_hostile_seat", "soak",
    "soak_deck", "soak_game", "soak_game_seed", "soak_pool", "view_leaks",
]
