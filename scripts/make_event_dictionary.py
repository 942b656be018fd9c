"""Write a preset dictionary for scheme-2 event rows (replays/dictionaries/events-N.bin; docs/audit.md).

A stored event row is small JSON whose words (field names, event types, rule IDs, card names, the keys of
the audit metadata) recur in every row: deflate primed with a dictionary of typical rows stores a row in
about a fifth of its JSON. The dictionary is the stored JSON of rows of fixed-seed bot games (2-4 players,
with and without Luna; other seeds than the benchmark's), sampled with a fixed seed, 32 KiB (deflate's
window). Once released a dictionary never changes (rows written with it need it to be read): a new one
gets the next number, and `replays.store.DICTIONARY_HASHES` its SHA-256.

    .venv/bin/python scripts/make_event_dictionary.py 1
"""

from __future__ import annotations

import hashlib
import random
import sys
import tempfile
from pathlib import Path
from uuid import UUID

from domain import legal_moves
from domain.bots import make_bot
from domain.options import Options
from domain.selfplay import default_setup
from replays import store
from replays.service import Games

WINDOW = 32 * 1024
GAMES = 12


def rows() -> list[bytes]:
    """The plain JSON rows of the sample games (written unpacked: the dictionary is what packs them)."""
    store.pack = lambda state: state  # type: ignore[assignment]  # this script only
    out: list[bytes] = []
    with tempfile.TemporaryDirectory() as folder, Games(f"sqlite:///{folder}/games.db") as games:
        for i in range(GAMES):
            seed = f"dictionary-{i}"
            game_id, version = games.create(default_setup(2 + i % 3, seed, Options(luna=i % 4 == 3)))
            state = games.state(game_id)
            assert state is not None
            bots = [make_bot("random", f"{seed}:{k}") for k in range(len(state.players))]
            while not state.finished:
                move = bots[state.turn.seat].choose(state, legal_moves(state))
                version = games.submit(game_id, move, version, f"{seed}-{version}", move.seat, "bot").version
                state = games.state(game_id)
                assert state is not None
            out += [bytes(r.state) for r in games.store.recorder.select_events(UUID(game_id))]
    return out


def build(samples: list[bytes]) -> bytes:
    picked = random.Random("dictionary").sample(samples, len(samples))
    data = b""
    for row in picked:
        if len(data) >= WINDOW:
            break
        data += row
    return data[-WINDOW:]


def main(number: int) -> None:
    path = Path(store.__file__).resolve().parent / "dictionaries" / f"events-{number}.bin"
    if path.exists():
        raise SystemExit(f"{path} exists: a released dictionary never changes")
    data = build(rows())
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(data)
    print(f"{path}: {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()}")


if __name__ == "__main__":
    main(int(sys.argv[1]))
