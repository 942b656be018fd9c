"""The solo game's provisional data (DATA-26..28): Tycho's solo Action tiles (both faces), the Movement
tiles and the Luna difficulty chart, read from `domain/catalog/solo/<id>.json` and checked: every
condition and effect is one the rulebook lists (SOLO-34..38, SOLO-40..50; SOLO-8 for the Moon tile).

A game records the data id it was dealt with (`OpponentDealt.data`): a corrected set is a new file with a
new id, and games dealt with an older one keep playing with theirs."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

CURRENT = "solo-provisional-1"
DIFFICULTIES = ("easy", "normal", "hard", "flaming")  # SOLO-2
CONDITIONS = ("unpersuaded2", "persuaded3", "pay2", "pay3", "pay2-constellations", "comet", "pay2-moon")
EFFECTS = (
    "comet",
    "comet-down",
    "die",
    "book",
    "lecture",
    "persuade",
    "remove",
    "vp",
    "constellation",
    "major",
    "card",
    "moon",
    "inquisitor",
)
MOVES = ("move", "move-to-upgraded", "move-to-moon", "upgrade")


@dataclass(frozen=True, slots=True)
class Row:
    condition: str  # "" for the bottom row (SOLO-32)
    partial: bool  # a condition in parentheses (SOLO-33)
    effects: tuple[str, ...]  # "vp:10", "book:1", "persuade", ...


@dataclass(frozen=True, slots=True)
class SoloTile:
    id: str
    name: str
    basic: tuple[Row, ...]
    upgraded: tuple[Row, ...]

    def rows(self, upgraded: bool) -> tuple[Row, ...]:
        return self.upgraded if upgraded else self.basic


@dataclass(frozen=True, slots=True)
class SoloData:
    id: str
    tiles: dict[str, SoloTile]  # the five solo Action tiles and the Moon tile
    base_tiles: tuple[str, ...]
    moon_tile: str
    movement: dict[str, tuple[str, ...]]  # Movement tile -> its steps, in order (SOLO-5: bonuses first)
    base_stack: tuple[str, ...]
    difficulty: dict[str, tuple[str, ...]]
    cycles: int  # shuffles of the six dealt at setup (AMB-54: the stack is reshuffled when used up)


def _rows(data: Any, where: str) -> tuple[Row, ...]:
    rows = tuple(
        Row(str(r.get("if", "")), bool(r.get("partial", False)), tuple(str(e) for e in r["do"])) for r in data
    )
    if not rows or rows[-1].condition:
        raise ValueError(f"{where}: the bottom row has no condition (SOLO-32)")
    for row in rows:
        if row.condition and row.condition not in CONDITIONS:
            raise ValueError(f"{where}: unknown condition {row.condition!r} (SOLO-34..38)")
        for effect in row.effects:
            if effect.split(":")[0] not in EFFECTS:
                raise ValueError(f"{where}: unknown effect {effect!r} (SOLO-40..50)")
    return rows


def _tile(data: Any) -> SoloTile:
    tid = str(data["id"])
    return SoloTile(tid, str(data["name"]), _rows(data["basic"], tid), _rows(data["upgraded"], tid))


@cache
def solo_data(data_id: str = CURRENT) -> SoloData:
    path = resources.files("domain.catalog") / "solo" / f"{data_id}.json"
    if not path.is_file():
        raise ValueError(f"unknown solo data {data_id!r}: this build ships {CURRENT}")
    raw = json.loads(path.read_text(encoding="utf-8"))
    tiles = {t.id: t for t in (_tile(t) for t in raw["action_tiles"])}
    moon = _tile(raw["moon_tile"])
    movement = {tid: tuple(str(s) for s in t["steps"]) for tid, t in raw["movement_tiles"].items()}
    for tid, steps in movement.items():
        for step in steps:
            if step.split(":")[0] not in (*MOVES, *EFFECTS):
                raise ValueError(f"Movement tile {tid}: unknown step {step!r} (SOLO-29..31, SOLO-5)")
    chart = {level: tuple(raw["difficulty"][level]) for level in DIFFICULTIES}
    for stack in (tuple(raw["base_stack"]), *chart.values()):
        if len(stack) != 6 or any(t not in movement for t in stack):
            raise ValueError(f"a Movement stack is six known tiles (SOLO-4): {stack}")
    return SoloData(
        id=str(raw["id"]),
        tiles={**tiles, moon.id: moon},
        base_tiles=tuple(tiles),
        moon_tile=moon.id,
        movement=movement,
        base_stack=tuple(raw["base_stack"]),
        difficulty=chart,
        cycles=int(raw["cycles"]),
    )
