"""Which plug-ins a game is played with, from what its `GameStarted` pins (domain/ruleset.py): the base
game always; Luna when its option is on; a character's ability side when a seat plays it; Tycho Brahe
when he has a seat (with Luna's Moon rules for him in a Luna game)."""

from __future__ import annotations

from domain.base import BaseGame
from domain.characters import common as character_common
from domain.characters import rules_of
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
        plugins += [type(rules_of(character, "ability")) for character in sorted(abilities)]
    if Solo.character in pins.characters:
        plugins.append(Solo)
        if luna:
            plugins.append(SoloMoon)
    return plugins


def compose(pins: Pins) -> Ruleset:
    plugins = plugins_for(pins)
    opponents = {Solo.character: Solo.opponent} if Solo in plugins else {}
    return Ruleset(pins, plugins, opponents)


def every_plugin(characters: tuple[str, ...]) -> Ruleset:
    """The rules of every plug-in at once, with these characters on their ability side (for the tests
    that every type has its rules)."""
    seats = (*characters, Solo.character)
    return compose(Pins("0.0.0", "", Options.from_json({"luna": True}), seats, ("ability",) * len(characters) + ("basic",)))
