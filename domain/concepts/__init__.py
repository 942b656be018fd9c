"""The rules concepts, one module each, registering the effect kinds they define (domain/effect_kinds.py).

Importing this package registers every base kind; `domain.engine` does so. An expansion's concepts
are imported by the expansion (domain/expansions/).
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
