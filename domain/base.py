"""The base game as a plug-in: its events (domain/evolve.py; a take-back's, domain/takeback.py),
commands (domain/resolve.py), grants (domain/grants.py) and effect kinds (domain/concepts/). Every game
is played with it."""

from __future__ import annotations

from domain.concepts import (
    actions,
    book_of_comets,
    comets,
    dice,
    inquisition,
    observation,
    points,
    university,
    writing,
)
from domain.evolve import RULES as EVENTS
from domain.grants import RULES as GRANTS
from domain.resolve import RULES as COMMANDS
from domain.ruleset import Plugin
from domain.takeback import RULES as TAKEBACKS


class BaseGame(Plugin):
    rules = (
        EVENTS,
        COMMANDS,
        GRANTS,
        TAKEBACKS,
        actions.RULES,
        book_of_comets.RULES,
        comets.RULES,
        dice.RULES,
        inquisition.RULES,
        observation.RULES,
        points.RULES,
        university.RULES,
        writing.RULES,
    )
