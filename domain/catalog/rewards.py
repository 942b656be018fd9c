"""Grammar of reward codes (digest §9.2) and of provenance notes; see docs/catalog.md."""

from __future__ import annotations

import re
from functools import lru_cache

from domain.catalog.model import CatalogError, Reward

# The reward-code grammar, once (digest §9.2, docs/catalog.md "Reward codes"): one primitive per
# alternative, each read into (kind, amount, argument) by `read_reward_code`. Amounts are canonical (no
# "1Q", no "PERx1": write "Q", "PER").
_REWARD_CODE = re.compile(
    r"""
      (?P<vp>[1-9][0-9]*)VP                 # n victory points
    | (?P<q>[2-9]|[1-9][0-9]+)?Q            # Q = 1 Quadrant, nQ = n Quadrants (n >= 2)
    | PER(?:x(?P<per>[2-9]|[1-9][0-9]+))?   # Persuade once, PERxn = n times (n >= 2)
    | (?P<plain>DIE|LEC|INQ|FW|CARD|WC|UPG|SPOT)
    | INC(?P<inc2>2?):(?P<colour>[RYB])     # all dice of a colour +1 / +2
    | 1D\+(?P<raise>[1-3])                  # one die +1..+3
    | W(?P<write>[1-9][0-9]*)               # partial writing n
    """,
    re.VERBOSE,
)

RewardCode = tuple[str, int, str]  # (task kind, amount, argument)


@lru_cache(maxsize=256)
def read_reward_code(code: str) -> RewardCode | None:
    """What one of the base game's reward codes stands for: its task kind, amount and argument (3VP:
    VP 3; 2Q: Q 2; PERx3: PER 3, three persuades, INQ-12; INC2:R: INC 2 "R"; 1D+2: RAISE 2; W3: WRITE
    3; DIE, LEC, INQ...: the code itself, 1). None for any other code (a plug-in's own, or malformed).
    The engine (domain/effects.py), the catalog's checks and the describer all read codes with it."""
    m = _REWARD_CODE.fullmatch(code)
    if m is None:
        return None
    if m["vp"]:
        return ("VP", int(m["vp"]), "")
    if m["plain"]:
        return (code, 1, "")
    if code.endswith("Q"):
        return ("Q", int(m["q"] or 1), "")
    if code.startswith("PER"):
        return ("PER", int(m["per"] or 1), "")
    if code.startswith("INC"):
        return ("INC", 2 if m["inc2"] else 1, m["colour"])
    if code.startswith("1D+"):
        return ("RAISE", int(m["raise"]), "")
    return ("WRITE", int(m["write"]), "")


# Observe is a fixed action of the starry sky but never a reward.
SKY_ACTION_CODES = frozenset({"OBS"})

_PROVENANCE_PART = re.compile(
    r"""
      seed:\ S[0-9]{3}\ §\S.*
    | derived:\ DER-[0-9]+\b.*
    | provisional:\ DATA-[0-9]+\ \(.+\)
    | box:\ \S.*
    | publisher:\ CN\ p\.[0-9]+\b.*
    | ruling:\ AMB-[0-9]+\ \(.+\)
    """,
    re.VERBOSE,
)


def is_reward_code(code: str) -> bool:
    """Whether `code` is one of the base game's reward codes (`read_reward_code` reads it)."""
    return read_reward_code(code) is not None


def validate_reward(code_list: object, where: str, extra_codes: frozenset[str] = frozenset()) -> Reward:
    """Check a JSON reward (a list of codes) and return it as a tuple.

    `where` is the '<file>: <json path>' prefix of the error message; `extra_codes` admits codes beyond the
    reward vocabulary (the starry sky's `OBS`).
    """
    if not isinstance(code_list, list):
        raise CatalogError(f"{where}: a reward must be a list of codes, got {json_type(code_list)}")
    for index, code in enumerate(code_list):
        if not isinstance(code, str):
            raise CatalogError(f"{where}[{index}]: a reward code must be a string, got {json_type(code)}")
        if not is_reward_code(code) and code not in extra_codes:
            raise CatalogError(f"{where}[{index}]: unknown or malformed reward code {code!r}")
    return tuple(code_list)


def provenance_parts(note: str) -> list[str]:
    """Split a provenance note at the '; ' that are outside parentheses."""
    parts: list[str] = []
    depth = start = 0
    for index, char in enumerate(note):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and note.startswith("; ", index):
            parts.append(note[start:index])
            start = index + 2
    parts.append(note[start:])
    return parts


def validate_provenance(note: object, where: str) -> str:
    """Check a provenance note: parts '<kind>: ...' joined by '; ' (docs/catalog.md)."""
    if not isinstance(note, str) or not note.strip():
        raise CatalogError(f"{where}: missing provenance")
    for part in provenance_parts(note):
        if _PROVENANCE_PART.fullmatch(part) is None:
            raise CatalogError(
                f"{where}: provenance part {part!r} must read 'seed: S00n §section', 'derived: DER-n ...', "
                "'provisional: DATA-n (reason)', 'box: fact', 'publisher: CN p.n ...' or "
                "'ruling: AMB-n (reason)'"
            )
    return note


def json_type(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", int: "an integer"}
    names[float] = "a fractional number"
    return "null" if value is None else names.get(type(value), type(value).__name__)
