"""The message set: kinds, immutability, readable reprs, documented fields."""

from __future__ import annotations

import ast
import dataclasses
import inspect

import pytest

import spellstack.protocol as protocol
from spellstack.protocol import (
    MESSAGE_TYPES,
    Accepted,
    CheckSBA,
    Message,
    PriorityRequest,
    _messages,
    _stops,
    _views,
)
from spellstack.rules import state, views

EXPECTED_KINDS = {
    "PriorityRequest",
    "DecisionRequest",
    "SubmitAction",
    "SubmitAnswer",
    "RequestFullView",
    "SetStops",
    "StopsSet",
    "Accepted",
    "Rejected",
    "ErrorReply",
    "Forfeit",
    "Concede",
    "CheckSBA",
    "SBABatch",
    "Resolve",
    "Resolved",
    "AskPlayer",
    "PlayerReply",
    "GameOver",
    "GameEvent",
}


def test_message_types_cover_the_set_and_match_kinds() -> None:
    assert set(MESSAGE_TYPES) == EXPECTED_KINDS
    for kind, cls in MESSAGE_TYPES.items():
        assert cls.KIND == kind == cls.__name__
        assert getattr(protocol, kind) is cls
        params = cls.__dataclass_params__
        assert params.frozen
        assert "__slots__" in cls.__dict__


def test_messages_are_immutable(priority_request: PriorityRequest) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        priority_request.decision = priority_request.decision  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        Accepted(1).extra = 2  # type: ignore[attr-defined]


def test_kind_is_not_a_field() -> None:
    assert [f.name for f in dataclasses.fields(CheckSBA)] == []
    assert "KIND" not in {f.name for f in dataclasses.fields(Accepted)}


def test_repr_reads_like_code(messages: list[Message]) -> None:
    names = {
        **{n: getattr(_messages, n) for n in _messages.__all__},
        **{n: getattr(state, n) for n in state.__all__},
        **{n: getattr(views, n) for n in views.__all__},
        **{n: getattr(_stops, n) for n in _stops.__all__},
        **{n: getattr(_views, n) for n in _views.__all__},
    }
    for msg in messages:
        assert eval(repr(msg), {"__builtins__": {}}, names) == msg


def test_every_field_has_a_docstring() -> None:
    tree = ast.parse(inspect.getsource(_messages))
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        body = node.body
        assert ast.get_docstring(node), node.name
        for i, stmt in enumerate(body):
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                if ast.unparse(stmt.annotation).startswith("ClassVar"):
                    continue  # KIND, ROUTES: the class's, documented in the module docstring
                following = body[i + 1] if i + 1 < len(body) else None
                assert isinstance(following, ast.Expr), (node.name, stmt.target.id)
                assert isinstance(following.value, ast.Constant), (node.name, stmt.target.id)
                assert isinstance(following.value.value, str), (node.name, stmt.target.id)
