"""The decision point of a state and the exact list of commands open at it.

`options(state)` returns None when the engine itself must take the next step (nothing for a player
to decide), otherwise the complete list of legal commands for the seat to act.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from domain import commands as c
from domain.catalog import MIXES
from domain.catalog.luna import POSITIONS
from domain.characters import rules_for
from domain.effect_kinds import effect_kind
from domain.luna import moon_objective_due, observable_moon_tiles, phase_due
from domain.state import (
    COLOURS,
    MAX_DICE,
    MAX_PER_COLOUR,
    S1,
    S2,
    S3,
    S4,
    TOKENS,
    UPGRADE,
    Die,
    GameState,
    PlayerState,
    Task,
)

FREE_COSTS = {"recolour": 1, "raise": 1, "die": 2, "write": 2, "persuade": 3, "spot": 4}  # FREE-1


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
    if majors and s.luna is not None:  # LUNA-20..22: the Moon, paid with dice of all three colours
        cost = s.luna.costs[0] if s.luna.costs else 0
        for index in observable_moon_tiles(s):
            for spent, n1, n2 in payments(p.dice, COLOURS, cost, len(sky1), len(sky2)):
                target = f"MOON:{POSITIONS[index]}"
                out.append(c.Observe(seat=seat, target=target, dice=spent, comets1=n1, comets2=n2))
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


def _distinct(dice: tuple[Die, ...]) -> list[Die]:
    return list(dict.fromkeys(dice))


def die_options(s: GameState, seat: int) -> list[c.Command]:
    """GAIN-2, DIE-2..7: gain a die of a colour left in the supply; with 4 dice, exchange or decline."""
    p = s.players[seat]
    out: list[c.Command] = []
    if len(p.dice) < MAX_DICE:
        for i, colour in enumerate(COLOURS):
            if s.supply[i] > 0 and p.count(colour) < MAX_PER_COLOUR:
                out.append(c.GainDie(seat=seat, colour=colour))
        return out
    for returned in _distinct(p.dice):
        for i, colour in enumerate(COLOURS):
            after = p.count(colour) - (returned[0] == colour)
            available = s.supply[i] + (returned[0] == colour)
            if available > 0 and after < MAX_PER_COLOUR:
                out.append(c.GainDie(seat=seat, colour=colour, returned=returned))
    if out:
        out.append(c.DeclineDie(seat=seat))  # AMB-26: the exchange is optional
    return out


def recolour_options(s: GameState, seat: int) -> list[c.Command]:
    """DIE-11 with DIE-6; the new colour comes from the supply (DIE-7)."""
    p = s.players[seat]
    out: list[c.Command] = []
    for die in _distinct(p.dice):
        for i, colour in enumerate(COLOURS):
            if colour != die[0] and s.supply[i] > 0 and p.count(colour) < MAX_PER_COLOUR:
                out.append(c.Recolour(seat=seat, die=die, colour=colour))
    return out


def persuade_options(s: GameState, seat: int) -> list[c.Command]:
    """INQ-10: move one Inquisitor one space right; not from the rightmost space."""
    p = s.players[seat]
    last = len(p.cellar) - 1
    out: list[c.Command] = [c.Persuade(seat=seat, space=i) for i in range(last) if p.cellar[i]]
    out += [c.Persuade(seat=seat, space=i, grand=True) for i in range(last) if p.grand[i]]
    return out


def library_end(s: GameState, seat: int) -> int:
    """WRT-2/WRT-6: the last space of every row, 1 + the cards in the library."""
    return 1 + len(s.players[seat].library)


def write_options(s: GameState, seat: int, exact: bool) -> list[c.Command]:
    end = library_end(s, seat)
    rows = [r for r, p in enumerate(s.players[seat].books) if p < end]
    out: list[c.Command] = [c.WriteStep(seat=seat, row=r) for r in rows]
    if out and not exact:  # AMB-8: up to N steps
        out.append(c.StopWriting(seat=seat))
    return out


def book_options(s: GameState, seat: int) -> list[c.Command]:
    """BOC-2..4, BOC-9: an empty page in play, else the Appendix."""
    players = len(s.players)
    pages: list[c.Command] = [
        c.PlaceComet(seat=seat, page=page.id)
        for page, owner in zip(s.catalog.book_pages, s.pages, strict=True)
        if owner < 0 and players >= page.min_players
    ]
    # BOC-5: a character's empty personal pages may be used instead (none on the basic side)
    pages += [c.PlaceComet(seat=seat, page=page.id) for page in rules_for(s.players[seat]).personal_pages()]
    return pages or [c.PlaceComet(seat=seat, page="appendix")]


def free_observe_options(s: GameState, seat: int, max_cost: int) -> list[c.Command]:
    """LUNA-BA-2: one uncovered constellation of cost <= 4, without dice (nor comets: OBS-32)."""
    if s.players[seat].tokens_used >= TOKENS:
        return []
    out: list[c.Command] = []
    for space, card_id in enumerate(s.display):
        if card_id is None:
            continue
        for index, con in enumerate(s.catalog.cards[card_id].constellations):
            if s.covers[space][index] < 0 and con.cost <= max_cost:
                out.append(c.Observe(seat=seat, target=f"C:{card_id}:{index}", dice=()))
    return out


def fixed_options(s: GameState, seat: int, pos: int) -> list[c.Command]:
    """SKY-2, ACT-4: the fixed action(s) of a space (Observe as its observations)."""
    out: list[c.Command] = []
    if pos in (S1, S4):
        out += observe_options(s, seat, majors=True, constellations=True)
    if pos in (S2, S4):
        out.append(c.TakeFixed(seat=seat, action="die"))
    if pos == S2:
        out.append(c.TakeFixed(seat=seat, action="lecture"))
    if pos == S3:
        out.append(c.TakeFixed(seat=seat, action="spot"))
    if pos == UPGRADE:
        out.append(c.TakeFixed(seat=seat, action="upgrade"))
    return out


def luna_task_options(s: GameState, task: Task, seat: int) -> list[c.Command]:
    p = s.players[seat]
    kind = task.kind
    luna = s.luna
    assert luna is not None
    if kind == "DEPART":  # LUNA-42/43: spaces 1-8 hold one figure, space 9 any number
        return [c.BonusSpace(seat=seat, space=i) for i in range(1, 10) if i == 9 or not luna.bonus[i - 1]]
    if kind == "FREEOBS":
        return free_observe_options(s, seat, task.n)
    if kind == "REREAD":
        return [c.RegainRow(seat=seat, row=r) for r, b in enumerate(p.books) if b >= 1]
    if kind == "ANYTILE":
        return [c.BonusTile(seat=seat, tile=t, option=o) for t in p.queue for o in (1, 2)]
    if kind == "SWAP":
        q = p.queue
        return [
            c.SwapTiles(seat=seat, first=q[i], second=q[j])
            for i in range(len(q))
            for j in range(i + 1, len(q))
        ]
    if kind == "RELOCATE":
        return [c.Relocate(seat=seat, space=sp) for sp in (S1, S2, S3, S4, UPGRADE)]
    if kind == "FIXEDAT":  # LUNA-BB-3: the fixed action only, optional (ACT-2)
        return [*fixed_options(s, seat, task.n), c.Decline(seat=seat)]
    if kind == "ADVANCE":  # LUNA-BB-5: any Inquisitor (Grand ones included) to the rightmost space
        last = len(p.cellar) - 1
        out: list[c.Command] = [c.Persuade(seat=seat, space=i) for i in range(last) if p.cellar[i]]
        return out + [c.Persuade(seat=seat, space=i, grand=True) for i in range(last) if p.grand[i]]
    if kind == "SCALEREWARDS":  # LUNA-BB-7, AMB-51: in the order the player chooses
        return [c.CollectScale(seat=seat, tile=int(i)) for i in task.arg if p.university[int(i)] >= 1]
    if kind == "OPTINQ":
        return [c.TakeInquisitor(seat=seat, accept=True), c.TakeInquisitor(seat=seat, accept=False)]
    if kind == "MOONOBJ":  # LUNA-80
        return [c.MoonReward(seat=seat, choice="vp"), c.MoonReward(seat=seat, choice="quadrants")]
    raise ValueError(f"task {kind} has no options")  # pragma: no cover


def task_options(s: GameState, task: Task) -> list[c.Command]:
    """The options of the pending choice effect, as its kind defines them (domain/effect_kinds.py)."""
    options = effect_kind(task.kind).options
    if options is None:
        raise ValueError(f"effect {task.kind} is automatic: it has no options")
    return options(s, task, s.turn.seat)


def free_options(s: GameState, seat: int) -> list[c.Command]:
    q = s.players[seat].quadrants
    return [c.BuyFree(seat=seat, action=a) for a, cost in FREE_COSTS.items() if q >= cost]


def menu_options(s: GameState) -> list[c.Command]:
    """ACT-1..5: fixed action (with slash choices), moving action, free actions, or end."""
    seat = s.turn.seat
    t = s.turn
    pos = t.space  # AMB-21: the Movement phase's space, even after a Luna B3 relocation
    out: list[c.Command] = []
    if not t.fixed_done:
        out += fixed_options(s, seat, pos)
    if not t.moving_done:
        if pos == UPGRADE:
            out.append(c.UseTile(seat=seat, option=0))  # UPG-2, AMB-48
        else:
            out += [c.UseTile(seat=seat, option=1), c.UseTile(seat=seat, option=2)]
    out += free_options(s, seat)
    out.append(c.EndActions(seat=seat))
    return out


def tile_to_rotate(s: GameState) -> str | None:
    """ROT-1, ROT-3, AMB-5."""
    t = s.turn
    if t.rotated:
        return None
    if t.used_tile is not None:
        return None if t.used_tile in t.bonus_rotated else t.used_tile  # ROT-6, AMB-23
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
    windows = s.options.free_actions_in_all_phases and bool(free_options(s, t.seat))
    if windows and t.windows_closed == 0 and t.objectives_due is None:
        return "window"
    if t.inquisitor_moved and not t.interrogated:
        return "interrogate"  # INQ-20; a Persuade bought in the last window is interrogated too
    if t.objectives_due is None:
        return "check"
    if next_objective(s, p) is not None:
        return "objective"
    if not s.options.moon_objective_immediate and moon_objective_due(s, p):
        return "moon"  # AMB-15 option: the Moon objective in Cleanup step 4
    if windows and t.windows_closed < 2:
        return "window"
    return "end"


def next_objective(s: GameState, p: PlayerState) -> str | None:
    """OBJ-2: the next objective met at the start of step 4 and not claimed yet (a Farewell taken
    for one claim cannot undo the next: the set is fixed when the step begins)."""
    due = s.turn.objectives_due or ()
    for objective in due:
        if p.seat not in s.claims[s.objectives.index(objective)]:
            return objective
    return None


def options(s: GameState) -> list[c.Command] | None:
    t = s.turn
    if t.phase == "over":
        return []
    if t.phase == "scoring" or phase_due(s):
        return None
    if s.agenda:
        top = s.agenda[-1]
        if effect_kind(top.kind).automatic:
            return None
        return task_options(s, top) or None  # no option: the effect is lost (automatic)
    seat = t.seat
    if t.phase == "movement":  # MOV-1: "at the start of the turn" (S004), before any free action
        return [c.Move(seat=seat, steps=n) for n in (1, 2, 3)]
    if t.phase == "actions":
        return menu_options(s)
    step = cleanup_step(s)
    if step == "book":
        return book_options(s, seat)
    if step == "moon":
        return luna_task_options(s, Task("MOONOBJ"), seat)
    if step == "window":
        return [*free_options(s, seat), c.EndFreeActions(seat=seat)]
    return None
