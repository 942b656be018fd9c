"""`parse_catalog`: build and cross-check a Catalog from an edition's parsed JSON files (pure, no I/O)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from types import MappingProxyType

from domain.catalog import components
from domain.catalog.checks import (
    check_action_tiles_fill_queue,
    check_subjects,
    deck_composition,
    reputation_vp,
)
from domain.catalog.luna import parse_luna
from domain.catalog.luna_characters import parse_luna_characters
from domain.catalog.model import Catalog, CatalogError
from domain.catalog.reader import Node

FILES = (
    "edition.json",
    "cards.json",
    "deck.json",
    "action_tiles.json",
    "player_board.json",
    "university.json",
    "book_of_comets.json",
    "scale_tiles.json",
    "subjects.json",
    "objectives.json",
    "luna.json",
)
# Files an edition may hold; an edition written before one of them existed gets its default below.
OPTIONAL_FILES = ("characters.json", "luna_characters.json")
# The astronomers of the editions that predate characters.json (base-provisional-1): the first release
# offered these on their basic side (SET-21, CHAR-2), and a released edition is never edited.
FIRST_EDITION_CHARACTERS: object = {
    "characters": [
        {"id": cid, "name": name, "expansion": exp, "personal_pages": pages,
         "provenance": "seed: S000 §New Characters (CHAR-2), S004 §人物紹介 (CHAR-3)"}
        for cid, name, exp, pages in (
            ("galileo", "Galileo Galilei", "base", 1), ("kepler", "Johannes Kepler", "base", 0),
            ("copernicus", "Nicolaus Copernicus", "base", 1), ("bruno", "Giordano Bruno", "base", 2),
            ("newton", "Isaac Newton", "luna", 2), ("hevelius", "Elisabeth Hevelius", "luna", 0),
            ("cunitz", "Maria Cunitz", "luna", 3), ("sophia", "Sophia Brahe", "luna", 0),
        )
    ]
}  # fmt: skip
CONSTELLATION_SLOTS = 7  # one per Constellation token (COMP-8)


def parse_catalog(edition_name: str, files: Mapping[str, object]) -> Catalog:
    """Validate the parsed content of every file of an edition and build its Catalog.

    `edition_name` is the edition's folder (it prefixes the file names in error messages); `files` maps each
    file name to its parsed JSON. Raises CatalogError naming the file, the JSON path and the problem.
    """
    for name in files:
        if name not in FILES + OPTIONAL_FILES:
            expected = ", ".join(FILES + OPTIONAL_FILES)
            raise CatalogError(f"{edition_name}/{name}: $: unexpected file (expected {expected})")
    for name in FILES:
        if name not in files:
            raise CatalogError(f"{edition_name}/{name}: $: missing file")
    root = {name: Node(f"{edition_name}/{name}", "$", files[name]) for name in FILES}
    characters_node = Node(
        f"{edition_name}/characters.json", "$", files.get("characters.json", FIRST_EDITION_CHARACTERS)
    ).fields(("characters",))["characters"]
    characters = components.unique_list(characters_node, components.character, lambda c: c.id)
    if len(characters) < 2:
        raise characters_node.error("an edition needs at least two characters (COMP-11: two to four seats)")
    provenance: dict[str, str] = {}

    def valued(fields: Mapping[str, Node], key: str) -> Node:
        """A board value written as {"value": ..., "provenance": ...}; records its provenance under `key`."""
        f = fields[key].fields(("value", "provenance"))
        provenance[key] = f["provenance"].provenance()
        return f["value"]

    edition = root["edition.json"].fields(("edition", "description"))
    edition["description"].text()

    cards_node = root["cards.json"].fields(("cards",))["cards"]
    cards = components.unique_list(cards_node, components.card, lambda c: c.id)

    deck = root["deck.json"].fields(("deck_composition",))
    composition = deck_composition(valued(deck, "deck_composition"), cards)

    board = root["player_board.json"].fields(
        ("starry_sky", "library_printed", "constellation_slots", "cellar_arch", "cellar_bottom",
         "dice_per_colour", "die_max")
    )  # fmt: skip
    sky = components.unique_list(valued(board, "starry_sky"), components.sky_space, lambda s: s.id)
    slots = tuple(
        slot.reward() for slot in valued(board, "constellation_slots").items(CONSTELLATION_SLOTS, "slots")
    )
    arch_node = valued(board, "cellar_arch")
    cellar_arch = tuple(value.integer() for value in arch_node.items())
    bottom_node = valued(board, "cellar_bottom")
    cellar_bottom = tuple(value.integer() for value in bottom_node.items(len(cellar_arch), "cellar spaces"))
    if not cellar_arch:
        raise arch_node.error("the cellar needs at least one space")

    tiles_node = root["action_tiles.json"].fields(("tiles",))["tiles"]
    action_tiles = components.unique_list(tiles_node, components.action_tile, lambda t: t.id)
    check_action_tiles_fill_queue(tiles_node, len(action_tiles), sky)

    university = root["university.json"].fields(
        ("reputation_min", "reputation_max", "reputation_start", "reputation_vp", "reputation_overflow_vp",
         "objective_first_vp", "objective_later_vp")
    )  # fmt: skip
    rep_min = valued(university, "reputation_min").integer()
    rep_max = valued(university, "reputation_max").integer(minimum=rep_min + 1)
    rep_start = valued(university, "reputation_start").integer(rep_min, rep_max)
    rep_vp = reputation_vp(valued(university, "reputation_vp"), rep_min, rep_max)

    book = root["book_of_comets.json"].fields(("pages", "appendix_vp"))
    pages = components.unique_list(book["pages"], components.book_page, lambda p: p.id)

    scale = root["scale_tiles.json"].fields(("scale_tiles_in_play", "tiles"))
    scale_tiles = components.unique_list(scale["tiles"], components.scale_tile, lambda t: t.id)
    in_play = valued(scale, "scale_tiles_in_play").integer(1, len(scale_tiles))

    objectives_node = root["objectives.json"].fields(("objectives",))["objectives"]
    objectives = components.unique_list(objectives_node, components.objective, lambda o: o.id)
    subjects_node = root["subjects.json"].fields(("tiles",))["tiles"]
    subjects = components.unique_list(subjects_node, components.subject_tile, lambda s: s.id)
    check_subjects(subjects_node, subjects, {o.id: o for o in objectives})

    return Catalog(
        edition=edition["edition"].text(),
        content_hash=content_hash(files),
        cards=MappingProxyType({c.id: c for c in sorted(cards, key=lambda c: c.id)}),
        deck_composition=MappingProxyType(composition),
        action_tiles=action_tiles,
        starry_sky=sky,
        constellation_slots=slots,
        library_printed=components.four_rows(valued(board, "library_printed"), "library rows"),
        cellar_arch=cellar_arch,
        cellar_bottom=cellar_bottom,
        reputation_min=rep_min,
        reputation_max=rep_max,
        reputation_start=rep_start,
        reputation_vp=MappingProxyType(rep_vp),
        reputation_overflow_vp=valued(university, "reputation_overflow_vp").integer(minimum=0),
        book_pages=pages,
        appendix_vp=valued(book, "appendix_vp").integer(minimum=0),
        scale_tiles=scale_tiles,
        scale_tiles_in_play=in_play,
        subject_tiles=subjects,
        objectives=MappingProxyType({o.id: o for o in objectives}),
        printed_objectives=tuple(o.id for o in objectives if o.kind == "printed"),
        objective_first_vp=valued(university, "objective_first_vp").integer(minimum=0),
        objective_later_vp=valued(university, "objective_later_vp").integer(minimum=0),
        dice_per_colour=valued(board, "dice_per_colour").integer(minimum=1),
        die_max=valued(board, "die_max").integer(minimum=1),
        provenance=MappingProxyType(dict(sorted(provenance.items()))),
        luna=parse_luna(root["luna.json"]),
        characters=characters,
        luna_characters=(
            parse_luna_characters(
                Node(f"{edition_name}/luna_characters.json", "$", files["luna_characters.json"])
            )
            if "luna_characters.json" in files
            else None
        ),
    )


def content_hash(files: Mapping[str, object]) -> str:
    """sha256 of the canonical JSON of {file name: parsed content} over every file of the edition."""
    canonical = json.dumps(dict(files), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
