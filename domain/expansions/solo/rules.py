"""Tycho Brahe, the solo game's non-player opponent (rules addendum "The solo game against Tycho Brahe",
CN p.16-18; digest §19), on the base engine's seams: the opponent seam (domain/opponents.py), setup and
fork (`Rules.opponent_setups`, `Rules.redeals`), effect kinds, events and grants.

His turn (SOLO-27, SOLO-28), each step one event with its rule ID:
1. `MovementTileRevealed`: the top Movement tile of his hidden stack; its steps are granted, bonuses
   first (SOLO-5), then the move (SOLO-29, SOLO-30, SOLO-6: `TychoMoved`) or the upgrade (SOLO-31);
2. `TychoRowChosen`: the first row of the tile under his marker whose condition holds (SOLO-32), partial
   rows adding to the bottom row (SOLO-33); its effects are granted and resolve one by one (SOLO-40..50);
3. the base Cleanup: his interrogation when he moved an Inquisitor (SOLO-51, INQ-20), his objectives
   (SOLO-53: he declines the Farewell), the end of his turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain import commands as c
from domain import events as ev
from domain.catalog import Catalog
from domain.characters.roster import has_ability
from domain.concepts.inquisition import persuade_options
from domain.concepts.writing import library_end
from domain.editions import ENGINE_VERSION, RULES_0_4_0, at_least
from domain.effect_kinds import EffectKind, Emitter
from domain.effects import reward_tasks
from domain.errors import IllegalMove
from domain.evolve import player_with, players_with, resolved, turn_with
from domain.expansions.luna.rules import observable_moon_tiles
from domain.expansions.solo import events as se
from domain.expansions.solo.data import CURRENT, DIFFICULTIES, SoloData, solo_data
from domain.expansions.solo.state import TychoState, tycho_of
from domain.resolve import draw_card
from domain.rng import SeededRandom, digest
from domain.ruleset import Rules
from domain.scoring import SUBJECTS, TOP, interrogation
from domain.setup import (
    OpponentSetup,
    SeatSpec,
    Setup,
)
from domain.state import (
    COLOURS,
    MAX_DICE,
    MAX_PER_COLOUR,
    TOKENS,
    Die,
    GameState,
    Part,
    PlayerState,
    Task,
    replace,
)

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)

TYCHO = "tycho"  # the character id of his seat
NAME = "Tycho Brahe"
# AMB-56 (rules 0.4.0): his Book marker runs on his own library board (CN p.16: it covers all four library
# areas), not along his cards; its last space (the board's spaces are not printed: DATA-29, provisional)
BOOK_END = 10

RULES.point_rules.update({"tycho": "SOLO-47", "tycho-constellation": "SOLO-48", "tycho-major": "SOLO-49"})


def tycho(s: GameState, seat: int | None = None) -> tuple[PlayerState, TychoState]:
    p = s.players[s.turn.seat if seat is None else seat]
    part = tycho_of(p)
    assert part is not None, "a solo step for a seat that is not Tycho's"
    return p, part


def data_of(part: TychoState) -> SoloData:
    return solo_data(part.data)


# -- setup (SOLO-20..25) and the hidden Movement stack --------------------------------------------------


def _claims(setup: Setup) -> bool:
    return len(setup.seats) == 1


def difficulty_of(setup: Setup) -> str:
    """SOLO-2: Luna's levels; the base game has none ("")."""
    if setup.options.get("luna"):
        return setup.difficulty or "normal"
    return ""


def _check(setup: Setup, catalog: Catalog) -> None:
    (seat,) = setup.seats
    offered = [board.id for board in catalog.characters]
    if seat.character not in offered:
        raise IllegalMove(
            "unknown-character",
            "unknown character {character!r}; choose one of {offered}",
            "SET-21",
            character=seat.character,
            offered=", ".join(offered),
        )
    if not seat.name.strip() or len(seat.name) > 40:
        raise IllegalMove("bad-name", "a seat name must have 1 to 40 characters", "SET-21")
    if setup.first_seat not in (None, 0):
        raise IllegalMove("bad-first-seat", "in the solo game the person always plays first", "SOLO-27")
    if 1 not in catalog.deck_composition:
        raise IllegalMove(
            "solo-edition",
            "catalog edition {edition} has no solo deck: play the current one",
            "SOLO-20",
            edition=catalog.edition,
        )
    if setup.difficulty is not None:
        if not setup.options.get("luna"):
            raise IllegalMove("difficulty-without-luna", "difficulty levels are Luna's (use luna)", "SOLO-2")
        if setup.difficulty not in DIFFICULTIES:
            raise IllegalMove(
                "bad-difficulty",
                "difficulty is one of {DIFFICULTIES}, not {difficulty!r}",
                "SOLO-2",
                DIFFICULTIES=", ".join(DIFFICULTIES),
                difficulty=setup.difficulty,
            )
    if not setup.seed:
        raise IllegalMove("bad-seed", "a game needs a seed", "SET-3")
    if setup.tile_orders is not None and len(setup.tile_orders) != 1:
        raise IllegalMove("tile-orders", "give the person's tile order only", "SET-23")


def _line(setup: Setup, catalog: Catalog) -> tuple[SeatSpec, tuple[str, ...]]:
    """SOLO-23: his five solo Action tiles in any order (here: shuffled), basic side up; with Luna the Moon
    tile at a random place among them (SOLO-3)."""
    data = solo_data(CURRENT)
    rng = SeededRandom(setup.seed, "solo-line")
    line = rng.shuffled(list(data.base_tiles))
    if setup.options.get("luna"):
        line.insert(rng.below(len(line) + 1), data.moon_tile)
    return SeatSpec(NAME, TYCHO), tuple(line)


def stack_commitment(salt: str, stack: tuple[str, ...]) -> str:
    """His hidden Movement stack committed with the deal's salt (as the cards are, domain/setup.py)."""
    return digest(salt, "tycho:" + ",".join(stack))


def _tiles(setup: Setup, data: SoloData) -> tuple[str, ...]:
    level = difficulty_of(setup)
    return data.difficulty[level] if level else data.base_stack


def _dealt(setup: Setup, catalog: Catalog, salt: str) -> list[ev.Event]:
    """SOLO-22: three dice of random colours; SOLO-24/SOLO-4: the six Movement tiles shuffled. The stack
    holds `cycles` shuffles of the six, one after another (AMB-54: reshuffled when used up), all dealt
    and committed now."""
    data = solo_data(CURRENT)
    rng = SeededRandom(setup.seed, "solo-deal")
    dice = tuple(rng.choice(COLOURS) for _ in range(3))
    six = _tiles(setup, data)
    stack = tuple(tile for _ in range(data.cycles) for tile in rng.shuffled(list(six)))
    return [
        se.OpponentDealt(
            seat=1,
            opponent=TYCHO,
            data=data.id,
            difficulty=difficulty_of(setup),
            dice=dice,
            stack=stack,
            commitment=stack_commitment(salt, stack),
        )
    ]


def _ability_side(setup: Setup, catalog: Catalog) -> Setup:
    """SOLO-26: "in the solo game always use the side of the character board that lists its special
    ability" (CN p.16): the person plays the ability side, whatever side the setup names (the basic side
    is not a choice in the solo game). Rules 0.4.0 refuse a character whose ability side this catalog
    edition does not have; older rules let it play its basic side, as released."""
    offered = {board.id: board for board in catalog.characters}
    version = setup.engine_version or ENGINE_VERSION
    seats = []
    for seat in setup.seats:
        board = offered.get(seat.character)
        if board is not None and "ability" in board.sides() and has_ability(seat.character):
            seats.append(replace(seat, side="ability"))
            continue
        if board is not None and at_least(version, RULES_0_4_0):
            raise IllegalMove(
                "no-ability-side",
                "in the solo game the person plays the character's ability side, and catalog edition"
                " {edition} has none for {character}: play the current edition",
                "SOLO-26",
                edition=catalog.edition,
                character=seat.character,
            )
        seats.append(seat)
    return replace(setup, seats=tuple(seats))


def _redealt(fresh: list[ev.Event], recorded: Sequence[ev.Event], salt: str) -> list[ev.Event]:
    """His deal in a start that a re-dealing fork rewrote (`OpponentSetup.redealt`): the solo data and
    difficulty his setup deals; the colours of his three dice as recorded (SOLO-22: public since the
    start, drawn with the seed the fork replaced); his stack the Movement tiles his setup deals (SOLO-24,
    AMB-54), in the order the fork re-dealt them (`redeal_stack`, checked by the fork's rewrite),
    committed with the deal's salt. A recorded deal that holds other tiles or dice is not his deal."""
    out: list[ev.Event] = []
    for k, dealt in enumerate(fresh):
        got = recorded[k] if k < len(recorded) else None
        if not isinstance(dealt, se.OpponentDealt) or not isinstance(got, se.OpponentDealt):
            out.append(dealt)
            continue
        dice = tuple(got.dice)
        if len(dice) != len(dealt.dice) or any(colour not in COLOURS for colour in dice):
            dice = dealt.dice
        stack = tuple(got.stack) if sorted(got.stack) == sorted(dealt.stack) else dealt.stack
        out.append(replace(dealt, dice=dice, stack=stack, commitment=stack_commitment(salt, stack)))
    return out


RULES.opponent_setups.append(
    OpponentSetup(
        claims=_claims, check=_check, seat=_line, dealt=_dealt, redealt=_redealt, prepare=_ability_side
    )
)


def redeal_stack(prefix: list[ev.Event], seed: str, salt: str) -> None:
    """A fork re-deals what of his stack the copied events did not reveal (nothing hidden carries over):
    the tiles revealed so far, then the rest shuffled anew with the fork's seed; committed with its salt."""
    for i, e in enumerate(prefix):
        if not isinstance(e, se.OpponentDealt):
            continue
        shown = [r.tile for r in prefix[i + 1 :] if isinstance(r, se.MovementTileRevealed)]
        rest = list(e.stack[len(shown) :])
        rng = SeededRandom(seed, "fork-solo")
        stack = (*shown, *rng.shuffled(sorted(rest)))
        prefix[i] = replace(e, stack=stack, commitment=stack_commitment(salt, stack))


def reshuffle_stack(s: GameState, rng: SeededRandom) -> GameState:
    """`redeal_stack` on a state, for a search's determinisation (domain/determinise.py): the Movement
    tiles still to reveal (SOLO-24), shuffled anew; the order drawn depends only on which tiles they are."""
    for p in s.players:
        part = tycho_of(p)
        if part is not None and len(part.stack) > 1:
            stack = tuple(rng.shuffled(sorted(part.stack)))
            s = player_with(
                s, p.seat, parts=tuple(replace(x, stack=stack) if x is part else x for x in p.parts)
            )
    return s


@RULES.event(se.OpponentDealt)
def _opponent_dealt(s: GameState, e: se.OpponentDealt) -> GameState:
    p = s.players[e.seat]
    supply = list(s.supply)
    for colour, _ in p.dice:  # the base setup's dice go back (SET-22) ...
        supply[COLOURS.index(colour)] += 1
    for colour in e.dice:  # ... and his random colours come out (SOLO-22)
        supply[COLOURS.index(colour)] -= 1
    part = TychoState(
        data=e.data, difficulty=e.difficulty, marker=0, stack=tuple(e.stack), dealt=tuple(e.stack)
    )
    dice = tuple(sorted((colour, 1) for colour in e.dice))
    s = player_with(s, e.seat, dice=dice, parts=(*p.parts, part))
    return replace(s, supply=tuple(supply))


# -- his turn: the Movement tile (SOLO-28..31, SOLO-5, SOLO-6) -------------------------------------------


def step_tasks(step: str) -> list[Task]:
    """A Movement tile's step as a task: a bonus (SOLO-5) or the move/upgrade (SOLO-29..31)."""
    name, _, n = step.partition(":")
    if name == "move":
        return [Task("TMOVE", int(n), "", "SOLO-29")]
    if name == "move-to-upgraded":
        return [Task("TMOVE", int(n), "upgraded", "SOLO-30")]
    if name == "move-to-moon":
        return [Task("TMOVE", int(n), "moon", "SOLO-6")]
    if name == "upgrade":
        return [Task("TUPG")]
    return effect_tasks(step)


def effect_tasks(effect: str) -> list[Task]:
    """An Action tile effect (SOLO-40..50; Luna: the Moon, SOLO-8..12) as the task that resolves it."""
    name, _, n = effect.partition(":")
    if name == "vp":
        return [Task("VP", int(n), "", "tycho")]  # SOLO-47
    if name == "book":
        return [Task("TBOOK", int(n))]
    return [Task(KINDS[name])]


KINDS = {
    "comet": "TCOMET",
    "comet-down": "TDOWN",
    "die": "TDIE",
    "lecture": "TLEC",
    "persuade": "TPER",
    "remove": "TREMOVE",
    "constellation": "TCONST",
    "major": "TMO",
    "card": "TCARD",
    "moon": "TMOON",
    "inquisitor": "TINQ",
}


@RULES.event(se.MovementTileRevealed)
def _revealed(s: GameState, e: se.MovementTileRevealed) -> GameState:
    p, part = tycho(s, e.seat)
    stack = part.stack[1:] if part.stack else ()
    part = replace(part, stack=stack, shown=(*part.shown, e.tile), revealed_on=s.turn.number)
    s = player_with(s, e.seat, parts=_put(p, part))
    return replace(s, turn=turn_with(s, phase="actions"))  # the tile's steps are grants


@RULES.grant(se.MovementTileRevealed)
def _grants_revealed(before: GameState, after: GameState, e: se.MovementTileRevealed) -> list[Task]:
    _, part = tycho(after, e.seat)
    return [task for step in data_of(part).movement[e.tile] for task in step_tasks(step)]


def _put(p: PlayerState, part: TychoState) -> tuple[Part, ...]:
    return tuple(part if isinstance(x, TychoState) else x for x in p.parts)


def _move(run: Emitter, task: Task) -> None:
    """SOLO-29: N tiles right, wrapping (SOLO-7, SOLO-28); SOLO-30: stop early on reaching an upgraded
    tile; SOLO-6 (tile "4"): stop early on reaching the Moon tile."""
    s = run.state
    p, part = tycho(s)
    line = p.queue
    moon = data_of(part).moon_tile
    pos, steps, stopped = part.marker, 0, False
    for _ in range(task.n):
        pos = (pos + 1) % len(line)
        steps += 1
        if (task.arg == "upgraded" and line[pos] in p.upgraded) or (task.arg == "moon" and line[pos] == moon):
            stopped = steps < task.n
            break
    run.emit(
        se.TychoMoved(seat=p.seat, start=part.marker, end=pos, steps=steps, stopped=stopped, rule=task.source)
    )


def _upgrade(run: Emitter, task: Task) -> None:
    """SOLO-31: the tile under the marker, or if upgraded the nearest basic one to its right (AMB-55:
    wrapping); lost when every tile is upgraded."""
    p, part = tycho(run.state)
    line = p.queue
    for k in range(len(line)):
        tile = line[(part.marker + k) % len(line)]
        if tile not in p.upgraded:
            run.emit(se.TychoTileUpgraded(seat=p.seat, tile=tile))
            return
    _lost(run, task, "every Action tile of his is upgraded already", "SOLO-31")


@RULES.event(se.TychoMoved, "TMOVE")
def _moved(s: GameState, e: se.TychoMoved) -> GameState:
    p, part = tycho(s, e.seat)
    s = player_with(s, e.seat, parts=_put(p, replace(part, marker=e.end)))
    return replace(s, agenda=resolved(s, e))


@RULES.event(se.TychoTileUpgraded, "TUPG")
def _upgraded(s: GameState, e: se.TychoTileUpgraded) -> GameState:
    s = player_with(s, e.seat, upgraded=s.players[e.seat].upgraded | {e.tile})
    return replace(s, agenda=resolved(s, e))


# -- his turn: the Action tile (SOLO-32..38) -------------------------------------------------------------


def observable_constellations(s: GameState) -> list[tuple[int, int, int]]:
    """(VP, space, index) of every uncovered constellation on a face-up card, left to right (SOLO-37)."""
    out = []
    for space, card_id in enumerate(s.display):
        if card_id is None:
            continue
        for index, con in enumerate(s.catalog.cards[card_id].constellations):
            if s.covers[space][index] < 0:
                vp = sum(t.n for t in reward_tasks(con.reward, "", s.rules.reward_codes) if t.kind == "VP")
                out.append((vp, space, index))
    return out


def moon_targets(s: GameState) -> list[int]:
    """SOLO-8: the observable Moon tiles (Luna; none in a base game)."""
    return observable_moon_tiles(s) if s.options.get("luna") else []


def condition_holds(s: GameState, p: PlayerState, condition: str) -> bool:
    """SOLO-34..38 (SOLO-8 for the Moon tile's)."""
    if condition == "unpersuaded2":  # SOLO-34, AMB-53: Inquisitors not on the rightmost space
        return sum(p.cellar[:-1]) >= 2
    if condition == "persuaded3":  # SOLO-35: on the rightmost space
        return p.cellar[-1] >= 3
    if condition in ("pay2", "pay3"):  # SOLO-36
        return len(p.dice) >= int(condition[-1])
    if condition == "pay2-constellations":  # SOLO-37
        return len(p.dice) >= 2 and len(observable_constellations(s)) >= 2
    if condition == "comet":  # SOLO-38
        return "slot" in p.comets
    if condition == "pay2-moon":  # SOLO-8
        return len(p.dice) >= 2 and bool(moon_targets(s))
    raise ValueError(f"unknown solo condition {condition!r}")


def choose_row(s: GameState, p: PlayerState, tile: str) -> tuple[int, tuple[int, ...]]:
    """SOLO-32: the first row whose condition holds (the bottom row has none); SOLO-33: partial rows
    whose condition holds add their effects to the bottom row's."""
    _, part = tycho(s, p.seat)
    rows = data_of(part).tiles[tile].rows(tile in p.upgraded)
    partials: list[int] = []
    for i, row in enumerate(rows):
        if row.partial:
            if condition_holds(s, p, row.condition):
                partials.append(i)
            continue
        if not row.condition or condition_holds(s, p, row.condition):
            bottom = i == len(rows) - 1
            return i, tuple(partials) if bottom else ()
    raise AssertionError("the bottom row has no condition")  # pragma: no cover - data.py checks it


def evaluate(run: Emitter) -> None:
    s = run.state
    p, part = tycho(s)
    tile = p.queue[part.marker]
    row, partials = choose_row(s, p, tile)
    rows = data_of(part).tiles[tile].rows(tile in p.upgraded)
    run.emit(
        se.TychoRowChosen(
            seat=p.seat,
            tile=tile,
            upgraded=tile in p.upgraded,
            row=row,
            partials=partials,
            condition=rows[row].condition,
            rule="SOLO-33" if partials else "SOLO-32",
        )
    )


@RULES.event(se.TychoRowChosen)
def _row_chosen(s: GameState, e: se.TychoRowChosen) -> GameState:
    return replace(s, turn=turn_with(s, phase="cleanup"))  # the row's effects are grants


@RULES.grant(se.TychoRowChosen)
def _grants_row(before: GameState, after: GameState, e: se.TychoRowChosen) -> list[Task]:
    _, part = tycho(after, e.seat)
    rows = data_of(part).tiles[e.tile].rows(e.upgraded)
    tasks: list[Task] = []
    condition = rows[e.row].condition
    if condition.startswith("pay"):  # SOLO-36/37: the dice are paid first
        tasks.append(Task("TPAY", 3 if condition == "pay3" else 2))
    for i in (e.row, *e.partials):
        for effect in rows[i].effects:
            tasks += effect_tasks(effect)
    return tasks


# -- the effects (SOLO-40..50) ----------------------------------------------------------------------------


def _lost(run: Emitter, task: Task, reason: str, rule: str) -> None:
    run.emit(ev.EffectLost(seat=run.state.turn.seat, effect=task.kind, reason=reason, rule=rule))


def dice_to_pay(p: PlayerState, n: int) -> tuple[Die, ...]:
    """SOLO-36, AMB-55: values never matter (SOLO-22); he pays dice of the colour he holds most first
    (ties: R, Y, B), so his colours stay varied."""
    held = list(p.dice)
    out: list[Die] = []
    for _ in range(min(n, len(held))):
        colour = max(COLOURS, key=lambda col: (sum(1 for d in held if d[0] == col), -COLOURS.index(col)))
        die = next(d for d in held if d[0] == colour)
        held.remove(die)
        out.append(die)
    return tuple(out)


def _pay(run: Emitter, task: Task) -> None:
    p, _ = tycho(run.state)
    rule = "SOLO-36"
    run.emit(se.TychoDicePaid(seat=p.seat, dice=dice_to_pay(p, task.n), rule=rule))


@RULES.event(se.TychoDicePaid, "TPAY")
def _paid(s: GameState, e: se.TychoDicePaid) -> GameState:
    held = list(s.players[e.seat].dice)
    supply = list(s.supply)
    for die in e.dice:
        held.remove((die[0], die[1]))
        supply[COLOURS.index(die[0])] += 1
    s = player_with(s, e.seat, dice=tuple(held))
    return replace(s, supply=tuple(supply), agenda=resolved(s, e))


def _comet(run: Emitter, task: Task) -> None:
    """SOLO-40: one of his comets (the leftmost still on his board) onto the game board."""
    p, _ = tycho(run.state)
    if "slot" not in p.comets:
        _lost(run, task, "no comet left on his board", "SOLO-40")
        return
    run.emit(se.TychoCometPlaced(seat=p.seat, comet=p.comets.index("slot")))


@RULES.event(se.TychoCometPlaced, "TCOMET")
def _comet_placed(s: GameState, e: se.TychoCometPlaced) -> GameState:
    comets = list(s.players[e.seat].comets)
    comets[e.comet] = "sky1"
    return replace(s, players=players_with(s, e.seat, comets=tuple(comets)), agenda=resolved(s, e))


def book_page(s: GameState) -> str:
    """SOLO-41: the leftmost empty page of the two-player area (AMB-53: else the Appendix)."""
    for page, owner in zip(s.catalog.book_pages, s.pages, strict=True):
        if owner < 0 and page.min_players <= 2:
            return page.id
    return "appendix"


def _comet_down(run: Emitter, task: Task) -> None:
    """SOLO-41, AMB-53: the comet furthest down moves (a "2" comet into the Book, else a "1" comet to 2;
    the leftmost of them); never rewarded."""
    s = run.state
    p, _ = tycho(s)
    for start, end in (("sky2", "book"), ("sky1", "sky2")):
        if start in p.comets:
            page = book_page(s) if end == "book" else ""
            run.emit(
                se.TychoCometMoved(seat=p.seat, comet=p.comets.index(start), start=start, end=end, page=page)
            )
            return
    _lost(run, task, "no comet of his on the game board", "SOLO-41")


@RULES.event(se.TychoCometMoved, "TDOWN")
def _comet_moved(s: GameState, e: se.TychoCometMoved) -> GameState:
    p = s.players[e.seat]
    comets = list(p.comets)
    comets[e.comet] = e.end
    s = player_with(s, e.seat, comets=tuple(comets))
    if e.page == "appendix":
        s = player_with(s, e.seat, appendix=p.appendix + 1)  # BOC-4, never rewarded (SOLO-41)
    elif e.page:
        index = next(i for i, page in enumerate(s.catalog.book_pages) if page.id == e.page)
        pages = list(s.pages)
        pages[index] = e.seat
        s = replace(s, pages=tuple(pages))
    return replace(s, agenda=resolved(s, e))


def die_colour(s: GameState, p: PlayerState) -> str | None:
    """SOLO-42, AMB-55: the colour the supply holds most (ties: R, Y, B), within DIE-6/DIE-7."""
    if len(p.dice) >= MAX_DICE:  # DIE-2
        return None
    open_colours = [col for i, col in enumerate(COLOURS) if s.supply[i] > 0 and p.count(col) < MAX_PER_COLOUR]
    if not open_colours:
        return None
    return max(open_colours, key=lambda col: (s.supply[COLOURS.index(col)], -COLOURS.index(col)))


def _die(run: Emitter, task: Task) -> None:
    p, _ = tycho(run.state)
    colour = die_colour(run.state, p)
    if colour is None:
        _lost(run, task, "he holds 4 dice, or no colour is left within the limits", "DIE-2")
        return
    run.emit(se.TychoDieGained(seat=p.seat, colour=colour))


@RULES.event(se.TychoDieGained, "TDIE")
def _die_gained(s: GameState, e: se.TychoDieGained) -> GameState:
    p = s.players[e.seat]
    supply = list(s.supply)
    supply[COLOURS.index(e.colour)] -= 1
    s = player_with(s, e.seat, dice=tuple(sorted((*p.dice, (e.colour, 1)))))
    return replace(s, supply=tuple(supply), agenda=resolved(s, e))


def book_track_end(s: GameState, seat: int) -> int:
    """AMB-56: the last space of his Book marker's track. CN p.16: "Tycho's special library board covers
    all four library areas" of his player board, and his marker moves on it (SOLO-43), whatever cards his
    library holds: the board's own BOOK_END spaces (DATA-29), rules 0.4.0. Under older rules the track
    ended, like a player's rows, one space after his last card (WRT-6), as released."""
    if at_least(s.engine_version, RULES_0_4_0):
        return BOOK_END
    return library_end(s, seat)


def _book(run: Emitter, task: Task) -> None:
    """SOLO-43: his Book marker N spaces right, never rewarded (AMB-56: one marker for every library row
    of his library board; extra steps past the track's end are lost)."""
    p, _ = tycho(run.state)
    start = p.books[0]
    end = min(book_track_end(run.state, p.seat), start + task.n)
    if end == start:
        _lost(run, task, "his Book marker is at the end of its track", "SOLO-43")
        return
    run.emit(se.TychoBookMoved(seat=p.seat, start=start, end=end))


@RULES.event(se.TychoBookMoved, "TBOOK")
def _book_moved(s: GameState, e: se.TychoBookMoved) -> GameState:
    s = player_with(s, e.seat, books=(e.end,) * len(s.players[e.seat].books))
    return replace(s, agenda=resolved(s, e))


def lecture_tile(s: GameState, p: PlayerState) -> int | None:
    """SOLO-44: the Scale tile whose subject he meets most (ties: the leftmost), below its top row."""
    best: tuple[int, int] | None = None
    for i, (subject, height) in enumerate(zip(s.subjects, p.university, strict=True)):
        if height >= TOP:
            continue
        count = SUBJECTS[subject](s, p)
        if best is None or count > best[0]:
            best = (count, i)
    return None if best is None else best[1]


def _lecture(run: Emitter, task: Task) -> None:
    p, _ = tycho(run.state)
    tile = lecture_tile(run.state, p)
    if tile is None:
        _lost(run, task, "his University tokens are at the top", "SOLO-44")
        return
    run.emit(se.TychoLectured(seat=p.seat, tile=tile, height=p.university[tile] + 1))


@RULES.event(se.TychoLectured, "TLEC")
def _lectured(s: GameState, e: se.TychoLectured) -> GameState:
    university = list(s.players[e.seat].university)
    university[e.tile] = e.height  # the row's reward is never taken (SOLO-44)
    s = player_with(s, e.seat, university=tuple(university))
    return replace(s, agenda=resolved(s, e))


def persuasion(s: GameState, seat: int, options: list[c.Command]) -> c.Persuade | None:
    """SOLO-45: the move that most improves his next interrogation (the highest total after it; ties:
    the Inquisitor furthest left, AMB-53)."""
    best: tuple[int, int] | None = None
    chosen: c.Persuade | None = None
    for cmd in options:
        if type(cmd) is not c.Persuade:  # SOLO-11: his cellar holds no Grand Inquisitor (nor another kind)
            continue
        p = s.players[seat]
        spaces = list(p.cellar)
        spaces[cmd.space] -= 1
        spaces[cmd.space + 1] += 1
        total = interrogation(s, replace(p, cellar=tuple(spaces)))[0]
        key = (total, -cmd.space)
        if best is None or key > best:
            best, chosen = key, cmd
    return chosen


def _persuade(run: Emitter, task: Task) -> None:
    p, _ = tycho(run.state)
    cmd = persuasion(run.state, p.seat, persuade_options(run.state, p.seat))
    if cmd is None:
        _lost(run, task, "no Inquisitor of his can move", "SOLO-45")
        return
    run.emit(ev.InquisitorPersuaded(seat=p.seat, start=cmd.space, end=cmd.space + 1))


def _remove(run: Emitter, task: Task) -> None:
    p, _ = tycho(run.state)
    if not p.cellar[-1]:
        _lost(run, task, "no fully persuaded Inquisitor in his cellar", "SOLO-46")
        return
    run.emit(se.TychoInquisitorRemoved(seat=p.seat))


@RULES.event(se.TychoInquisitorRemoved, "TREMOVE")
def _removed(s: GameState, e: se.TychoInquisitorRemoved) -> GameState:
    p = s.players[e.seat]
    s = player_with(s, e.seat, cellar=(*p.cellar[:-1], p.cellar[-1] - 1))
    return replace(s, agenda=resolved(s, e))


def _inquisitor(run: Emitter, task: Task) -> None:
    run.emit(ev.InquisitorGained(seat=run.state.turn.seat, rule="SOLO-5"))


def _constellation(run: Emitter, task: Task) -> None:
    """SOLO-48: his leftmost token on the observable constellation worth most (ties: the leftmost)."""
    s = run.state
    p, _ = tycho(s)
    found = observable_constellations(s)
    if p.tokens_used >= TOKENS or not found:
        _lost(run, task, "no Constellation token left or no constellation to observe", "SOLO-48")
        return
    vp, space, index = max(found, key=lambda f: (f[0], -f[1], -f[2]))
    card = s.display[space]
    assert card is not None
    run.emit(
        se.TychoConstellationObserved(
            seat=p.seat, card=card, space=space, index=index, slot=p.tokens_used, vp=vp
        )
    )


@RULES.event(se.TychoConstellationObserved, "TCONST")
def _constellation_observed(s: GameState, e: se.TychoConstellationObserved) -> GameState:
    covers = list(s.covers)
    row = list(covers[e.space])
    row[e.index] = e.seat
    covers[e.space] = tuple(row)
    s = player_with(s, e.seat, tokens_used=s.players[e.seat].tokens_used + 1)
    return replace(s, covers=tuple(covers), agenda=resolved(s, e))


@RULES.grant(se.TychoConstellationObserved)
def _grants_constellation(
    before: GameState, after: GameState, e: se.TychoConstellationObserved
) -> list[Task]:
    return [Task("VP", e.vp, "", "tycho-constellation")] if e.vp else []  # only its VP (SOLO-48)


def _major(run: Emitter, task: Task) -> None:
    """SOLO-49: the card whose Major Object scores most (ties: the leftmost)."""
    s = run.state
    p, _ = tycho(s)
    found = [(s.catalog.cards[card].major.vp, -space, card) for space, card in enumerate(s.display) if card]
    if not found:
        _lost(run, task, "no Discovery card on the board", "SOLO-49")
        return
    vp, minus_space, card = max(found)
    run.emit(se.TychoMajorObjectTaken(seat=p.seat, card=card, space=-minus_space, vp=vp))


@RULES.event(se.TychoMajorObjectTaken, "TMO")
def _major_taken(s: GameState, e: se.TychoMajorObjectTaken) -> GameState:
    for seat in s.covers[e.space]:  # OBS-42: tokens on the taken card go to the box
        if seat >= 0:
            s = player_with(s, seat, tokens_boxed=s.players[seat].tokens_boxed + 1)
    p = s.players[e.seat]
    s = player_with(s, e.seat, library=(*p.library, (e.card, True)))
    display = list(s.display)
    display[e.space] = None
    covers = list(s.covers)
    covers[e.space] = ()
    return replace(s, display=tuple(display), covers=tuple(covers), agenda=resolved(s, e))


@RULES.grant(se.TychoMajorObjectTaken)
def _grants_major(before: GameState, after: GameState, e: se.TychoMajorObjectTaken) -> list[Task]:
    return [Task("VP", e.vp, "", "tycho-major"), Task("REFILL", e.space)]  # SOLO-49: only its VP; OBS-43


def _card(run: Emitter, task: Task) -> None:
    draw_card(run, task)  # SOLO-50: the top card light side up (OBS-52; END-1/AMB-10 as for a player)


RULES.resolve(ev.InquisitorPersuaded, "TPER")
RULES.resolve(ev.InquisitorGained, "TINQ")
RULES.resolve(ev.CardDrawnFaceDown, "TCARD")

RULES.effect(
    EffectKind(
        "TMOVE",
        "Tycho moves his marker (SOLO-29, SOLO-30, SOLO-6)",
        __name__,
        resolve=_move,
        expansion="solo",
    ),
    EffectKind(
        "TUPG", "Tycho upgrades an Action tile (SOLO-31)", __name__, resolve=_upgrade, expansion="solo"
    ),
    EffectKind("TPAY", "Tycho pays dice (SOLO-36)", __name__, resolve=_pay, expansion="solo"),
    EffectKind("TCOMET", "Tycho places a comet (SOLO-40)", __name__, resolve=_comet, expansion="solo"),
    EffectKind(
        "TDOWN", "Tycho moves a comet down (SOLO-41)", __name__, resolve=_comet_down, expansion="solo"
    ),
    EffectKind("TDIE", "Tycho gains a die (SOLO-42)", __name__, resolve=_die, expansion="solo"),
    EffectKind("TBOOK", "Tycho moves his Book marker (SOLO-43)", __name__, resolve=_book, expansion="solo"),
    EffectKind("TLEC", "Tycho lectures (SOLO-44)", __name__, resolve=_lecture, expansion="solo"),
    EffectKind("TPER", "Tycho persuades (SOLO-45)", __name__, resolve=_persuade, expansion="solo"),
    EffectKind(
        "TREMOVE",
        "Tycho removes a persuaded Inquisitor (SOLO-46)",
        __name__,
        resolve=_remove,
        expansion="solo",
    ),
    EffectKind(
        "TCONST",
        "Tycho observes a constellation (SOLO-48)",
        __name__,
        resolve=_constellation,
        expansion="solo",
    ),
    EffectKind("TMO", "Tycho takes a Major Object (SOLO-49)", __name__, resolve=_major, expansion="solo"),
    EffectKind(
        "TCARD", "Tycho takes the deck's top card (SOLO-50)", __name__, resolve=_card, expansion="solo"
    ),
    EffectKind("TINQ", "Tycho gains an Inquisitor (SOLO-5)", __name__, resolve=_inquisitor, expansion="solo"),
)


@RULES.event(se.MovementStackRevealed)
def _stack_revealed(s: GameState, e: se.MovementStackRevealed) -> GameState:
    return s


# -- the opponent ------------------------------------------------------------------------------------------


class Tycho:
    """The solo game's Tycho Brahe as a non-player opponent (domain/opponents.py)."""

    key = TYCHO
    name = NAME
    rule = "SOLO-27"

    def step(self, run: Emitter) -> bool:
        s = run.state
        p, part = tycho(s)
        if s.turn.phase == "movement":  # SOLO-28: reveal the top Movement tile
            stack = part.stack or data_of(part).base_stack  # AMB-54: never empty with the dealt cycles
            run.emit(se.MovementTileRevealed(seat=p.seat, tile=stack[0], left=max(0, len(part.stack) - 1)))
            return True
        if s.turn.phase == "actions":  # SOLO-32: evaluate the tile under his marker
            evaluate(run)
            return True
        return False  # the base Cleanup: SOLO-51 interrogation, SOLO-53 objectives, the end of the turn

    def choose(self, state: GameState, options: list[c.Command]) -> c.Command:
        """A decision of the base rules on his turn, by his rules."""
        seat = state.turn.seat
        for cmd in options:
            if isinstance(cmd, c.Farewell) and not cmd.accept:
                return cmd  # SOLO-53: never the Farewell
        persuade = persuasion(state, seat, options)
        if persuade is not None:
            return persuade  # SOLO-45
        colour = die_colour(state, state.players[seat])
        for cmd in options:
            if isinstance(cmd, c.GainDie) and cmd.colour == colour and cmd.returned is None:
                return cmd  # SOLO-42
        for cmd in options:
            if isinstance(cmd, c.DeclineDie):
                return cmd
        return options[0]  # e.g. the leftmost Book page, the Bonus Board's leftmost space

    def before_end(self, run: Emitter) -> None:
        for p in run.state.players:
            part = tycho_of(p)
            if part is not None:  # SOLO-24: the stack as dealt, against the commitment
                run.emit(se.MovementStackRevealed(seat=p.seat, stack=part.dealt))

    def winners(self, state: GameState) -> tuple[int, ...] | None:
        return None  # TIE-1 as between players (AMB-57)


RULES.opponents[TYCHO] = Tycho()  # his seat plays itself (a game with his seat has these rules)
RULES.redeals.append(redeal_stack)
RULES.state_redeals.append(reshuffle_stack)
