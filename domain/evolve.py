"""`evolve(state, event) -> state`: apply one event, unchecked (the replay path).

`evolve` never validates and never draws: every outcome is in the event. Besides the facts, it keeps
the agenda (the stack of effects still to resolve, RES-2): an event that resolves an effect pops the
task on top, and an event that grants rewards pushes them (first reward on top).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain import events as ev
from domain.catalog import load_catalog
from domain.catalog.luna import POSITIONS
from domain.characters import rules_for
from domain.editions import check_rules_version
from domain.effects import push, reward_tasks
from domain.errors import EditionUnknown, EventDoesNotFit
from domain.fastcopy import replace
from domain.forfeit import apply_handover, freeze, next_turn
from domain.luna import bonus_space, bonus_tasks, moon_objective_due
from domain.options import Options
from domain.serialize import load_state
from domain.state import COLOURS, START, Die, GameState, LunaState, PlayerState, Task, TurnState

Handler = Callable[[GameState, Any], GameState]
_HANDLERS: dict[type[ev.Event], Handler] = {}

FIXED_TASKS = {"die": "DIE", "lecture": "LEC", "spot": "SPOT", "upgrade": "UPG"}
FREE_TASKS: dict[str, tuple[Task, ...]] = {  # FREE-1
    "recolour": (Task("RECOLOUR"),),
    "raise": (Task("RAISE", 1),),
    "die": (Task("DIE", 1),),
    "write": (Task("WRITE", 3),),
    "persuade": (Task("PER"), Task("PER")),
    "spot": (Task("SPOT"),),
}


def _on(cls: type[ev.Event]) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        _HANDLERS[cls] = fn
        return fn

    return register


def evolve(state: GameState | None, event: ev.Event) -> GameState:
    """Apply one event. `state` is None only for the first event (GameStarted). An event that does not
    fit the state raises EventDoesNotFit naming its type and what was expected; an edition this build
    lacks raises EditionUnknown."""
    if state is None:
        if not isinstance(event, ev.GameStarted):
            raise EventDoesNotFit(type(event).__name__, "a game's first event must be GameStarted")
        return _started(event)
    handler = _HANDLERS.get(type(event))
    if handler is None:
        expected = "only a game's first event" if isinstance(event, ev.GameStarted) else "a known event type"
        raise EventDoesNotFit(type(event).__name__, f"expected {expected}")
    try:
        return handler(state, event)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError) as exc:
        if isinstance(exc, EventDoesNotFit | EditionUnknown):
            raise
        raise EventDoesNotFit(type(event).__name__, f"{type(exc).__name__}: {exc}") from exc


def fold(events: Sequence[ev.Event], state: GameState | None = None) -> GameState:
    """Replay: fold events over a state (from scratch when `state` is None)."""
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise ValueError("no events to replay")
    return state


# -- helpers ---------------------------------------------------------------------------------------


def _players(s: GameState, seat: int, **changes: Any) -> tuple[PlayerState, ...]:
    players = list(s.players)
    players[seat] = replace(players[seat], **changes)
    return tuple(players)


def _player(s: GameState, seat: int, **changes: Any) -> GameState:
    return replace(s, players=_players(s, seat, **changes))


def _pop(s: GameState, kind: str) -> tuple[Task, ...]:
    if s.agenda and s.agenda[-1].kind == kind:
        return s.agenda[:-1]
    return s.agenda


def _turn(s: GameState, **changes: Any) -> TurnState:
    return replace(s.turn, **changes)


def _remove_die(dice: Sequence[Die], die: Sequence[Any]) -> list[Die]:
    out = list(dice)
    out.remove((die[0], die[1]))
    return out


def _supply(supply: tuple[int, ...], colour: str, delta: int) -> tuple[int, ...]:
    out = list(supply)
    out[COLOURS.index(colour)] += delta
    return tuple(out)


def _peak(s: GameState, p: PlayerState) -> int:
    return max(s.turn.cellar_peak, p.inquisitors)


# -- setup ---------------------------------------------------------------------------------------


def _started(e: ev.GameStarted) -> GameState:
    check_rules_version(e.engine_version)  # EditionUnknown: never another edition's rules
    catalog = load_catalog(e.catalog_edition)  # EditionUnknown (CatalogEditionUnknown) likewise
    if catalog.content_hash != e.catalog_hash:
        raise ValueError(
            f"this game was played with catalog edition {e.catalog_edition} {e.catalog_hash[:12]}, but this "
            f"build's {e.catalog_edition} is {catalog.content_hash[:12]}: a released edition's data were "
            "changed (docs/editions.md: a released edition is never edited)"
        )
    options = Options.from_json(e.options)
    players = tuple(
        PlayerState(
            seat=i,
            name=name,
            character=character,
            telescope=START,  # SET-20
            queue=tuple(e.queues[i]),
            upgraded=frozenset(),
            dice=(("B", 1), ("R", 1), ("Y", 1)),  # SET-22
            quadrants=0,  # SET-13
            score=0,
            points=(),
            books=(0, 0, 0, 0),  # SET-24
            library=(),
            comets=("slot",) * 7,  # SET-25
            tokens_used=0,
            tokens_boxed=0,
            cellar=(0,) * len(catalog.cellar_arch),
            grand=(0,) * len(catalog.cellar_arch),
            reputation=catalog.reputation_start,  # SET-10
            university=(0,) * len(e.scale),  # SET-9
            achievements=(),
        )
        for i, (name, character) in enumerate(e.seats)
    )
    deck, box, reserve = tuple(e.deck), tuple(e.box), tuple(e.reserve)
    luna = None
    if options.luna:
        positions = len(catalog.luna.moon_tiles)
        luna = LunaState(
            side=e.luna_side,
            scoring=(*e.moon_revealed, *e.moon_hidden),
            phase=1,  # LUNA-30
            flipped=(False,) * positions,
            costs=catalog.luna.moon_costs,  # LUNA-6
            bonus=((),) * 9,
        )
    return GameState(
        catalog=catalog,
        catalog_edition=e.catalog_edition,
        catalog_hash=e.catalog_hash,
        options=options,
        players=players,
        first_seat=e.first_seat,
        display=tuple(e.display),
        covers=tuple((-1,) * len(catalog.cards[c].constellations) for c in e.display),
        deck=deck,
        box=box,
        reserve=reserve,
        supply=tuple(e.supply),
        scale=tuple(e.scale),
        subjects=tuple(e.subjects),
        objectives=tuple(e.objectives),
        claims=((),) * len(e.objectives),
        pages=(-1,) * len(catalog.book_pages),
        turn=TurnState(seat=e.first_seat, number=0, phase="movement"),
        seed=e.seed,
        salt=e.salt,
        commitment=e.commitment,
        dealt=(deck, box, reserve, tuple(e.moon_hidden)),
        luna=luna,
        engine_version=e.engine_version,
    )


@_on(ev.GameForked)
def _forked(s: GameState, e: ev.GameForked) -> GameState:
    deck, box, reserve = tuple(e.deck), tuple(e.box), tuple(e.reserve)
    if e.commitment == s.commitment:  # a finished game's fork keeps its deal and commitment
        return replace(s, forks=s.forks + 1)
    luna = s.luna
    if luna is not None and e.moon_hidden:  # re-dealt face-down Scoring tiles
        scoring = tuple(
            tile if luna.visible(i) else e.moon_hidden[i - 3] for i, tile in enumerate(luna.scoring)
        )
        luna = replace(luna, scoring=scoring)
    return replace(
        s,
        deck=deck,
        box=box,
        reserve=reserve,
        seed=e.seed,
        salt=e.salt,
        commitment=e.commitment,
        dealt=(deck, box, reserve, tuple(e.moon_hidden)),
        forks=s.forks + 1,
        luna=luna,
    )


# -- turn structure --------------------------------------------------------------------------------


@_on(ev.TelescopeMoved)
def _moved(s: GameState, e: ev.TelescopeMoved) -> GameState:
    at = s.players[e.seat].telescope
    if at != e.start or s.turn.phase != "movement" or e.seat != s.turn.seat:
        expected = f"seat {s.turn.seat} to move in its Movement phase from sky space {at}"
        raise EventDoesNotFit("TelescopeMoved", f"expected {expected} (MOV-1)")
    players = _players(s, e.seat, telescope=e.end)
    wrap = rules_for(players[e.seat]).on_wrap(players[e.seat]) if e.wrapped else []  # MOV-5
    return replace(
        s, players=players, turn=_turn(s, phase="actions", space=e.end), agenda=push(s.agenda, wrap)
    )


@_on(ev.FixedActionTaken)
def _fixed(s: GameState, e: ev.FixedActionTaken) -> GameState:
    task = [Task(FIXED_TASKS[e.action])]
    if s.agenda and s.agenda[-1].kind == "FIXEDAT":  # LUNA-BB-3: not the turn's own fixed action
        return replace(s, agenda=push(s.agenda[:-1], task))
    return replace(s, turn=_turn(s, fixed_done=True), agenda=push(s.agenda, task))


@_on(ev.MovingActionTaken)
def _moving(s: GameState, e: ev.MovingActionTaken) -> GameState:
    if not e.tile:  # UPG-2: the Upgrade space gives a Quadrant instead of a moving action
        return replace(s, turn=_turn(s, moving_done=True), agenda=push(s.agenda, [Task("Q", 1)]))
    tile = next(t for t in s.catalog.action_tiles if t.id == e.tile)
    face = tile.upgraded if e.upgraded else tile.basic
    tasks = reward_tasks(face[e.option - 1], "action-tile")
    return replace(s, turn=_turn(s, moving_done=True, used_tile=e.tile), agenda=push(s.agenda, tasks))


@_on(ev.FreeActionBought)
def _free(s: GameState, e: ev.FreeActionBought) -> GameState:
    players = _players(s, e.seat, quadrants=s.players[e.seat].quadrants - e.cost)
    return replace(s, players=players, agenda=push(s.agenda, list(FREE_TASKS[e.action])))


@_on(ev.ActionPhaseEnded)
def _actions_ended(s: GameState, e: ev.ActionPhaseEnded) -> GameState:
    return replace(s, turn=_turn(s, phase="cleanup"))


@_on(ev.FreeActionsClosed)
def _free_closed(s: GameState, e: ev.FreeActionsClosed) -> GameState:
    # the first window closes before step 4 (1), the last after it (2)
    return replace(s, turn=_turn(s, windows_closed=1 if s.turn.objectives_due is None else 2))


@_on(ev.ObjectivesChecked)
def _objectives_checked(s: GameState, e: ev.ObjectivesChecked) -> GameState:
    return replace(s, turn=_turn(s, objectives_due=tuple(e.met)))


@_on(ev.EndOfGameTriggered)
def _end_triggered(s: GameState, e: ev.EndOfGameTriggered) -> GameState:
    return replace(s, last_turn=e.last_turn)


@_on(ev.TurnEnded)
def _turn_ended(s: GameState, e: ev.TurnEnded) -> GameState:
    # TURN-1 through the game's turn order (a non-player opponent registers its own), past frozen seats
    following = next_turn(s)  # (ASYNC-3, domain/forfeit.py); None: every seat is frozen
    if following is None or (s.last_turn is not None and following[1] > s.last_turn):
        return replace(s, turn=_turn(s, phase="scoring"))  # END-2: the final round is over
    seat, number = following
    return replace(s, turn=TurnState(seat=seat, number=number, phase="movement"))


@_on(ev.GameEnded)
def _ended(s: GameState, e: ev.GameEnded) -> GameState:
    return replace(s, turn=_turn(s, phase="over"), winners=tuple(e.winners))


# -- observing -----------------------------------------------------------------------------------


def _pay(
    s: GameState, seat: int, dice: Sequence[Sequence[Any]], comets: Sequence[int], own_fixed: bool = True
) -> GameState:
    """OBS-20..34: spent dice go to the supply; each comet used moves on (sky1 -> sky2 -> Book)."""
    p = s.players[seat]
    held = list(p.dice)
    supply = s.supply
    for d in dice:
        held.remove((d[0], d[1]))
        supply = _supply(supply, d[0], 1)
    states = list(p.comets)
    for i in comets:
        states[i] = "sky2" if states[i] == "sky1" else "pending"
    s = _player(s, seat, dice=tuple(held), comets=tuple(states))
    turn = _turn(
        s, fixed_done=s.turn.fixed_done or own_fixed, comets_used=s.turn.comets_used | frozenset(comets)
    )
    return replace(s, supply=supply, turn=turn)


def _book_tasks(s: GameState, before: PlayerState, seat: int) -> list[Task]:
    """AMB-6 option: with bookRewardsImmediate, each comet reaching the Book is placed at once."""
    if not s.options.book_rewards_immediate:
        return []
    newly = sum(1 for a, b in zip(before.comets, s.players[seat].comets, strict=True) if a != b == "pending")
    return [Task("BOOK")] * newly


def _observe_major(
    s: GameState, seat: int, dice: Sequence[Sequence[Any]], comets: Sequence[int]
) -> GameState:
    """A Major Object (or the Moon) ends the Observe action (OBS-1); through Luna B3 it is not the
    turn's own fixed action (AMB-21). Then pay (OBS-20..34)."""
    top = s.agenda[-1].kind if s.agenda else ""
    s = replace(s, agenda=s.agenda[:-1] if top in ("OBSERVE", "FIXEDAT") else s.agenda)
    return _pay(s, seat, dice, comets, own_fixed=top != "FIXEDAT")


@_on(ev.MajorObjectObserved)
def _major(s: GameState, e: ev.MajorObjectObserved) -> GameState:
    before = s.players[e.seat]
    s = _observe_major(s, e.seat, e.dice, e.comets)
    card = s.catalog.cards[e.card]
    # OBS-42: Constellation tokens on the taken card go to the box.
    for seat in s.covers[e.space]:
        if seat >= 0:
            s = _player(s, seat, tokens_boxed=s.players[seat].tokens_boxed + 1)
    p = s.players[e.seat]
    s = _player(s, e.seat, library=(*p.library, (e.card, True)))  # OBS-41, LIB-2
    display = list(s.display)
    display[e.space] = None
    covers = list(s.covers)
    covers[e.space] = ()
    tasks = [Task("VP", card.major.vp, "", "observation")]  # OBS-40
    if card.major.inquisitor:
        tasks.append(Task("INQ"))
    tasks.extend(_book_tasks(s, before, e.seat))
    tasks.append(Task("REFILL", e.space))  # OBS-43
    return replace(s, display=tuple(display), covers=tuple(covers), agenda=push(s.agenda, tasks))


@_on(ev.ConstellationObserved)
def _constellation(s: GameState, e: ev.ConstellationObserved) -> GameState:
    before = s.players[e.seat]
    agenda = s.agenda
    top = agenda[-1].kind if agenda else ""
    if top == "OBSERVE":
        left = agenda[-1].n - 1
        agenda = agenda[:-1] + ((replace(agenda[-1], n=left),) if left else ())
    elif top == "FREEOBS":  # LUNA-BA-2: one constellation, outside the Observe action
        agenda = agenda[:-1]
    else:  # the first observation of an Observe action: one more constellation may follow (OBS-1)
        more = rules_for(s.players[e.seat]).constellations_per_observe - 1
        agenda = (*(agenda[:-1] if top == "FIXEDAT" else agenda), *((Task("OBSERVE", more),) if more else ()))
    own_fixed = top not in ("FREEOBS", "FIXEDAT")
    s = _pay(replace(s, agenda=agenda), e.seat, e.dice, e.comets, own_fixed=own_fixed)
    covers = list(s.covers)
    row = list(covers[e.space])
    row[e.index] = e.seat
    covers[e.space] = tuple(row)
    p = s.players[e.seat]
    s = _player(replace(s, covers=tuple(covers)), e.seat, tokens_used=p.tokens_used + 1)  # OBS-50
    con = s.catalog.cards[e.card].constellations[e.index]
    tasks = reward_tasks(con.reward, "constellation")  # OBS-51: the printed reward, then the slot's
    tasks += reward_tasks(s.catalog.constellation_slots[e.slot], "constellation-slot")
    tasks += _book_tasks(s, before, e.seat)
    return replace(s, agenda=push(s.agenda, tasks))


@_on(ev.ObservationEnded)
def _observation_ended(s: GameState, e: ev.ObservationEnded) -> GameState:
    return replace(s, agenda=_pop(s, "OBSERVE"))


def _draw(s: GameState, card: str, from_reserve: bool) -> GameState:
    if from_reserve:
        return replace(s, reserve=s.reserve[1:])
    return replace(s, deck=s.deck[1:])


@_on(ev.CardDealt)
def _dealt(s: GameState, e: ev.CardDealt) -> GameState:
    s = _draw(s, e.card, e.from_reserve)
    display = list(s.display)
    display[e.space] = e.card
    covers = list(s.covers)
    covers[e.space] = (-1,) * len(s.catalog.cards[e.card].constellations)
    return replace(s, display=tuple(display), covers=tuple(covers), agenda=_pop(s, "REFILL"))


@_on(ev.CardDrawnFaceDown)
def _face_down(s: GameState, e: ev.CardDrawnFaceDown) -> GameState:
    s = _draw(s, e.card, e.from_reserve)
    p = s.players[e.seat]
    s = _player(s, e.seat, library=(*p.library, (e.card, False)))  # OBS-52, LIB-2
    return replace(s, agenda=_pop(s, "CARD"))


# -- reward primitives -----------------------------------------------------------------------------


@_on(ev.VictoryPointsScored)
def _points(s: GameState, e: ev.VictoryPointsScored) -> GameState:
    p = s.players[e.seat]
    by_source = dict(p.points)
    by_source[e.source] = by_source.get(e.source, 0) + e.points
    players = _players(s, e.seat, score=p.score + e.points, points=tuple(sorted(by_source.items())))
    agenda = s.agenda[:-1] if s.agenda and s.agenda[-1].kind in ("VP", "BOOKVP") else s.agenda
    return replace(s, players=players, agenda=agenda)


@_on(ev.QuadrantsGained)
def _quadrants(s: GameState, e: ev.QuadrantsGained) -> GameState:
    players = _players(s, e.seat, quadrants=s.players[e.seat].quadrants + e.amount)
    return replace(s, players=players, agenda=_pop(s, "Q"))


@_on(ev.DieGained)
def _die_gained(s: GameState, e: ev.DieGained) -> GameState:
    p = s.players[e.seat]
    dice = list(p.dice)
    supply = s.supply
    if e.returned is not None:  # DIE-5: exchange
        dice = _remove_die(dice, e.returned)
        supply = _supply(supply, e.returned[0], 1)
    dice.append((e.colour, e.value))
    players = _players(s, e.seat, dice=tuple(sorted(dice)))
    return replace(s, players=players, supply=_supply(supply, e.colour, -1), agenda=_pop(s, "DIE"))


@_on(ev.DieGainDeclined)
def _die_declined(s: GameState, e: ev.DieGainDeclined) -> GameState:
    return replace(s, agenda=_pop(s, "DIE"))


@_on(ev.DiceRaised)
def _dice_raised(s: GameState, e: ev.DiceRaised) -> GameState:
    top = s.die_max
    dice = tuple(
        sorted((c, min(top, v + e.amount) if c == e.colour else v) for c, v in s.players[e.seat].dice)
    )
    return replace(s, players=_players(s, e.seat, dice=dice), agenda=_pop(s, "INC"))


@_on(ev.DieRaised)
def _die_raised(s: GameState, e: ev.DieRaised) -> GameState:
    dice = _remove_die(s.players[e.seat].dice, e.die)
    dice.append((e.die[0], min(s.die_max, e.die[1] + e.amount)))  # DIE-10: excess lost
    return replace(s, players=_players(s, e.seat, dice=tuple(sorted(dice))), agenda=_pop(s, "RAISE"))


@_on(ev.DieRecoloured)
def _die_recoloured(s: GameState, e: ev.DieRecoloured) -> GameState:
    dice = _remove_die(s.players[e.seat].dice, e.die)
    dice.append((e.colour, e.die[1]))
    supply = _supply(_supply(s.supply, e.die[0], 1), e.colour, -1)
    s = _player(s, e.seat, dice=tuple(sorted(dice)))
    return replace(s, supply=supply, agenda=_pop(s, "RECOLOUR"))


@_on(ev.InquisitorGained)
def _inquisitor(s: GameState, e: ev.InquisitorGained) -> GameState:
    p = s.players[e.seat]
    s = _player(s, e.seat, cellar=(p.cellar[0] + 1, *p.cellar[1:]))  # INQ-2
    agenda = s.agenda[:-1] if s.agenda and s.agenda[-1].kind in ("INQ", "OPTINQ") else s.agenda
    return replace(s, turn=_turn(s, cellar_peak=_peak(s, s.players[e.seat])), agenda=agenda)


@_on(ev.InquisitorPersuaded)
def _persuaded(s: GameState, e: ev.InquisitorPersuaded) -> GameState:
    p = s.players[e.seat]
    name = "grand" if e.grand else "cellar"
    spaces = list(getattr(p, name))
    spaces[e.start] -= 1
    spaces[e.end] += 1
    players = _players(s, e.seat, **{name: tuple(spaces)})
    agenda = s.agenda[:-1] if s.agenda and s.agenda[-1].kind in ("PER", "ADVANCE") else s.agenda
    if e.grand and e.end == len(spaces) - 1:  # LUNA-41: it leaves at once (RES-8, AMB-50)
        agenda = (*agenda, Task("DEPART"))
    turn = _turn(s, inquisitor_moved=True, interrogated=False)  # INQ-13, INQ-20: each move is interrogated
    return replace(s, players=players, turn=turn, agenda=agenda)


@_on(ev.FarewellTaken)
def _farewell(s: GameState, e: ev.FarewellTaken) -> GameState:
    p = s.players[e.seat]
    s = _player(s, e.seat, cellar=(*p.cellar[:-1], p.cellar[-1] - 1))  # INQ-15
    return replace(s, agenda=push(_pop(s, "FW"), [Task("DIE", 1), Task("Q", 1)]))


@_on(ev.FarewellDeclined)
def _farewell_declined(s: GameState, e: ev.FarewellDeclined) -> GameState:
    return replace(s, agenda=_pop(s, "FW"))


@_on(ev.LectureGiven)
def _lecture(s: GameState, e: ev.LectureGiven) -> GameState:
    p = s.players[e.seat]
    university = list(p.university)
    university[e.tile] = e.height
    s = _player(s, e.seat, university=tuple(university))
    row = s.catalog.scale_face(s.scale[e.tile]).rows[e.height - 1]
    return replace(s, agenda=push(_pop(s, "LEC"), reward_tasks(row.reward, "lecture")))  # LEC-1


@_on(ev.CometSpotted)
def _spotted(s: GameState, e: ev.CometSpotted) -> GameState:
    comets = list(s.players[e.seat].comets)
    comets[e.comet] = "sky1"  # SPOT-1
    return replace(s, players=_players(s, e.seat, comets=tuple(comets)), agenda=_pop(s, "SPOT"))


@_on(ev.TileUpgraded)
def _upgraded(s: GameState, e: ev.TileUpgraded) -> GameState:
    players = _players(s, e.seat, upgraded=s.players[e.seat].upgraded | {e.tile})
    return replace(s, players=players, agenda=_pop(s, "UPG"))


def library_reward(s: GameState, p: PlayerState, row: int, position: int) -> tuple[str, ...]:
    """LIB-3: position 1 is the printed space, position k+1 the k-th card's space in that row."""
    if position == 1:
        return s.catalog.library_printed[row]
    card_id, dark = p.library[position - 2]
    card = s.catalog.cards[card_id]
    return (card.front if dark else card.back)[row]


@_on(ev.BookTokenMoved)
def _book_moved(s: GameState, e: ev.BookTokenMoved) -> GameState:
    p = s.players[e.seat]
    books = list(p.books)
    books[e.row] = e.end
    s = _player(s, e.seat, books=tuple(books))
    agenda = s.agenda
    top = agenda[-1] if agenda else None
    if top is not None and top.kind == "WRITE":
        agenda = agenda[:-1] + ((replace(top, n=top.n - 1),) if top.n > 1 else ())
    elif top is not None and top.kind == "COMPLETE" and e.end >= top.n:
        agenda = agenda[:-1]
    tasks = reward_tasks(library_reward(s, s.players[e.seat], e.row, e.end), "library")  # WRT-4
    return replace(s, agenda=push(agenda, tasks))


@_on(ev.CompleteWritingStarted)
def _complete_started(s: GameState, e: ev.CompleteWritingStarted) -> GameState:
    return replace(s, agenda=(*_pop(s, "WC"), Task("COMPLETE", e.target, str(e.row))))


@_on(ev.WritingStopped)
def _writing_stopped(s: GameState, e: ev.WritingStopped) -> GameState:
    return replace(s, agenda=_pop(s, s.agenda[-1].kind if s.agenda else "WRITE"))


@_on(ev.EffectLost)
def _lost(s: GameState, e: ev.EffectLost) -> GameState:
    return replace(s, agenda=s.agenda[:-1])


# -- cleanup ---------------------------------------------------------------------------------------


@_on(ev.ActionTilesRotated)
def _rotated(s: GameState, e: ev.ActionTilesRotated) -> GameState:
    players = _players(s, e.seat, queue=tuple(e.queue))
    if s.agenda and s.agenda[-1].kind == "ROTATE":  # LUNA-BA-6 rotates at once; ROT-6 remembers it
        turn = _turn(s, bonus_rotated=s.turn.bonus_rotated | {e.tile})
        return replace(s, players=players, turn=turn, agenda=s.agenda[:-1])
    return replace(s, players=players, turn=_turn(s, rotated=True))


@_on(ev.CometPlacedInBook)
def _comet_placed(s: GameState, e: ev.CometPlacedInBook) -> GameState:
    p = s.players[e.seat]
    comets = list(p.comets)
    comets[e.comet] = "book"
    agenda = _pop(s, "BOOK")
    if e.page == "appendix":  # BOC-4
        s = _player(s, e.seat, comets=tuple(comets), appendix=p.appendix + 1)
        return replace(s, agenda=push(agenda, [Task("VP", s.catalog.appendix_vp, "", "book")]))
    index = next(i for i, page in enumerate(s.catalog.book_pages) if page.id == e.page)
    pages = list(s.pages)
    pages[index] = e.seat
    s = _player(s, e.seat, comets=tuple(comets))
    tasks = reward_tasks(s.catalog.book_pages[index].reward, "book")
    return replace(s, pages=tuple(pages), agenda=push(agenda, tasks))


@_on(ev.InterrogationHeld)
def _interrogated(s: GameState, e: ev.InterrogationHeld) -> GameState:
    s = _player(s, e.seat, reputation=e.end)
    agenda = push(s.agenda, [Task("VP", e.overflow, "", "inquisition")]) if e.overflow else s.agenda
    return replace(s, turn=_turn(s, interrogated=True), agenda=agenda)


@_on(ev.ObjectiveAchieved)
def _objective(s: GameState, e: ev.ObjectiveAchieved) -> GameState:
    index = s.objectives.index(e.objective)
    claims = list(s.claims)
    claims[index] = (*claims[index], e.seat)
    p = s.players[e.seat]
    s = _player(s, e.seat, achievements=(*p.achievements, e.objective))
    vp = s.catalog.objective_first_vp if e.first else s.catalog.objective_later_vp  # OBJ-3
    tasks = [Task("VP", vp, "", "objective"), Task("FW")]  # OBJ-5
    return replace(s, claims=tuple(claims), agenda=push(s.agenda, tasks))


# -- Luna (digest §18) -----------------------------------------------------------------------------


def _luna(s: GameState) -> LunaState:
    assert s.luna is not None, "a Luna event in a game without Luna"
    return s.luna


@_on(ev.MoonObserved)
def _moon(s: GameState, e: ev.MoonObserved) -> GameState:
    before = s.players[e.seat]
    s = _observe_major(s, e.seat, e.dice, e.comets)
    luna = _luna(s)
    index = POSITIONS.index(e.tile)
    flipped = list(luna.flipped)
    flipped[index] = True  # LUNA-23.6
    scoring = list(luna.scoring)
    scoring[index] = ""  # LUNA-23.5: the Scoring tile goes to the box
    luna = replace(luna, costs=luna.costs[1:], flipped=tuple(flipped), scoring=tuple(scoring))  # LUNA-23.1
    s = replace(_player(s, e.seat, moon=s.players[e.seat].moon + 1), luna=luna)
    tasks = reward_tasks(s.catalog.luna.moon(e.tile).reward, "moon")  # LUNA-23.2
    tasks.append(Task("SCORING", 1, e.scoring))  # LUNA-23.3
    if s.options.moon_objective_immediate and moon_objective_due(s, s.players[e.seat]):
        tasks.append(Task("MOONOBJ"))  # LUNA-81, AMB-15
    tasks.append(Task("GRAND", 1, e.tile))  # LUNA-23.4
    tasks += _book_tasks(s, before, e.seat)
    return replace(s, agenda=push(s.agenda, tasks))


@_on(ev.MoonPhaseAdvanced)
def _phase(s: GameState, e: ev.MoonPhaseAdvanced) -> GameState:
    luna = _luna(s)
    column = e.phase - 1
    scoring = list(luna.scoring)
    scoring[column * 3 : column * 3 + 3] = list(e.revealed)
    return replace(s, luna=replace(luna, phase=e.phase, scoring=tuple(scoring)))


@_on(ev.ScoringTileScored)
def _scoring(s: GameState, e: ev.ScoringTileScored) -> GameState:
    n = len(s.players)
    order = [(e.seat + k) % n for k in range(n)]  # the observer's bonus first, then the others
    tasks = [Task("VP", e.points[seat], str(seat), "scoring-tile") for seat in order if e.points[seat]]
    return replace(s, agenda=push(_pop(s, "SCORING"), tasks))


@_on(ev.GrandInquisitorGained)
def _grand(s: GameState, e: ev.GrandInquisitorGained) -> GameState:
    p = s.players[e.seat]
    s = _player(s, e.seat, grand=(p.grand[0] + 1, *p.grand[1:]))  # LUNA-40: to the leftmost space
    return replace(s, turn=_turn(s, cellar_peak=_peak(s, s.players[e.seat])), agenda=_pop(s, "GRAND"))


@_on(ev.GrandInquisitorDeparted)
def _departed(s: GameState, e: ev.GrandInquisitorDeparted) -> GameState:
    p = s.players[e.seat]
    s = _player(s, e.seat, grand=(*p.grand[:-1], p.grand[-1] - 1))
    luna = _luna(s)
    bonus = list(luna.bonus)
    bonus[e.space - 1] = (*bonus[e.space - 1], e.seat)
    agenda = push(_pop(s, "DEPART"), [Task("BONUS", e.space)])
    return replace(s, luna=replace(luna, bonus=tuple(bonus)), agenda=agenda)


@_on(ev.BonusBoardRewardTaken)
def _bonus(s: GameState, e: ev.BonusBoardRewardTaken) -> GameState:
    agenda = _pop(s, "BONUS")
    if e.lost:
        return replace(s, agenda=agenda)
    return replace(s, agenda=push(agenda, bonus_tasks(s, bonus_space(s, e.space))))


@_on(ev.MoonObjectiveAchieved)
def _moon_objective(s: GameState, e: ev.MoonObjectiveAchieved) -> GameState:
    luna = _luna(s)
    p = s.players[e.seat]
    s = _player(s, e.seat, achievements=(*p.achievements, "MOON"))
    objective = s.catalog.luna
    task = (
        Task("VP", objective.objective_vp, "", "moon-objective")
        if e.choice == "vp"
        else Task("Q", objective.objective_quadrants, "", "moon-objective")
    )
    agenda = push(_pop(s, "MOONOBJ"), [task])
    return replace(s, luna=replace(luna, achievers=(*luna.achievers, e.seat)), agenda=agenda)


@_on(ev.TelescopeRelocated)
def _relocated(s: GameState, e: ev.TelescopeRelocated) -> GameState:
    s = _player(s, e.seat, telescope=e.end)  # AMB-21: not a movement; the next turn moves from here
    return replace(s, agenda=push(_pop(s, "RELOCATE"), [Task("FIXEDAT", e.end)]))


@_on(ev.ActionTilesSwapped)
def _swapped(s: GameState, e: ev.ActionTilesSwapped) -> GameState:
    return replace(s, players=_players(s, e.seat, queue=tuple(e.queue)), agenda=_pop(s, "SWAP"))


@_on(ev.LibraryRewardsRegained)
def _regained(s: GameState, e: ev.LibraryRewardsRegained) -> GameState:
    p = s.players[e.seat]
    tasks: list[Task] = []
    for position in range(e.position, 0, -1):  # LUNA-BA-5: right to left
        tasks += reward_tasks(library_reward(s, p, e.row, position), "library")
    return replace(s, agenda=push(_pop(s, "REREAD"), tasks))


@_on(ev.BonusActionTaken)
def _bonus_action(s: GameState, e: ev.BonusActionTaken) -> GameState:
    tile = next(t for t in s.catalog.action_tiles if t.id == e.tile)
    face = tile.upgraded if e.upgraded else tile.basic
    tasks = [*reward_tasks(face[e.option - 1], "action-tile"), Task("ROTATE", 1, e.tile)]
    return replace(s, agenda=push(_pop(s, "ANYTILE"), tasks))


@_on(ev.ScaleRewardCollected)
def _scale_collected(s: GameState, e: ev.ScaleRewardCollected) -> GameState:
    top = s.agenda[-1]
    left = top.arg.replace(str(e.tile), "")
    agenda = s.agenda[:-1] + ((replace(top, arg=left),) if left else ())
    row = s.catalog.scale_face(s.scale[e.tile]).rows[e.height - 1]
    tasks = [
        Task("OPTINQ", 1, "", t.source) if t.kind == "INQ" else t  # LUNA-BB-7: Inquisitors may be declined
        for t in reward_tasks(row.reward, "lecture")
    ]
    return replace(s, agenda=push(agenda, tasks))


@_on(ev.BonusDeclined)
def _declined(s: GameState, e: ev.BonusDeclined) -> GameState:
    return replace(s, agenda=s.agenda[:-1])


# -- the table (docs/async.md): facts about seats and clocks change nothing in the game ----------------


def _unchanged(s: GameState, e: ev.Event) -> GameState:
    return s


for _fact in ev.TABLE_EVENTS:
    if _fact is not ev.TakenBack:
        _HANDLERS[_fact] = _unchanged


@_on(ev.SeatFrozen)
def _frozen(s: GameState, e: ev.SeatFrozen) -> GameState:
    return freeze(s, e.seat)  # ASYNC-3: domain/forfeit.py


@_on(ev.SeatHandedOver)
def _handed_over(s: GameState, e: ev.SeatHandedOver) -> GameState:
    return apply_handover(s, e)  # a frozen seat handed to a bot or a person plays again


@_on(ev.TakenBack)
def _taken_back(s: GameState, e: ev.TakenBack) -> GameState:
    return load_state(ev.event_to_dict(e)["state"])  # its JSON form: lists, not the frozen tuples
