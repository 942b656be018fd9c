"""Effect kinds: every kind of pending effect (a `Task` on the agenda) defined once, by the module of its
rules concept (`domain/concepts/`), and looked up by the turn loop instead of per-kind lists.

A kind says what it is called when a player is asked to resolve it, the commands that resolve it (RES-1,
RES-6), how its legal options are generated and, beside them, the legality check of one of its commands
(`check`: None when the command is one of the options, else the IllegalMove naming the rule that forbids
it), or how it resolves itself (automatic: the events it emits), and why it is lost when it has no option
(RES-4). Expansions register their own kinds the same way, in their own package (`domain/expansions/`).
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


EFFECTS: dict[str, EffectKind] = {}


def register(*kinds: EffectKind) -> None:
    for kind in kinds:
        if kind.kind in EFFECTS:
            raise ValueError(f"effect kind {kind.kind} is registered twice ({EFFECTS[kind.kind].concept})")
        if (kind.options is None) != (not kind.commands) or (kind.options is None) != (kind.check is None):
            raise ValueError(
                f"effect kind {kind.kind}: a choice needs its commands, its options and its check"
            )
        if (kind.resolve is None) != (kind.options is not None):
            raise ValueError(f"effect kind {kind.kind}: an automatic effect, and only one, resolves itself")
        EFFECTS[kind.kind] = kind


def effect_kind(kind: str) -> EffectKind:
    try:
        return EFFECTS[kind]
    except KeyError:
        raise ValueError(f"unknown effect kind {kind!r}") from None


# Effects that lend the player one of the turn's actions outside the turn's own: kind -> "fixed-action"
# (a space's fixed action, an Observe action included) or "observation" (one observation). The action
# answers the effect and is not the turn's own (ACT-3); an expansion declares its kinds with `lend`.
_LENT: dict[str, str] = {}


def lend(kind: str, action: str) -> None:
    if action not in ("fixed-action", "observation"):
        raise ValueError(f"unknown lent action {action!r}")
    _LENT[kind] = action


def lent(state: GameState) -> str:
    """The action the effect on top of the agenda lends ("" if none)."""
    return _LENT.get(state.agenda[-1].kind, "") if state.agenda else ""


@dataclass(frozen=True, slots=True)
class Interrupt:
    """An automatic step an expansion takes between any two steps of the game when it is due (such as a
    phase change of its board). The turn loop asks these first; while one is due nobody decides. It is
    asked only in a game that has a part (`GameState.parts`), where an expansion keeps its state."""

    due: Callable[[GameState], bool]
    step: Callable[[Emitter], None]
    what: str  # what happens, for the refusal of a command meanwhile
    rule: str


INTERRUPTS: list[Interrupt] = []


def interrupt_due(state: GameState) -> Interrupt | None:
    """The first registered interrupt due now. Interrupts are an expansion's, and an expansion keeps its state
    as a part of the game (`GameState.parts`): a game without parts has none due (asked on every `options`
    call, so a base game skips the registry)."""
    if not state.parts:
        return None
    for interrupt in INTERRUPTS:
        if interrupt.due(state):
            return interrupt
    return None
