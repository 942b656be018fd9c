"""Running aggregates of the statistics (issue 17, item 5): `/stats` costs O(filters), not O(games).

The statistics projection keeps, besides its row per game, one aggregate per *cell*: the finished games
that share (players, luna, seats kind, edition, forked, imported), the columns the filters choose by.
An aggregate holds only sums and integer histograms (scores, turns, events), so a game is added to it, or
taken out of it, in constant time, and the statistics of any filter are those of the sum of its cells
(at most 4 x 2 x 4 x editions x 2 x 2 of them) with means and medians read off the histograms.

Each game counts once (projections/stats.py): of the copies of one game (equal `content`), the counted
one is the first by (imported, game ID); `stats_contents` remembers it, and a copy that ranks before it
takes its place (the old one's contribution is subtracted). The filter `imports=False` reads only cells
of games not imported, which hold exactly the counted copies that are not imported.

Both tables are written in the transaction of the projection's batch and its position. A view written
before they existed gets them filled from its rows once, when it is opened (a marker row says so).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import orjson

Agg = dict[str, Any]
CELLS, CONTENTS = "stats_cells", "stats_contents"
MARKER = ""  # the cell key of the row saying the cells were filled from the view's rows


def extra_tables(qualified: str, table: str) -> list[str]:
    cells, contents = qualified.replace(table, CELLS), qualified.replace(table, CONTENTS)
    return [
        f"CREATE TABLE IF NOT EXISTS {cells} (cell TEXT PRIMARY KEY, doc TEXT NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {contents} "
        "(content TEXT PRIMARY KEY, game_id TEXT NOT NULL, imported INTEGER NOT NULL)",
    ]


def cell_key(doc: Mapping[str, Any]) -> str:
    return orjson.dumps(
        [
            doc["players"],
            int(bool(doc["luna"])),
            doc.get("seats_kind"),
            doc["edition"],
            int(bool(doc.get("forked"))),
            int(bool(doc.get("imported"))),
        ]
    ).decode()


def cell_matches(
    key: str, players: Any, luna: Any, seats: Any, edition: Any, forks: bool, imports: bool
) -> bool:
    p, lu, sk, ed, fo, im = orjson.loads(key)
    return (
        (players is None or p == players)
        and (luna is None or lu == int(luna))
        and (seats is None or sk == seats)
        and (edition is None or ed == edition)
        and (forks or not fo)
        and (imports or not im)
    )


def contribution(game: Mapping[str, Any]) -> Agg:
    """What one finished game adds to its cell's aggregate."""
    players = game["players"]
    winners = set(game["winners"])
    characters: Agg = {}
    positions: Agg = {}
    by_source: dict[str, int] = {}
    scores: dict[str, int] = {}
    for seat, s in enumerate(game["seats"]):
        won = int(seat in winners)
        score = str(s["score"])
        c = characters.setdefault(s["character"], {"games": 0, "wins": 0, "scores": {}, "by_source": {}})
        c["games"] += 1
        c["wins"] += won
        c["scores"][score] = c["scores"].get(score, 0) + 1
        for k, v in s["by_source"].items():
            c["by_source"][k] = c["by_source"].get(k, 0) + v
            by_source[k] = by_source.get(k, 0) + v
        pos = str((seat - game["first_seat"]) % players)
        p = positions.setdefault(pos, {"seats": 0, "wins": 0, "scores": {}})
        p["seats"] += 1
        p["wins"] += won
        p["scores"][score] = p["scores"].get(score, 0) + 1
        scores[score] = scores.get(score, 0) + 1
    return {
        "games": 1,
        "winners_by_players": {str(players): len(winners)},  # fair share: sum of winners / players
        "turns_by_players": {str(players): game["turns"]},  # mean rounds: sum of turns / players
        "characters": characters,
        "positions": positions,
        "by_source": by_source,
        "scores": scores,
        "turns": {str(game["turns"]): 1},
        "events": {str(game["events"]): 1},
    }


def merge(into: Agg, add: Mapping[str, Any], sign: int = 1) -> Agg:
    """`into` plus (sign=1) or minus (sign=-1) `add`, nested; counts that reach zero are kept."""
    for key, value in add.items():
        if isinstance(value, Mapping):
            merge(into.setdefault(key, {}), value, sign)
        else:
            into[key] = into.get(key, 0) + sign * value
    return into


def _hist(h: Mapping[str, int]) -> list[tuple[int, int]]:
    return sorted((int(k), n) for k, n in h.items() if n > 0)


def _count(h: Mapping[str, int]) -> int:
    return sum(n for n in h.values() if n > 0)


def _mean(h: Mapping[str, int]) -> float | None:
    pairs = _hist(h)
    n = sum(c for _, c in pairs)
    return sum(v * c for v, c in pairs) / n if n else None


def _median(h: Mapping[str, int]) -> float | int | None:
    """statistics.median of the values the histogram counts (without expanding them)."""
    pairs = _hist(h)
    n = sum(c for _, c in pairs)
    if not n:
        return None

    def nth(i: int) -> int:
        for v, c in pairs:
            if i < c:
                return v
            i -= c
        raise IndexError(i)

    if n % 2:
        return nth(n // 2)
    return (nth(n // 2 - 1) + nth(n // 2)) / 2


def summary(agg: Mapping[str, Any], bin_width: int) -> dict[str, Any]:
    """The statistics of `projections.stats.summarise`, from an aggregate."""
    if bin_width < 1:
        raise ValueError("the bin width must be at least 1")
    games_n = int(agg.get("games", 0))
    characters = {k: c for k, c in agg.get("characters", {}).items() if c.get("games", 0) > 0}
    positions = {int(k): p for k, p in agg.get("positions", {}).items() if p.get("seats", 0) > 0}
    by_source = agg.get("by_source", {})
    sources = sorted(by_source)
    scores = agg.get("scores", {})
    seats = _count(scores)
    fair = math.fsum(w / int(p) for p, w in agg.get("winners_by_players", {}).items())
    fair_rate = fair / games_n if games_n else None
    first = positions.get(0)
    first_rate = first["wins"] / first["seats"] if first else None
    rounds = math.fsum(t / int(p) for p, t in agg.get("turns_by_players", {}).items())
    return {
        "games": games_n,
        "characters": [
            {
                "character": name,
                "games": c["games"],
                "wins": c.get("wins", 0),
                "win_rate": c.get("wins", 0) / c["games"],
                "mean_score": _mean(c["scores"]),
                "median_score": _median(c["scores"]),
                "mean_points_by_source": {k: c.get("by_source", {}).get(k, 0) / c["games"] for k in sources},
            }
            for name, c in sorted(characters.items())
        ],
        "points_by_source": {
            "seats": seats,
            "mean_per_seat": {k: by_source[k] / seats for k in sources} if seats else {},
        },
        "scores": _scores(scores, bin_width),
        "length": {
            "mean_turns": _mean(agg.get("turns", {})) if games_n else None,
            "median_turns": _median(agg.get("turns", {})) if games_n else None,
            "mean_rounds": rounds / games_n if games_n else None,
            "mean_events": _mean(agg.get("events", {})) if games_n else None,
            "median_events": _median(agg.get("events", {})) if games_n else None,
        },
        "first_seat": {
            "win_rate": first_rate,
            "fair_rate": fair_rate,
            "advantage": None if first_rate is None or fair_rate is None else first_rate - fair_rate,
            "by_position": [
                {
                    "position": pos,
                    "seats": p["seats"],
                    "wins": p.get("wins", 0),
                    "win_rate": p.get("wins", 0) / p["seats"],
                    "mean_score": _mean(p["scores"]),
                }
                for pos, p in sorted(positions.items())
            ],
        },
    }


def _scores(h: Mapping[str, int], width: int) -> dict[str, Any]:
    pairs = _hist(h)
    if not pairs:
        return {
            "seats": 0,
            "mean": None,
            "median": None,
            "min": None,
            "max": None,
            "bin_width": width,
            "bins": [],
        }
    low = pairs[0][0] // width * width
    counts: dict[int, int] = {}
    for v, c in pairs:
        counts[(v - low) // width] = counts.get((v - low) // width, 0) + c
    return {
        "seats": sum(c for _, c in pairs),
        "mean": _mean(h),
        "median": _median(h),
        "min": pairs[0][0],
        "max": pairs[-1][0],
        "bin_width": width,
        "bins": [
            {"from": low + i * width, "to": low + (i + 1) * width - 1, "seats": counts.get(i, 0)}
            for i in range(max(counts) + 1)
        ],
    }


class Cells:
    """The two tables of one statistics view, used inside its transactions (`c` a cursor)."""

    def __init__(self, qualified: str, table: str, mark: str, load: Any) -> None:
        self.cells = qualified.replace(table, CELLS)
        self.contents = qualified.replace(table, CONTENTS)
        self.qualified = qualified
        self.mark = mark
        self._load = load  # (c, game_ids) -> {game_id: doc}

    def _sql(self, statement: str) -> str:
        return statement.replace("?", self.mark)

    def count(self, c: Any, games: Iterable[Mapping[str, Any]]) -> None:
        """Add newly finished games (each once per content) to their cells."""
        changes: dict[str, Agg] = {}
        for game in games:
            content = game.get("content")
            if content is not None:
                rank = (int(bool(game.get("imported"))), game["game_id"])
                c.execute(
                    self._sql(f"SELECT game_id, imported FROM {self.contents} WHERE content = ?"), (content,)
                )
                row = c.fetchone()
                if row is not None:
                    if rank >= (int(row["imported"]), row["game_id"]):
                        continue  # a copy of a game counted already
                    old = self._load(c, [row["game_id"]])[row["game_id"]]
                    merge(changes.setdefault(cell_key(old), {}), contribution(old), -1)
                c.execute(
                    self._sql(
                        f"INSERT INTO {self.contents} (content, game_id, imported) VALUES (?, ?, ?) "
                        "ON CONFLICT (content) DO UPDATE SET game_id = excluded.game_id, "
                        "imported = excluded.imported"
                    ),
                    (content, game["game_id"], rank[0]),
                )
            merge(changes.setdefault(cell_key(game), {}), contribution(game))
        for key, change in changes.items():
            c.execute(self._sql(f"SELECT doc FROM {self.cells} WHERE cell = ?"), (key,))
            row = c.fetchone()
            agg = merge(orjson.loads(row["doc"]) if row is not None else {}, change)
            c.execute(
                self._sql(
                    f"INSERT INTO {self.cells} (cell, doc) VALUES (?, ?) "
                    "ON CONFLICT (cell) DO UPDATE SET doc = excluded.doc"
                ),
                (key, orjson.dumps(agg).decode()),
            )

    def fill(self, c: Any) -> None:
        """Fill the cells from the view's rows once (a view written before the cells existed)."""
        c.execute(self._sql(f"SELECT doc FROM {self.cells} WHERE cell = ?"), (MARKER,))
        if c.fetchone() is not None:
            return
        c.execute(f"DELETE FROM {self.cells}")
        c.execute(f"DELETE FROM {self.contents}")
        c.execute(self._sql(f"SELECT doc FROM {self.qualified} WHERE finished = ? ORDER BY game_id"), (1,))
        finished = [orjson.loads(row["doc"]) for row in c.fetchall()]
        self.count(c, finished)
        c.execute(self._sql(f"INSERT INTO {self.cells} (cell, doc) VALUES (?, ?)"), (MARKER, "{}"))

    def read(self, c: Any) -> dict[str, Agg]:
        c.execute(self._sql(f"SELECT cell, doc FROM {self.cells} WHERE cell <> ?"), (MARKER,))
        return {row["cell"]: orjson.loads(row["doc"]) for row in c.fetchall()}
