"""Galileo Galilei's ability side (digest §17.1).

- CHAR-GAL-1: his personal Book-of-Comets page gives 2 Quadrants (catalog data, `GAL-P1`).
- CHAR-GAL-2: an Observe may be 1 Major Object, 1 Major Object + 1 constellation, or 1-3 constellations.
- CHAR-GAL-3, AMB-11: after a Major Object the emptied space is refilled at once (its REFILL resolves
  before the follow-up observation), so the constellation may be on the new card; either object may come
  first, each resolved fully (its rewards before the next observation).
- CHAR-GAL-4, AMB-12: with Luna, the Moon can be his Major Object (first or after one constellation).

The follow-up is the `OBSERVE` effect: `arg` "MO" while a Major Object may still follow (one
constellation so far), "C" after a Major Object (one constellation may follow).
"""

from __future__ import annotations

from typing import Any

from domain.characters import AbilityRules
from domain.effect_kinds import lent
from domain.state import GameState, PlayerState, Task

MOON_OBSERVED = "MoonObserved"  # Luna's Major Object (AMB-12): named, not imported (no base->Luna import)


class Galileo(AbilityRules):
    ability_of = "galileo"
    character = "galileo"

    def observe_more(self, s: GameState, player: PlayerState, first: str) -> Task | None:
        per_observe = s.catalog.character(self.character).ability
        more = (per_observe.constellations_per_observe if per_observe else 2) - 1  # CHAR-GAL-2: 3
        if first == "C":
            return Task("OBSERVE", more, "MO", "CHAR-GAL-2")  # two more constellations, or one Major Object
        return Task(
            "OBSERVE", 1, "C", "CHAR-GAL-3"
        )  # a Major Object plus one constellation (the refill first)

    def react(self, before: GameState, after: GameState, event: Any, tasks: list[Task]) -> list[Task]:
        if event.type == MOON_OBSERVED:  # AMB-12: the Moon as his Major Object
            top = before.agenda[-1].kind if before.agenda else ""
            if top != "OBSERVE" and not lent(before):
                return [*tasks, Task("OBSERVE", 1, "C", "CHAR-GAL-4")]
        return tasks
