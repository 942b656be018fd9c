"""Component data of Galileo Galilei (cards, tiles, boards) as data files, with their loader.

See docs/catalog.md for the files, the reward code grammar and the provenance convention.
"""

from domain.catalog.loader import (
    COLOURS,
    CURRENT_EDITION,
    MIXES,
    ActionTile,
    BookPage,
    Card,
    Catalog,
    CatalogEditionUnknown,
    CatalogError,
    Constellation,
    MajorObject,
    Objective,
    Reward,
    ScaleFace,
    ScaleRow,
    ScaleTile,
    SkySpace,
    SubjectTile,
    editions,
    load_catalog,
    parse_catalog,
    validate_reward,
)

__all__ = [
    "COLOURS",
    "CURRENT_EDITION",
    "MIXES",
    "ActionTile",
    "BookPage",
    "Card",
    "Catalog",
    "CatalogEditionUnknown",
    "CatalogError",
    "Constellation",
    "MajorObject",
    "Objective",
    "Reward",
    "ScaleFace",
    "ScaleRow",
    "ScaleTile",
    "SkySpace",
    "SubjectTile",
    "editions",
    "load_catalog",
    "parse_catalog",
    "validate_reward",
]
