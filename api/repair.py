"""Start-up repair of games that older versions stored without their seats.

Before creation became one transaction (`replays.service.RowsFor`), the API stored a new game's events
first and its seats and deal after, so a crash in between left a game nobody holds a seat of: the lobby
listed it as active forever. Such a game was never acknowledged to anyone (its creator got no answer),
so nothing is deleted: it is listed in `galileo_abandoned`, which the lobby leaves out.

A game is such an orphan when it was made by the API (its `GameStarted` was recorded with kind `setup`
by actor `api`, or its `GameForked` with kind `fork` by `api` or a seat) and has no `galileo_games` row.
Games made with the CLI (`galileo new`, `galileo fork`, `galileo import`) never had seats and are left
alone; an old API import cannot be told from a CLI one and is left alone too.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from api.seats import SeatStore
from replays.service import Games
from replays.store import TOPIC_PREFIX

logger = logging.getLogger(__name__)

PAGE = 500
REASON = "stored without seats by an older version (interrupted creation)"


def _made_by_api(metadata: dict[str, object]) -> bool:
    kind, actor = metadata.get("kind"), metadata.get("actor")
    if kind == "setup":
        return actor == "api"
    if kind == "fork":
        return actor == "api" or (isinstance(actor, str) and actor.startswith("seat "))
    return False


def find_orphans(games: Games, seats: SeatStore) -> list[str]:
    """The games made by the API that have no seats and deal recorded (and are not yet abandoned)."""
    recorder = games.store.recorder
    topics = [TOPIC_PREFIX + "GameStarted", TOPIC_PREFIX + "GameForked"]
    candidates: dict[str, None] = {}
    start: int | None = None
    while True:
        page = recorder.select_notifications(start, PAGE, topics=topics, inclusive_of_start=False)
        for n in page:
            if _made_by_api(games.store.mapper.to_domain_event(n).metadata or {}):
                candidates[str(n.originator_id)] = None
        if len(page) < PAGE:
            break
        start = page[-1].id
    known = seats.recorded(list(candidates))
    return [g for g in candidates if g not in known]


def repair(games: Games, seats: SeatStore) -> list[str]:
    """List every orphan as abandoned; returns their IDs."""
    orphans = find_orphans(games, seats)
    if orphans:
        seats.abandon(orphans, REASON, datetime.now(UTC).isoformat())
        logger.warning("%d game(s) stored without seats by an older version: abandoned", len(orphans))
    return orphans
