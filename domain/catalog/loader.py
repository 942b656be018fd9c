"""Load an edition of the component catalog from the JSON data files shipped in this package.

This is the only module of domain/ that reads anything: the package's own data files, through
importlib.resources and json (no paths, no OS access). The purity test allows exactly these two imports here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from types import MappingProxyType

from domain.catalog.model import (
    COLOURS,
    MIXES,
    ActionTile,
    BookPage,
    Card,
    Catalog,
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
)
from domain.catalog.parse import parse_catalog
from domain.catalog.rewards import validate_reward

__all__ = [
    "COLOURS",
    "MIXES",
    "ActionTile",
    "BookPage",
    "Card",
    "Catalog",
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

EDITION_FILE = "edition.json"


def load_catalog(edition: str = "base") -> Catalog:
    """The validated catalog of an edition, named by its folder ("base") or by its edition id
    ("base-provisional-1", as recorded by a game). Cached: each edition is read and checked once."""
    return _load(_folder(edition).name)


@cache
def _load(folder_name: str) -> Catalog:
    folder = resources.files(__package__) / folder_name
    files: dict[str, object] = {}
    for entry in sorted(folder.iterdir(), key=lambda entry: entry.name):
        if entry.is_file() and entry.name.endswith(".json"):
            files[entry.name] = _read_json(folder_name, entry)
    return parse_catalog(folder_name, files)


@cache
def editions() -> Mapping[str, str]:
    """Edition folder name -> edition id, for every edition shipped in this package."""
    found: dict[str, str] = {}
    for folder in sorted(resources.files(__package__).iterdir(), key=lambda entry: entry.name):
        marker = folder / EDITION_FILE
        if folder.is_dir() and marker.is_file():
            content = _read_json(folder.name, marker)
            found[folder.name] = str(content.get("edition", "")) if isinstance(content, dict) else ""
    return MappingProxyType(found)


def _folder(edition: str) -> Traversable:
    available = editions()
    for name, edition_id in available.items():
        if edition in (name, edition_id):
            return resources.files(__package__) / name
    known = ", ".join(f"{name} ({edition_id})" for name, edition_id in available.items())
    raise CatalogError(f"{edition}: $: unknown catalog edition (available: {known or 'none'})")


def _read_json(edition: str, entry: Traversable) -> object:
    try:
        content: object = json.loads(entry.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise CatalogError(f"{edition}/{entry.name}: $: not valid JSON ({error})") from None
    return content
