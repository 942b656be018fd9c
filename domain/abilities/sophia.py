"""Sophia Brahe (digest §17.8): the Sun and Venus (CHAR-SOP-1..4, DER-26, DER-30, AMB-39, DATA-22)."""

from __future__ import annotations

from domain.catalog.model import Reward

START = 0  # CHAR-SOP-1: Venus starts at its first position, overlapping the Sun


def venus_after_wrap(position: int, positions: int) -> int:
    """CHAR-SOP-2 / DER-30: one position right per `U -> S1` step; from the last back to the first."""
    return (position + 1) % positions


def visible(sun: tuple[Reward, ...], venus: tuple[tuple[int, ...], ...], position: int) -> tuple[int, ...]:
    """The Sun spaces Venus does not cover at `position` (CHAR-SOP-3)."""
    covered = set(venus[position])
    return tuple(i for i in range(len(sun)) if i not in covered)


def sun_reward(sun: tuple[Reward, ...], venus: tuple[tuple[int, ...], ...], position: int) -> Reward:
    """Every visible Sun reward, left to right (CHAR-SOP-3)."""
    return tuple(code for i in visible(sun, venus, position) for code in sun[i])


def sun_triggers(objects_observed: int) -> bool:
    """AMB-39: the Sun pays after an Observe only if it observed at least one object (the fixed action,
    Luna's A2 and the Moon alike), once per Observe action."""
    return objects_observed > 0
