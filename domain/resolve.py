"""Turning a legal command, or an automatic step, into events (the body of `decide`)."""

from __future__ import annotations

from domain import commands as c
from domain import events as ev
from domain.catalog.luna import POSITIONS
from domain.effect_kinds import Emitter, effect_kind
from domain.evolve import evolve
from domain.forfeit import is_frozen
from domain.luna import phase_due
from domain.moves import (
    FREE_COSTS,
    cleanup_step,
    free_comets,
    library_end,
    next_objective,
    options,
    tile_to_rotate,
)
from domain.scoring import (
    cellar_points,
    claimable_objective_of,
    interrogation,
    reputation_points,
    tiebreak_key,
    university_points,
    winners,
)
from domain.state import SKY, UPGRADE, GameState, Task

POINT_RULES = {
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
    "moon": "LUNA-23",
    "scoring-tile": "LUNA-23",
    "bonus-board": "LUNA-42",
    "moon-objective": "LUNA-80",
}


class Run:
    """Collects the events of one `decide` call, evolving a working state as it goes."""

    __slots__ = ("events", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[ev.Event] = []

    def emit(self, event: ev.Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


def advance(run: Run) -> None:
    """Take automatic steps, and commands that are the only legal one, until a player must choose."""
    while True:
        opts = options(run.state)
        if opts is None:
            auto_step(run)
        elif len(opts) == 1:
            apply_command(run, opts[0])
        else:
            return


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
    kind = effect_kind(task.kind)
    if kind.resolve is not None:
        kind.resolve(run, task)
        return
    if kind.lost is None:
        raise ValueError(f"effect {task.kind} has no option and no reason to be lost")
    reason, rule = kind.lost
    run.emit(ev.EffectLost(seat=run.state.turn.seat, effect=task.kind, reason=reason, rule=rule))


def advance_phase(run: Run) -> None:
    """LUNA-31/32: reveal the next column of Scoring tiles; the Dividing tile goes to the box."""
    s = run.state
    assert s.luna is not None
    phase = s.luna.phase + 1
    column = phase - 1
    revealed = s.luna.scoring[column * 3 : column * 3 + 3]
    run.emit(ev.MoonPhaseAdvanced(seat=s.turn.seat, phase=phase, revealed=revealed))


def auto_step(run: Run) -> None:
    s = run.state
    if phase_due(s):
        advance_phase(run)
        return
    if s.turn.phase == "scoring":
        final_scoring(run)
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
    s = run.state
    deck, box, reserve, *moon = s.dealt
    run.emit(
        ev.GameEnded(
            seat=None,
            scores=tuple(p.score for p in s.players),
            winners=winners(s),
            tiebreak=tuple(tiebreak_key(p) for p in s.players),
            seed=s.seed,
            salt=s.salt,
            deck=deck,
            box=box,
            reserve=reserve,
            moon=moon[0] if moon else (),
        )
    )


def apply_command(run: Run, cmd: c.Command) -> None:
    """Emit the events of a command already known to be legal."""
    s = run.state
    seat = cmd.seat
    p = s.players[seat]
    task = s.agenda[-1] if s.agenda else None
    if isinstance(cmd, c.Move):
        pos, wrapped = p.telescope, False
        for _ in range(cmd.steps):  # MOV-3, MOV-5
            wrapped = wrapped or pos == UPGRADE
            pos = 2 if pos in (1, UPGRADE) else pos + 1
        run.emit(ev.TelescopeMoved(seat=seat, start=p.telescope, end=pos, steps=cmd.steps, wrapped=wrapped))
    elif isinstance(cmd, c.Observe):
        sky1, sky2 = free_comets(s, seat)
        comets = tuple(sky1[: cmd.comets1] + sky2[: cmd.comets2])
        parts = cmd.target.split(":")
        if parts[0] == "MOON":
            assert s.luna is not None
            index = POSITIONS.index(parts[1])
            scoring, cost = s.luna.scoring[index], s.luna.costs[0]
            run.emit(
                ev.MoonObserved(
                    seat=seat, tile=parts[1], scoring=scoring, dice=cmd.dice, comets=comets, cost=cost
                )
            )
            return
        space = s.display.index(parts[1])
        card = s.catalog.cards[parts[1]]
        if parts[0] == "MO":
            run.emit(
                ev.MajorObjectObserved(
                    seat=seat, card=card.id, space=space, dice=cmd.dice, comets=comets, cost=card.major.cost
                )
            )
        else:
            index = int(parts[2])
            run.emit(
                ev.ConstellationObserved(
                    seat=seat,
                    card=card.id,
                    space=space,
                    index=index,
                    dice=cmd.dice,
                    comets=comets,
                    cost=card.constellations[index].cost,
                    slot=p.tokens_used,
                )
            )
    elif isinstance(cmd, c.StopObserving):
        run.emit(ev.ObservationEnded(seat=seat))
    elif isinstance(cmd, c.TakeFixed):
        where = task.n if task is not None and task.kind == "FIXEDAT" else s.turn.space
        run.emit(ev.FixedActionTaken(seat=seat, action=cmd.action, space=SKY[where]))
    elif isinstance(cmd, c.UseTile):
        if cmd.option == 0:
            run.emit(ev.MovingActionTaken(seat=seat, tile="", option=0, upgraded=False, rule="UPG-2"))
        else:
            tile = p.queue[s.turn.space]  # AMB-21: the Movement phase's space
            run.emit(
                ev.MovingActionTaken(seat=seat, tile=tile, option=cmd.option, upgraded=tile in p.upgraded)
            )
    elif isinstance(cmd, c.BuyFree):
        run.emit(ev.FreeActionBought(seat=seat, action=cmd.action, cost=FREE_COSTS[cmd.action]))
    elif isinstance(cmd, c.EndActions):
        run.emit(ev.ActionPhaseEnded(seat=seat))
    elif isinstance(cmd, c.EndFreeActions):
        run.emit(ev.FreeActionsClosed(seat=seat))
    elif isinstance(cmd, c.Persuade):
        if task is not None and task.kind == "ADVANCE":  # LUNA-BB-5: straight to the rightmost space
            end, rule = len(p.cellar) - 1, "LUNA-BB-5"
        else:
            end, rule = cmd.space + 1, "INQ-10"
        run.emit(ev.InquisitorPersuaded(seat=seat, start=cmd.space, end=end, grand=cmd.grand, rule=rule))
    elif isinstance(cmd, c.GainDie):
        value = task.n if task is not None else 1
        run.emit(
            ev.DieGained(
                seat=seat,
                colour=cmd.colour,
                value=value,
                returned=cmd.returned,
                rule="DIE-5" if cmd.returned else "GAIN-2",
            )
        )
    elif isinstance(cmd, c.DeclineDie):
        run.emit(ev.DieGainDeclined(seat=seat))
    elif isinstance(cmd, c.Lecture):
        run.emit(ev.LectureGiven(seat=seat, tile=cmd.tile, height=p.university[cmd.tile] + 1))
    elif isinstance(cmd, c.RaiseDie):
        run.emit(ev.DieRaised(seat=seat, die=cmd.die, amount=task.n if task is not None else 1))
    elif isinstance(cmd, c.Recolour):
        run.emit(ev.DieRecoloured(seat=seat, die=cmd.die, colour=cmd.colour))
    elif isinstance(cmd, c.Farewell):
        run.emit(ev.FarewellTaken(seat=seat) if cmd.accept else ev.FarewellDeclined(seat=seat))
    elif isinstance(cmd, c.WriteStep):
        start = p.books[cmd.row]
        run.emit(ev.BookTokenMoved(seat=seat, row=cmd.row, start=start, end=start + 1, rule="WRT-3"))
    elif isinstance(cmd, c.StopWriting):
        run.emit(ev.WritingStopped(seat=seat, unused=task.n if task is not None else 0))
    elif isinstance(cmd, c.WriteComplete):
        run.emit(ev.CompleteWritingStarted(seat=seat, row=cmd.row, target=library_end(s, seat)))
    elif isinstance(cmd, c.Upgrade):
        run.emit(ev.TileUpgraded(seat=seat, tile=cmd.tile))
    elif isinstance(cmd, c.BonusSpace):
        run.emit(ev.GrandInquisitorDeparted(seat=seat, space=cmd.space))
    elif isinstance(cmd, c.Relocate):
        run.emit(ev.TelescopeRelocated(seat=seat, start=p.telescope, end=cmd.space))
    elif isinstance(cmd, c.SwapTiles):
        q = list(p.queue)
        i, j = q.index(cmd.first), q.index(cmd.second)
        q[i], q[j] = q[j], q[i]
        run.emit(ev.ActionTilesSwapped(seat=seat, first=cmd.first, second=cmd.second, queue=tuple(q)))
    elif isinstance(cmd, c.RegainRow):
        run.emit(ev.LibraryRewardsRegained(seat=seat, row=cmd.row, position=p.books[cmd.row]))
    elif isinstance(cmd, c.BonusTile):
        run.emit(
            ev.BonusActionTaken(seat=seat, tile=cmd.tile, option=cmd.option, upgraded=cmd.tile in p.upgraded)
        )
    elif isinstance(cmd, c.CollectScale):
        run.emit(ev.ScaleRewardCollected(seat=seat, tile=cmd.tile, height=p.university[cmd.tile]))
    elif isinstance(cmd, c.MoonReward):
        run.emit(ev.MoonObjectiveAchieved(seat=seat, choice=cmd.choice))
    elif isinstance(cmd, c.TakeInquisitor):
        if cmd.accept:
            run.emit(ev.InquisitorGained(seat=seat, rule="LUNA-BB-7"))
        else:
            run.emit(ev.BonusDeclined(seat=seat, effect="INQ", rule="LUNA-BB-7"))
    elif isinstance(cmd, c.Decline):
        effect = task.kind if task is not None else ""
        run.emit(ev.BonusDeclined(seat=seat, effect=effect, rule="ACT-2"))
    elif isinstance(cmd, c.PlaceComet):
        comet = p.comets.index("pending")
        run.emit(
            ev.CometPlacedInBook(
                seat=seat, comet=comet, page=cmd.page, rule="BOC-4" if cmd.page == "appendix" else "BOC-2"
            )
        )
    else:  # pragma: no cover - every command type is handled
        raise TypeError(f"unknown command {cmd!r}")
