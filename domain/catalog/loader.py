"""Load an edition of the component catalog from the JSON data files shipped in this package.

Every released edition stays in `editions/<folder>/` forever (docs/editions.md): a stored game names its
edition and is replayed with it. New games get `CURRENT_EDITION`.

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
from domain.errors import EditionUnknown

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

EDITION_FILE = "edition.json"
EDITIONS = "editions"  # the folder of every released edition
CURRENT_EDITION = "base-4"  # the edition new games get (docs/editions.md)
ALIASES = ("base", "current")  # names of the current edition


class CatalogEditionUnknown(CatalogError, EditionUnknown):
    """A catalog edition that this build does not ship (a game stored by a newer build, or a typo)."""

    def __init__(self, edition: str, available: Mapping[str, str]) -> None:
        EditionUnknown.__init__(
            self,
            "catalog edition",
            edition,
            tuple(sorted(set(available.values()))),
            f"A game recorded under it needs a release of galileo-service that ships "
            f"domain/catalog/editions/{edition}/",
        )


def load_catalog(edition: str = "current") -> Catalog:
    """The validated catalog of an edition, named by its edition id ("base-provisional-1", as recorded by
    a game), its folder, or "current"/"base" (the edition new games get). Cached: each edition is read and
    checked once. Raises EditionUnknown for an edition this build does not ship."""
    return _load(_folder_name(edition) if isinstance(edition, str) else _folder(edition).name)


@cache
def _folder_name(edition: str) -> str:
    """The folder of an edition named as `load_catalog` takes it (every loaded snapshot names its own)."""
    return _folder(edition).name


@cache
def _load(folder_name: str) -> Catalog:
    folder = resources.files(__package__) / EDITIONS / folder_name
    files: dict[str, object] = {}
    for entry in sorted(folder.iterdir(), key=lambda entry: entry.name):
        if entry.is_file() and entry.name.endswith(".json"):
            files[entry.name] = _read_json(folder_name, entry)
    return parse_catalog(folder_name, files)


@cache
def editions() -> Mapping[str, str]:
    """Edition folder name -> edition id, for every edition shipped in this package."""
    found: dict[str, str] = {}
    root = resources.files(__package__) / EDITIONS
    for folder in sorted(root.iterdir(), key=lambda entry: entry.name):
        marker = folder / EDITION_FILE
        if folder.is_dir() and marker.is_file():
            content = _read_json(folder.name, marker)
            found[folder.name] = str(content.get("edition", "")) if isinstance(content, dict) else ""
    return MappingProxyType(found)


def _folder(edition: str) -> Traversable:
    available = editions()
    wanted = CURRENT_EDITION if edition in ALIASES else edition
    for name, edition_id in available.items():
        if wanted in (name, edition_id):
            return resources.files(__package__) / EDITIONS / name
    raise CatalogEditionUnknown(edition, available)


def _read_json(edition: str, entry: Traversable) -> object:
    try:
        content: object = json.loads(entry.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise CatalogError(f"{edition}/{entry.name}: $: not valid JSON ({error})") from None
    return content


MODELS = "models"  # the learned evaluation's model files (docs/learned-evaluation.md)


@cache
def load_model_file(name: str) -> object:
    """The parsed JSON of the model file `models/<name>.json` shipped beside the editions (read when
    first asked, once). Raises CatalogError when this build ships no such file."""
    entry = resources.files(__package__) / MODELS / f"{name}.json"
    if not entry.is_file():
        raise CatalogError(f"no model file {MODELS}/{name}.json in this build")
    return _read_json(MODELS, entry)
