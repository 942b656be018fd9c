"""Objective conditions (OBJ-6), subject counts (SUBJ-2) and final scoring (SCO-1..5, TIE-1)."""

from __future__ import annotations

from collections.abc import Callable

from domain.characters import rules_for
from domain.state import GameState, PlayerState

TOP = 4  # the top row of a Scale tile (DER-6)


def on_rightmost(s: GameState, p: PlayerState) -> int:
    """Inquisitors of every kind on the rightmost cellar space (INQ-15, INQ-16): a plug-in's own
    figures are counted by the seat part that holds them (`Part.on_rightmost`)."""
    count = p.cellar[-1]
    for part in p.parts:
        count += part.on_rightmost()
    return count


def major_objects(s: GameState, p: PlayerState) -> int:
    """LIB-5: dark cards in the library, plus what a plug-in counts as Major Objects."""
    count = p.major_objects
    for source in s.rules.major_object_sources:
        count += source(s, p)
    return count


def _tokens_off(p: PlayerState) -> int:
    return p.tokens_used


OBJECTIVES: dict[str, Callable[[GameState, PlayerState], bool]] = {
    "OBJ-P1": lambda s, p: major_objects(s, p) >= 2 and _tokens_off(p) >= 2 and p.comets_off >= 2,
    "OBJ-P2": lambda s, p: sum(1 for h in p.university if h >= TOP) >= 2,
    "OBJ-N1": lambda s, p: major_objects(s, p) >= 4,
    "OBJ-N2": lambda s, p: all(b >= 3 for b in p.books),  # AMB-17
    "OBJ-N3": lambda s, p: (
        (
            max(p.inquisitors, s.turn.cellar_peak)
            if s.options.inquisitor_objective_uses_turn_maximum and s.turn.seat == p.seat
            else p.inquisitors
        )
        >= 6
    ),  # AMB-16; an expansion's own Inquisitors count (AMB-14)
    "OBJ-N4": lambda s, p: len(p.upgraded) >= 5,
    "OBJ-N5": lambda s, p: p.comets_off >= 5,
    "OBJ-N6": lambda s, p: _tokens_off(p) >= 6,
}

SUBJECTS: dict[str, Callable[[GameState, PlayerState], int]] = {
    "SUBJ-A1": lambda s, p: major_objects(s, p),
    "SUBJ-A2": lambda s, p: min(p.books),
    "SUBJ-A3": lambda s, p: p.inquisitors,  # an expansion's own Inquisitors count (AMB-14)
    "SUBJ-A4": lambda s, p: len(p.upgraded),
    "SUBJ-A5": lambda s, p: p.comets_off,
    "SUBJ-A6": lambda s, p: _tokens_off(p),
}


def claimable_objective_of(s: GameState, p: PlayerState, objective: str) -> str | None:
    """`objective` if `p` meets it now and has not claimed it yet (OBJ-4)."""
    claimed = s.claims[s.objectives.index(objective)]
    return objective if p.seat not in claimed and OBJECTIVES[objective](s, p) else None


def university_points(s: GameState, p: PlayerState) -> list[tuple[str, int]]:
    """SCL-3/SCO-2: per Scale tile, multiplier of the token's row x count of the subject."""
    out = []
    for face_id, subject, height in zip(s.scale, s.subjects, p.university, strict=True):
        multiplier = s.catalog.scale_face(face_id).rows[height - 1].multiplier if height else 0
        out.append((subject, multiplier * SUBJECTS[subject](s, p)))
    return out


def cellar_points(s: GameState, p: PlayerState) -> int:
    """SCO-3/INQ-30: each Inquisitor left scores its space's bottom value (a plug-in's own figures as
    the seat part that holds them says)."""
    bottom = rules_for(s, p).cellar(s.catalog)[1] if p.parts else s.catalog.cellar_bottom  # CHAR-BRU-3
    points = sum(v * n for v, n in zip(bottom, p.cellar, strict=True))
    for part in p.parts:
        points += part.cellar_points(bottom, s.options)
    return points


def reputation_points(s: GameState, p: PlayerState) -> int:
    """SCO-4/REP-2."""
    return s.catalog.reputation_vp[p.reputation]


def interrogation(s: GameState, p: PlayerState) -> tuple[int, int, int]:
    """INQ-21..24: (total, new position, overflow VP)."""
    arch = rules_for(s, p).cellar(s.catalog)[0] if p.parts else s.catalog.cellar_arch  # CHAR-BRU-3
    total = sum(v * n for v, n in zip(arch, p.cellar, strict=True))
    for part in p.parts:
        total += part.interrogation(arch)  # a plug-in's own figures
    lo, hi = s.catalog.reputation_min, s.catalog.reputation_max
    target = p.reputation + total
    end = min(hi, max(lo, target))
    overflow = 0
    if target != end:
        at_end_already = p.reputation == end
        if s.options.reputation_overflow_partial or at_end_already:  # AMB-7
            overflow = s.catalog.reputation_overflow_vp * (1 if target > end else -1)
    return total, end, overflow


def tiebreak_key(p: PlayerState) -> tuple[int, int, int]:
    """TIE-1 (AMB-32): score, then total value of dice left, then Quadrants left."""
    return (p.score, sum(v for _, v in p.dice), p.quadrants)


def winners(s: GameState) -> tuple[int, ...]:
    best = max(tiebreak_key(p) for p in s.players)
    return tuple(p.seat for p in s.players if tiebreak_key(p) == best)
