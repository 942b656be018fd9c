"""The read-only state at a version (`replays.rebuild.state_at`, behind `Games.state(game, version)`) is
exactly the state of the rebuilt `Game` aggregate, at every version, on both backends: games of both audit
schemes, Luna and solo games, forks and forks of forks, games of an older rules version and games stored
by the first release (their events upcast on read). Whatever it does not read itself it leaves to the
aggregate, which raises what it always raised."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from uuid import UUID

import pytest
from eventsourcing.sqlite import SQLiteApplicationRecorder
from eventsourcing.utils import get_topic

from domain import EventDoesNotFit, Options
from domain.selfplay import default_setup
from replays.errors import GameNotFound, VersionOutOfRange
from replays.rebuild import state_at
from replays.service import Games
from replays.store import SNAPSHOT_INTERVAL, GameStore, store_env
from tests.fixtures import release_games
from tests.replays.conftest import RawRows, SecretCounter, StepClock, new_game, play


def checked(head: int, stride: int = 7) -> list[int]:
    """The versions compared: the first ones (before any snapshot), the last ones, the few on either side
    of every snapshot (where a batch begun before it continues after it), and every `stride`-th one."""
    near = (0, 1, 2, 3, SNAPSHOT_INTERVAL - 1)
    return [
        v
        for v in range(1, head + 1)
        if v <= 20 or v > head - 20 or v % SNAPSHOT_INTERVAL in near or v % stride == 0
    ]


def same_as_the_aggregate(url: str, game_id: str, stride: int = 7) -> int:
    """Compare the fast path with the aggregate at the `checked` versions of the game, in a service of its
    own (cold caches: the first event of a batch begun before a snapshot is read from the store)."""
    with Games(url, clock=StepClock(), secret=SecretCounter()) as fresh:
        gid = UUID(game_id)
        head = fresh.head(game_id)
        for version in checked(head, stride):
            fast = state_at(fresh.store, gid, version)
            assert fast is not None, version
            assert fast == fresh.store.load(gid, version).state, version
        assert fresh.state(game_id, head) == fast
        return head


def test_a_scheme_3_game_is_the_same_as_the_aggregate(games: Games, store_url: str) -> None:
    game_id = new_game(games, "rebuild-scheme-2")
    play(games, game_id, "rebuild-scheme-2")
    state = games.state(game_id)
    assert state is not None and state.finished
    assert games.events(game_id)[-1].metadata["scheme"] == 3
    assert same_as_the_aggregate(store_url, game_id, stride=3) > 5 * SNAPSHOT_INTERVAL


def test_a_scheme_2_game_is_the_same_as_the_aggregate(games_v2: Games, store_url: str) -> None:
    game_id = new_game(games_v2, "rebuild-scheme-2")
    play(games_v2, game_id, "rebuild-scheme-2")
    assert games_v2.events(game_id)[-1].metadata["scheme"] == 2
    assert same_as_the_aggregate(store_url, game_id, stride=7) > 5 * SNAPSHOT_INTERVAL


def test_a_scheme_1_game_is_the_same_as_the_aggregate(games_v1: Games, store_url: str) -> None:
    game_id = new_game(games_v1, "rebuild-scheme-1")
    play(games_v1, game_id, "rebuild-scheme-1")
    assert "scheme" not in games_v1.events(game_id)[-1].metadata  # the first releases' metadata
    assert same_as_the_aggregate(store_url, game_id) > 5 * SNAPSHOT_INTERVAL


def test_forks_and_a_fork_of_a_fork_are_the_same_as_the_aggregate(games: Games, store_url: str) -> None:
    source = new_game(games, "rebuild-forks")
    play(games, source, "rebuild-forks", limit=60)
    fork_id = games.fork(source, games.head(source) - 3)  # unfinished: re-dealt
    play(games, fork_id, "rebuild-fork", limit=20)
    twice = games.fork(fork_id, games.head(fork_id) - 1)
    play(games, twice, "rebuild-twice")
    kept = games.fork(twice, games.head(twice) - 5)  # of a finished game: its deal kept
    for game_id in (fork_id, twice, kept):
        same_as_the_aggregate(store_url, game_id, stride=17)


def test_luna_and_solo_games_are_the_same_as_the_aggregate(games: Games, store_url: str) -> None:
    luna, _ = games.create(dataclasses.replace(default_setup(2, "rebuild-luna"), options=Options(luna=True)))
    play(games, luna, "rebuild-luna")
    solo, _ = games.create(default_setup(1, "rebuild-solo", Options(luna=True), difficulty="flaming"))
    play(games, solo, "rebuild-solo")
    for game_id in (luna, solo):
        same_as_the_aggregate(store_url, game_id, stride=17)


def test_a_game_of_an_older_rules_version_is_the_same_as_the_aggregate(games: Games, store_url: str) -> None:
    setup = default_setup(2, "rebuild-rules-0.2.0", side="ability", characters=("hevelius", "cunitz"))
    game_id, _ = games.create(dataclasses.replace(setup, engine_version="0.2.0"))
    play(games, game_id, "rebuild-rules-0.2.0")
    state = games.state(game_id)
    assert state is not None and state.engine_version == "0.2.0"
    same_as_the_aggregate(store_url, game_id, stride=17)


@pytest.mark.parametrize("name", sorted(release_games("release-1")))
def test_a_game_stored_by_the_first_release_is_the_same_as_the_aggregate(name: str, tmp_path: Path) -> None:
    """Rules 0.1.0, audit scheme 1, events of an older shape (upcast on read)."""
    url = f"sqlite:///{tmp_path}/games.db"
    with Games(url, clock=StepClock(), secret=SecretCounter()) as games:
        game_id = games.import_(release_games("release-1")[name])
        written = {s.metadata.get("engine_version") for s in games.events(game_id)}
    assert written == {"0.1.0"}
    same_as_the_aggregate(url, game_id, stride=29)


def test_a_sqlite_file_of_layout_1_is_the_same_as_the_aggregate(tmp_path: Path) -> None:
    """A file written by the library's own recorders (docs/storage.md): the fast path reads it through the
    recorders as well."""
    url = f"sqlite:///{tmp_path}/old.db"
    legacy = GameStore(
        env={**store_env(url), "APPLICATION_RECORDER_TOPIC": get_topic(SQLiteApplicationRecorder)}
    )
    games = Games(url, clock=StepClock(), secret=SecretCounter())
    games.store.close()
    games.store = legacy  # the library's tables and rows, as a release before layout 2 left them
    game_id = new_game(games, "rebuild-layout-1")
    play(games, game_id, "rebuild-layout-1", limit=120)
    games.close()
    with Games(url) as reopened:
        assert getattr(reopened.store.recorder, "layout", None) == 1
    assert same_as_the_aggregate(url, game_id, stride=3) > 2 * SNAPSHOT_INTERVAL


def test_a_version_past_the_head_or_an_unknown_game_is_left_to_the_aggregate(games: Games) -> None:
    game_id = new_game(games, "rebuild-bounds")
    play(games, game_id, "rebuild-bounds", limit=10)
    head = games.head(game_id)
    assert state_at(games.store, UUID(game_id), head + 1) is None
    with pytest.raises(VersionOutOfRange):
        games.state(game_id, head + 1)
    unknown = UUID(int=12345)
    assert state_at(games.store, unknown, 1) is None
    with pytest.raises(GameNotFound):
        games.state(str(unknown), 1)


def test_a_row_it_cannot_read_is_refused_by_the_aggregate_as_before(games: Games, raw: RawRows) -> None:
    game_id = new_game(games, "rebuild-tampered")
    play(games, game_id, "rebuild-tampered", limit=20)
    version = 9
    topic, data = raw.row(game_id, version)
    data["payload"]["type"] = "NoSuchEvent"
    raw.write(game_id, version, topic, data)
    assert state_at(games.store, UUID(game_id), version + 2) is None
    with pytest.raises(EventDoesNotFit, match="NoSuchEvent"):
        games.state(game_id, version + 2)
    assert games.state(game_id, version - 1) is not None  # the versions before it still read


def test_a_second_game_started_is_left_to_the_aggregate(games: Games, raw: RawRows) -> None:
    game_id = new_game(games, "rebuild-restarted")
    play(games, game_id, "rebuild-restarted", limit=5)
    _, first = raw.row(game_id, 1)
    topic, second = raw.row(game_id, 2)
    second["payload"] = first["payload"]  # a GameStarted as the second event, under that event's topic
    raw.write(game_id, 2, topic, second)
    assert state_at(games.store, UUID(game_id), 3) is None
    with pytest.raises(EventDoesNotFit, match=r"event 2 \(GameStarted\) does not fit the game"):
        games.state(game_id, 3)
