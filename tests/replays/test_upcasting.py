"""Stored events are upcast on read when their class changes shape (docs/events.md, "Schema versions"):
the store, the verifier, imports and projections read a game written in an older shape, while the hash
chain keeps covering the event as it was written."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from domain import event_from_dict, vocabulary
from domain import events as ev
from domain.selfplay import default_setup
from projections.source import Fact
from replays.service import Games
from tests.replays.conftest import SecretCounter, StepClock, play

NEW = "99.0.0"  # a future engine version that changes TurnEnded's shape


def _turn_ended_with_a_renamed_field(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Pretend that TurnEnded's schema 1 (every engine so far) called its turn `old_turn` and engine NEW
    renamed it `turn`: events written before NEW go through the upcaster (which accepts both names, since
    the events really stored already say `turn`)."""
    seen: list[dict[str, Any]] = []

    def v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
        seen.append(dict(data))
        data["turn"] = data.pop("old_turn", data.get("turn"))
        return data

    monkeypatch.setattr(ev.TurnEnded, "SCHEMAS", ("0.1.0", NEW))
    upcasters = MappingProxyType({**vocabulary.UPCASTERS, ("TurnEnded", 1): v1_to_v2})
    monkeypatch.setattr(vocabulary, "UPCASTERS", upcasters)
    return seen


def test_an_old_shape_is_upcast_by_the_engine_version_that_wrote_it(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _turn_ended_with_a_renamed_field(monkeypatch)
    old = {"type": "TurnEnded", "seat": 1, "old_turn": 7, "rule": "TURN-1"}
    assert event_from_dict(old, "0.1.0") == ev.TurnEnded(seat=1, turn=7)
    assert len(seen) == 1
    with pytest.raises(ValueError, match="unknown field"):  # the new shape does not read the old one
        event_from_dict(old, NEW)
    assert ev.schema_version(ev.TurnEnded) == 2 and ev.schema_version(ev.TurnEnded, "0.1.0") == 1
    assert ev.schema_version(ev.TurnEnded, "0.2.0") == 1 and ev.schema_version(ev.TurnEnded, "99.0.1") == 2
    fact = Fact("g", 5, old, {"engine_version": "0.1.0"})
    assert fact.payload["turn"] == 7 and fact.event == ev.TurnEnded(seat=1, turn=7)


def test_a_missing_upcaster_is_an_error_naming_the_event(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ev.TurnEnded, "SCHEMAS", ("0.1.0", NEW))
    with pytest.raises(ValueError, match="TurnEnded: no upcaster from schema 1 to 2"):
        event_from_dict({"type": "TurnEnded", "seat": 0, "turn": 1, "rule": "TURN-1"}, "0.1.0")


def test_a_stored_game_of_the_old_shape_loads_verifies_and_keeps_its_hashes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Games(f"sqlite:///{tmp_path}/g.db", clock=StepClock(), secret=SecretCounter()) as games:
        game_id, _ = games.create(default_setup(2, "upcast"))
        play(games, game_id, "upcast", limit=40)
        exported = games.export(game_id, reveal=True)
        before = games.state(game_id)
        seen = _turn_ended_with_a_renamed_field(monkeypatch)  # this build's TurnEnded has a new shape
        with Games(games.url, clock=StepClock(), secret=SecretCounter()) as fresh:
            assert fresh.state(game_id) == before  # every stored TurnEnded was upcast on read
            assert seen
            assert fresh.verify(game_id).ok  # the chain covers the events as written
            copy = fresh.import_(exported)
            assert fresh.export(copy, reveal=True).splitlines()[1:] == exported.splitlines()[1:]
            assert fresh.state(copy) == before
