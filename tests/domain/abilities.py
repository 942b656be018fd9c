"""Helpers for the ability-side tests (CHAR-1): a game on the current edition with chosen sides."""

from __future__ import annotations

from typing import Any

from domain import Options, SeatSpec, Setup, legal_moves, start
from domain.characters.roster import has_ability
from domain.state import GameState
from tests.domain.scenario import play

CHARACTERS = ("galileo", "kepler", "copernicus", "bruno")


def ability_game(
    players: int = 3,
    seed: str = "ability",
    sides: tuple[str, ...] | None = None,
    characters: tuple[str, ...] = CHARACTERS,
    aside: str | None = None,
    **options: Any,
) -> GameState:
    """A fresh game on the current edition, seat 0 first; every seat whose ability is registered on its
    ability side by default."""
    sides = sides or tuple("ability" if has_ability(c) else "basic" for c in characters[:players])
    seats = tuple(
        SeatSpec(
            f"P{i + 1}", characters[i], side=sides[i], aside=aside if characters[i] == "kepler" else None
        )
        for i in range(players)
    )
    state, _ = start(Setup(seats=seats, seed=seed, first_seat=0, options=Options(**options)))
    return state


def settle_until(s: GameState, kind: str) -> GameState:
    """Play the first legal move until an effect of `kind` is on top of the agenda."""
    while s.agenda and s.agenda[-1].kind != kind:
        s, _ = play(s, str(legal_moves(s)[0]))
    return s
