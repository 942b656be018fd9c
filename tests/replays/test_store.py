"""The store: round trips, replay to any version, audit metadata, snapshots, configuration."""

from __future__ import annotations

import logging
from collections import Counter
from pathlib import Path
from uuid import UUID

import pytest

from domain import ENGINE_VERSION, event_to_dict, evolve, fold
from domain.bots import make_bot
from domain.selfplay import play_game
from replays import store as store_module
from replays.audit import ZERO_HASH, event_hash, options_hash
from replays.errors import GameNotFound, VersionOutOfRange
from replays.playout import stored_selfplay
from replays.service import Games
from replays.store import SNAPSHOT_INTERVAL, GameStateAsDict, store_env
from tests.replays.conftest import new_game, play
from tests.runs import EVERY_VERSION, version_steps, versions


@pytest.mark.parametrize("step", version_steps(7))
def test_stored_bot_game_equals_engine_game_and_state_at_every_version_equals_fold(
    games: Games, step: int
) -> None:
    """The state the store rebuilds at a version equals the fold of the events up to it: at every version
    in `make soak`; by default at every 7th, around each snapshot and at both ends of the longest batch."""
    game_id, record = stored_selfplay(games, 2, "round-trip-1", bot="random")
    bots = [make_bot("random", f"round-trip-1:{i}") for i in range(2)]
    reference = play_game(record.setup, bots)  # the engine alone, with the salt the service drew
    assert record.events == reference.events
    stored = [s.event for s in games.events(game_id)]
    assert stored == list(reference.events)
    assert games.state(game_id, 0) is None
    batches = Counter(s.metadata["batch"] for s in games.events(game_id))
    longest, size = max(batches.items(), key=lambda item: item[1])
    assert size > 1  # a batch of several events: the store may rebuild a state inside it
    boundaries = [*range(SNAPSHOT_INTERVAL, len(stored) + 1, SNAPSHOT_INTERVAL), longest, longest + size - 1]
    checked = versions(len(stored), step, boundaries)
    assert step != EVERY_VERSION or checked == list(range(1, len(stored) + 1))
    state = None
    for version, event in enumerate(stored, start=1):
        state = evolve(state, event)
        if version in checked:
            assert games.state(game_id, version) == state, version
    assert games.state(game_id) == reference.state
    steps = list(games.steps(game_id))
    assert [v for v, _, _ in steps] == list(range(1, len(stored) + 1))
    assert steps[-1][2] == reference.state and [e for _, e, _ in steps] == stored


def test_export_import_verify_round_trip_gives_identical_events(games: Games) -> None:
    game_id = new_game(games, "round-trip-2")
    play(games, game_id, "round-trip-2")
    data = games.export(game_id)
    copy_id = games.import_(data)
    assert copy_id != game_id
    original, copied = games.events(game_id), games.events(copy_id)
    assert [(s.version, s.event, s.metadata) for s in copied] == [
        (s.version, s.event, s.metadata) for s in original
    ]
    report = games.verify(copy_id)
    assert report.ok and report.exit_code == 0, report.findings
    assert games.export(copy_id).split(b"\n")[1:] == data.split(b"\n")[1:]  # only the header differs


def test_every_event_carries_audit_metadata_and_links_to_the_previous_hash(games_v1: Games) -> None:
    """Audit scheme 1 (docs/audit.md); scheme 2: tests/replays/test_compact.py."""
    games = games_v1
    game_id = new_game(games, "audit-1")
    play(games, game_id, "audit-1", limit=3)
    events = games.events(game_id)
    prev = ZERO_HASH
    for stored in events:
        meta = stored.metadata
        assert meta["prev_hash"] == prev
        assert meta["hash"] == event_hash(stored.version, event_to_dict(stored.event), meta)
        assert meta["engine_version"] == ENGINE_VERSION
        assert meta["catalog"]["hash"] == events[0].event.catalog_hash  # type: ignore[attr-defined]
        assert meta["options_hash"] == options_hash(events[0].event.options)  # type: ignore[attr-defined]
        assert meta["received_at"].startswith("2025-01-01T00:00:")  # the injected clock
        prev = meta["hash"]
    setup = events[0].metadata
    assert setup["kind"] == "setup" and setup["actor"] == "system" and setup["command"]["type"] == "Setup"
    assert "seed" not in setup["command"]  # the seed stays secret until the end
    moves = [s.metadata for s in events if s.metadata["kind"] == "command"]
    assert moves and all(m["actor"] == m["command"]["seat"] and m["command_id"] for m in moves)
    assert all(s.metadata["batch"] <= s.version for s in events)


def test_state_outside_the_game_and_unknown_games_are_refused(games: Games) -> None:
    game_id = new_game(games, "range-1")
    head = games.head(game_id)
    with pytest.raises(VersionOutOfRange):
        games.state(game_id, head + 1)
    with pytest.raises(VersionOutOfRange):
        games.state(game_id, -1)
    for unknown in ("not-a-uuid", "00000000-0000-0000-0000-000000000000"):
        with pytest.raises(GameNotFound):
            games.state(unknown)
        with pytest.raises(GameNotFound):
            games.events(unknown)


def test_list_games_names_every_stored_game(games: Games) -> None:
    ids = [new_game(games, f"list-{i}", players=2 + i) for i in range(3)]
    listed = games.list_games()
    assert [g.game_id for g in listed] == ids
    assert [len(g.seats) for g in listed] == [2, 3, 4]
    assert {g.status for g in listed} == {"active"} and all(g.winners == () for g in listed)


def test_list_games_gives_copies_their_own_time_and_every_status_and_winner(
    games: Games, finished_export: bytes
) -> None:
    """A fork or an import is listed with the time this store wrote it, not its source's."""
    for i in range(3):  # the store's clock moves on past the file's times
        new_game(games, f"before-{i}")
    imported = games.import_(finished_export)
    fork = games.fork(imported, 3)
    listed = {g.game_id: g for g in games.list_games()}
    assert list(listed)[-2:] == [imported, fork]
    source_time = games.events(imported, limit=1)[0].metadata["received_at"]
    assert (
        listed[imported].created_at > source_time and listed[fork].created_at >= listed[imported].created_at
    )
    assert listed[imported].status == "finished" and listed[imported].winners
    assert listed[fork].status == "active" and listed[fork].winners == ()


def test_snapshots_are_taken_every_interval_and_used_for_any_version(games: Games) -> None:
    game_id = new_game(games, "snap-1")
    play(games, game_id, "snap-1")
    head = games.head(game_id)
    snapshots = list(games.store.snapshots.get(UUID(game_id)))  # type: ignore[union-attr]
    assert [s.originator_version for s in snapshots] == list(
        range(SNAPSHOT_INTERVAL, head + 1, SNAPSHOT_INTERVAL)
    )
    events = [s.event for s in games.events(game_id)]
    for version in (SNAPSHOT_INTERVAL, SNAPSHOT_INTERVAL + 1, head):
        assert games.state(game_id, version) == fold(events[:version])


def test_a_failing_snapshot_never_fails_the_stored_move(
    games: Games, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(self: GameStateAsDict, state: object) -> dict[str, object]:
        raise RuntimeError("snapshot encoder broke")

    monkeypatch.setattr(GameStateAsDict, "encode", broken)
    game_id = new_game(games, "snap-2")
    with caplog.at_level(logging.ERROR, logger=store_module.__name__):
        play(games, game_id, "snap-2", limit=SNAPSHOT_INTERVAL)  # crosses version 100 at least once
    head = games.head(game_id)
    assert head > SNAPSHOT_INTERVAL
    assert any("snapshot" in r.message and "failed" in r.message for r in caplog.records)
    assert games.state(game_id) == fold([s.event for s in games.events(game_id)])
    assert games.verify(game_id).checks[1].status == "ok"


def test_database_url_selects_the_store_and_ignores_the_process_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = store_env(f"sqlite:///{tmp_path}/new/folder/g.db")
    assert env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite"
    assert (tmp_path / "new" / "folder").is_dir()
    pg = store_env("postgresql://alice:s%40cret@db.example:6543/games?schema=galileo")
    assert pg["POSTGRES_HOST"] == "db.example" and pg["POSTGRES_PORT"] == "6543"
    assert pg["POSTGRES_USER"] == "alice" and pg["POSTGRES_PASSWORD"] == "s@cret"
    assert pg["POSTGRES_DBNAME"] == "games" and pg["POSTGRES_SCHEMA"] == "galileo"
    for bad in ("mysql://x/y", "sqlite://", "postgresql:///nohost"):
        with pytest.raises(ValueError):
            store_env(bad)
    # Stray variables of the library must not redirect the store.
    monkeypatch.setenv("PERSISTENCE_MODULE", "eventsourcing.postgres")
    monkeypatch.setenv("GAMES_SQLITE_DBNAME", str(tmp_path / "elsewhere.db"))
    monkeypatch.setenv("GALILEO_DATABASE_URL", f"sqlite:///{tmp_path}/configured.db")
    with Games() as service:
        new_game(service, "env-1")
    assert (tmp_path / "configured.db").exists() and not (tmp_path / "elsewhere.db").exists()


def test_default_store_is_a_sqlite_file_under_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GALILEO_DATABASE_URL", raising=False)
    with Games() as service:
        new_game(service, "default-1")
    assert (tmp_path / "data" / "galileo.db").exists()
