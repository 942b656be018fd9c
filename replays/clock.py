"""Clocks for day-scale play (docs/async.md, ASYNC-1): configuration and the pure computation of every
seat's time from the game's clock facts.

A game's clock facts (`Game.clock_log` in replays/store.py) are read off its events with their recorded
receive times: when each turn began (the seat to act changed), pauses and resumes, extensions, expiries
and the end. Time is counted from those recorded times only, so every process computes the same
deadline. Two controls:

- per move: `per_move` for each turn, plus an optional `reserve` per seat that pays for turns longer
  than `per_move` (lichess's correspondence days, with a bank);
- base + increment: a bank of `base` per seat, `increment` added after each of its turns (Fischer).

A seat runs out when the service's clock reaches its deadline (`now >= deadline`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from domain.bots import BOT_KINDS

POLICIES = ("bot", "forfeit")
BOTS = BOT_KINDS  # the bots a seat can be handed to (domain/bots.py)
_DURATION = re.compile(r"P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?")
MAX_DURATION = timedelta(days=365)


def parse_duration(text: object, name: str) -> timedelta:
    """An ISO 8601 duration such as P2D, PT12H or PT3S (weeks, days, hours, minutes, seconds; no years
    or months, whose length varies); ValueError otherwise."""
    match = _DURATION.fullmatch(text) if isinstance(text, str) else None
    if match is None or text in ("P", "PT") or str(text).endswith("T"):
        raise ValueError(
            f"{name} must be an ISO 8601 duration such as 'P2D', 'PT12H' or 'PT3S' (no years or months), "
            f"not {text!r}"
        )
    weeks, days, hours, minutes, seconds = (float(g) if g else 0.0 for g in match.groups())
    total = (((weeks * 7 + days) * 24 + hours) * 60 + minutes) * 60 + seconds
    # Compared in seconds first: a huge count (P99999999999D) is out of range, not a timedelta overflow.
    if total > MAX_DURATION.total_seconds():
        raise ValueError(f"{name} must be between 0 and 365 days, not {text!r}")
    return timedelta(seconds=total)


def iso_duration(value: timedelta) -> str:
    seconds = value.total_seconds()
    whole = int(seconds)
    return f"PT{whole}S" if whole == seconds else f"PT{seconds}S"


@dataclass(frozen=True, slots=True)
class ClockConfig:
    """A game's time control and what happens when a seat runs out."""

    per_move: timedelta | None = None
    reserve: timedelta = timedelta(0)
    base: timedelta | None = None
    increment: timedelta = timedelta(0)
    policy: str = "bot"  # "bot": a bot takes the seat over; "forfeit": the seat is frozen (ASYNC-3)
    bot: str = "greedy"

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClockConfig:
        """From the creation option `clock`: {"per_move": "P2D", "reserve": "P7D"} or
        {"base": "P10D", "increment": "P1D"}, with "on_timeout": "bot" | "forfeit" and "bot"."""
        if not isinstance(data, Mapping):
            raise ValueError("clock must be an object")
        unknown = set(data) - {"per_move", "reserve", "base", "increment", "on_timeout", "bot"}
        if unknown:
            raise ValueError(f"clock has unknown field(s) {', '.join(sorted(unknown))}")
        per_move = data.get("per_move")
        base = data.get("base")
        if (per_move is None) == (base is None):
            raise ValueError("clock needs either per_move (with an optional reserve) or base (+ increment)")
        if per_move is not None and "increment" in data:
            raise ValueError("increment goes with base, not per_move")
        if base is not None and "reserve" in data:
            raise ValueError("reserve goes with per_move, not base")
        policy = data.get("on_timeout", "bot")
        if policy not in POLICIES:
            raise ValueError(f"on_timeout must be one of {', '.join(POLICIES)}, not {policy!r}")
        bot = data.get("bot", "greedy")
        if bot not in BOTS:
            raise ValueError(f"bot must be one of {', '.join(BOTS)}, not {bot!r}")
        config = cls(
            per_move=None if per_move is None else parse_duration(per_move, "per_move"),
            reserve=parse_duration(data.get("reserve", "PT0S"), "reserve"),
            base=None if base is None else parse_duration(base, "base"),
            increment=parse_duration(data.get("increment", "PT0S"), "increment"),
            policy=policy,
            bot=bot,
        )
        if (config.per_move or config.base or timedelta(0)) <= timedelta(0):
            raise ValueError("a clock's per_move or base must be longer than zero")
        return config

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"on_timeout": self.policy, "bot": self.bot}
        if self.per_move is not None:
            out |= {"per_move": iso_duration(self.per_move), "reserve": iso_duration(self.reserve)}
        else:
            assert self.base is not None
            out |= {"base": iso_duration(self.base), "increment": iso_duration(self.increment)}
        return out


@dataclass(frozen=True, slots=True)
class ClockView:
    """Every seat's time at one moment. `left` is the time each seat has for its current or next turn
    (reserve or bank included); `deadline` is when the seat to act runs out (None when paused, over,
    or its clock has already expired this turn)."""

    seat: int | None  # the seat whose clock runs
    turn_version: int  # the version at which that turn began (the expiry's identity)
    since: datetime | None
    deadline: datetime | None
    paused: bool
    left: tuple[timedelta, ...]
    expired: bool  # already recorded as expired for this turn

    def to_json(self, now: datetime) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "since": None if self.since is None else self.since.isoformat(),
            "deadline": None if self.deadline is None else self.deadline.isoformat(),
            "paused": self.paused,
            "expired": self.expired,
            "seconds_left": [max(0.0, round(t.total_seconds(), 3)) for t in self.left],
            "now": now.isoformat(),
        }


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def compute(config: ClockConfig, log: Sequence[Sequence[Any]], seats: int, now: datetime) -> ClockView:
    """Every seat's time at `now` from the clock facts `log` (see replays/store.py, `Game.clock_log`)."""
    zero = timedelta(0)
    bank = [config.base if config.base is not None else config.reserve for _ in range(seats)]
    seat: int | None = None
    since: datetime | None = None
    turn_version = 0
    paused_at: datetime | None = None
    paused_in_turn = zero
    expired = False
    over = False

    def close_turn(end: datetime) -> None:
        if seat is None or since is None:
            return
        spent = end - since - paused_in_turn - (end - paused_at if paused_at is not None else zero)
        if config.base is not None:
            bank[seat] = bank[seat] - spent + config.increment
        else:
            assert config.per_move is not None
            bank[seat] = bank[seat] - max(zero, spent - config.per_move)

    for entry in log:
        kind, version, at = entry[0], int(entry[1]), _at(entry[2])
        if kind == "turn":
            close_turn(at)
            seat, since, turn_version = int(entry[3]), at, version
            paused_in_turn, expired = zero, False
            if paused_at is not None:
                paused_at = at
        elif kind == "end":
            close_turn(at)
            seat, since, over = None, None, True
        elif kind == "pause" and paused_at is None:
            paused_at = at
        elif kind == "resume" and paused_at is not None:
            paused_in_turn += at - paused_at
            paused_at = None
        elif kind == "extend":
            bank[int(entry[3])] += timedelta(seconds=int(entry[4]))
        elif kind == "expired" and seat == int(entry[3]):
            expired = True
    left = list(bank)
    deadline: datetime | None = None
    if seat is not None and since is not None and not over:
        allowance = bank[seat] + (config.per_move if config.per_move is not None else zero)
        running = (paused_at if paused_at is not None else now) - since - paused_in_turn
        left[seat] = allowance - running
        if config.per_move is not None:
            left = [b + config.per_move if i != seat else left[seat] for i, b in enumerate(left)]
        if paused_at is None and not expired:
            deadline = since + paused_in_turn + allowance
    elif config.per_move is not None:
        left = [b + config.per_move for b in left]
    return ClockView(
        seat=None if over else seat,
        turn_version=turn_version,
        since=since,
        deadline=deadline,
        paused=paused_at is not None,
        left=tuple(left),
        expired=expired,
    )
