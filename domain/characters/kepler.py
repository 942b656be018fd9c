"""Johannes Kepler's ability side (digest §17.2).

- CHAR-KEP-1, AMB-30: his special Action tile (DATA-16, `K1`) starts on the last tile space before
  Upgrade (S4); the basic tile the player chooses is set aside on his character board (default: the one
  the deal put on S4); the player board still holds six tiles. Recorded in `GameStarted.layouts`.
- CHAR-KEP-2: whenever he takes the special tile's moving action he may (a) swap two tiles of his player
  board (option 1) or (b) swap the character-board tile with a player-board tile (option 2): the
  `KSWAP` effect (`arg` "board" or "aside"), answered by `KeplerSwap` (-> `KeplerTilesSwapped`) or
  declined (`DeclineAbility`). The upgraded face adds a Quadrant (DATA-16, provisional).
- CHAR-KEP-3: the special tile is never a swap target.
- CHAR-KEP-4: it rotates in Cleanup like any used tile (ROT-1: nothing special to do).
- CHAR-KEP-5: the set-aside tile is one of his Action tiles: it can be upgraded and counts as upgraded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from domain import commands as c
from domain.catalog import ActionTile, Catalog
from domain.characters import AbilityRules, Character, with_character
from domain.characters.commands import DeclineAbility, KeplerSwap
from domain.characters.events import AbilityDeclined, KeplerTilesSwapped
from domain.concepts.actions import swapped
from domain.effect_kinds import EffectKind
from domain.errors import IllegalMove
from domain.evolve import resolved
from domain.parts import NestedCodec
from domain.resolve import Run
from domain.ruleset import Rules
from domain.state import SKY, GameState, Part, PlayerState, Task, replace

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)

RULES.reward_code({"KSWAP:board": Task("KSWAP", 1, "board"), "KSWAP:aside": Task("KSWAP", 1, "aside")})


@dataclass(frozen=True, slots=True)
class KeplerBoard(Part):
    """Kepler's character board on his ability side: the basic tile set aside there (CHAR-KEP-1, AMB-30;
    one of his Action tiles, CHAR-KEP-5). Absent at rest (no tile aside). Written in the seat's
    `"ability"` member as `aside`, as the released format has it."""

    key: ClassVar[str] = "kepler"  # written inside "ability" (NestedCodec)

    aside: str = ""

    def at_rest(self) -> bool:
        return not self.aside


def board_of(player: PlayerState) -> KeplerBoard | None:
    return player.part(KeplerBoard)


def _dump(part: KeplerBoard | None, hide: bool) -> dict[str, Any]:
    return {"aside": part.aside if part is not None else ""}


def _load(data: Any) -> KeplerBoard | None:
    return KeplerBoard(aside=data["aside"]) if data["aside"] else None


NESTED_PARTS: tuple[NestedCodec, ...] = (NestedCodec(KeplerBoard, Character.key, _dump, _load),)  # vocabulary


def special_tile(catalog: Catalog) -> ActionTile:
    ability = catalog.character("kepler").ability
    if ability is None or ability.tile is None:
        raise ValueError(f"catalog edition {catalog.edition} has no special tile for Kepler (DATA-16)")
    return ability.tile


class Kepler(AbilityRules):
    ability_of = "kepler"
    rules = (RULES,)
    character = "kepler"

    def check_seat(self, catalog: Catalog, character: str, aside: str | None) -> IllegalMove | None:
        basic = [t.id for t in catalog.action_tiles]
        if aside is not None and aside not in basic:
            return IllegalMove(
                "bad-aside",
                "the tile set aside is one of the basic tiles {basic}",
                "AMB-30",
                basic=", ".join(basic),
            )
        return None

    def layout(
        self, catalog: Catalog, character: str, queue: tuple[str, ...], aside: str | None
    ) -> tuple[tuple[str, ...], dict[str, Any] | None]:
        ability = catalog.character(character).ability
        assert ability is not None and ability.tile is not None
        at = SKY.index(ability.tile_space)  # CHAR-KEP-1: S4
        chosen = aside if aside is not None else queue[at]  # AMB-30: the player's choice
        rest = [t for t in queue if t != chosen]
        return (*rest[:at], ability.tile.id, *rest[at:]), {"aside": chosen}

    def start(self, catalog: Catalog, player: PlayerState, layout: dict[str, Any] | None) -> PlayerState:
        aside = str((layout or {}).get("aside", ""))
        return with_character(with_character(player, Character()), KeplerBoard(aside=aside))

    def tile(self, catalog: Catalog, tile_id: str) -> ActionTile | None:
        tile = special_tile(catalog)
        return tile if tile.id == tile_id else None

    def own_tiles(self, player: PlayerState) -> tuple[str, ...]:
        part = board_of(player)
        return (*player.queue, part.aside) if part is not None else player.queue


def swap_options(s: GameState, task: Task, seat: int) -> list[c.Command]:
    p = s.players[seat]
    part = board_of(p)
    if part is None:
        return []
    special = special_tile(s.catalog).id
    board = sorted(t for t in p.queue if t != special)  # CHAR-KEP-3: never the special tile
    if task.arg == "aside":
        out: list[c.Command] = [KeplerSwap(seat=seat, first=part.aside, second=t) for t in board]
    else:
        out = [KeplerSwap(seat=seat, first=a, second=b) for i, a in enumerate(board) for b in board[i + 1 :]]
    return [*out, DeclineAbility(seat=seat)] if out else []


def swap_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    if isinstance(cmd, DeclineAbility):
        if not swap_options(s, task, cmd.seat):
            return IllegalMove(
                "not-your-ability", "only Kepler on his ability side swaps tiles", "CHAR-KEP-2"
            )
        return None
    if not isinstance(cmd, KeplerSwap):
        return IllegalMove("pending-decision", "first swap two Action tiles (or do not)", "RES-1")
    p = s.players[cmd.seat]
    part = board_of(p)
    if part is None:
        return IllegalMove("not-your-ability", "only Kepler on his ability side swaps tiles", "CHAR-KEP-2")
    special = special_tile(s.catalog).id
    if special in (cmd.first, cmd.second):
        return IllegalMove("special-tile", "the special tile is never a swap target", "CHAR-KEP-3")
    if task.arg == "aside":
        if cmd.first != part.aside:
            return IllegalMove(
                "swap-aside",
                "this option swaps the character-board tile {aside}",
                "CHAR-KEP-2",
                aside=part.aside,
            )
        if cmd.second not in p.queue:
            return IllegalMove(
                "unknown-tile", "no tile {second!r} on your player board", "CHAR-KEP-2", second=cmd.second
            )
        return None
    if cmd.first not in p.queue or cmd.second not in p.queue:
        return IllegalMove("unknown-tile", "this option swaps two tiles of the player board", "CHAR-KEP-2")
    if not cmd.first < cmd.second:
        return IllegalMove("swap-order", "name the two tiles in sorted order, different", "CHAR-KEP-2")
    return None


RULES.effect(
    EffectKind(
        "KSWAP",
        "swap Action tiles (Kepler's special tile)",
        __name__,
        (KeplerSwap, DeclineAbility),
        swap_options,
        swap_check,
        ("only Kepler on his ability side swaps tiles", "CHAR-KEP-2"),
    )
)
RULES.decline("KSWAP", "CHAR-KEP-2", lambda before, task: [])
RULES.resolve(AbilityDeclined, "KSWAP")


@RULES.command(KeplerSwap)
def _swap(run: Run, cmd: KeplerSwap, task: Task | None) -> None:
    p = run.state.players[cmd.seat]
    part = board_of(p)
    assert part is not None
    aside = part.aside
    if cmd.first == aside:  # (b) the character-board tile with a player-board tile
        queue = tuple(aside if t == cmd.second else t for t in p.queue)
        aside = cmd.second
    else:  # (a) two tiles of the player board: the act of Luna's A7 swap, with CHAR-KEP-2/3's limits
        queue = swapped(p.queue, cmd.first, cmd.second)
    run.emit(KeplerTilesSwapped(seat=cmd.seat, first=cmd.first, second=cmd.second, queue=queue, aside=aside))


@RULES.event(KeplerTilesSwapped, "KSWAP")
def _swapped(s: GameState, e: KeplerTilesSwapped) -> GameState:
    p = s.players[e.seat]
    part = board_of(p)
    if part is None:
        raise ValueError("expected Kepler on his ability side (CHAR-KEP-2)")
    players = list(s.players)
    players[e.seat] = with_character(replace(p, queue=tuple(e.queue)), replace(part, aside=e.aside))
    return replace(s, players=tuple(players), agenda=resolved(s, e))
