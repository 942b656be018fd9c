"""Non-player opponents: a seat whose turns its own rules take (issue 10; the solo game's Tycho Brahe).

A non-player opponent sits at a seat like a player (its score, cellar, University tokens, library and
comets are a `PlayerState`, with its own state in the seat's `parts`), but nobody decides for it: while
it is the seat to act the engine has no decision to ask (`moves.options` is None, `moves.check` refuses
every command with the opponent's rule) and the turn loop (`resolve.auto_step`) asks the opponent for
each step:

1. `step(run)` takes one automatic step of its turn by its own rules (each step one event, naming its
   rule ID) and returns True; False hands the step to the base engine (e.g. the base Cleanup: its
   interrogation, objectives and the end of the turn);
2. a decision the base rules would ask of its seat (an effect's options, a Cleanup choice) is made by
   `choose(state, options)`, by its own rules (e.g. the solo Tycho never takes the Farewell);
3. `before_end(run)` runs at the final scoring, before `GameEnded` (e.g. to reveal its hidden deal);
   `winners(state)` may decide the winners its own way (None: TIE-1 as usual).

An opponent plays the seats of its character id in a game whose rules have it (`Ruleset.opponents`);
its seat takes its turns in the order of TURN-1 (`domain/turnorder.py`). The base turn handlers name no
opponent.
"""

from __future__ import annotations

from typing import Protocol

from domain import commands as c
from domain.effect_kinds import Emitter
from domain.errors import IllegalMove
from domain.state import GameState


class Opponent(Protocol):
    key: str  # the character id of the seat it plays
    name: str  # how it is called in messages
    rule: str  # the rule ID that says its turns play themselves

    def step(self, run: Emitter) -> bool:
        """Take one automatic step of its turn (emit its events); False: the base engine's step."""
        ...

    def choose(self, state: GameState, options: list[c.Command]) -> c.Command:
        """Decide, by its own rules, a decision the base rules ask of its seat."""
        ...

    def before_end(self, run: Emitter) -> None:
        """Steps at the final scoring before `GameEnded` (e.g. reveal its hidden deal)."""
        ...

    def winners(self, state: GameState) -> tuple[int, ...] | None:
        """The winners by its own rules; None: the base rules (TIE-1)."""
        ...


def opponent_at(state: GameState, seat: int | None = None) -> Opponent | None:
    """The non-player opponent playing `seat` (default: the seat to act), if any."""
    opponents = state.rules.opponents
    if not opponents:
        return None
    return opponents.get(state.players[state.turn.seat if seat is None else seat].character)


def opponents_in(state: GameState) -> list[tuple[int, Opponent]]:
    """Every seat played by a non-player opponent, with its opponent."""
    opponents = state.rules.opponents
    if not opponents:
        return []
    return [(p.seat, opponents[p.character]) for p in state.players if p.character in opponents]


def refusal(opponent: Opponent) -> IllegalMove:
    """The refusal of any command while a non-player opponent takes its turn."""
    return IllegalMove(
        "opponent-turn",
        "it is {name}'s turn: his own rules play it, nothing to decide",
        opponent.rule,
        name=opponent.name,
    )
