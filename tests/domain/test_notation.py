"""The text notation of commands and the JSON forms of commands and events round-trip exactly."""

from __future__ import annotations

import json

import pytest

from domain import (
    command_from_dict,
    command_to_dict,
    event_from_dict,
    event_to_dict,
    legal_moves,
    parse_command,
    redact_event,
)
from domain.events import GameEnded, GameStarted
from domain.selfplay import selfplay
from tests.domain.test_legal_moves import states


def test_every_legal_move_round_trips_through_text_repr_and_json() -> None:
    seen: set[str] = set()
    for state in states(3, "notation", "random", every=1):
        for move in legal_moves(state):
            text = str(move)
            assert parse_command(text) == move
            assert eval(repr(move), {"parse_command": parse_command}) == move
            data = json.loads(json.dumps(command_to_dict(move)))
            assert command_from_dict(data) == move
            seen.add(type(move).__name__)
    assert len(seen) >= 12


def test_every_event_round_trips_through_json() -> None:
    record = selfplay(4, "events-json", "greedy")
    for e in record.events:
        assert event_from_dict(json.loads(json.dumps(event_to_dict(e)))) == e


def test_redaction_removes_the_hidden_deal() -> None:
    record = selfplay(2, "redact", "random")
    started = record.events[0]
    assert isinstance(started, GameStarted)
    public = redact_event(started)
    for name in ("deck", "box", "reserve", "seed", "salt"):
        assert name not in public
    assert public["commitment"] == started.commitment
    ended = record.events[-1]
    assert isinstance(ended, GameEnded) and ended.deck == started.deck  # revealed at the end


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("move 2", "expected '@<seat> <verb>"),
        ("@0 fly 2", "unknown verb"),
        ("@0 move two", "expected a number"),
        ("@0 observe MO:D1-01 Q3 c1=0 c2=0", "bad die"),
        ("@0 persuade X2", "bad cellar space"),
        ("@0 die R swap", "expected 3 argument"),
        ("@0 farewell maybe", "yes or no"),
        ("@0 write R9", "bad library row"),
    ],
)
def test_malformed_notation_is_refused_with_a_reason(text: str, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        parse_command(text)


@pytest.mark.parametrize(
    "data",
    [
        {"type": "Teleport", "seat": 0},
        {"type": "Move", "seat": 0, "steps": 1, "extra": 1},
        {"type": "Move", "seat": "0", "steps": 1},
        {"type": "Move", "seat": 0, "steps": True},
        {"type": "Observe", "seat": 0, "target": "MO:D1-01", "dice": [["R"]], "comets1": 0, "comets2": 0},
        {"type": "Move", "seat": 0, "steps": 1, "text": "@0 move 2"},
        {"type": "Move", "seat": 0},
    ],
)
def test_malformed_command_json_is_refused(data: dict) -> None:
    with pytest.raises(ValueError):
        command_from_dict(data)


def test_malformed_event_json_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown event type"):
        event_from_dict({"type": "Nope"})
    with pytest.raises(ValueError, match="unknown field"):
        event_from_dict({"type": "TurnEnded", "seat": 0, "turn": 1, "x": 2})


def test_OBS_52_face_down_card_front_is_private_to_its_owner() -> None:
    from domain import public_state
    from domain.events import CardDrawnFaceDown

    record = None
    for i in range(30):
        candidate = selfplay(3, f"facedown-{i}", "random")
        if any(isinstance(e, CardDrawnFaceDown) for e in candidate.events):
            record = candidate
            break
    assert record is not None
    drawn = next(e for e in record.events if isinstance(e, CardDrawnFaceDown))
    other = (drawn.seat + 1) % 3
    assert "card" not in redact_event(drawn) and "card" not in redact_event(drawn, other)
    assert redact_event(drawn, drawn.seat)["card"] == drawn.card
    assert redact_event(drawn)["tier"] == drawn.tier and redact_event(drawn)["back"]
    from domain import fold

    index = record.events.index(drawn)
    state = fold(record.events[: index + 1])
    spectator = public_state(state)["players"][drawn.seat]["library"]
    owner = public_state(state, drawn.seat)["players"][drawn.seat]["library"]
    assert [drawn.card, False] in owner
    assert [drawn.card, False] not in spectator and [f"hidden:{drawn.tier}", False] in spectator
