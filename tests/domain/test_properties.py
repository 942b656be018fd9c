"""Property runs with fixed seeds: complete games, invariants after every event, determinism."""

from __future__ import annotations

import pytest

from domain import dump_state, fold, legal_moves, load_state, play_through, start
from domain.events import GameEnded, VictoryPointsScored
from domain.selfplay import default_setup, selfplay
from tests.domain.invariants import check_all
from tests.runs import runs

# `make soak`: 2,010 complete games across 2, 3 and 4 players (random and greedy bots); `make test` runs
# the first 100 random and 10 greedy games of each player count (the same seeds).
RANDOM_GAMES = runs(100, 600)  # per player count
GREEDY_GAMES = runs(10, 70)  # per player count


@pytest.mark.parametrize("games", RANDOM_GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_and_keep_invariants(players: int, games: int) -> None:
    for i in range(games):
        record = selfplay(players, f"prop-random-{players}-{i}", "random")
        assert record.state.finished
        assert isinstance(record.events[-1], GameEnded)
        check_all(record.events)  # the invariants after every event
        final = record.state
        scored = {p.seat: 0 for p in final.players}
        for e in record.events:
            if isinstance(e, VictoryPointsScored):
                scored[e.seat] += e.points
        assert scored == {p.seat: p.score for p in final.players}


@pytest.mark.parametrize("games", GREEDY_GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_games_end_and_keep_invariants(players: int, games: int) -> None:
    for i in range(games):
        record = selfplay(players, f"prop-greedy-{players}-{i}", "greedy")
        assert record.state.finished
        assert record.turns < 80 * players, f"greedy game {i} took {record.turns} turns (80 rounds)"
        check_all(record.events)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_after_every_event(players: int) -> None:
    for i in range(15):
        check_all(selfplay(players, f"inv-{players}-{i}", "random" if i % 2 else "greedy").events)


def test_determinism_same_setup_same_commands_same_events() -> None:
    a = selfplay(3, "determinism", "greedy")
    b = selfplay(3, "determinism", "greedy")
    assert a.events == b.events


def test_fold_equals_play_and_dump_round_trips_every_state() -> None:
    setup = default_setup(4, "roundtrip")
    from domain.bots import make_bot

    bots = [make_bot("random", f"rt{i}") for i in range(4)]
    state, events = start(setup)
    assert dump_state(fold(events)) == dump_state(state)
    while not state.finished:
        move = bots[state.turn.seat].choose(state, legal_moves(state))
        state, new = play_through(state, move)
        events.extend(new)
        folded = fold(events)
        assert folded == state
        assert dump_state(folded) == dump_state(state)
        assert load_state(dump_state(state)) == state
    # and every intermediate state (not only decision points) round-trips
    s = None
    from domain.evolve import evolve

    for e in events:
        s = evolve(s, e)
        assert load_state(dump_state(s)) == s


# The ability sides (CHAR-1, issue 11): `make soak` plays 1,020 complete ability games across 2-4 players
# (random and greedy bots, every seat on its ability side or alternating), with the invariants extended
# (Copernicus' tiles, Bruno's cellar, Kepler's tiles: tests/domain/invariants.py); `make test` a sample.
ABILITY_RANDOM_GAMES = runs(6, 300)  # per player count
ABILITY_GREEDY_GAMES = runs(2, 40)  # per player count


@pytest.mark.parametrize("games", ABILITY_RANDOM_GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_CHAR_1_ability_games_end_and_keep_invariants(players: int, games: int) -> None:
    for i in range(games):
        side = "mixed" if i % 3 == 2 else "ability"
        record = selfplay(players, f"prop-ability-{players}-{i}", "random", side=side)
        assert record.state.finished and isinstance(record.events[-1], GameEnded)
        check_all(record.events)


@pytest.mark.parametrize("games", ABILITY_GREEDY_GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_CHAR_1_greedy_ability_games_end_and_keep_invariants(players: int, games: int) -> None:
    for i in range(games):
        record = selfplay(players, f"prop-ability-greedy-{players}-{i}", "greedy", side="ability")
        assert record.state.finished and record.turns < 80 * players
        check_all(record.events)


def test_CHAR_1_ability_games_are_deterministic_fold_equals_play_and_dump_round_trips() -> None:
    a = selfplay(4, "determinism-ability", "greedy", side="ability")
    b = selfplay(4, "determinism-ability", "greedy", side="ability")
    assert a.events == b.events
    setup = default_setup(4, "roundtrip-ability", side="ability")
    from domain.bots import make_bot
    from domain.evolve import evolve

    bots = [make_bot("random", f"rta{i}") for i in range(4)]
    state, events = start(setup)
    while not state.finished:
        state, new = play_through(state, bots[state.turn.seat].choose(state, legal_moves(state)))
        events.extend(new)
    assert fold(events) == state
    s = None
    for e in events:
        s = evolve(s, e)
        assert load_state(dump_state(s)) == s
