"""Giordano Bruno's ability side (digest §17.4).

- CHAR-BRU-1: personal page 1 gives Persuade 4 times (`PERx4`, each step on any Inquisitor: split as he
  likes); page 2 upgrades an Action tile (`UPG`). Catalog data (`BRU-P1`, `BRU-P2`).
- CHAR-BRU-2: his cellar is the 5-space tile: whenever an Inquisitor moves onto one of its spaces, he
  gains the reward printed there (the `CELLAR` effect, resolved as `CellarRewardGained`). A move of
  several spaces at once (Luna's LUNA-BB-5) gains the reward of the space it ends on only.
- CHAR-BRU-3: new Inquisitors enter C1, the Farewell takes from C5 (the last space), interrogation and
  end-game values are the tile's (DATA-18).
"""

from __future__ import annotations

from typing import Any

from domain import events as ev
from domain.catalog import Catalog, Reward
from domain.catalog.model import CellarTile
from domain.characters import AbilityRules, Character, with_character
from domain.characters.events import CellarRewardGained
from domain.effect_kinds import EffectKind, Emitter
from domain.effects import reward_tasks
from domain.evolve import resolved
from domain.ruleset import Rules
from domain.state import GameState, PlayerState, Task, replace

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)

SOURCE = "cellar-tile"  # the points source of his cellar's rewards
RULES.point_rules[SOURCE] = "CHAR-BRU-2"


def cellar_tile(catalog: Catalog) -> CellarTile:
    ability = catalog.character("bruno").ability
    if ability is None or ability.cellar is None:
        raise ValueError(f"catalog edition {catalog.edition} has no cellar tile for Bruno (DATA-18)")
    return ability.cellar


class Bruno(AbilityRules):
    ability_of = "bruno"
    rules = (RULES,)
    character = "bruno"

    def start(self, catalog: Catalog, player: PlayerState, layout: dict[str, Any] | None) -> PlayerState:
        spaces = len(cellar_tile(catalog).arch)  # CHAR-BRU-2: 5 spaces
        player = replace(player, cellar=(0,) * spaces)  # an expansion's figures follow its length
        return with_character(player, Character())

    def cellar(self, catalog: Catalog) -> tuple[tuple[int, ...], tuple[int, ...], tuple[Reward, ...]]:
        tile = cellar_tile(catalog)
        return tile.arch, tile.bottom, tile.rewards  # CHAR-BRU-3

    def react(self, before: GameState, after: GameState, event: Any, tasks: list[Task]) -> list[Task]:
        if isinstance(event, ev.InquisitorPersuaded) and cellar_tile(after.catalog).rewards[event.end]:
            return [*tasks, Task("CELLAR", 1, str(event.end))]  # CHAR-BRU-2: after the move's own grants
        return tasks


def _gain(run: Emitter, task: Task) -> None:
    space = int(task.arg)
    reward = cellar_tile(run.state.catalog).rewards[space]
    run.emit(CellarRewardGained(seat=run.state.turn.seat, space=space, reward=reward))


RULES.effect(
    EffectKind("CELLAR", "gain the reward of Bruno's cellar space (CHAR-BRU-2)", __name__, resolve=_gain)
)


@RULES.event(CellarRewardGained, "CELLAR")
def _gained(s: GameState, e: CellarRewardGained) -> GameState:
    return replace(s, agenda=resolved(s, e))  # the reward is the grant


@RULES.grant(CellarRewardGained)
def _reward(before: GameState, after: GameState, e: CellarRewardGained) -> list[Task]:
    return reward_tasks(e.reward, SOURCE, after.rules.reward_codes)
