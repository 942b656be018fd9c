"""Fair benchmarks (issue 17): every figure against its fair floor, measured in the same run.

    python -m bench [--json] [--quick] [--only NAME[,NAME...]]

Each figure runs its variant and its floor alternately (A B, B A, A B, ...) and reports the median of
`REPEATS` repetitions of each. Rates and engine times are CPU time of this process
(`time.process_time`); latencies are wall time (a request crosses threads and processes). The JSON
document is `{"figures": {NAME: {"value", "floor", "ratio", "unit", "goal", "better", "note"}}}` with
ratio = value / floor; `goal` is the issue's target for that ratio (None: no target), `better` says
which way is better. A figure that cannot be measured here (no PostgreSQL, no Redis) has
`"value": null` and a `note` saying why.

`--quick` runs every figure on tiny inputs (a smoke test of the harness; its timings mean nothing).
PostgreSQL: GALILEO_BENCH_POSTGRES_URL, else GALILEO_TEST_POSTGRES_URL, else the test default (skipped
when unreachable; each run uses a schema of its own, dropped afterwards). Redis: GALILEO_BENCH_REDIS_URL,
else GALILEO_TEST_REDIS_URL, else redis://127.0.0.1:6379/0.
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

import orjson

REPEATS = 3
POSTGRES_BASE = (
    os.environ.get("GALILEO_BENCH_POSTGRES_URL")
    or os.environ.get("GALILEO_TEST_POSTGRES_URL")
    or "postgresql://postgres@127.0.0.1:5432/test"
)
REDIS_URL = (
    os.environ.get("GALILEO_BENCH_REDIS_URL")
    or os.environ.get("GALILEO_TEST_REDIS_URL")
    or "redis://127.0.0.1:6379/0"
)


@dataclass
class Figure:
    value: float | None
    floor: float | None
    unit: str
    goal: float | None  # the target, for the ratio value / floor or for the value (goal_of)
    better: str  # "lower" | "higher"
    note: str = ""
    goal_of: str = "ratio"  # "ratio" | "value"

    @property
    def ratio(self) -> float | None:
        if self.value is None or not self.floor:
            return None
        return self.value / self.floor

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "floor": self.floor,
            "ratio": self.ratio,
            "unit": self.unit,
            "goal": self.goal,
            "better": self.better,
            "goal_of": self.goal_of,
            "met": self.met,
            "note": self.note,
        }

    @property
    def met(self) -> bool | None:
        """Whether the goal is met (None: no goal, or not measured)."""
        judged = self.ratio if self.goal_of == "ratio" else self.value
        if self.goal is None or judged is None:
            return None
        return judged <= self.goal if self.better == "lower" else judged >= self.goal


class Skipped(Exception):
    """A figure that cannot be measured here (its reason is the message)."""


def interleaved(
    ours: Callable[[int], float], floor: Callable[[int], float], repeats: int
) -> tuple[float, float]:
    """Median of `repeats` samples of each, taken alternately (A B, B A, ...); each gets the rep index."""
    mine: list[float] = []
    base: list[float] = []
    for rep in range(repeats):
        order = ((ours, mine), (floor, base)) if rep % 2 == 0 else ((floor, base), (ours, mine))
        for run, out in order:
            out.append(run(rep))
    return statistics.median(mine), statistics.median(base)


def p50(samples: list[float]) -> float:
    return statistics.median(samples)


# -- stores ---------------------------------------------------------------------------------------------


def postgres_reachable() -> str | None:
    """None when PostgreSQL is reachable, else why not."""
    try:
        import psycopg

        with psycopg.connect(POSTGRES_BASE, connect_timeout=2) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:
        return (
            f"PostgreSQL {POSTGRES_BASE} not reachable ({type(exc).__name__}); set GALILEO_TEST_POSTGRES_URL"
        )
    return None


def redis_reachable() -> str | None:
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except Exception as exc:
        return f"Redis {REDIS_URL} not reachable ({type(exc).__name__}); set GALILEO_TEST_REDIS_URL"
    return None


@contextmanager
def store_url(backend: str) -> Iterator[str]:
    """A fresh, empty store: a SQLite file, or a PostgreSQL schema dropped afterwards."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{folder}/bench.db"
        return
    why = postgres_reachable()
    if why:
        raise Skipped(why)
    import psycopg

    schema = f"bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_BASE, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{POSTGRES_BASE}?schema={schema}"
    finally:
        with psycopg.connect(POSTGRES_BASE, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


# -- 1. the engine against python-chess -----------------------------------------------------------------


def engine_decisions(games: int, seed: int) -> float:
    """Decisions per CPU second: `legal_moves`, a random pick, and the checked decision (`check` and
    `play_on`: exactly `decide`, keeping the state it reached instead of evolving its events again, and
    the legal moves there when it built them)."""
    from domain import legal_moves, play_on, start
    from domain.moves import check
    from domain.selfplay import default_setup

    decisions = 0
    spent = 0.0
    for g in range(games):
        state, _ = start(default_setup(4, f"bench-fair-{seed}-{g}"))
        rng = random.Random(g)
        t0 = time.process_time()
        moves = legal_moves(state)
        while not state.finished:
            move = rng.choice(moves)
            refusal = check(state, move)
            assert refusal is None
            state, _, known = play_on(state, move)
            moves = legal_moves(state, known)
            decisions += 1
        spent += time.process_time() - t0
    return decisions / spent


def chess_playout_moves(moves: int, seed: int) -> float:
    """python-chess random play-out moves per CPU second: list the legal moves, pick one, check it is
    legal (membership), push it; a new game when one ends (no move) or after 300 plies."""
    import chess

    rng = random.Random(seed)
    board = chess.Board()
    t0 = time.process_time()
    for _ in range(moves):
        legal = list(board.legal_moves)
        if not legal or board.ply() >= 300:
            board.reset()
            legal = list(board.legal_moves)
        move = rng.choice(legal)
        assert board.is_legal(move)
        board.push(move)
    return moves / (time.process_time() - t0)


def engine_event_logs(games: int) -> list[list[Any]]:
    from domain.selfplay import selfplay

    return [list(selfplay(4, f"bench-fair-replay-{g}", "random").events) for g in range(games)]


def evolve_events(logs: list[list[Any]]) -> float:
    from domain import evolve

    count = sum(len(log) for log in logs)
    t0 = time.process_time()
    for log in logs:
        state = None
        for event in log:
            state = evolve(state, event)
    return count / (time.process_time() - t0)


def chess_games(games: int) -> list[list[Any]]:
    import chess

    rng = random.Random(5)
    out = []
    for _ in range(games):
        board = chess.Board()
        while board.ply() < 300:
            legal = list(board.legal_moves)
            if not legal:
                break
            board.push(rng.choice(legal))
        out.append(list(board.move_stack))
    return out


def chess_pushes(games: list[list[Any]]) -> float:
    import chess

    count = sum(len(g) for g in games)
    t0 = time.process_time()
    for moves in games:
        board = chess.Board()
        for move in moves:
            board.push(move)
    return count / (time.process_time() - t0)


def fig_engine(quick: bool) -> Figure:
    games = 1 if quick else 6
    rate, floor = interleaved(
        lambda rep: engine_decisions(games, rep),
        lambda rep: chess_playout_moves(500 if quick else 60_000, rep),
        REPEATS,
    )
    return Figure(rate, floor, "decisions/s vs chess playout moves/s (CPU)", 1.0, "higher")


def fig_evolve(quick: bool) -> Figure:
    logs = engine_event_logs(1 if quick else 10)
    boards = chess_games(2 if quick else 100)
    rate, floor = interleaved(lambda rep: evolve_events(logs), lambda rep: chess_pushes(boards), REPEATS)
    return Figure(rate, floor, "events/s vs chess pushes/s (CPU)", 0.6, "higher")


# -- 2. the store ---------------------------------------------------------------------------------------


def play_stored(games: Any, seed: str, limit: int | None = None, players: int = 2) -> tuple[str, list[float]]:
    """A random-bot game through `Games.submit`: (ID, seconds per submit)."""
    from domain import fold, legal_moves
    from domain.bots import make_bot
    from domain.selfplay import default_setup

    game_id, version = games.create(default_setup(players, seed))
    state = games.state(game_id)
    bots = [make_bot("random", f"{seed}:{i}") for i in range(players)]
    times: list[float] = []
    while not state.finished and (limit is None or len(times) < limit):
        move = bots[state.turn.seat].choose(state, legal_moves(state))
        t0 = time.perf_counter()
        result = games.submit(game_id, move, version, f"{seed}-{version}", move.seat, "bot")
        times.append(time.perf_counter() - t0)
        version = result.version
        state = fold(result.events, state)
    return game_id, times


def bare_appends(url: str, count: int) -> list[float]:
    """Seconds per bare eventsourcing append: load the (cached) aggregate, trigger one event, save."""
    from bench.bench_store import Bare, Counter
    from replays.store import store_env

    env = {**store_env(url), "AGGREGATE_CACHE_MAXSIZE": "16"}
    if env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite":
        env["SQLITE_DBNAME"] = env["SQLITE_DBNAME"] + ".bare"
    app = Bare(env=env)
    try:
        counter = Counter()
        app.save(counter)
        times = []
        for _ in range(count):
            t0 = time.perf_counter()
            loaded: Counter = app.repository.get(counter.id)
            loaded.tick()
            app.save(loaded)
            times.append(time.perf_counter() - t0)
        return times
    finally:
        app.close()


def fig_submit(backend: str, quick: bool) -> Figure:
    from replays.service import Games

    per_rep = 30 if quick else 300
    with store_url(backend) as url, Games(url) as games:

        def ours(rep: int) -> float:
            times: list[float] = []
            g = 0
            while len(times) < per_rep:
                times += play_stored(games, f"bench-submit-{rep}-{g}", per_rep - len(times))[1]
                g += 1
            return p50(times)

        value, floor = interleaved(ours, lambda rep: p50(bare_appends(url, per_rep)), REPEATS)
    return Figure(value * 1000, floor * 1000, "ms p50 vs a bare eventsourcing append", None, "lower")


def fig_rebuild(backend: str, quick: bool) -> Figure:
    """`Games.state(game, version)` at random versions (the newest snapshot at or below it, then the
    events after it, through the engine) against reading and decoding the same rows from the store."""
    from replays.service import Games
    from replays.store import unpack

    versions = 20 if quick else 100
    with store_url(backend) as url, Games(url) as games:
        ids = [play_stored(games, f"bench-rebuild-{g}", 120 if quick else None)[0] for g in range(2)]
        heads = {gid: games.head(gid) for gid in ids}
        snapshots = games.store.snapshots
        assert snapshots is not None
        recorder, snap_recorder = games.store.recorder, snapshots.recorder

        def picks(rep: int) -> list[tuple[str, int]]:
            rng = random.Random(rep)
            return [(gid, rng.randint(1, heads[gid])) for gid in ids for _ in range(versions // len(ids))]

        def ours(rep: int) -> float:
            times = []
            for gid, version in picks(rep):
                t0 = time.perf_counter()
                games.state(gid, version)
                times.append(time.perf_counter() - t0)
            return p50(times)

        def floor(rep: int) -> float:
            times = []
            for gid, version in picks(rep):
                t0 = time.perf_counter()
                uid = UUID(gid)
                snap = snap_recorder.select_events(uid, lte=version, desc=True, limit=1)
                after = 0
                if snap:
                    orjson.loads(unpack(snap[0].state))  # the stored form: compressed
                    after = snap[0].originator_version
                for row in recorder.select_events(uid, gt=after, lte=version):
                    orjson.loads(unpack(row.state))
                times.append(time.perf_counter() - t0)
            return p50(times)

        value, base = interleaved(ours, floor, REPEATS)
    return Figure(value * 1000, base * 1000, "ms p50 vs reading+decoding the same rows", 2.0, "lower")


def fig_bytes(quick: bool) -> Figure:
    """SQLite file bytes (events, snapshots, indexes) per move over a corpus of random-bot games (2-4
    players), against the engine payload alone (the events as `event_to_dict` gives them, as JSON)."""
    import sqlite3

    from domain import event_to_dict
    from replays.service import Games

    count = 3 if quick else 100
    with store_url("sqlite") as url:
        path = url[len("sqlite:///") :]
        moves = 0
        payload = 0
        with Games(url) as games:
            layout = getattr(games.store.recorder, "layout", 1)
            for g in range(count):
                game_id, times = play_stored(games, f"bench-bytes-{g}", 60 if quick else None, 2 + g % 3)
                moves += len(times)
                payload += sum(len(orjson.dumps(event_to_dict(s.event))) for s in games.events(game_id))
        with sqlite3.connect(path) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            conn.execute("VACUUM")
            (rows,) = conn.execute("SELECT SUM(LENGTH(state)) FROM stored_events").fetchone()
            (snapshots,) = conn.execute(
                "SELECT COALESCE(SUM(LENGTH(state)), 0) FROM stored_snapshots"
            ).fetchone()
            try:  # pages per table and index (SQLite's dbstat, where it is compiled in)
                pages = {
                    str(k): int(v)
                    for k, v in conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name")
                }
            except sqlite3.OperationalError:
                pages = {}
        size = Path(path).stat().st_size
    split = ""
    if pages:
        index = pages.get("sqlite_autoindex_stored_events_1", 0)
        snapshot_pages = pages.get("stored_snapshots", 0) + pages.get(
            "sqlite_autoindex_stored_snapshots_1", 0
        )
        table = pages.get("stored_events", 0)
        split = (
            f"; pages: the events' table {table / moves:.0f} B, its primary-key index {index / moves:.0f} B, "
            f"the snapshots {snapshot_pages / moves:.0f} B per move"
        )
    return Figure(
        size / moves,
        payload / moves,
        "stored bytes per move vs engine payload bytes per move",
        400.0,
        "lower",
        note=(
            f"{count} games, {moves} moves; the whole SQLite file after VACUUM; of it the events' "
            f"stored state (payload + audit metadata) {rows / moves:.0f} B and the snapshots' "
            f"{snapshots / moves:.0f} B per move{split}; SQLite storage layout {layout} (docs/storage.md)"
        ),
        goal_of="value",
    )


# -- 3. HTTP, SSE, throughput ---------------------------------------------------------------------------


def fig_http(backend: str, quick: bool) -> Figure:
    from bench.bench_api import bare_round_trips, move_round_trips

    count = 20 if quick else 150
    with store_url(backend) as url:
        # SQLite: the bare app in a file of its own (one event table per file; the service's
        # projections would read the bare events otherwise).
        bare_url = url + ".bare" if backend == "sqlite" else url
        value, floor = interleaved(
            lambda rep: p50(move_round_trips(url, count)),
            lambda rep: p50(bare_round_trips(bare_url, count)),
            REPEATS,
        )
    return Figure(value * 1000, floor * 1000, "ms p50 vs a bare FastAPI + append route", 1.5, "lower")


def fig_sse(quick: bool) -> Figure:
    from bench import sse_floor
    from bench.bench_api import sse_deliveries

    why = redis_reachable()
    if why:
        raise Skipped(why)
    count = 10 if quick else 60
    backend = "sqlite" if postgres_reachable() else "postgres"
    with store_url(backend) as url, tempfile.TemporaryDirectory() as tmp:
        value, floor = interleaved(
            lambda rep: p50(sse_deliveries(url, count, Path(tmp))),
            lambda rep: p50(sse_floor.deliveries(url, REDIS_URL, count, Path(tmp))),
            REPEATS,
        )
    return Figure(
        value * 1000,
        floor * 1000,
        "ms p50 POST on A to the event on B's stream vs a bare POST+append -> Redis -> SSE",
        2.0,
        "lower",
    )


def fig_throughput(backend: str, quick: bool) -> Figure:
    from bench import throughput

    seconds = 3.0 if quick else 20.0
    with store_url(backend) as url, tempfile.TemporaryDirectory() as tmp:
        results: list[dict[str, float]] = []

        def ours(rep: int) -> float:
            out = throughput.service_rate(url, Path(tmp), seconds)
            results.append(out)
            return out["rate"]

        value, floor = interleaved(
            ours, lambda rep: throughput.bare_rate(url, Path(tmp), seconds)["rate"], REPEATS
        )
    cpu = statistics.median(r["cpu_ms_per_cycle"] for r in results)
    return Figure(
        value,
        floor,
        "move cycles/s of one server process (10 concurrent games) vs bare append route requests/s",
        150.0,
        "higher",
        note=f"server CPU {cpu:.1f} ms per move cycle (POST with the board after it; a read as turns pass)",
        goal_of="value",
    )


def fig_stats(quick: bool) -> Figure:
    from bench import readmodels

    return readmodels.stats_figure(quick)


def fig_lobby(quick: bool) -> Figure:
    from bench import readmodels

    return readmodels.lobby_figure(quick)


FIGURES: dict[str, Callable[[bool], Figure]] = {
    "engine_decision_vs_chess_playout_move": fig_engine,
    "evolve_vs_chess_push": fig_evolve,
    "rebuild_random_version_sqlite": lambda q: fig_rebuild("sqlite", q),
    "rebuild_random_version_postgres": lambda q: fig_rebuild("postgres", q),
    "submit_sqlite": lambda q: fig_submit("sqlite", q),
    "submit_postgres": lambda q: fig_submit("postgres", q),
    "http_move_p50_sqlite": lambda q: fig_http("sqlite", q),
    "http_move_p50_postgres": lambda q: fig_http("postgres", q),
    "sse_cross_process_p50": fig_sse,
    "stored_bytes_per_move_sqlite": fig_bytes,
    "stats_p50_ms_100k_games": fig_stats,
    "lobby_deep_page_p50_ms_100k_games": fig_lobby,
    "moves_per_second_per_process_sqlite": lambda q: fig_throughput("sqlite", q),
    "moves_per_second_per_process_postgres": lambda q: fig_throughput("postgres", q),
}


def measure(names: list[str], quick: bool, progress: Callable[[str], None]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for name in names:
        progress(f"{name} ...")
        t0 = time.perf_counter()
        try:
            figure = FIGURES[name](quick)
        except Skipped as exc:
            figure = Figure(None, None, "", None, "lower", note=f"skipped: {exc}")
        except Exception as exc:  # one figure failing (e.g. a server too slow to start) keeps the others
            figure = Figure(None, None, "", None, "lower", note=f"failed: {type(exc).__name__}: {exc}")
        out[name] = figure.to_json()
        progress(f"{name}: {out[name]} ({time.perf_counter() - t0:.0f} s)")
    return out


def table(figures: dict[str, dict[str, Any]]) -> str:
    def num(x: Any) -> str:
        if x is None:
            return "-"
        return f"{x:,.0f}" if abs(x) >= 100 else f"{x:,.3g}"

    lines = [f"{'figure':<40} {'value':>12} {'floor':>12} {'ratio':>7} {'goal':>7} {'':>6}  unit / note"]
    for name, f in figures.items():
        ratio = "-" if f["ratio"] is None else f"{f['ratio']:.2f}"
        goal = "-" if f["goal"] is None else ("<=" if f["better"] == "lower" else ">=") + f"{f['goal']:g}"
        if f["goal"] is not None and f["goal_of"] == "value":
            goal += "*"
        note = f"{f['unit']}" + (f"; {f['note']}" if f["note"] else "")
        met = {True: "met", False: "MISSED", None: ""}[f["met"]]
        lines.append(
            f"{name:<40} {num(f['value']):>12} {num(f['floor']):>12} {ratio:>7} {goal:>7} {met:>6}  {note}"
        )
    lines.append("goal: for the ratio, or (*) for the value itself")
    return "\n".join(lines)
