"""Store flows on ability-side games (issue 11): replay, fork, export/import and verify, as on base games."""

from __future__ import annotations

from domain import evolve
from domain.characters import Character
from domain.characters.events import CellarRewardGained, KeplerTilesSwapped, LibraryTilePlaced
from domain.selfplay import default_setup
from replays.audit import setup_command, setup_from_command
from replays.service import Games, verify_file
from tests.replays.conftest import play


def ability_game(games: Games, seed: str, players: int = 4, side: str = "ability") -> str:
    game_id, _ = games.create(default_setup(players, seed, side=side))
    return game_id


def test_CHAR_1_the_setup_command_records_each_seats_side() -> None:
    setup = default_setup(3, "x", side="mixed")
    command = setup_command(setup)
    assert command["seats"][0] == ["P1", "galileo", "ability", None] and command["seats"][1] == [
        "P2",
        "kepler",
    ]
    assert setup_from_command(command, "x", "salt").seats == setup.seats


def test_CHAR_1_an_ability_game_replays_exports_imports_and_verifies(games: Games) -> None:
    game_id = ability_game(games, "ability-store-1")
    play(games, game_id, "ability-store-1")
    stored = [s.event for s in games.events(game_id)]
    state = None
    for event in stored:
        state = evolve(state, event)
    assert state is not None and state.finished
    assert all(p.part(Character) is not None for p in state.players)
    kinds = {type(e) for e in stored}
    assert {CellarRewardGained, LibraryTilePlaced} <= kinds or KeplerTilesSwapped in kinds
    assert games.verify(game_id).ok
    exported = games.export(game_id)
    assert verify_file(exported).ok
    copy_id = games.import_(exported)
    assert [s.event for s in games.events(copy_id)] == stored
    assert games.verify(copy_id).ok


def test_CHAR_1_a_fork_of_an_unfinished_ability_game_plays_on_and_verifies(games: Games) -> None:
    source = ability_game(games, "ability-store-2", players=3, side="mixed")
    play(games, source, "ability-store-2", limit=40)
    at = games.head(source) - 2
    fork_id = games.fork(source, at)
    before = games.state(source, at)
    after = games.state(fork_id, at + 1)
    assert before is not None and after is not None
    assert [p.parts for p in after.players] == [p.parts for p in before.players]
    play(games, fork_id, "ability-store-fork")
    assert games.verify(fork_id).ok and verify_file(games.export(fork_id)).ok
