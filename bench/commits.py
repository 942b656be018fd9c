"""SQLite commits per move with the in-process projector (issue 17, "Throughput"), by database file.

    python -m bench.commits                 # the views linger as configured (50 ms)
    python -m bench.commits --linger 0      # each view catches up as soon as it is woken (before issue 17)

THREADS threads play random-bot games through `Games.submit` in one process, with the projector's polling
runners keeping the lobby and statistics views up to date; every commit of the library's SQLite
connections is counted by file for `--seconds`. Counts, not times, are the claim (a loaded machine makes
fewer moves, each costing the same commits); the moves per second are printed for information.
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from eventsourcing.sqlite import SQLiteConnection

THREADS = 10  # like the throughput figure's 10 concurrent games


def count(seconds: float, linger: float | None) -> tuple[int, Counter[str]]:
    """(moves, commits by file) over `seconds` of THREADS players."""
    from domain import legal_moves
    from domain.bots import make_bot
    from domain.selfplay import default_setup
    from projections import runners
    from projections.projector import Projector
    from replays.service import Games

    counted: Counter[str] = Counter()
    lock = threading.Lock()
    commit = SQLiteConnection.commit

    def counting(self: SQLiteConnection) -> None:
        path = next(r[2] for r in self._sqlite_conn.execute("PRAGMA database_list") if r[1] == "main")
        commit(self)
        with lock:
            counted[Path(path).name] += 1

    init = runners.PollingRunner.__init__

    def lingering(self: Any, app: Any, projection: Any, interval: float = 1.0, _: Any = None) -> None:
        init(self, app, projection, interval, linger)

    SQLiteConnection.commit = counting  # type: ignore[method-assign]
    runners.PollingRunner.__init__ = lingering  # type: ignore[method-assign]
    moves = [0]
    stop = threading.Event()
    try:
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite:///{folder}/games.db"
            with Games(url) as games, Projector(url):

                def play(i: int) -> None:
                    n = 0
                    while not stop.is_set():
                        game_id, version = games.create(default_setup(2, f"commits-{i}-{n}"))
                        n += 1
                        state = games.state(game_id)
                        bots = [make_bot("random", f"commits-{i}:{k}") for k in range(2)]
                        while state is not None and not state.finished and not stop.is_set():
                            move = bots[state.turn.seat].choose(state, legal_moves(state))
                            version = games.submit(
                                game_id, move, version, f"m-{version}", move.seat, "bot"
                            ).version
                            state = games.state(game_id)
                            with lock:
                                moves[0] += 1

                threads = [threading.Thread(target=play, args=(i,), daemon=True) for i in range(THREADS)]
                for t in threads:
                    t.start()
                time.sleep(1.0)  # warm up: games created, views caught up once
                with lock:
                    counted.clear()
                    start = moves[0]
                time.sleep(seconds)
                with lock:
                    done, commits = moves[0] - start, Counter(counted)
                stop.set()
                for t in threads:
                    t.join(30)
    finally:
        SQLiteConnection.commit = commit  # type: ignore[method-assign]
        runners.PollingRunner.__init__ = init  # type: ignore[method-assign]
    return done, commits


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.commits", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--linger", type=float, default=None, help="seconds (default: the projection's)")
    args = parser.parse_args(argv)
    moves, commits = count(args.seconds, args.linger)
    per = ", ".join(f"{name} {n / max(moves, 1):.3f}" for name, n in sorted(commits.items()))
    total = sum(commits.values()) / max(moves, 1)
    rate = moves / args.seconds
    print(f"{moves} moves in {args.seconds:g} s ({rate:.0f}/s); commits per move: {per}; total {total:.3f}")


if __name__ == "__main__":
    main()
