"""Forks: of a finished game (its deal kept) and of an unfinished one (unseen cards re-dealt, nothing
hidden carried over); forks of forks; continued by bots to the end and verified."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
import pytest

from domain import GameState, event_to_dict
from domain.events import GameEnded, GameForked
from replays.errors import ForkRefused
from replays.service import Games, verify_file
from tests.replays.conftest import assert_fresh, new_game, play


def _finish_and_verify(games: Games, game_id: str, seed: str) -> None:
    play(games, game_id, seed)
    state = games.state(game_id)
    assert state is not None and state.finished
    report = games.verify(game_id)
    assert report.ok, report.findings
    ended = games.events(game_id)[-1].event
    assert isinstance(ended, GameEnded)


# What a fork copies of an event's metadata: its audit fields, never its nonces, key or hash (each fork
# is a new game with randomness of its own, and its own chain over it).
OWN = ("nonces", "key", "hash")


def _audit(meta: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in meta.items() if k not in OWN}


def test_fork_of_a_finished_game_at_several_versions_plays_to_the_end(
    games: Games, finished_export: bytes
) -> None:
    source = games.import_(finished_export)
    events = games.events(source)
    last = len(events) - 1  # the last fork point: just before GameEnded
    for at in (2, last // 2, last):
        fork_id = games.fork(source, at, actor="analyst")
        copied = games.events(fork_id)
        # The copied events keep their audit fields; their nonces, the key and so the hashes are new.
        assert [(s.event, _audit(s.metadata)) for s in copied[:at]] == [
            (s.event, _audit(s.metadata)) for s in events[:at]
        ]
        assert_fresh(events, copied[:at])
        forked = copied[at].event
        assert isinstance(forked, GameForked)
        assert (forked.source_game, forked.source_version) == (source, at)
        assert copied[at].metadata["kind"] == "fork" and copied[at].metadata["actor"] == "analyst"
        _finish_and_verify(games, fork_id, f"finished-fork-{at}")
    assert games.verify(source).ok  # the source is untouched


def _hidden_order(state: GameState) -> list[bytes]:
    """The source's secrets at the fork point, as they would appear in JSON."""
    return [
        orjson.dumps(list(state.deck)),
        orjson.dumps(list(state.reserve)),
        state.seed.encode(),
        state.salt.encode(),
    ]


def test_fork_of_an_unfinished_game_redeals_and_carries_no_hidden_order(games: Games) -> None:
    source = new_game(games, "unfinished-1")
    play(games, source, "unfinished-1", limit=40)
    at = games.head(source) - 3
    before = games.state(source, at)
    assert before is not None and len(before.deck) > 5
    fork_id = games.fork(source, at)
    events = games.events(fork_id)
    forked = events[at].event
    assert isinstance(forked, GameForked)
    assert forked.deck != before.deck and forked.seed != before.seed
    assert sorted(forked.deck + forked.box + forked.reserve) == sorted(
        before.deck + before.box + before.reserve
    )
    everything = b"\n".join(orjson.dumps(event_to_dict(s.event)) for s in events)
    exports = [games.export(fork_id), games.export(fork_id, 0), games.export(fork_id, reveal=True)]
    for secret in _hidden_order(before):
        assert secret not in everything
        for data in exports:
            assert secret not in data
    # What the prefix had drawn stays drawn: the state at the fork point differs only in its deal.
    copied = games.state(fork_id, at)
    assert copied is not None and copied.players == before.players and copied.display == before.display
    assert games.verify(fork_id).ok
    _finish_and_verify(games, fork_id, "unfinished-fork-1")
    assert verify_file(games.export(fork_id)).ok


def test_forks_of_forks_verify_and_play_to_the_end(games: Games) -> None:
    source = new_game(games, "nested-1")
    play(games, source, "nested-1", limit=30)
    first = games.fork(source, games.head(source) - 1)
    play(games, first, "nested-2", limit=30)
    second = games.fork(first, games.head(first) - 2)  # a re-deal of a re-deal
    assert games.verify(second).ok, games.verify(second).findings
    _finish_and_verify(games, second, "nested-3")
    third = games.fork(second, games.head(second) - 5)  # a finished fork keeps its deal
    assert games.verify(third).ok
    _finish_and_verify(games, third, "nested-4")
    copy_id = games.import_(games.export(third))
    assert games.verify(copy_id).ok


def test_fork_points_outside_the_game_are_refused(games: Games, finished_export: bytes) -> None:
    source = games.import_(finished_export)
    head = games.head(source)
    for at in (0, head, head + 1):
        with pytest.raises(ForkRefused):
            games.fork(source, at)


def test_a_fork_starts_a_fresh_command_id_namespace(games: Games) -> None:
    source = new_game(games, "ids-1")
    play(games, source, "ids-1", limit=4)
    used = [s.metadata["command_id"] for s in games.events(source) if s.metadata["kind"] == "command"]
    fork_id = games.fork(source, games.head(source))
    state = games.state(fork_id)
    assert state is not None
    from domain import legal_moves

    move = legal_moves(state)[0]
    result = games.submit(fork_id, move, games.head(fork_id), used[0], move.seat)
    assert not result.replayed and result.version == games.head(fork_id)
    assert games.verify(fork_id).ok
