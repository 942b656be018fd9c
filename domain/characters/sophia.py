"""Sophia Brahe's ability side (digest §17.8): the Sun and Venus (CHAR-SOP-1..4, DER-26, DER-30, AMB-39,
DATA-22). The rules are pure functions in `domain/abilities/sophia.py`; this module plugs them into the
engine: her part of the seat's state (Venus' position), the effects a wrap and an Observe put on the
agenda, the events they emit and how those apply."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from domain.abilities import sophia as rules
from domain.catalog import Catalog
from domain.characters import Character, CharacterRules, with_character
from domain.effect_kinds import EffectKind, Emitter
from domain.effects import reward_tasks
from domain.events import Event, GrantingEvent, PlayerEvent
from domain.evolve import resolved
from domain.parts import PartCodec
from domain.ruleset import Rules
from domain.state import GameState, Part, PlayerState, Task, put_part, replace

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)

RULES.point_rules["sun"] = "CHAR-SOP-3"
# AMB-39: every Observe that observed an object (the fixed action, Luna's A2, the Moon) pays the Sun
OBSERVATIONS = ("MajorObjectObserved", "ConstellationObserved", "MoonObserved")


@dataclass(frozen=True, slots=True)
class Venus(Part):
    """Sophia's Venus token: its position over the Sun (CHAR-SOP-1; DATA-22 positions 0..3)."""

    key: ClassVar[str] = "venus"

    position: int = rules.START


PLAYER_PARTS: tuple[PartCodec, ...] = (  # domain/vocabulary.py
    PartCodec(Venus, lambda part, hide: {"position": part.position}, lambda d: Venus(position=d["position"])),
)


@dataclass(frozen=True, kw_only=True)
class VenusMoved(PlayerEvent):
    """CHAR-SOP-2: the telescope wrapped past the Upgrade space (U -> S1, DER-26): Venus moved one
    position right, or from the last position back to the first (DER-30)."""

    position: int
    rule: str = "CHAR-SOP-2"


@dataclass(frozen=True, kw_only=True)
class SunRewardsGained(GrantingEvent):
    """CHAR-SOP-3: after an Observe that observed something (AMB-39), every Sun reward Venus does not
    cover (`spaces`, left to right); the grants are those rewards."""

    position: int
    spaces: tuple[int, ...]
    rule: str = "CHAR-SOP-3"


EVENTS: tuple[type[Event], ...] = (VenusMoved, SunRewardsGained)  # her wire vocabulary (domain/vocabulary.py)


def venus_of(player: PlayerState) -> Venus:
    part = player.part(Venus)
    assert part is not None, "a Sophia event for a seat without Venus"
    return part


def _venus(run: Emitter, task: Task) -> None:
    s = run.state
    seat = s.turn.seat
    data = s.catalog.luna_characters
    assert data is not None
    run.emit(
        VenusMoved(
            seat=seat, position=rules.venus_after_wrap(venus_of(s.players[seat]).position, len(data.venus))
        )
    )


def _sun(run: Emitter, task: Task) -> None:
    s = run.state
    seat = s.turn.seat
    data = s.catalog.luna_characters
    assert data is not None
    position = venus_of(s.players[seat]).position
    run.emit(
        SunRewardsGained(seat=seat, position=position, spaces=rules.visible(data.sun, data.venus, position))
    )


RULES.effect(
    EffectKind("VENUS", "move Venus", __name__, resolve=_venus, expansion="sophia"),
    EffectKind("SUN", "gain the visible Sun rewards", __name__, resolve=_sun, expansion="sophia"),
)


@RULES.event(VenusMoved, "VENUS")
def _venus_moved(s: GameState, e: VenusMoved) -> GameState:
    players = list(s.players)
    p = players[e.seat]
    players[e.seat] = replace(p, parts=put_part(p.parts, Venus(position=e.position)))
    return replace(s, players=tuple(players), agenda=resolved(s, e))


@RULES.event(SunRewardsGained, "SUN")
def _sun_gained(s: GameState, e: SunRewardsGained) -> GameState:
    return replace(s, agenda=resolved(s, e))


@RULES.grant(SunRewardsGained)
def _sun_grants(before: GameState, after: GameState, e: SunRewardsGained) -> list[Task]:
    data = after.catalog.luna_characters
    assert data is not None
    return reward_tasks(
        tuple(code for i in e.spaces for code in data.sun[i]), "sun", after.rules.reward_codes
    )  # CHAR-SOP-3


class Sophia(CharacterRules):
    ability_of = "sophia"
    rules = (RULES,)
    side = "ability"

    def start(self, catalog: Catalog, player: PlayerState, layout: dict[str, Any] | None) -> PlayerState:
        player = with_character(player, Character())
        return replace(player, parts=put_part(player.parts, Venus()))  # CHAR-SOP-1: Venus over the Sun

    def on_wrap(self, s: GameState, player: PlayerState) -> list[Task]:
        return [Task("VENUS", 1, "", "sophia")]  # CHAR-SOP-2, DER-26

    def react(self, before: GameState, after: GameState, event: Any, tasks: list[Task]) -> list[Task]:
        """CHAR-SOP-3, AMB-39: the first observation of an Observe (the fixed action, Luna's A2, the Moon)
        puts the Sun under everything the Observe still does: it pays after the Observe is resolved."""
        if event.type in OBSERVATIONS:  # an object observed: AMB-39's condition holds
            top = before.agenda[-1].kind if before.agenda else ""
            if top != "OBSERVE" and rules.sun_triggers(1):  # the first of its Observe (OBS-1)
                return [*tasks, Task("SUN", 1, "", "sophia")]
        return tasks
