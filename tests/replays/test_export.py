"""Export files: redaction per viewer, complete exports of finished games and operator backups, and
imports that check everything first and reject hostile input with its line, writing nothing."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from domain import event_to_dict
from domain.events import CardDrawnFaceDown
from replays.errors import ImportRejected
from replays.export import FORMAT, FORMAT_VERSION, MAX_LINE_BYTES
from replays.service import Games, verify_file
from tests.replays.conftest import SecretCounter, StepClock, export_lines, new_game, play, rehash


@pytest.fixture
def local(tmp_path: Path) -> Iterator[Games]:
    """A SQLite store: what is checked here does not depend on the database."""
    service = Games(f"sqlite:///{tmp_path}/games.db", clock=StepClock(), secret=SecretCounter())
    yield service
    service.close()


def _unfinished(games: Games) -> str:
    """A game in progress in which a face-down card has been drawn (a private field)."""
    game_id = new_game(games, "redact-1")
    while not any(isinstance(s.event, CardDrawnFaceDown) for s in games.events(game_id)):
        play(games, game_id, f"redact-{games.head(game_id)}", limit=20)
    return game_id


def test_unfinished_export_shows_each_viewer_only_what_it_may_see(local: Games) -> None:
    game_id = _unfinished(local)
    state = local.state(game_id)
    assert state is not None and not state.finished
    first = local.events(game_id)[0].event
    drawn = next(s.event for s in local.events(game_id) if isinstance(s.event, CardDrawnFaceDown))
    secrets = [orjson.dumps(list(state.deck)), state.seed.encode(), state.salt.encode(), first.salt.encode()]  # type: ignore[attr-defined]
    for viewer in (None, *range(len(state.players))):
        data = local.export(game_id, viewer)
        header = orjson.loads(data.split(b"\n")[0])
        assert header["format"] == FORMAT and header["complete"] is False and header["viewer"] == viewer
        for secret in secrets:
            assert secret not in data
        lines = [orjson.loads(line) for line in data.splitlines()[1:]]
        card_line = next(line for line in lines if line["event"]["type"] == "CardDrawnFaceDown")
        assert ("card" in card_line["event"]) == (viewer == drawn.seat)
        report = verify_file(data)
        assert report.exit_code == 2 and report.checks[1].status == "ok"  # chain verified, rest skipped
        assert [c.status for c in report.checks[2:]] == ["skipped", "skipped"]
        with pytest.raises(ImportRejected, match="redacted"):
            local.import_(data)
    with pytest.raises(ValueError):
        local.export(game_id, len(state.players))


def test_log_for_a_viewer_matches_the_redacted_export(local: Games) -> None:
    game_id = _unfinished(local)
    lines = [orjson.loads(line) for line in local.export(game_id, 1).splitlines()[1:]]
    assert local.log(game_id, 1) == lines
    assert local.log(game_id, 1, after=3, limit=2) == lines[3:5]


def test_operator_backup_of_an_unfinished_game_imports_and_plays_on(local: Games) -> None:
    game_id = _unfinished(local)
    data = local.export(game_id, reveal=True)
    header = orjson.loads(data.split(b"\n")[0])
    assert header["complete"] is True and header["viewer"] == "operator"
    copy_id = local.import_(data)
    assert [s.event for s in local.events(copy_id)] == [s.event for s in local.events(game_id)]
    play(local, copy_id, "backup-1")
    assert local.verify(copy_id).ok


def test_finished_export_is_complete_and_verifies(local: Games, finished_export: bytes) -> None:
    report = verify_file(finished_export)
    assert report.ok and report.finished and report.complete, report.findings
    game_id = local.import_(finished_export)
    assert local.export(game_id, 0).split(b"\n")[1:] == finished_export.split(b"\n")[1:]


# -- hostile input ----------------------------------------------------------------------------------


def _join(lines: list[Any]) -> bytes:
    return b"\n".join(line if isinstance(line, bytes) else orjson.dumps(line) for line in lines) + b"\n"


def _rehash(lines: list[dict[str, Any]], start: int) -> None:
    """Recompute the chain from line `start` on (as a forger would) and the header's head hash."""
    rehash(lines, start)  # in the file's audit scheme


def _hostile_cases(good: bytes) -> Iterator[tuple[str, bytes, int, str]]:
    """(name, file, line named by the error, text of the error)."""
    raw = good.splitlines()
    yield "empty", b"", 0, "empty"
    yield "not json", b"{nope\n" + b"\n".join(raw[1:]), 1, "not valid JSON"
    yield "not a log", _join([{"format": "other"}, *raw[1:]]), 1, "not a game log"
    header = export_lines(good)[0]
    yield (
        "future version",
        _join([{**header, "format_version": FORMAT_VERSION + 1}, *raw[1:]]),  # 2 exists since scheme 2
        1,
        "unsupported format_version",
    )
    yield "header type", _join([{**header, "events": "many"}, *raw[1:]]), 1, "wrong type"
    yield "huge line", _join([*raw[:3], b'"' + b"x" * (MAX_LINE_BYTES + 10) + b'"', *raw[4:]]), 4, "too long"
    yield "array line", _join([*raw[:3], b"[]", *raw[4:]]), 4, "must be a JSON object"
    yield "not utf-8", _join([*raw[:3], b'{"version":3,"\xff":1}', *raw[4:]]), 4, "not UTF-8"
    yield (
        "float",
        _join([*raw[:3], raw[3].replace(b'"version":3', b'"version":3.0'), *raw[4:]]),
        4,
        "integers",
    )
    yield "nan", _join([*raw[:3], raw[3].replace(b'"version":3', b'"version":NaN'), *raw[4:]]), 4, "integers"
    yield "duplicate key", _join([*raw[:3], raw[3][:-1] + b',"version":3}', *raw[4:]]), 4, "duplicate key"
    yield "deep", _join([*raw[:3], b'{"a":' * 40 + b"1" + b"}" * 40, *raw[4:]]), 4, "nested"
    yield (
        "huge int",
        _join([*raw[:3], raw[3].replace(b'"version":3', b'"version":' + b"9" * 30), *raw[4:]]),
        4,
        "range",
    )
    lines = export_lines(good)
    lines[3]["meta"]["batch"] = "3"
    yield "meta type", _join(lines), 4, "meta.batch has the wrong type"
    lines = export_lines(good)
    lines[3]["event"]["type"] = "CheatedHard"
    yield "unknown event", _join(lines), 4, "unknown event type"
    lines = export_lines(good)
    lines[3]["event"]["points"] = 3
    yield "unknown field", _join(lines), 4, "unknown field"
    lines = export_lines(good)
    lines.insert(4, lines[3])
    lines[0]["events"] += 1
    yield "duplicated event", _join(lines), 5, "appears twice"
    lines = export_lines(good)
    commands = [line for line in lines[1:] if line["meta"]["kind"] == "command"]
    second = commands[1]["meta"]["batch"]
    for line in lines[1:]:
        if line["meta"]["batch"] == second:
            line["meta"]["command_id"] = commands[0]["meta"]["command_id"]
    _rehash(lines, second)
    yield "duplicated command id", _join(lines), second + 1, "already used"


def test_hostile_files_are_rejected_with_their_line_and_nothing_is_written(
    local: Games, finished_export: bytes
) -> None:
    before = local.list_games()
    for name, data, line, text in _hostile_cases(finished_export):
        with pytest.raises(ImportRejected) as caught:
            local.import_(data)
        assert caught.value.line == line, (name, str(caught.value))
        assert text in str(caught.value), (name, str(caught.value))
        report = verify_file(data)
        assert not report.ok and report.exit_code == 1, name
        assert report.first is not None and (report.first.line or 0) == line, (name, str(report.first))
    assert local.list_games() == before


def test_random_byte_damage_never_crashes_import(local: Games, finished_export: bytes) -> None:
    rng = random.Random(7)
    original = [s.event for s in local.events(local.import_(finished_export))]
    before = len(local.list_games())
    imported = 0
    for _ in range(60):
        data = bytearray(finished_export)
        for _ in range(rng.randint(1, 3)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        try:
            game_id = local.import_(bytes(data))
        except ImportRejected:
            continue
        imported += 1  # a harmless change (e.g. in the header's export time) imports the same game
        assert [s.event for s in local.events(game_id)] == original
    assert len(local.list_games()) == before + imported


def test_event_dicts_in_files_are_the_engine_form(finished_export: bytes) -> None:
    from domain import event_from_dict

    for line in export_lines(finished_export)[1:]:
        assert event_to_dict(event_from_dict(line["event"])) == line["event"]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("finished", True),
        ("catalog", {"edition": "base", "hash": "0" * 64}),
        ("options", {"luna": True}),
        ("seats", [["Mallory", "galileo"], ["Eve", "kepler"]]),
    ],
)
def test_import_checks_every_header_field_against_the_lines(local: Games, field: str, value: Any) -> None:
    """A header that claims what its lines do not (an unfinished game said to be finished, another
    catalog, options or seats) is refused at line 1, and nothing is written."""
    game_id = new_game(local, "header-1")
    play(local, game_id, "header-1", limit=30)
    lines = local.export(game_id, reveal=True).splitlines()
    header = orjson.loads(lines[0])
    assert header[field] != value
    header[field] = value
    forged = b"\n".join([orjson.dumps(header), *lines[1:]]) + b"\n"
    before = len(local.list_games())
    with pytest.raises(ImportRejected) as refused:
        local.import_(forged)
    assert refused.value.line == 1 and field in str(refused.value)
    assert len(local.list_games()) == before
    assert not verify_file(forged).ok
