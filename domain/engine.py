"""The decider: `initial_state`, `legal_moves`, `decide`, `evolve` (design.md, "domain/")."""

from __future__ import annotations

from domain import commands as c
from domain.events import Event
from domain.evolve import evolve, fold
from domain.moves import check, options
from domain.opponents import opponent_at
from domain.resolve import Run, advance, apply_command
from domain.setup import Setup, start_game
from domain.state import GameState

__all__ = [
    "Played",
    "decide",
    "decide_traced",
    "evolve",
    "fold",
    "initial_state",
    "legal_moves",
    "play",
    "play_on",
    "play_through",
    "start",
    "to_act",
]


def start(setup: Setup) -> tuple[GameState, list[Event]]:
    """Set up a game and run it to its first decision: (state, all events so far)."""
    events: list[Event] = list(start_game(setup))
    run = Run(fold(events))
    advance(run)
    return run.state, events + run.events


def initial_state(setup: Setup) -> GameState:
    return start(setup)[0]


def settle(state: GameState) -> tuple[GameState, list[Event]]:
    """Take the automatic steps from a state that is not at a decision point (e.g. after a fork)."""
    run = Run(state)
    advance(run)
    return run.state, run.events


def legal_moves(state: GameState, known: list[c.Command] | None = None) -> list[c.Command]:
    """Every command open at the current decision point (for the seat to act); [] when none; a list of
    the caller's own. The generator; `decide` validates with the predicate `check` beside it
    (domain/moves.py). `known`: the moves `play_on` handed over with this very state (not built again)."""
    if known is not None:
        return list(known)
    return options(state) or []


def to_act(state: GameState) -> int | None:
    """The seat that must decide now, or None when the game is over (or while a non-player opponent
    takes its turn: its own rules play it, domain/opponents.py)."""
    if state.finished or opponent_at(state) is not None:
        return None
    return state.turn.seat


def decide(state: GameState, command: c.Command) -> list[Event]:
    """Validate `command` and return the events it causes (with every automatic consequence up to
    the next decision), or raise IllegalMove carrying the rule that forbids it. Writes nothing.

    The validation is the legality predicate `check` (domain/moves.py): the game's end (END-2), the
    seat (TURN-1), the pending effect (RES-1) and its kind's check, or the phase's check."""
    refusal = check(state, command)
    if refusal is not None:
        raise refusal
    return play(state, command)


def play(state: GameState, command: c.Command) -> list[Event]:
    """`decide` without validation, for commands taken from `legal_moves` (bots, self-play)."""
    return play_through(state, command)[1]


def play_through(state: GameState, command: c.Command) -> tuple[GameState, list[Event]]:
    """Like `play`, also returning the state after the events (saves a fold)."""
    run = Run(state)
    apply_command(run, command)
    advance(run)
    return run.state, run.events


# What `play_on` gives: the state at the next decision, the events that led there, and the legal moves
# there when the turn loop built their list to know it must stop (else None), to hand to `legal_moves`.
Played = tuple[GameState, list[Event], list[c.Command] | None]


def play_on(state: GameState, command: c.Command) -> Played:
    """`play_through` that also hands over the legal moves where it stops, when it has them:
    `state, events, known = play_on(state, command)`, then `legal_moves(state, known)`."""
    run = Run(state)
    apply_command(run, command)
    known = advance(run)
    return run.state, run.events, known


class _Traced(Run):
    """The decider's `Run` keeping the state after each event it emits (states are immutable values)."""

    __slots__ = ("states",)

    def __init__(self, state: GameState) -> None:
        super().__init__(state)
        self.states: list[GameState] = []

    def emit(self, event: Event) -> None:
        super().emit(event)
        self.states.append(self.state)


def decide_traced(state: GameState, command: c.Command) -> tuple[list[Event], list[GameState]]:
    """`decide` that also gives the state after each event (the store keeps them instead of evolving the
    events a second time: replays/service.py). Raises IllegalMove like `decide` (its rule ID included)."""
    refusal = check(state, command)
    if refusal is not None:
        raise refusal
    run = _Traced(state)
    apply_command(run, command)
    advance(run)
    return run.events, run.states
