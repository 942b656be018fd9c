"""The rules concepts, one module each, registering the effect kinds they define (domain/effect_kinds.py).

Importing this package registers every kind; `domain.engine` does so.
"""

from domain.concepts import (
    actions,
    book_of_comets,
    comets,
    dice,
    inquisition,
    luna,
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
    "luna",
    "observation",
    "points",
    "university",
    "writing",
]
