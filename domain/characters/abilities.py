"""Importing this module registers every character's ability side (domain/characters/); `domain.engine`
does so. (The character modules import the engine's seams, which import `domain.characters`: they cannot
be imported by that package itself.)"""

from domain.characters import (
    bruno,
    commands,
    common,
    copernicus,
    cunitz,
    events,
    galileo,
    hevelius,
    kepler,
    newton,
    sophia,
)

__all__ = ["bruno", "commands", "common", "copernicus", "cunitz", "events", "galileo", "hevelius"]
__all__ += ["kepler", "newton", "sophia"]
