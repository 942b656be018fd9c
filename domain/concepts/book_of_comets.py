"""The Book of Comets (digest §13): where a comet used a second time goes in Cleanup."""

from __future__ import annotations

from domain import commands as c
from domain.effect_kinds import EffectKind
from domain.moves import book_check, book_options
from domain.ruleset import Rules

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)

RULES.effect(
    EffectKind(
        "BOOK",
        "place a comet in the Book of Comets",
        __name__,
        (c.PlaceComet,),
        lambda s, task, seat: book_options(s, seat),
        lambda s, task, cmd: book_check(s, cmd),
    ),
)
