"""The table's facts of a stored game (`replays.store.Game._table`) are one fold over its events, one
step per kind of event (`TABLE_FACTS`), looked up by the event's exact type."""

from __future__ import annotations

from domain.vocabulary import EVENT_TYPES
from replays.store import TABLE_FACTS


def test_no_event_type_with_a_table_step_has_a_subclass() -> None:
    """Looked up by exact type, a subclass of one of these would silently change nothing."""
    known = set(EVENT_TYPES.values())
    for kind in TABLE_FACTS:
        assert kind in known, kind
        subclasses = [other.__name__ for other in known if other is not kind and issubclass(other, kind)]
        assert not subclasses, (kind.__name__, subclasses)


def test_the_table_steps_are_the_table_s_events() -> None:
    """Clocks (ASYNC-1), take-backs (ASYNC-6), hand-overs and links (ASYNC-3, ASYNC-9), claims and
    invitations (ACCT-1, ACCT-7), the end: each has its step; no move of the game has one."""
    names = {kind.__name__ for kind in TABLE_FACTS}
    assert {"TurnEnded", "GameEnded", "GameCancelled", "ClockPaused", "TakeBackRequested"} <= names
    assert {"SeatHandedOver", "SeatLinkReissued", "SeatRecovered", "SeatClaimed", "SeatInvited"} <= names
    assert not names & {"TelescopeMoved", "InquisitorPersuaded", "GameStarted"}
