"""Board views: what one viewer may see of a game at one version, computed from the state alone.

A view is a pure function of (state, version, viewer). The viewer *class* is all that matters for what a
view contains, so views can be cached by (game, version, viewer class) (design.md, "Hidden information"):

- `spectator`: no secrets at all (the deck order, the box, the reserve, the seed are removed);
- `seat:N`: the spectator view plus what is private to seat N: the fronts of the cards it drew face down
  (OBS-52), which every other viewer sees as `"hidden:<tier>"` (`domain.public_state`);
- `full`: everything, only for a game that has ended (then every secret is public).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain import GameState, dump_state, public_state
from domain.abilities.newton import mirror_times
from domain.catalog.model import Card
from domain.characters import side_of

SPECTATOR = "spectator"
FULL = "full"


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who looks: a seat number, or nobody in particular (`seat=None`); `full` only after the end."""

    seat: int | None = None
    full: bool = False

    @property
    def cls(self) -> str:
        """The viewer class: the cache key part that decides what the view contains."""
        if self.full:
            return FULL
        return SPECTATOR if self.seat is None else f"seat:{self.seat}"


def viewer_for(seat: int | None, game_finished: bool) -> Viewer:
    """The viewer a caller is: everyone sees everything once the game has ended (at any version)."""
    return Viewer(seat=seat, full=game_finished)


def _card(card: Card) -> dict[str, Any]:
    """A face-up Discovery card as players see it on the table (public component data)."""
    major = card.major
    return {
        "id": card.id,
        "tier": card.tier,
        "major": {"name": major.name, "mix": major.mix, "cost": major.cost, "vp": major.vp},
        "constellations": [
            {"name": c.name, "colour": c.colour, "cost": c.cost, "reward": list(c.reward)}
            for c in card.constellations
        ],
    }


def board_view(state: GameState, version: int, viewer: Viewer) -> dict[str, Any]:
    """The board as `viewer` sees it at `version`. A full view is for games that have ended (the caller
    decides: `state` may be an earlier version of a finished game)."""
    body = dump_state(state) if viewer.full else public_state(state, viewer.seat)
    to_act = None if state.finished else state.turn.seat
    display = [None if cid is None else _card(state.catalog.cards[cid]) for cid in state.display]
    return {
        "version": version,
        "viewer": {"class": viewer.cls, "seat": viewer.seat},
        "status": "finished" if state.finished else "active",
        "to_act": to_act,
        "your_turn": viewer.seat is not None and viewer.seat == to_act,
        "turn": state.turn.number,
        "round": state.turn.number // len(state.players) + 1,
        "phase": state.turn.phase,
        "seats": [
            {"seat": p.seat, "name": p.name, "character": p.character, "side": side_of(p), "score": p.score}
            for p in state.players
        ],
        "winners": list(state.winners),
        "display": display,
        **({"tycho": tycho} if (tycho := tycho_board(state)) is not None else {}),
        **({"mirror_times": mirrors} if (mirrors := mirror_board(state)) else {}),
        "state": body,
    }


def mirror_board(state: GameState) -> list[dict[str, Any]]:
    """How many times each of Newton's special tiles gives its bonus where it lies now: the engine's
    count (CHAR-NEW-2, AMB-34, DATA-15: upgraded, one more), which the player board draws."""
    luna = state.catalog.luna_characters
    if luna is None:
        return []
    special = {t.id: t for t in luna.newton_tiles if t.mirror}
    return [
        {
            "seat": p.seat,
            "tile": tile,
            "times": mirror_times(luna.multipliers, i, tile in p.upgraded, special[tile].upgrade_bonus),
        }
        for p in state.players
        for i, tile in enumerate(p.queue)
        if tile in special and i < len(luna.multipliers)
    ]


CONDITION_WORDS = {
    "unpersuaded2": "if 2+ unpersuaded Inquisitors",
    "persuaded3": "if 3+ fully persuaded Inquisitors",
    "pay2": "pay 2 dice",
    "pay3": "pay 3 dice",
    "pay2-constellations": "pay 2 dice, 2+ observable constellations",
    "comet": "if a comet is on his board",
    "pay2-moon": "pay 2 dice, an observable Moon tile",
}


EFFECT_WORDS = {  # SOLO-40..50 (SOLO-5, SOLO-8..12 with Luna)
    "comet": "place a comet",
    "comet-down": "move a comet down",
    "die": "gain a die",
    "book": "Book marker +{n}",
    "lecture": "Lecture",
    "persuade": "persuade",
    "remove": "remove a persuaded Inquisitor",
    "vp": "{n} VP",
    "constellation": "observe a constellation",
    "major": "take a Major Object",
    "card": "take the deck's top card",
    "moon": "observe the Moon",
    "inquisitor": "gain an Inquisitor",
}


def effect_words(effect: str) -> str:
    """One of Tycho's effects ("vp:10", "book:1", "persuade") in words."""
    name, _, n = effect.partition(":")
    words = EFFECT_WORDS.get(name)
    return effect if words is None else words.format(n=n)


def tycho_board(state: GameState) -> dict[str, Any] | None:
    """The solo Tycho Brahe's board (SOLO-21..24): his line of solo Action tiles with their rows, his
    marker, the Movement tiles revealed so far and how many are left (their order is hidden)."""
    from domain.expansions.solo.data import solo_data
    from domain.expansions.solo.state import TychoState

    for p in state.players:
        part = p.part(TychoState)
        if part is None:
            continue
        data = solo_data(part.data)
        line = []
        for tile_id in p.queue:
            tile = data.tiles[tile_id]
            up = tile_id in p.upgraded
            rows = [
                {
                    "condition": row.condition,
                    "partial": row.partial,
                    "effects": list(row.effects),
                    "text": (
                        ("(" if row.partial else "")
                        + (CONDITION_WORDS.get(row.condition, row.condition) + ": " if row.condition else "")
                        + ", ".join(effect_words(e) for e in row.effects)
                        + (")" if row.partial else "")
                    ),
                }
                for row in tile.rows(up)
            ]
            line.append({"id": tile_id, "name": tile.name, "upgraded": up, "rows": rows})
        return {
            "seat": p.seat,
            "marker": part.marker,
            "line": line,
            "shown": list(part.shown),
            "last": part.shown[-1] if part.shown else None,
            "stack_size": len(part.stack),
            "difficulty": part.difficulty or None,
            "data": part.data,
        }
    return None
