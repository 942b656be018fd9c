"""Forks in the engine: nothing hidden carries over, and a fork re-run on its own prefix is identical
(what verification relies on)."""

from __future__ import annotations

import pytest

from domain import Options, fold, fork_events
from domain.events import GameForked, GameStarted
from domain.selfplay import selfplay


@pytest.mark.parametrize("luna", [False, True])
def test_fork_redeals_unseen_cards_and_is_reproducible_from_its_own_prefix(luna: bool) -> None:
    record = selfplay(3, f"fork-{luna}", "random", Options(luna=luna))
    events = list(record.events)
    at = len(events) // 3
    source = fold(events[:at])
    forked = fork_events(events, at, "source-game", "new-seed", "new-salt")
    fork = forked[at]
    assert isinstance(fork, GameForked) and (fork.source_game, fork.source_version) == ("source-game", at)
    start = forked[0]
    assert isinstance(start, GameStarted) and start.seed == "new-seed" and start.salt == "new-salt"

    def unseen(state, deal):  # type: ignore[no-untyped-def]
        face_down = [c for p in state.players for c, dark in p.library if not dark]
        return sorted([*deal.deck, *deal.box, *deal.reserve, *face_down])

    assert unseen(fold(forked[: at + 1]), fork) == unseen(source, source)
    assert fork.deck != source.deck
    again = fork_events(forked[:at], at, "source-game", "new-seed", "new-salt")
    assert again == forked  # the rewrite is a fixed point
    state = fold(forked)
    assert not state.finished and state.deck == fork.deck


def test_fork_of_a_finished_game_keeps_its_deal() -> None:
    record = selfplay(2, "fork-finished", "random")
    events = list(record.events)
    forked = fork_events(events, 50, "g", None)
    assert forked[:50] == events[:50]
    fork = forked[50]
    assert isinstance(fork, GameForked) and fork.commitment == fold(events[:50]).commitment
    with pytest.raises(ValueError, match="needs a new seed"):
        fork_events(events[:-5], 50, "g", None)
    with pytest.raises(ValueError, match="at or after the end"):
        fork_events(events, len(events), "g", None)


def test_fork_redraws_face_down_cards_among_cards_with_the_same_tier_and_back() -> None:
    from domain.events import CardDrawnFaceDown

    for i in range(40):
        record = selfplay(3, f"fork-facedown-{i}", "random")
        events = list(record.events)
        draws = [k for k, e in enumerate(events) if isinstance(e, CardDrawnFaceDown)]
        if draws and draws[0] < len(events) - 200:
            break
    at = draws[0] + 5
    forked = fork_events(events, at, "src", "seed-x", "salt-x")
    cards = fold(events[:1]).catalog.cards
    old, new = events[draws[0]], forked[draws[0]]
    assert isinstance(old, CardDrawnFaceDown) and isinstance(new, CardDrawnFaceDown)
    assert (cards[new.card].tier, cards[new.card].back) == (cards[old.card].tier, cards[old.card].back)
    assert (new.tier, new.back) == (old.tier, old.back)
    assert fork_events(forked[:at], at, "src", "seed-x", "salt-x") == forked  # still a fixed point
    state = fold(forked)
    everything = [c for p in state.players for c, _ in p.library] + [c for c in state.display if c]
    everything += list(state.deck + state.box + state.reserve)
    assert sorted(everything) == sorted(cards)  # every card exactly once
    differs = any(
        fork_events(events, at, "src", f"seed-{k}", "s")[draws[0]].card != old.card for k in range(12)
    )
    alike = [
        c for c in cards if (cards[c].tier, cards[c].back) == (cards[old.card].tier, cards[old.card].back)
    ]
    assert differs or len(alike) == 1  # re-drawn, unless the back alone identifies the card


def test_LUNA_23_a_fork_after_a_revealed_moon_tile_was_observed_keeps_its_dealt_scoring_tile() -> None:
    """LUNA-23.5 takes an observed Moon tile's Scoring tile off the Moon; the fork's rewritten deal keeps
    the tile dealt there (the copied MoonPhaseAdvanced revealed it), so a fork of that fork re-adjudicates
    the copied reveal as recorded."""
    from domain.expansions.luna.events import MoonObserved, MoonPhaseAdvanced
    from domain.expansions.luna.plugin import POSITIONS

    events = list(selfplay(2, "fork-moon-0", "random", Options(luna=True)).events)
    first = events[0]
    assert isinstance(first, GameStarted)
    phase = next(i for i, e in enumerate(events) if isinstance(e, MoonPhaseAdvanced))
    observed = next(
        i
        for i, e in enumerate(events)
        if i > phase and isinstance(e, MoonObserved) and POSITIONS.index(e.tile) >= 3
    )
    at = observed + 3
    forked = fork_events(events[: at + 40], at, "source", "seed-m", "salt-m")
    again = fork_events(forked, len(forked), "fork", "seed-n", "salt-n")  # a fork of the fork
    for deal in (forked[0], forked[at], again[0]):
        assert isinstance(deal, GameStarted | GameForked)
        assert deal.moon_hidden[:3] == first.moon_hidden[:3]  # column IV..VI, revealed, one observed since
        assert "" not in deal.moon_hidden


def test_LUNA_23_a_fork_of_a_rules_0_2_0_game_keeps_its_released_re_deal() -> None:
    """A game of rules 0.2.0 keeps the re-deal it was released with ("" for a revealed Moon tile's Scoring
    tile observed since, LUNA-23.5), so the forks it has stored re-adjudicate as they were written."""
    import dataclasses

    from domain.bots import make_bot
    from domain.expansions.luna.events import MoonObserved, MoonPhaseAdvanced
    from domain.expansions.luna.plugin import POSITIONS
    from domain.selfplay import default_setup, play_game

    setup = dataclasses.replace(default_setup(2, "fork-moon-0", Options(luna=True)), engine_version="0.2.0")
    events = list(play_game(setup, [make_bot("random", f"fork-moon-0:{i}") for i in range(2)]).events)
    first = events[0]
    assert isinstance(first, GameStarted) and first.engine_version == "0.2.0"
    phase = next(i for i, e in enumerate(events) if isinstance(e, MoonPhaseAdvanced))
    observed = next(
        i
        for i, e in enumerate(events)
        if i > phase and isinstance(e, MoonObserved) and POSITIONS.index(e.tile) >= 3
    )
    forked = fork_events(events[: observed + 43], observed + 3, "source", "seed-m", "salt-m")
    deal = forked[observed + 3]
    assert isinstance(deal, GameForked)
    assert "" in deal.moon_hidden[:3]  # the released behaviour, unchanged
