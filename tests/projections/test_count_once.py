"""Statistics count each game once: an imported copy of a stored game (by content) is not counted again;
imported games are flagged and can be left out; the kind of each seat (person or bot) is read from the
log (`meta.seat_kind`), not guessed from the command ID."""

from __future__ import annotations

from pathlib import Path

from domain import SeatSpec, Setup, legal_moves
from domain.bots import make_bot
from projections.projector import open_stats, update
from projections.stats import Filters
from replays.playout import play_out
from replays.service import Games


def _finished(games: Games, seed: str) -> str:
    seats = (SeatSpec("A", "galileo"), SeatSpec("B", "kepler"))
    game_id, _ = games.create(Setup(seats=seats, seed=seed, first_seat=0))
    play_out(games, game_id, [make_bot("random", f"{seed}:{i}") for i in range(2)])
    return game_id


def test_an_imported_copy_counts_once_and_imports_are_filterable(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/games.db"
    with Games(url) as games:
        original = _finished(games, "once-1")
        data = games.export(original)
        games.import_(data)
        games.import_(data)  # the same game three times in the store
        with Games(f"sqlite:///{tmp_path}/elsewhere.db") as elsewhere:
            foreign = elsewhere.export(_finished(elsewhere, "once-2"))
        games.import_(foreign)  # a game played elsewhere: counted, flagged imported
    update(url, "stats")
    view = open_stats(url)
    try:
        assert view.compute(Filters())["games"] == 2
        assert view.compute(Filters(imports=False))["games"] == 1
        rows = view.table.select(["finished = ?"], [1], order="game_id")
        assert sum(1 for r in rows if r["imported"]) == 3
        assert len({r["content"] for r in rows}) == 2
    finally:
        view.close()


def test_seat_kind_is_a_fact_of_the_log_not_a_command_id_pattern(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/games.db"
    with Games(url) as games:
        seats = (SeatSpec("A", "galileo"), SeatSpec("B", "kepler"))
        game_id, version = games.create(Setup(seats=seats, seed="kind", first_seat=0))
        bots = [make_bot("random", f"kind:{i}") for i in range(2)]
        state = games.state(game_id)
        assert state is not None
        while not state.finished:
            move = bots[state.turn.seat].choose(state, legal_moves(state))
            # Seat 0 is a person whose client names its commands like the server's bot runner.
            kind = "human" if move.seat == 0 else "bot"
            version = games.submit(game_id, move, version, f"bot:{version}", move.seat, kind).version
            state = games.state(game_id)
            assert state is not None
        assert {
            s.metadata["seat_kind"] for s in games.events(game_id) if s.metadata["kind"] == "command"
        } == {
            "human",
            "bot",
        }
    update(url, "stats")
    view = open_stats(url)
    try:
        assert view.compute(Filters(seats="mixed"))["games"] == 1
        assert view.compute(Filters(seats="bots"))["games"] == 0
        (row,) = view.table.select(["finished = ?"], [1], order="game_id")
        assert [s["kind"] for s in row["seats"]] == ["human", "bot"]
    finally:
        view.close()
