"""Reward codes of the catalog (digest §9.2) turned into agenda tasks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from domain.catalog.rewards import read_reward_code
from domain.state import Task


def base_code(code: str, source: str = "") -> Task | None:
    """What one of the base game's reward codes stands for, as one task (the grammar's reading,
    `read_reward_code` in domain/catalog/rewards.py). None for any other code. The describer
    (projections/describe.py) words a code from this reading."""
    read = read_reward_code(code)
    if read is None:
        return None
    kind, n, arg = read
    return Task(kind, n, arg, source)


def tasks_for(code: str, source: str, specials: Mapping[str, Task]) -> list[Task]:
    """The tasks one reward code stands for, in resolution order (INQ-12: PERxn = n persuades).

    `specials`: the codes the game's plug-ins print besides the base game's, each standing for one task
    (its ruleset's `reward_codes`: an expansion's or a character's, digest §17-18)."""
    special = specials.get(code)
    if special is not None:
        return [Task(special.kind, special.n, special.arg, source)]
    task = base_code(code, source)
    if task is None:
        raise ValueError(f"unknown reward code {code!r}")
    if task.kind == "PER" and task.n != 1:
        return [Task("PER", 1, "", source)] * task.n
    return [task]


def reward_tasks(codes: Iterable[str], source: str, specials: Mapping[str, Task]) -> list[Task]:
    """RES-5: multi-icon rewards resolve in printed order (`specials` as for `tasks_for`)."""
    out: list[Task] = []
    for code in codes:
        out.extend(tasks_for(code, source, specials))
    return out


def task_count(codes: Iterable[str]) -> int:
    """How many tasks `codes` stand for (PERxn: n; every other code, a plug-in's own included: one)."""
    return sum(task.n if (task := base_code(code)) and task.kind == "PER" else 1 for code in codes)


def push(agenda: tuple[Task, ...], tasks: Sequence[Task]) -> tuple[Task, ...]:
    """Put tasks on the agenda so that the first one is resolved first (the top is the end)."""
    if not tasks:
        return agenda
    return agenda + tuple(reversed(tasks))
