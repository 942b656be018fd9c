"""Property runs with the Luna characters on their ability side (issue 12): all eight characters mixed
(on the ability side), Luna on and off, 2-4 players, the invariants (tests/domain/invariants.py, extended
to Hevelius' tiles, Cunitz' tokens, Newton's multipliers and Venus) after every event.

`make soak` plays 1,000 random and 40 greedy games; `make test` the first 4 and 1 of them (same seeds)."""

from __future__ import annotations

import pytest

from domain import Options
from domain.events import GameEnded
from domain.selfplay import selfplay
from domain.setup import characters
from tests.domain.invariants import check_all
from tests.runs import runs

RANDOM_GAMES = runs(4, 1000)
GREEDY_GAMES = runs(1, 40)
LUNA_CHARACTERS = ("newton", "hevelius", "cunitz", "sophia")


def characters_of(i: int, players: int) -> tuple[str, ...]:
    """Game i's characters: at least one Luna character, the rest from all eight, rotating."""
    first = LUNA_CHARACTERS[i % 4]
    rest = [c for c in characters()[i % 8 :] + characters()[: i % 8] if c != first]
    return (first, *rest[: players - 1])


def _play(i: int, bot: str) -> None:
    players = 2 + i % 3
    luna = i % 2 == 1
    chars = characters_of(i, players)
    record = selfplay(
        players, f"prop-luna-chars-{bot}-{i}", bot, Options(luna=luna), "ability", characters=chars
    )
    assert record.state.finished and isinstance(record.events[-1], GameEnded)
    assert tuple(p.character for p in record.state.players) == chars
    check_all(record.events)


@pytest.mark.parametrize("games", RANDOM_GAMES)
def test_luna_characters_random_games_end_and_keep_invariants(games: int) -> None:
    for i in range(games):
        _play(i, "random")


@pytest.mark.parametrize("games", GREEDY_GAMES)
def test_luna_characters_greedy_games_end_and_keep_invariants(games: int) -> None:
    for i in range(games):
        _play(i, "greedy")
