"""Forking a game at any event (design.md, "Hidden information"; store issue "Fork").

A fork of an unfinished game must not carry over anything still hidden at the fork point: every
card not yet seen is re-dealt with a new seed, and the copied `GameStarted` is rewritten so that its
deal is the fork's own (the cards the prefix drew, in the order it drew them, then the re-deal).
A finished game's order is public already, so its fork keeps the deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from domain import events as ev
from domain.characters import rules_for
from domain.engine import settle
from domain.evolve import fold
from domain.rng import SeededRandom
from domain.setup import character_deals, commitment_of, redeal
from domain.state import GameState
from domain.takeback import taken_back


def _drawn(prefix: Sequence[ev.Event]) -> tuple[list[str], list[str]]:
    """Cards the prefix took from the deck and from the reserve, in order."""
    deck: list[str] = []
    reserve: list[str] = []
    for e in prefix:
        if isinstance(e, ev.CardDealt | ev.CardDrawnFaceDown):
            (reserve if e.from_reserve else deck).append(e.card)
    return deck, reserve


def _redeal_face_down(prefix: list[ev.Event], state: GameState, seed: str) -> tuple[str, ...]:
    """Face-down library cards (OBS-52) show only their tier and back: their fronts are as unseen as the
    deck. Each is re-drawn (rewriting its CardDrawnFaceDown in `prefix`) among the unseen cards with the
    same tier and back, so everything public stays as it was. Returns the unseen cards left to deal."""
    cards = state.catalog.cards
    drawn = [i for i, e in enumerate(prefix) if isinstance(e, ev.CardDrawnFaceDown)]
    fronts = [e.card for e in prefix if isinstance(e, ev.CardDrawnFaceDown)]
    pool = sorted({*state.deck, *state.box, *state.reserve, *fronts})
    rng = SeededRandom(seed, "fork-face-down")
    for i in drawn:
        e = prefix[i]
        assert isinstance(e, ev.CardDrawnFaceDown)
        look = (cards[e.card].tier, cards[e.card].back)
        alike = [c for c in pool if (cards[c].tier, cards[c].back) == look]
        card = rng.choice(alike)
        pool.remove(card)
        prefix[i] = replace(e, card=card)
    return tuple(pool)


def _commitment(e: ev.GameStarted | ev.GameForked) -> str:
    return commitment_of(
        e.salt, tuple(e.deck), tuple(e.box), tuple(e.reserve), tuple(e.moon_hidden), e.character_deals
    )


def kept_deal_fork(state: GameState, source_game: str, source_version: int) -> ev.GameForked:
    """The `GameForked` of a finished game's fork: it keeps the deal (public already) and names what
    is left of it; the commitment, seed and salt stay those of the source."""
    return ev.GameForked(
        seat=None,
        source_game=source_game,
        source_version=source_version,
        commitment=state.commitment,
        deck=state.deck,
        box=state.box,
        reserve=state.reserve,
        seed=state.seed,
        salt=state.salt,
        moon_hidden=state.dealt[3] if len(state.dealt) > 3 else (),
        character_deals=character_deals(state),
    )


def fork_events(
    source: Sequence[ev.Event], at: int, source_game: str, seed: str | None, salt: str | None = None
) -> list[ev.Event]:
    """The events of a new game forked from the first `at` events of `source`.

    `seed` is the new secret seed for the re-deal; None keeps the deal (only for a finished source).
    `salt` is the new commitment's secret salt (a service passes a random one; see `Setup.salt`).
    The result is the (possibly rewritten) prefix, `GameForked`, and the automatic steps that follow.
    """
    if not 1 <= at <= len(source):
        raise ValueError(f"a fork is taken at an event 1..{len(source)}, not {at}")
    prefix = list(source[:at])
    finished = any(isinstance(e, ev.GameEnded) for e in source)
    if any(isinstance(e, ev.GameEnded) for e in prefix):
        raise ValueError("cannot fork at or after the end of the game")
    if seed is None and not finished:
        raise ValueError("an unfinished game's fork needs a new seed (nothing hidden may carry over)")
    state = fold(prefix)
    if seed is None:
        forked = kept_deal_fork(state, source_game, at)
    else:
        unseen = _redeal_face_down(prefix, state, seed)
        forked = redeal(state, seed, source_game, at, salt, unseen)
        first = prefix[0]
        assert isinstance(first, ev.GameStarted)
        drawn_deck, drawn_reserve = _drawn(prefix)
        deck = (*drawn_deck, *forked.deck)
        reserve = (*drawn_reserve, *forked.reserve)
        salt = forked.salt
        starts = first.character_deals
        if forked.character_deals is not None:  # each character's starting order, as the fork re-dealt it
            starts = tuple(
                rules_for(state, p).start_order(state.catalog, p, tuple(started), tuple(order))
                for p, started, order in zip(
                    state.players, starts or ((),) * len(state.players), forked.character_deals, strict=True
                )
            )
        prefix[0] = replace(
            first,
            deck=deck,
            box=forked.box,
            reserve=reserve,
            seed=seed,
            salt=salt,
            moon_hidden=forked.moon_hidden,
            character_deals=starts,
            commitment=commitment_of(salt, deck, forked.box, reserve, forked.moon_hidden, starts),
        )
        for opponent_redeal in state.rules.redeals:  # a non-player opponent's own hidden deal
            opponent_redeal(prefix, seed, salt)
        # Earlier re-deals in the copied prefix (a fork of a fork) are rewritten to the same new deal:
        # the cards the prefix draws after them, then the re-deal.
        for i, e in enumerate(prefix[1:], start=1):
            if isinstance(e, ev.GameForked):
                later_deck, later_reserve = _drawn(prefix[i + 1 :])
                inner_deck = (*later_deck, *forked.deck)
                inner_reserve = (*later_reserve, *forked.reserve)
                prefix[i] = replace(
                    e,
                    deck=inner_deck,
                    box=forked.box,
                    reserve=inner_reserve,
                    seed=seed,
                    salt=salt,
                    moon_hidden=forked.moon_hidden,
                    character_deals=forked.character_deals,
                    commitment=commitment_of(
                        salt,
                        inner_deck,
                        forked.box,
                        inner_reserve,
                        forked.moon_hidden,
                        forked.character_deals,
                    ),
                )
        if forked.character_deals is not None:  # what a character's own rewrite adds (Hevelius)
            for seat, (p, order) in enumerate(zip(state.players, forked.character_deals, strict=True)):
                rules_for(state, p).rewrite_fork(state, seat, prefix, tuple(order))
            for i, e in enumerate(prefix):  # the deals it rewrote are committed anew
                if isinstance(e, ev.GameStarted | ev.GameForked):
                    prefix[i] = replace(e, commitment=_commitment(e))
        # A take-back in the prefix carries a whole earlier state, and so the old deal: it is rebuilt
        # from the rewritten events before it (docs/async.md).
        for i, e in enumerate(prefix):
            if isinstance(e, ev.TakenBack):
                prefix[i] = taken_back(e.seat, fold(prefix[: e.to_version]), e.to_version)
        state = fold(prefix)
    events: list[ev.Event] = [*prefix, forked]
    _, settled = settle(fold([forked], state))
    return events + settled
