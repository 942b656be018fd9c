"""The base game as a plug-in. A concept whose rules are whole in its module (domain/concepts/:
inquisition, dice, university, writing, and the Upgrade in actions) declares there its options and
checks, commands, events and grants; the others still have theirs in domain/moves.py (options and
checks), domain/resolve.py (commands), domain/evolve.py (events) and domain/grants.py (grants), their
concept modules the effect kinds; a take-back's event is in domain/takeback.py. Every game is played
with it."""

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
