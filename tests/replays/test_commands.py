"""Submitting commands: optimistic concurrency, idempotent command IDs, nothing written on errors,
and races between 8 threads (and, on PostgreSQL, 2 processes)."""

from __future__ import annotations

import contextlib
import multiprocessing
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest

from domain import IllegalMove, evolve, legal_moves, parse_command
from replays.errors import CommandIdReused, SeatMismatch, VersionConflict
from replays.records import SubmitResult
from replays.service import Games
from tests.replays.conftest import new_game, pg_schema

THREADS = 8


def _moves(games: Games, game_id: str) -> tuple[int, list[Any]]:
    """The game's version and the moves open at it, read together."""
    game = games.store.load(UUID(game_id))
    assert game.state is not None
    return game.version, legal_moves(game.state)


def test_stale_version_is_refused_with_the_current_version_and_writes_nothing(games: Games) -> None:
    game_id = new_game(games, "conflict-1")
    version, moves = _moves(games, game_id)
    games.submit(game_id, moves[0], version, "c-1", moves[0].seat)
    head, moves = _moves(games, game_id)
    with pytest.raises(VersionConflict) as caught:
        games.submit(game_id, moves[0], version, "c-2", moves[0].seat)
    assert caught.value.current_version == head
    assert games.head(game_id) == head


def test_retry_with_the_same_command_id_returns_the_first_result_and_writes_nothing(games: Games) -> None:
    game_id = new_game(games, "retry-1")
    version, moves = _moves(games, game_id)
    first = games.submit(game_id, moves[0], version, "retry", moves[0].seat)
    assert not first.replayed and first.version == games.head(game_id)
    again = games.submit(game_id, moves[0], version, "retry", moves[0].seat)  # the version it saw then
    assert again == SubmitResult(
        first.version, first.events, replayed=True, actor=first.actor, received_at=first.received_at
    )
    assert first.actor == moves[0].seat and first.received_at
    assert games.head(game_id) == first.version


def test_same_command_id_with_another_command_is_refused(games: Games) -> None:
    game_id = new_game(games, "retry-2")
    version, moves = _moves(games, game_id)
    first = games.submit(game_id, moves[0], version, "once", moves[0].seat)
    _, later = _moves(games, game_id)
    with pytest.raises(CommandIdReused, match="once"):
        games.submit(game_id, later[0], first.version, "once", later[0].seat)
    assert games.head(game_id) == first.version


def test_illegal_moves_propagate_and_write_nothing(games: Games) -> None:
    game_id = new_game(games, "illegal-1")
    version, moves = _moves(games, game_id)
    seat = moves[0].seat
    with pytest.raises(IllegalMove) as caught:
        games.submit(game_id, parse_command(f"@{seat} move 5"), version, "bad-1", seat)
    assert caught.value.rule_id == "MOV-1"
    with pytest.raises(IllegalMove) as caught:
        games.submit(game_id, parse_command(f"@{1 - seat} move 1"), version, "bad-2", 1 - seat)
    assert caught.value.code == "not-your-turn"
    assert games.head(game_id) == version
    # The refused command's ID is still free.
    assert games.submit(game_id, moves[0], version, "bad-1", seat).version > version


def test_a_seat_cannot_submit_for_another_seat(games: Games) -> None:
    game_id = new_game(games, "seat-1")
    version, moves = _moves(games, game_id)
    with pytest.raises(SeatMismatch):
        games.submit(game_id, moves[0], version, "s-1", 1 - moves[0].seat)
    assert games.submit(game_id, moves[0], version, "s-1", "referee").version > version


def _race(workers: int, job: Callable[[int], SubmitResult]) -> list[Any]:
    """Run `job(i)` in `workers` threads released together; results or the exceptions raised."""
    barrier = threading.Barrier(workers)
    results: list[Any] = [None] * workers

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = job(i)
        except Exception as exc:
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_eight_threads_at_the_same_version_exactly_one_wins_each_round(games: Games) -> None:
    game_id = new_game(games, "threads-1")
    for round_ in range(6):
        version, moves = _moves(games, game_id)

        def job(
            i: int, version: int = version, moves: list[Any] = moves, round_: int = round_
        ) -> SubmitResult:
            move = moves[i % len(moves)]
            return games.submit(game_id, move, version, f"r{round_}-t{i}", move.seat)

        results = _race(THREADS, job)
        kinds = Counter(type(r).__name__ for r in results)
        assert kinds == {"SubmitResult": 1, "VersionConflict": THREADS - 1}, results
        winner = next(r for r in results if isinstance(r, SubmitResult))
        assert all(r.current_version == winner.version for r in results if isinstance(r, VersionConflict))
        assert games.head(game_id) == winner.version
    versions = [s.version for s in games.events(game_id)]
    assert versions == list(range(1, len(versions) + 1))  # no gaps, no duplicates
    assert games.verify(game_id).ok


def test_eight_threads_retrying_one_command_id_write_it_once(games: Games) -> None:
    game_id = new_game(games, "threads-2")
    version, moves = _moves(games, game_id)
    results = _race(THREADS, lambda i: games.submit(game_id, moves[0], version, "same-id", moves[0].seat))
    assert all(isinstance(r, SubmitResult) for r in results), results
    assert len({(r.version, r.events) for r in results}) == 1
    assert sum(not r.replayed for r in results) == 1
    assert games.head(game_id) == results[0].version
    assert [s.metadata["command_id"] for s in games.events(game_id)].count("same-id") == len(
        results[0].events
    )


def _process_player(url: str, game_id: str, index: int, rounds: int, barrier: Any, out: Any) -> None:
    """One of two processes: each round, read the game, wait for the other, submit, report."""
    try:
        with Games(url) as games:
            for round_ in range(rounds):
                barrier.wait(timeout=60)
                version, moves = _moves(games, game_id)
                move = moves[index % len(moves)]
                barrier.wait(timeout=60)
                try:
                    result = games.submit(game_id, move, version, f"p{index}-r{round_}", move.seat)
                    out.put((round_, index, "ok", result.version))
                except VersionConflict as exc:
                    out.put((round_, index, "conflict", exc.current_version))
                barrier.wait(timeout=60)
    except BaseException as exc:
        out.put((-1, index, "error", repr(exc)))
        raise


@pytest.mark.postgres
def test_two_processes_on_postgres_exactly_one_wins_each_round(postgres_url: str) -> None:
    rounds = 5
    context = multiprocessing.get_context("spawn")
    with pg_schema(postgres_url) as url, Games(url) as games:
        game_id = new_game(games, "processes-1")
        barrier = context.Barrier(2)
        out = context.Queue()
        procs = [
            context.Process(target=_process_player, args=(url, game_id, i, rounds, barrier, out))
            for i in range(2)
        ]
        try:
            for p in procs:
                p.start()
            reports = [out.get(timeout=120) for _ in range(2 * rounds)]
            for p in procs:
                p.join(timeout=30)
        finally:
            for p in procs:
                if p.is_alive():
                    p.kill()
        assert [p.exitcode for p in procs] == [0, 0], reports
        for round_ in range(rounds):
            outcome = sorted(r[2] for r in reports if r[0] == round_)
            assert outcome == ["conflict", "ok"], reports
        versions = [s.version for s in games.events(game_id)]
        assert versions == list(range(1, len(versions) + 1))
        assert games.verify(game_id).ok


def _lose_the_race(games: Games, rival: Callable[[], object], monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the next save of `games` find that `rival()` has just written the same version."""
    real_save = games.store.save

    def save(*objs: Any) -> Any:
        monkeypatch.setattr(games.store, "save", real_save)
        rival()
        return real_save(*objs)

    monkeypatch.setattr(games.store, "save", save)


def test_a_write_that_loses_the_race_inside_save_is_a_version_conflict(
    games: Games, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = new_game(games, "race-1")
    version, moves = _moves(games, game_id)
    with Games(games.url) as other:
        _lose_the_race(
            games, lambda: other.submit(game_id, moves[-1], version, "rival", moves[-1].seat), monkeypatch
        )
        with pytest.raises(VersionConflict) as caught:
            games.submit(game_id, moves[0], version, "mine", moves[0].seat)
    assert caught.value.current_version == games.head(game_id)
    assert [s.metadata["command_id"] for s in games.events(game_id)][1:] == ["rival"] * (
        games.head(game_id) - 1
    )


def test_a_retry_that_loses_the_race_inside_save_gets_the_first_result(
    games: Games, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = new_game(games, "race-2")
    version, moves = _moves(games, game_id)
    with Games(games.url) as other:
        _lose_the_race(
            games, lambda: other.submit(game_id, moves[0], version, "twice", moves[0].seat), monkeypatch
        )
        result = games.submit(game_id, moves[0], version, "twice", moves[0].seat)
    assert result.replayed and result.version == games.head(game_id)


def test_reads_racing_writes_see_consistent_versions(games: Games) -> None:
    """Threads reading a game while others write it always get a state that belongs to its version."""
    game_id = new_game(games, "readers-1")
    gid = UUID(game_id)
    seen: list[tuple[int, Any]] = []
    errors: list[BaseException] = []
    done = threading.Event()

    def read() -> None:
        while not done.is_set():
            try:
                game = games.store.load(gid)
                seen.append((game.version, game.state))
            except BaseException as exc:  # pragma: no cover - the failure this test looks for
                errors.append(exc)

    def write(i: int) -> None:
        for _ in range(40):
            version, moves = _moves(games, game_id)
            move = moves[i % len(moves)]
            with contextlib.suppress(VersionConflict):
                games.submit(game_id, move, version, f"w{i}-{version}", move.seat)

    readers = [threading.Thread(target=read) for _ in range(4)]
    writers = [threading.Thread(target=write, args=(i,)) for i in range(4)]
    for t in readers + writers:
        t.start()
    for t in writers:
        t.join()
    done.set()
    for t in readers:
        t.join()
    assert not errors, errors
    states = {}
    state = None
    for stored in games.events(game_id):
        state = evolve(state, stored.event)
        states[stored.version] = state
    assert seen and all(states[version] == state for version, state in seen)
