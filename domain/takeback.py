"""Take-backs (docs/async.md, ASYNC-6/7): the event that returns a game to an earlier state, and the
information horizon that says how far back a seat may go.

A take-back never deletes anything: `TakenBack` carries the earlier state whole, so `evolve` stays a
pure function of (state, event); its handler is here (`RULES`, the base game's, domain/base.py).
The horizon is the last event that showed anyone something that was hidden (a card drawn or turned,
a face-down draw, a re-deal, or what an expansion reveals) or another seat's action: a take-back may
not reach back across it.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain import events as ev
from domain.ruleset import Rules
from domain.serialize import dump_state, load_state
from domain.state import GameState
from domain.vocabulary import EVENT_TYPES


def reveals(event: ev.Event) -> bool:
    """Whether `event` revealed something hidden until then (a drawn card's front, a new deal, what an
    expansion or a character turns over): its type says so where it is defined (`Event.REVEALS`)."""
    return type(event).REVEALS


def revealing_types() -> list[type[ev.Event]]:
    """Every event type of the wire vocabulary that reveals something (`Event.REVEALS`)."""
    return [cls for cls in EVENT_TYPES.values() if cls.REVEALS]


def taken_back(seat: int, state: GameState, to_version: int) -> ev.TakenBack:
    """The `TakenBack` that returns a game to `state`, its state after event `to_version`."""
    return ev.TakenBack(
        seat=seat,
        to_version=to_version,
        scores=tuple(p.score for p in state.players),
        points=tuple(p.points for p in state.players),
        state=dump_state(state),
    )


def reveal_in(events: Sequence[ev.Event]) -> ev.Event | None:
    """The first event of `events` that revealed something hidden, if any."""
    return next((e for e in events if reveals(e)), None)


RULES = Rules(__name__)


@RULES.event(ev.TakenBack)
def _taken_back(s: GameState, e: ev.TakenBack) -> GameState:
    """The state the take-back returns to, read from its JSON form (lists, not the frozen tuples)."""
    return load_state(ev.event_to_dict(e)["state"])
