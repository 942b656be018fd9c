"""Read models at 100,000 finished games (a synthetic corpus): `/stats` and a deep lobby page.

The corpus: a dozen complete random-bot games (2-4 players, Luna in some, bots and people) are written to
a SQLite store and projected by the real lobby and statistics projections; their rows are then cloned
under new game IDs, creation times and contents until the views hold `GAMES` finished games.

- `stats_p50_ms_100k_games`: `StatsView.compute(Filters())` (what `GET /stats` serves) with its
  per-position cache emptied before each call, as any new event anywhere does on a live service; floor:
  reading one row of the same table by its key (the cost of any query on it). Goal: p50 <= 10 ms.
- `lobby_deep_page_p50_ms_100k_games`: the last page of 100 (`LobbyView.list` with the keyset cursor of
  the game before it; the old OFFSET page is in the note); floor: the first page. Goal: <= 10 ms.
"""

from __future__ import annotations

import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.fair import REPEATS, Figure, interleaved

GAMES = 100_000
QUICK_GAMES = 2_000
TEMPLATES = 12
CHUNK = 5_000


@contextmanager
def corpus(count: int) -> Iterator[str]:
    """A SQLite store whose lobby and statistics views hold `count` finished games."""
    from projections import projector
    from replays.store import open_store
    from tests.projections.corpus import new_game, write

    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/readmodels.db"
        store = open_store(url)
        try:
            write(store, [new_game(i) for i in range(TEMPLATES)])
        finally:
            store.close()
        for name in ("lobby", "stats"):
            projector.update(url, name)
        base = datetime(2024, 1, 1, tzinfo=UTC)
        for name in ("lobby", "stats"):
            table = projector.open_table(url, name)
            try:
                templates = [
                    d
                    for d in table.dump().values()
                    if d.get("finished", d.get("status")) in (1, True, "finished")
                ]
                assert templates, f"no finished game in the {name} view"
                with table.transaction() as c:
                    c.execute(f"DELETE FROM {table.qualified}")
                for start in range(0, count, CHUNK):
                    docs: dict[str, dict[str, Any]] = {}
                    for k in range(start, min(count, start + CHUNK)):
                        doc = dict(templates[k % len(templates)])
                        game_id = str(uuid.UUID(int=k + 1))
                        doc["game_id"] = game_id
                        if "created_at" in doc:
                            doc["created_at"] = (base + timedelta(seconds=k)).isoformat()
                        if "content" in doc:
                            doc["content"] = game_id  # each synthetic game is a game of its own
                        docs[game_id] = doc
                    with table.transaction() as c:
                        table.save(c, docs)
            finally:
                table.datastore.close()
        yield url


def timed(call: Callable[[], object], count: int) -> float:
    samples = []
    for _ in range(count):
        t0 = time.perf_counter()
        call()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def stats_figure(quick: bool) -> Figure:
    from projections import projector
    from projections.stats import Filters

    count = QUICK_GAMES if quick else GAMES
    with corpus(count) as url:
        view = projector.open_stats(url)
        try:
            assert view.compute(Filters())["games"] == count

            def ours(rep: int) -> float:
                def call() -> object:
                    view._cache.clear()  # a new event anywhere: the cache is keyed on the view position
                    return view.compute(Filters())

                return timed(call, 3)

            key = str(uuid.UUID(int=count // 2))
            value, floor = interleaved(
                ours, lambda rep: timed(lambda: view.table.count(["game_id = ?"], [key]), 50), REPEATS
            )
        finally:
            view.close()
    return Figure(
        value * 1000,
        floor * 1000,
        f"ms p50 of /stats (no filter) at {count:,} finished games vs one keyed row read",
        10.0,
        "lower",
        goal_of="value",
    )


def lobby_figure(quick: bool) -> Figure:
    from projections import projector
    from projections.lobby import cursor_of, parse_cursor

    count = QUICK_GAMES if quick else GAMES
    with corpus(count) as url:
        view = projector.open_lobby(url)
        try:
            before_last = view.list(limit=1, offset=count - 101)[0]
            cursor = parse_cursor(cursor_of(before_last))
            last_page = view.list(limit=100, offset=count - 100)
            assert [g.game_id for g in view.list(limit=100, after=cursor)] == [g.game_id for g in last_page]
            value, floor = interleaved(
                lambda rep: timed(lambda: view.list(limit=100, after=cursor), 20),
                lambda rep: timed(lambda: view.list(limit=100), 20),
                REPEATS,
            )
            offset = timed(lambda: view.list(limit=100, offset=count - 100), 5)
        finally:
            view.close()
    return Figure(
        value * 1000,
        floor * 1000,
        f"ms p50 of the last page of 100 at {count:,} finished games (keyset cursor) vs the first page",
        10.0,
        "lower",
        note=f"the same page by OFFSET: {offset * 1000:.1f} ms",
        goal_of="value",
    )
