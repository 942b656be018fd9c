"""Dispute reports: one turn of a stored game explained event by event, for referees (design.md).

For each command of the turn: who sent it, when it was received, its text, how many legal moves the
rules offered at that point and whether it was one of them (re-checked with the engine now), then every
event it caused with the rule that decided it and the points it moved, as the viewer may see them. The
report starts with the game's verification (hash chain, re-adjudication, fair deal), so a referee knows
the log can be trusted before reading it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID

from domain import command_to_dict, legal_moves, parse_command, public_state
from domain.analysis import analyse_game
from domain.events import TurnEnded
from domain.search import Budget
from projections.describe import Context, default_context, describe_command, describe_event
from replays.service import Games
from rulebook import UnknownRule, reference, rule_url


def _turn_span(games: Games, game_id: str | UUID, turn: int) -> tuple[int, int]:
    """The versions (first, last) of the events of `turn` (0-based; turn 0 includes the setup)."""
    first: int | None = None
    current = 0
    for stored in games.events(game_id):
        if current == turn and first is None:
            first = stored.version
        if isinstance(stored.event, TurnEnded):
            if current == turn:
                assert first is not None
                return first, stored.version
            current += 1
    if current == turn and first is not None:
        return first, games.head(game_id)  # the turn under way
    raise ValueError(f"the game has no turn {turn} (it has had {current + 1})")


def _summary(event: Mapping[str, Any]) -> str:
    skip = {"type", "seat", "rule", "redacted"}
    parts = [f"{k}={v}" for k, v in event.items() if k not in skip]
    if event.get("redacted"):
        parts.append(f"(hidden: {', '.join(event['redacted'])})")
    return " ".join(parts)


def dispute_report(
    games: Games,
    game_id: str | UUID,
    turn: int,
    viewer: int | None = None,
    evaluate: Budget | None = None,
    seed: str = "analysis",
    locale: str = "en",
) -> dict[str, Any]:
    """The report as data (the CLI prints it; `--json` gives it as is). With `evaluate`, each decision of
    the turn carries its evaluation (domain/analysis.py: the one `galileo analyse` gives with the same
    budget and seed), from the acting seat's view in a finished game, from `viewer`'s in a running one
    (a running game's evaluation needs a viewer: ValueError)."""
    report = games.verify(game_id)
    first, last = _turn_span(games, game_id, turn)
    evaluations: dict[int, dict[str, Any]] = {}
    if evaluate is not None:
        events = [stored.event for stored in games.events(game_id)]
        analysis = analyse_game(events, viewer=viewer, budget=evaluate, seed=seed, between=(first, last))
        evaluations = {d.version + 1: d.as_dict() for d in analysis.decisions}
    lines = games.log(game_id, viewer, after=first - 1, limit=last - first + 1)
    commands: list[dict[str, Any]] = []
    rules: set[str] = set()
    context = default_context(locale=locale)
    for line in lines:
        meta, event = line["meta"], line["event"]
        version = line["version"]
        if meta.get("kind") == "command" and (
            not commands or commands[-1]["command_id"] != meta.get("command_id")
        ):
            before = games.state(game_id, version - 1)
            text = meta.get("command", {}).get("text", "")
            legal = legal_moves(before) if before is not None else []
            words = text
            try:
                parsed = parse_command(text)
                offered = parsed in legal
                position = None if before is None else public_state(before, viewer)
                words = describe_command(
                    command_to_dict(parsed), Context(context.catalog, position, locale=locale)
                )
            except ValueError:
                offered = False
            commands.append(
                {
                    "version": version,
                    "actor": meta.get("actor"),
                    "received_at": meta.get("received_at"),
                    "command_id": meta.get("command_id"),
                    "command": text,
                    "description": words,
                    "legal_moves": len(legal),
                    "was_legal": offered,
                    **({"evaluation": evaluations[version]} if version in evaluations else {}),
                    "events": [],
                }
            )
        elif meta.get("kind") == "table" and (
            not commands or commands[-1]["command_id"] != meta.get("command_id")
        ):  # a take-back, resignation, clock or host request (docs/async.md): no rules choice
            commands.append(
                {
                    "version": version,
                    "actor": meta.get("actor"),
                    "received_at": meta.get("received_at"),
                    "command_id": meta.get("command_id"),
                    "command": f"(table) {meta.get('command', {}).get('type', '')}",
                    "events": [],
                }
            )
        elif not commands:
            commands.append(
                {
                    "version": version,
                    "actor": meta.get("actor"),
                    "command": f"({meta.get('kind', 'automatic')})",
                    "command_id": meta.get("command_id"),
                    "events": [],
                }
            )
        rule = event.get("rule")
        if rule:
            rules.add(rule)
        entry = {"version": version, "type": event["type"], "seat": event.get("seat"), "rule": rule}
        if rule:
            entry["rule_url"] = rule_url(rule)
        entry["description"] = describe_event(event, context)
        entry["details"] = _summary(event)
        if event["type"] == "VictoryPointsScored":
            entry["points"] = {"seat": event["seat"], "points": event["points"], "source": event["source"]}
        commands[-1]["events"].append(entry)
    return {
        "game_id": str(game_id),
        "turn": turn,
        "versions": [first, last],
        "viewer": viewer,
        "verified": {c.name: c.status for c in report.checks},
        "ok": report.ok,
        "commands": commands,
        "rules": sorted(rules),
        "rule_refs": [_rule_ref(rule) for rule in sorted(rules)],
        **(
            {"evaluation_budget": evaluate.as_dict(), "evaluation_seed": seed} if evaluate is not None else {}
        ),
    }


def evaluation_line(d: Mapping[str, Any]) -> str:
    """One decision's evaluation in words (docs/analysis.md)."""
    after, best = d["after"], d["best_eval"]
    line = f"evaluation: win {after['win']:.1%}, margin {after['margin']:+.1f} after this move"
    if d["best"] != d["move"]:
        line += f"; best found {d['best']}: win {best['win']:.1%}, margin {best['margin']:+.1f}"
        line += f" (loss {d['loss']:.1%}, {d['margin_loss']:.1f} points"
        line += f"{', ' + d['mistake'] if d['mistake'] else ''})"
    else:
        line += " (the best move found)"
    return line


def _rule_ref(rule_id: str) -> dict[str, str | None]:
    """A rule of the report with its title and the path of its entry in the rules reference."""
    try:
        title: str | None = reference().get(rule_id).title
    except UnknownRule:
        title = None  # tests/rulebook keeps every cited ID in the reference; a stale log still renders
    return {"id": rule_id, "title": title, "url": rule_url(rule_id)}


def render(report: Mapping[str, Any]) -> str:
    """Plain text, one block per command."""
    out = [
        f"Dispute report: game {report['game_id']}, turn {report['turn']} "
        f"(events {report['versions'][0]}-{report['versions'][1]})",
        "Verification: " + ", ".join(f"{k} {v}" for k, v in report["verified"].items()),
    ]
    for block in report["commands"]:
        legal = ""
        if "legal_moves" in block:
            verdict = "one of them" if block["was_legal"] else "NOT one of them"
            legal = f" - {block['legal_moves']} legal move(s) at that point, this was {verdict}"
        out.append("")
        said = f" ({block['description']})" if block.get("description") else ""
        out.append(f"#{block['version']} {block['actor']}: {block['command']}{said}{legal}")
        if block.get("received_at"):
            out.append(f"    received {block['received_at']} (command id {block['command_id']})")
        if "evaluation" in block:
            out.append("    " + evaluation_line(block["evaluation"]))
        for e in block["events"]:
            rule = f" [{e['rule']}]" if e["rule"] else ""
            out.append(f"    {e['version']:>5} {e['description']}{rule}")
            out.append(f"          {e['type']} {e['details']}")
    out.append("")
    out.append("Rules applied (text: docs/rules/, `galileo rules RULE_ID`, or GET /rules/RULE_ID):")
    for ref in report["rule_refs"]:
        out.append(f"    {ref['id']:<10} {ref['title'] or '(not in the rules reference)'} - see {ref['url']}")
    return "\n".join(out)
