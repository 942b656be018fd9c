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
from domain.grants import as_tasks, granted, moved_on, records_grants
from domain.options import Options
from domain.ruleset import Pins, Rules, ruleset_for
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
            raise EventDoesNotFit(event.type, "a game's first event must be GameStarted")
        return _started(event)
    if isinstance(event, ev.GrantingEvent):
        return _granting(state, event)
    return apply_facts(state, event)


def apply_facts(state: GameState, event: ev.Event) -> GameState:
    """The event's own facts, and the effect it resolves taken off the agenda; not what it grants."""
    handler = state.rules.handlers.get(type(event))
    if handler is None:
        expected = "only a game's first event" if isinstance(event, ev.GameStarted) else "a known event type"
        raise EventDoesNotFit(event.type, f"expected {expected}")
    try:
        after: GameState = handler(state, event)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError) as exc:
        if isinstance(exc, EventDoesNotFit | EditionUnknown):
            raise
        raise _not_fitting(event, exc) from exc
    if isinstance(event, ev.PlayerEvent) and event.seat is not None:
        player = after.players[event.seat]
        if player.parts:  # an ability that remembers what its seat did (Hevelius, CHAR-HEV-2)
            return rules_for(state, player).witness(after, event)
    return after


def _not_fitting(event: ev.Event, exc: Exception) -> EventDoesNotFit:
    """A handler's failure as the event not fitting the state."""
    reason = str(exc) if isinstance(exc, _Misfit) else f"{type(exc).__name__}: {exc}"
    return EventDoesNotFit(event.type, reason)


def _granting(before: GameState, event: ev.GrantingEvent) -> GameState:
    """A granting event with what it grants pushed: its recorded `grants`; only a game of rules 0.1.0,
    whose events recorded none, derives them from the state after its facts (domain/grants.py,
    docs/editions.md)."""
    if event.grants is not None:
        return with_grants_applied(before, event, as_tasks(event.grants))
    if records_grants(before):
        raise EventDoesNotFit(
            event.type,
            f"an event of rules {before.engine_version} records what it grants, and this one has no grants",
        )
    after = apply_facts(before, event)
    return pushed(after, granted(before, after, event))


def with_grants_applied(before: GameState, event: ev.GrantingEvent, tasks: Sequence[Task]) -> GameState:
    """The event's facts with `tasks` (what it grants, first to resolve first) pushed on the agenda: in
    the handler's one copy of the state when it pushes (`Rules.event(..., pushes=True)`), else by a
    copy of their own. An ability that remembers its seat's events sees the state with them pushed."""
    pusher = before.rules.pushers.get(type(event))
    if pusher is None:
        return pushed(apply_facts(before, event), tasks)
    try:
        after: GameState = pusher(before, event, tasks)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError) as exc:
        if isinstance(exc, EventDoesNotFit | EditionUnknown):
            raise
        raise _not_fitting(event, exc) from exc
    player = after.players[event.seat]
    if player.parts:  # as in `apply_facts`
        return rules_for(before, player).witness(after, event)
    return after


def decided(before: GameState, event: ev.GrantingEvent) -> tuple[GameState, list[Task]]:
    """The decider's granting event, whose grants it derives: the state after it, grants pushed, and the
    grants. A grant rule that needs no state after (`Rules.grant_ahead`) is computed first, so that a
    pushing handler makes the only copy; that is what `granted` gives when no ability of the seat reacts
    (the seat has no parts, before or after). Otherwise the grants are derived from the state after."""
    ahead = before.rules.ahead.get(type(event))
    if ahead is not None and not before.players[event.seat].parts:
        tasks: list[Task] = ahead(before, event)
        after = with_grants_applied(before, event, tasks)
        if not after.players[event.seat].parts:
            return after, tasks
    after = apply_facts(before, event)
    tasks = granted(before, after, event)
    return pushed(after, tasks), tasks


def pushed(after: GameState, tasks: Sequence[Task]) -> GameState:
    """`after` with `tasks` pushed on its agenda (a copy; `after` itself when there are none)."""
    if not tasks:
        return after
    return _set_agenda(after, push(after.agenda, tasks))


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
_set_players_turn_agenda = changer(GameState, "players", "turn", "agenda")
# The rarer events that change more of the board: the unchanged fields are passed as they are.
_set_board = changer(
    GameState,
    "players",
    "display",
    "covers",
    "deck",
    "reserve",
    "supply",
    "pages",
    "claims",
    "turn",
    "agenda",
)
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
_seat_queue = changer(PlayerState, "queue")


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


@_on(ev.TelescopeMoved, pushes=True)
def _moved(s: GameState, e: ev.TelescopeMoved, grants: Sequence[Task]) -> GameState:
    at = s.players[e.seat].telescope
    if at != e.start or s.turn.phase != "movement" or e.seat != s.turn.seat:
        expected = f"seat {s.turn.seat} to move in its Movement phase from sky space {at}"
        raise EventDoesNotFit("TelescopeMoved", f"expected {expected} (MOV-1)")
    players = seated(s, e.seat, _seat_telescope(s.players[e.seat], e.end))
    turn = _turn_phase_space(s.turn, "actions", e.end)
    return _set_players_turn_agenda(s, players, turn, push(s.agenda, grants))  # MOV-5: grants


@_on(ev.FixedActionTaken, pushes=True)
def _fixed(s: GameState, e: ev.FixedActionTaken, grants: Sequence[Task]) -> GameState:
    if lent(s) == "fixed-action":  # an effect lent it: not the turn's own fixed action
        return _set_agenda(s, push(s.agenda[:-1], grants))
    return _set_players_turn_agenda(s, s.players, _turn_fixed_done(s.turn, True), push(s.agenda, grants))


@_on(ev.MovingActionTaken, pushes=True)
def _moving(s: GameState, e: ev.MovingActionTaken, grants: Sequence[Task]) -> GameState:
    if not e.tile:  # UPG-2: the Upgrade space gives a Quadrant instead of a moving action
        return _set_players_turn_agenda(s, s.players, _turn_moving_done(s.turn, True), push(s.agenda, grants))
    return _set_players_turn_agenda(
        s, s.players, _turn_moving_done_tile(s.turn, True, e.tile), push(s.agenda, grants)
    )


@_on(ev.FreeActionBought, pushes=True)
def _free(s: GameState, e: ev.FreeActionBought, grants: Sequence[Task]) -> GameState:
    p = s.players[e.seat]
    players = seated(s, e.seat, _seat_quadrants(p, p.quadrants - e.cost))  # FREE-1
    return _set_players_agenda(s, players, push(s.agenda, grants))


@_on(ev.ActionPhaseEnded)
def _actions_ended(s: GameState, e: ev.ActionPhaseEnded) -> GameState:
    return _set_turn(s, _turn_phase(s.turn, "cleanup"))


@_on(ev.FreeActionsClosed)
def _free_closed(s: GameState, e: ev.FreeActionsClosed) -> GameState:
    # the first window closes before step 4 (1), the last after it (2)
    return _set_turn(s, replace(s.turn, windows_closed=1 if s.turn.objectives_due is None else 2))


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
    return replace(s, turn=_turn_phase(s.turn, "over"), winners=tuple(e.winners))


# -- observing -----------------------------------------------------------------------------------


def _payment(
    s: GameState, p: PlayerState, dice: Sequence[Sequence[Any]], comets: Sequence[int], own_fixed: bool
) -> tuple[tuple[Die, ...], tuple[str, ...], tuple[int, ...], TurnState]:
    """OBS-20..34: what a payment leaves, for the caller's one copy: the seat's dice without the spent
    ones, its comets with each used one moved on (sky1 -> sky2 -> Book), the supply with the spent dice
    back, and the turn with its fixed action done (unless an effect lent it) and the comets used (OBS-31)."""
    held = list(p.dice)
    supply = list(s.supply)
    for d in dice:
        held.remove((d[0], d[1]))
        supply[COLOURS.index(d[0])] += 1
    turn = replace(
        s.turn, fixed_done=s.turn.fixed_done or own_fixed, comets_used=s.turn.comets_used | frozenset(comets)
    )
    return tuple(held), moved_on(p.comets, comets), tuple(supply), turn


def observe_major(s: GameState, seat: int, dice: Sequence[Sequence[Any]], comets: Sequence[int]) -> GameState:
    """A Major Object ends the Observe action (OBS-1); lent by an effect, it is not the turn's own
    fixed action (AMB-21). Then pay (OBS-20..34)."""
    agenda, outside = _major_agenda(s)
    held, states, supply, turn = _payment(s, s.players[seat], dice, comets, own_fixed=not outside)
    players = seated(s, seat, replace(s.players[seat], dice=held, comets=states))
    return _set_board(
        s, players, s.display, s.covers, s.deck, s.reserve, supply, s.pages, s.claims, turn, agenda
    )


def _major_agenda(s: GameState) -> tuple[tuple[Task, ...], bool]:
    """The agenda once a Major Object is observed (the Observe action, or the effect that lent the
    observation, taken off), and whether an effect lent it."""
    outside = bool(lent(s))
    top = s.agenda[-1].kind if s.agenda else ""
    return (s.agenda[:-1] if top == "OBSERVE" or outside else s.agenda), outside


@_on(ev.MajorObjectObserved, pushes=True)
def _major(s: GameState, e: ev.MajorObjectObserved, grants: Sequence[Task]) -> GameState:
    agenda, outside = _major_agenda(s)
    p = s.players[e.seat]
    held, states, supply, turn = _payment(s, p, e.dice, e.comets, own_fixed=not outside)
    players = list(s.players)
    boxed = [0] * len(players)
    for seat in s.covers[e.space]:  # OBS-42: Constellation tokens on the taken card go to the box
        if seat >= 0:
            boxed[seat] += 1
    for seat, n in enumerate(boxed):
        if n and seat != e.seat:
            players[seat] = replace(players[seat], tokens_boxed=players[seat].tokens_boxed + n)
    library = (*p.library, (e.card, True))  # OBS-41, LIB-2
    players[e.seat] = replace(
        p, dice=held, comets=states, tokens_boxed=p.tokens_boxed + boxed[e.seat], library=library
    )
    display = list(s.display)
    display[e.space] = None
    covers = list(s.covers)
    covers[e.space] = ()
    agenda = push(agenda, grants)  # OBS-40, OBS-43: grants
    return _set_board(
        s,
        tuple(players),
        tuple(display),
        tuple(covers),
        s.deck,
        s.reserve,
        supply,
        s.pages,
        s.claims,
        turn,
        agenda,
    )


@_on(ev.ConstellationObserved, pushes=True)
def _constellation(s: GameState, e: ev.ConstellationObserved, grants: Sequence[Task]) -> GameState:
    agenda = s.agenda
    top = agenda[-1].kind if agenda else ""
    outside = lent(s)
    if top == "OBSERVE":
        left = agenda[-1].n - 1
        agenda = agenda[:-1] + ((replace(agenda[-1], n=left),) if left else ())
    elif outside:  # an effect lent the observation: outside the turn's own Observe action
        agenda = agenda[:-1]
    # else the first observation of an Observe action: the constellations that may follow are a grant
    p = s.players[e.seat]
    held, states, supply, turn = _payment(s, p, e.dice, e.comets, own_fixed=not outside)
    covers = list(s.covers)
    row = list(covers[e.space])
    row[e.index] = e.seat
    covers[e.space] = tuple(row)
    players = seated(s, e.seat, replace(p, dice=held, comets=states, tokens_used=p.tokens_used + 1))  # OBS-50
    agenda = push(agenda, grants)
    return _set_board(
        s, players, s.display, tuple(covers), s.deck, s.reserve, supply, s.pages, s.claims, turn, agenda
    )


@_on(ev.ObservationEnded, "OBSERVE")
def _observation_ended(s: GameState, e: ev.ObservationEnded) -> GameState:
    return _set_agenda(s, resolved(s, e))


@_on(ev.CardDealt, "REFILL")
def _dealt(s: GameState, e: ev.CardDealt) -> GameState:
    display = list(s.display)
    display[e.space] = e.card
    covers = list(s.covers)
    covers[e.space] = (-1,) * len(s.catalog.cards[e.card].constellations)
    deck, reserve = (s.deck, s.reserve[1:]) if e.from_reserve else (s.deck[1:], s.reserve)
    agenda = resolved(s, e)
    return _set_board(
        s,
        s.players,
        tuple(display),
        tuple(covers),
        deck,
        reserve,
        s.supply,
        s.pages,
        s.claims,
        s.turn,
        agenda,
    )


@_on(ev.CardDrawnFaceDown, "CARD")
def _face_down(s: GameState, e: ev.CardDrawnFaceDown) -> GameState:
    p = s.players[e.seat]
    players = seated(s, e.seat, replace(p, library=(*p.library, (e.card, False))))  # OBS-52, LIB-2
    deck, reserve = (s.deck, s.reserve[1:]) if e.from_reserve else (s.deck[1:], s.reserve)
    agenda = resolved(s, e)
    return _set_board(
        s, players, s.display, s.covers, deck, reserve, s.supply, s.pages, s.claims, s.turn, agenda
    )


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


@_on(ev.InquisitorGained, "INQ")
def _inquisitor(s: GameState, e: ev.InquisitorGained) -> GameState:
    p = s.players[e.seat]
    p = replace(p, cellar=(p.cellar[0] + 1, *p.cellar[1:]))  # INQ-2
    turn = replace(s.turn, cellar_peak=cellar_peak_of(s, p))
    return _set_players_turn_agenda(s, seated(s, e.seat, p), turn, resolved(s, e))


@_on(ev.FarewellTaken, "FW", pushes=True)
def _farewell(s: GameState, e: ev.FarewellTaken, grants: Sequence[Task]) -> GameState:
    p = s.players[e.seat]
    players = seated(s, e.seat, replace(p, cellar=(*p.cellar[:-1], p.cellar[-1] - 1)))  # INQ-15
    return _set_players_agenda(s, players, push(resolved(s, e), grants))


@_on(ev.FarewellDeclined, "FW")
def _farewell_declined(s: GameState, e: ev.FarewellDeclined) -> GameState:
    return _set_agenda(s, resolved(s, e))


@_on(ev.CometSpotted, "SPOT")
def _spotted(s: GameState, e: ev.CometSpotted) -> GameState:
    p = s.players[e.seat]
    comets = list(p.comets)
    comets[e.comet] = "sky1"  # SPOT-1
    return _set_players_agenda(s, seated(s, e.seat, replace(p, comets=tuple(comets))), resolved(s, e))


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


@_on(ev.CometPlacedInBook, "BOOK", pushes=True)
def _comet_placed(s: GameState, e: ev.CometPlacedInBook, grants: Sequence[Task]) -> GameState:
    p = s.players[e.seat]
    comets = list(p.comets)
    comets[e.comet] = "book"
    agenda = push(resolved_if(s, e), grants)  # AMB-6: placed at once, else in Cleanup step 2
    if e.page == "appendix":  # BOC-4
        players = seated(s, e.seat, replace(p, comets=tuple(comets), appendix=p.appendix + 1))
        return _set_players_agenda(s, players, agenda)
    index = next((i for i, page in enumerate(s.catalog.book_pages) if page.id == e.page), -1)
    if index < 0:  # BOC-5, CHAR-3: the seat's personal page
        part = character_of(p)
        if part is None or e.page in part.pages:
            raise _Misfit(f"expected an empty page of the Book of Comets, not {e.page!r} (BOC-3, BOC-5)")
        p = with_character(replace(p, comets=tuple(comets)), replace(part, pages=(*part.pages, e.page)))
        return _set_players_agenda(s, seated(s, e.seat, p), agenda)
    pages = list(s.pages)
    pages[index] = e.seat
    players = seated(s, e.seat, replace(p, comets=tuple(comets)))
    return _set_board(
        s, players, s.display, s.covers, s.deck, s.reserve, s.supply, tuple(pages), s.claims, s.turn, agenda
    )


@_on(ev.InterrogationHeld, pushes=True)
def _interrogated(s: GameState, e: ev.InterrogationHeld, grants: Sequence[Task]) -> GameState:
    players = seated(s, e.seat, replace(s.players[e.seat], reputation=e.end))
    turn = replace(s.turn, interrogated=True)
    return _set_players_turn_agenda(s, players, turn, push(s.agenda, grants))


@_on(ev.ObjectiveAchieved, pushes=True)
def _objective(s: GameState, e: ev.ObjectiveAchieved, grants: Sequence[Task]) -> GameState:
    index = s.objectives.index(e.objective)
    claims = list(s.claims)
    claims[index] = (*claims[index], e.seat)
    p = s.players[e.seat]
    players = seated(s, e.seat, replace(p, achievements=(*p.achievements, e.objective)))
    # OBJ-3, OBJ-5: the points and the Farewell are grants
    agenda = push(s.agenda, grants)
    return _set_board(
        s, players, s.display, s.covers, s.deck, s.reserve, s.supply, s.pages, tuple(claims), s.turn, agenda
    )


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
