"""The solo game against Tycho Brahe in the store (issue 13), on SQLite and PostgreSQL: a fork of a running
solo game re-deals his hidden Movement stack (SOLO-24) and verifies in the store and as a file (`galileo
fork`, `galileo verify`), forked again, played on to the end, round-tripped; a finished game's fork keeps
his deal; a forged re-deal of his stack is caught; the fork's re-dealt stack is in no export before the
end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from typer.testing import CliRunner

from api.cli import app
from domain import Options
from domain.events import GameForked, GameStarted
from domain.expansions.solo.events import MovementStackRevealed, MovementTileRevealed, OpponentDealt
from domain.expansions.solo.rules import stack_commitment
from domain.rng import SeededRandom
from domain.selfplay import default_setup
from replays.service import Games, verify_file
from tests.replays.conftest import SecretCounter, StepClock, play, rehash

LEVELS = [None, "flaming"]  # base solo, and Luna solo at a difficulty (SOLO-2)


def solo_game(games: Games, seed: str, difficulty: str | None) -> str:
    options = Options(luna=True) if difficulty else Options()
    game_id, _ = games.create(default_setup(1, seed, options, difficulty=difficulty))
    return game_id


def dealt_of(games: Games, game_id: str) -> OpponentDealt:
    dealt = games.events(game_id)[1].event
    assert isinstance(dealt, OpponentDealt)
    return dealt


def shown_of(games: Games, game_id: str, upto: int | None = None) -> list[str]:
    """The Movement tiles he revealed in the first `upto` events."""
    events = games.events(game_id)[:upto]
    return [s.event.tile for s in events if isinstance(s.event, MovementTileRevealed)]


def order(tiles: tuple[str, ...]) -> bytes:
    """A run of a hidden order as it would stand in a JSON list."""
    return orjson.dumps(list(tiles))[1:-1]


def cli(store_url: str, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["--db", store_url, *args])
    return result.exit_code, result.output


def verifies(games: Games, game_id: str) -> None:
    report = games.verify(game_id)
    assert report.ok, [str(f) for f in report.findings]
    assert verify_file(games.export(game_id, reveal=True)).ok


@pytest.mark.parametrize("difficulty", LEVELS)
def test_SOLO_24_a_fork_of_a_running_solo_game_re_deals_his_stack_and_verifies(
    games: Games, store_url: str, tmp_path: Path, difficulty: str | None
) -> None:
    source = solo_game(games, f"solo-fork-{difficulty}", difficulty)
    play(games, source, "solo-fork", limit=40)
    revealed = [s.version for s in games.events(source) if isinstance(s.event, MovementTileRevealed)]
    assert len(revealed) >= 3
    at = revealed[len(revealed) // 2] + 1  # in the middle of the game, after one of his reveals
    code, out = cli(store_url, "fork", source, "--at", str(at))
    assert code == 0, out
    fork_id = out.split()[1]
    # His stack: the tiles he revealed, then the rest re-dealt, committed with the fork's salt.
    dealt, original, shown = dealt_of(games, fork_id), dealt_of(games, source), shown_of(games, source, at)
    start = games.events(fork_id)[0].event
    assert isinstance(start, GameStarted) and dealt.commitment == stack_commitment(start.salt, dealt.stack)
    assert dealt.stack[: len(shown)] == tuple(shown) == original.stack[: len(shown)]
    assert sorted(dealt.stack) == sorted(original.stack)
    hidden, source_hidden = dealt.stack[len(shown) :], original.stack[len(shown) :]
    assert hidden != source_hidden and dealt.dice == original.dice
    # It verifies in the store, by `galileo verify` on the game and on its complete export.
    assert games.verify(fork_id).ok, [str(f) for f in games.verify(fork_id).findings]
    backup = tmp_path / "fork.jsonl"
    backup.write_bytes(games.export(fork_id, reveal=True))
    for target in (fork_id, str(backup)):
        code, out = cli(store_url, "verify", target)
        assert code == 0, out
    # Before the end no export shows the fork's re-dealt order, nor the source's.
    for data in (games.export(fork_id), games.export(fork_id, 0)):
        assert order(hidden[:10]) not in data and order(source_hidden[:10]) not in data
    assert order(source_hidden[:10]) not in games.export(fork_id, reveal=True)
    # A fork of the running fork: a re-deal of a re-deal.
    play(games, fork_id, "solo-fork-on", limit=20)
    again = games.fork(fork_id, games.head(fork_id) - 2)
    verifies(games, again)
    play(games, again, "solo-again")
    verifies(games, again)
    # The fork played on to the end reveals the stack it was dealt; the export round-trips.
    play(games, fork_id, "solo-fork-end")
    verifies(games, fork_id)
    end = next(s.event for s in games.events(fork_id) if isinstance(s.event, MovementStackRevealed))
    assert end.stack == dealt_of(games, fork_id).stack
    exported = tmp_path / "finished.jsonl"
    exported.write_bytes(games.export(fork_id))
    code, out = cli(store_url, "verify", str(exported))
    assert code == 0, out
    copy_id = games.import_(exported.read_bytes())
    assert [s.event for s in games.events(copy_id)] == [s.event for s in games.events(fork_id)]
    verifies(games, copy_id)
    # A fork of the finished fork keeps its deal.
    kept = games.fork(fork_id, at + 10)
    assert dealt_of(games, kept) == dealt_of(games, fork_id)
    verifies(games, kept)
    play(games, kept, "solo-kept")
    verifies(games, kept)


@pytest.mark.parametrize("difficulty", LEVELS)
def test_SOLO_24_a_fork_of_a_finished_solo_game_keeps_his_deal(games: Games, difficulty: str | None) -> None:
    source = solo_game(games, f"solo-finished-{difficulty}", difficulty)
    play(games, source, "solo-finished")
    at = games.head(source) // 2
    fork_id = games.fork(source, at)
    forked = games.events(fork_id)[at].event
    assert isinstance(forked, GameForked)
    assert [s.event for s in games.events(fork_id)[:at]] == [s.event for s in games.events(source)[:at]]
    verifies(games, fork_id)
    play(games, fork_id, "solo-finished-fork")
    verifies(games, fork_id)
    end = next(s.event for s in games.events(fork_id) if isinstance(s.event, MovementStackRevealed))
    assert end.stack == dealt_of(games, source).stack  # the deal it kept is the one revealed


def _forged(lines: list[dict[str, Any]], stack: list[str]) -> None:
    """A forger's new stack in the fork's OpponentDealt (line 2), committed with the fork's salt and
    re-hashed."""
    event = lines[2]["event"]
    event["stack"] = stack
    event["commitment"] = stack_commitment(lines[1]["event"]["salt"], tuple(stack))
    rehash(lines, 2)


@pytest.mark.parametrize("forgery", ["reordered", "other-tiles", "uncommitted"])
def test_SOLO_24_a_forged_re_deal_of_his_stack_in_a_fork_is_caught(tmp_path: Path, forgery: str) -> None:
    with Games(f"sqlite:///{tmp_path}/solo.db", clock=StepClock(), secret=SecretCounter()) as games:
        source = solo_game(games, "solo-forged", "hard")
        play(games, source, "solo-forged", limit=30)
        fork_id = games.fork(source, games.head(source) - 4)
        data = games.export(fork_id, reveal=True)
        shown = len(shown_of(games, fork_id))
    assert verify_file(data).ok
    lines = [orjson.loads(line) for line in data.splitlines()]
    start, dealt = lines[1]["event"], lines[2]["event"]
    assert dealt["type"] == "OpponentDealt"
    stack, rest = list(dealt["stack"]), list(dealt["stack"][shown:])
    if forgery == "reordered":  # two unseen tiles swapped: the fork's re-deal put them otherwise
        i = next(k for k in range(shown + 1, len(stack)) if stack[k] != stack[shown])
        stack[shown], stack[i] = stack[i], stack[shown]
        _forged(lines, stack)
    elif forgery == "other-tiles":  # tiles his setup does not deal, in the order the fork would give
        rest[rest.index(max(rest))] = min(rest)
        again = SeededRandom(start["seed"], "fork-solo").shuffled(sorted(rest))
        _forged(lines, [*stack[:shown], *again])
    else:  # reordered without committing anew (two unseen tiles that differ: a stack may repeat a tile)
        i = next(k for k in range(len(stack) - 1, shown, -1) if stack[k] != stack[shown])
        stack[shown], stack[i] = stack[i], stack[shown]
        lines[2]["event"]["stack"] = stack
        rehash(lines, 2)
    report = verify_file(b"\n".join(orjson.dumps(line) for line in lines) + b"\n")
    assert not report.ok
    assert report.checks[1].status == "ok"  # the chain was re-hashed: the rules catch it
    first = report.findings[0]  # the forged OpponentDealt itself
    assert (first.check, first.version) == ("adjudication", 2), str(first)
    assert first.rule == "SOLO-24"
