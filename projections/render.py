"""Terminal views of stored games for the CLI: a state, an event log, a verification report."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.table import Table

from domain import GameState, command_to_dict, parse_command
from domain.state import SKY
from projections.describe import default_context, describe_command, describe_event
from projections.i18n import N_, text
from replays.verify import VerifyReport

DETAIL_WIDTH = 90


def state_table(state: GameState, title: str) -> Table:
    """One row per seat: score (by source), resources and position."""
    table = Table(title=title)
    for column in ("seat", "name", "character", "score", "points by source", "dice", "Q", "telescope", "rep"):
        table.add_column(column)
    acting = None if state.finished else state.turn.seat
    for p in state.players:
        marker = " *" if p.seat == acting else ""
        table.add_row(
            f"{p.seat}{marker}",
            p.name,
            p.character,
            str(p.score),
            " ".join(f"{k}={v}" for k, v in p.points),
            " ".join(f"{c}{v}" for c, v in p.dice),
            str(p.quadrants),
            SKY[p.telescope],
            str(p.reputation),
        )
    return table


def state_summary(state: GameState) -> str:
    if state.finished:
        names = ", ".join(state.players[s].name for s in state.winners)
        return f"game over after turn {state.turn.number + 1}; winner(s): {names}"
    display = " ".join(card or "-" for card in state.display)
    return (
        f"turn {state.turn.number + 1}, seat {state.turn.seat} to act ({state.turn.phase}); "
        f"display: {display}; deck: {len(state.deck)} cards"
    )


def _details(view: dict[str, Any]) -> str:
    skip = {"type", "seat", "rule"}
    text = " ".join(f"{k}={_short(v)}" for k, v in view.items() if k not in skip)
    return text if len(text) <= DETAIL_WIDTH else text[: DETAIL_WIDTH - 1] + "…"


def _short(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ",".join(_short(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{_short(v)}" for k, v in value.items()) + "}"
    return str(value)


def command_words(command: Mapping[str, Any], locale: str = "en") -> str:
    """A stored command (its JSON form, or only its text notation) in words, with its notation."""
    text = str(command.get("text") or command.get("type", ""))
    data: Mapping[str, Any] = command
    if "type" not in command and text:
        try:
            data = command_to_dict(parse_command(text))
        except ValueError:
            return text
    return f"{describe_command(data, default_context(locale=locale))} ({text})" if text else ""


def log_table(lines: Sequence[Mapping[str, Any]], title: str, locale: str = "en") -> Table:
    """One row per event line (`Games.log`), in words (projections/describe.py) and as its fields; the
    command and who sent it on the first event of a batch."""
    table = Table(title=title)
    columns = (N_("seat"), N_("what happened"), N_("event"), N_("rule"), N_("cause"))
    for column in ("#", *(text(locale, c) for c in columns)):
        table.add_column(column, overflow="fold")
    context = default_context(locale=locale)
    for line in lines:
        view, meta = line["event"], line["meta"]
        cause = ""
        if meta.get("batch") == line["version"]:
            cause = (
                f"{meta.get('kind')} by {meta.get('actor')}: {command_words(meta.get('command', {}), locale)}"
            )
        seat = "" if view.get("seat") is None else str(view["seat"])
        words = describe_event(view, context)
        table.add_row(
            str(line["version"]), seat, words, f"{view['type']} {_details(view)}", view.get("rule", ""), cause
        )
    return table


def report_table(report: VerifyReport) -> Table:
    verdict = "OK" if report.ok else ("FAILED" if report.exit_code == 1 else "INCOMPLETE")
    table = Table(title=f"verify {report.source}: {verdict} ({report.events} events)")
    table.add_column("check")
    table.add_column("status")
    table.add_column("detail", overflow="fold")
    colours = {"ok": "green", "failed": "red", "skipped": "yellow"}
    for check in report.checks:
        table.add_row(check.name, f"[{colours[check.status]}]{check.status}[/]", check.detail)
    return table


def analysis_tables(analysis: Mapping[str, Any], game: str, moves: int = 40) -> list[Table]:
    """An analysis document (docs/analysis.md) as tables: accuracy per seat, the turning points, and
    the decisions that lost the most (at most `moves`; `--json` has every decision)."""
    seats = analysis["seats"]
    budget = analysis["budget"]
    view = "each acting seat's view" if analysis["viewer"] is None else f"seat {analysis['viewer']}'s view"
    summary = Table(
        title=f"Analysis of {game} at version {analysis['version']} ({view}; budget {budget['label']}, "
        f"{analysis['analyser']})"
    )
    for column in (
        "seat",
        "name",
        "decisions",
        "accuracy",
        "inaccuracies",
        "mistakes",
        "blunders",
        "mean loss",
    ):
        summary.add_column(column, justify="left" if column == "name" else "right")
    for s in analysis["summary"]:
        accuracy = "-" if s["accuracy"] is None else f"{s['accuracy']:.1f}"
        summary.add_row(
            str(s["seat"]),
            s["name"],
            str(s["decisions"]),
            accuracy,
            str(s["inaccuracies"]),
            str(s["mistakes"]),
            str(s["blunders"]),
            f"{s['mean_loss']:.1%}",
        )
    turning = Table(title="Turning points")
    for column in ("decision", "version", "seat", "kind", "swing", "leader after"):
        turning.add_column(column)
    for t in analysis["turning_points"]:
        turning.add_row(
            str(t["index"]),
            str(t["version"]),
            seats[t["seat"]],
            t["kind"],
            f"{t['swing']:.1%}",
            seats[t["leader"]],
        )
    worst = sorted(
        (d for d in analysis["decisions"] if d["mistake"]), key=lambda d: -d.get("severity", d["loss"])
    )[:moves]
    decisions = Table(title=f"Mistakes, largest loss first ({len(worst)} shown)")
    for column in (
        "version",
        "turn",
        "seat",
        "played",
        "win after",
        "best found",
        "win best",
        "loss",
        "class",
    ):
        decisions.add_column(column, overflow="fold")
    for d in worst:
        decisions.add_row(
            str(d["version"]),
            str(d["turn"]),
            seats[d["seat"]],
            d["move"],
            f"{d['after']['win']:.1%} ({d['after']['margin']:+.1f})",
            d["best"],
            f"{d['best_eval']['win']:.1%} ({d['best_eval']['margin']:+.1f})",
            f"{d['loss']:.1%} ({-d['margin_loss']:+.1f})",
            d["mistake"],
        )
    return [summary, turning, decisions]
