"""The component catalog: the base edition loads, holds what the digest and the box say, and bad data is
refused with a message naming the file and the JSON path."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from importlib import resources
from typing import Any

import pytest

from domain.catalog import (
    COLOURS,
    CURRENT_EDITION,
    MIXES,
    Catalog,
    CatalogError,
    editions,
    load_catalog,
    parse_catalog,
    validate_reward,
)
from domain.catalog.parse import content_hash
from domain.errors import EditionUnknown
from domain.setup import characters

Files = dict[str, Any]


def base_files() -> Files:
    folder = resources.files("domain.catalog") / "editions" / "base-provisional-1"
    return {
        entry.name: json.loads(entry.read_text(encoding="utf-8"))
        for entry in folder.iterdir()
        if entry.name.endswith(".json")
    }


BASE_FILES = base_files()


@pytest.fixture
def catalog() -> Catalog:
    return load_catalog("base-provisional-1")  # the first edition, never changed


def refused(change: Callable[[Files], None]) -> str:
    """The error message for a copy of the base files changed by `change`."""
    files = copy.deepcopy(BASE_FILES)
    change(files)
    with pytest.raises(CatalogError) as raised:
        parse_catalog("base", files)
    return str(raised.value)


# --- loading and counts -------------------------------------------------------------------------------


def test_base_edition_loads_and_is_cached(catalog: Catalog) -> None:
    assert catalog.edition == "base-provisional-1"
    assert load_catalog("base-provisional-1") is catalog
    assert editions()["base-provisional-1"] == "base-provisional-1"
    # the first release's content, byte for byte: games stored by it record this hash
    assert catalog.content_hash == "c1e05261e3b02b631457575ff6a988bf5ec2839953c18817efbad3518d4618fd"


def test_new_games_get_the_current_edition() -> None:
    current = load_catalog()
    assert current.edition == CURRENT_EDITION == "base-4"  # base-3 plus the Luna characters' ability sides
    assert load_catalog("base") is current and load_catalog("current") is current
    assert set(editions().values()) == {"base-provisional-1", "base-2", "base-3", "base-4"}


def test_unknown_edition_is_refused_naming_it_and_how_to_get_it() -> None:
    with pytest.raises(CatalogError) as raised:
        load_catalog("no-such-edition")
    assert isinstance(raised.value, EditionUnknown)
    message = str(raised.value)
    assert "unknown catalog edition 'no-such-edition'" in message
    assert "this build has base-2, base-3, base-4, base-provisional-1" in message
    assert "domain/catalog/editions/no-such-edition/" in message and "docs/editions.md" in message


def test_DATA_2_DATA_6_DATA_7_the_publishers_corrections_are_the_second_edition() -> None:
    first, second = load_catalog("base-provisional-1"), load_catalog("base-2")
    assert second.deck_composition[2] == (9, 5, 4) and sum(second.deck_composition[2]) == 18  # CN p.3
    assert second.deck_composition[1] == (9, 5, 4)  # CN p.16: the solo game uses the 2-player deck
    assert second.deck_composition[3] == first.deck_composition[3] == (10, 6, 5)
    assert second.deck_composition[4] == first.deck_composition[4] == (12, 7, 6)
    assert second.cellar_arch == (-4, -2, -1, 1)  # CN p.20: C1 is -4
    assert second.cellar_bottom == (-4, -2, -1, 1)  # CN p.13: -2 and -4 unpersuaded, +1 persuaded
    assert len(second.cards) == 33  # CN p.2
    assert set(second.cards) == set(first.cards) - {"D2-11", "D3-10"}
    tiers = [card.tier for card in second.cards.values()]
    assert (tiers.count(1), tiers.count(2), tiers.count(3)) == (14, 10, 9)
    assert second.content_hash != first.content_hash


def test_counts_follow_the_box_and_the_digest(catalog: Catalog) -> None:
    assert len(catalog.cards) == 35  # box
    tiers = [card.tier for card in catalog.cards.values()]
    assert (tiers.count(1), tiers.count(2), tiers.count(3)) == (14, 11, 10)
    assert len(catalog.action_tiles) == 6
    assert [tile.id for tile in catalog.action_tiles] == ["A1", "A2", "A3", "A4", "A5", "A6"]
    assert len(catalog.constellation_slots) == 7
    assert [slot for slot in catalog.constellation_slots if slot == ("CARD",)] == [("CARD",)] * 3  # DER-22
    assert catalog.constellation_slots[0] == ("LEC",)  # DER-21
    assert len(catalog.book_pages) == 11
    assert [p.min_players for p in catalog.book_pages if p.colour == "blue"] == [1] * 7
    assert [p.min_players for p in catalog.book_pages if p.colour == "purple"] == [3] * 4
    assert catalog.appendix_vp == 1
    assert len(catalog.scale_tiles) == 6 and catalog.scale_tiles_in_play == 4  # box, AMB-18
    assert len(catalog.subject_tiles) == 6
    assert len(catalog.objectives) == 8
    assert catalog.printed_objectives == ("OBJ-P1", "OBJ-P2")
    assert catalog.dice_per_colour == 10  # box: 30 dice in three colours
    assert catalog.die_max == 6


def test_cards_are_ordered_by_id(catalog: Catalog) -> None:
    assert list(catalog.cards) == sorted(catalog.cards)
    assert catalog.card("D3-10").tier == 3
    with pytest.raises(KeyError, match="D9-99"):
        catalog.card("D9-99")


def test_boards_and_tracks(catalog: Catalog) -> None:
    assert catalog.library_printed == (("LEC",), ("Q",), ("PER",), ("DIE",))  # LIB-3
    assert catalog.cellar_arch == (-3, -2, -1, 1)  # DATA-6
    assert catalog.cellar_bottom == (-4, -3, -2, 1)  # DATA-7
    assert (catalog.reputation_min, catalog.reputation_max, catalog.reputation_start) == (-8, 8, -3)
    assert catalog.reputation_vp == {position: position for position in range(-8, 9)}
    assert catalog.reputation_overflow_vp == 2
    assert (catalog.objective_first_vp, catalog.objective_later_vp) == (7, 3)  # OBJ-3
    assert catalog.deck_composition == {1: (8, 5, 4), 2: (8, 5, 4), 3: (10, 6, 5), 4: (12, 7, 6)}
    assert [space.id for space in catalog.starry_sky] == ["X1", "X2", "S1", "S2", "S3", "S4", "U"]
    assert [space.fixed for space in catalog.starry_sky][2:] == [
        (("OBS",),),
        (("DIE",), ("LEC",)),
        (("SPOT",),),
        (("OBS",), ("DIE",)),
        (("UPG",),),
    ]  # SKY-2
    assert catalog.starry_sky[-1].instead_of_tile == ("Q",)  # UPG-2


def test_scale_faces_and_subjects(catalog: Catalog) -> None:
    face = catalog.scale_face("SC1-A")
    assert [row.multiplier for row in face.rows] == [0, 1, 2, 3]
    assert face.rows[0].reward == ("1D+1",)  # S003 table row 1
    faces = [f.id for tile in catalog.scale_tiles for f in tile.faces]
    assert faces[-4:] == ["SC5-A", "SC5-B", "SC6-A", "SC6-B"]
    with pytest.raises(KeyError):
        catalog.scale_face("SC7-A")
    first = catalog.subject_tiles[0]
    assert (first.id, first.niche, first.arch) == ("ST1", "OBJ-N1", "SUBJ-A1")
    niche = {o.id for o in catalog.objectives.values() if o.kind == "niche"}
    assert {s.niche for s in catalog.subject_tiles} == niche


def test_colours_and_mixes() -> None:
    assert COLOURS == ("R", "Y", "B")
    assert dict(MIXES) == {"orange": ("R", "Y"), "green": ("B", "Y"), "purple": ("R", "B")}


def test_catalog_values_cannot_be_changed(catalog: Catalog) -> None:
    with pytest.raises(TypeError):
        catalog.cards["D1-01"] = catalog.cards["D1-02"]  # type: ignore[index]
    with pytest.raises(AttributeError):
        catalog.die_max = 7  # type: ignore[misc]


# --- seed facts and provenance ------------------------------------------------------------------------


def test_moon_card_and_ursa_minor_match_the_seed(catalog: Catalog) -> None:
    moon = catalog.card("D1-01")
    assert moon.tier == 1
    assert (moon.major.name, moon.major.mix, moon.major.cost, moon.major.vp, moon.major.inquisitor) == (
        "Moon", "orange", 8, 7, True,
    )  # fmt: skip
    assert MIXES[moon.major.mix] == ("R", "Y")  # OBS-12: orange needs red and yellow
    (ursa_minor,) = moon.constellations
    assert (ursa_minor.name, ursa_minor.colour, ursa_minor.cost, ursa_minor.reward) == (
        "Ursa Minor", "R", 5, ("3VP", "Q"),
    )  # fmt: skip
    assert moon.front == ((), ("INC:Y",), ("PER",), ("LEC",))
    assert moon.back == (("Q",), (), ("PER",), ())
    assert moon.provenance.startswith("seed: S004 §観測")


def test_every_item_has_provenance(catalog: Catalog) -> None:
    notes = [card.provenance for card in catalog.cards.values()]
    notes += [tile.provenance for tile in catalog.action_tiles]
    notes += [face.provenance for tile in catalog.scale_tiles for face in tile.faces]
    notes += [page.provenance for page in catalog.book_pages]
    notes += [subject.provenance for subject in catalog.subject_tiles]
    notes += [objective.provenance for objective in catalog.objectives.values()]
    assert all(note.split(":")[0] in {"seed", "derived", "provisional", "box", "ruling"} for note in notes)
    scalars = {
        "deck_composition", "starry_sky", "constellation_slots", "library_printed", "cellar_arch",
        "cellar_bottom", "reputation_min", "reputation_max", "reputation_start", "reputation_vp",
        "reputation_overflow_vp", "appendix_vp", "scale_tiles_in_play", "objective_first_vp",
        "objective_later_vp", "dice_per_colour", "die_max",
    }  # fmt: skip
    assert set(catalog.provenance) == scalars
    assert catalog.provenance["dice_per_colour"].startswith("box: 30 dice in three colours")


def test_cards_added_for_the_box_say_so(catalog: Catalog) -> None:
    added = [card.id for card in catalog.cards.values() if "box lists 35 cards" in card.provenance]
    assert added == ["D2-10", "D2-11", "D3-10"]
    assert all(catalog.card(card_id).provenance.startswith("provisional: DATA-1") for card_id in added)


MO_COST = {1: range(6, 9), 2: range(9, 12), 3: range(12, 15)}
MO_VP_OVER_COST = {1: (-1, -2), 2: (0, -1), 3: (1, 0)}  # (with Inquisitor, without)
CONSTELLATION_COST = {1: range(3, 6), 2: range(4, 7), 3: range(5, 8)}


def test_every_card_follows_the_data1_generation_rules(catalog: Catalog) -> None:
    """DATA-1's rules hold for the 32 transcribed cards and for the three added in the same style."""
    for card in catalog.cards.values():
        major, tier = card.major, card.tier
        assert card.id.startswith(f"D{tier}-"), card.id
        assert major.cost in MO_COST[tier], card.id
        assert major.vp == major.cost + MO_VP_OVER_COST[tier][0 if major.inquisitor else 1], card.id
        assert len(card.constellations) in ((1, 2) if tier == 1 else (2,)), card.id
        for constellation in card.constellations:
            assert constellation.cost in CONSTELLATION_COST[tier], card.id
            assert constellation.reward[0] == f"{constellation.cost - 2}VP", card.id
            assert len(constellation.reward) == 2, card.id
        assert sum(1 for row in card.front if not row) == 1, card.id
        assert sum(1 for row in card.back if not row) == 2, card.id
    names = [c.name for card in catalog.cards.values() for c in card.constellations]
    assert len(names) == len(set(names))


# --- content hash -------------------------------------------------------------------------------------


def test_content_hash_is_stable(catalog: Catalog) -> None:
    again = parse_catalog("base", copy.deepcopy(BASE_FILES))
    assert again.content_hash == catalog.content_hash
    assert again == catalog and hash(again) == hash(catalog)
    reordered = {name: BASE_FILES[name] for name in reversed(list(BASE_FILES))}
    assert content_hash(reordered) == catalog.content_hash
    assert len(catalog.content_hash) == 64 and int(catalog.content_hash, 16) >= 0


def _leaves(value: object, path: tuple[object, ...] = ()) -> Iterator[tuple[object, ...]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list) and value:
        for index, item in enumerate(value):
            yield from _leaves(item, (*path, index))
    else:
        yield path


def _changed(value: object) -> object:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "!"
    return ["Q"]  # an empty list (blank reward)


def test_content_hash_changes_when_any_value_changes() -> None:
    original = content_hash(BASE_FILES)
    files = copy.deepcopy(BASE_FILES)  # one copy: each value is changed in it, then put back
    checked = 0
    for name, content in BASE_FILES.items():
        for path in _leaves(content):
            parent = files[name]
            for key in path[:-1]:
                parent = parent[key]
            value = parent[path[-1]]
            parent[path[-1]] = _changed(value)
            assert content_hash(files) != original, (name, path)
            parent[path[-1]] = value
            checked += 1
    assert files == BASE_FILES and content_hash(files) == original  # every value was put back
    assert checked > 1000


def test_a_changed_value_gives_a_different_catalog(catalog: Catalog) -> None:
    files = copy.deepcopy(BASE_FILES)
    files["cards.json"]["cards"][0]["major"]["vp"] = 8
    changed = parse_catalog("base", files)
    assert changed.content_hash != catalog.content_hash and changed != catalog
    assert changed.card("D1-01").major.vp == 8


# --- validation ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "codes",
    [["3VP", "INQ"], ["Q"], ["2Q"], ["PER"], ["PERx2"], ["DIE"], ["LEC"], ["INC:R"], ["INC2:B"], ["1D+1"],
     ["1D+3"], ["INQ"], ["FW"], ["CARD"], ["W1"], ["W3"], ["WC"], ["UPG"], ["SPOT"], ["12VP"], []],
)  # fmt: skip
def test_valid_reward_codes(codes: list[str]) -> None:
    assert validate_reward(codes, "x.json: $.r") == tuple(codes)


@pytest.mark.parametrize(
    ("codes", "message"),
    [
        (["0VP"], "x.json: $.r[0]: unknown or malformed reward code '0VP'"),
        (["3VP", "1Q"], "x.json: $.r[1]: unknown or malformed reward code '1Q'"),
        (["PERx1"], "'PERx1'"),
        (["1D+4"], "'1D+4'"),
        (["2D+1"], "'2D+1'"),
        (["INC:G"], "'INC:G'"),
        (["INC3:R"], "'INC3:R'"),
        (["W0"], "'W0'"),
        (["3VP+INQ"], "'3VP+INQ'"),
        (["OBS"], "'OBS'"),
        (["—"], "'—'"),
        ([3], "x.json: $.r[0]: a reward code must be a string, got an integer"),
        ("3VP", "x.json: $.r: a reward must be a list of codes, got a string"),
        (None, "x.json: $.r: a reward must be a list of codes, got null"),
    ],
)
def test_malformed_reward_codes_are_refused(codes: object, message: str) -> None:
    with pytest.raises(CatalogError) as raised:
        validate_reward(codes, "x.json: $.r")
    assert message in str(raised.value)


def test_unknown_reward_code_in_a_card_row() -> None:
    def change(f: Files) -> None:
        f["cards.json"]["cards"][2]["front"][1] = ["1D+2", "INC:G"]

    assert refused(change) == (
        "base/cards.json: $.cards[2].front[1][1]: unknown or malformed reward code 'INC:G'"
    )


def test_unknown_reward_code_on_a_book_page() -> None:
    def change(f: Files) -> None:
        f["book_of_comets.json"]["pages"][0]["reward"] = ["LECTURE"]

    assert refused(change).startswith("base/book_of_comets.json: $.pages[0].reward[0]: unknown or malformed")


def test_observe_is_only_a_starry_sky_code() -> None:
    def change(f: Files) -> None:
        f["action_tiles.json"]["tiles"][0]["basic"][0] = ["OBS"]

    assert refused(change).startswith("base/action_tiles.json: $.tiles[0].basic[0][0]: unknown or malformed")


def test_wrong_number_of_library_rows() -> None:
    def change(f: Files) -> None:
        del f["cards.json"]["cards"][4]["back"][3]

    assert refused(change) == "base/cards.json: $.cards[4].back: expected 4 library rows, got 3"


def test_wrong_number_of_action_tile_options() -> None:
    def change(f: Files) -> None:
        f["action_tiles.json"]["tiles"][3]["upgraded"].append(["Q"])

    assert refused(change) == "base/action_tiles.json: $.tiles[3].upgraded: expected 2 options, got 3"


def test_scale_face_needs_four_rows() -> None:
    def change(f: Files) -> None:
        del f["scale_tiles.json"]["tiles"][1]["faces"][1]["rows"][0]

    assert refused(change) == (
        "base/scale_tiles.json: $.tiles[1].faces[1].rows: expected 4 rows (h=1..4, bottom to top), got 3"
    )


def test_scale_tile_needs_two_faces_named_after_it() -> None:
    def drop_face(f: Files) -> None:
        del f["scale_tiles.json"]["tiles"][0]["faces"][1]

    def misname(f: Files) -> None:
        f["scale_tiles.json"]["tiles"][2]["faces"][1]["id"] = "SC3-C"

    assert refused(drop_face) == "base/scale_tiles.json: $.tiles[0].faces: expected 2 faces, got 1"
    assert refused(misname) == (
        "base/scale_tiles.json: $.tiles[2].faces[1].id: face id must be 'SC3-B', got 'SC3-C'"
    )


def test_more_scale_tiles_in_play_than_in_the_box() -> None:
    def change(f: Files) -> None:
        f["scale_tiles.json"]["scale_tiles_in_play"]["value"] = 7

    assert refused(change) == "base/scale_tiles.json: $.scale_tiles_in_play.value: must be at most 6, got 7"


def test_constellation_slots_need_seven() -> None:
    def change(f: Files) -> None:
        f["player_board.json"]["constellation_slots"]["value"].pop()

    assert refused(change) == "base/player_board.json: $.constellation_slots.value: expected 7 slots, got 6"


def test_cellar_values_need_one_bottom_value_per_arch() -> None:
    def change(f: Files) -> None:
        f["player_board.json"]["cellar_bottom"]["value"].append(2)

    assert refused(change) == "base/player_board.json: $.cellar_bottom.value: expected 4 cellar spaces, got 5"


def test_action_tiles_fill_the_queue() -> None:
    def change(f: Files) -> None:
        f["action_tiles.json"]["tiles"].pop()

    assert refused(change) == (
        "base/action_tiles.json: $.tiles: "
        "expected 6 Action tiles (one per starry-sky space with a tile), got 5"
    )


@pytest.mark.parametrize(
    ("file", "key", "message"),
    [
        ("cards.json", "cards", "base/cards.json: $.cards[1].id: duplicate id 'D1-01'"),
        ("action_tiles.json", "tiles", "base/action_tiles.json: $.tiles[1].id: duplicate id 'A1'"),
        ("book_of_comets.json", "pages", "base/book_of_comets.json: $.pages[1].id: duplicate id 'blue-1'"),
        ("scale_tiles.json", "tiles", "base/scale_tiles.json: $.tiles[1].id: duplicate id 'SC1'"),
        ("subjects.json", "tiles", "base/subjects.json: $.tiles[1].id: duplicate id 'ST1'"),
        ("objectives.json", "objectives", "base/objectives.json: $.objectives[1].id: duplicate id 'OBJ-P1'"),
    ],
)
def test_duplicate_ids(file: str, key: str, message: str) -> None:
    def change(f: Files) -> None:
        items = f[file][key]
        items[1]["id"] = items[0]["id"]
        if file == "scale_tiles.json":
            for face, suffix in zip(items[1]["faces"], "AB", strict=True):
                face["id"] = f"{items[0]['id']}-{suffix}"

    assert refused(change) == message


def test_duplicate_constellation_on_a_card() -> None:
    def change(f: Files) -> None:
        card = f["cards.json"]["cards"][1]
        card["constellations"][1]["name"] = card["constellations"][0]["name"]

    assert refused(change) == (
        "base/cards.json: $.cards[1].constellations[0]: duplicate constellation name 'Cassiopeia' on one card"
    )


def test_bad_colour() -> None:
    def change(f: Files) -> None:
        f["cards.json"]["cards"][0]["constellations"][0]["colour"] = "G"

    assert refused(change) == (
        "base/cards.json: $.cards[0].constellations[0].colour: unknown colour 'G' (expected one of R, Y, B)"
    )


def test_bad_mix() -> None:
    def change(f: Files) -> None:
        f["cards.json"]["cards"][0]["major"]["mix"] = "brown"

    assert refused(change) == (
        "base/cards.json: $.cards[0].major.mix: "
        "unknown colour mix 'brown' (expected one of orange, green, purple)"
    )


def test_bad_tier() -> None:
    def change(f: Files) -> None:
        f["cards.json"]["cards"][0]["tier"] = 4

    assert refused(change) == "base/cards.json: $.cards[0].tier: unknown tier 4 (expected 1, 2 or 3)"


def test_negative_costs() -> None:
    def major(f: Files) -> None:
        f["cards.json"]["cards"][5]["major"]["cost"] = -1

    def constellation(f: Files) -> None:
        f["cards.json"]["cards"][5]["constellations"][1]["cost"] = -2

    assert refused(major) == "base/cards.json: $.cards[5].major.cost: must be at least 0, got -1"
    assert refused(constellation) == (
        "base/cards.json: $.cards[5].constellations[1].cost: must be at least 0, got -2"
    )


def test_a_boolean_is_not_a_number() -> None:
    def change(f: Files) -> None:
        f["cards.json"]["cards"][0]["major"]["vp"] = True

    assert refused(change) == "base/cards.json: $.cards[0].major.vp: expected an integer, got a boolean"


def test_deck_needs_six_tier_one_cards() -> None:
    def change(f: Files) -> None:
        f["deck.json"]["deck_composition"]["value"]["2"] = [5, 5, 4]

    assert refused(change) == (
        "base/deck.json: $.deck_composition.value['2'][0]: Tier I needs at least 6 cards for the opening "
        "display (SET-5), got 5"
    )


def test_deck_cannot_use_more_cards_than_the_box_has() -> None:
    def change(f: Files) -> None:
        f["deck.json"]["deck_composition"]["value"]["4"] = [12, 12, 6]

    assert refused(change) == (
        "base/deck.json: $.deck_composition.value['4'][1]: "
        "4 player(s) need 12 Tier II cards but the box has 11"
    )


def test_deck_leaves_a_tier_three_reserve() -> None:
    def change(f: Files) -> None:
        f["deck.json"]["deck_composition"]["value"]["4"] = [12, 7, 10]

    assert refused(change) == (
        "base/deck.json: $.deck_composition.value['4']: no Tier III card left in the box for the end-game "
        "reserve (END-4): 4 player(s) use 10 of the 10 Tier III cards"
    )


def test_deck_covers_every_player_count() -> None:
    def missing(f: Files) -> None:
        del f["deck.json"]["deck_composition"]["value"]["1"]

    def extra(f: Files) -> None:
        f["deck.json"]["deck_composition"]["value"]["5"] = [12, 7, 6]

    assert refused(missing) == "base/deck.json: $.deck_composition.value: missing player count 1"
    assert refused(extra) == (
        "base/deck.json: $.deck_composition.value['5']: unknown player count '5' (expected 1 to 4)"
    )


def test_subject_tile_must_reference_a_niche_objective() -> None:
    def unknown(f: Files) -> None:
        f["subjects.json"]["tiles"][2]["niche"] = "OBJ-N9"

    def printed(f: Files) -> None:
        f["subjects.json"]["tiles"][2]["niche"] = "OBJ-P1"

    def twice(f: Files) -> None:
        f["subjects.json"]["tiles"][2]["niche"] = "OBJ-N1"

    assert refused(unknown) == "base/subjects.json: $.tiles[2].niche: unknown objective 'OBJ-N9'"
    assert refused(printed) == (
        "base/subjects.json: $.tiles[2].niche: objective 'OBJ-P1' is printed, not a niche objective"
    )
    assert refused(twice) == (
        "base/subjects.json: $.tiles[2].niche: objective 'OBJ-N1' is on two Subject tiles"
    )


def test_missing_provenance() -> None:
    def deleted(f: Files) -> None:
        del f["cards.json"]["cards"][7]["provenance"]

    def empty(f: Files) -> None:
        f["objectives.json"]["objectives"][0]["provenance"] = ""

    def board_value(f: Files) -> None:
        del f["player_board.json"]["die_max"]["provenance"]

    assert refused(deleted) == "base/cards.json: $.cards[7]: missing key 'provenance'"
    assert refused(empty) == "base/objectives.json: $.objectives[0].provenance: missing provenance"
    assert refused(board_value) == "base/player_board.json: $.die_max: missing key 'provenance'"


def test_malformed_provenance() -> None:
    def change(f: Files) -> None:
        f["scale_tiles.json"]["tiles"][0]["faces"][0]["provenance"] = "seed: S003 §Scale; made up"

    assert refused(change).startswith(
        "base/scale_tiles.json: $.tiles[0].faces[0].provenance: provenance part 'made up' must read"
    )


def test_provenance_parts_may_contain_semicolons_in_parentheses() -> None:
    def change(f: Files) -> None:
        f["cards.json"]["cards"][1]["provenance"] = "provisional: DATA-1 (a; b); box: 35 cards"

    files = copy.deepcopy(BASE_FILES)
    change(files)
    assert parse_catalog("base", files).card("D1-02").provenance.endswith("box: 35 cards")


def test_reputation_track_needs_every_position() -> None:
    def change(f: Files) -> None:
        del f["university.json"]["reputation_vp"]["value"]["0"]

    def start_off_track(f: Files) -> None:
        f["university.json"]["reputation_start"]["value"] = -9

    assert refused(change) == "base/university.json: $.reputation_vp.value: missing position 0"
    assert refused(start_off_track) == (
        "base/university.json: $.reputation_start.value: must be at least -8, got -9"
    )


def test_unexpected_keys_are_refused() -> None:
    def change(f: Files) -> None:
        f["cards.json"]["cards"][0]["provenence"] = f["cards.json"]["cards"][0].pop("provenance")

    assert refused(change).startswith("base/cards.json: $.cards[0]: unexpected key 'provenence'")


def test_missing_and_unexpected_files() -> None:
    def missing(f: Files) -> None:
        del f["objectives.json"]

    def unexpected(f: Files) -> None:
        f["players.json"] = {}

    assert refused(missing) == "base/objectives.json: $: missing file"
    assert refused(unexpected).startswith("base/players.json: $: unexpected file")


def test_CHAR_2_the_characters_are_catalog_data() -> None:
    current = load_catalog()
    ids = [board.id for board in current.characters]
    assert ids == ["galileo", "kepler", "copernicus", "bruno", "newton", "hevelius", "cunitz", "sophia"]
    assert tuple(ids) == characters()
    assert [b.expansion for b in current.characters] == ["base"] * 4 + ["luna"] * 4
    assert {b.id: b.personal_pages for b in current.characters}["cunitz"] == 3  # CHAR-3
    # the first edition predates characters.json: it offers the same eight, its hash unchanged
    first = load_catalog("base-provisional-1")
    assert [board.id for board in first.characters] == ids


def test_a_bad_character_entry_is_refused_with_its_path() -> None:
    files = copy.deepcopy(BASE_FILES)
    board = {"id": "galileo", "name": "G", "expansion": "mars", "personal_pages": 1, "provenance": "box: x"}
    files["characters.json"] = {"characters": [board, board]}
    with pytest.raises(CatalogError, match=r"characters\.json: \$\.characters\[0\]\.expansion: unknown"):
        parse_catalog("base", files)
