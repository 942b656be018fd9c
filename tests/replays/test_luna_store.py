"""Replay, fork, export/import and verify work on Luna games exactly as on base games (Luna issue)."""

from __future__ import annotations

import dataclasses

import orjson

from domain import Options, evolve
from domain.events import GameForked
from domain.expansions.luna.events import MoonPhaseAdvanced
from domain.expansions.luna.state import luna_of
from domain.selfplay import default_setup
from replays.service import Games, verify_file
from tests.replays.conftest import play


def luna_game(games: Games, seed: str, players: int = 3) -> str:
    setup = dataclasses.replace(default_setup(players, seed), options=Options(luna=True))
    game_id, _ = games.create(setup)
    return game_id


def test_luna_game_replays_to_every_version_and_round_trips(games: Games) -> None:
    game_id = luna_game(games, "luna-store-1")
    play(games, game_id, "luna-store-1")
    stored = [s.event for s in games.events(game_id)]
    state = None
    for version, event in enumerate(stored, start=1):
        state = evolve(state, event)
        if version % 25 == 0 or version == len(stored):
            assert games.state(game_id, version) == state, version
    assert state is not None and state.finished and luna_of(state) is not None
    assert games.verify(game_id).ok
    copy_id = games.import_(games.export(game_id))
    assert [s.event for s in games.events(copy_id)] == stored
    assert games.verify(copy_id).ok


def test_luna_fork_of_an_unfinished_game_redeals_the_face_down_scoring_tiles(games: Games) -> None:
    source = luna_game(games, "luna-store-2")
    play(games, source, "luna-store-2", limit=25)
    at = games.head(source) - 2
    before = games.state(source, at)
    assert before is not None and luna_of(before) is not None
    fork_id = games.fork(source, at)
    forked = games.events(fork_id)[at].event
    assert isinstance(forked, GameForked) and forked.moon_hidden
    hidden = [i for i in range(9) if not luna_of(before).visible(i)]
    after = games.state(fork_id, at + 1)
    assert after is not None and luna_of(after) is not None
    assert sorted(luna_of(after).scoring[i] for i in hidden) == sorted(
        luna_of(before).scoring[i] for i in hidden
    )
    redacted = games.export(fork_id, 0)
    assert orjson.dumps([luna_of(before).scoring[i] for i in hidden]) not in redacted
    play(games, fork_id, "luna-store-fork")
    assert games.verify(fork_id).ok and verify_file(games.export(fork_id)).ok


def test_luna_phase_changes_are_stored_and_verified(games: Games) -> None:
    game_id = luna_game(games, "luna-store-3", players=2)
    play(games, game_id, "luna-store-3")
    phases = [s.event.phase for s in games.events(game_id) if isinstance(s.event, MoonPhaseAdvanced)]
    assert phases == [2, 3]
    assert games.verify(game_id).ok
