"""Statistics across games: a per-game fact row kept by a projection, aggregated on request.

The projection keeps, for every game, what the statistics need: player count, options (Luna), catalog
edition, who sat where with which character, bot or person, each seat's points by source, turns,
events, winners. `StatsView.compute(filters)` reads the finished games that match and `summarise`s
them. Final scores are the sums of `VictoryPointsScored` (design.md: points change only through it).

Decisions where the issue is silent:
- only finished games count ("games played"); `in_progress` says how many others match;
- forked games are left out unless `forks=True`: a fork repeats its source's start and would count
  it twice;
- each game counts once: copies of one game (an export imported here again, twice, ...) are recognised
  by content, the hash that ends their identical chains (`content`), and counted once;
- imported games (stored here with the times of another store: `received_at` differs from when this
  store wrote them) count, as games played elsewhere, unless `imports=False`;
- a shared win is a win for every winner, and the fair share of wins at a seat is the mean of
  winners/players, so ties do not look like a first-seat advantage;
- seat positions count from the first seat (position 0 starts the game).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, ClassVar

from eventsourcing.persistence import Tracking

from domain.events import GameEnded, GameForked, TurnEnded, VictoryPointsScored
from projections.aggregates import Cells, cell_matches, contribution, extra_tables, merge, summary
from projections.documents import Document, Moved, PostgresDocuments, Schema, SQLiteDocuments
from projections.projection import GameProjection
from projections.source import BOT, HUMAN, Fact, topics

DIFFICULTIES = ("base", "easy", "normal", "hard", "flaming")  # the solo game's (SOLO-2; base: no Luna)
SEATS = ("bots", "humans", "mixed")  # every seat a bot, every seat a person, both
LUNA = "luna"  # the option of the Luna expansion (a future option: absent means off)
BIN_WIDTH = 10


class StatsSchema(Schema):
    """The statistics table plus its running aggregates (projections/aggregates.py)."""

    def create(self, qualified: str) -> list[str]:
        return [*super().create(qualified), *extra_tables(qualified, self.table)]


SCHEMA = StatsSchema(
    table="stats_games",
    columns=(
        ("finished", "INTEGER NOT NULL"),
        ("players", "INTEGER NOT NULL"),
        ("luna", "INTEGER NOT NULL"),
        ("edition", "TEXT NOT NULL"),
        ("seats_kind", "TEXT"),
        ("forked", "INTEGER NOT NULL"),
    ),
    indexes=(("finished", "players"),),
)


def fold(doc: Document | None, fact: Fact) -> Document:
    """A game's statistics row after one more of its events (updates `doc` in place)."""
    if doc is None:
        if fact.type != "GameStarted":
            raise ValueError(f"game {fact.game_id}: its first event is {fact.type}, not GameStarted")
        return _started(fact.game_id, fact.payload)
    event = fact.event
    kind = fact.seat_kind
    if kind is not None and kind[0] < len(doc["seats"]):
        seat = doc["seats"][kind[0]]
        if seat["kind"] != HUMAN:
            seat["kind"] = kind[1]
            doc["seats_kind"] = seats_kind(s["kind"] for s in doc["seats"])
    if isinstance(event, VictoryPointsScored):
        seat = doc["seats"][event.seat]
        seat["score"] += event.points
        seat["by_source"][event.source] = seat["by_source"].get(event.source, 0) + event.points
    elif isinstance(event, TurnEnded):
        doc["turns"] += 1
    elif isinstance(event, GameForked):
        doc["forked"] = True
    elif fact.type == "OpponentDealt":  # the solo game against Tycho Brahe (SOLO-27), its level (SOLO-2)
        doc["solo"] = True
        doc["difficulty"] = getattr(event, "difficulty", "") or "base"
        doc["opponent_seat"] = event.seat
    elif isinstance(event, GameEnded):
        doc["finished"] = True
        doc["winners"] = list(event.winners)
        doc["events"] = fact.version
        doc["content"] = fact.meta.get("hash")  # covers every event and its metadata: equal for copies
        doc["imported"] = fact.stored_at is not None and fact.stored_at != fact.received_at
    return doc


def _started(game_id: str, started: Mapping[str, Any]) -> Document:
    # Read from the event's JSON form (decoding the whole deal is not needed here).
    return {
        "game_id": game_id,
        "finished": False,
        "players": len(started["seats"]),
        "luna": bool(started["options"].get(LUNA, False)),
        "edition": started["catalog_edition"],
        "seats_kind": None,
        "forked": False,
        "imported": False,
        "content": None,
        "first_seat": started["first_seat"],
        "seats": [
            {"name": name, "character": character, "kind": None, "score": 0, "by_source": {}}
            for name, character in started["seats"]
        ],
        "turns": 0,
        "events": None,
        "winners": None,
    }


def seats_kind(kinds: Iterable[str | None]) -> str | None:
    """bots, humans or mixed from the seats' kinds (seats that have not moved are not counted)."""
    known = {k for k in kinds if k is not None}
    if not known:
        return None
    if known == {BOT}:
        return "bots"
    return "humans" if known == {HUMAN} else "mixed"


class StatsProjection(GameProjection[Any]):
    name = "stats"
    topics = topics(
        "GameStarted", "OpponentDealt", "GameForked", "TurnEnded", "VictoryPointsScored", "GameEnded"
    )
    fold = staticmethod(fold)

    def _write(self, facts: list[Fact], last: Tracking) -> None:
        # GameProjection._write, also adding the games this batch finished to the running aggregates
        # in the same transaction (exactly once, like the rows).
        view = self.view
        with view.transaction() as c:
            found = view.position(c)
            if found != self.position:
                raise Moved(self.position, found)
            docs = view.load(c, dict.fromkeys(f.game_id for f in facts))
            was_finished = {game_id for game_id, doc in docs.items() if doc.get("finished")}
            for fact in facts:
                docs[fact.game_id] = self.fold(docs.get(fact.game_id), fact)
            view.save(c, docs)
            done = [d for g, d in docs.items() if d.get("finished") and g not in was_finished]
            if done:
                view.cells.count(c, done)
            view.track(c, last)


class _WithCells:
    """The statistics table's running aggregates (mixed into both backends)."""

    qualified: str
    mark: str
    schema: ClassVar[Schema]

    @property
    def cells(self) -> Cells:
        return Cells(self.qualified, self.schema.table, self.mark, self.load)  # type: ignore[attr-defined]

    def reset(self) -> None:
        with self.transaction() as c:  # type: ignore[attr-defined]
            c.execute(f"DROP TABLE IF EXISTS {self.cells.cells}")
            c.execute(f"DROP TABLE IF EXISTS {self.cells.contents}")
        super().reset()  # type: ignore[misc]
        with self.transaction() as c:  # type: ignore[attr-defined]
            self.cells.fill(c)  # the marker: the rebuilt view counts from empty cells


class SQLiteStatsTable(_WithCells, SQLiteDocuments):
    schema = SCHEMA

    def create_table(self) -> None:
        super().create_table()
        with self.transaction() as c:
            self.cells.fill(c)


class PostgresStatsTable(_WithCells, PostgresDocuments):
    schema = SCHEMA

    def _create_table(self, curs: Any) -> None:
        super()._create_table(curs)
        self.cells.fill(curs)


@dataclass(frozen=True, slots=True)
class Filters:
    """Which games the statistics cover; None means any."""

    players: int | None = None
    luna: bool | None = None
    seats: str | None = None  # bots | humans | mixed
    edition: str | None = None
    forks: bool = False  # include forked games
    imports: bool = True  # include imported games (copies of one game count once either way)
    solo: bool | None = None  # solo games against Tycho Brahe (true) or games between players (false)
    difficulty: str | None = None  # a solo game's level: base (no Luna), easy, normal, hard, flaming

    def __post_init__(self) -> None:
        if self.difficulty is not None and self.difficulty not in DIFFICULTIES:
            raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, not {self.difficulty!r}")
        if self.players is not None and not 1 <= self.players <= 4:
            raise ValueError("players must be 1 to 4")
        if self.seats is not None and self.seats not in SEATS:
            raise ValueError(f"seats must be one of {', '.join(SEATS)}, not {self.seats!r}")

    def where(self) -> tuple[list[str], list[Any]]:
        where: list[str] = []
        params: list[Any] = []
        for column, value in (
            ("players", self.players),
            ("luna", None if self.luna is None else int(self.luna)),
            ("seats_kind", self.seats),
            ("edition", self.edition),
        ):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        if not self.forks:
            where.append("forked = 0")
        return where, params

    def keeps(self, doc: Document) -> bool:
        """The filters read from a game's row rather than its columns (solo, difficulty)."""
        if self.solo is not None and bool(doc.get("solo")) != self.solo:
            return False
        return self.difficulty is None or doc.get("difficulty") == self.difficulty

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class StatsView:
    """Reads the statistics table (any process; rows are written by the stats projection's runner)."""

    def __init__(self, table: SQLiteStatsTable | PostgresStatsTable) -> None:
        self.table = table
        self._cache: dict[tuple[Any, ...], dict[str, Any]] = {}

    def games(self, filters: Filters = Filters(), finished: bool = True) -> list[Document]:
        """The rows of the matching games, each game once (copies by content: the first stored)."""
        where, params = filters.where()
        rows = self.table.select([*where, "finished = ?"], [*params, int(finished)], order="game_id")
        if not filters.imports:
            rows = [r for r in rows if not r.get("imported")]
        return once([r for r in rows if filters.keeps(r)])

    def compute(self, filters: Filters = Filters(), bin_width: int = BIN_WIDTH) -> dict[str, Any]:
        """The statistics of the finished games matching `filters`, from the running aggregates of the
        cells they select (O(filters), not O(games): projections/aggregates.py; `summarise` over
        `games(filters)` gives the same), cached per view position."""
        head = self.table.head()
        key = (head, filters, bin_width)
        cached = self._cache.get(key)
        if cached is None:
            where, params = filters.where()
            with self.table.transaction(commit=False) as c:
                cells = self.table.cells.read(c)
            f = filters
            total: dict[str, Any] = {}
            for cell, agg in cells.items():
                if cell_matches(cell, f.players, f.luna, f.seats, f.edition, f.forks, f.imports):
                    merge(total, agg)
            cached = {
                "filters": filters.to_dict(),
                "position": head,
                **(
                    {  # solo/difficulty read each game's row (its solo section: the person's wins per level)
                        "in_progress": len(self.games(filters, finished=False)),
                        **summarise(self.games(filters), bin_width),
                    }
                    if filters.solo is not None or filters.difficulty is not None
                    else {
                        "in_progress": self.table.count([*where, "finished = 0"], params),
                        **summary(total, bin_width),
                    }
                ),
            }
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[key] = cached
        return cached

    def head(self) -> int:
        return self.table.head()

    def close(self) -> None:
        self.table.datastore.close()


def once(rows: Sequence[Document]) -> list[Document]:
    """Each game once: of the rows with the same content (copies of one game), the first not imported."""
    kept: dict[Any, Document] = {}
    out: list[Document] = []
    for row in sorted(rows, key=lambda r: (bool(r.get("imported")), r["game_id"])):
        content = row.get("content")
        if content is None:
            out.append(row)
        elif content not in kept:
            kept[content] = row
            out.append(row)
    return sorted(out, key=lambda r: r["game_id"])


def summarise(games: Sequence[Document], bin_width: int = BIN_WIDTH) -> dict[str, Any]:
    """Statistics of finished games' rows: characters, points by source, scores, length, first seat
    (the report of the running aggregates, projections/aggregates.py, built from these rows' own
    contributions), and the solo games by difficulty when there are any."""
    total: dict[str, Any] = {}
    for game in games:
        merge(total, contribution(game))
    report = summary(total, bin_width)
    solo = solo_summary(games)
    return {"games": report.pop("games"), **({"solo": solo} if solo else {}), **report}


def solo_summary(games: Sequence[Document]) -> dict[str, Any] | None:
    """Solo games against Tycho Brahe by difficulty: the person's wins and both mean scores."""
    by_level: dict[str, dict[str, Any]] = {}
    for game in games:
        if not game.get("solo"):
            continue
        tycho = game["opponent_seat"]
        level = by_level.setdefault(
            game["difficulty"], {"games": 0, "person_wins": 0, "person": [], "tycho": []}
        )
        level["games"] += 1
        level["person_wins"] += any(seat != tycho for seat in game["winners"])
        level["tycho"].append(game["seats"][tycho]["score"])
        level["person"] += [s["score"] for i, s in enumerate(game["seats"]) if i != tycho]
    if not by_level:
        return None
    order = {name: i for i, name in enumerate(DIFFICULTIES)}
    return {
        "games": sum(level["games"] for level in by_level.values()),
        "by_difficulty": [
            {
                "difficulty": name,
                "games": level["games"],
                "person_wins": level["person_wins"],
                "person_win_rate": level["person_wins"] / level["games"],
                "mean_person_score": statistics.fmean(level["person"]),
                "mean_tycho_score": statistics.fmean(level["tycho"]),
            }
            for name, level in sorted(by_level.items(), key=lambda kv: order.get(kv[0], 99))
        ],
    }
