"""Complete games between bots: the loop used by self-play, property tests and benchmarks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.bots import Bot, make_bot, play_chosen
from domain.engine import legal_moves, start
from domain.events import Event
from domain.options import Options
from domain.setup import SeatSpec, Setup, base_characters, more_characters
from domain.state import GameState

MAX_DECISIONS = 20_000  # a safety net: a game that does not end by then is a bug


@dataclass(frozen=True, slots=True)
class GameRecord:
    setup: Setup
    state: GameState
    events: tuple[Event, ...]
    decisions: int
    turns: int


SIDES = ("basic", "ability", "mixed")  # `galileo selfplay --side`: every seat, or alternating (CHAR-1)


def seat_sides(players: int, side: str = "basic") -> tuple[str, ...]:
    """Each seat's side for a `--side` choice: "mixed" alternates ability and basic from seat 0."""
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r}: use {', '.join(SIDES)}")
    if side == "mixed":
        return tuple("ability" if i % 2 == 0 else "basic" for i in range(players))
    return (side,) * players


def default_setup(
    players: int,
    seed: str,
    options: Options | None = None,
    side: str | None = None,
    difficulty: str | None = None,
    characters: tuple[str, ...] = (),
) -> Setup:
    """Seats P1.. with the base characters, or with `characters` (`galileo selfplay --characters`): seat i
    plays characters[i % len(characters)] while it has not been taken, then the next one not taken from
    the eight (CHAR-2); `side` as in `seat_sides` (default: basic; in the solo game, one seat against
    Tycho Brahe, the ability side, SOLO-26; `difficulty`: the solo levels, SOLO-2)."""
    sides = seat_sides(players, side or ("ability" if players == 1 else "basic"))
    chosen: list[str] = []
    for i in range(players):
        wanted = [characters[(i + k) % len(characters)] for k in range(len(characters))] if characters else []
        pool = [*wanted, *base_characters(), *more_characters()]
        chosen.append(next(ch for ch in pool if ch not in chosen))
    seats = tuple(SeatSpec(name=f"P{i + 1}", character=chosen[i], side=sides[i]) for i in range(players))
    return Setup(seats=seats, seed=seed, options=options or Options(), difficulty=difficulty)


def play_game(setup: Setup, bots: Sequence[Bot]) -> GameRecord:
    """Play a game to its end with one bot per seat."""
    state, events = start(setup)
    moves = legal_moves(state)
    decisions = 0
    while not state.finished:
        bot = bots[state.turn.seat]
        move = bot.choose(state, moves)
        state, new, known = play_chosen(bot, state, move)
        events.extend(new)
        moves = legal_moves(state, known)
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError(f"game {setup.seed!r} did not end after {MAX_DECISIONS} decisions")
    return GameRecord(setup, state, tuple(events), decisions, state.turn.number + 1)


def selfplay(
    players: int,
    seed: str,
    bot: str = "greedy",
    options: Options | None = None,
    side: str | None = None,
    difficulty: str | None = None,
    characters: tuple[str, ...] = (),
) -> GameRecord:
    """A game between bots; with one seat, a bot against the solo Tycho Brahe (who plays himself)."""
    setup = default_setup(players, seed, options, side, difficulty, characters)
    bots = [make_bot(bot, f"{seed}:{i}") for i in range(players)]
    return play_game(setup, bots)
