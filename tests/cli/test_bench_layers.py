"""``spellstack bench --layers``: the board it times is the one it describes (40 permanents under
10 continuous effects), and it reports the time of a full board evaluation."""

from __future__ import annotations

from spellstack.harness import bench_layers, layer_board
from spellstack.rules.layers import characteristics


def test_the_layer_board_has_40_permanents_under_10_effects() -> None:
    game = layer_board()
    st = game.state
    objs = [st.objects[i] for i in st.battlefield]
    statics = sum(len(game.cards[o.name].static) for o in objs)
    assert (len(objs), len(st.effects) + statics) == (40, 10)
    # The effects do apply: the lands are creatures (Living Plane, the newest, makes them 1/1).
    forest = next(o for o in objs if o.name == "Forest")
    assert game.is_creature(forest) and game.power(forest) == 1
    assert characteristics(game, objs[-1]).controller == 0  # the control change


def test_bench_layers_reports_microseconds_per_board() -> None:
    out: list[str] = []
    bench_layers(0.05, out)
    assert out[0].startswith("layers: 40 permanents under 10 continuous effects, ")
    assert out[1].startswith("per full board evaluation: ") and " us " in out[1]
