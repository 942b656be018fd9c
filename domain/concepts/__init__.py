"""The rules concepts, one module each, declaring the effect kinds they define in its `RULES` (the base
game's, domain/base.py).
"""

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

__all__ = [
    "actions",
    "book_of_comets",
    "comets",
    "dice",
    "inquisition",
    "observation",
    "points",
    "university",
    "writing",
]
