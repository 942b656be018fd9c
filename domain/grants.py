"""What an event grants: the effects the rules put on the agenda when it happens (RES-2, RES-5).

The decider calls `granted` when it writes an event (`domain.resolve.Run.emit`) and records the result
in the event's `grants` field; `evolve` then only pushes the recorded grants, so a stored log describes
itself and a newer engine never changes what an old event granted (docs/events.md, docs/editions.md).
This module is where the catalog, the options and the characters decide rewards: each rule that grants
something is one function here, keyed by the event that triggers it.

Games pinned to rules 0.1.0 (the first release) wrote no grants; replaying them derives the grants with
the same functions (`evolve`'s versioned behaviour for 0.1.0 only).

Each function receives the state before the event, the state after the event's own facts (the agenda
with the resolved effect taken off, nothing pushed yet), and the event; one that needs nothing of the
state after (`Rules.grant_ahead`) receives the state before and the event only, so the decider can
compute it before the event's handler copies the state (domain/evolve.py `decided`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from typing import Any, TypeVar

from domain import events as ev
from domain.characters import personal_page, rules_for
from domain.effect_kinds import lent
from domain.effects import reward_tasks
from domain.ruleset import Rules, Ruleset
from domain.state import GameState, PlayerState, Task

E = TypeVar("E", bound=ev.GrantingEvent)

FIRST_GRANTING_RULES = (0, 2, 0)  # the rules version from which events record their grants

# SKY-2: the effect each fixed action (other than Observe) starts.
FIXED_TASKS = {"die": "DIE", "lecture": "LEC", "spot": "SPOT", "upgrade": "UPG"}
# FREE-1: what each free action buys.
FREE_TASKS: dict[str, tuple[Task, ...]] = {
    "recolour": (Task("RECOLOUR"),),
    "raise": (Task("RAISE", 1),),
    "die": (Task("DIE", 1),),
    "write": (Task("WRITE", 3),),
    "persuade": (Task("PER"), Task("PER")),
    "spot": (Task("SPOT"),),
}

Deriver = Callable[[GameState, GameState, Any], list[Task]]
RULES = Rules(__name__)  # the base game's grant rules (domain/ruleset.py)
_for = RULES.grant
_ahead = RULES.grant_ahead


def missing_rules(rules: Ruleset) -> list[str]:
    """Granting event types with no grant rule in `rules` (a test keeps this empty for every plug-in's)."""
    # Imported here: the plug-ins whose events the vocabulary composes import this module.
    from domain.vocabulary import EVENT_CLASSES

    granting = (cls for cls in EVENT_CLASSES if issubclass(cls, ev.GrantingEvent))
    return sorted(cls.__name__ for cls in granting if cls not in rules.grants)


def records_grants(state: GameState) -> bool:
    """Whether the game's rules version writes grants into its events (every version after 0.1.0)."""
    return _records_grants(state.engine_version)


@cache
def _records_grants(version: str) -> bool:  # on the replay path: parsed once per version
    return tuple(int(part) for part in version.split(".")) >= FIRST_GRANTING_RULES


def granted(before: GameState, after: GameState, event: ev.GrantingEvent) -> list[Task]:
    """The effects `event` grants, first to resolve first; an ability-side character may add to them
    (`CharacterRules.react`, domain/characters/)."""
    tasks = before.rules.grants[type(event)](before, after, event)
    player = after.players[event.seat]
    if player.parts:
        return rules_for(before, player).react(before, after, event, tasks)
    return tasks


def as_grants(tasks: list[Task]) -> tuple[ev.Grant, ...]:
    return tuple((t.kind, t.n, t.arg, t.source) for t in tasks)


def with_grants(event: E, grants: tuple[ev.Grant, ...]) -> E:
    """A copy of `event` (an event class has a `__dict__`, no slots) recording `grants`: the decider's
    hottest copy, so a dict copy rather than `domain.state.replace`."""
    copy: E = object.__new__(type(event))
    fields = copy.__dict__
    fields.update(event.__dict__)
    fields["grants"] = grants
    return copy


def as_tasks(grants: tuple[ev.Grant, ...]) -> list[Task]:
    """The recorded grants as tasks. A task is an immutable value, so equal grants share one (replay
    pushes a few dozen distinct ones over and over); a grant that is not hashable is built afresh."""
    try:
        return [_task(*grant) for grant in grants]
    except TypeError:
        return [Task(kind, n, arg, source) for kind, n, arg, source in grants]


@lru_cache(maxsize=4096, typed=True)  # typed: a grant's 1 and True stay different tasks
def _task(kind: str, n: int, arg: str, source: str) -> Task:
    return Task(kind, n, arg, source)


def library_reward(s: GameState, p: PlayerState, row: int, position: int) -> tuple[str, ...]:
    """LIB-3: position 1 is the printed space, position k+1 the k-th card's space in that row; a
    character may cover spaces with its own rewards (Copernicus' library tiles, CHAR-COP-4)."""
    if p.parts:
        replaced = rules_for(s, p).library_reward(s, p, row, position)
        if replaced is not None:
            return replaced
    if position == 1:
        return s.catalog.library_printed[row]
    card_id, dark = p.library[position - 2]
    card = s.catalog.cards[card_id]
    return (card.front if dark else card.back)[row]


def book_tasks(before: GameState, after: GameState, seat: int) -> list[Task]:
    """AMB-6 option: with bookRewardsImmediate, each comet reaching the Book is placed at once."""
    if not after.options.book_rewards_immediate:
        return []
    return _booked(before.players[seat].comets, after.players[seat].comets)


def paid_book_tasks(before: GameState, seat: int, used: Sequence[int]) -> list[Task]:
    """`book_tasks` of a payment with the comets `used` (`moved_on`), from the state before it."""
    if not before.options.book_rewards_immediate:
        return []
    was = before.players[seat].comets
    return _booked(was, moved_on(was, used))


def _booked(was: tuple[str, ...], now: tuple[str, ...]) -> list[Task]:
    return [Task("BOOK")] * sum(1 for a, b in zip(was, now, strict=True) if a != b == "pending")


def moved_on(comets: tuple[str, ...], used: Sequence[int]) -> tuple[str, ...]:
    """OBS-20..34: each comet used in a payment moves on (sky1 -> sky2 -> pending for the Book)."""
    states = list(comets)
    for i in used:
        states[i] = "sky2" if states[i] == "sky1" else "pending"
    return tuple(states)


def tile_rewards(
    s: GameState, tile_id: str, option: int, upgraded: bool, player: PlayerState | None = None
) -> list[Task]:
    tile = next((t for t in s.catalog.action_tiles if t.id == tile_id), None)
    if tile is None and player is not None:  # a character's own tile (Kepler's, CHAR-KEP-1)
        tile = rules_for(s, player).tile(s.catalog, tile_id)
    if tile is None:
        raise KeyError(f"no Action tile {tile_id!r}")
    face = tile.upgraded if upgraded else tile.basic
    return reward_tasks(face[option - 1], "action-tile", s.rules.reward_codes)  # ICON-1


# -- the turn ----------------------------------------------------------------------------------------


@_for(ev.TelescopeMoved)
def _wrap(before: GameState, after: GameState, e: ev.TelescopeMoved) -> list[Task]:
    player = after.players[e.seat]
    return (
        rules_for(before, player).on_wrap(after, player) if e.wrapped else []
    )  # MOV-5: a character's reaction


@_ahead(ev.FixedActionTaken)
def _fixed(before: GameState, e: ev.FixedActionTaken) -> list[Task]:
    return [Task(FIXED_TASKS[e.action])]


@_ahead(ev.MovingActionTaken)
def _moving(before: GameState, e: ev.MovingActionTaken) -> list[Task]:
    if not e.tile:
        return [Task("Q", 1)]  # UPG-2: the Upgrade space gives a Quadrant instead of a moving action
    return tile_rewards(before, e.tile, e.option, e.upgraded, before.players[e.seat])


@_ahead(ev.FreeActionBought)
def _free(before: GameState, e: ev.FreeActionBought) -> list[Task]:
    return list(FREE_TASKS[e.action])


# -- observing -----------------------------------------------------------------------------------------


@_ahead(ev.MajorObjectObserved)
def _major(before: GameState, e: ev.MajorObjectObserved) -> list[Task]:
    card = before.catalog.cards[e.card]
    tasks = [Task("VP", card.major.vp, "", "observation")]  # OBS-40
    if card.major.inquisitor:
        tasks.append(Task("INQ"))  # INQ-3
    tasks += paid_book_tasks(before, e.seat, e.comets)
    tasks.append(Task("REFILL", e.space))  # OBS-43
    if _first_observation(before):  # OBS-1: a Major Object ends the Observe (Galileo: CHAR-GAL-3)
        more = rules_for(before, before.players[e.seat]).observe_more(before, before.players[e.seat], "MO")
        if more is not None:
            tasks.append(more)  # under the rewards and the refill: resolved after them (AMB-11)
    return tasks


def _first_observation(before: GameState) -> bool:
    """Whether an observation is the first of an Observe action (not a later one, OBS-1, nor one lent
    by an effect)."""
    top = before.agenda[-1].kind if before.agenda else ""
    return top != "OBSERVE" and lent(before) != "observation"


@_ahead(ev.ConstellationObserved)
def _constellation(before: GameState, e: ev.ConstellationObserved) -> list[Task]:
    con = before.catalog.cards[e.card].constellations[e.index]
    tasks = reward_tasks(
        con.reward, "constellation", before.rules.reward_codes
    )  # OBS-51: the printed reward, then the slot's
    tasks += reward_tasks(
        before.catalog.constellation_slots[e.slot], "constellation-slot", before.rules.reward_codes
    )
    tasks += paid_book_tasks(before, e.seat, e.comets)
    if _first_observation(before):  # the first of an Observe action (OBS-1; Galileo CHAR-GAL-2)
        more = rules_for(before, before.players[e.seat]).observe_more(before, before.players[e.seat], "C")
        if more is not None:
            tasks.append(more)  # under the rewards: resolved after them
    return tasks


# -- rewards and the Inquisition -------------------------------------------------------------------------


@_ahead(ev.CometPlacedInBook)
def _comet_placed(before: GameState, e: ev.CometPlacedInBook) -> list[Task]:
    if e.page == "appendix":  # BOC-4
        return [Task("VP", before.catalog.appendix_vp, "", "book")]
    page = next((page for page in before.catalog.book_pages if page.id == e.page), None)
    if page is None:  # BOC-5, CHAR-3: a personal page
        page = personal_page(before, before.players[e.seat], e.page)
        if page is None:
            raise KeyError(f"no Book-of-Comets page {e.page!r}")
    return reward_tasks(page.reward, "book", before.rules.reward_codes)  # BOC-2


@_ahead(ev.InterrogationHeld)
def _interrogated(before: GameState, e: ev.InterrogationHeld) -> list[Task]:
    return [Task("VP", e.overflow, "", "inquisition")] if e.overflow else []  # INQ-24


@_ahead(ev.ObjectiveAchieved)
def _objective(before: GameState, e: ev.ObjectiveAchieved) -> list[Task]:
    vp = before.catalog.objective_first_vp if e.first else before.catalog.objective_later_vp  # OBJ-3
    return [Task("VP", vp, "", "objective"), Task("FW")]  # OBJ-5


@_ahead(ev.FarewellTaken)
def _farewell(before: GameState, e: ev.FarewellTaken) -> list[Task]:
    return [Task("DIE", 1), Task("Q", 1)]  # INQ-15
