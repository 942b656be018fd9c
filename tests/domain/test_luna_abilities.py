"""The Luna characters' ability rules as pure functions (digest §17.5-17.8; DATA-15/19/20/22)."""

from __future__ import annotations

import itertools

import pytest

from domain.abilities import cunitz, hevelius, newton, sophia
from domain.catalog import load_catalog
from domain.catalog.luna_characters import LunaCharacters

EDITION = "base-4"  # the catalog edition with the Luna characters' ability sides


@pytest.fixture(scope="module")
def data() -> LunaCharacters:
    found = load_catalog(EDITION).luna_characters
    assert found is not None
    return found


# -- data: consistent with every stated fact ----------------------------------------------------------


def test_DATA_15_newton_has_six_tiles_two_mirrors_one_a_quadrant(data: LunaCharacters) -> None:
    assert len(data.newton_tiles) == 6
    mirrors = [t for t in data.newton_tiles if t.mirror]
    assert len(mirrors) == 2 and any(t.basic == (("Q",),) for t in mirrors)  # EX-21's Quadrant mirror
    assert data.multipliers == (0, 0, 1, 2, 3, 4)  # DER-10, AMB-34


def test_DATA_19_hevelius_tiles_have_one_to_three_stars_and_connections(data: LunaCharacters) -> None:
    assert len(data.hevelius_tiles) == 16  # CHAR-HEV-1
    assert all(1 <= t.stars <= 3 and 1 <= t.connections <= 3 for t in data.hevelius_tiles)  # CHAR-HEV-6
    conditions = {t.condition for t in data.hevelius_tiles}
    assert {"INC:B", "INC:Y", "UPG"} <= conditions  # the seed's examples (EX-23, EX-24)
    assert [m for m, _ in data.bands] == [2, 3, 5, 7]


def test_DATA_20_cunitz_track_notes_and_tiles(data: LunaCharacters) -> None:
    assert len(data.note_spaces) == 6 and len(data.notes) == 6  # CHAR-CUN-1
    assert any(set(n.frame) == {"B", "R"} and n.reward == ("PER",) for n in data.notes)  # the seed's Note
    for tile in data.cunitz_tiles:
        for face in (tile.basic, tile.upgraded):
            left, right = face
            cunitz.check_option(left)  # CHAR-CUN-3: never Focus and Move together
            cunitz.check_option(right)
            assert cunitz.move_steps(left) == 0  # CHAR-CUN-3: Move always on the right
            assert "FOCUS" not in right
            single = [c for c in left if c.startswith(("INC:", "INC2:"))]
            assert ("FOCUS" in left) == (
                len(single) == 1
            )  # CHAR-CUN-2: Focus on every single-colour increase


def test_DATA_22_CHAR_SOP_4_sun_and_venus(data: LunaCharacters) -> None:
    assert len(data.sun) == 4 and data.venus[-1] == (3,)  # DER-30: last covers only the right-hand space


# -- Sophia -------------------------------------------------------------------------------------------


def test_CHAR_SOP_2_venus_moves_right_per_wrap_and_returns_to_the_first(data: LunaCharacters) -> None:
    n = len(data.venus)
    positions = [sophia.START]
    for _ in range(n):
        positions.append(sophia.venus_after_wrap(positions[-1], n))
    assert positions == [0, 1, 2, 3, 0]


def test_CHAR_SOP_3_visible_sun_rewards(data: LunaCharacters) -> None:
    assert sophia.sun_reward(data.sun, data.venus, 0) == ("1D+1", "PER")  # S3, S4 visible
    assert sophia.sun_reward(data.sun, data.venus, 3) == ("Q", "2VP", "1D+1")
    assert sophia.visible(data.sun, data.venus, 1) == (0, 3)


def test_AMB_39_only_an_observe_that_observed_something_pays() -> None:
    assert not sophia.sun_triggers(0) and sophia.sun_triggers(1) and sophia.sun_triggers(3)


# -- Newton -------------------------------------------------------------------------------------------


def test_EX_21_quadrant_mirror_at_the_top_gives_four(data: LunaCharacters) -> None:
    times = newton.mirror_times(data.multipliers, 5, upgraded=False, upgrade_bonus=1)
    assert newton.mirror_reward(("Q",), times) == ("Q",) * 4


def test_AMB_34_mirror_on_crossed_out_space_gives_nothing(data: LunaCharacters) -> None:
    assert newton.mirror_times(data.multipliers, 0, False, 1) == 0
    assert newton.mirror_times(data.multipliers, 1, False, 1) == 0
    assert newton.mirror_times(data.multipliers, 1, True, 1) == 1  # DATA-15: upgraded = m + 1


def test_EX_22_page2_two_times_the_higher_multiplier(data: LunaCharacters) -> None:
    mirrors = frozenset({"N1", "N2"})
    assert newton.page2_vp(("N3", "N4", "N1", "N5", "N6", "N2"), mirrors, data.multipliers, 2) == 8
    assert newton.page2_vp(("N3", "N2", "N5", "N1", "N6", "N4"), mirrors, data.multipliers, 2) == 4
    assert newton.page2_vp(("N1", "N2", "N3", "N4", "N5", "N6"), mirrors, data.multipliers, 2) == 0  # AMB-34


def test_CHAR_NEW_1_setup_queue() -> None:
    assert newton.start_queue(("N1", "N2"), ("N5", "N3", "N6", "N4")) == ("N1", "N2", "N5", "N3", "N6", "N4")


def test_CHAR_NEW_4_page1_moves_skipped_tiles_back_one() -> None:
    q = ("N1", "N2", "N3", "N4", "N5", "N6")
    assert newton.page1_move(q, "N1", 2) == ("N2", "N3", "N1", "N4", "N5", "N6")
    assert newton.page1_move(q, "N2", 1) == ("N1", "N3", "N2", "N4", "N5", "N6")
    mirrors = frozenset({"N1", "N2"})
    assert sorted(newton.page1_moves(q, mirrors, 2)) == [("N1", 1), ("N1", 2), ("N2", 1), ("N2", 2)]
    top = ("N3", "N4", "N5", "N6", "N1", "N2")
    assert newton.page1_moves(top, mirrors, 2) == [("N1", 1)]  # never past the top
    with pytest.raises(ValueError, match="CHAR-NEW-4"):
        newton.page1_move(top, "N2", 1)
    for tile, k in newton.page1_moves(q, mirrors, 2):  # a permutation, the tile k forward
        moved = newton.page1_move(q, tile, k)
        assert sorted(moved) == sorted(q) and moved.index(tile) == q.index(tile) + k


# -- Cunitz -------------------------------------------------------------------------------------------


def test_CHAR_CUN_2_focus_takes_the_colour_of_the_increase() -> None:
    assert cunitz.focus_colour(("INC:R", "FOCUS")) == "R"
    assert cunitz.focus_colour(("INC2:B", "FOCUS")) == "B"
    assert cunitz.focus_colour(("1D+2", "MOVE1")) is None


def test_CHAR_CUN_3_never_focus_and_move_together() -> None:
    with pytest.raises(ValueError, match="CHAR-CUN-3"):
        cunitz.check_option(("INC:R", "FOCUS", "MOVE1"))


def test_AMB_38_only_the_landing_space_and_extra_steps_lost(data: LunaCharacters) -> None:
    end = len(data.track) - 1
    assert cunitz.moved(0, 2, len(data.track)) == 2
    assert cunitz.moved(end - 1, 3, len(data.track)) == end
    notes = [data.notes[i].frame for i in range(6)]
    rewards = [data.notes[i].reward for i in range(6)]
    # passing T1 (Q) on a Move 2 gives nothing from T1: only the landing space counts
    assert cunitz.landing_reward(data.track, notes, rewards, 3, "") == ("1D+1",)
    assert cunitz.landing_reward(data.track, notes, rewards, 13, "") == ("5VP",)


def test_CHAR_CUN_4_note_pays_only_when_the_round_token_matches(data: LunaCharacters) -> None:
    notes = [n.frame for n in data.notes]
    rewards = [n.reward for n in data.notes]
    first = data.note_spaces[0]
    assert notes[0] == ("B", "R")
    assert cunitz.landing_reward(data.track, notes, rewards, first, "") == ()  # the arrow matches nothing
    assert cunitz.landing_reward(data.track, notes, rewards, first, "Y") == ()
    assert cunitz.landing_reward(data.track, notes, rewards, first, "R") == ("PER",)
    assert cunitz.landing_reward(data.track, notes, rewards, first, "B") == ("PER",)
    assert cunitz.note_index(data.track, first) == 0 and cunitz.note_index(data.track, 1) is None


def test_S000_cunitz_example_move_first_then_focus(data: LunaCharacters) -> None:
    """S000 §Maria Cunitz example: the next space has a blue/red frame; the moving action's Focus puts the
    round token on red; her page gives 2 Quadrants, Move 1 and Focus: she moves first (the colours match:
    Persuade) and then focuses on blue for the next Note."""
    notes = [n.frame for n in data.notes]
    rewards = [n.reward for n in data.notes]
    square = data.note_spaces[0] - 1
    round_token = cunitz.focus_colour(("INC:R", "FOCUS"))
    assert round_token == "R"
    board = load_catalog(EDITION).character("cunitz")
    assert board.ability is not None
    page = board.ability.pages[0].reward
    assert "2Q" in page and "FOCUSANY" in page and cunitz.move_steps(page) == 1
    square = cunitz.moved(square, cunitz.move_steps(page), len(data.track))
    assert cunitz.landing_reward(data.track, notes, rewards, square, round_token) == ("PER",)


# -- Hevelius -----------------------------------------------------------------------------------------

T = hevelius.Tile


def test_CHAR_HEV_5_first_tile_starts_a_constellation_later_extend_or_start() -> None:
    layout, done = hevelius.place((), T("a", 1, 2), hevelius.NEW)
    assert layout == ((T("a", 1, 2),),) and done is None
    assert hevelius.targets(layout) == [hevelius.NEW, 0]
    layout, done = hevelius.place(layout, T("b", 1, 3), 0, connector=2)  # rotated: any connector pairs
    assert hevelius.open_connections(layout[0]) == 3 and done is None


def test_CHAR_HEV_6_completion_closes_and_pays_by_stars() -> None:
    layout, _ = hevelius.place((), T("a", 2, 1), hevelius.NEW)
    layout, done = hevelius.place(layout, T("b", 3, 1), 0)
    assert layout == () and done is not None and hevelius.stars(done) == 5
    bands = ((2, ()), (3, ("W1", "W1", "Q")), (5, ("4VP", "DIE")), (7, ("10VP",)))
    assert hevelius.completion_reward(bands, 2) == ()
    assert hevelius.completion_reward(bands, 4) == ("W1", "W1", "Q")
    assert hevelius.completion_reward(bands, 5) == ("4VP", "DIE")
    assert hevelius.completion_reward(bands, 9) == ("10VP",)


def test_EX_23_hevelius_closes_the_five_star_constellation() -> None:
    small = (T("a", 2, 1), T("b", 1, 2))  # one open connection, 3 stars
    big = (T("c", 3, 1), T("d", 2, 2))  # one open, 5 stars
    middle = T("e", 2, 1)  # "increase blue dice"
    bands = ((2, ()), (3, ("W1", "W1", "Q")), (5, ("4VP", "DIE")), (7, ("10VP",)))
    layout, done = hevelius.place((small, big), middle, 0)
    assert done is not None and hevelius.completion_reward(bands, hevelius.stars(done)) == ("4VP", "DIE")
    layout, done = hevelius.place((small, big), middle, 1)
    assert done is not None and hevelius.completion_reward(bands, hevelius.stars(done)) == ("10VP",)


def test_CHAR_HEV_3_EX_24_AMB_35_icon_must_match_exactly_amount_does_not() -> None:
    assert hevelius.icon_of("1D+2") == "1D" != "INC:Y"  # one die +2 on a yellow die is not "increase yellow"
    assert hevelius.icon_of("INC:Y") == hevelius.icon_of("INC2:Y") == "INC:Y"  # AMB-35
    assert hevelius.icon_of("2Q") == "Q" and hevelius.icon_of("PERx2") == "PER"
    assert hevelius.icon_of("W1") == hevelius.icon_of("WC") == "WRITE"
    assert hevelius.icon_of("3VP") is None
    offer = ("H03", "H11", "H13")
    conditions = {"H03": "INC:B", "H11": "INC:Y", "H13": "UPG"}
    assert hevelius.claimable(offer, conditions, frozenset({hevelius.icon_of("1D+2") or ""})) == []
    assert hevelius.claimable(offer, conditions, frozenset({"INC:Y", "UPG"})) == ["H11", "H13"]


def test_CHAR_HEV_8_refill_to_three() -> None:
    assert hevelius.refill(("a",), ("b", "c", "d"), 3) == (("a", "b", "c"), ("d",))
    assert hevelius.refill((), ("b",), 3) == (("b",), ())


def test_CHAR_HEV_5_joins_and_closed_targets_refused() -> None:
    layout, _ = hevelius.place((), T("a", 1, 1), hevelius.NEW)
    layout, done = hevelius.place(layout, T("b", 1, 1), 0)
    assert done is not None and layout == ()
    layout = ((T("a", 1, 1),), (T("b", 1, 2), T("c", 1, 1)))
    with pytest.raises(ValueError, match="CHAR-HEV-5"):
        hevelius.place(layout, T("x", 1, 1), 5)
    with pytest.raises(ValueError, match="CHAR-HEV-5"):
        hevelius.place(layout, T("x", 1, 1), 0, connector=1)  # a one-connection tile has one connector


@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_CHAR_HEV_5_6_exhaustive_small_layouts(size: int) -> None:
    """Every sequence of `size` tiles (1-3 connections) placed every legal way, every rotation: the open
    count follows the tree model, a constellation is complete exactly when nothing is open (and then it
    leaves the layout), an incomplete one always has an open connection, no placement joins two
    constellations (the number of constellations grows by one for NEW, else stays or drops by one on
    completion), and every tile is accounted for."""
    kinds = [T(f"k{k}", 1, k) for k in (1, 2, 3)]
    seen = 0
    for seq in itertools.product(kinds, repeat=size):
        tiles = [T(f"{t.id}-{i}", t.stars, t.connections) for i, t in enumerate(seq)]
        frontier: list[tuple[tuple[tuple[hevelius.Tile, ...], ...], int]] = [((), 0)]
        for tile in tiles:
            nxt = []
            for layout, completed in frontier:
                for target in hevelius.targets(layout):
                    for connector in range(tile.connections):
                        after, done = hevelius.place(layout, tile, target, connector)
                        if target == hevelius.NEW:
                            assert len(after) == len(layout) + 1 and done is None
                        elif done is None:
                            assert len(after) == len(layout)
                            assert hevelius.open_connections(after[target]) == (
                                hevelius.open_connections(layout[target]) + tile.connections - 2
                            )
                        else:
                            assert len(after) == len(layout) - 1 and hevelius.is_complete(done)
                            assert hevelius.open_connections(done) == 0
                        for c in after:
                            assert hevelius.open_connections(c) > 0  # incomplete ones stay open
                        placed = sum(len(c) for c in after) + completed + (len(done) if done else 0)
                        assert placed == tiles.index(tile) + 1
                        nxt.append((after, completed + (len(done) if done else 0)))
                        seen += 1
                for closed in range(len(layout)):
                    if hevelius.open_connections(layout[closed]) <= 0:
                        with pytest.raises(ValueError):
                            hevelius.place(layout, tile, closed)
            frontier = nxt
    assert seen > 0
