"""Luna expansion (digest §18): examples EX-17..20, CT-7..9, every Bonus Board space and Scoring
tile, Moon phases, Grand Inquisitors, and property runs over complete Luna games."""

from __future__ import annotations

import dataclasses

import pytest

from domain import IllegalMove, Options, legal_moves
from domain import events as ev
from domain.expansions.luna import events as le
from domain.expansions.luna.rules import scoring_points
from domain.expansions.luna.state import luna_of, seat_of
from domain.expansions.luna.state import with_luna as put_luna
from domain.scoring import cellar_points, interrogation
from domain.selfplay import selfplay
from domain.state import S1, S2, S3, Task
from tests.domain.invariants import check_all
from tests.domain.scenario import (
    actions_at,
    finish_effects,
    new_game,
    of_type,
    play,
    player,
    resolve,
    show,
    turn,
    types,
    with_agenda,
)
from tests.runs import runs


def luna_game(players: int = 3, **options: object) -> object:
    return new_game(players, "luna-scenario", luna=True, **options)


def with_luna(state, **changes):  # type: ignore[no-untyped-def]
    return put_luna(state, dataclasses.replace(luna_of(state), **changes))


def moon_scenario(scoring: str = "LUNA-66", side: str = "A"):  # type: ignore[no-untyped-def]
    s = luna_game(bonus_board_side=side)
    tiles = list(luna_of(s).scoring)
    other = tiles.index(scoring)
    tiles[0], tiles[other] = tiles[other], tiles[0]  # the chosen Scoring tile on Moon tile I
    return with_luna(s, scoring=tuple(tiles))


# -- setup ---------------------------------------------------------------------------------------


def test_LUNA_1_to_9_setup() -> None:
    s = luna_game()
    luna = luna_of(s)
    assert luna is not None and luna.side in ("A", "B") and luna.phase == 1
    assert luna.costs == (5, 6, 7, 8, 9, 10, 11, 12, 13)
    assert sorted(luna.scoring) == sorted(t.id for t in s.catalog.luna.scoring_tiles)
    assert luna.flipped == (False,) * 9 and luna.bonus == ((),) * 9
    assert all(seat_of(p).grand == (0, 0, 0, 0) for p in s.players)


def test_LUNA_3_face_down_scoring_tiles_are_hidden() -> None:
    from domain import public_state, redact_event, start
    from domain.selfplay import default_setup

    setup = dataclasses.replace(default_setup(2, "hide"), options=Options(luna=True))
    s, events = start(setup)
    hidden = luna_of(s).scoring[3:]
    public = public_state(s)["luna"]["scoring"]
    assert public[:3] == list(luna_of(s).scoring[:3]) and public[3:] == ["?"] * 6
    started = redact_event(events[0])
    assert "moon_hidden" not in started and started["moon_revealed"] == list(luna_of(s).scoring[:3])
    assert all(tile not in str(started) for tile in hidden)


def test_LUNA_5_bonus_board_side_option() -> None:
    assert luna_of(luna_game(bonus_board_side="B")).side == "B"
    with pytest.raises(ValueError):
        Options.from_json({"bonusBoardSide": "C"})


# -- observing the Moon ----------------------------------------------------------------------------


def test_EX_17_observing_the_moon() -> None:
    s = moon_scenario("LUNA-66")
    library = (("D1-01", True), ("D1-02", True))
    s = player(s, 0, dice=(("B", 2), ("R", 1), ("Y", 1)), library=library, comets=("sky2",) + ("slot",) * 6)
    s = player(s, 1, library=(("D1-03", True),))
    s = actions_at(s, S1)
    s, events = play(s, "observe MOON:I B2+R1+Y1 c1=0 c2=1")
    moon = of_type(events, le.MoonObserved)[0]
    assert (moon.cost, moon.comets, moon.scoring) == (5, (0,), "LUNA-66")
    p = s.players[0]
    assert p.dice == () and p.comets[0] == "pending" and seat_of(p).moon == 1
    assert luna_of(s).costs[0] == 6  # the next cost
    assert p.quadrants == 2 and dict(p.points) == {"moon": 6, "scoring-tile": 4}
    assert s.players[1].score == 1 and s.players[2].score == 0  # basic: 1 VP per Major Object
    assert seat_of(p).grand == (1, 0, 0, 0)
    assert luna_of(s).flipped[0] and luna_of(s).scoring[0] == ""
    order = [
        t
        for t in types(events)
        if t in ("MoonObserved", "QuadrantsGained", "ScoringTileScored", "GrandInquisitorGained")
    ]
    assert order == ["MoonObserved", "QuadrantsGained", "ScoringTileScored", "GrandInquisitorGained"]


def test_OBS_23_the_moon_needs_all_three_colours() -> None:
    s = actions_at(player(moon_scenario(), 0, dice=(("B", 6), ("R", 6))), S1)
    assert not [m for m in legal_moves(s) if "MOON" in str(m)]
    with pytest.raises(IllegalMove):
        play(s, "observe MOON:I B6+R6 c1=0 c2=0")


def test_LUNA_21_only_tiles_with_a_face_up_scoring_tile() -> None:
    s = actions_at(player(moon_scenario(), 0, dice=(("B", 6), ("R", 6), ("Y", 6))), S1)
    targets = {m.target for m in legal_moves(s) if "MOON" in str(m)}
    assert targets == {"MOON:I", "MOON:II", "MOON:III"}
    with pytest.raises(IllegalMove) as err:
        play(s, "observe MOON:IV B6+R6+Y6 c1=0 c2=0")
    assert err.value.rule_id == "LUNA-21"


def test_EX_20_moon_objective_after_the_second_observation() -> None:
    s = moon_scenario("LUNA-61")
    s = player(s, 0, dice=(("B", 6), ("R", 6), ("Y", 6)), moon=1)
    s = with_luna(s, costs=luna_of(s).costs[1:])
    s = actions_at(s, S1)
    s, events = play(s, "observe MOON:I B6+R6+Y6 c1=0 c2=0")
    assert {str(m) for m in legal_moves(s)} == {"@0 moonreward vp", "@0 moonreward quadrants"}
    assert "ScoringTileScored" in types(events)  # after the Scoring tile (LUNA-81)
    q = s.players[0].quadrants
    s, events = play(s, "moonreward quadrants")
    assert s.players[0].quadrants == q + 2 and luna_of(s).achievers == (0,)
    assert "@0 free die" in {str(m) for m in legal_moves(s)}  # spendable that turn


def test_AMB_15_option_moon_objective_in_cleanup() -> None:
    s = new_game(3, "luna-scenario", luna=True, moon_objective_immediate=False)
    s = player(s, 0, moon=2)
    s, _ = resolve(turn(actions_at(s, S2), phase="cleanup"))
    assert {str(m) for m in legal_moves(s)} == {"@0 moonreward vp", "@0 moonreward quadrants"}
    s, _ = play(s, "moonreward vp")
    assert dict(s.players[0].points)["moon-objective"] == 3


def test_AMB_13_the_moon_is_not_a_major_object_unless_the_option_says_so() -> None:
    from domain.scoring import major_objects

    s = player(luna_game(), 0, moon=2, library=(("D1-01", True),))
    assert major_objects(s, s.players[0]) == 1
    s2 = player(luna_game(moon_counts_as_major_object=True), 0, moon=2, library=(("D1-01", True),))
    assert major_objects(s2, s2.players[0]) == 3


# -- phases ----------------------------------------------------------------------------------------


def _last_tier_one(state):  # type: ignore[no-untyped-def]
    cards = state.catalog.cards
    tier1 = [c for c in state.deck if cards[c].tier == 1]
    rest = [c for c in state.deck if cards[c].tier > 1]
    return dataclasses.replace(state, deck=(tier1[-1], *rest))


def test_LUNA_31_phase_change_on_a_board_refill() -> None:
    s = actions_at(_last_tier_one(luna_game()), S2)
    s, events = resolve(s, Task("REFILL", 0))
    advanced = of_type(events, le.MoonPhaseAdvanced)
    assert advanced and advanced[0].phase == 2 and advanced[0].revealed == luna_of(s).scoring[3:6]
    assert types(events).index("CardDealt") < types(events).index("MoonPhaseAdvanced")


def test_LUNA_32_phase_change_on_a_face_down_draw() -> None:
    s = actions_at(_last_tier_one(luna_game()), S2)
    s, events = resolve(s, Task("CARD"))
    assert of_type(events, le.MoonPhaseAdvanced)[0].phase == 2
    assert luna_of(s).phase == 2


def test_LUNA_33_earlier_phases_stay_observable() -> None:
    s = with_luna(luna_game(), phase=2)
    s = actions_at(player(s, 0, dice=(("B", 6), ("R", 6), ("Y", 6))), S1)
    targets = {m.target for m in legal_moves(s) if "MOON" in str(m)}
    assert targets == {f"MOON:{p}" for p in ("I", "II", "III", "IV", "V", "VI")}


def test_AMB_42_phase_change_during_setup_when_the_deck_starts_with_tier_two() -> None:
    from domain import start
    from domain.selfplay import default_setup

    # 2 players (first edition): 8 Tier I cards, 6 dealt: the deck starts with 2 Tier I cards -> no change.
    setup = dataclasses.replace(default_setup(2, "amb42"), options=Options(luna=True))
    first = dataclasses.replace(setup, catalog_edition="base-provisional-1")
    state, events = start(first)
    assert not of_type(events, le.MoonPhaseAdvanced)
    tiers = [state.catalog.cards[c].tier for c in state.deck]
    assert tiers[:2] == [1, 1] and tiers[2] == 2
    # 2 players (base-2, DATA-2 corrected): 9 Tier I cards, the deck starts with 3 of them.
    state, events = start(setup)
    assert not of_type(events, le.MoonPhaseAdvanced)
    tiers = [state.catalog.cards[c].tier for c in state.deck]
    assert tiers[:3] == [1, 1, 1] and tiers[3] == 2


# -- Grand Inquisitors -----------------------------------------------------------------------------


def test_EX_18_grand_inquisitor_doubled_in_an_interrogation() -> None:
    s = player(luna_game(), 0, cellar=(0, 0, 1, 0), grand=(1, 0, 0, 0), reputation=0)
    s = with_agenda(actions_at(s, S2), Task("PER"), Task("PER"))
    s, events = play(s, "persuade G1", "persuade G2", "end")
    assert seat_of(s.players[0]).grand == (0, 0, 1, 0)
    held = of_type(events, ev.InterrogationHeld)[0]
    assert (held.total, held.end) == (-3, -3)  # ordinary -1, Grand Inquisitor 2 x -1


def test_EX_19_fully_persuading_a_grand_inquisitor() -> None:
    s = luna_game(bonus_board_side="A")
    s = player(s, 0, cellar=(0, 0, 1, 0), grand=(0, 0, 1, 0), quadrants=3, reputation=0)
    s = actions_at(s, S2)
    s, events = play(s, "free persuade", "persuade C3")  # the second step has one option: G3 -> C4
    assert s.agenda[-1].kind == "DEPART"
    s, events = play(s, "bonus 8")
    assert of_type(events, le.GrandInquisitorDeparted)[0].space == 8
    assert of_type(events, ev.CometSpotted) and dict(s.players[0].points)["bonus-board"] == 1
    assert seat_of(s.players[0]).grand == (0, 0, 0, 0) and luna_of(s).bonus[7] == (0,)
    s, events = play(s, "end")
    held = of_type(events, ev.InterrogationHeld)[0]
    assert held.total == 1  # DER-19: only the ordinary Inquisitor on C4 remains


def test_CT_9_mixed_interrogation_with_a_grand_inquisitor() -> None:
    s = player(luna_game(), 0, cellar=(1, 0, 0, 1), grand=(0, 1, 0, 0), reputation=0)
    assert interrogation(s, s.players[0])[0] == -6


def test_AMB_14_grand_inquisitor_not_doubled_at_final_scoring() -> None:
    s = player(luna_game(), 0, cellar=(0, 0, 0, 0), grand=(1, 0, 0, 0))
    assert cellar_points(s, s.players[0]) == -4
    s2 = player(luna_game(grand_inquisitor_double_at_end=True), 0, grand=(1, 0, 0, 0))
    assert cellar_points(s2, s2.players[0]) == -8


def test_AMB_50_two_grand_inquisitors_leave_in_the_same_persuade() -> None:
    s = player(luna_game(bonus_board_side="A"), 0, grand=(0, 0, 2, 0))
    s = with_agenda(actions_at(s, S2), Task("PER"), Task("PER"))  # each step has one option: G3
    assert s.agenda[-1].kind == "DEPART" and s.agenda[-2].kind == "PER"  # the first leaves at once
    s, _ = play(s, "bonus 9")
    assert s.agenda[-1].kind == "DEPART"  # then the second
    assert "@0 bonus 9" in {str(m) for m in legal_moves(s)}
    s, _ = play(s, "bonus 4")
    assert luna_of(s).bonus[8] == (0,) and luna_of(s).bonus[3] == (0,)


def finish_effects_until(s, kind):  # type: ignore[no-untyped-def]
    events = []
    while s.agenda and s.agenda[-1].kind != kind:
        s, new = play(s, str(legal_moves(s)[0]))
        events += new
    return s, events


def test_LUNA_42_spaces_one_to_eight_hold_one_figure() -> None:
    s = player(luna_game(bonus_board_side="A"), 0, grand=(0, 0, 1, 0))
    s = with_luna(s, bonus=((1,), *((),) * 8))
    s = with_agenda(actions_at(s, S2), Task("PER"))
    moves = {str(m) for m in legal_moves(s)}
    assert "@0 bonus 1" not in moves and "@0 bonus 9" in moves
    with pytest.raises(IllegalMove) as err:
        play(s, "bonus 1")
    assert err.value.rule_id == "LUNA-42"


# -- Bonus Board, side A and side B -----------------------------------------------------------------


def depart_to(side: str, space: int, **changes):  # type: ignore[no-untyped-def]
    """A Grand Inquisitor of seat 0 reaches C4 and goes to `space`; returns (state, events)."""
    s = luna_game(bonus_board_side=side)
    s = player(s, 0, grand=(0, 0, 1, 0), **changes)
    s = with_agenda(actions_at(s, S2), Task("PER"))
    if s.agenda[-1].kind == "PER":  # other Inquisitors could move too: choose the Grand one
        s, _ = play(s, "persuade G3")
    return play(s, f"bonus {space}")


def test_LUNA_BA_1_two_dice_at_value_2() -> None:
    s, _ = depart_to("A", 1, dice=(("R", 1),))
    s, _ = play(s, "die Y", "die B")
    assert s.players[0].dice == (("B", 2), ("R", 1), ("Y", 2))


def test_LUNA_BA_2_free_constellation_of_cost_4_or_less() -> None:
    s = luna_game(bonus_board_side="A")
    s = show(s, 0, "D1-03")  # Orion R4
    s = player(s, 0, grand=(0, 0, 1, 0), dice=())
    s = with_agenda(actions_at(s, S2), Task("PER"))
    s, _ = play(s, "bonus 2")
    moves = {str(m) for m in legal_moves(s)}
    assert "@0 observe C:D1-03:0 - c1=0 c2=0" in moves
    assert not any(m.startswith("@0 observe MO:") for m in moves)
    s, events = play(s, "observe C:D1-03:0 - c1=0 c2=0")
    assert s.covers[0] == (0,) and not s.turn.fixed_done  # an exception to the Observe limit (OBS-5)


def test_LUNA_BA_2_lost_without_constellation_tokens() -> None:
    s, events = depart_to("A", 2, tokens_used=7, tokens_boxed=7)
    assert of_type(events, le.BonusBoardRewardTaken)[0].lost


def test_LUNA_BA_3_die_and_lecture() -> None:
    s, _ = depart_to("A", 3)
    s, _ = play(s, "die R")
    assert {type(m).__name__ for m in legal_moves(s)} == {"Lecture"}


def test_LUNA_BA_4_persuade_three_times() -> None:
    s, events = depart_to("A", 4, cellar=(2, 0, 0, 0))
    s, more = finish_effects(s)
    persuaded = [e for e in events + more if type(e) is ev.InquisitorPersuaded]  # not the Grand one
    assert len(persuaded) == 3 and sum(i * n for i, n in enumerate(s.players[0].cellar)) == 3


def test_LUNA_BA_5_book_rewards_again_right_to_left() -> None:
    library = (("D1-01", True),)  # R2 spaces: p1 printed Q, p2 "INC:Y"
    s, events = depart_to("A", 5, library=library, books=(0, 2, 0, 0), dice=(("Y", 1),))  # one row
    regained = of_type(events, le.LibraryRewardsRegained)
    assert regained and regained[0].position == 2
    assert types(events).index("DiceRaised") < types(events).index("QuadrantsGained")  # right to left


def test_LUNA_BA_6_any_moving_action_then_rotate_to_the_start() -> None:
    s, _ = depart_to("A", 6)
    tile = s.players[0].queue[5]
    s, events = play(s, f"anytile {tile} 1")
    s, more = finish_effects(s)
    assert s.players[0].queue[0] == tile
    rotated = of_type(events + more, ev.ActionTilesRotated)
    assert rotated and rotated[0].rule == "LUNA-BA-6"


def test_ROT_6_a_tile_rotates_at_most_once_per_turn() -> None:
    s = luna_game(bonus_board_side="A")
    s = player(s, 0, grand=(0, 0, 1, 0), quadrants=3)
    s = actions_at(s, S2)
    used = s.players[0].queue[S2]
    s, _ = play(s, "tile 1")
    s, _ = finish_effects(s)
    s = with_agenda(s, Task("PER"))
    s, _ = play(s, "bonus 6", f"anytile {used} 1")
    s, _ = finish_effects(s)
    queue = s.players[0].queue
    assert queue[0] == used
    s, events = play(s, "end")
    assert not of_type(events, ev.ActionTilesRotated)


def test_LUNA_BA_7_quadrant_and_swap() -> None:
    s, _ = depart_to("A", 7)
    a, b = s.players[0].queue[0], s.players[0].queue[5]
    s, _ = play(s, f"swap {b} {a}")
    assert s.players[0].queue[0] == b and s.players[0].queue[5] == a and s.players[0].quadrants == 1


def test_LUNA_BA_8_spot_a_comet_and_1_vp_or_nothing() -> None:
    s, _ = depart_to("A", 8)
    assert s.players[0].comets[0] == "sky1" and s.players[0].score == 1
    s, events = depart_to("A", 8, comets=("book",) * 7)
    assert of_type(events, le.BonusBoardRewardTaken)[0].lost and s.players[0].score == 0


@pytest.mark.parametrize("side", ["A", "B"])
def test_LUNA_B_9_four_vp_any_number_of_figures(side: str) -> None:
    s, _ = depart_to(side, 9)
    assert dict(s.players[0].points) == {"bonus-board": 4}


def test_LUNA_BB_1_a_die_at_value_5() -> None:
    s, _ = depart_to("B", 1, dice=(("R", 1),))
    s, _ = play(s, "die Y")
    assert ("Y", 5) in s.players[0].dice


def test_LUNA_BB_2_upgrade() -> None:
    s, _ = depart_to("B", 2)
    tile = s.players[0].queue[0]
    s, _ = play(s, f"upgrade {tile}")
    assert tile in s.players[0].upgraded


def test_LUNA_BB_3_relocate_and_take_the_fixed_action_only() -> None:
    s, _ = depart_to("B", 3)
    s, events = play(s, "relocate S3")
    assert s.players[0].telescope == S3 and s.agenda[-1].kind == "FIXEDAT"
    s, events = play(s, "fixed spot")
    assert of_type(events, ev.CometSpotted) and not s.turn.fixed_done
    assert s.turn.space == S2  # the turn's own actions stay those of the Movement-phase space
    assert "@0 fixed die" in {str(m) for m in legal_moves(s)}


def test_LUNA_BB_3_fixed_action_at_U_gives_no_quadrant() -> None:
    s, _ = depart_to("B", 3)
    s, _ = play(s, "relocate U")
    tile = s.players[0].queue[0]
    s, _ = play(s, "fixed upgrade", f"upgrade {tile}")
    assert s.players[0].quadrants == 0 and tile in s.players[0].upgraded


def test_LUNA_BB_4_four_quadrants() -> None:
    s, _ = depart_to("B", 4)
    assert s.players[0].quadrants == 4


def test_LUNA_BB_5_any_inquisitor_to_the_rightmost_space() -> None:
    s, events = depart_to("B", 5, cellar=(1, 0, 0, 0))  # one Inquisitor: moved at once
    assert of_type(events, ev.InquisitorPersuaded)[-1].rule == "LUNA-BB-5"
    assert s.players[0].cellar == (0, 0, 0, 1)
    assert s.turn.inquisitor_moved  # AMB-22: interrogated in Cleanup


def test_LUNA_BB_5_a_grand_inquisitor_claims_a_second_reward() -> None:
    s = player(luna_game(bonus_board_side="B"), 0, grand=(1, 0, 1, 0))
    s = with_agenda(actions_at(s, S2), Task("PER"))
    s, events = play(s, "persuade G3", "bonus 5")  # B5 moves the other Grand Inquisitor (one option)
    assert of_type(events, ev.InquisitorPersuaded)[-1].rule == "LUNA-BB-5"
    assert s.agenda[-1].kind == "DEPART" and "@0 bonus 5" not in {str(m) for m in legal_moves(s)}


def test_LUNA_BB_6_vp_per_space_of_the_rightmost_book_token() -> None:
    s, events = depart_to(
        "B", 6, books=(1, 4, 2, 0), library=tuple((c, True) for c in ("D1-01", "D1-02", "D1-03"))
    )
    assert dict(s.players[0].points) == {"bonus-board": 4}


def test_LUNA_BB_7_scale_rewards_with_optional_inquisitors() -> None:
    s = luna_game(bonus_board_side="B")
    s = dataclasses.replace(s, scale=("SC1-A", "SC4-A", "SC2-A", "SC3-A"))
    s = player(s, 0, grand=(0, 0, 1, 0), university=(4, 0, 0, 0))  # SC1-A top: 3VP + INQ
    s = with_agenda(actions_at(s, S2), Task("PER"))
    s, events = play(s, "bonus 7")
    assert {str(m) for m in legal_moves(s)} == {"@0 inquisitor yes", "@0 inquisitor no"}
    s, events = play(s, "inquisitor no")
    assert s.players[0].cellar == (0, 0, 0, 0) and dict(s.players[0].points)["lecture"] == 3


def test_LUNA_BB_8_three_partial_writings_and_3_vp() -> None:
    s, events = depart_to("B", 8, books=(0, 0, 0, 0))
    s, more = finish_effects(s)
    moved = of_type(events + more, ev.BookTokenMoved)
    assert len(moved) == 3 and dict(s.players[0].points)["bonus-board"] == 3


def test_AMB_20_option_bonus_b8_write_size() -> None:
    s = luna_game(bonus_board_side="B", bonus_b8_write_size=3)
    s = player(s, 0, grand=(0, 0, 1, 0), library=tuple((c, True) for c in ("D1-03", "D1-07", "D1-11")))
    from domain.expansions.luna.rules import bonus_space, bonus_tasks

    tasks = bonus_tasks(s, bonus_space(s, 8))
    assert [(t.kind, t.n) for t in tasks] == [("WRITE", 3)] * 3 + [("VP", 3)]
    default = luna_game(bonus_board_side="B")
    assert [t.n for t in bonus_tasks(default, bonus_space(default, 8)) if t.kind == "WRITE"] == [1, 1, 1]


# -- Scoring tiles ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tile", "changes", "bonus", "basic"),
    [
        ("LUNA-61", {"upgraded": frozenset({"A1", "A2", "A3"})}, 6, 3),
        ("LUNA-62", {"university": (2, 2, 1, 0)}, 5, 2),  # CT-7: sum 5 -> basic 2
        ("LUNA-63", {"cellar": (1, 1, 0, 0)}, 6, 2),  # CT-8: 2 + the new GI -> 2 x 3 = 6
        ("LUNA-64", {"comets": ("sky1", "book", "book") + ("slot",) * 4}, 6, 3),
        ("LUNA-65", {"tokens_used": 3, "tokens_boxed": 3}, 6, 3),
        ("LUNA-66", {"library": (("D1-01", True), ("D1-02", True), ("D1-03", False))}, 4, 2),
        ("LUNA-67", {"books": (2, 3, 4, 5), "library": (("D1-01", True),) * 4}, 8, 4),
        ("LUNA-68", {"cellar": (0, 1, 1, 0)}, 3, 1),  # CT-7: 3 spaces -> basic 1
        ("LUNA-69", {"library": (("D1-01", True), ("D1-02", False), ("D1-03", False))}, 3, 1),
    ],
)
def test_LUNA_61_to_69_scoring_tiles_bonus_and_basic(
    tile: str, changes: dict, bonus: int, basic: int
) -> None:
    s = luna_game()
    s = player(s, 0, **changes)
    s = player(s, 1, **changes)
    points = scoring_points(s, 0, tile)
    assert points[0] == bonus and points[1] == basic and points[2] == 0


def test_DATA_24_option_ninth_tile_duplicates_a_described_tile() -> None:
    s = player(luna_game(ninth_scoring_tile="LUNA-61"), 0, upgraded=frozenset({"A1"}))
    assert scoring_points(s, 0, "LUNA-69")[0] == 2


# -- property runs ----------------------------------------------------------------------------------


@pytest.mark.parametrize("games", runs(100, 300))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_luna_games_end_and_keep_invariants(players: int, games: int) -> None:
    """Complete Luna games (random, then greedy bots) with the base and Luna invariants: 1,020 in
    `make soak` (300 random and 40 greedy per player count), the first 100 and 10 in `make test`."""
    options = Options(luna=True)
    for i in range(games):
        record = selfplay(players, f"luna-prop-{players}-{i}", "random", options)
        assert record.state.finished
        check_all(record.events)
    for i in range(games * 40 // 300):
        record = selfplay(players, f"luna-greedy-{players}-{i}", "greedy", options)
        assert record.state.finished
        check_all(record.events)


def test_luna_events_cover_the_moon() -> None:
    seen: set[str] = set()
    for i in range(40):
        record = selfplay(3, f"luna-cover-{i}", "random", Options(luna=True))
        seen |= {type(e).__name__ for e in record.events}
    for name in (
        "MoonObserved",
        "MoonPhaseAdvanced",
        "ScoringTileScored",
        "GrandInquisitorGained",
        "GrandInquisitorDeparted",
        "BonusBoardRewardTaken",
    ):
        assert name in seen, name


def test_luna_fork_redeals_the_face_down_scoring_tiles() -> None:
    from domain import fold, fork_events

    record = selfplay(3, "luna-fork", "random", Options(luna=True))
    events = list(record.events)
    at = next(i for i, e in enumerate(events) if isinstance(e, ev.TurnEnded)) + 1
    before = fold(events[:at])
    forked = fold(fork_events(events, at, "source", "fork-seed"))
    hidden = [i for i in range(9) if not luna_of(before).visible(i)]
    assert sorted(luna_of(forked).scoring[i] for i in hidden) == sorted(
        luna_of(before).scoring[i] for i in hidden
    )
    assert [luna_of(forked).scoring[i] for i in hidden] != [luna_of(before).scoring[i] for i in hidden]
    assert luna_of(forked).scoring[:3] == luna_of(before).scoring[:3]


def test_LUNA_63_option_new_grand_inquisitor_not_counted() -> None:
    s = player(luna_game(moon_inquisitor_tile_counts_new_grand=False), 0, cellar=(1, 1, 0, 0))
    assert scoring_points(s, 0, "LUNA-63")[0] == 4  # seed-differences §5 reading of CT-8
