"""Write the fixture games of a release into tests/fixtures/<release>/ (run once per release).

Every game stored by a released build must keep loading, verifying and playing on under every later
build (issue 10, "Rules editions"). This script plays fixed-seed bot games through the event store of
the build it runs in and exports them in the game-log format (docs/export.md): finished base games of
2, 3 and 4 players, finished Luna games, and two unfinished games as operators' complete backups
(`reveal=True`). It also saves two positions in the `dump_state` JSON form. tests/replays/
test_release_fixtures.py imports, verifies and plays them on; never regenerate a released set.

    .venv/bin/python scripts/make_release_fixtures.py release-1
"""

from __future__ import annotations

import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import orjson

from domain import dump_state
from domain.bots import make_bot
from domain.options import Options
from domain.selfplay import default_setup
from replays.playout import play_out
from replays.service import Games

ROOT = Path(__file__).resolve().parent.parent / "tests" / "fixtures"

# (file name, players, luna, bot, decisions to play: None = to the end)
GAMES = (
    ("base-2p-finished", 2, False, "greedy", None),
    ("base-3p-finished", 3, False, "random", None),
    ("base-4p-finished", 4, False, "greedy", None),
    ("luna-2p-finished", 2, True, "random", None),
    ("luna-3p-finished", 3, True, "greedy", None),
    ("base-3p-backup", 3, False, "greedy", 60),
    ("luna-4p-backup", 4, True, "random", 90),
)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 30, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


def main(release: str) -> None:
    out = ROOT / release
    out.mkdir(parents=True, exist_ok=False)
    counter = iter(range(1, 1_000_000))
    with tempfile.TemporaryDirectory() as folder:
        games = Games(
            f"sqlite:///{folder}/games.db", clock=Clock(), secret=lambda: f"{release}-secret-{next(counter)}"
        )
        for name, players, luna, bot, limit in GAMES:
            seed = f"{release}:{name}"
            game_id, _ = games.create(default_setup(players, seed, Options(luna=luna)))
            bots = [make_bot(bot, f"{seed}:{i}") for i in range(players)]
            play_out(games, game_id, bots, limit)
            state = games.state(game_id)
            assert state is not None and state.finished == (limit is None)
            (out / f"{name}.jsonl").write_bytes(games.export(game_id, reveal=limit is not None))
            if name in ("base-3p-backup", "luna-4p-backup"):
                position = orjson.dumps(dump_state(state), option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2)
                (out / f"{name}.state.json").write_bytes(position + b"\n")
        games.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "release-1")
