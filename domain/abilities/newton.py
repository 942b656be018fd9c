"""Isaac Newton (digest §17.5): his mirrors' multipliers and his personal pages (CHAR-NEW-1..5, DER-10,
AMB-34, DATA-15, EX-21, EX-22). Queue positions q0..q5 are the sky's X1, X2, S1..S4 (SKY-3)."""

from __future__ import annotations

from domain.catalog.model import Reward

X1, X2 = 0, 1


def start_queue(mirrors: tuple[str, str], others: tuple[str, ...]) -> tuple[str, ...]:
    """CHAR-NEW-1: the two special tiles on X1 and X2, the other four (already shuffled) on S1..S4."""
    return (*mirrors, *others)


def multiplier(multipliers: tuple[int, ...], position: int) -> int:
    """CHAR-NEW-2 / DER-10: S1 x1 .. S4 x4; AMB-34: X1/X2 x0."""
    return multipliers[position]


def mirror_times(multipliers: tuple[int, ...], position: int, upgraded: bool, upgrade_bonus: int) -> int:
    """How many times a mirror's bonus is given (CHAR-NEW-2; DATA-15: an upgraded mirror m + 1)."""
    m = multiplier(multipliers, position)
    return m + upgrade_bonus if upgraded else m


def mirror_reward(bonus: Reward, times: int) -> Reward:
    """The mirror's bonus `times` times (EX-21: the Quadrant mirror on S4 gives 4 Quadrants)."""
    return tuple(code for _ in range(times) for code in bonus)


def page1_moves(queue: tuple[str, ...], mirrors: frozenset[str], steps: int) -> list[tuple[str, int]]:
    """CHAR-NEW-4: (special tile, positions forward) for every legal page-1 move: up to `steps`
    positions forward, never past the top of the queue."""
    return [
        (tile, k)
        for position, tile in enumerate(queue)
        if tile in mirrors
        for k in range(1, steps + 1)
        if position + k < len(queue)
    ]


def page1_move(queue: tuple[str, ...], tile: str, k: int) -> tuple[str, ...]:
    """CHAR-NEW-4: `tile` moves `k` positions forward; each tile it skips moves back one."""
    i = queue.index(tile)
    if k < 1 or i + k >= len(queue):
        raise ValueError(f"{tile} cannot move {k} positions forward from q{i} [CHAR-NEW-4]")
    skipped = queue[i + 1 : i + k + 1]
    return (*queue[:i], *skipped, tile, *queue[i + k + 1 :])


def page2_vp(queue: tuple[str, ...], mirrors: frozenset[str], multipliers: tuple[int, ...], per: int) -> int:
    """CHAR-NEW-5: `per` x the multiplier of his higher special tile (EX-22: 8 VP on S4; AMB-34: 0 when
    both are on X1/X2)."""
    return per * max(multipliers[i] for i, t in enumerate(queue) if t in mirrors)
