"""A game's rules as one object: the plug-ins it is played with, composed once (docs/engine.md).

A game's rules are fixed by what its `GameStarted` pins: the rules version, the catalog edition, the
options and the seats' characters (a non-player opponent is a seat's character). `ruleset_for(pins)`
composes the plug-ins those select (the base game always; an expansion when its option is on; a
non-player opponent when it has a seat) and compiles their declarations into the dispatch tables the
decider and `evolve` use: what each event does, what each command emits, what each event grants, each
effect kind, the automatic steps between steps, the scoring sources. The result is cached by its pins and
held by the state (`GameState.rules`); a game without an expansion never consults it.

A plug-in declares its rules in `Rules` tables, one per module that defines rules, filled while that
module is defined (its own decorators, like a literal written in place) and never after; they are read
only when a ruleset is composed. (What stays process-wide is the wire vocabulary, needed before a game's
rules are known: event, command and option types, state-part codecs; docs/engine.md.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from domain.catalog.rewards import is_reward_code

if TYPE_CHECKING:
    from domain.effect_kinds import EffectKind, Interrupt
    from domain.moves import CleanupChoice, ExtraMajor
    from domain.opponents import Opponent
    from domain.options import Options
    from domain.setup import OpponentSetup
    from domain.state import GameState, PlayerState, Task

F = TypeVar("F", bound=Callable[..., Any])
C = TypeVar("C")
Handler = Callable[[Any, Any], Any]  # (state, event) -> state
# A handler that pushes the event's grants itself, in the one copy it makes: (state, event, grants) -> state
Pusher = Callable[[Any, Any, Any], Any]
HandlerWrap = Callable[[Any, Any, Handler], Any]  # (state, event, base handler) -> state
CommandHandler = Callable[[Any, Any, Any], None]  # (run, command, task) -> None
CommandWrap = Callable[[Any, Any, Any, CommandHandler], None]
Deriver = Callable[[Any, Any, Any], list[Any]]  # (before, after, event) -> tasks
AheadDeriver = Callable[[Any, Any], list[Any]]  # (before, event) -> tasks: needs no state after
DeriverWrap = Callable[[Any, Any, Any, Deriver], list[Any]]
StartStep = Callable[[Any, Any], Any]  # (state, GameStarted) -> state
ForkStep = Callable[[Any, Any, Any], Any]  # (before, forked, GameForked) -> state
Decline = tuple[str, Callable[[Any, Any], list[Any]]]  # (rule ID, (state before, declined task) -> tasks)


class Rules:
    """The rules one module declares: filled by its own decorators while it is defined, read when a
    ruleset is composed. A plug-in (`Plugin.rules`) lists its modules' tables."""

    __slots__ = (
        "ahead",
        "cleanup_choices",
        "command_wraps",
        "commands",
        "declines",
        "effects",
        "event_wraps",
        "events",
        "extra_majors",
        "grant_wraps",
        "grants",
        "interrupts",
        "lent",
        "major_object_sources",
        "name",
        "on_fork",
        "on_start",
        "opponent_setups",
        "opponents",
        "point_rules",
        "pushers",
        "redeals",
        "resolves",
        "reward_codes",
        "rotated_at_once",
        "state_redeals",
    )

    def __init__(self, name: str) -> None:
        self.name = name
        self.events: dict[type, Handler] = {}
        self.pushers: dict[type, Pusher] = {}  # the handlers (also in `events`) that push their grants
        self.event_wraps: list[tuple[type, HandlerWrap]] = []
        self.resolves: dict[type, frozenset[str]] = {}
        self.commands: dict[type, CommandHandler] = {}
        self.command_wraps: list[tuple[type, CommandWrap]] = []
        # effect kind -> (its rule ID, what declining it grants: (state before, declined task) -> tasks)
        self.declines: dict[str, Decline] = {}
        self.grants: dict[type, Deriver] = {}
        self.ahead: dict[type, AheadDeriver] = {}  # the grant rules (also in `grants`) needing no after
        self.grant_wraps: list[tuple[type, DeriverWrap]] = []
        self.effects: list[EffectKind] = []
        self.lent: dict[str, str] = {}
        self.interrupts: list[Interrupt] = []
        self.extra_majors: dict[str, ExtraMajor] = {}
        self.cleanup_choices: list[CleanupChoice] = []
        self.rotated_at_once: list[Callable[[GameState, str], bool]] = []
        self.major_object_sources: list[Callable[[GameState, PlayerState], int]] = []
        self.point_rules: dict[str, str] = {}
        self.reward_codes: dict[str, Task] = {}  # the plug-in's own printed reward codes -> the task each is
        self.on_start: list[StartStep] = []
        self.on_fork: list[ForkStep] = []
        self.opponents: dict[str, Opponent] = {}  # character id -> the non-player opponent playing it
        self.opponent_setups: list[OpponentSetup] = []  # a non-player opponent's seat at setup
        # What a non-player opponent re-deals at a fork (domain/fork.py): each rewrites, in the copied
        # events, its own hidden deal with the fork's seed and salt, keeping what they revealed of it.
        self.redeals: list[Callable[[list[Any], str, str], None]] = []
        # The same re-deal on a state, for a search's determinisation (domain/determinise.py).
        self.state_redeals: list[Callable[[GameState, Any], GameState]] = []

    # -- events --------------------------------------------------------------------------------------

    def event(self, cls: type, *kinds: str, pushes: bool = False) -> Callable[[F], F]:
        """The handler of an event type, and the effect kinds it resolves. `pushes`: the handler of a
        granting event takes the grants as a third argument (`(state, event, grants)`, first to resolve
        first) and puts them on the agenda in the one copy of the state it makes (`domain.effects.push`),
        so that applying a granting event copies the state once; evolve passes them (domain/evolve.py)."""

        def declare(fn: F) -> F:
            if cls in self.events:
                raise ValueError(f"{cls.__name__} has a handler already")
            if pushes:
                self.pushers[cls] = fn
                self.events[cls] = _unpushed(fn)
            else:
                self.events[cls] = fn
            self.resolve(cls, *kinds)
            return fn

        return declare

    def resolve(self, cls: type, *kinds: str) -> None:
        """`cls` events also resolve effects of these kinds (another plug-in's events answering them)."""
        self.resolves[cls] = self.resolves.get(cls, frozenset()) | frozenset(kinds)

    def wrap_event(self, cls: type, wrapper: HandlerWrap) -> None:
        """An addition to how another plug-in's event applies: `wrapper(state, event, base)`."""
        self.event_wraps.append((cls, wrapper))

    # -- commands ------------------------------------------------------------------------------------

    def command(self, cls: type) -> Callable[[F], F]:
        def declare(fn: F) -> F:
            if cls in self.commands:
                raise ValueError(f"{cls.__name__} has a handler already")
            self.commands[cls] = fn
            return fn

        return declare

    def wrap_command(self, cls: type, wrapper: CommandWrap) -> None:
        """An extension of another plug-in's command: `wrapper` gets the base handler as its last argument."""
        self.command_wraps.append((cls, wrapper))

    # -- grants --------------------------------------------------------------------------------------

    def grant(self, cls: type) -> Callable[[F], F]:
        """What a granting event grants: `(state before, state after its facts, event) -> tasks`."""

        def declare(fn: F) -> F:
            if cls in self.grants:
                raise ValueError(f"{cls.__name__} has a grant rule already")
            self.grants[cls] = fn
            return fn

        return declare

    def grant_ahead(self, cls: type) -> Callable[[F], F]:
        """A grant rule that reads only the state before the event and the event, `(before, event) ->
        tasks`: the decider computes it before the event's handler copies the state, which then pushes
        the grants in that one copy (`event(..., pushes=True)`). It is the event's grant rule as well."""

        def declare(fn: F) -> F:
            self.grant(cls)(_behind(fn))
            self.ahead[cls] = fn
            return fn

        return declare

    def wrap_grant(self, cls: type, wrapper: DeriverWrap) -> None:
        self.grant_wraps.append((cls, wrapper))

    # -- effect kinds --------------------------------------------------------------------------------

    def effect(self, *kinds: EffectKind) -> None:
        for kind in kinds:
            kind.validate()
            self.effects.append(kind)

    def reward_code(self, codes: Mapping[str, Task]) -> None:
        """Reward codes this plug-in's components print besides the base game's (digest §9.2), each
        standing for one task (domain/effects.py reads them from the game's ruleset)."""
        for code, task in codes.items():
            if is_reward_code(code):
                raise ValueError(f"{self.name}: {code!r} is a base game's reward code (digest §9.2)")
            if self.reward_codes.get(code, task) != task:
                raise ValueError(f"{self.name}: reward code {code!r} is defined twice")
            self.reward_codes[code] = task

    def decline(self, kind: str, rule: str, grants: Callable[[Any, Any], list[Any]]) -> None:
        """An optional ability of kind `kind` may be declined (`DeclineAbility`, CHAR-1): `rule` is its rule
        ID and `grants(state before, the declined task)` what declining it leaves to do."""
        if kind in self.declines:
            raise ValueError(f"{self.name}: declining {kind} is declared already")
        self.declines[kind] = (rule, grants)

    def lend(self, kind: str, action: str) -> None:
        if action not in ("fixed-action", "observation"):
            raise ValueError(f"unknown lent action {action!r}")
        self.lent[kind] = action


class Plugin:
    """A part of the rules: the base game, an expansion, a character's ability side, a non-player
    opponent. `rules` lists the declarations of its modules (its events, commands, grants, effect kinds,
    setup and fork steps...); `domain/expansions/plugins.py` says which plug-ins a game is played with."""

    rules: ClassVar[tuple[Rules, ...]] = ()
    ability_of: ClassVar[str] = ""  # a character's ability side: that character's id (CHAR-1)


@dataclass(frozen=True, slots=True)
class Pins:
    """What a game's `GameStarted` pins that its rules depend on."""

    engine_version: str
    catalog_edition: str
    options: Options
    characters: tuple[str, ...]  # each seat's character id (a non-player opponent plays one)
    sides: tuple[str, ...] | None  # each seat's side (CHAR-1); None: every seat on its basic side

    def __post_init__(self) -> None:
        if self.sides is None:  # one form for one game, whether it was started or loaded
            object.__setattr__(self, "sides", ("basic",) * len(self.characters))

    def ability_sides(self) -> frozenset[str]:
        """The characters some seat plays on the ability side (CHAR-1)."""
        sides = self.sides or ()
        return frozenset(ch for ch, side in zip(self.characters, sides, strict=True) if side == "ability")


def _wrapped(base: Callable[..., Any], wrapper: Callable[..., Any]) -> Callable[..., Any]:
    return lambda *args: wrapper(*args, base)


def _unpushed(pusher: Pusher) -> Handler:
    """A pushing handler as a plain one: the event's facts, nothing pushed (the grants are then pushed
    after, by a copy of their own: a handler another plug-in wraps, a grant that needs the state after)."""
    return lambda state, event: pusher(state, event, ())


def _behind(ahead: AheadDeriver) -> Deriver:
    """A grant rule that needs no state after, called as one that may (`granted`, a wrapped grant rule)."""
    return lambda before, after, event: ahead(before, event)


class Ruleset:
    """The compiled rules of one game (see the module's docstring). Built by `ruleset_for`."""

    __slots__ = (
        "abilities",
        "ahead",
        "cleanup_choices",
        "commands",
        "declines",
        "effects",
        "extra_majors",
        "grants",
        "handlers",
        "interrupts",
        "lent",
        "major_object_sources",
        "on_fork",
        "on_start",
        "opponent_setups",
        "opponents",
        "pins",
        "plugins",
        "point_rules",
        "pushers",
        "redeals",
        "refined",
        "resolves",
        "reward_codes",
        "rotated_at_once",
        "state_redeals",
    )

    def __init__(self, pins: Pins, plugins: Iterable[type[Plugin]]) -> None:
        self.pins = pins
        self.plugins = tuple(plugins)
        tables = list(dict.fromkeys(rules for plugin in self.plugins for rules in plugin.rules))
        self.handlers: dict[type, Handler] = {}
        self.resolves: dict[type, frozenset[str]] = {}
        self.commands: dict[type, CommandHandler] = {}
        self.grants: dict[type, Deriver] = {}
        self.effects: dict[str, EffectKind] = {}
        self.lent: dict[str, str] = {}
        self.point_rules: dict[str, str] = {}
        self.extra_majors: dict[str, ExtraMajor] = {}
        self.reward_codes: dict[str, Task] = {}  # the plug-ins' own reward codes (domain/effects.py)
        self.declines: dict[str, Decline] = {}  # the optional abilities that may be declined (CHAR-1)
        for rules in tables:
            _merge(self.handlers, rules.events, rules.name, "a handler")
            _merge(self.commands, rules.commands, rules.name, "a handler")
            _merge(self.grants, rules.grants, rules.name, "a grant rule")
            _merge(self.effects, {kind.kind: kind for kind in rules.effects}, rules.name, "an effect kind")
            _merge(self.extra_majors, rules.extra_majors, rules.name, "Major Objects")
            _merge(self.declines, rules.declines, rules.name, "a decline")
            _merge(self.reward_codes, rules.reward_codes, rules.name, "a task")
            for cls, kinds in rules.resolves.items():
                self.resolves[cls] = self.resolves.get(cls, frozenset()) | kinds
            self.lent.update(rules.lent)
            self.point_rules.update(rules.point_rules)
        # The granting events applied with one copy: a pushing handler no other plug-in wraps; and those
        # whose grants the decider computes before it, from a grant rule that needs no state after.
        self.pushers: dict[type, Pusher] = {}
        self.ahead: dict[type, AheadDeriver] = {}
        for rules in tables:
            _merge(self.pushers, rules.pushers, rules.name, "a handler")
            _merge(self.ahead, rules.ahead, rules.name, "a grant rule")
        for rules in tables:  # the extensions of other plug-ins' rules, in the plug-ins' order
            for cls, event_wrap in rules.event_wraps:
                self.pushers.pop(cls, None)
                self.handlers[cls] = _wrapped(self.handlers[cls], event_wrap)
            for cls, command_wrap in rules.command_wraps:
                self.commands[cls] = _wrapped(self.commands[cls], command_wrap)
            for cls, grant_wrap in rules.grant_wraps:
                self.ahead.pop(cls, None)
                self.grants[cls] = _wrapped(self.grants[cls], grant_wrap)
        # A refinement of another plug-in's event (a subclass: a plug-in's own kind of Inquisitor
        # persuaded, of the base game's) resolves every effect kind its bases resolve, besides its own.
        for cls in self.resolves:
            for base in cls.__mro__[1:]:
                self.resolves[cls] |= self.resolves.get(base, frozenset())
        # command class -> itself and the game's refinements of it (subclasses), e.g. the kinds of
        # Inquisitor a Persuade may move (domain/concepts/inquisition.py)
        self.refined: dict[type, tuple[type, ...]] = {
            cls: (cls, *(other for other in self.commands if other is not cls and issubclass(other, cls)))
            for cls in self.commands
        }
        self.interrupts = tuple(i for rules in tables for i in rules.interrupts)
        self.cleanup_choices = tuple(choice for rules in tables for choice in rules.cleanup_choices)
        self.rotated_at_once = tuple(fn for rules in tables for fn in rules.rotated_at_once)
        self.major_object_sources = tuple(fn for rules in tables for fn in rules.major_object_sources)
        self.on_start = tuple(step for rules in tables for step in rules.on_start)
        self.on_fork = tuple(step for rules in tables for step in rules.on_fork)
        self.opponent_setups = tuple(setup for rules in tables for setup in rules.opponent_setups)
        self.redeals = tuple(redeal for rules in tables for redeal in rules.redeals)
        self.state_redeals = tuple(redeal for rules in tables for redeal in rules.state_redeals)
        # character id -> the rules of its ability side, for the characters a seat plays on that side
        self.abilities: dict[str, Any] = {p.ability_of: p() for p in self.plugins if p.ability_of}
        self.opponents: dict[str, Opponent] = {}  # character id -> the non-player opponent playing it
        for rules in tables:
            _merge(self.opponents, rules.opponents, rules.name, "an opponent")

    def __repr__(self) -> str:
        return f"Ruleset({', '.join(plugin.__name__ for plugin in self.plugins)})"

    def effect_kind(self, kind: str) -> EffectKind:
        try:
            return self.effects[kind]
        except KeyError:
            raise ValueError(f"unknown effect kind {kind!r}") from None

    def has(self, plugin: type[Plugin]) -> bool:
        return plugin in self.plugins

    def refinements(self, cls: type[C]) -> tuple[type[C], ...]:
        """`cls` and the subclasses of it that this game's plug-ins handle (a base command first)."""
        return self.refined.get(cls, (cls,))


def _merge(into: dict[Any, Any], entries: Mapping[Any, Any], owner: str, what: str) -> None:
    for key, value in entries.items():
        if key in into and into[key] is not value:
            name = getattr(key, "__name__", key)
            raise ValueError(f"{owner}: {name} has {what} already")
        into[key] = value


@lru_cache(maxsize=256)
def ruleset_for(pins: Pins) -> Ruleset:
    """The rules of a game with these pins, composed once (domain/expansions/plugins.py: which)."""
    from domain.expansions.plugins import (
        compose,  # the plug-ins import the engine's modules, which import this one
    )

    return compose(pins)
