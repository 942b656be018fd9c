"""Reward codes of the catalog (digest §9.2) turned into agenda tasks."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from domain.state import Task

_CODE = re.compile(
    r"^(?:(?P<vp>\d+)VP|(?P<q>\d*)Q|PER(?:x(?P<per>\d+))?|DIE|LEC|INC(?P<inc2>2?):(?P<colour>[RYB])"
    r"|1D\+(?P<raise>\d)|INQ|FW|CARD|W(?P<write>\d+)|WC|UPG|SPOT)$"
)


def is_base_code(code: str) -> bool:
    """Whether `code` is one of the base game's reward codes (digest §9.2)."""
    return _CODE.match(code) is not None


def base_code(code: str, source: str = "") -> Task | None:
    """What one of the base game's reward codes (digest §9.2) stands for, as one task: its kind, amount
    and argument (3VP: VP 3; 2Q: Q 2; PERx3: PER 3, three persuades, INQ-12; INC2:R: INC 2 "R"; 1D+2:
    RAISE 2; W3: WRITE 3; DIE, LEC, INQ...: the code itself, 1). None for any other code. The describer
    (projections/describe.py) words a code from this reading."""
    m = _CODE.match(code)
    if m is None:
        return None
    if m["vp"]:
        return Task("VP", int(m["vp"]), "", source)
    if m["q"] is not None and code.endswith("Q"):
        return Task("Q", int(m["q"] or 1), "", source)
    if code.startswith("PER"):
        return Task("PER", int(m["per"] or 1), "", source)
    if code.startswith("INC"):
        return Task("INC", 2 if m["inc2"] else 1, m["colour"], source)
    if code.startswith("1D+"):
        return Task("RAISE", int(m["raise"]), "", source)
    if m["write"]:
        return Task("WRITE", int(m["write"]), "", source)
    return Task(code, 1, "", source)


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
