"""Commitments that survive forks (issue 26; docs/audit.md, "Scheme 3: keyed digests").

Every fork is a new game with a key and nonces of its own, drawn fresh for every secret group of every
event it copies, whatever the kind of game (a face-down library card, a take-back's whole state, the Luna
deal, Tycho's Movement stack, Hevelius' reshuffles); no export of the fork, not even its complete one,
holds any of its source's nonces or its key. Games of schemes 1 and 2 keep verifying and being written in
their own scheme, and their forks are of scheme 3. Tampering with a keyed game's key, nonces or secret
fields is caught, by `galileo verify` too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from api.cli import app
from domain import Options, Setup
from domain.events import CardDrawnFaceDown
from domain.selfplay import default_setup
from replays import table
from replays.audit import COMPACT, KEYED, scheme_of
from replays.errors import TableRefused
from replays.records import StoredEvent
from replays.service import Games, verify_file
from replays.verify import VerifyReport
from tests.replays.conftest import assert_fresh, export_file, export_lines, play, randomness, rehash

CHARACTERS = ("hevelius", "cunitz", "newton", "sophia")
# Each kind of game and its secret groups: its setup and how far it is played before the fork.
KINDS: dict[str, tuple[Setup, int]] = {
    "base": (default_setup(2, "keyed-base"), 60),
    "luna": (dataclasses.replace(default_setup(3, "keyed-luna"), options=Options(luna=True)), 40),
    "solo": (default_setup(1, "keyed-solo", Options()), 40),
    "solo-luna": (default_setup(1, "keyed-solo-luna", Options(luna=True), difficulty="flaming"), 40),
    "characters": (default_setup(4, "keyed-chars", side="ability", characters=CHARACTERS), 40),
}

# The events with secret groups that each kind's prefix holds at the fork.
SECRET_EVENTS = {
    "base": {"GameStarted", "CardDrawnFaceDown", "TakenBack"},
    "luna": {"GameStarted"},  # the Luna deal: moon_hidden
    "solo": {"GameStarted", "OpponentDealt"},  # Tycho's Movement stack (SOLO-24)
    "solo-luna": {"GameStarted", "OpponentDealt"},
    "characters": {"GameStarted"},  # character_deals: Hevelius' deck, Cunitz' Notes
}


def _take_back(games: Games, game_id: str, seed: str) -> None:
    """A take-back (ASYNC-7), granted at once (no one to ask): its TakenBack holds a whole earlier state.
    Played on one decision at a time until the seat to act has something to take back."""

    def read(start: int) -> list[StoredEvent]:
        return games.events(game_id, after=start - 1)

    for attempt in range(200):
        state = games.state(game_id)
        assert state is not None
        seat = state.turn.seat
        try:
            build = table.request_batch(read, seat, None, [])
            games.table(game_id, {"type": "TakeBack"}, build, f"tb-{attempt}", seat)
            return
        except TableRefused:
            play(games, game_id, seed, limit=1)
    raise AssertionError("no take-back was ever open")


def _until(games: Games, game_id: str, seed: str, found: Callable[[list[StoredEvent]], bool]) -> None:
    for _ in range(60):
        if found(games.events(game_id)):
            return
        play(games, game_id, seed, limit=5)
    raise AssertionError("the game never got there")


def _exports(games: Games, game_id: str) -> list[bytes]:
    """Every export of a game: the spectator's, each seat's and the operator's complete backup."""
    state = games.state(game_id)
    assert state is not None
    seats = range(len(state.players))
    return [
        games.export(game_id),
        *(games.export(game_id, s) for s in seats),
        games.export(game_id, reveal=True),
    ]


def _nothing_of(source: list[StoredEvent], exports: list[bytes]) -> None:
    nonces, keys = randomness(source)
    assert nonces and keys
    for data in exports:
        for secret in nonces | keys:
            assert secret.encode() not in data


@pytest.mark.parametrize("kind", KINDS)
def test_every_fork_draws_a_key_and_fresh_nonces_for_every_secret_group(games: Games, kind: str) -> None:
    setup, moves = KINDS[kind]
    source, _ = games.create(setup)
    play(games, source, kind, limit=moves)
    if kind == "base":  # a face-down card (OBS-52) and a take-back (its state is hidden) in the prefix
        _until(games, source, kind, lambda es: any(isinstance(s.event, CardDrawnFaceDown) for s in es))
        _take_back(games, source, kind)
    at = games.head(source)
    origin = games.events(source)
    sealed = {type(s.event).__name__ for s in origin if s.metadata.get("nonces")}
    assert SECRET_EVENTS[kind] <= sealed, sealed
    fork_id = games.fork(source, at)
    fork = games.events(fork_id)
    assert {scheme_of(s.metadata) for s in fork} == {KEYED}
    assert_fresh(origin, fork)
    _nothing_of(origin, _exports(games, fork_id))
    # A fork of the fork: new again, against both.
    play(games, fork_id, f"{kind}-fork", limit=10)
    twice = games.fork(fork_id, games.head(fork_id) - 1)
    again = games.events(twice)
    assert_fresh(fork, again)
    assert_fresh(origin, again)
    for game_id in (fork_id, twice):
        report = games.verify(game_id)
        assert report.ok, report.findings
        assert verify_file(games.export(game_id, reveal=True)).ok


def test_OBS_52_a_keyed_game_shows_no_nonce_or_key_before_the_end_and_all_of_them_after(games: Games) -> None:
    source, _ = games.create(default_setup(2, "keyed-views"))
    _until(games, source, "keyed-views", lambda es: any(isinstance(s.event, CardDrawnFaceDown) for s in es))
    drawn = next(s for s in games.events(source) if isinstance(s.event, CardDrawnFaceDown))
    assert isinstance(drawn.event, CardDrawnFaceDown)
    for viewer in (None, 0, 1):
        data = games.export(source, viewer)
        lines = export_lines(data)
        assert not any("nonces" in line["meta"] or "key" in line["meta"] for line in lines[1:])
        line = lines[drawn.version]
        assert ("card" in line["event"]) == (viewer == drawn.event.seat) and "private" in line["sealed"]
        report = verify_file(data)
        assert report.exit_code == 2 and report.checks[1].status == "ok", report.findings
        assert not report.complete  # a seat's own card beside its seal is not checked until the end
    play(games, source, "keyed-views")
    lines = export_lines(games.export(source))  # finished: complete, whoever asks
    nonces, keys = randomness(games.events(source))
    assert {n for line in lines[1:] for n in (line["meta"].get("nonces") or {}).values()} == nonces
    assert {line["meta"]["key"] for line in lines[1:] if "key" in line["meta"]} == keys
    assert "sealed" not in lines[drawn.version] and verify_file(export_file(lines)).ok


def test_a_scheme_2_game_keeps_its_scheme_and_its_fork_is_keyed(games_v2: Games, games: Games) -> None:
    """A game stored before scheme 3 is written on, exported and verified as it was (its seat still sees
    its own nonce); a fork of it, by a service of today, is of scheme 3 and holds none of its nonces."""
    source, _ = games_v2.create(default_setup(2, "keyed-old"))
    _until(games_v2, source, "keyed-old", lambda es: any(isinstance(s.event, CardDrawnFaceDown) for s in es))
    play(games, source, "keyed-old-on", limit=10)  # today's service writes it on in its own scheme
    origin = games.events(source)
    assert {scheme_of(s.metadata) for s in origin} == {COMPACT} and not randomness(origin)[1]
    drawn = next(s for s in origin if isinstance(s.event, CardDrawnFaceDown))
    assert isinstance(drawn.event, CardDrawnFaceDown)
    own = export_lines(games.export(source, drawn.event.seat))[drawn.version]
    assert own["meta"]["nonces"] == drawn.metadata["nonces"] and "sealed" not in own
    assert games.verify(source).ok
    fork_id = games.fork(source, games.head(source))
    fork = games.events(fork_id)
    assert {scheme_of(s.metadata) for s in fork} == {KEYED}
    assert_fresh(origin, fork)
    nonces = randomness(origin)[0]
    for data in _exports(games, fork_id):
        assert not any(n.encode() in data for n in nonces)
    assert games.verify(fork_id).ok


# -- tampering --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def keyed_export(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A complete export of a finished scheme-3 game with a card drawn face down."""
    folder = tmp_path_factory.mktemp("keyed")
    with Games(f"sqlite:///{folder}/games.db") as service:
        game_id, _ = service.create(default_setup(2, "keyed-finished"))
        play(service, game_id, "keyed-finished")
        data = service.export(game_id)
    assert any(line["event"]["type"] == "CardDrawnFaceDown" for line in export_lines(data)[1:])
    return data


def _first(lines: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(line for line in lines[1:] if line["event"]["type"] == kind)


def _set_card(line: dict[str, Any]) -> None:
    line["event"]["card"] = "D1-01" if line["event"]["card"] != "D1-01" else "D1-02"


def _set_key(line: dict[str, Any]) -> None:
    line["meta"]["key"] = "ab" * 16


def _set_nonce(line: dict[str, Any]) -> None:
    line["meta"]["nonces"]["private"] = "cd" * 16


def _fails(report: VerifyReport, check: str, words: str = "") -> None:
    assert report.exit_code == 1 and report.first is not None, report
    assert report.first.check == check and words in report.first.message, str(report.first)


@pytest.mark.parametrize("edit", [_set_card, _set_key, _set_nonce])
def test_an_edited_card_key_or_nonce_of_a_keyed_game_breaks_its_chain(keyed_export: bytes, edit: Any) -> None:
    lines = export_lines(keyed_export)
    line = _first(lines, "CardDrawnFaceDown")
    edit(line)
    if edit is _set_key:  # the same key on every event, so that the file is well formed
        for other in lines[1:]:
            if "key" in other["meta"]:
                _set_key(other)
    _fails(verify_file(export_file(lines)), "chain", "altered")
    if edit is _set_card:  # a forger who recomputes the chain is caught by the rules or the deal
        rehash(lines, line["version"])
        report = verify_file(export_file(lines))
        assert report.exit_code == 1 and report.first is not None
        assert report.first.check in ("adjudication", "fairness"), str(report.first)


def test_a_keyed_game_has_one_key_and_shows_it_only_with_its_nonces(keyed_export: bytes) -> None:
    lines = export_lines(keyed_export)
    _set_key(_first(lines, "CardDrawnFaceDown"))
    _fails(verify_file(export_file(lines)), "format", "not the game's")
    lines = export_lines(keyed_export)
    del _first(lines, "GameStarted")["meta"]["key"]
    _fails(verify_file(export_file(lines)), "format", "needs the game's key")
    lines = export_lines(keyed_export)
    _first(lines, "TurnEnded")["meta"]["key"] = lines[1]["meta"]["key"]
    _fails(verify_file(export_file(lines)), "format", "without any nonce")


def test_a_sealed_group_may_show_only_a_seats_private_fields(keyed_export: bytes) -> None:
    lines = export_lines(keyed_export)
    start = lines[1]
    start["sealed"] = {"hidden": "0" * 64}
    del start["meta"]["nonces"], start["meta"]["key"]
    _fails(verify_file(export_file(lines)), "format", "only a seat's private fields")


def test_a_key_in_a_scheme_2_line_is_refused(games_v2: Games) -> None:
    game_id, _ = games_v2.create(default_setup(2, "keyed-v2-key"))
    lines = export_lines(games_v2.export(game_id, reveal=True))
    lines[1]["meta"]["key"] = "ab" * 16
    _fails(verify_file(export_file(lines)), "format", "scheme 3 only")


def test_galileo_verify_passes_old_and_new_games_and_forks_and_catches_tampering(
    store_url: str, games: Games, games_v2: Games, keyed_export: bytes, tmp_path: Path
) -> None:
    def verify(target: str) -> int:
        return CliRunner().invoke(app, ["--db", store_url, "verify", target]).exit_code

    old, _ = games_v2.create(default_setup(2, "keyed-cli"))
    play(games_v2, old, "keyed-cli")
    new, _ = games.create(default_setup(2, "keyed-cli"))
    play(games, new, "keyed-cli", limit=50)
    forks = [games.fork(old, games.head(old) - 3), games.fork(new, games.head(new))]
    files = {"keyed": keyed_export, "old": games.export(old), "fork": games.export(forks[1], reveal=True)}
    for name, data in files.items():
        (tmp_path / f"{name}.jsonl").write_bytes(data)
    for target in (old, new, *forks, *(str(tmp_path / f"{name}.jsonl") for name in files)):
        assert verify(target) == 0, target
    lines = export_lines(keyed_export)
    _set_card(_first(lines, "CardDrawnFaceDown"))
    (tmp_path / "forged.jsonl").write_bytes(export_file(lines))
    assert verify(str(tmp_path / "forged.jsonl")) == 1
