"""Audit schemes 2 and 3 (docs/audit.md): new games are stored compactly (a batch's audit fields once, a
hash chain over batches) and verify; tampering with any class of field (an event's payload, the order of
events, a command's audit fields, the game's constants, the hashes) is detected and located to its batch;
games of scheme 1 (the released fixtures) keep verifying under their own scheme and are written on in it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest

from domain import event_to_dict
from replays.audit import CHAINED, SCHEME, batch_audit, batch_hash, scheme_of
from replays.compact import Expander, StoredFormError, compact, expand, head_fields
from replays.errors import ImportRejected
from replays.export import FORMAT_VERSIONS
from replays.service import Games, verify_file
from replays.store import pack, unpack
from replays.verify import VerifyReport
from tests.fixtures import RELEASES, release_games
from tests.replays.conftest import (
    RawRows,
    SecretCounter,
    StepClock,
    export_file,
    export_lines,
    new_game,
    play,
    rehash,
    scoring_version,
)


def _fails_at(report: VerifyReport, check: str, version: int) -> None:
    assert not report.ok and report.exit_code == 1
    first = report.first
    assert first is not None, report
    assert (first.check, first.version) == (check, version), str(first)


@pytest.fixture
def stored(games: Games, finished_export: bytes) -> str:
    assert export_lines(finished_export)[0]["format_version"] == FORMAT_VERSIONS[SCHEME]
    return games.import_(finished_export)


def _inner(games: Games, game_id: str, kind: str = "command") -> tuple[int, int]:
    """(batch, version) of an event after the first of a mid-game batch of `kind` with at least 3 events."""
    events = games.events(game_id)
    sizes: dict[int, int] = {}
    for s in events:
        sizes[s.metadata["batch"]] = sizes.get(s.metadata["batch"], 0) + 1
    batch = next(b for b, n in sizes.items() if n >= 3 and b > 50 and events[b - 1].metadata["kind"] == kind)
    return batch, batch + 1


# -- the stored form --------------------------------------------------------------------------------------


def test_the_stored_form_expands_to_the_metadata_it_was_made_from(games: Games) -> None:
    game_id = new_game(games, "compact-1")
    play(games, game_id, "compact-1", limit=20)
    events = games.events(game_id)
    expander = Expander()
    for s in events:
        stored = compact(s.metadata, s.version)
        assert expander(stored, s.version) == s.metadata
        batch = s.metadata["batch"]
        head = None if s.version == batch else head_fields(compact(events[batch - 1].metadata, batch), batch)
        assert expand(stored, s.version, head) == s.metadata
        if s.version != s.metadata["batch"]:
            assert set(stored) <= {"b", "n", "y"}  # the rest of a batch: its batch, nonces and key


def test_an_event_that_names_another_batch_than_the_one_it_follows_is_refused() -> None:
    expander = Expander()
    head = {"s": 2, "k": "command", "a": 0, "i": "c-1", "c": {"type": "Pass"}, "t": "x", "e": "0", "h": "h"}
    expander(head, 5)
    assert expander({"b": 5}, 6)["batch"] == 5
    with pytest.raises(StoredFormError, match="follows the events of batch 5"):
        expander({"b": 4}, 7)


def test_new_games_are_stored_in_the_current_scheme_with_every_audit_field(
    games: Games, raw: RawRows
) -> None:
    game_id = new_game(games, "compact-2")
    play(games, game_id, "compact-2", limit=8)
    events = games.events(game_id)
    prev = ""
    for s in events:
        meta = s.metadata
        assert scheme_of(meta) == SCHEME
        assert {
            "kind",
            "actor",
            "command_id",
            "command",
            "batch",
            "received_at",
            "engine_version",
            "hash",
        } <= set(meta)
        assert meta["received_at"].startswith("2025-01-01T00:00:")  # the injected clock
        _, row = raw.row(game_id, s.version)
        assert "timestamp" not in row  # the batch's received_at is its time
        if s.version == meta["batch"]:
            assert {"k", "a", "c", "t", "e", "h", "s"} <= set(row["metadata"]) and "hash" not in row[
                "metadata"
            ]
            group = [x for x in events if x.metadata["batch"] == s.version]
            recomputed = batch_hash(
                s.version,
                prev,
                batch_audit(meta),
                [(event_to_dict(x.event), x.metadata, None) for x in group],
                SCHEME,
            )
            assert meta["hash"] == recomputed and len(meta["hash"]) == 43
            prev = meta["hash"]
        else:
            assert set(row["metadata"]) <= {"b", "n", "y"}
    moves = [s.metadata for s in events if s.metadata["kind"] == "command"]
    assert moves and all(m["actor"] == m["command"]["seat"] and m["command_id"] for m in moves)
    report = games.verify(game_id)
    assert report.ok, report.findings


def test_a_game_of_the_current_scheme_is_stored_in_less_than_a_third_of_the_bytes_of_scheme_1(
    store_url: str, games: Games, games_v1: Games
) -> None:
    """The same game (same seed, clock and secrets), its events' stored states only (load-independent)."""
    sizes = []
    for service in (games, games_v1):
        game_id = new_game(service, "compact-bytes")
        play(service, game_id, "compact-bytes", limit=200)
        rows = service.store.recorder.select_events(UUID(game_id))
        sizes.append(sum(len(r.state) for r in rows))
    assert sizes[0] * 3 < sizes[1], sizes


# -- tampering in the database ----------------------------------------------------------------------


def _edit(raw: RawRows, game_id: str, version: int, change: Callable[[dict[str, Any]], None]) -> None:
    topic, data = raw.row(game_id, version)
    change(data)
    raw.write(game_id, version, topic, data)


def test_database_edited_payload_is_located_to_its_batch(games: Games, raw: RawRows, stored: str) -> None:
    batch, version = _inner(games, stored)
    _edit(raw, stored, version, lambda d: d["payload"].update(rule="XXX-1"))
    report = games.verify(stored)
    _fails_at(report, "chain", batch)
    assert "altered" in report.findings[0].message


def test_database_reordered_events_are_detected(games: Games, raw: RawRows, stored: str) -> None:
    batch, version = _inner(games, stored)
    first, second = raw.row(stored, version), raw.row(stored, version + 1)
    raw.write(stored, version, *second)
    raw.write(stored, version + 1, *first)
    _fails_at(games.verify(stored), "chain", batch)


@pytest.mark.parametrize(
    ("key", "value"),
    [("t", "2030-01-01T00:00:00+00:00"), ("a", 1), ("i", "another-id"), ("sk", "human"), ("e", "9.9.9")],
    ids=["received_at", "actor", "command_id", "seat_kind", "engine_version"],
)
def test_database_edited_command_audit_is_detected_at_its_batch(
    games: Games, raw: RawRows, stored: str, key: str, value: Any
) -> None:
    batch, _ = _inner(games, stored)
    _, row = raw.row(stored, batch)
    if key == "a":
        value = 1 - row["metadata"]["a"]
    _edit(raw, stored, batch, lambda d: d["metadata"].update({key: value}))
    _fails_at(games.verify(stored), "chain", batch)


def test_database_edited_command_is_detected_at_its_batch(games: Games, raw: RawRows, stored: str) -> None:
    batch, _ = _inner(games, stored)
    _edit(raw, stored, batch, lambda d: d["metadata"]["c"].update(text="@0 pass"))
    _fails_at(games.verify(stored), "chain", batch)


def test_database_edited_game_constants_are_detected_at_the_first_batch(
    games: Games, raw: RawRows, stored: str
) -> None:
    """The catalog and options are stored once, in GameStarted: hashed with the setup batch."""
    _edit(raw, stored, 1, lambda d: d["payload"]["options"].update(luna=True))
    _fails_at(games.verify(stored), "chain", 1)
    _edit(raw, stored, 1, lambda d: d["payload"]["options"].update(luna=False))
    assert games.verify(stored).ok
    _edit(raw, stored, 1, lambda d: d["payload"].update(catalog_hash="0" * 64))
    _fails_at(games.verify(stored), "chain", 1)


def test_database_changed_batch_hash_is_detected(games: Games, raw: RawRows, stored: str) -> None:
    batch, _ = _inner(games, stored)
    _edit(raw, stored, batch, lambda d: d["metadata"].update(h="A" * 43))
    _fails_at(games.verify(stored), "chain", batch)


def test_database_event_moved_to_another_batch_is_reported(games: Games, raw: RawRows, stored: str) -> None:
    batch, version = _inner(games, stored)
    _edit(raw, stored, version, lambda d: d["metadata"].update(b=batch - 1))
    _fails_at(games.verify(stored), "format", version)


def test_database_dropped_event_is_detected_at_its_place(games: Games, raw: RawRows, stored: str) -> None:
    _, version = _inner(games, stored)
    raw.delete(stored, version)
    report = games.verify(stored)
    _fails_at(report, "chain", version)
    assert "missing" in report.findings[0].message


def test_readjudication_catches_a_tampered_event_under_a_recomputed_chain(
    games: Games, raw: RawRows, stored: str, finished_export: bytes
) -> None:
    """A forger who re-hashes every batch from the changed one on keeps the chain intact; the rules
    catch the event."""
    lines = export_lines(finished_export)
    version = scoring_version(lines)
    lines[version]["event"]["points"] += 5
    rehash(lines, version)
    for line in lines[lines[version]["meta"]["batch"] :]:
        topic, data = raw.row(stored, line["version"])
        data["payload"] = line["event"]
        data["metadata"] = compact(line["meta"], line["version"])
        raw.write(stored, line["version"], topic, data)
    report = games.verify(stored)
    assert report.checks[1].status == "ok"  # the chain is intact
    _fails_at(report, "adjudication", version)
    assert report.findings[0].stored is not None and "points" in report.findings[0].message


# -- in a file ----------------------------------------------------------------------------------------


def test_file_edited_audit_field_of_an_event_inside_a_batch_is_detected(
    games: Games, finished_export: bytes
) -> None:
    lines = export_lines(finished_export)
    batch = next(
        line["meta"]["batch"]
        for line in lines[1:]
        if line["version"] > 50
        and line["meta"]["batch"] < line["version"]
        and line["meta"]["kind"] == "command"
    )
    inner = batch + 1
    lines[inner]["meta"]["received_at"] = "2030-01-01T00:00:00+00:00"  # the hash covers the batch's first
    report = verify_file(export_file(lines))
    _fails_at(report, "chain", inner)
    with pytest.raises(ImportRejected):
        games.import_(export_file(lines))


def test_file_edited_event_and_recomputed_chain_fail_readjudication(finished_export: bytes) -> None:
    lines = export_lines(finished_export)
    version = scoring_version(lines)
    lines[version]["event"]["points"] -= 1
    report = verify_file(export_file(lines))
    _fails_at(report, "chain", lines[version]["meta"]["batch"])
    rehash(lines, version)
    report = verify_file(export_file(lines))
    assert report.checks[1].status == "ok"
    _fails_at(report, "adjudication", version)


def test_file_mixing_schemes_is_refused(finished_export: bytes, finished_export_v1: bytes) -> None:
    lines, old = export_lines(finished_export), export_lines(finished_export_v1)
    lines[5] = old[5]
    report = verify_file(export_file(lines))
    assert not report.ok and report.first is not None and report.first.check == "format"
    assert "scheme" in report.first.message


# -- export, import, forks and older games ------------------------------------------------------------


def test_export_import_round_trip_keeps_every_line_and_hash(games: Games) -> None:
    game_id = new_game(games, "compact-3")
    play(games, game_id, "compact-3")
    data = games.export(game_id)
    header = export_lines(data)[0]
    assert header["format_version"] == FORMAT_VERSIONS[SCHEME]
    assert header["head_hash"] == games.events(game_id)[-1].metadata["hash"]
    copy_id = games.import_(data)
    assert games.export(copy_id).split(b"\n")[1:] == data.split(b"\n")[1:]
    assert games.verify(copy_id).ok
    assert [s.metadata for s in games.events(copy_id)] == [s.metadata for s in games.events(game_id)]


def test_a_redacted_export_keeps_its_chain(games: Games) -> None:
    game_id = new_game(games, "compact-4")
    play(games, game_id, "compact-4", limit=40)
    for viewer in (None, 0, 1):
        report = verify_file(games.export(game_id, viewer))
        assert report.exit_code == 2 and report.checks[1].status == "ok", report.findings


def test_events_read_from_inside_a_batch_carry_its_audit_fields(store_url: str, games: Games) -> None:
    """A reader that starts inside a batch (a fresh process: no head in its cache) reads the head."""
    game_id = new_game(games, "compact-5")
    play(games, game_id, "compact-5", limit=30)
    events = games.events(game_id)
    batch, inner = next(
        (s.metadata["batch"], s.version) for s in events if s.version > s.metadata["batch"] > 1
    )
    with Games(store_url) as fresh:
        (read,) = fresh.events(game_id, after=inner - 1, limit=1)
        assert read.metadata == events[inner - 1].metadata and read.metadata["batch"] == batch
        assert fresh.state(game_id, inner) == games.state(game_id, inner)


def test_a_fork_of_a_scheme_1_game_is_written_in_the_current_scheme(
    games: Games, finished_export_v1: bytes
) -> None:
    source = games.import_(finished_export_v1)
    assert {scheme_of(s.metadata) for s in games.events(source)} == {CHAINED}
    fork = games.fork(source, 120)
    assert {scheme_of(s.metadata) for s in games.events(fork)} == {SCHEME}
    assert games.verify(fork).ok and verify_file(games.export(fork, reveal=True)).ok


@pytest.mark.parametrize("release", RELEASES)
def test_released_games_verify_and_are_written_on_in_their_own_scheme(release: str, tmp_path: Any) -> None:
    with Games(f"sqlite:///{tmp_path}/games.db", clock=StepClock(), secret=SecretCounter()) as games:
        for name, data in release_games(release).items():
            assert export_lines(data)[0]["format_version"] == 1
            game_id = games.import_(data)
            if name.endswith("-backup"):
                play(games, game_id, name, limit=10)
            assert {scheme_of(s.metadata) for s in games.events(game_id)} == {CHAINED}, name
            assert games.verify(game_id).ok, name
            assert export_lines(games.export(game_id))[0]["format_version"] == 1


# -- packed rows ------------------------------------------------------------------------------------------

ROW = b'{"payload":{"type":"TurnEnded","seat":0,"rule":"TURN-9"},"metadata":{"b":41}}'
PACKED_WITH_DICTIONARY_1 = bytes.fromhex(
    "0123ba2c46cec196d84a6060c10e00"
)  # written by the first build with it


def test_rows_packed_with_a_released_dictionary_stay_readable() -> None:
    """Dictionary 1 is frozen (replays/dictionaries/events-1.bin, checked by its SHA-256 when loaded):
    a row it packed reads back; new rows read back too and take a fraction of their JSON."""
    assert unpack(PACKED_WITH_DICTIONARY_1) == ROW
    assert unpack(pack(ROW)) == ROW and len(pack(ROW)) * 3 < len(ROW)
    assert unpack(ROW) == ROW  # a plain JSON row (scheme 1, or written before) is read as it is
    with pytest.raises(ValueError, match="unknown stored row encoding"):
        unpack(b"\x07abc")
