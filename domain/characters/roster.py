"""The roster: the characters whose ability side this build has rules for (CHAR-1), each a plug-in
(domain/ruleset.py). The character modules import the engine's modules, which import
`domain.characters`: this list cannot be in that package's `__init__`."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from domain.characters import CharacterRules
from domain.characters.bruno import Bruno
from domain.characters.copernicus import Copernicus
from domain.characters.cunitz import Cunitz
from domain.characters.galileo import Galileo
from domain.characters.hevelius import Hevelius
from domain.characters.kepler import Kepler
from domain.characters.newton import Newton
from domain.characters.sophia import Sophia

ABILITIES: Mapping[str, type[CharacterRules]] = MappingProxyType(
    {
        rules.ability_of: rules
        for rules in (Bruno, Copernicus, Cunitz, Galileo, Hevelius, Kepler, Newton, Sophia)
    }
)


def has_ability(character: str) -> bool:
    """Whether this build has rules for the character's ability side."""
    return character in ABILITIES
