"""The export file of a game: versioned JSON Lines (docs/export.md).

Line 1 is a header; each further line is one event with its number, metadata and hashes. Reading is
built for hostile input: size limits, strict JSON (no duplicate keys, no floats, no NaN), bounded
nesting and integer range, and every error names its line.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain import ENGINE_VERSION
from replays.audit import CHAINED, COMPACT, KEYED, canonical, redact, scheme_of
from replays.records import HASH_PATTERN, Record
from replays.verify import Finding

FORMAT = "galileo-game-log"
FORMAT_VERSION = 3  # the newest; a game of audit scheme 1 or 2 is still written as version 1 or 2
# the file version of a game's audit scheme (docs/export.md)
FORMAT_VERSIONS = {CHAINED: 1, COMPACT: 2, KEYED: 3}
MAX_FILE_BYTES = 64 << 20
MAX_LINE_BYTES = 1 << 20
MAX_EVENTS = 100_000
MAX_DEPTH = 16
INT_RANGE = (-(2**63), 2**63 - 1)
LINE_KEYS = {"version", "event", "meta", "sealed"}
HEADER_TYPES: Mapping[str, tuple[type, ...]] = {
    "format": (str,),
    "format_version": (int,),
    "game_id": (str,),
    "exported_at": (str,),
    "engine_version": (str,),
    "catalog": (dict,),
    "options": (dict,),
    "seats": (list,),
    "events": (int,),
    "head_hash": (str,),
    "finished": (bool,),
    "complete": (bool,),
    "viewer": (int, str, type(None)),
}


class ExportFormatError(ValueError):
    """A file that is not a readable game log; `line` is 1-based, 0 for the file as a whole."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.message = message


@dataclass(frozen=True, slots=True)
class GameLog:
    header: Mapping[str, Any]
    records: tuple[Record, ...]


def export_line(record: Record, viewer: int | None, complete: bool) -> dict[str, Any]:
    """The line of one event: complete, or what `viewer` may see with the digests of the rest."""
    if complete:
        return {"version": record.version, "event": dict(record.event), "meta": dict(record.meta)}
    event, meta, sealed = redact(record.event, record.meta, viewer)
    line: dict[str, Any] = {"version": record.version, "event": event, "meta": meta}
    if sealed:
        line["sealed"] = sealed
    return line


def encode(header: Mapping[str, Any], records: Sequence[Record], viewer: int | None, complete: bool) -> bytes:
    lines = [canonical(header), *(canonical(export_line(r, viewer, complete)) for r in records)]
    return b"\n".join(lines) + b"\n"


def make_header(
    game_id: str, records: Sequence[Record], exported_at: str, viewer: int | str | None, complete: bool
) -> dict[str, Any]:
    first = records[0].event
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSIONS[scheme_of(records[0].meta)],
        "game_id": game_id,
        "exported_at": exported_at,
        "engine_version": ENGINE_VERSION,
        "catalog": {"edition": first["catalog_edition"], "hash": first["catalog_hash"]},
        "options": first["options"],
        "seats": first["seats"],
        "events": len(records),
        "head_hash": records[-1].meta["hash"],
        "finished": records[-1].event["type"] == "GameEnded",
        "complete": complete,
        "viewer": viewer,
    }


# -- reading -----------------------------------------------------------------------------------------


def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _reject_float(text: str) -> Any:
    raise ValueError(f"numbers must be integers, not {text}")


def _check_values(value: Any) -> str | None:
    """Bounded nesting and integer range (canonical encoding takes 64-bit integers only)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return f"nested deeper than {MAX_DEPTH} levels"
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
        elif (
            isinstance(item, int) and not isinstance(item, bool) and not INT_RANGE[0] <= item <= INT_RANGE[1]
        ):
            return f"integer {item} out of range"
    return None


def _load_line(raw: bytes, number: int) -> Any:
    if len(raw) > MAX_LINE_BYTES:
        raise ExportFormatError(number, f"line too long ({len(raw)} bytes; at most {MAX_LINE_BYTES})")
    try:
        text = raw.decode("utf-8")
        value = json.loads(
            text,
            object_pairs_hook=_reject_duplicates,
            parse_float=_reject_float,
            parse_constant=_reject_float,
        )
    except UnicodeDecodeError as exc:
        raise ExportFormatError(number, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except RecursionError:
        raise ExportFormatError(number, "nested too deeply") from None
    except ValueError as exc:
        raise ExportFormatError(number, f"not valid JSON: {exc}") from None
    problem = _check_values(value)
    if problem:
        raise ExportFormatError(number, problem)
    return value


def _check_header(header: Any) -> None:
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ExportFormatError(1, f"not a game log: the first line must be a header with format {FORMAT!r}")
    version = header.get("format_version")
    known = sorted(FORMAT_VERSIONS.values())
    if isinstance(version, bool) or version not in known:
        raise ExportFormatError(
            1,
            f"unsupported format_version {version!r} (this service reads {', '.join(map(str, known))})",
        )
    for key, types in HEADER_TYPES.items():
        if key not in header:
            raise ExportFormatError(1, f"header lacks {key!r}")
        value = header[key]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            raise ExportFormatError(1, f"header {key!r} has the wrong type ({type(value).__name__})")
    if not 0 < header["events"] <= MAX_EVENTS:
        raise ExportFormatError(1, f"header 'events' must be 1..{MAX_EVENTS}")


def _record(value: Any, number: int) -> Record:
    if not isinstance(value, dict):
        raise ExportFormatError(number, "an event line must be a JSON object")
    missing = sorted({"version", "event", "meta"} - set(value))
    if missing:
        raise ExportFormatError(number, f"event line lacks {', '.join(missing)}")
    unknown = sorted(set(value) - LINE_KEYS)
    if unknown:
        raise ExportFormatError(number, f"event line has unknown key(s) {', '.join(unknown)}")
    sealed = value.get("sealed")
    if sealed is not None and not (
        isinstance(sealed, dict)
        and all(isinstance(d, str) and HASH_PATTERN.fullmatch(d) for d in sealed.values())
    ):
        raise ExportFormatError(number, "sealed must map secret groups to 64 lowercase hexadecimal digits")
    return Record(value["version"], value["event"], value["meta"], sealed, line=number)


def parse(data: bytes) -> GameLog:
    """Read an export file; raises ExportFormatError (with the line) when it is not a readable log.

    Checks of content (event fields, metadata, hashes, rules) are the verifier's, with their lines."""
    if not isinstance(data, bytes | bytearray):
        raise ExportFormatError(0, "an export file is bytes")
    if len(data) > MAX_FILE_BYTES:
        raise ExportFormatError(0, f"file too large ({len(data)} bytes; at most {MAX_FILE_BYTES})")
    lines = bytes(data).split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if not lines:
        raise ExportFormatError(0, "the file is empty")
    if len(lines) - 1 > MAX_EVENTS:
        raise ExportFormatError(0, f"too many events ({len(lines) - 1}; at most {MAX_EVENTS})")
    header = _load_line(lines[0], 1)
    _check_header(header)
    records = []
    for number, raw in enumerate(lines[1:], start=2):
        if not raw.strip():
            raise ExportFormatError(number, "empty line")
        line = _load_line(raw, number)
        if isinstance(line, dict) and set(line) == {"chat"}:
            continue  # a table chat line of an export with `?chat=1`: not an event, never imported (CHAT-1)
        records.append(_record(line, number))
    return GameLog(header, tuple(records))


def header_problems(log: GameLog) -> list[Finding]:
    """Where the header disagrees with the events it heads (a truncated or spliced file)."""
    header, records = log.header, log.records
    out: list[Finding] = []
    if header["events"] != len(records):
        out.append(
            Finding(
                "format",
                f"the header announces {header['events']} events, the file has {len(records)}",
                line=1,
            )
        )
    elif (
        records
        and isinstance(records[-1].meta, Mapping)
        and records[-1].meta.get("hash") != header["head_hash"]
    ):
        last = records[-1]
        out.append(Finding("format", "the last event's hash is not the header's head_hash", line=last.line))
    if not records:
        return out
    schemes = {v: k for k, v in FORMAT_VERSIONS.items()}
    wrong = next(
        (
            r
            for r in records
            if isinstance(r.meta, Mapping) and scheme_of(r.meta) != schemes[header["format_version"]]
        ),
        None,
    )
    if wrong is not None:
        message = (
            f"format_version {header['format_version']} holds events of audit scheme "
            f"{schemes[header['format_version']]}, not {scheme_of(wrong.meta)}"
        )
        out.append(Finding("format", message, line=wrong.line))
    first, last_type = records[0].event, records[-1].event.get("type")
    said: list[tuple[str, Any, Any]] = [
        ("finished", header.get("finished"), last_type == "GameEnded"),
        (
            "catalog",
            header.get("catalog"),
            {"edition": first.get("catalog_edition"), "hash": first.get("catalog_hash")},
        ),
        ("options", header.get("options"), first.get("options")),
        ("seats", header.get("seats"), first.get("seats")),
    ]
    if header.get("complete") is True and any(r.sealed for r in records):
        said.append(("complete", True, False))
    for field, claimed, actual in said:
        if claimed != actual:
            out.append(
                Finding(
                    "format",
                    f"the header's {field} ({_short(claimed)}) disagrees with the events ({_short(actual)})",
                    line=1,
                )
            )
    return out


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 80 else text[:77] + "..."
