"""Determinisation: a state as a seat could believe it to be (issue 18; design.md, "Hidden information").

A search that must not use what the acting seat cannot see plays on *determinisations*: the true state
with every card the seat has not seen re-dealt, the same re-deal a fork of a running game makes
(domain/fork.py, `domain.setup.redeal`): the deck keeps its size and tier layering, the box and reserve
take the rest; an expansion's own hidden order (its face-down tiles), a character's (Hevelius' deck,
Cunitz' Notes) and a non-player opponent's (the solo Tycho's Movement stack) are re-dealt too. Unlike a
fork, the seat's own face-down library cards (OBS-52) stay what they are: it has seen their fronts;
the other seats' face-down cards are drawn again among the unseen cards of the same tier and back.

The re-deal depends only on what the seat knows: every pool is sorted before it is shuffled, and the
seed is the caller's (never the game's secret seed), so two true states that the seat cannot tell
apart give the same determinisations.
"""

from __future__ import annotations

from domain.evolve import evolve
from domain.rng import SeededRandom
from domain.setup import redeal
from domain.state import GameState, replace

SOURCE = "determinisation"  # the `GameForked.source_game` of a determinisation (never stored)


def _redraw_face_down(
    state: GameState, viewer: int | None, rng: SeededRandom
) -> tuple[GameState, tuple[str, ...]]:
    """Other seats' face-down library cards (OBS-52) drawn again among the unseen cards of the same tier
    and back; returns the state and the unseen cards left for the deck, box and reserve."""
    cards = state.catalog.cards
    hidden = [
        (p.seat, i, card)
        for p in state.players
        if p.seat != viewer
        for i, (card, dark) in enumerate(p.library)
        if not dark
    ]
    pool = sorted({*state.deck, *state.box, *state.reserve, *(card for _, _, card in hidden)})
    if not hidden:
        return state, tuple(pool)
    players = list(state.players)
    for seat, i, card in hidden:
        look = (cards[card].tier, cards[card].back)
        new = rng.choice([c for c in pool if (cards[c].tier, cards[c].back) == look])
        pool.remove(new)
        library = list(players[seat].library)
        library[i] = (new, False)
        players[seat] = replace(players[seat], library=tuple(library))
    return replace(state, players=tuple(players)), tuple(pool)


def determinise(state: GameState, viewer: int | None, seed: str) -> GameState:
    """`state` with everything `viewer` (a seat; None: a spectator) has not seen re-dealt from `seed`.
    A finished game hides nothing: it is returned as it is."""
    if state.finished:
        return state
    state, unseen = _redraw_face_down(state, viewer, SeededRandom(seed, "determinise-face-down"))
    forked = redeal(state, seed, SOURCE, 0, salt=seed, unseen=unseen)
    state = evolve(state, forked)
    for reshuffle in state.rules.state_redeals:  # a non-player opponent's own hidden deal
        state = reshuffle(state, SeededRandom(seed, "determinise-opponent"))
    return state
