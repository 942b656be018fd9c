"""The decision point of a state, the exact list of commands open at it, and the legality predicate.

`options(state)` returns None when the engine itself must take the next step (nothing for a player
to decide), otherwise the complete list of legal commands for the seat to act.

`check(state, command)` is the same rules as a predicate: None when `command` is one of those options,
otherwise the IllegalMove naming the rule that forbids it. Every generator below has its check beside it
(`move_options`/`move_check`, `menu_options`/`menu_check`, ...); the checks of pending effects are their
kinds' (`domain/effect_kinds.py`). The property test tests/domain/test_legal_moves.py holds the two to
each other in both directions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from domain import commands as c
from domain.catalog import MIXES
from domain.characters import character_of, personal_page, rules_for
from domain.effect_kinds import effect_kind, interrupt_due
from domain.errors import IllegalMove
from domain.opponents import refusal
from domain.state import (
    S1,
    S2,
    S3,
    S4,
    SKY,
    TOKENS,
    UPGRADE,
    Die,
    GameState,
    PlayerState,
    Task,
)

FREE_COSTS = {"recolour": 1, "raise": 1, "die": 2, "write": 2, "persuade": 3, "spot": 4}  # FREE-1
CHEAPEST_FREE = min(FREE_COSTS.values())


@dataclass(frozen=True, slots=True)
class ExtraMajor:
    """Major Objects an expansion adds to the sky (domain/expansions/): the observations of them that
    are open, and the check of a target with its prefix."""

    options: Callable[[GameState, int, int, int], list[c.Command]]  # (state, seat, "1" comets, "2" comets)
    check: Callable[[GameState, c.Observe, bool], IllegalMove | None]  # (state, command, majors allowed)
    hint: str  # the target's form, for the refusal of a malformed target


@dataclass(frozen=True, slots=True)
class CleanupChoice:
    """A decision an expansion adds to Cleanup step 4, after the objectives (CLN-1; e.g. AMB-15's
    option): the effect kind whose options and check it uses."""

    step: str  # the Cleanup step's name
    due: Callable[[GameState, PlayerState], bool]
    kind: str
    code: str  # the refusal of another command while it is due
    message: str
    rule: str


@lru_cache(maxsize=4096)
def _subsets(dice: tuple[Die, ...]) -> tuple[tuple[Die, ...], ...]:
    """Every distinct non-empty sub-multiset of `dice` (dice of equal colour and value are alike)."""
    seen: dict[tuple[Die, ...], None] = {}
    for k in range(1, len(dice) + 1):
        for combo in combinations(dice, k):
            seen[combo] = None
    return tuple(seen)


@lru_cache(maxsize=8192)
def payments(
    dice: tuple[Die, ...], colours: tuple[str, ...], cost: int, sky1: int, sky2: int
) -> tuple[tuple[tuple[Die, ...], int, int], ...]:
    """OBS-20..33: (dice spent, "1" comets, "2" comets) that pay `cost` with `colours`.

    Every spent die has a required colour, each required colour is present (OBS-22, OBS-33),
    dice + discounts reach the cost, and every applied comet is necessary (OBS-32, DER-20).
    """
    eligible = tuple(d for d in dice if d[0] in colours)
    out = []
    for spent in _subsets(eligible):
        if any(all(d[0] != col for d in spent) for col in colours):
            continue
        total = sum(v for _, v in spent)
        for n2 in range(sky2 + 1):
            for n1 in range(sky1 + 1):
                paid = total + n1 + 2 * n2
                if paid < cost or (n1 and paid - 1 >= cost) or (n2 and paid - 2 >= cost):
                    continue
                out.append((spent, n1, n2))
    return tuple(out)


def free_comets(s: GameState, seat: int) -> tuple[list[int], list[int]]:
    """Comets on the game board not yet used this turn (OBS-30, OBS-31), lowest index first."""
    p = s.players[seat]
    used = s.turn.comets_used
    sky1 = [i for i, st in enumerate(p.comets) if st == "sky1" and i not in used]
    sky2 = [i for i, st in enumerate(p.comets) if st == "sky2" and i not in used]
    return sky1, sky2


def observe_options(s: GameState, seat: int, majors: bool, constellations: bool) -> list[c.Command]:
    p = s.players[seat]
    sky1, sky2 = free_comets(s, seat)
    out: list[c.Command] = []
    if majors:  # an expansion's Major Objects first (domain/expansions/)
        for extra in s.rules.extra_majors.values():
            out += extra.options(s, seat, len(sky1), len(sky2))
    cards = s.catalog.cards
    can_place = p.tokens_used < TOKENS  # OBS-54
    for space, card_id in enumerate(s.display):
        if card_id is None:
            continue
        card = cards[card_id]
        if majors:
            for spent, n1, n2 in payments(
                p.dice, MIXES[card.major.mix], card.major.cost, len(sky1), len(sky2)
            ):
                out.append(c.Observe(seat=seat, target=f"MO:{card_id}", dice=spent, comets1=n1, comets2=n2))
        if constellations and can_place:
            for index, con in enumerate(card.constellations):
                if s.covers[space][index] >= 0:  # OBS-3
                    continue
                for spent, n1, n2 in payments(p.dice, (con.colour,), con.cost, len(sky1), len(sky2)):
                    target = f"C:{card_id}:{index}"
                    out.append(c.Observe(seat=seat, target=target, dice=spent, comets1=n1, comets2=n2))
    return out


def _target_forms(s: GameState) -> str:
    return " or ".join(
        ["MO:<card>", "C:<card>:<n>", *(extra.hint for extra in s.rules.extra_majors.values())]
    )


def constellation_index(text: str, count: int) -> int | None:
    """The index written in a `C:<card>:<index>` target as the generators write it, if below `count`."""
    for index in range(count):
        if text == str(index):
            return index
    return None


def observe_check(s: GameState, cmd: c.Observe, majors: bool, constellations: bool) -> IllegalMove | None:
    """The check of `observe_options`: the target (OBS-1, OBS-2, OBS-3, OBS-54; an expansion's targets
    by their own check), then the payment (`payment_check`)."""
    p = s.players[cmd.seat]
    parts = cmd.target.split(":")
    extra = s.rules.extra_majors.get(parts[0]) if len(parts) == 2 else None
    if extra is not None:
        return extra.check(s, cmd, majors)
    if not ((parts[0] == "MO" and len(parts) == 2) or (parts[0] == "C" and len(parts) == 3)):
        return IllegalMove(
            "bad-target",
            "bad target {target!r}: use {target_forms}",
            "OBS-1",
            target=cmd.target,
            target_forms=_target_forms(s),
        )
    if parts[0] == "MO" and not majors:
        return IllegalMove(
            "one-major-object", "an Observe is one Major Object or up to two constellations", "OBS-1"
        )
    if parts[0] == "C" and not constellations:
        return IllegalMove("no-constellation", "this observation is of a Major Object", "OBS-1")
    if parts[1] not in s.display:
        return IllegalMove(
            "not-on-board", "card {parts1} is not face up on the board", "OBS-2", parts1=parts[1]
        )
    card = s.catalog.cards[parts[1]]
    if parts[0] == "MO":
        return payment_check(s, cmd, MIXES[card.major.mix], card.major.cost, "OBS-22")
    index = constellation_index(parts[2], len(card.constellations))
    if index is None:
        return IllegalMove(
            "bad-target", "card {id} has no constellation {parts2!r}", "OBS-2", id=card.id, parts2=parts[2]
        )
    if p.tokens_used >= TOKENS:
        return IllegalMove("no-constellation-tokens", "all 7 Constellation tokens are used", "OBS-54")
    if s.covers[s.display.index(parts[1])][index] >= 0:
        return IllegalMove("constellation-covered", "that constellation already carries a token", "OBS-3")
    con = card.constellations[index]
    return payment_check(s, cmd, (con.colour,), con.cost, "OBS-21")


def payment_check(
    s: GameState, cmd: c.Observe, colours: tuple[str, ...], cost: int, rule: str
) -> IllegalMove | None:
    """The check of `payments`: dice held (OBS-20) of the colours (`rule`), each colour present
    (OBS-33), comets usable this turn (OBS-31), the cost reached (OBS-20), every comet needed (OBS-32)."""
    held = list(s.players[cmd.seat].dice)
    for die in cmd.dice:
        if die not in held:
            return IllegalMove(
                "die-not-held", "you have no die {die0}{die1} to spend", "OBS-20", die0=die[0], die1=die[1]
            )
        held.remove(die)
    if not cmd.dice:
        return IllegalMove("no-dice", "an observation is paid with at least one die", "OBS-33")
    for die in cmd.dice:
        if die[0] not in colours:
            return IllegalMove(
                "wrong-colour",
                "{die0} dice cannot pay for {colours}",
                rule,
                die0=die[0],
                colours="+".join(colours),
            )
    for colour in colours:
        if all(d[0] != colour for d in cmd.dice):
            return IllegalMove(
                "missing-colour", "at least one {colour} die is needed", "OBS-33", colour=colour
            )
    sky1, sky2 = free_comets(s, cmd.seat)
    if not (0 <= cmd.comets1 <= len(sky1) and 0 <= cmd.comets2 <= len(sky2)):
        return IllegalMove(
            "comet-not-available",
            "you have {n_sky1} '1' and {n_sky2} '2' comets usable this turn",
            "OBS-31",
            n_sky1=len(sky1),
            n_sky2=len(sky2),
        )
    paid = sum(v for _, v in cmd.dice) + cmd.comets1 + 2 * cmd.comets2
    if paid < cost:
        return IllegalMove(
            "not-enough", "the cost is {cost}; dice and comets give {paid}", "OBS-20", cost=cost, paid=paid
        )
    for value, used in ((1, cmd.comets1), (2, cmd.comets2)):
        if used and paid - value >= cost:
            return IllegalMove(
                "comet-not-needed",
                "a '{value}' comet is superfluous: without it the payment is {paid}, the cost {cost}",
                "OBS-32",
                value=value,
                paid=paid - value,
                cost=cost,
            )
    return None


def _open_pages(s: GameState, seat: int) -> list[str]:
    """BOC-2, BOC-3, BOC-9: the empty pages in play; BOC-5: a character's empty personal pages."""
    players = len(s.players)
    pages = [
        page.id
        for page, owner in zip(s.catalog.book_pages, s.pages, strict=True)
        if owner < 0 and players >= page.min_players
    ]
    p = s.players[seat]
    if not p.parts:
        return pages
    part = character_of(p)
    covered = part.pages if part is not None else ()
    return pages + [page.id for page in rules_for(s, p).personal_pages(s.catalog) if page.id not in covered]


def book_options(s: GameState, seat: int) -> list[c.Command]:
    """BOC-2..4, BOC-9: an empty page in play, else the Appendix."""
    pages = _open_pages(s, seat) or ["appendix"]
    return [c.PlaceComet(seat=seat, page=page) for page in pages]


def _personal_page_owner(s: GameState, page_id: str) -> str | None:
    """The name of the character whose personal page `page_id` is (BOC-5, CHAR-3), if any."""
    for board in s.catalog.characters:
        if board.ability is not None and any(page.id == page_id for page in board.ability.pages):
            return board.name
    return None


def book_check(s: GameState, cmd: c.Command) -> IllegalMove | None:
    """The check of `book_options`."""
    if not isinstance(cmd, c.PlaceComet):
        return IllegalMove("pending-decision", "first place your comet in the Book of Comets", "RES-1")
    open_pages = _open_pages(s, cmd.seat)
    if cmd.page in open_pages:
        return None
    if cmd.page == "appendix":
        return (
            None
            if not open_pages
            else IllegalMove("page-free", "empty pages must be used before the Appendix", "BOC-4")
        )
    if personal_page(s, s.players[cmd.seat], cmd.page) is not None:
        return IllegalMove(
            "page-taken", "your personal page {page} already holds a comet", "BOC-5", page=cmd.page
        )
    pages = {page.id: page for page in s.catalog.book_pages}
    owner = _personal_page_owner(s, cmd.page)
    if cmd.page not in pages and owner is not None:
        return IllegalMove(
            "not-your-page",
            "{page} is {owner}'s personal page: only that character uses it",
            "BOC-5",
            page=cmd.page,
            owner=owner,
        )
    if cmd.page not in pages:
        return IllegalMove("unknown-page", "no page {page!r} in the Book of Comets", "BOC-1", page=cmd.page)
    page = pages[cmd.page]
    if len(s.players) < page.min_players:
        return IllegalMove("page-not-in-play", "{id} is used only with 3-4 players", "BOC-9", id=page.id)
    return IllegalMove("page-taken", "page {id} already holds a comet", "BOC-3", id=page.id)


# SKY-2, ACT-4: the fixed actions a space offers besides Observe (at S1 and S4), in menu order.
FIXED_ACTIONS = {S2: ("die", "lecture"), S3: ("spot",), S4: ("die",), UPGRADE: ("upgrade",)}


def fixed_options(s: GameState, seat: int, pos: int) -> list[c.Command]:
    """SKY-2, ACT-4: the fixed action(s) of a space (Observe as its observations)."""
    out: list[c.Command] = []
    if pos in (S1, S4):
        out += observe_options(s, seat, majors=True, constellations=True)
    out += [c.TakeFixed(seat=seat, action=action) for action in FIXED_ACTIONS.get(pos, ())]
    return out


def fixed_check(s: GameState, cmd: c.Command, pos: int) -> IllegalMove | None:
    """The check of `fixed_options` (Observe, TakeFixed)."""
    if isinstance(cmd, c.Observe):
        if pos not in (S1, S4):
            return IllegalMove(
                "wrong-space", "{SKY} does not offer Observe (S1 and S4 do)", "SKY-2", SKY=SKY[pos]
            )
        return observe_check(s, cmd, majors=True, constellations=True)
    if not isinstance(cmd, c.TakeFixed):
        return IllegalMove("not-a-fixed-action", "{VERB!r} is not a fixed action", "ACT-1", VERB=cmd.VERB)
    if cmd.action not in ("die", "lecture", "spot", "upgrade"):
        return IllegalMove(
            "unknown-action",
            "unknown fixed action {action!r}: die, lecture, spot or upgrade",
            "SKY-2",
            action=cmd.action,
        )
    if cmd.action not in FIXED_ACTIONS.get(pos, ()):
        return IllegalMove(
            "wrong-space", "{SKY} does not offer {action!r}", "SKY-2", SKY=SKY[pos], action=cmd.action
        )
    return None


def task_options(s: GameState, task: Task) -> list[c.Command]:
    """The options of the pending choice effect, as its kind defines them (domain/effect_kinds.py)."""
    options = effect_kind(s, task.kind).options
    if options is None:
        raise ValueError(f"effect {task.kind} is automatic: it has no options")
    return options(s, task, s.turn.seat)


def task_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    """The check of `task_options`: a command that answers the pending effect (RES-1), by its kind."""
    kind = effect_kind(s, task.kind)
    if kind.check is None:
        return IllegalMove(
            "no-decision", "the engine resolves {name} by itself: nothing to decide", "RES-1", name=kind.name
        )
    if not isinstance(cmd, kind.commands):
        return IllegalMove(
            "pending-decision", "first finish the pending effect: {name}", "RES-1", name=kind.name
        )
    return kind.check(s, task, cmd)


def can_buy_free(s: GameState, seat: int) -> bool:
    """Whether `free_options` offers anything (FREE-1), without building the commands."""
    return s.players[seat].quadrants >= CHEAPEST_FREE


def free_options(s: GameState, seat: int) -> list[c.Command]:
    q = s.players[seat].quadrants
    return [c.BuyFree(seat=seat, action=a) for a, cost in FREE_COSTS.items() if q >= cost]


def free_check(s: GameState, cmd: c.BuyFree) -> IllegalMove | None:
    """The check of `free_options` (FREE-1)."""
    cost = FREE_COSTS.get(cmd.action)
    if cost is None:
        known = ", ".join(FREE_COSTS)
        return IllegalMove(
            "unknown-free-action",
            "unknown free action {action!r}; known: {known}",
            "FREE-1",
            action=cmd.action,
            known=known,
        )
    have = s.players[cmd.seat].quadrants
    if have < cost:
        return IllegalMove(
            "not-enough-quadrants",
            "{action} costs {cost} Quadrants, you have {have}",
            "FREE-1",
            action=cmd.action,
            cost=cost,
            have=have,
        )
    return None


def move_options(s: GameState, seat: int) -> list[c.Command]:
    """MOV-1: "at the start of the turn" (S004), before any free action: 1, 2 or 3 steps."""
    return [c.Move(seat=seat, steps=n) for n in (1, 2, 3)]


def move_check(s: GameState, cmd: c.Command) -> IllegalMove | None:
    """The check of `move_options`."""
    if not isinstance(cmd, c.Move):
        return IllegalMove(
            "must-move", "first move the telescope 1, 2 or 3 steps (start of the turn)", "MOV-1"
        )
    if cmd.steps not in (1, 2, 3):
        return IllegalMove(
            "bad-steps", "the telescope moves 1, 2 or 3 steps, not {steps}", "MOV-1", steps=cmd.steps
        )
    return None


def menu_options(s: GameState) -> list[c.Command]:
    """ACT-1..5: fixed action (with slash choices), moving action, free actions, or end."""
    seat = s.turn.seat
    t = s.turn
    pos = t.space  # AMB-21: the Movement phase's space, even after the telescope was relocated
    out: list[c.Command] = []
    if not t.fixed_done:
        out += fixed_options(s, seat, pos)
    if not t.moving_done:
        if pos == UPGRADE:
            out.append(c.UseTile(seat=seat, option=0))  # UPG-2, AMB-48
        else:
            out += [c.UseTile(seat=seat, option=1), c.UseTile(seat=seat, option=2)]
    out += free_options(s, seat)
    if s.players[seat].parts:  # a character's own commands (Copernicus' free action, FREE-6)
        out += rules_for(s, s.players[seat]).menu_options(s, seat)
    out.append(c.EndActions(seat=seat))
    return out


def menu_check(s: GameState, cmd: c.Command) -> IllegalMove | None:
    """The check of `menu_options`."""
    t = s.turn
    pos = t.space
    if isinstance(cmd, c.EndActions):
        return None
    if isinstance(cmd, c.BuyFree):
        return free_check(s, cmd)
    if isinstance(cmd, c.Observe | c.TakeFixed):
        if t.fixed_done:
            return IllegalMove("fixed-action-taken", "the fixed action was already taken this turn", "ACT-3")
        return fixed_check(s, cmd, pos)
    if isinstance(cmd, c.UseTile):
        if t.moving_done:
            return IllegalMove(
                "moving-action-taken", "the moving action was already taken this turn", "ACT-3"
            )
        if pos == UPGRADE and cmd.option != 0:
            return IllegalMove("upgrade-space", "at U the moving action is the Quadrant: tile 0", "UPG-2")
        if pos != UPGRADE and cmd.option == 0:
            return IllegalMove("not-upgrade-space", "the Quadrant substitute exists only at U", "UPG-2")
        if pos != UPGRADE and cmd.option not in (1, 2):
            return IllegalMove("bad-option", "an Action tile offers option 1 or 2", "ACT-5")
        return None
    rules = rules_for(s, s.players[cmd.seat])
    if isinstance(cmd, rules.menu_commands):  # a character's own command (domain/characters/)
        return rules.menu_check(s, cmd)
    if isinstance(cmd, c.Move):
        return IllegalMove("already-moved", "the telescope moves only in the Movement phase", "MOV-1")
    if isinstance(cmd, c.PlaceComet):
        return IllegalMove("book-timing", "comets are placed in the Book in Cleanup", "BOC-2")
    if isinstance(cmd, c.EndFreeActions):
        return IllegalMove(
            "no-free-action-window",
            "free-action windows are in Cleanup: end the Action phase with end",
            "CLN-1",
        )
    return IllegalMove(
        "nothing-pending", "{VERB!r} answers an effect, but none is pending", "RES-6", VERB=cmd.VERB
    )


def tile_to_rotate(s: GameState) -> str | None:
    """ROT-1, ROT-3, AMB-5."""
    t = s.turn
    if t.rotated:
        return None
    if t.used_tile is not None:
        rotated = any(already(s, t.used_tile) for already in s.rules.rotated_at_once)
        return None if rotated else t.used_tile  # ROT-6, AMB-23
    pos = t.space
    if s.options.rotate_when_moving_action_skipped and S1 <= pos <= S4:
        return s.players[t.seat].queue[pos]
    return None


def cleanup_step(s: GameState) -> str:
    """CLN-1: rotate, Book of Comets, interrogation, objectives, then the end of the turn."""
    t = s.turn
    p = s.players[t.seat]
    if tile_to_rotate(s) is not None:
        return "rotate"
    if "pending" in p.comets:
        return "book"
    # S001 "at any point of your turn": a free-action window after the Book of Comets (before the
    # interrogation and the objectives) and one at the end of the turn, each only when the player can
    # afford a free action.
    # A character's own commands open in Cleanup (Hevelius' claims, CHAR-HEV-4) open the windows too.
    windows = (s.options.free_actions_in_all_phases and can_buy_free(s, t.seat)) or _character_window(s)
    if windows and t.windows_closed == 0 and t.objectives_due is None:
        return "window"
    if t.inquisitor_moved and not t.interrogated:
        return "interrogate"  # INQ-20; a Persuade bought in the last window is interrogated too
    if t.objectives_due is None:
        return "check"
    if next_objective(s, p) is not None:
        return "objective"
    for choice in s.rules.cleanup_choices:  # an expansion's decisions in step 4 (domain/expansions/)
        if choice.due(s, p):
            return choice.step
    if windows and t.windows_closed < 2:
        return "window"
    return "end"


def _character_window(s: GameState) -> bool:
    p = s.players[s.turn.seat]
    return bool(p.parts) and bool(rules_for(s, p).cleanup_options(s, p.seat))


def next_objective(s: GameState, p: PlayerState) -> str | None:
    """OBJ-2: the next objective met at the start of step 4 and not claimed yet (a Farewell taken
    for one claim cannot undo the next: the set is fixed when the step begins)."""
    due = s.turn.objectives_due or ()
    for objective in due:
        if p.seat not in s.claims[s.objectives.index(objective)]:
            return objective
    return None


def cleanup_options(s: GameState) -> list[c.Command] | None:
    """CLN-1: the Book of Comets (step 2), an expansion's choices in step 4 and the free-action
    windows; None at the automatic steps."""
    seat = s.turn.seat
    step = cleanup_step(s)
    if step == "book":
        return book_options(s, seat)
    choice = _cleanup_choice(s, step)
    if choice is not None:
        return task_options(s, Task(choice.kind))
    if step == "window":
        out = free_options(s, seat) if s.options.free_actions_in_all_phases else []
        if s.players[seat].parts:  # a character's own commands (Hevelius' claims, CHAR-HEV-4)
            out += rules_for(s, s.players[seat]).cleanup_options(s, seat)
        return [*out, c.EndFreeActions(seat=seat)]
    return None


def cleanup_check(s: GameState, cmd: c.Command) -> IllegalMove | None:
    """The check of `cleanup_options`."""
    step = cleanup_step(s)
    choice = _cleanup_choice(s, step)
    if step not in ("book", "window") and choice is None:
        return IllegalMove(
            "no-decision", "Cleanup step {step!r} is automatic: nothing to decide", "CLN-1", step=step
        )
    if isinstance(cmd, c.BuyFree) and not s.options.free_actions_in_all_phases:
        return IllegalMove("free-action-timing", "free actions are taken in the Action phase", "AMB-24")
    if step == "book":
        if isinstance(cmd, c.PlaceComet):
            return book_check(s, cmd)
        return IllegalMove("book-first", "first place your comet in the Book of Comets (step 2)", "CLN-1")
    if choice is not None:
        if isinstance(cmd, effect_kind(s, choice.kind).commands):
            return task_check(s, Task(choice.kind), cmd)
        return IllegalMove(choice.code, choice.message, choice.rule)
    if isinstance(cmd, c.BuyFree):
        return free_check(s, cmd)
    if isinstance(cmd, c.EndFreeActions):
        return None
    rules = rules_for(s, s.players[cmd.seat])
    if isinstance(cmd, rules.cleanup_commands):  # a character's own command (domain/characters/)
        return rules.cleanup_check(s, cmd)
    if isinstance(cmd, c.PlaceComet):
        return IllegalMove("no-comet-pending", "no comet of yours is waiting for the Book", "BOC-2")
    return IllegalMove(
        "cleanup", "Cleanup only asks where comets go in the Book and for free actions", "CLN-1"
    )


def _cleanup_choice(s: GameState, step: str) -> CleanupChoice | None:
    return next((choice for choice in s.rules.cleanup_choices if choice.step == step), None)


# `options(state, complete=False)` answers this instead of a list when the list would hold two or more
# commands (a decision point) and building it is not needed (the turn loop only asks "automatic, forced
# or a choice?").
CHOICE: list[c.Command] = []


def options(s: GameState, *, complete: bool = True) -> list[c.Command] | None:
    """The commands open to the seat to act ([] once the game is over); None when the engine takes the
    next step itself (scoring, an interrupt, an automatic effect or Cleanup step, and every step of a
    non-player opponent's turn: domain/opponents.py). With `complete=False` a list of two or more
    commands may come back as the marker `CHOICE`."""
    # `opponent_at` inlined (asked at every step of the turn loop): the seat's character plays itself
    opponents = s.rules.opponents
    if opponents and s.turn.phase != "over" and s.players[s.turn.seat].character in opponents:
        return None
    return decision_options(s, complete=complete)


def decision_options(s: GameState, *, complete: bool = True) -> list[c.Command] | None:
    """The decision the base rules ask at this point of the game, whoever decides it (a non-player
    opponent's is made by its own rules: `Opponent.choose`)."""
    t = s.turn
    if t.phase == "over":
        return []
    if t.phase == "scoring" or interrupt_due(s) is not None:
        return None
    if s.agenda:
        top = s.agenda[-1]
        if effect_kind(s, top.kind).automatic:
            return None
        return task_options(s, top) or None  # no option: the effect is lost (automatic)
    seat = t.seat
    if t.phase == "movement":
        return move_options(s, seat)
    if t.phase == "actions":
        if not complete and not t.moving_done:
            return CHOICE  # ACT-1: a moving action and `end` at least
        return menu_options(s)
    return cleanup_options(s)


def check(s: GameState, cmd: c.Command) -> IllegalMove | None:
    """The legality predicate: None iff `cmd` is one of `options(s)`; else why not, with its rule.

    The game's end (END-2), the seat to act (TURN-1), a pending effect (RES-1, its kind's check),
    then the check of the phase's generator."""
    t = s.turn
    if t.phase == "over":
        return IllegalMove("game-over", "the game has ended", "END-2")
    if not isinstance(cmd, c.Command):
        return IllegalMove("bad-command", "not a command", "TURN-2")
    if cmd.seat != t.seat:
        return IllegalMove(
            "not-your-turn",
            "it is seat {seat}'s turn, not seat {seat2}'s",
            "TURN-1",
            seat=t.seat,
            seat2=cmd.seat,
        )
    if t.phase == "scoring":
        return IllegalMove("no-decision", "the final scoring is automatic: nothing to decide", "SCO-1")
    opponents = s.rules.opponents
    opponent = opponents.get(s.players[t.seat].character) if opponents else None  # `opponent_at`, inlined
    if opponent is not None:
        return refusal(opponent)
    interrupt = interrupt_due(s)
    if interrupt is not None:
        return IllegalMove(
            "no-decision", "{what} first: nothing to decide", interrupt.rule, what=interrupt.what
        )
    if s.agenda:
        return task_check(s, s.agenda[-1], cmd)
    if t.phase == "movement":
        return move_check(s, cmd)
    if t.phase == "actions":
        return menu_check(s, cmd)
    return cleanup_check(s, cmd)
