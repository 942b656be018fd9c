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
    assert sorted(fork.deck + fork.box + fork.reserve) == sorted(source.deck + source.box + source.reserve)
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
