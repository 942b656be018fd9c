"""Reward codes of the catalog (digest §9.2) turned into agenda tasks."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from domain.state import Task

_CODE = re.compile(
    r"^(?:(?P<vp>\d+)VP|(?P<q>\d*)Q|PER(?:x(?P<per>\d+))?|DIE|LEC|INC(?P<inc2>2?):(?P<colour>[RYB])"
    r"|1D\+(?P<raise>\d)|INQ|FW|CARD|W(?P<write>\d+)|WC|UPG|SPOT)$"
)


# Reward codes an expansion prints besides the base game's (`register_reward_codes`): code -> its task.
_SPECIAL: dict[str, Task] = {}


def register_reward_codes(codes: Mapping[str, Task]) -> None:
    """An expansion's own reward codes (digest §9.2 lists the base game's), each standing for one task."""
    for code, task in codes.items():
        if _SPECIAL.get(code, task) != task or _CODE.match(code):
            raise ValueError(f"reward code {code!r} is defined twice")
        _SPECIAL[code] = task


def register_special(code: str, task: Task) -> None:
    """A reward code that stands for one task of its own kind (a character's page or tile, digest §17)."""
    if _SPECIAL.get(code, task) != task:
        raise ValueError(f"reward code {code!r} is registered already")
    _SPECIAL[code] = task


def tasks_for(code: str, source: str) -> list[Task]:
    """The tasks one reward code stands for, in resolution order (INQ-12: PERxn = n persuades)."""
    special = _SPECIAL.get(code)
    if special is not None:
        return [Task(special.kind, special.n, special.arg, source)]
    m = _CODE.match(code)
    if m is None:
        raise ValueError(f"unknown reward code {code!r}")
    if m["vp"]:
        return [Task("VP", int(m["vp"]), "", source)]
    if m["q"] is not None and code.endswith("Q"):
        return [Task("Q", int(m["q"] or 1), "", source)]
    if code.startswith("PER"):
        return [Task("PER", 1, "", source)] * int(m["per"] or 1)
    if code.startswith("INC"):
        return [Task("INC", 2 if m["inc2"] else 1, m["colour"], source)]
    if code.startswith("1D+"):
        return [Task("RAISE", int(m["raise"]), "", source)]
    if m["write"]:
        return [Task("WRITE", int(m["write"]), "", source)]
    return [Task(code, 1, "", source)]


def reward_tasks(codes: Iterable[str], source: str) -> list[Task]:
    """RES-5: multi-icon rewards resolve in printed order."""
    out: list[Task] = []
    for code in codes:
        out.extend(tasks_for(code, source))
    return out


def push(agenda: tuple[Task, ...], tasks: list[Task]) -> tuple[Task, ...]:
    """Put tasks on the agenda so that the first one is resolved first (the top is the end)."""
    return agenda + tuple(reversed(tasks))
