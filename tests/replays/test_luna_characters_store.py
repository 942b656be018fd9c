"""Store flows with the Luna characters on their ability side (issue 12): Hevelius' deck order and Cunitz'
Note placement are part of the committed deal, never in an export of an unfinished game nor in a fork
(re-dealt there), revealed by the end; the games verify."""

from __future__ import annotations

import orjson

from domain.characters.cunitz import urania_of
from domain.characters.hevelius import ConstellationDeckReshuffled, heavens_of
from domain.events import GameEnded, GameForked, GameStarted
from domain.selfplay import default_setup
from replays.service import Games, verify_file
from tests.replays.conftest import SQLITE_THEN_SOAK, play

CHARACTERS = ("hevelius", "cunitz", "newton", "sophia")


def _secrets(games: Games, game_id: str, version: int) -> list[bytes]:
    """The hidden orders at `version`, as they would appear in an export: Hevelius' deck (its order),
    Cunitz' Notes not yet shown."""
    state = games.state(game_id, version)
    assert state is not None
    deck = heavens_of(state.players[0]).deck
    urania = urania_of(state.players[1])
    out = [orjson.dumps(list(deck))]
    hidden_notes = urania.notes[urania.shown :]
    if len(hidden_notes) > 1:
        out.append(orjson.dumps(list(hidden_notes)))
    return out


def test_hidden_orders_never_exported_forks_redeal_and_the_end_reveals(games: Games) -> None:
    setup = default_setup(4, "luna-chars-store", side="ability", characters=CHARACTERS)
    source, _ = games.create(setup)
    play(games, source, "luna-chars-store", limit=30)
    at = games.head(source) - 2
    secrets = _secrets(games, source, at)
    for data in (games.export(source), games.export(source, 0), games.export(source, 1)):
        for secret in secrets:
            assert secret not in data
    fork_id = games.fork(source, at)
    forked = games.events(fork_id)[at].event
    assert isinstance(forked, GameForked) and forked.character_deals is not None
    everything = b"\n".join(games.export(fork_id, seat) for seat in (None, 0, 1))
    for secret in secrets:
        assert secret not in everything
    assert games.verify(fork_id).ok
    play(games, source, "luna-chars-store")
    state = games.state(source)
    assert state is not None and state.finished
    ended = games.events(source)[-1].event
    assert isinstance(ended, GameEnded) and ended.character_deals is not None  # revealed at the end
    report = games.verify(source)
    assert report.ok, report.findings
    assert verify_file(games.export(source)).ok


def _until_a_reshuffle(games: Games, game_id: str, seed: str) -> int:
    """Play on until Hevelius' discard pile was shuffled into a new deck (CHAR-HEV-7); its version."""
    for _ in range(200):
        events = games.events(game_id)
        found = [s.version for s in events if isinstance(s.event, ConstellationDeckReshuffled)]
        if found:
            return found[-1]
        play(games, game_id, seed, limit=10)
    raise AssertionError("no reshuffle")


def _unseen(games: Games, game_id: str, version: int) -> list[bytes]:
    """What of the characters' hidden orders is unseen at `version` (long enough to be recognised): her
    deck's order, her reshuffle key, Cunitz' Notes still face down."""
    state = games.state(game_id, version)
    assert state is not None
    heavens = heavens_of(state.players[0])
    urania = urania_of(state.players[1])
    out = [heavens.shuffle_key.encode()]
    if len(heavens.deck) >= 4:
        out.append(orjson.dumps(list(heavens.deck))[1:-1])
    if len(urania.notes) - urania.shown >= 4:
        out.append(orjson.dumps(list(urania.notes[urania.shown :]))[1:-1])
    return out


@SQLITE_THEN_SOAK
def test_CHAR_HEV_7_forks_after_a_reshuffle_and_forks_of_forks_verify_and_reveal_nothing(
    games: Games,
) -> None:
    setup = default_setup(4, "luna-chars-forks", side="ability", characters=CHARACTERS)
    source, _ = games.create(setup)
    shuffled = _until_a_reshuffle(games, source, "luna-chars-forks")
    for at in (shuffled, shuffled + 1, games.head(source)):  # between the reshuffle and its refill too
        secrets = _unseen(games, source, at)
        fork_id = games.fork(source, at)
        report = games.verify(fork_id)
        assert report.ok, report.findings
        play(games, fork_id, f"fork-{at}", limit=60)
        inner = games.head(fork_id) - 3
        twice = games.fork(fork_id, inner)  # a fork of the fork, past a reshuffle of its own maybe
        assert games.verify(twice).ok
        play(games, twice, f"twice-{at}")
        final = games.state(twice)
        assert final is not None and final.finished
        report = games.verify(twice)
        assert report.ok, report.findings
        everything = b"\n".join([games.export(twice), games.export(fork_id)])  # the fork of the fork ended
        for secret in secrets:
            assert secret not in everything
        assert verify_file(games.export(twice)).ok
        imported = games.import_(games.export(twice))  # the store takes the file back: it verifies
        assert games.verify(imported).ok


def test_a_rules_0_2_0_game_forks_after_a_reshuffle_and_forks_of_forks_verify(games: Games) -> None:
    """A game recorded under rules 0.2.0 keeps drawing her reshuffles from its seed; its forks commit the
    copied reshuffles' orders explicitly, so they re-verify (a first fork before any reshuffle is rewritten
    as it always was)."""
    from dataclasses import replace

    setup = default_setup(2, "luna-chars-old-forks", side="ability", characters=("hevelius", "cunitz"))
    source, _ = games.create(replace(setup, engine_version="0.2.0"))
    shuffled = _until_a_reshuffle(games, source, "luna-chars-old-forks")
    fork_id = games.fork(source, shuffled + 2)
    assert games.verify(fork_id).ok
    play(games, fork_id, "old-fork", limit=40)
    twice = games.fork(fork_id, games.head(fork_id) - 2)
    play(games, twice, "old-twice")
    report = games.verify(twice)
    assert report.ok, report.findings
    first = games.events(twice)[0].event
    assert isinstance(first, GameStarted) and first.engine_version == "0.2.0"
