"""SQLite storage layouts (docs/storage.md): new files are written in layout 2 (a game's UUID as 16 bytes,
topics as codes of `stored_topics`, snapshots in a rowid table); a file of layout 1 (the library's own
tables, every file written before layout 2) keeps its layout. Above the recorders both look the same:
the same events, metadata, hashes, exports, forks, rebuilds and projections."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder
from eventsourcing.utils import get_topic

from domain import fold
from projections import projector
from replays.service import Games
from replays.store import (
    SNAPSHOT_INTERVAL,
    TOPIC_PREFIX,
    TOPICS_TABLE,
    GameStore,
    SQLiteRecorder,
    SQLiteSnapshotRecorder,
    open_store,
    store_env,
)
from tests.replays.conftest import RawRows, SecretCounter, StepClock, new_game, play


def _schema(path: Path) -> dict[str, str]:
    with sqlite3.connect(path) as conn:
        return {name: sql for name, sql in conn.execute("SELECT name, sql FROM sqlite_master") if sql}


def _legacy_store(url: str) -> GameStore:
    """A store written by the library's own SQLite recorders, as every file was before layout 2."""
    return GameStore(
        env={**store_env(url), "APPLICATION_RECORDER_TOPIC": get_topic(SQLiteApplicationRecorder)}
    )


@pytest.fixture
def layout1_url(tmp_path: Path) -> str:
    """A SQLite file of layout 1 with one game stored by the library's recorders (past a snapshot)."""
    url = f"sqlite:///{tmp_path}/old.db"
    # The tables and the rows of the library's recorders: the file as a release before layout 2 left it.
    legacy = _legacy_store(url)
    games = Games(url, clock=StepClock(), secret=SecretCounter())
    games.store.close()
    games.store = legacy
    assert type(games.store.recorder) is SQLiteApplicationRecorder
    game_id = new_game(games, "layout-1")
    play(games, game_id, "layout-1")
    games.close()
    return url


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Games]:
    games = Games(f"sqlite:///{tmp_path}/new.db", clock=StepClock(), secret=SecretCounter())
    yield games
    games.close()


def _without(meta: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in meta.items() if k not in keys}


def _round_trip(games: Games) -> dict[str, Any]:
    """Create, play, fork, export, import and verify on `games`, rebuild at versions, list the games and
    catch the lobby up; what it saw (game IDs left out: they are random)."""
    game_id = new_game(games, "round-trip", players=3)
    play(games, game_id, "round-trip")
    head = games.head(game_id)
    assert head > 2 * SNAPSHOT_INTERVAL  # rebuilds below start from snapshots
    events = games.events(game_id)
    for version in (1, 57, SNAPSHOT_INTERVAL, SNAPSHOT_INTERVAL + 1, 2 * SNAPSHOT_INTERVAL + 3, head):
        assert games.state(game_id, version) == fold([s.event for s in events[:version]])
    assert games.verify(game_id).ok
    fork_id = games.fork(game_id, 150)
    play(games, fork_id, "round-trip-fork")
    assert games.verify(fork_id).ok
    exported = games.export(game_id)
    imported = games.import_(exported)
    assert games.verify(imported).ok
    assert [(s.version, s.event) for s in games.events(imported)] == [(s.version, s.event) for s in events]
    url = games.url
    assert projector.rebuild(url, "lobby") > 0
    view = projector.open_lobby(url)
    try:
        listed = {g.game_id: g for g in view.list(limit=50)}
        assert set(listed) == {game_id, fork_id, imported}
        assert listed[game_id].version == head
    finally:
        view.close()
    later = new_game(games, "later")
    play(games, later, "later", limit=3)
    assert projector.update(url, "lobby") > 0  # the new events are caught up with
    view = projector.open_lobby(url)
    try:
        found = view.get(later)
        assert found is not None and found.version == games.head(later)
    finally:
        view.close()
    return {
        # The bots' command IDs derive from the (random) game ID, the nonces and the key are random;
        # the hashes cover them.
        "events": [
            (s.version, s.event, _without(s.metadata, "command_id", "nonces", "key", "hash"))
            for s in events
        ],
        "head": head,
        "listed": len(games.list_games()),
        "topics": [r.topic for r in games.store.recorder.select_events(uuid.UUID(game_id))],
    }


def test_a_new_sqlite_file_is_written_in_layout_2(fresh: Games, tmp_path: Path) -> None:
    game_id = new_game(fresh, "layout-2")
    play(fresh, game_id, "layout-2")
    recorder = fresh.store.recorder
    assert isinstance(recorder, SQLiteRecorder) and recorder.layout == 2
    snapshots = fresh.store.snapshots
    assert snapshots is not None and isinstance(snapshots.recorder, SQLiteSnapshotRecorder)
    assert snapshots.recorder.layout == 2
    schema = _schema(tmp_path / "new.db")
    assert "originator_id BLOB" in schema["stored_events"] and "topic INTEGER" in schema["stored_events"]
    assert "originator_id BLOB" in schema["stored_snapshots"]
    assert "WITHOUT ROWID" not in schema["stored_snapshots"]  # a snapshot fits a table page
    assert TOPICS_TABLE in schema
    with sqlite3.connect(tmp_path / "new.db") as conn:
        (stored_id, topic, name), *_ = conn.execute(
            f"SELECT e.originator_id, e.topic, t.topic FROM stored_events AS e "
            f"JOIN {TOPICS_TABLE} AS t ON t.code = e.topic ORDER BY e.rowid"
        ).fetchall()
        (snapshots_stored,) = conn.execute("SELECT COUNT(*) FROM stored_snapshots").fetchone()
    assert stored_id == uuid.UUID(game_id).bytes and isinstance(topic, int)
    assert name == TOPIC_PREFIX + "GameStarted"
    assert snapshots_stored >= 1
    # Above the recorder: UUIDs and topics, as in layout 1.
    rows = recorder.select_events(uuid.UUID(game_id), lte=2)
    assert (rows[0].originator_id, rows[0].topic) == (uuid.UUID(game_id), TOPIC_PREFIX + "GameStarted")
    assert recorder.select_events(game_id, lte=2) == rows  # a UUID given as text
    (first,) = recorder.select_notifications(None, 1)
    assert first.originator_id == uuid.UUID(game_id) and first.topic == TOPIC_PREFIX + "GameStarted"
    assert fresh.verify(game_id).ok


def test_both_layouts_store_the_same_games(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    _legacy_store(f"sqlite:///{tmp_path}/a/games.db").close()  # the library's layout-1 tables
    legacy = Games(f"sqlite:///{tmp_path}/a/games.db", clock=StepClock(), secret=SecretCounter())
    assert legacy.store.recorder.layout == 1
    new = Games(f"sqlite:///{tmp_path}/b/games.db", clock=StepClock(), secret=SecretCounter())
    assert new.store.recorder.layout == 2
    try:
        seen_1 = _round_trip(legacy)
        seen_2 = _round_trip(new)
    finally:
        legacy.close()
        new.close()
    assert seen_1 == seen_2
    assert TOPICS_TABLE not in _schema(tmp_path / "a" / "games.db")  # layout 1 stays layout 1


def test_a_layout_1_file_keeps_loading_verifying_and_playing(layout1_url: str, tmp_path: Path) -> None:
    schema_before = _schema(tmp_path / "old.db")
    assert "originator_id TEXT" in schema_before["stored_events"]
    assert "WITHOUT ROWID" in schema_before["stored_snapshots"]
    games = Games(layout1_url, clock=StepClock(), secret=SecretCounter())
    try:
        recorder = games.store.recorder
        assert isinstance(recorder, SQLiteRecorder) and recorder.layout == 1
        snapshots = games.store.snapshots
        assert snapshots is not None and snapshots.recorder.layout == 1  # type: ignore[attr-defined]
        (info,) = games.list_games()
        game_id = info.game_id
        assert games.verify(game_id).ok
        events = games.events(game_id)
        assert len(events) > SNAPSHOT_INTERVAL
        for version in (1, SNAPSHOT_INTERVAL - 1, SNAPSHOT_INTERVAL + 7, len(events)):
            assert games.state(game_id, version) == fold([s.event for s in events[:version]])
        fork_id = games.fork(game_id, 40)
        play(games, fork_id, "layout-1-fork")
        assert games.verify(fork_id).ok
        imported = games.import_(games.export(game_id))
        assert games.verify(imported).ok
        with sqlite3.connect(tmp_path / "old.db") as conn:
            stored = {row[0] for row in conn.execute("SELECT originator_id FROM stored_events")}
        assert stored == {uuid.UUID(g).hex for g in (game_id, fork_id, imported)}  # still 32 hex digits
    finally:
        games.close()
    assert _schema(tmp_path / "old.db") == schema_before  # never migrated, never mixed
    assert projector.rebuild(layout1_url, "lobby") > 0
    view = projector.open_lobby(layout1_url)
    try:
        assert view.count() == 3
    finally:
        view.close()


def test_tampering_is_found_in_layout_2(fresh: Games) -> None:
    game_id = new_game(fresh, "tamper")
    play(fresh, game_id, "tamper", limit=5)
    raw = RawRows(fresh.url)
    try:
        assert raw.layout == 2
        topic, data = raw.row(game_id, 4)
        assert topic.startswith(TOPIC_PREFIX)
        raw.write(game_id, 3, topic, data)  # event 4 stored again as event 3
    finally:
        raw.close()
    report = fresh.verify(game_id)
    assert not report.ok


def test_topic_codes_given_by_another_process_are_read(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/shared.db"
    reader = open_store(url)  # opened first: knows no topic yet
    writer = Games(url, clock=StepClock(), secret=SecretCounter())
    try:
        game_id = new_game(writer, "shared")
        play(writer, game_id, "shared", limit=4)
        found = reader.recorder.select_notifications(None, 100)
        assert [n.topic for n in found] == [
            r.topic for r in writer.store.recorder.select_events(uuid.UUID(game_id))
        ]
        ended = reader.recorder.select_notifications(None, 100, topics=[TOPIC_PREFIX + "TurnEnded"])
        assert ended and {n.topic for n in ended} == {TOPIC_PREFIX + "TurnEnded"}
        # A topic this file never stored has no rows.
        assert reader.recorder.select_notifications(None, 100, topics=[TOPIC_PREFIX + "Nothing"]) == []
    finally:
        writer.close()
        reader.close()


def test_a_rolled_back_save_leaves_no_topic_code_behind(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/codes.db"
    store, other = open_store(url), open_store(url)  # two writers of one file (two processes)
    try:
        game = uuid.uuid4()
        store.recorder.insert_events([StoredEvent(game, 1, "galileo:First", b"{}")])
        with pytest.raises(IntegrityError):  # version 1 again: the whole save is refused
            store.recorder.insert_events(
                [StoredEvent(game, 2, "galileo:Second", b"{}"), StoredEvent(game, 1, "galileo:Third", b"{}")]
            )
        assert set(store.recorder.topic_codes.code_of) == {"galileo:First"}  # the refused codes: not kept
        # The other writer gives the next code to another topic; the first one reads it right.
        other.recorder.insert_events([StoredEvent(game, 2, "galileo:Other", b"{}")])
        store.recorder.insert_events([StoredEvent(game, 3, "galileo:Second", b"{}")])
        expected = ["galileo:First", "galileo:Other", "galileo:Second"]
        assert [r.topic for r in store.recorder.select_events(game)] == expected
        assert [r.topic for r in other.recorder.select_events(game)] == expected
        assert store.recorder.topic_codes.code_of == other.recorder.topic_codes.code_of
    finally:
        other.close()
        store.close()


def test_layout_2_a_topic_filter_never_passes_the_first_row_of_a_new_topic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader filtering by topics (the statistics view reads GameEnded, GameForked, OpponentDealt) while
    another writer commits the first row of a topic new to the file, then a row of a known topic: the
    reader gets both or neither, never the later row alone (its position would pass the first for good).
    The codes are looked up in the same statement as the rows; any read of `stored_topics` between
    two statements is made the moment another writer commits the batch."""
    url = f"sqlite:///{tmp_path}/race.db"
    reader, writer = open_store(url), open_store(url)
    try:
        game = uuid.uuid4()
        known, new = TOPIC_PREFIX + "TurnEnded", TOPIC_PREFIX + "GameEnded"
        writer.recorder.insert_events([StoredEvent(game, 1, known, b"{}")])
        first = reader.recorder.select_notifications(None, 10, topics=[known, new])
        assert [n.topic for n in first] == [known]

        codes = reader.recorder.topic_codes
        load = type(codes)._load
        raced: list[bool] = []

        def racing_load(self: Any) -> None:
            load(self)
            if self is codes and not raced:  # another process commits between two reads of the reader
                raced.append(True)
                writer.recorder.insert_events(
                    [StoredEvent(game, 2, new, b"{}"), StoredEvent(game, 3, known, b"{}")]
                )

        monkeypatch.setattr(type(codes), "_load", racing_load)
        position = first[-1].id
        seen: list[str] = []

        def poll() -> None:  # as a view does, from its position
            nonlocal position
            got = reader.recorder.select_notifications(
                position, 10, topics=[known, new], inclusive_of_start=False
            )
            if got:
                position = got[-1].id
                seen.extend(n.topic for n in got)

        poll()
        if not raced:  # the reader made no read the writer could commit between: it commits now
            raced.append(True)
            writer.recorder.insert_events(
                [StoredEvent(game, 2, new, b"{}"), StoredEvent(game, 3, known, b"{}")]
            )
        poll()
        poll()
        assert seen == [new, known]
    finally:
        reader.close()
        writer.close()


def test_layout_2_a_release_knowing_only_layout_1_cannot_write_into_the_file(tmp_path: Path) -> None:
    """No downgrade (docs/storage.md): the library's own recorder finds layout 2's `stored_events` and
    would write a hex ID and a topic text into it; the table refuses the row, nothing is mixed."""
    url = f"sqlite:///{tmp_path}/new.db"
    new = open_store(url)
    try:
        new.recorder.insert_events([StoredEvent(uuid.uuid4(), 1, TOPIC_PREFIX + "TurnEnded", b"{}")])
        old = _legacy_store(url)
        try:
            with pytest.raises(IntegrityError):
                row = StoredEvent(uuid.uuid4(), 1, TOPIC_PREFIX + "GameStarted", b"{}")
                old.recorder.insert_events([row])
        finally:
            old.close()
        assert [n.topic for n in new.recorder.select_notifications(None, 10)] == [TOPIC_PREFIX + "TurnEnded"]
    finally:
        new.close()
