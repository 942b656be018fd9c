"""Turning a legal command, or an automatic step, into events (the body of `decide`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain import commands as c
from domain import events as ev
from domain.effect_kinds import Emitter, effect_kind, interrupt_due, lent
from domain.evolve import decided, evolve
from domain.forfeit import is_frozen
from domain.grants import as_grants, records_grants, with_grants
from domain.moves import (
    CHOICE,
    FREE_COSTS,
    cleanup_step,
    decision_options,
    free_comets,
    next_objective,
    options,
    tile_to_rotate,
)
from domain.opponents import Opponent, opponents_in
from domain.ruleset import Rules, Ruleset
from domain.scoring import (
    cellar_points,
    claimable_objective_of,
    interrogation,
    reputation_points,
    tiebreak_key,
    university_points,
    winners,
)
from domain.setup import character_deals
from domain.state import SKY, UPGRADE, GameState, Task, replace

RULES = Rules(__name__)  # the base game's commands (domain/ruleset.py)
RULES.point_rules.update(
    {
        "observation": "OBS-40",
        "constellation": "OBS-51",
        "constellation-slot": "OBS-51",
        "library": "WRT-4",
        "action-tile": "ICON-1",
        "lecture": "LEC-1",
        "book": "BOC-2",
        "objective": "OBJ-3",
        "inquisition": "INQ-24",
        "university": "SCO-2",
        "cellar": "SCO-3",
        "reputation": "SCO-4",
    }
)  # the rule of each source of points; a plug-in declares its own


class Run:
    """Collects the events of one `decide` call, evolving a working state as it goes."""

    __slots__ = ("events", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[ev.Event] = []

    def emit(self, event: ev.Event) -> None:
        """Record `event` and apply it. The decider decides what a granting event grants and writes it
        into the event (domain/grants.py): replay then only applies it (rules 0.1.0 games excepted)."""
        state = self.state
        if isinstance(event, ev.GrantingEvent) and event.grants is None and records_grants(state):
            self.state, tasks = decided(state, event)
            event = with_grants(event, as_grants(tasks))
        else:
            self.state = evolve(state, event)
        self.events.append(event)


def advance(run: Run) -> list[c.Command] | None:
    """Take automatic steps, and commands that are the only legal one, until a player must choose.
    Returns the legal moves where it stopped when it had to build their complete list to know it must
    stop (the caller may hand them over with the state: `engine.Played`), else None."""
    while True:
        opts = options(run.state, complete=False)
        if opts is None:
            auto_step(run)
        elif len(opts) == 1:
            apply_command(run, opts[0])
        else:
            return None if opts is CHOICE else opts


def _trigger_end(run: Emitter, rule: str) -> None:
    """END-1/END-3: finish this round, then one more full round from the first player."""
    s = run.state
    if s.last_turn is not None:
        return
    n = len(s.players)
    last = (s.turn.number // n + 2) * n - 1
    run.emit(ev.EndOfGameTriggered(seat=s.turn.seat, turn=s.turn.number, last_turn=last, rule=rule))


def draw_card(run: Emitter, task: Task) -> None:
    """A board refill (OBS-43) or a face-down gain (OBS-52); END-1, END-4, AMB-10."""
    s = run.state
    seat = s.turn.seat
    refill = task.kind == "REFILL"
    if s.deck:
        card, from_reserve = s.deck[0], False
    elif s.reserve:
        card, from_reserve = s.reserve[0], True
    else:
        what = "board refill" if refill else "face-down card"
        run.emit(
            ev.EffectLost(seat=seat, effect=task.kind, reason=f"no card left for the {what}", rule="END-4")
        )
        return
    if refill:
        run.emit(
            ev.CardDealt(
                seat=seat,
                space=task.n,
                card=card,
                from_reserve=from_reserve,
                rule="END-4" if from_reserve else "OBS-43",
            )
        )
    else:
        info = s.catalog.cards[card]
        run.emit(
            ev.CardDrawnFaceDown(
                seat=seat,
                card=card,
                from_reserve=from_reserve,
                tier=info.tier,
                back=info.back,
                rule="END-4" if from_reserve else "OBS-52",
            )
        )
    emptied = not from_reserve and not run.state.deck
    if emptied and (refill or s.options.end_trigger_on_face_down_draw):
        _trigger_end(run, "END-1" if refill else "AMB-10")
    elif from_reserve and refill:
        _trigger_end(run, "END-1")  # endTriggerOnFaceDownDraw=false: the next refill triggers it


def auto_task(run: Run, task: Task) -> None:
    """An automatic effect resolves itself as its kind defines (domain/concepts/); a choice effect with
    no option is lost (RES-4)."""
    kind = effect_kind(run.state, task.kind)
    if kind.resolve is not None:
        kind.resolve(run, task)
        return
    if kind.lost is None:
        raise ValueError(f"effect {task.kind} has no option and no reason to be lost")
    reason, rule = kind.lost
    run.emit(ev.EffectLost(seat=run.state.turn.seat, effect=task.kind, reason=reason, rule=rule))


def auto_step(run: Run) -> None:
    s = run.state
    interrupt = interrupt_due(s)  # an expansion's steps that come between any two (domain/expansions/)
    if interrupt is not None:
        interrupt.step(run)
        return
    if s.turn.phase == "scoring":
        final_scoring(run)
        return
    opponents = s.rules.opponents
    opponent = opponents.get(s.players[s.turn.seat].character) if opponents else None  # `opponent_at`
    if opponent is not None and opponent_step(run, opponent):
        return
    if s.agenda:
        auto_task(run, s.agenda[-1])
        return
    seat = s.turn.seat
    p = s.players[seat]
    step = cleanup_step(s)
    if step == "rotate":
        tile = tile_to_rotate(s)
        assert tile is not None
        i = p.queue.index(tile)
        queue = (p.queue[i], *p.queue[:i], *p.queue[i + 1 :])  # ROT-2
        run.emit(ev.ActionTilesRotated(seat=seat, tile=tile, queue=queue))
    elif step == "interrogate":
        total, end, overflow = interrogation(s, p)
        run.emit(
            ev.InterrogationHeld(
                seat=seat,
                total=total,
                start=p.reputation,
                end=end,
                overflow=overflow,
                rule="INQ-24" if overflow else "INQ-21",
            )
        )
    elif step == "check":
        met = tuple(o for o in s.objectives if claimable_objective_of(s, p, o))
        run.emit(ev.ObjectivesChecked(seat=seat, met=met))
    elif step == "objective":
        objective = next_objective(s, p)
        assert objective is not None
        first = not s.claims[s.objectives.index(objective)]
        run.emit(ev.ObjectiveAchieved(seat=seat, objective=objective, first=first))
    elif step == "end":
        run.emit(ev.TurnEnded(seat=seat, turn=s.turn.number))
    else:  # pragma: no cover - "book" and "window" are player decisions
        raise AssertionError(f"cleanup step {step} is not automatic")


def opponent_step(run: Run, opponent: Opponent) -> bool:
    """A step of a non-player opponent's turn (domain/opponents.py): its own step when nothing is
    pending, else the decision the base rules ask, made by its rules; False: the base engine's step."""
    if not run.state.agenda and opponent.step(run):
        return True
    decision = decision_options(run.state)
    if decision:
        apply_command(run, opponent.choose(run.state, decision))
        return True
    return False


def final_scoring(run: Run) -> None:
    """SCO-1: University, then the Inquisition (cellar, then reputation); then TIE-1."""
    s = run.state
    for p in s.players:
        if is_frozen(s, p.seat):
            continue  # ASYNC-3: a forfeited seat's score is frozen (domain/forfeit.py)
        for _subject, vp in university_points(s, p):
            if vp:
                run.emit(ev.VictoryPointsScored(seat=p.seat, points=vp, source="university", rule="SCO-2"))
        vp = cellar_points(s, p)
        if vp:
            run.emit(ev.VictoryPointsScored(seat=p.seat, points=vp, source="cellar", rule="SCO-3"))
        vp = reputation_points(s, p)
        if vp:
            run.emit(ev.VictoryPointsScored(seat=p.seat, points=vp, source="reputation", rule="SCO-4"))
    for _seat, opponent in opponents_in(run.state):
        opponent.before_end(run)  # e.g. reveal its hidden deal (domain/opponents.py)
    s = run.state
    deck, box, reserve, *extra = s.dealt
    decided = [w for _seat, o in opponents_in(s) if (w := o.winners(s)) is not None]
    run.emit(
        ev.GameEnded(
            seat=None,
            scores=tuple(p.score for p in s.players),
            winners=decided[0] if decided else winners(s),
            tiebreak=tuple(tiebreak_key(p) for p in s.players),
            seed=s.seed,
            salt=s.salt,
            deck=deck,
            box=box,
            reserve=reserve,
            moon=extra[0] if extra else (),  # an expansion's hidden order (`ExtraDeal`)
            character_deals=character_deals(s),
        )
    )


# -- commands: one function per command type, each emitting the events of a legal command -----------

CommandHandler = Callable[[Run, Any, Task | None], None]
_command = RULES.command


def paid_comets(s: GameState, cmd: c.Observe) -> tuple[int, ...]:
    """OBS-31: the comets an observation applies, the lowest of each kind first."""
    sky1, sky2 = free_comets(s, cmd.seat)
    return tuple(sky1[: cmd.comets1] + sky2[: cmd.comets2])


def apply_command(run: Run, cmd: c.Command) -> None:
    """Emit the events of a command already known to be legal (its type's handler, given the pending
    effect it answers, if any)."""
    handler = run.state.rules.commands.get(type(cmd))
    if handler is None:  # pragma: no cover - every command type has its handler
        raise TypeError(f"unknown command {cmd!r}")
    s = run.state
    handler(run, cmd, s.agenda[-1] if s.agenda else None)


@_command(c.Move)
def _move(run: Run, cmd: c.Move, task: Task | None) -> None:
    p = run.state.players[cmd.seat]
    pos, wrapped = p.telescope, False
    for _ in range(cmd.steps):  # MOV-3, MOV-5
        wrapped = wrapped or pos == UPGRADE
        pos = 2 if pos in (1, UPGRADE) else pos + 1
    run.emit(ev.TelescopeMoved(seat=cmd.seat, start=p.telescope, end=pos, steps=cmd.steps, wrapped=wrapped))


@_command(c.Observe)
def _observe(run: Run, cmd: c.Observe, task: Task | None) -> None:
    s, seat = run.state, cmd.seat
    comets = paid_comets(s, cmd)
    parts = cmd.target.split(":")
    space = s.display.index(parts[1])
    card = s.catalog.cards[parts[1]]
    # a later observation of an Observe that a character's rule allows names that rule (CHAR-GAL-2)
    ability = task.source if task is not None and task.kind == "OBSERVE" and task.source else ""
    observed: ev.Event
    if parts[0] == "MO":
        observed = ev.MajorObjectObserved(
            seat=seat, card=card.id, space=space, dice=cmd.dice, comets=comets, cost=card.major.cost
        )
        run.emit(replace(observed, rule=ability) if ability else observed)
        return
    index = int(parts[2])
    observed = ev.ConstellationObserved(
        seat=seat,
        card=card.id,
        space=space,
        index=index,
        dice=cmd.dice,
        comets=comets,
        cost=card.constellations[index].cost,
        slot=s.players[seat].tokens_used,
    )
    run.emit(replace(observed, rule=ability) if ability else observed)


@_command(c.StopObserving)
def _stop_observing(run: Run, cmd: c.StopObserving, task: Task | None) -> None:
    run.emit(ev.ObservationEnded(seat=cmd.seat))


@_command(c.TakeFixed)
def _take_fixed(run: Run, cmd: c.TakeFixed, task: Task | None) -> None:
    # an effect that lends the fixed action names its space; the turn's own is the Movement phase's
    where = task.n if task is not None and lent(run.state) == "fixed-action" else run.state.turn.space
    run.emit(ev.FixedActionTaken(seat=cmd.seat, action=cmd.action, space=SKY[where]))


@_command(c.UseTile)
def _use_tile(run: Run, cmd: c.UseTile, task: Task | None) -> None:
    if cmd.option == 0:
        run.emit(ev.MovingActionTaken(seat=cmd.seat, tile="", option=0, upgraded=False, rule="UPG-2"))
        return
    p = run.state.players[cmd.seat]
    tile = p.queue[run.state.turn.space]  # AMB-21: the Movement phase's space
    run.emit(ev.MovingActionTaken(seat=cmd.seat, tile=tile, option=cmd.option, upgraded=tile in p.upgraded))


@_command(c.BuyFree)
def _buy_free(run: Run, cmd: c.BuyFree, task: Task | None) -> None:
    run.emit(ev.FreeActionBought(seat=cmd.seat, action=cmd.action, cost=FREE_COSTS[cmd.action]))


@_command(c.EndActions)
def _end_actions(run: Run, cmd: c.EndActions, task: Task | None) -> None:
    run.emit(ev.ActionPhaseEnded(seat=cmd.seat))


@_command(c.EndFreeActions)
def _end_free_actions(run: Run, cmd: c.EndFreeActions, task: Task | None) -> None:
    run.emit(ev.FreeActionsClosed(seat=cmd.seat))


@_command(c.Farewell)
def _farewell(run: Run, cmd: c.Farewell, task: Task | None) -> None:
    run.emit(ev.FarewellTaken(seat=cmd.seat) if cmd.accept else ev.FarewellDeclined(seat=cmd.seat))


@_command(c.PlaceComet)
def _place_comet(run: Run, cmd: c.PlaceComet, task: Task | None) -> None:
    comet = run.state.players[cmd.seat].comets.index("pending")
    rule = "BOC-4" if cmd.page == "appendix" else "BOC-2"
    run.emit(ev.CometPlacedInBook(seat=cmd.seat, comet=comet, page=cmd.page, rule=rule))


def unhandled_commands(rules: Ruleset) -> list[str]:
    """Command types with no handler in `rules` (a test keeps this empty for the rules of every plug-in)."""
    from domain.vocabulary import COMMAND_CLASSES  # the plug-ins the vocabulary composes import this module

    return sorted(cls.__name__ for cls in COMMAND_CLASSES if cls not in rules.commands)
