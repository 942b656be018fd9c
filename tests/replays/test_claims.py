"""Claimed seats in the store (docs/accounts.md): the claim and recovery batches' rules (ACCT-1, ACCT-2),
the aggregate's `claims` read off the log (ended by a hand-over, reset by a fork, kept in snapshots), and
verification of games that hold them."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain import SeatSpec, Setup, legal_moves
from domain.bots import make_bot
from replays import table
from replays.claims import claim_batch, recover_batch
from replays.errors import TableRefused
from replays.service import Games

ADA, EVE = "p_" + "a" * 32, "p_" + "e" * 32


def _game(games: Games) -> str:
    seats = (SeatSpec("A", "galileo"), SeatSpec("B", "kepler"))
    return games.create(Setup(seats=seats, seed="claims", first_seat=0))[0]


def test_ACCT_1_a_claim_holds_until_a_hand_over(tmp_path: Path) -> None:
    with Games(f"sqlite:///{tmp_path}/g.db") as games:
        game_id = _game(games)
        games.table(game_id, {"type": "ClaimSeat"}, claim_batch(0, ADA), "c1", 0)
        assert dict(games.game(game_id).claims) == {"0": ADA}
        head = games.head(game_id)
        assert games.table(game_id, {"type": "ClaimSeat"}, claim_batch(0, ADA), "c2", 0).events == ()
        with pytest.raises(TableRefused) as taken:
            games.table(game_id, {"type": "ClaimSeat"}, claim_batch(0, EVE), "c3", 0)
        assert taken.value.code == "seat-claimed" and taken.value.rule == "ACCT-1"
        with pytest.raises(TableRefused) as missing:
            games.table(game_id, {"type": "ClaimSeat"}, claim_batch(2, EVE), "c4", 2)
        assert missing.value.status == 422
        assert games.head(game_id) == head  # nothing written
        # A claim whose account is gone (`released`) may be taken by the link's holder.
        games.table(game_id, {"type": "ClaimSeat"}, claim_batch(0, EVE, released=True), "c5", 0)
        assert dict(games.game(game_id).claims) == {"0": EVE}
        # A hand-over ends the claim; a seat played by a bot cannot be claimed.
        games.table(game_id, {"type": "HandOver"}, table.handover_batch(0, "bot", "greedy"), "h", "host")
        assert dict(games.game(game_id).claims) == {}
        with pytest.raises(TableRefused) as bot:
            games.table(game_id, {"type": "ClaimSeat"}, claim_batch(0, ADA), "c6", 0)
        assert bot.value.rule == "ASYNC-3"
        assert games.verify(game_id).ok


def test_ACCT_2_only_the_holder_recovers_while_the_game_runs(tmp_path: Path) -> None:
    with Games(f"sqlite:///{tmp_path}/g.db") as games:
        game_id = _game(games)
        with pytest.raises(TableRefused) as unclaimed:
            games.table(game_id, {"type": "RecoverSeat"}, recover_batch(1, ADA), "r0", 1)
        assert unclaimed.value.code == "seat-not-yours" and unclaimed.value.rule == "ACCT-2"
        games.table(game_id, {"type": "ClaimSeat"}, claim_batch(1, ADA), "c", 1)
        with pytest.raises(TableRefused):
            games.table(game_id, {"type": "RecoverSeat"}, recover_batch(1, EVE), "r1", 1)
        done = games.table(game_id, {"type": "RecoverSeat"}, recover_batch(1, ADA), "r2", 1)
        assert [type(e).__name__ for e in done.events] == ["SeatRecovered"]
        games.table(game_id, {"type": "Cancel"}, table.cancel_batch(), "x", "host")
        with pytest.raises(TableRefused) as over:
            games.table(game_id, {"type": "RecoverSeat"}, recover_batch(1, ADA), "r3", 1)
        assert over.value.code == "game-cancelled"
        assert games.verify(game_id).ok


def test_claims_survive_snapshots_and_a_fork_starts_without_them(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/snap.db"
    with Games(url) as games:
        game_id = _game(games)
        games.table(game_id, {"type": "ClaimSeat"}, claim_batch(1, ADA), "c", 1)
        bot = make_bot("random", "claims")
        while games.head(game_id) < 230:
            state = games.state(game_id)
            assert state is not None and not state.finished
            command = bot.choose(state, legal_moves(state))
            games.submit(game_id, command, games.head(game_id), f"m{games.head(game_id)}", command.seat)
        fork = games.fork(game_id, games.head(game_id))
    with Games(url) as fresh:  # a new process: loaded from the last snapshot and the events after it
        after = fresh.game(game_id)
        assert fresh.store.snapshots is not None and list(fresh.store.snapshots.get(after.id))
        assert dict(after.claims) == {"1": ADA}
        assert dict(fresh.game(fork).claims) == {}
        assert fresh.verify(game_id).ok and fresh.verify(fork).ok
