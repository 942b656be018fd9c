"""Importing this module registers every character's ability side (domain/characters/); `domain.engine`
does so. (The character modules import the engine's seams, which import `domain.characters`: they cannot
be imported by that package itself.)"""

from domain.characters import bruno, events, galileo

__all__ = ["bruno", "events", "galileo"]
