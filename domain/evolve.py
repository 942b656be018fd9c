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
from domain.characters import character_of, rules_for, rules_of, with_character
from domain.editions import check_rules_version
from domain.effect_kinds import lent
from domain.effects import push
from domain.errors import EditionUnknown, EventDoesNotFit
from domain.forfeit import apply_handover, freeze, next_turn
from domain.grants import as_tasks, granted, records_grants
from domain.options import Options
from domain.ruleset import Pins, Rules, ruleset_for
from domain.scoring import persuaded_figures
from domain.state import COLOURS, START, Die, GameState, PlayerState, Task, TurnState, changer, replace

Handler = Callable[[GameState, Any], GameState]
# The base game's events: how each applies and the effect kinds it resolves (takes off the top of the
# agenda); a plug-in declares its own in its own `Rules` (domain/ruleset.py).
RULES = Rules(__name__)
_on = RULES.event


class _Misfit(ValueError):
    """Raised by a handler: the event does not fit the state (the message says what was expected)."""


def evolve(state: GameState | None, event: ev.Event) -> GameState:
    """Apply one event. `state` is None only for the first event (GameStarted). An event that does not
    fit the state raises EventDoesNotFit naming its type and what was expected; an edition this build
    lacks raises EditionUnknown."""
    if state is None:
        if not isinstance(event, ev.GameStarted):
            raise EventDoesNotFit(type(event).__name__, "a game's first event must be GameStarted")
        return _started(event)
    after = apply_facts(state, event)
    if isinstance(event, ev.GrantingEvent):
        return _grant(state, after, event)
    return after


def apply_facts(state: GameState, event: ev.Event) -> GameState:
    """The event's own facts, and the effect it resolves taken off the agenda; not what it grants."""
    handler = state.rules.handlers.get(type(event))
    if handler is None:
        expected = "only a game's first event" if isinstance(event, ev.GameStarted) else "a known event type"
        raise EventDoesNotFit(type(event).__name__, f"expected {expected}")
    try:
        after: GameState = handler(state, event)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError) as exc:
        if isinstance(exc, EventDoesNotFit | EditionUnknown):
            raise
        reason = str(exc) if isinstance(exc, _Misfit) else f"{type(exc).__name__}: {exc}"
        raise EventDoesNotFit(type(event).__name__, reason) from exc
    if isinstance(event, ev.PlayerEvent) and event.seat is not None:
        player = after.players[event.seat]
        if player.parts:  # an ability that remembers what its seat did (Hevelius, CHAR-HEV-2)
            return rules_for(state, player).witness(after, event)
    return after


def _grant(before: GameState, after: GameState, event: ev.GrantingEvent) -> GameState:
    """Push what the event grants: its recorded `grants`; only a game of rules 0.1.0, whose events
    recorded none, derives them (domain/grants.py, docs/editions.md)."""
    if event.grants is not None:
        tasks = as_tasks(event.grants)
    elif records_grants(before):
        raise EventDoesNotFit(
            type(event).__name__,
            f"an event of rules {before.engine_version} records what it grants, and this one has no grants",
        )
    else:
        tasks = granted(before, after, event)
    return with_granted(before, after, tasks)


def with_granted(before: GameState, after: GameState, tasks: list[Task]) -> GameState:
    """`after` (the state `apply_facts` made from `before`) with `tasks` pushed on its agenda. A state
    the event's handler has just made is not shared yet: its agenda is set in place, which saves a
    second copy of the whole state per granting event (the engine's hottest path)."""
    if not tasks:
        return after
    agenda = push(after.agenda, tasks)
    if after is before:
        return _set_agenda(after, agenda)
    object.__setattr__(after, "agenda", agenda)
    return after


def fold(events: Sequence[ev.Event], state: GameState | None = None) -> GameState:
    """Replay: fold events over a state (from scratch when `state` is None)."""
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise ValueError("no events to replay")
    return state


# -- helpers ---------------------------------------------------------------------------------------

# The copies of the commonest events, built without keywords (`domain.state.changer`): each is
# `replace(obj, <fields>=...)` with the new values in the order named.
_set_players = changer(GameState, "players")
_set_turn = changer(GameState, "turn")
_set_agenda = changer(GameState, "agenda")
_set_players_agenda = changer(GameState, "players", "agenda")
_set_players_turn = changer(GameState, "players", "turn")
_turn_phase = changer(TurnState, "phase")
_turn_phase_space = changer(TurnState, "phase", "space")
_turn_objectives_due = changer(TurnState, "objectives_due")
_turn_fixed_done = changer(TurnState, "fixed_done")
_turn_moving_done = changer(TurnState, "moving_done")
_turn_moving_done_tile = changer(TurnState, "moving_done", "used_tile")
_turn_rotated = changer(TurnState, "rotated")
_seat_telescope = changer(PlayerState, "telescope")
_seat_quadrants = changer(PlayerState, "quadrants")
_seat_score_points = changer(PlayerState, "score", "points")
_seat_dice = changer(PlayerState, "dice")
_seat_queue = changer(PlayerState, "queue")
_seat_books = changer(PlayerState, "books")


def seated(s: GameState, seat: int, player: PlayerState) -> tuple[PlayerState, ...]:
    """The seats of `s` with `player` at `seat`."""
    players = list(s.players)
    players[seat] = player
    return tuple(players)


def players_with(s: GameState, seat: int, **changes: Any) -> tuple[PlayerState, ...]:
    players = list(s.players)
    players[seat] = replace(players[seat], **changes)
    return tuple(players)


def player_with(s: GameState, seat: int, **changes: Any) -> GameState:
    return replace(s, players=players_with(s, seat, **changes))


def resolved(s: GameState, e: ev.Event) -> tuple[Task, ...]:
    """The agenda without the effect `e` resolves, which must be on top (a kind `e` resolves)."""
    kinds = s.rules.resolves.get(type(e), frozenset())
    if s.agenda and s.agenda[-1].kind in kinds:
        return s.agenda[:-1]
    top = s.agenda[-1].kind if s.agenda else "nothing"
    wanted = " or ".join(sorted(kinds)) or "no"
    raise _Misfit(f"expected a pending {wanted} effect on top of the agenda, found {top} (RES-2)")


def resolved_if(s: GameState, e: ev.Event) -> tuple[Task, ...]:
    """The agenda without its top effect if `e` resolves it (events that also happen on their own)."""
    if s.agenda and s.agenda[-1].kind in s.rules.resolves.get(type(e), frozenset()):
        return s.agenda[:-1]
    return s.agenda


def turn_with(s: GameState, **changes: Any) -> TurnState:
    return replace(s.turn, **changes)


def _remove_die(dice: Sequence[Die], die: Sequence[Any]) -> list[Die]:
    out = list(dice)
    out.remove((die[0], die[1]))
    return out


def _supply(supply: tuple[int, ...], colour: str, delta: int) -> tuple[int, ...]:
    out = list(supply)
    out[COLOURS.index(colour)] += delta
    return tuple(out)


def cellar_peak_of(s: GameState, p: PlayerState) -> int:
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
    rules = ruleset_for(
        Pins(e.engine_version, e.catalog_edition, options, tuple(ch for _, ch in e.seats), e.sides)
    )
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
            reputation=catalog.reputation_start,  # SET-10
            university=(0,) * len(e.scale),  # SET-9
            achievements=(),
        )
        for i, (name, character) in enumerate(e.seats)
    )
    if e.sides is not None:  # CHAR-1: ability-side seats set up their characters (domain/characters/)
        layouts = e.layouts or (None,) * len(players)
        players = tuple(
            rules_of(rules, p.character, side).start(catalog, p, dict(layout) if layout is not None else None)
            for p, side, layout in zip(players, e.sides, layouts, strict=True)
        )
        if e.character_deals is not None:  # their own hidden orders (Hevelius' deck, Cunitz' Notes)
            players = tuple(
                rules_of(rules, p.character, side).dealt_to(catalog, p, tuple(order))
                for p, side, order in zip(players, e.sides, e.character_deals, strict=True)
            )
    deck, box, reserve = tuple(e.deck), tuple(e.box), tuple(e.reserve)
    state = GameState(
        catalog=catalog,
        rules=rules,
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
        engine_version=e.engine_version,
    )
    for step in state.rules.on_start:  # a plug-in's own setup (domain/ruleset.py)
        state = step(state, e)
    return state


@_on(ev.GameForked)
def _forked(s: GameState, e: ev.GameForked) -> GameState:
    deck, box, reserve = tuple(e.deck), tuple(e.box), tuple(e.reserve)
    if e.commitment == s.commitment:  # a finished game's fork keeps its deal and commitment
        return replace(s, forks=s.forks + 1)
    forked = replace(
        s,
        deck=deck,
        box=box,
        reserve=reserve,
        seed=e.seed,
        salt=e.salt,
        commitment=e.commitment,
        dealt=(deck, box, reserve, tuple(e.moon_hidden)),
        forks=s.forks + 1,
    )
    if e.character_deals is not None:  # the characters' hidden orders, re-dealt (domain/characters/)
        forked = replace(
            forked,
            players=tuple(
                rules_for(s, p).redealt(s.catalog, p, tuple(order))
                for p, order in zip(forked.players, e.character_deals, strict=True)
            ),
        )
    for step in s.rules.on_fork:  # what a plug-in re-deals (domain/ruleset.py)
        forked = step(s, forked, e)
    return forked


# -- turn structure --------------------------------------------------------------------------------


@_on(ev.TelescopeMoved)
def _moved(s: GameState, e: ev.TelescopeMoved) -> GameState:
    at = s.players[e.seat].telescope
    if at != e.start or s.turn.phase != "movement" or e.seat != s.turn.seat:
        expected = f"seat {s.turn.seat} to move in its Movement phase from sky space {at}"
        raise EventDoesNotFit("TelescopeMoved", f"expected {expected} (MOV-1)")
    players = seated(s, e.seat, _seat_telescope(s.players[e.seat], e.end))
    return _set_players_turn(s, players, _turn_phase_space(s.turn, "actions", e.end))  # MOV-5: grants


@_on(ev.FixedActionTaken)
def _fixed(s: GameState, e: ev.FixedActionTaken) -> GameState:
    if lent(s) == "fixed-action":  # an effect lent it: not the turn's own fixed action
        return _set_agenda(s, s.agenda[:-1])
    return _set_turn(s, _turn_fixed_done(s.turn, True))


@_on(ev.MovingActionTaken)
def _moving(s: GameState, e: ev.MovingActionTaken) -> GameState:
    if not e.tile:  # UPG-2: the Upgrade space gives a Quadrant instead of a moving action
        return _set_turn(s, _turn_moving_done(s.turn, True))
    return _set_turn(s, _turn_moving_done_tile(s.turn, True, e.tile))


@_on(ev.FreeActionBought)
def _free(s: GameState, e: ev.FreeActionBought) -> GameState:
    p = s.players[e.seat]
    return _set_players(s, seated(s, e.seat, _seat_quadrants(p, p.quadrants - e.cost)))  # FREE-1


@_on(ev.ActionPhaseEnded)
def _actions_ended(s: GameState, e: ev.ActionPhaseEnded) -> GameState:
    return _set_turn(s, _turn_phase(s.turn, "cleanup"))


@_on(ev.FreeActionsClosed)
def _free_closed(s: GameState, e: ev.FreeActionsClosed) -> GameState:
    # the first window closes before step 4 (1), the last after it (2)
    return replace(s, turn=turn_with(s, windows_closed=1 if s.turn.objectives_due is None else 2))


@_on(ev.ObjectivesChecked)
def _objectives_checked(s: GameState, e: ev.ObjectivesChecked) -> GameState:
    return _set_turn(s, _turn_objectives_due(s.turn, tuple(e.met)))


@_on(ev.EndOfGameTriggered)
def _end_triggered(s: GameState, e: ev.EndOfGameTriggered) -> GameState:
    return replace(s, last_turn=e.last_turn)


@_on(ev.TurnEnded)
def _turn_ended(s: GameState, e: ev.TurnEnded) -> GameState:
    # TURN-1, past frozen seats
    following = next_turn(s)  # (ASYNC-3, domain/forfeit.py); None: every seat is frozen
    if following is None or (s.last_turn is not None and following[1] > s.last_turn):
        return _set_turn(s, _turn_phase(s.turn, "scoring"))  # END-2: the final round is over
    seat, number = following
    return _set_turn(s, TurnState(seat=seat, number=number, phase="movement"))


@_on(ev.GameEnded)
def _ended(s: GameState, e: ev.GameEnded) -> GameState:
    return replace(s, turn=turn_with(s, phase="over"), winners=tuple(e.winners))


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
    s = player_with(s, seat, dice=tuple(held), comets=tuple(states))
    turn = turn_with(
        s, fixed_done=s.turn.fixed_done or own_fixed, comets_used=s.turn.comets_used | frozenset(comets)
    )
    return replace(s, supply=supply, turn=turn)


def observe_major(s: GameState, seat: int, dice: Sequence[Sequence[Any]], comets: Sequence[int]) -> GameState:
    """A Major Object ends the Observe action (OBS-1); lent by an effect, it is not the turn's own
    fixed action (AMB-21). Then pay (OBS-20..34)."""
    top = s.agenda[-1].kind if s.agenda else ""
    outside = bool(lent(s))
    s = replace(s, agenda=s.agenda[:-1] if top == "OBSERVE" or outside else s.agenda)
    return _pay(s, seat, dice, comets, own_fixed=not outside)


@_on(ev.MajorObjectObserved)
def _major(s: GameState, e: ev.MajorObjectObserved) -> GameState:
    s = observe_major(s, e.seat, e.dice, e.comets)
    # OBS-42: Constellation tokens on the taken card go to the box.
    for seat in s.covers[e.space]:
        if seat >= 0:
            s = player_with(s, seat, tokens_boxed=s.players[seat].tokens_boxed + 1)
    p = s.players[e.seat]
    s = player_with(s, e.seat, library=(*p.library, (e.card, True)))  # OBS-41, LIB-2
    display = list(s.display)
    display[e.space] = None
    covers = list(s.covers)
    covers[e.space] = ()
    return replace(s, display=tuple(display), covers=tuple(covers))  # OBS-40, OBS-43: grants


@_on(ev.ConstellationObserved)
def _constellation(s: GameState, e: ev.ConstellationObserved) -> GameState:
    agenda = s.agenda
    top = agenda[-1].kind if agenda else ""
    if top == "OBSERVE":
        left = agenda[-1].n - 1
        agenda = agenda[:-1] + ((replace(agenda[-1], n=left),) if left else ())
    elif lent(s):  # an effect lent the observation: outside the turn's own Observe action
        agenda = agenda[:-1]
    # else the first observation of an Observe action: the constellations that may follow are a grant
    own_fixed = not lent(s)
    s = _pay(replace(s, agenda=agenda), e.seat, e.dice, e.comets, own_fixed=own_fixed)
    covers = list(s.covers)
    row = list(covers[e.space])
    row[e.index] = e.seat
    covers[e.space] = tuple(row)
    p = s.players[e.seat]
    return player_with(replace(s, covers=tuple(covers)), e.seat, tokens_used=p.tokens_used + 1)  # OBS-50


@_on(ev.ObservationEnded, "OBSERVE")
def _observation_ended(s: GameState, e: ev.ObservationEnded) -> GameState:
    return replace(s, agenda=resolved(s, e))


def _draw(s: GameState, card: str, from_reserve: bool) -> GameState:
    if from_reserve:
        return replace(s, reserve=s.reserve[1:])
    return replace(s, deck=s.deck[1:])


@_on(ev.CardDealt, "REFILL")
def _dealt(s: GameState, e: ev.CardDealt) -> GameState:
    s = _draw(s, e.card, e.from_reserve)
    display = list(s.display)
    display[e.space] = e.card
    covers = list(s.covers)
    covers[e.space] = (-1,) * len(s.catalog.cards[e.card].constellations)
    return replace(s, display=tuple(display), covers=tuple(covers), agenda=resolved(s, e))


@_on(ev.CardDrawnFaceDown, "CARD")
def _face_down(s: GameState, e: ev.CardDrawnFaceDown) -> GameState:
    s = _draw(s, e.card, e.from_reserve)
    p = s.players[e.seat]
    s = player_with(s, e.seat, library=(*p.library, (e.card, False)))  # OBS-52, LIB-2
    return replace(s, agenda=resolved(s, e))


# -- reward primitives -----------------------------------------------------------------------------


@_on(ev.VictoryPointsScored, "VP")
def _points(s: GameState, e: ev.VictoryPointsScored) -> GameState:
    p = s.players[e.seat]
    by_source = dict(p.points)
    by_source[e.source] = by_source.get(e.source, 0) + e.points
    players = seated(s, e.seat, _seat_score_points(p, p.score + e.points, tuple(sorted(by_source.items()))))
    if s.turn.phase == "scoring":  # SCO-1: final scoring resolves no effect
        return _set_players(s, players)
    return _set_players_agenda(s, players, resolved(s, e))


@_on(ev.QuadrantsGained, "Q")
def _quadrants(s: GameState, e: ev.QuadrantsGained) -> GameState:
    p = s.players[e.seat]
    return _set_players_agenda(
        s, seated(s, e.seat, _seat_quadrants(p, p.quadrants + e.amount)), resolved(s, e)
    )


@_on(ev.DieGained, "DIE")
def _die_gained(s: GameState, e: ev.DieGained) -> GameState:
    p = s.players[e.seat]
    dice = list(p.dice)
    supply = s.supply
    if e.returned is not None:  # DIE-5: exchange
        dice = _remove_die(dice, e.returned)
        supply = _supply(supply, e.returned[0], 1)
    dice.append((e.colour, e.value))
    players = players_with(s, e.seat, dice=tuple(sorted(dice)))
    return replace(s, players=players, supply=_supply(supply, e.colour, -1), agenda=resolved(s, e))


@_on(ev.DieGainDeclined, "DIE")
def _die_declined(s: GameState, e: ev.DieGainDeclined) -> GameState:
    return replace(s, agenda=resolved(s, e))


@_on(ev.DiceRaised, "INC")
def _dice_raised(s: GameState, e: ev.DiceRaised) -> GameState:
    top = s.die_max
    dice = tuple(
        sorted((c, min(top, v + e.amount) if c == e.colour else v) for c, v in s.players[e.seat].dice)
    )
    return replace(s, players=players_with(s, e.seat, dice=dice), agenda=resolved(s, e))


@_on(ev.DieRaised, "RAISE")
def _die_raised(s: GameState, e: ev.DieRaised) -> GameState:
    p = s.players[e.seat]
    dice = _remove_die(p.dice, e.die)
    dice.append((e.die[0], min(s.die_max, e.die[1] + e.amount)))  # DIE-10: excess lost
    return _set_players_agenda(s, seated(s, e.seat, _seat_dice(p, tuple(sorted(dice)))), resolved(s, e))


@_on(ev.DieRecoloured, "RECOLOUR")
def _die_recoloured(s: GameState, e: ev.DieRecoloured) -> GameState:
    dice = _remove_die(s.players[e.seat].dice, e.die)
    dice.append((e.colour, e.die[1]))
    supply = _supply(_supply(s.supply, e.die[0], 1), e.colour, -1)
    s = player_with(s, e.seat, dice=tuple(sorted(dice)))
    return replace(s, supply=supply, agenda=resolved(s, e))


@_on(ev.InquisitorGained, "INQ")
def _inquisitor(s: GameState, e: ev.InquisitorGained) -> GameState:
    p = s.players[e.seat]
    s = player_with(s, e.seat, cellar=(p.cellar[0] + 1, *p.cellar[1:]))  # INQ-2
    return replace(
        s, turn=turn_with(s, cellar_peak=cellar_peak_of(s, s.players[e.seat])), agenda=resolved(s, e)
    )


@_on(ev.InquisitorPersuaded, "PER")
def _persuaded(s: GameState, e: ev.InquisitorPersuaded) -> GameState:
    p = s.players[e.seat]
    figures = persuaded_figures(s, e.grand)  # the event's flag: an expansion's own figures
    spaces = list(p.cellar if figures is None else figures.counts(p))
    spaces[e.start] -= 1
    spaces[e.end] += 1
    players = list(s.players)
    players[e.seat] = replace(p, cellar=tuple(spaces)) if figures is None else figures.put(p, tuple(spaces))
    agenda = resolved(s, e)
    turn = turn_with(
        s, inquisitor_moved=True, interrogated=False
    )  # INQ-13, INQ-20: each move is interrogated
    return replace(s, players=tuple(players), turn=turn, agenda=agenda)


@_on(ev.FarewellTaken, "FW")
def _farewell(s: GameState, e: ev.FarewellTaken) -> GameState:
    p = s.players[e.seat]
    s = player_with(s, e.seat, cellar=(*p.cellar[:-1], p.cellar[-1] - 1))  # INQ-15
    return replace(s, agenda=resolved(s, e))


@_on(ev.FarewellDeclined, "FW")
def _farewell_declined(s: GameState, e: ev.FarewellDeclined) -> GameState:
    return replace(s, agenda=resolved(s, e))


@_on(ev.LectureGiven, "LEC")
def _lecture(s: GameState, e: ev.LectureGiven) -> GameState:
    p = s.players[e.seat]
    university = list(p.university)
    university[e.tile] = e.height
    s = player_with(s, e.seat, university=tuple(university))
    return replace(s, agenda=resolved(s, e))  # LEC-1: the row's reward is a grant


@_on(ev.CometSpotted, "SPOT")
def _spotted(s: GameState, e: ev.CometSpotted) -> GameState:
    comets = list(s.players[e.seat].comets)
    comets[e.comet] = "sky1"  # SPOT-1
    return replace(s, players=players_with(s, e.seat, comets=tuple(comets)), agenda=resolved(s, e))


@_on(ev.TileUpgraded, "UPG")
def _upgraded(s: GameState, e: ev.TileUpgraded) -> GameState:
    players = players_with(s, e.seat, upgraded=s.players[e.seat].upgraded | {e.tile})
    return replace(s, players=players, agenda=resolved(s, e))


@_on(ev.BookTokenMoved)
def _book_moved(s: GameState, e: ev.BookTokenMoved) -> GameState:
    p = s.players[e.seat]
    books = list(p.books)
    books[e.row] = e.end
    agenda = s.agenda
    top = agenda[-1] if agenda else None
    if top is not None and top.kind == "WRITE":
        agenda = agenda[:-1] + ((replace(top, n=top.n - 1),) if top.n > 1 else ())
    elif top is not None and top.kind == "COMPLETE":
        agenda = agenda[:-1] if e.end >= top.n else agenda
    else:
        raise _Misfit(f"expected a pending WRITE or COMPLETE effect, found {top.kind if top else 'nothing'}")
    players = seated(s, e.seat, _seat_books(p, tuple(books)))
    return _set_players_agenda(s, players, agenda)  # WRT-4: the space's reward is a grant


@_on(ev.CompleteWritingStarted, "WC")
def _complete_started(s: GameState, e: ev.CompleteWritingStarted) -> GameState:
    return replace(s, agenda=(*resolved(s, e), Task("COMPLETE", e.target, str(e.row))))


@_on(ev.WritingStopped, "WRITE", "COMPLETE")
def _writing_stopped(s: GameState, e: ev.WritingStopped) -> GameState:
    return replace(s, agenda=resolved(s, e))  # AMB-8, WRT-6


@_on(ev.EffectLost)
def _lost(s: GameState, e: ev.EffectLost) -> GameState:
    kind = e.effect.split(":")[0]  # "INC:R" names the kind INC
    if not s.agenda or s.agenda[-1].kind != kind:
        top = s.agenda[-1].kind if s.agenda else "nothing"
        raise _Misfit(f"expected the lost {kind} effect on top of the agenda, found {top} (RES-4)")
    return _set_agenda(s, s.agenda[:-1])


# -- cleanup ---------------------------------------------------------------------------------------


@_on(ev.ActionTilesRotated)
def _rotated(s: GameState, e: ev.ActionTilesRotated) -> GameState:
    players = seated(s, e.seat, _seat_queue(s.players[e.seat], tuple(e.queue)))
    if s.agenda and s.agenda[-1].kind in s.rules.resolves.get(ev.ActionTilesRotated, ()):
        # an effect rotates at once: its expansion remembers the tile (ROT-6, `extend_event`)
        return _set_players_agenda(s, players, s.agenda[:-1])
    return _set_players_turn(s, players, _turn_rotated(s.turn, True))


@_on(ev.CometPlacedInBook, "BOOK")
def _comet_placed(s: GameState, e: ev.CometPlacedInBook) -> GameState:
    p = s.players[e.seat]
    comets = list(p.comets)
    comets[e.comet] = "book"
    agenda = resolved_if(s, e)  # AMB-6: placed at once, else in Cleanup step 2
    if e.page == "appendix":  # BOC-4
        s = player_with(s, e.seat, comets=tuple(comets), appendix=p.appendix + 1)
        return replace(s, agenda=agenda)
    index = next((i for i, page in enumerate(s.catalog.book_pages) if page.id == e.page), -1)
    if index < 0:  # BOC-5, CHAR-3: the seat's personal page
        part = character_of(p)
        if part is None or e.page in part.pages:
            raise _Misfit(f"expected an empty page of the Book of Comets, not {e.page!r} (BOC-3, BOC-5)")
        p = with_character(replace(p, comets=tuple(comets)), replace(part, pages=(*part.pages, e.page)))
        players = list(s.players)
        players[e.seat] = p
        return replace(s, players=tuple(players), agenda=agenda)
    pages = list(s.pages)
    pages[index] = e.seat
    s = player_with(s, e.seat, comets=tuple(comets))
    return replace(s, pages=tuple(pages), agenda=agenda)


@_on(ev.InterrogationHeld)
def _interrogated(s: GameState, e: ev.InterrogationHeld) -> GameState:
    s = player_with(s, e.seat, reputation=e.end)
    return replace(s, turn=turn_with(s, interrogated=True))


@_on(ev.ObjectiveAchieved)
def _objective(s: GameState, e: ev.ObjectiveAchieved) -> GameState:
    index = s.objectives.index(e.objective)
    claims = list(s.claims)
    claims[index] = (*claims[index], e.seat)
    p = s.players[e.seat]
    s = player_with(s, e.seat, achievements=(*p.achievements, e.objective))
    return replace(s, claims=tuple(claims))  # OBJ-3, OBJ-5: the points and the Farewell are grants


# -- the table (docs/async.md): facts about seats and clocks change nothing in the game ----------------


def _unchanged(s: GameState, e: ev.Event) -> GameState:
    return s


@_on(ev.SeatFrozen)
def _frozen(s: GameState, e: ev.SeatFrozen) -> GameState:
    return freeze(s, e.seat)  # ASYNC-3: domain/forfeit.py


@_on(ev.SeatHandedOver)
def _handed_over(s: GameState, e: ev.SeatHandedOver) -> GameState:
    return apply_handover(s, e)  # a frozen seat handed to a bot or a person plays again


for _fact in ev.TABLE_EVENTS:  # the other facts of the table change nothing in the game
    if _fact is not ev.TakenBack:  # a take-back returns to an earlier state: domain/takeback.py
        RULES.events.setdefault(_fact, _unchanged)
