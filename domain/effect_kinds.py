"""Effect kinds: every kind of pending effect (a `Task` on the agenda) defined once, by the module of its
rules concept (`domain/concepts/`), and looked up by the turn loop instead of per-kind lists.

A kind says what it is called when a player is asked to resolve it, the commands that resolve it (RES-1,
RES-6), how its legal options are generated and, beside them, the legality check of one of its commands
(`check`: None when the command is one of the options, else the IllegalMove naming the rule that forbids
it), or how it resolves itself (automatic: the events it emits), and why it is lost when it has no option
(RES-4). A plug-in declares its own kinds the same way (`Rules.effect`, domain/ruleset.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from domain import commands as c
from domain.errors import IllegalMove
from domain.events import Event
from domain.state import GameState, Task


class Emitter(Protocol):
    """What an automatic effect resolves through: the working state, and `emit` (which applies)."""

    state: GameState

    def emit(self, event: Event) -> None: ...


Options = Callable[[GameState, Task, int], list[c.Command]]
# The check of a command of one of the kind's `commands`, for the seat `command.seat`: exactly the
# options pass (None), anything else gets its reason. Correct in any state, not only at decision points.
Check = Callable[[GameState, Task, c.Command], IllegalMove | None]
Resolver = Callable[[Emitter, Task], None]


@dataclass(frozen=True, slots=True)
class EffectKind:
    kind: str  # the Task kind on the agenda
    name: str  # what the seat is asked, or what happens
    concept: str  # the module that defines it (a rules concept: inquisition, writing, ...)
    commands: tuple[type[c.Command], ...] = ()  # the commands that resolve it; () = automatic
    options: Options | None = None  # its legal options for the seat to act
    check: Check | None = None  # the legality of one command: None iff it is one of the options
    lost: tuple[str, str] | None = None  # RES-4: (why it is lost without an option, rule ID)
    resolve: Resolver | None = None  # an automatic effect: the events it emits
    expansion: str = "base"

    @property
    def automatic(self) -> bool:
        return self.options is None

    def validate(self) -> None:
        if (self.options is None) != (not self.commands) or (self.options is None) != (self.check is None):
            raise ValueError(
                f"effect kind {self.kind}: a choice needs its commands, its options and its check"
            )
        if (self.resolve is None) != (self.options is not None):
            raise ValueError(f"effect kind {self.kind}: an automatic effect, and only one, resolves itself")


def effect_kind(state: GameState, kind: str) -> EffectKind:
    """The kind `kind` of the game's rules (domain/ruleset.py)."""
    return state.rules.effect_kind(kind)


def lent(state: GameState) -> str:
    """The action the effect on top of the agenda lends ("" if none): a plug-in's effects that lend the
    player one of the turn's actions outside the turn's own, "fixed-action" (a space's fixed action, an
    Observe action included) or "observation" (one observation). The action answers the effect and is not
    the turn's own (ACT-3); a plug-in declares its kinds with `Rules.lend`."""
    return state.rules.lent.get(state.agenda[-1].kind, "") if state.agenda else ""


@dataclass(frozen=True, slots=True)
class Interrupt:
    """An automatic step an expansion takes between any two steps of the game when it is due (such as a
    phase change of its board). The turn loop asks these first; while one is due nobody decides. It is
    asked only in a game whose rules have one (`Rules.interrupts`)."""

    due: Callable[[GameState], bool]
    step: Callable[[Emitter], None]
    what: str  # what happens, for the refusal of a command meanwhile
    rule: str


def interrupt_due(state: GameState) -> Interrupt | None:
    """The first of the game's interrupts due now (a game without a plug-in that has one asks none)."""
    for interrupt in state.rules.interrupts:
        if interrupt.due(state):
            return interrupt
    return None
