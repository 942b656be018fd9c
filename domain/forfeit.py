"""Forfeited seats (docs/async.md, ASYNC-3): a seat whose person forfeited (time ran out or resigned
under the "forfeit" policy) is frozen: from the `SeatFrozen` fact on, its score never changes and its
turns are skipped.

- The state keeps the frozen seats (`GameState.frozen`), set by `SeatFrozen` and cleared when the
  seat is handed to a bot or a person again (`SeatHandedOver` with `to` other than "forfeit").
- Scoring gives a frozen seat nothing: final scoring skips it, an expansion's scoring pays it 0, and a
  points effect of its own (while the server finishes the turn it was frozen in) is lost.
- The turn order skips it (`next_turn`): turn numbers still count the skipped seats' turns, so rounds
  and the final round (END-3) keep their length, and the game ends when the final round's last turn
  would fall to a frozen seat. When every seat is frozen the game ends as the turn in play ends
  (final scoring with the frozen scores).

Games recorded before the engine froze seats have no `SeatFrozen`: their forfeited seats were played
by the server's pass player and replay exactly as recorded.
"""

from __future__ import annotations

from domain import events as ev
from domain.state import GameState, replace
from domain.turnorder import next_seat

FORFEIT_RULE = "ASYNC-3"


def is_frozen(s: GameState, seat: int) -> bool:
    """Whether `seat`'s score is frozen and its turns are skipped."""
    return seat in s.frozen


def freeze(s: GameState, seat: int) -> GameState:
    return s if seat in s.frozen else replace(s, frozen=s.frozen | {seat})


def thaw(s: GameState, seat: int) -> GameState:
    return replace(s, frozen=s.frozen - {seat}) if seat in s.frozen else s


def apply_handover(s: GameState, e: ev.SeatHandedOver) -> GameState:
    """A seat handed to a bot or a person plays (and scores) again; a hand-over to "forfeit" alone
    freezes nothing (the `SeatFrozen` that follows it does)."""
    return s if e.to == "forfeit" else thaw(s, e.seat)


def next_turn(s: GameState) -> tuple[int, int] | None:
    """The seat and number of the next turn, past frozen seats (TURN-1); None when every seat is
    frozen. Each skipped seat's turn counts in the numbering."""
    seat, number = next_seat(s), s.turn.number + 1
    if not s.frozen:
        return seat, number
    for _ in range(len(s.players)):
        if seat not in s.frozen:
            return seat, number
        probe = replace(s, turn=replace(s.turn, seat=seat, number=number))
        seat, number = next_seat(probe), number + 1
    return None


def lost_points(seat: int, effect: str) -> ev.EffectLost:
    """The event that resolves a points effect of a frozen seat without scoring."""
    return ev.EffectLost(
        seat=seat, effect=effect, reason="the seat forfeited: its score is frozen", rule=FORFEIT_RULE
    )
