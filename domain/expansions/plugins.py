"""Which plug-ins a game is played with, from what its `GameStarted` pins (domain/ruleset.py): the base
game always; Luna when its option is on; a character's ability side when a seat plays it; Tycho Brahe
when he has a seat, or in a setup of one person seat (with Luna's Moon rules for him in a Luna game)."""

from __future__ import annotations

from domain.base import BaseGame
from domain.characters import common as character_common
from domain.characters.roster import ABILITIES
from domain.expansions.luna.plugin import Luna
from domain.expansions.solo.plugin import Solo, SoloMoon
from domain.options import Options
from domain.ruleset import Pins, Plugin, Ruleset


class CharacterCommon(Plugin):
    """What every ability side shares (declining an ability's effect)."""

    rules = (character_common.RULES,)


def plugins_for(pins: Pins) -> list[type[Plugin]]:
    plugins: list[type[Plugin]] = [BaseGame]
    luna = bool(pins.options.get("luna"))
    if luna:
        plugins.append(Luna)
    abilities = pins.ability_sides()
    if abilities:
        plugins.append(CharacterCommon)
        plugins += [ABILITIES[character] for character in sorted(abilities) if character in ABILITIES]
    if Solo.character in pins.characters or len(pins.characters) == 1:  # a game, or a setup, of his
        plugins.append(Solo)
        if luna:
            plugins.append(SoloMoon)
    return plugins


def compose(pins: Pins) -> Ruleset:
    return Ruleset(pins, plugins_for(pins))


def every_plugin() -> Ruleset:
    """The rules of every plug-in at once: Luna, Tycho, and every character on its ability side (for the
    tests that every type has its rules, and for the describer's words of the plug-ins' reward codes)."""
    characters = tuple(sorted(ABILITIES))
    sides = ("ability",) * len(characters) + ("basic",)
    return compose(Pins("0.0.0", "", Options.from_json({"luna": True}), (*characters, Solo.character), sides))
