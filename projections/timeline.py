"""The score timeline of one game: every seat's score after every turn, and its points by source so
far, computed from the game's events (no state, no view: a game's log is short and read on request).

    timeline(s.event for s in games.events(game_id))

Points are the sums of `VictoryPointsScored` (design.md: points change only through it, with a
source). The points are: `start` (version 1, all zero), one per `TurnEnded` (labelled with the number
of turns played), and `end` after `GameEnded` (the final scoring), so the last point of a finished
game holds its final scores. Only public fields are read: a timeline reveals nothing hidden, and
`public_events` empties every secret field first for whoever serves the timeline of an unfinished game.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

from domain.events import Event, GameEnded, GameStarted, TakenBack, TurnEnded, VictoryPointsScored

START, TURN, END = "start", "turn", "end"


def timeline(events: Iterable[Event]) -> dict[str, Any]:
    """The timeline of a game's events, in order from its `GameStarted`."""
    items = iter(events)
    first = next(items, None)
    if not isinstance(first, GameStarted):
        raise ValueError("a game's events begin with GameStarted")
    players = len(first.seats)
    scores = [0] * players
    by_source: list[dict[str, int]] = [{} for _ in range(players)]
    sources: set[str] = set()
    turns = 0
    points = [_point(START, 1, 0, None, scores, by_source)]
    ended: GameEnded | None = None
    for version, event in enumerate(items, start=2):
        if isinstance(event, VictoryPointsScored):
            scores[event.seat] += event.points
            by_source[event.seat][event.source] = by_source[event.seat].get(event.source, 0) + event.points
            sources.add(event.source)
        elif isinstance(event, TakenBack):  # within a turn (docs/async.md): the points go back
            scores = list(event.scores)
            by_source = [dict(points) for points in event.points]
        elif isinstance(event, TurnEnded):
            turns += 1
            points.append(_point(TURN, version, turns, event.seat, scores, by_source))
        elif isinstance(event, GameEnded):
            ended = event
            points.append(_point(END, version, turns, None, scores, by_source))
    return {
        "seats": [
            {"seat": i, "name": name, "character": character}
            for i, (name, character) in enumerate(first.seats)
        ],
        "first_seat": first.first_seat,
        "finished": ended is not None,
        "winners": None if ended is None else list(ended.winners),
        "turns": turns,
        "sources": sorted(sources),
        "scores": list(scores),
        "by_source": [dict(sorted(s.items())) for s in by_source],
        "points": points,
    }


def public_events(events: Iterable[Event]) -> Iterator[Event]:
    """The events with every field that is secret before the end (`HIDDEN`, and `OWNER_ONLY` of any
    seat) emptied: what everyone may know of a running game, as events `timeline` accepts."""
    for event in events:
        secret = (*event.HIDDEN, *event.OWNER_ONLY)
        yield replace(event, **{f: type(getattr(event, f))() for f in secret}) if secret else event


def _point(
    kind: str, version: int, turns: int, seat: int | None, scores: list[int], by_source: list[dict[str, int]]
) -> dict[str, Any]:
    """One point of the timeline: after `turns` turns (`seat` played the last one), at `version`."""
    return {
        "kind": kind,
        "version": version,
        "turn": turns,
        "seat": seat,
        "scores": list(scores),
        "by_source": [dict(s) for s in by_source],
    }
