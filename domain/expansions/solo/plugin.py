"""The solo game's Tycho Brahe as plug-ins: his seat's rules (a game with a seat of his character is
played with them), and Luna's Moon rules for him in a Luna game (SOLO-8..12)."""

from __future__ import annotations

from typing import ClassVar

from domain.expansions.solo import moon, rules
from domain.ruleset import Plugin


class Solo(Plugin):
    character: ClassVar[str] = rules.TYCHO
    rules = (rules.RULES,)


class SoloMoon(Plugin):
    rules = (moon.RULES,)
