"""Store flows with the Luna characters on their ability side (issue 12): Hevelius' deck order and Cunitz'
Note placement are part of the committed deal, never in an export of an unfinished game nor in a fork
(re-dealt there), revealed by the end; the games verify."""

from __future__ import annotations

import orjson

from domain.characters.cunitz import urania_of
from domain.characters.hevelius import heavens_of
from domain.events import GameEnded, GameForked
from domain.selfplay import default_setup
from replays.service import Games, verify_file
from tests.replays.conftest import play

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
