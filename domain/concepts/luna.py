"""The Luna expansion's effects (digest §18): Bonus Board rewards, the Grand Inquisitors, the Moon."""

from __future__ import annotations

from domain import commands as c
from domain import events as ev
from domain.effect_kinds import EffectKind, Emitter, Resolver, register
from domain.forfeit import is_frozen, lost_points
from domain.luna import bonus_lost, bonus_space, scoring_points
from domain.moves import luna_task_options
from domain.state import Task


def _luna(
    kind: str, name: str, commands: tuple[type[c.Command], ...], lost: tuple[str, str] | None = None
) -> EffectKind:
    return EffectKind(kind, name, __name__, commands, luna_task_options, lost, expansion="luna")


def _auto(kind: str, name: str, resolve: Resolver) -> EffectKind:
    return EffectKind(kind, name, __name__, resolve=resolve, expansion="luna")


def _scoring_tile(run: Emitter, task: Task) -> None:
    seat = run.state.turn.seat
    points = scoring_points(run.state, seat, task.arg)
    run.emit(ev.ScoringTileScored(seat=seat, tile=task.arg, points=points))


def _bonus(run: Emitter, task: Task) -> None:
    s = run.state
    seat = s.turn.seat
    assert s.luna is not None
    lost = bonus_lost(s, s.players[seat], bonus_space(s, task.n))
    rule = f"LUNA-B{s.luna.side}-{task.n}"
    run.emit(ev.BonusBoardRewardTaken(seat=seat, side=s.luna.side, space=task.n, lost=lost, rule=rule))


def _book_points(run: Emitter, task: Task) -> None:  # LUNA-BB-6: 1 VP per space of the furthest Book token
    seat = run.state.turn.seat
    if is_frozen(run.state, seat):
        run.emit(lost_points(seat, task.kind))  # ASYNC-3: a forfeited seat's score is frozen
        return
    points = max(run.state.players[seat].books)
    run.emit(ev.VictoryPointsScored(seat=seat, points=points, source="bonus-board", rule="LUNA-BB-6"))


def _rotate(run: Emitter, task: Task) -> None:
    seat = run.state.turn.seat
    queue = run.state.players[seat].queue
    i = queue.index(task.arg)
    rotated = (queue[i], *queue[:i], *queue[i + 1 :])
    run.emit(ev.ActionTilesRotated(seat=seat, tile=task.arg, queue=rotated, rule="LUNA-BA-6"))


register(
    _luna("DEPART", "choose a Bonus Board space for the Grand Inquisitor", (c.BonusSpace,)),
    _luna(
        "FREEOBS",
        "observe a constellation of cost 4 or less for free",
        (c.Observe,),
        ("no uncovered constellation of cost 4 or less (or no Constellation token left)", "LUNA-BA-2"),
    ),
    _luna(
        "REREAD",
        "choose the Book token whose passed spaces pay again",
        (c.RegainRow,),
        ("no Book token has left its start space", "LUNA-BA-5"),
    ),
    _luna("ANYTILE", "take the moving action of any Action tile", (c.BonusTile,)),
    _luna("SWAP", "swap two Action tiles", (c.SwapTiles,)),
    _luna("RELOCATE", "move the telescope to any space", (c.Relocate,)),
    _luna(
        "FIXEDAT",
        "take (or decline) the fixed action where the telescope now points",
        (c.Observe, c.TakeFixed, c.Decline),
    ),
    _luna(
        "ADVANCE",
        "move an Inquisitor to the rightmost cellar space",
        (c.Persuade,),
        ("no Inquisitor left of the rightmost space", "LUNA-BB-5"),
    ),
    _luna(
        "SCALEREWARDS",
        "collect the reward of a University token's row",
        (c.CollectScale,),
        ("no University token above the stairs", "LUNA-BB-7"),
    ),
    _luna("OPTINQ", "take or decline the Inquisitor", (c.TakeInquisitor,)),
    _luna("MOONOBJ", "choose the Moon objective's reward", (c.MoonReward,)),
    _auto("SCORING", "score a Scoring tile (LUNA-23)", _scoring_tile),
    _auto(
        "GRAND",
        "gain a Grand Inquisitor (LUNA-23)",
        lambda run, task: run.emit(ev.GrandInquisitorGained(seat=run.state.turn.seat, tile=task.arg)),
    ),
    _auto("BONUS", "take a Bonus Board reward (LUNA-42)", _bonus),
    _auto("BOOKVP", "score the Book tokens (Bonus Board)", _book_points),
    _auto("ROTATE", "rotate an Action tile (Bonus Board)", _rotate),
)
