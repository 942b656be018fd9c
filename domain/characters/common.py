"""What the abilities share: declining an optional ability (`DeclineAbility` -> `AbilityDeclined`)."""

from __future__ import annotations

from domain.characters.commands import DeclineAbility
from domain.characters.events import AbilityDeclined
from domain.evolve import resolved
from domain.resolve import Run
from domain.ruleset import Rules
from domain.state import GameState, Task, replace

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)


@RULES.command(DeclineAbility)
def _decline(run: Run, cmd: DeclineAbility, task: Task | None) -> None:
    kind = task.kind if task is not None else ""
    declines = run.state.rules.declines  # each character's own (RULES.decline)
    rule = declines[kind][0] if kind in declines else "CHAR-1"
    run.emit(AbilityDeclined(seat=cmd.seat, effect=kind, rule=rule))


@RULES.event(AbilityDeclined)  # and the kinds each character declares declinable resolve with it
def _declined(s: GameState, e: AbilityDeclined) -> GameState:
    return replace(s, agenda=resolved(s, e))  # what follows is its grant


@RULES.grant(AbilityDeclined)
def _declined_grants(before: GameState, after: GameState, e: AbilityDeclined) -> list[Task]:
    top = before.agenda[-1]
    declined = before.rules.declines.get(top.kind)
    return declined[1](before, top) if declined is not None else []
