"""Luna's additions to the solo game (digest §19, SOLO-1..12; rulings AMB-43, AMB-44): the Moon Action
tile's Observe the Moon (SOLO-8), Tycho's choice of Moon tile (SOLO-9), what he gains (SOLO-10, SOLO-12)
and his Grand Inquisitor going to the Bonus Board (SOLO-11). His Luna Movement tiles and the difficulty
levels are data (domain/catalog/solo/, SOLO-2, SOLO-6)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.catalog.luna import POSITIONS
from domain.editions import RULES_0_4_0, at_least
from domain.effect_kinds import EffectKind, Emitter
from domain.effects import reward_tasks
from domain.events import Event, GrantingEvent
from domain.evolve import resolved
from domain.expansions.luna.rules import moon_objective_due, observable_moon_tiles, scoring_points
from domain.expansions.luna.state import luna, seat_of, with_luna, with_seat
from domain.expansions.solo.rules import effect_tasks, tycho
from domain.ruleset import Rules
from domain.state import GameState, Task, replace

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)


@dataclass(frozen=True, kw_only=True)
class TychoMoonObserved(GrantingEvent):
    """SOLO-8..12: Tycho observes the Moon on Moon tile `tile`: its Scoring tile goes to the box, his
    Grand Inquisitor to the leftmost open Bonus Board space without a reward (SOLO-11, AMB-43)."""

    tile: str
    scoring: str
    bonus_space: int  # 1..9
    rule: str = "SOLO-10"


EVENTS: tuple[type[Event], ...] = (TychoMoonObserved,)  # its wire vocabulary (domain/vocabulary.py)


def grand_inquisitors_arriving(s: GameState) -> int:
    """LUNA-63 for Tycho: "He never places Grand Inquisitors in his cellar!" (S000 Solo, SOLO-11), so the
    "Inquisitors in your cellar" tile counts his own figures only: none arrives (rules 0.4.0). Under
    older rules the observer's count took one more, his too (released so)."""
    return 0 if at_least(s.engine_version, RULES_0_4_0) else 1


def moon_choice(s: GameState, seat: int) -> int | None:
    """SOLO-9, AMB-43: the Moon tile whose Scoring tile gives him most; ties: the Moon tile's higher VP,
    then the lowest Roman numeral."""
    part = luna(s)
    best: tuple[int, int, int] | None = None
    chosen = None
    arriving = grand_inquisitors_arriving(s)
    for i in observable_moon_tiles(s):
        points = scoring_points(s, seat, part.scoring[i], arriving)[seat]
        vp = sum(
            t.n
            for t in reward_tasks(s.catalog.luna.moon(POSITIONS[i]).reward, "", s.rules.reward_codes)
            if t.kind == "VP"
        )
        key = (points, vp, -i)
        if best is None or key > best:
            best, chosen = key, i
    return chosen


def bonus_space_for(s: GameState) -> int:
    """SOLO-11, AMB-43: the leftmost open space of the Bonus Board; space 9 when 1..8 are taken."""
    bonus = luna(s).bonus
    return next((i + 1 for i in range(8) if not bonus[i]), 9)


def _moon(run: Emitter, task: Task) -> None:
    s = run.state
    p, _ = tycho(s)
    index = moon_choice(s, p.seat)
    assert index is not None, "SOLO-8: Observe the Moon needs an observable Moon tile"
    run.emit(
        TychoMoonObserved(
            seat=p.seat, tile=POSITIONS[index], scoring=luna(s).scoring[index], bonus_space=bonus_space_for(s)
        )
    )


@RULES.event(TychoMoonObserved, "TMOON")
def _moon_observed(s: GameState, e: TychoMoonObserved) -> GameState:
    part = luna(s)
    index = POSITIONS.index(e.tile)
    flipped = list(part.flipped)
    flipped[index] = True  # LUNA-23.6
    scoring = list(part.scoring)
    scoring[index] = ""  # LUNA-23.5
    bonus = list(part.bonus)
    bonus[e.bonus_space - 1] = (*bonus[e.bonus_space - 1], e.seat)  # SOLO-11: never in his cellar
    part = replace(
        part, costs=part.costs[1:], flipped=tuple(flipped), scoring=tuple(scoring), bonus=tuple(bonus)
    )
    s = with_seat(s, e.seat, moon=seat_of(s.players[e.seat]).moon + 1)
    return replace(with_luna(s, part), agenda=resolved(s, e))


@RULES.grant(TychoMoonObserved)
def _grants_moon(before: GameState, after: GameState, e: TychoMoonObserved) -> list[Task]:
    reward = after.catalog.luna.moon(e.tile).reward
    tasks = [
        t for t in reward_tasks(reward, "moon", after.rules.reward_codes) if t.kind == "VP"
    ]  # SOLO-10: only the VP
    # SOLO-10: his bonus scoring, the person's basic; n: no Grand Inquisitor of his arrives (LUNA-63)
    tasks.append(Task("SCORING", grand_inquisitors_arriving(after), e.scoring))
    if after.options.get("moon_objective_immediate") and moon_objective_due(after, after.players[e.seat]):
        tasks.append(Task("MOONOBJ"))  # LUNA-81: an objective he may claim (SOLO-53)
    for effect in ("comet-down", "card", "vp:10", "book:1"):  # SOLO-12, AMB-44
        tasks += effect_tasks(effect)
    return tasks


RULES.effect(
    EffectKind("TMOON", "Tycho observes the Moon (SOLO-8..12)", __name__, resolve=_moon, expansion="solo")
)
