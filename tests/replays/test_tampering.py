"""Tampering with stored events (SQL on the database) and with export files is detected and located;
re-adjudication catches an event the rules would not produce even under a recomputed hash chain.

These are games of audit scheme 1 (the first releases' games, which keep verifying under their own scheme);
tests/replays/test_compact.py tampers with games of scheme 2, the scheme of new games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from replays.audit import CHAINED, ZERO_HASH, link
from replays.errors import ImportRejected
from replays.service import Games, verify_file
from replays.verify import VerifyReport
from tests.replays.conftest import RawRows, export_file, export_lines, scoring_version


def _points_event(games: Games, game_id: str) -> int:
    """The number of the first VictoryPointsScored event with points, mid-game."""
    return next(
        s.version
        for s in games.events(game_id)
        if s.event.type == "VictoryPointsScored" and s.event.points > 0 and s.version > 50  # type: ignore[attr-defined]
    )


def _fails_at(report: VerifyReport, check: str, version: int) -> None:
    assert not report.ok and report.exit_code == 1
    first = report.first
    assert first is not None, report
    assert (first.check, first.version) == (check, version), str(first)
    assert next(c for c in report.checks if c.name == check).status == "failed"


@pytest.fixture
def stored(games: Games, finished_export_v1: bytes) -> str:
    return games.import_(finished_export_v1)


# -- in the database -----------------------------------------------------------------------------


def _edit(raw: RawRows, game_id: str, version: int, change: Callable[[dict[str, Any]], None]) -> None:
    topic, data = raw.row(game_id, version)
    change(data)
    raw.write(game_id, version, topic, data)


def test_database_edited_field_is_detected_at_its_event(games: Games, raw: RawRows, stored: str) -> None:
    version = _points_event(games, stored)
    _edit(raw, stored, version, lambda d: d["payload"].update(points=d["payload"]["points"] + 1))
    report = games.verify(stored)
    _fails_at(report, "chain", version)
    assert "altered" in report.findings[0].message


def test_database_dropped_event_is_detected_at_its_place(games: Games, raw: RawRows, stored: str) -> None:
    version = _points_event(games, stored)
    raw.delete(stored, version)
    report = games.verify(stored)
    _fails_at(report, "chain", version)
    assert "missing" in report.findings[0].message


def test_database_swapped_events_are_detected_at_the_first(games: Games, raw: RawRows, stored: str) -> None:
    version = _points_event(games, stored)
    first, second = raw.row(stored, version), raw.row(stored, version + 1)
    raw.write(stored, version, *second)
    raw.write(stored, version + 1, *first)
    report = games.verify(stored)
    _fails_at(report, "chain", version)
    assert f"event {version + 1}'s content" in report.findings[0].message


def test_database_changed_hash_is_detected_at_its_event(games: Games, raw: RawRows, stored: str) -> None:
    version = _points_event(games, stored)
    _edit(raw, stored, version, lambda d: d["metadata"].update(hash="f" * 64))
    _fails_at(games.verify(stored), "chain", version)


def test_database_unreadable_row_is_reported_not_raised(games: Games, raw: RawRows, stored: str) -> None:
    topic, _ = raw.row(stored, 7)
    raw.sql(
        f"UPDATE {raw.table} SET state = ? WHERE originator_id = ? AND originator_version = ?",
        b"{not json",
        raw._id(stored),
        7,
    )
    _fails_at(games.verify(stored), "format", 7)


def _recompute_chain(records: list[tuple[int, dict[str, Any]]]) -> None:
    """Re-hash every event from the first given one on, as a forger with database access would."""
    prev = records[0][1]["metadata"]["prev_hash"]
    for version, data in records:
        data["metadata"] = link(version, data["payload"], data["metadata"], prev)
        prev = data["metadata"]["hash"]


def test_readjudication_catches_a_tampered_points_amount_under_a_recomputed_chain(
    games: Games, raw: RawRows, stored: str
) -> None:
    version = _points_event(games, stored)
    head = games.head(stored)
    rows = {v: raw.row(stored, v) for v in range(version, head + 1)}
    rows[version][1]["payload"]["points"] += 5
    _recompute_chain([(v, data) for v, (_, data) in rows.items()])
    for v, (topic, data) in rows.items():
        raw.write(stored, v, topic, data)
    report = games.verify(stored)
    assert report.checks[1].status == "ok"  # the chain is intact
    _fails_at(report, "adjudication", version)
    finding = report.findings[0]
    assert finding.rule == rows[version][1]["payload"]["rule"]
    assert finding.expected is not None and finding.stored is not None
    assert finding.stored["points"] == finding.expected["points"] + 5
    assert "points" in finding.message


# -- in a file -----------------------------------------------------------------------------------


def _rejected_at(games: Games, data: bytes, check: str, version: int) -> VerifyReport:
    """The file fails verification at `version` (line version + 1) and import writes nothing."""
    before = games.list_games()
    report = verify_file(data)
    _fails_at(report, check, version)
    assert report.findings[0].line == version + 1
    with pytest.raises(ImportRejected) as caught:
        games.import_(data)
    assert caught.value.line == version + 1 and f"event {version}" in str(caught.value)
    assert games.list_games() == before
    return report


def test_file_edited_field_is_detected_at_its_line(games: Games, finished_export_v1: bytes) -> None:
    lines = export_lines(finished_export_v1)
    version = scoring_version(lines)
    lines[version]["event"]["points"] += 1
    _rejected_at(games, export_file(lines), "chain", version)


def test_file_dropped_line_is_detected_at_its_place(games: Games, finished_export_v1: bytes) -> None:
    lines = export_lines(finished_export_v1)
    version = scoring_version(lines)
    del lines[version]
    report = _rejected_at(games, export_file(lines), "chain", version)
    assert "missing" in report.findings[0].message
    assert any("header announces" in f.message for f in report.findings)


def test_file_swapped_lines_are_detected_at_the_first(games: Games, finished_export_v1: bytes) -> None:
    lines = export_lines(finished_export_v1)
    version = scoring_version(lines)
    lines[version], lines[version + 1] = lines[version + 1], lines[version]
    report = _rejected_at(games, export_file(lines), "chain", version)
    assert "out of order" in report.findings[0].message


def test_file_changed_hash_is_detected_at_its_line(games: Games, finished_export_v1: bytes) -> None:
    lines = export_lines(finished_export_v1)
    version = scoring_version(lines)
    lines[version]["meta"]["hash"] = "0" * 64
    _rejected_at(games, export_file(lines), "chain", version)


def test_file_tampered_points_under_a_recomputed_chain_fail_readjudication(
    games: Games, finished_export_v1: bytes
) -> None:
    lines = export_lines(finished_export_v1)
    version = scoring_version(lines)
    lines[version]["event"]["points"] -= 1
    prev = ZERO_HASH if version == 1 else lines[version - 1]["meta"]["hash"]
    for line in lines[version:]:
        line["meta"] = link(line["version"], line["event"], line["meta"], prev)
        prev = line["meta"]["hash"]
    lines[0]["head_hash"] = prev
    report = _rejected_at(games, export_file(lines), "adjudication", version)
    assert report.checks[1].status == "ok"
    assert report.findings[0].rule == lines[version]["event"]["rule"]


def test_file_with_a_stacked_deck_fails_the_fairness_check(games: Games, finished_export_v1: bytes) -> None:
    """A forger who swaps two cards of the revealed deal (and re-hashes) is caught by the commitment."""
    lines = export_lines(finished_export_v1)
    end = lines[-1]
    assert end["event"]["type"] == "GameEnded"
    deck = end["event"]["deck"]
    deck[-1], deck[-2] = deck[-2], deck[-1]
    end["meta"] = link(end["version"], end["event"], end["meta"], lines[-2]["meta"]["hash"])
    lines[0]["head_hash"] = end["meta"]["hash"]
    report = verify_file(export_file(lines))
    assert not report.ok
    assert {f.check for f in report.findings} >= {"fairness"}
    fairness = next(f for f in report.findings if f.check == "fairness")
    assert fairness.version == end["version"] and "reveals" in fairness.message


def test_a_solo_file_with_a_restacked_movement_stack_fails_the_fairness_check(tmp_path: Any) -> None:
    """SOLO-24: Tycho's Movement stack is committed; a forger who reorders what the end reveals (and
    re-hashes) is caught by the commitment."""
    from domain.bots import make_bot
    from domain.selfplay import default_setup
    from replays.playout import play_out
    from tests.replays.conftest import StepClock

    with Games(f"sqlite:///{tmp_path}/solo.db", clock=StepClock(), scheme=CHAINED) as service:
        game_id, _ = service.create(default_setup(1, "solo-fair"))
        play_out(service, game_id, [make_bot("random", "solo-fair")])
        exported = service.export(game_id)
    assert verify_file(exported).ok
    lines = export_lines(exported)
    index = next(
        i for i, line in enumerate(lines) if line.get("event", {}).get("type") == "MovementStackRevealed"
    )
    line = lines[index]
    stack = line["event"]["stack"]
    stack[-1], stack[0] = stack[0], stack[-1]
    line["meta"] = link(line["version"], line["event"], line["meta"], lines[index - 1]["meta"]["hash"])
    for k in range(index + 1, len(lines)):
        lines[k]["meta"] = link(
            lines[k]["version"], lines[k]["event"], lines[k]["meta"], lines[k - 1]["meta"]["hash"]
        )
    lines[0]["head_hash"] = lines[-1]["meta"]["hash"]
    report = verify_file(export_file(lines))
    assert not report.ok
    fairness = next(f for f in report.findings if f.check == "fairness")
    assert "Movement stack" in fairness.message
