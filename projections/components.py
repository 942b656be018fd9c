"""The component catalog as public JSON: what the pages draw the board from (card faces, Action-tile
faces, Scale tiles, the sky, slots, pages, tracks, Luna's boards). Everything here is printed on the
components: it holds no secret (the deck *order* is in the state, never here)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from domain.catalog.model import Catalog
from domain.catalog.names import component_name, name_locale, names
from domain.catalog.rewards import read_reward_code
from domain.commands import ROWS
from domain.expansions.plugins import every_plugin


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def catalog_json(catalog: Catalog) -> dict[str, Any]:
    """Every field of the catalog (docs/catalog.md) as JSON-ready data; mappings keyed by strings. With
    the engine's vocabulary the pages draw it with (not written again in JavaScript): the library rows
    (`library_rows`, R1-R4) and every reward code the catalog and the plug-ins print, read by the
    engine's grammar (`reward_codes`: code -> [task kind, amount, argument], domain/catalog/rewards.py)."""
    data: dict[str, Any] = _plain(catalog)
    data["library_rows"] = list(ROWS)
    data["reward_codes"] = reward_readings(data)
    return data


def _strings(value: Any) -> set[str]:
    if isinstance(value, Mapping):
        return {s for v in value.values() for s in _strings(v)}
    if isinstance(value, list):
        return {s for v in value for s in _strings(v)}
    return {value} if isinstance(value, str) else set()


def reward_readings(data: Mapping[str, Any]) -> dict[str, list[Any]]:
    """Each reward code in the catalog's JSON `data` (a base game's, read by the grammar) and each code a
    plug-in prints (Luna's, the characters'), as [task kind, amount, argument]."""
    out: dict[str, list[Any]] = {}
    for code in sorted(_strings(data)):
        read = read_reward_code(code)
        if read is not None:
            out[code] = list(read)
    for code, task in sorted(every_plugin().reward_codes.items()):
        out[code] = [task.kind, task.n, task.arg]
    return out


def localized_catalog_json(catalog: Catalog, locale: str) -> dict[str, Any]:
    """`catalog_json` with every printed name in `locale` (domain.catalog.names): the Major Objects and
    constellations of the cards, the Action tiles (Kepler's, Newton's and Cunitz' too), the characters,
    the objectives' texts, the Subject tiles' themes and Luna's Scoring tiles. Ids and every other field
    stay as they are; English gives `catalog_json` itself."""
    data = catalog_json(catalog)
    # Tycho's solo tiles are not in the catalog (the board view carries them): their names by id here
    solo = names("en").get("solo_tile", {})
    data["names"] = {"solo_tile": {id: component_name("solo_tile", id, locale) for id in solo}}
    if name_locale(locale) == "en":
        return data

    def named(kind: str, item: dict[str, Any], key: str = "name", by: str = "id") -> None:
        if isinstance(item, dict) and key in item and by in item:
            item[key] = component_name(kind, str(item[by]), locale)

    for card in data.get("cards", {}).values():
        named("major", card.get("major") or {}, by="name")
        for c in card.get("constellations") or []:
            named("constellation", c, by="name")
    for tile in data.get("action_tiles") or []:
        named("action_tile", tile)
    for objective in (data.get("objectives") or {}).values():
        named("objective", objective, key="text")
    for subject in data.get("subject_tiles") or []:
        named("subject", subject, key="theme")
    for board in data.get("characters") or []:
        named("character", board)
        ability = board.get("ability") or {}
        named("action_tile", ability.get("tile") or {})
    luna = data.get("luna") or {}
    for tile in luna.get("scoring_tiles") or []:
        named("scoring_tile", tile)
    luna_characters = data.get("luna_characters") or {}
    for tile in (*(luna_characters.get("newton_tiles") or []), *(luna_characters.get("cunitz_tiles") or [])):
        named("action_tile", tile)
    return data
