"""The component catalog as public JSON: what the pages draw the board from (card faces, Action-tile
faces, Scale tiles, the sky, slots, pages, tracks, Luna's boards). Everything here is printed on the
components: it holds no secret (the deck *order* is in the state, never here)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from domain.catalog.model import Catalog


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def catalog_json(catalog: Catalog) -> dict[str, Any]:
    """Every field of the catalog (docs/catalog.md) as JSON-ready data; mappings keyed by strings."""
    data: dict[str, Any] = _plain(catalog)
    return data
