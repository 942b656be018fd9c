"""The command path does no repeated work (issue 17, item 2), and behaves as before.

Each event is evolved once on submit (the engine's state after it is kept), the game cached after a
save is the one saved (the next load reads nothing back), snapshots are taken from memory, and the
command-ID index is shared by the copies of a cached game, not copied per load."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from domain import decide, decide_traced, fold, legal_moves
from domain.bots import make_bot
from replays import store as store_module
from replays.errors import CommandIdReused, TableRefused, VersionConflict
from replays.service import Games
from replays.store import RECENT_COMMANDS, SNAPSHOT_INTERVAL, Game, GameStore
from tests.replays.conftest import SecretCounter, StepClock, new_game, play


class Calls:
    """Counts calls of a function of `replays.store` (the aggregate's evolve and event decoding)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
        self.count = 0
        real = getattr(store_module, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(store_module, name, counted)


def _move(games: Games, game_id: str, seed: str) -> tuple[Any, int]:
    state = games.state(game_id)
    assert state is not None
    bot = make_bot("random", seed)
    return bot.choose(state, legal_moves(state)), games.head(game_id)


def test_decide_traced_gives_decides_events_and_the_state_after_each(games: Games) -> None:
    game_id = new_game(games, "traced-1")
    state = games.state(game_id)
    assert state is not None
    bot = make_bot("random", "traced-1")
    for _ in range(40):
        move = bot.choose(state, legal_moves(state))
        events, states = decide_traced(state, move)
        assert events == decide(state, move)
        assert states is not None and len(states) == len(events)
        for i in range(len(events)):
            assert states[i] == fold(events[: i + 1], state)
        state = states[-1]


def test_submit_evolves_each_event_once_and_the_next_load_reads_nothing_back(
    games: Games, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = new_game(games, "once-1")
    play(games, game_id, "once-1", limit=5)
    evolved = Calls(monkeypatch, "evolve")
    decoded = Calls(monkeypatch, "event_from_dict")
    for i in range(20):
        move, version = _move(games, game_id, f"once-1:{i}")
        games.submit(game_id, move, version, f"once-1-{i}", move.seat)
    # The engine evolved the events inside decide; the aggregate took its states, and the cached game
    # after each save was the saved one (no fast-forward from the store on the next load).
    assert evolved.count == 0 and decoded.count == 0
    with Games(games.url) as fresh:  # a rebuild from the store gives the same game
        assert fresh.state(game_id) == games.state(game_id)
        assert fresh.game(game_id).last_hash == games.game(game_id).last_hash
        assert fresh.game(game_id).clock_log == games.game(game_id).clock_log


def test_another_writer_is_still_caught_up_with_from_the_store(store_url: str) -> None:
    with (
        Games(store_url, clock=StepClock(), secret=SecretCounter()) as a,
        Games(store_url, clock=StepClock(), secret=SecretCounter()) as b,
    ):
        game_id = new_game(a, "other-1")
        play(a, game_id, "other-1", limit=3)
        assert b.head(game_id) == a.head(game_id)  # b caches it now
        play(a, game_id, "other-1b", limit=4)
        assert b.state(game_id) == a.state(game_id) and b.head(game_id) == a.head(game_id)


def test_snapshots_are_taken_from_memory_and_equal_a_rebuild(
    games: Games, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = new_game(games, "snapmem-1")
    rebuilt: list[int | None] = []
    real = GameStore.load

    def load(self: GameStore, gid: UUID, version: int | None = None) -> Game:
        rebuilt.append(version)
        return real(self, gid, version)

    monkeypatch.setattr(GameStore, "load", load)
    play(games, game_id, "snapmem-1", limit=3 * SNAPSHOT_INTERVAL // 2)
    monkeypatch.undo()
    assert all(v is None for v in rebuilt)  # no game rebuilt at a version to take a snapshot
    gid = UUID(game_id)
    assert games.store.snapshots is not None
    snapshots = list(games.store.snapshots.get(gid))
    assert [s.originator_version for s in snapshots] == list(
        range(SNAPSHOT_INTERVAL, games.head(game_id) + 1, SNAPSHOT_INTERVAL)
    )
    events = [s.event for s in games.events(game_id)]
    for snap in snapshots:
        from_snapshot = snap.mutate(None)  # type: ignore[attr-defined]
        assert isinstance(from_snapshot, Game)
        assert from_snapshot.state == fold(events[: snap.originator_version])
        replayed = store_module.mutate_all(None, games.store.events.get(gid, lte=snap.originator_version))
        assert isinstance(replayed, Game)
        for key in ("last_hash", "clock_log", "last_batch", "pending", "pause_votes", "cancelled"):
            assert getattr(from_snapshot, key) == getattr(replayed, key), key
        assert {**from_snapshot.commands, **from_snapshot.recent_commands} == {
            **replayed.commands,
            **replayed.recent_commands,
        }


def test_command_index_is_shared_by_loads_and_keeps_every_command_id(games: Games) -> None:
    game_id = new_game(games, "index-1")
    first_move, first_version = _move(games, game_id, "index-1:first")
    first = games.submit(game_id, first_move, first_version, "index-1-first", first_move.seat)
    play(games, game_id, "index-1", limit=3 * RECENT_COMMANDS)  # the index is folded at least twice
    a, b = games.game(game_id), games.game(game_id)
    assert a.commands is b.commands  # shared, not copied per load
    assert len(a.recent_commands) <= RECENT_COMMANDS
    # The first command ID is still known: its retry gets its first result, another command is refused.
    again = games.submit(game_id, first_move, first_version, "index-1-first", first_move.seat)
    assert again.replayed and again.version == first.version and again.events == first.events
    move, version = _move(games, game_id, "index-1:later")
    with pytest.raises(CommandIdReused):
        games.submit(game_id, move, version, "index-1-first", move.seat)
    with Games(games.url) as fresh:  # rebuilt from a snapshot and the events after it
        assert fresh.submit(game_id, first_move, first_version, "index-1-first", first_move.seat).replayed


def test_a_snapshot_written_before_the_split_index_still_loads_its_command_ids(games: Games) -> None:
    game_id = new_game(games, "index-2")
    move, version = _move(games, game_id, "index-2")
    games.submit(game_id, move, version, "index-2-a", move.seat)
    game = games.game(game_id)
    old_state = game.snapshot_state()
    old_state["commands"] = {**game.commands, **game.recent_commands}  # the old form: one dict
    old_state.pop("recent_commands", None)
    snap = Game.Snapshot(
        originator_id=game.id,
        originator_version=game.version,
        timestamp=Game.Snapshot.create_timestamp(),
        topic="galileo:Game",
        state=old_state,
    )
    loaded = snap.mutate(None)
    assert isinstance(loaded, Game)
    assert loaded.command_span("index-2-a") == game.command_span("index-2-a")
    loaded._index("index-2-b", game.version + 1)  # a new command on top of an old snapshot
    assert loaded.command_span("index-2-b") == [game.version + 1, game.version + 1]


def _count_reads(games: Games, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the event reads of `games`'s recorder (a fast-forward or a rebuild reads rows)."""
    reads = [0]
    real = games.store.recorder.select_events

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(games.store.recorder, "select_events", counted)
    return reads


def test_a_command_at_the_cached_version_reads_nothing_from_the_store(
    games: Games, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = new_game(games, "noread-1")
    play(games, game_id, "noread-1", limit=3)
    for i in range(10):
        move, version = _move(games, game_id, f"noread-1:{i}")
        reads = _count_reads(games, monkeypatch)
        games.submit(game_id, move, version, f"noread-1-{i}", move.seat)
        assert reads[0] == 0
        monkeypatch.undo()
    with Games(games.url) as fresh:  # what was written from the cached game is the game rebuilt
        assert fresh.state(game_id) == games.state(game_id)
        assert fresh.verify(game_id).ok


def test_a_cached_game_behind_another_writer_is_a_conflict_and_writes_nothing(store_url: str) -> None:
    with (
        Games(store_url, clock=StepClock(), secret=SecretCounter()) as a,
        Games(store_url, clock=StepClock(), secret=SecretCounter()) as b,
    ):
        game_id = new_game(a, "behind-1")
        play(a, game_id, "behind-1", limit=2)
        move, version = _move(a, game_id, "behind-1:a")  # a caches the game at `version`
        rival, _ = _move(b, game_id, "behind-1:b")
        b.submit(game_id, rival, version, "rival", rival.seat)  # a does not know of it
        with pytest.raises(VersionConflict) as caught:
            a.submit(game_id, move, version, "mine", move.seat)
        assert caught.value.current_version == b.head(game_id) == a.head(game_id)
        assert [s.metadata["command_id"] for s in a.events(game_id, after=version)] == ["rival"] * (
            a.head(game_id) - version
        )
        assert a.verify(game_id).ok


def test_a_retry_of_another_writers_command_from_a_cached_game_gets_its_first_result(
    store_url: str,
) -> None:
    with (
        Games(store_url, clock=StepClock(), secret=SecretCounter()) as a,
        Games(store_url, clock=StepClock(), secret=SecretCounter()) as b,
    ):
        game_id = new_game(a, "behind-2")
        move, version = _move(a, game_id, "behind-2")  # a caches the game at `version`
        first = b.submit(game_id, move, version, "twice", move.seat)
        again = a.submit(game_id, move, version, "twice", move.seat)  # the same command, sent to a
        assert again.replayed and again.version == first.version and again.events == first.events
        assert a.head(game_id) == first.version


def test_ASYNC_1_a_refusal_judged_on_a_cached_game_behind_another_writer_is_judged_again_on_the_store(
    store_url: str,
) -> None:
    """ASYNC-1: a command is judged against the game as it is when written. A refusal that holds only on
    this process's cached copy (another process stored a move, e.g. a clock pause or a hand-over,
    since) is not given: the game is read from the store and judged again, here a version conflict."""
    with (
        Games(store_url, clock=StepClock(), secret=SecretCounter()) as a,
        Games(store_url, clock=StepClock(), secret=SecretCounter()) as b,
    ):
        game_id = new_game(a, "behind-3")
        move, version = _move(a, game_id, "behind-3:a")  # a caches the game at `version`
        rival, _ = _move(b, game_id, "behind-3:b")
        b.submit(game_id, rival, version, "rival", rival.seat)
        judged: list[int] = []

        def check(game: Game, now: Any) -> None:
            judged.append(game.version)
            if game.version == version:  # a judgement that holds only on the game before b's move
                raise TableRefused("seat-handed-over", "judged on the older game", "ASYNC-3", 403)

        with pytest.raises(VersionConflict) as caught:
            a.submit(game_id, move, version, "mine", move.seat, check=check)
        assert judged == [version, b.head(game_id)]
        assert caught.value.current_version == b.head(game_id) == a.head(game_id)
        assert [s.metadata["command_id"] for s in a.events(game_id, after=version)] == ["rival"] * (
            a.head(game_id) - version
        )
