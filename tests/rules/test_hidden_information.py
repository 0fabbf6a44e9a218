"""A player's view and the errors they receive never show what they may not see (400.2)."""

from __future__ import annotations

import pytest

from spellstack.cards import load_cards, load_deck
from spellstack.protocol import PriorityRequest, decode, encode
from spellstack.rules import (
    Action,
    IllegalActionError,
    default_answer,
    new_game,
    priority_decision,
    run_proc,
    state_based_actions,
    take_action,
    view_for,
)


def _game():  # type: ignore[no-untyped-def]
    cards = load_cards()
    return new_game(cards, [("alice", load_deck("gruul", cards).cards),
                            ("bob", load_deck("orzhov", cards).cards)], seed=7)


def test_view_shows_own_hand_and_only_counts_of_hidden_zones() -> None:
    game = _game()
    st = game.state
    bob_view = view_for(game, 1)
    alice_hand_ids = set(st.players[0].hand)
    library_ids = set(st.players[0].library) | set(st.players[1].library)
    assert bob_view.hand and {o.id for o in bob_view.hand} == set(st.players[1].hand)
    assert bob_view.players[0].hand_count == 7
    assert bob_view.players[0].library_count == len(st.players[0].library)
    # Serialise the whole request bob would receive and look for any hidden id or name.
    data = encode(PriorityRequest(priority_decision(game), bob_view))
    wire = decode(data)
    assert isinstance(wire, PriorityRequest)
    seen_ids = {o.id for o in wire.view.battlefield} | {o.id for o in wire.view.hand}
    assert not seen_ids & (alice_hand_ids | library_ids)
    hidden_only = {st.objects[i].name for i in alice_hand_ids} - {
        st.objects[i].name for i in st.players[1].hand}
    text = repr(wire)
    for name in hidden_only:
        assert name not in text


def test_refusal_does_not_name_an_opponents_hidden_card() -> None:
    game = _game()
    st = game.state
    # Alice targets a card in bob's hand with Shock-like targeting: cast any card of hers with a
    # target, naming bob's hidden card as the target.
    secret = st.players[1].hand[0]
    secret_name = st.objects[secret].name
    st.step, st.priority = "precombat_main", 0
    run_proc(state_based_actions(game), default_answer)
    priority_decision(game)  # alice now holds priority (117.5 first)
    for oid in list(st.players[0].hand):
        name = st.objects[oid].name
        if name in ("Lightning Bolt", "Shock", "Giant Growth"):
            before = st.state_hash()
            with pytest.raises(IllegalActionError, match=r"601\.2c") as info:
                take_action(game, 0, Action("cast", oid, targets=(secret,)))
            assert secret_name not in str(info.value) or secret_name in {
                st.objects[i].name for i in st.players[0].hand}
            assert st.state_hash() == before
            return
    pytest.skip("seed 7 gives alice no targeted spell in her opening hand")
