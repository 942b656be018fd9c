"""`event_from_dict` builds an event in this build's shape straight into its `__dict__` (every stored
event is read through it): the same event its dataclass `__init__` builds, and the same refusals."""

from __future__ import annotations

import dataclasses

import orjson
import pytest

from domain import EVENT_TYPES, event_from_dict, event_to_dict
from domain.selfplay import selfplay
from domain.vocabulary import _event_by_init, _field_plan


def test_every_event_of_a_game_is_built_as_its_init_builds_it() -> None:
    payloads = [
        orjson.loads(orjson.dumps(event_to_dict(e))) for e in selfplay(4, "event-codec", "random").events
    ]
    assert len({p["type"] for p in payloads}) > 20
    for written_by in (None, "0.1.0", "0.2.0", "0.3.0"):  # older engines: upcast first, as before
        for payload in payloads:
            fast = event_from_dict(payload, written_by)
            by_init = _event_by_init(payload, written_by)
            assert fast == by_init and type(fast) is type(by_init) and vars(fast) == vars(by_init)


def test_a_bad_event_is_refused_with_the_message_it_always_had() -> None:
    good = {"type": "TurnEnded", "seat": 0, "turn": 3, "rule": "TURN-1"}
    assert event_from_dict(good, "0.3.0") == _event_by_init(good, "0.3.0")
    for bad, message in (
        ({**good, "extra": 1}, "unknown field"),
        ({k: v for k, v in good.items() if k != "turn"}, "turn"),
        ({**good, "type": "NoSuchEvent"}, "unknown event type"),
    ):
        with pytest.raises(ValueError, match=message) as fast:
            event_from_dict(bad, "0.3.0")
        with pytest.raises(ValueError) as by_init:
            _event_by_init(bad, "0.3.0")
        assert str(fast.value) == str(by_init.value)


def test_every_event_class_is_filled_directly() -> None:
    """Each class's fields are its `__dict__` (no slots, no __post_init__, no default factory, no field
    left out of __init__), so none falls back to its `__init__`; a class that had one would."""
    for name, cls in EVENT_TYPES.items():
        assert not hasattr(cls, "__slots__") and not hasattr(cls, "__post_init__"), name
        for field in dataclasses.fields(cls):
            assert field.init and field.default_factory is dataclasses.MISSING, (name, field.name)
        assert _field_plan(cls), name

    @dataclasses.dataclass(frozen=True)
    class Derived(EVENT_TYPES["TurnEnded"]):  # type: ignore[misc]
        def __post_init__(self) -> None:
            pass

    assert _field_plan(Derived) == ()
