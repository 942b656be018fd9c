"""The lobby: whose turn, scores and status follow the engine event by event; the view lists games
newest first, by status, by ID, a page at a time."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from domain import evolve, to_act
from domain.events import GameEnded, TurnEnded
from domain.state import GameState
from projections import lobby, projector
from projections.lobby import LobbyView, cursor_of, parse_cursor
from projections.source import Fact
from tests.projections.corpus import PERSON, Played


def _kinds(played: Played) -> list[str]:
    return ["human" if d == PERSON else "bot" for d in played.drivers]


def test_every_event_moves_the_row_as_the_engine_moves_the_game(small_games: list[Played]) -> None:
    for played in small_games:
        doc = None
        state: GameState | None = None
        for version, (event, meta) in enumerate(played.entries, start=1):
            doc = lobby.fold(doc, Fact.of(str(played.game_id), version, event, meta))
            state = evolve(state, event)
            assert doc["to_act"] == to_act(state), (played.game_id, version, event.type)
            assert [s["score"] for s in doc["seats"]] == [p.score for p in state.players]
            assert doc["version"] == version and doc["last_move_at"] == meta["received_at"]
        assert doc is not None and state is not None
        assert doc["status"] == ("finished" if state.finished else "active")
        assert doc["turns"] == sum(e.type == "TurnEnded" for e in played.events)
        assert [s["kind"] for s in doc["seats"]] == _kinds(played)
        if state.finished:
            ended = played.events[-1]
            assert isinstance(ended, GameEnded) and doc["winners"] == list(ended.winners)
        assert doc["options"]["luna"] is played.luna


def test_a_game_begins_with_game_started() -> None:
    with pytest.raises(ValueError, match="GameStarted"):
        lobby.fold(None, Fact.of("g", 1, TurnEnded(seat=0, turn=0)))


@pytest.fixture
def view(small_url: str) -> Iterator[LobbyView]:
    projector.rebuild(small_url, "lobby")
    found = projector.open_lobby(small_url)
    yield found
    found.close()


def test_lobby_lists_newest_first_and_filters(view: LobbyView, small_games: list[Played]) -> None:
    everything = view.list(limit=500)
    assert len(everything) == len(small_games) == view.count()
    assert [g.created_at for g in everything] == sorted((g.created_at for g in everything), reverse=True)
    by_id = {g.game_id: g for g in everything}
    for played in small_games:
        row = by_id[str(played.game_id)]
        assert row.version == len(played.entries)
        assert row.status == ("finished" if played.finished else "active")
        assert [s.kind for s in row.seats] == _kinds(played)
        if played.forked_from is None:
            assert row.forked_from is None
        else:
            assert row.forked_from is not None and row.forked_from["game_id"] == str(played.forked_from)
    active = view.list(status="active")
    assert {g.game_id for g in active} == {str(p.game_id) for p in small_games if not p.finished}
    assert all(g.to_act is not None for g in active)
    assert view.count("finished") == len(everything) - len(active)
    pages = [view.list(limit=7, offset=k) for k in range(0, len(everything), 7)]
    assert [g.game_id for page in pages for g in page] == [g.game_id for g in everything]
    some = [str(small_games[3].game_id), str(small_games[-1].game_id)]
    assert {g.game_id for g in view.list(games=some)} == set(some)
    assert view.list(games=[]) == []
    assert view.get(some[0]) == by_id[some[0]]
    assert view.get("00000000-0000-0000-0000-000000000000") is None
    with pytest.raises(ValueError, match="status"):
        view.list(status="paused")


def test_a_fork_is_listed_from_when_it_was_made(view: LobbyView, small_games: list[Played]) -> None:
    fork = next(p for p in small_games if p.forked_from is not None)
    row = view.get(str(fork.game_id))
    assert row is not None and row.forked_from is not None
    assert row.forked_from["game_id"] == str(fork.forked_from)
    source = view.get(str(fork.forked_from))
    assert source is not None and row.created_at > source.created_at


def test_keyset_pages_give_every_game_once_in_order_like_offset_pages(view: LobbyView) -> None:
    """GET /games pages by cursor (issue 17): the same games, in the same order, as OFFSET pages, also
    for a status filter and for games created in the same instant (ties broken by game ID)."""
    for status in (None, "finished"):
        everything = view.list(status=status, limit=500)
        pages: list[list[str]] = []
        after = None
        while True:
            page = view.list(status=status, limit=5, after=after)
            if not page:
                break
            pages.append([g.game_id for g in page])
            after = parse_cursor(cursor_of(page[-1]))
        assert [g for page in pages for g in page] == [g.game_id for g in everything]
    first = view.list(limit=500)[0]
    tie = parse_cursor(cursor_of(first))
    assert view.list(limit=500, after=(tie[0], "")) == view.list(limit=500)  # game ID "" sorts first
    for bad in ("", "not-a-cursor", cursor_of(first)[:-3] + "!!!"):
        with pytest.raises(ValueError, match="cursor"):
            parse_cursor(bad)
