"""An account's hold on a seat as table batches (docs/accounts.md): claiming the seat whose link the
person holds (ACCT-1) and recovering it on another device (ACCT-2). Like the batches of replays/table.py,
each `*_batch` returns the `build(game, now)` that `Games.table` calls with the game as it is when written.

The holder is the account's pseudonym in this game (`api.accounts.pseudonym`): the log never holds a
name or an address, and the aggregate's `claims` (replays/store.py) is read off these facts.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from domain import Event
from domain import events as ev
from replays.errors import TableRefused
from replays.store import Game
from replays.table import Build


def _open(game: Game, seat: int) -> None:
    """A seat is claimed or recovered only while the game runs and the seat is a person's."""
    assert game.state is not None
    if game.cancelled:
        raise TableRefused("game-cancelled", "the table's host cancelled this game", "ASYNC-8")
    if game.state.finished:
        raise TableRefused("game-over", "the game has ended: its seats are no longer claimed", "END-2")
    if not 0 <= seat < len(game.state.players):
        raise TableRefused("no-such-seat", f"the game has no seat {seat}", "ACCT-1", status=422)
    handed = game.handed.get(str(seat))
    if handed is not None and handed[0] != "person":
        raise TableRefused("seat-handed-over", f"seat {seat} is no longer played by a person", "ASYNC-3", 403)


def _attach(seat: int, holder: str, released: bool, fact: Callable[[int, str], Event]) -> Build:
    """The seat attached to `holder` by `fact`: nothing when it is theirs already; refused (ACCT-1) when
    another account holds it, unless that account was deleted (`released`)."""

    def build(game: Game, now: datetime) -> list[Event]:
        _open(game, seat)
        held = game.claims.get(str(seat))
        if held == holder:
            return []
        if held is not None and not released:
            raise TableRefused(
                "seat-claimed", f"seat {seat} is attached to another account already", "ACCT-1"
            )
        return [fact(seat, holder)]

    return build


def claim_batch(seat: int, holder: str, released: bool = False) -> Build:
    """ACCT-1: the holder of the seat's link attaches it to their account. Claiming one's own seat again
    records nothing; a seat attached to another account stays theirs until it is handed over, or until
    that account is deleted (`released`: no account holds the claim any more)."""
    return _attach(seat, holder, released, lambda s, h: ev.SeatClaimed(seat=s, holder=h))


def invite_batch(seat: int, holder: str, released: bool = False) -> Build:
    """ACCT-7: the host attaches the seat to an invited account. A seat attached to another account stays
    theirs (ACCT-1; `released`: that account was deleted); inviting the seat's own account again records
    nothing."""
    return _attach(seat, holder, released, lambda s, h: ev.SeatInvited(seat=s, holder=h))


def recover_batch(seat: int, holder: str) -> Build:
    """ACCT-2: the account the seat is attached to opens it on another device (a new seat token)."""

    def build(game: Game, now: datetime) -> list[Event]:
        _open(game, seat)
        if game.claims.get(str(seat)) != holder:
            raise TableRefused(
                "seat-not-yours", f"seat {seat} is not attached to your account", "ACCT-2", status=403
            )
        return [ev.SeatRecovered(seat=seat, holder=holder)]

    return build
