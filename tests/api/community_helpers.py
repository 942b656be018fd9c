"""Games between accounts for the ratings and tournament tests: created, claimed and played to the end
through the API's own store with the fast bots (domain/bots.py), no HTTP per move."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import count

from api.runtime import Runtime
from domain.bots import GreedyBot, RandomBot
from domain.commands import Command
from domain.engine import legal_moves
from domain.state import GameState
from replays.errors import VersionConflict


class MixedBot:
    """Greedy with probability `skill`, else a uniformly random legal move: a bot of known strength."""

    def __init__(self, skill: float, seed: str) -> None:
        self.skill = skill
        self.greedy = GreedyBot(seed)
        self.random = RandomBot(seed)
        self.rng = random.Random(seed)
        self.name = f"mixed:{skill}"

    def choose(self, state: GameState, moves: Sequence[Command]) -> Command:
        bot = self.greedy if self.rng.random() < self.skill else self.random
        return bot.choose(state, moves)


def play_out(runtime: Runtime, game_id: str, bots: Sequence[MixedBot], prefix: str) -> None:
    """Play the game to its end, each seat's moves chosen by its bot and sent as that seat's person."""
    made = 0
    while True:
        state, version = runtime.store.current(game_id)
        if state.finished:
            return
        seat = state.turn.seat
        move = bots[seat].choose(state, legal_moves(state))
        try:
            runtime.store.submit(game_id, move, version, f"{prefix}-{made}", seat, "human")
        except VersionConflict:
            continue
        made += 1


def fixed_secrets() -> Callable[[], str]:
    """The secret seeds of the games a test makes, the same each run: a rated game's seed is the
    service's, never the creator's (RATE-1), so the tests fix the service's source (create_app(secret=…))
    and their games, results, ratings and pairings are the same each run."""
    drawn = count()
    return lambda: f"{next(drawn):032x}"
