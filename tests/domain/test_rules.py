"""One test per rule ID of digest §2-16 where a scenario shows it (beyond the worked examples)."""

from __future__ import annotations

import dataclasses

import pytest

from domain import IllegalMove, legal_moves
from domain import events as ev
from domain.resolve import Run, final_scoring
from domain.state import S1, S2, S3, S4, UPGRADE, Task
from tests.domain.scenario import (
    actions_at,
    finish_effects,
    fresh_turn,
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


def _refused(state, text: str) -> IllegalMove:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalMove) as err:
        play(state, text)
    return err.value


# -- turn structure -------------------------------------------------------------------------------


def test_TURN_1_only_the_seat_to_act_may_command() -> None:
    err = _refused(new_game(), "@1 move 1")
    assert (err.code, err.rule_id) == ("not-your-turn", "TURN-1")


def test_TURN_1_turns_go_round_from_the_first_seat() -> None:
    s = actions_at(new_game(3), S2)
    s, _ = play(s, "end")
    s, _ = finish_effects(s)
    assert s.turn.seat == 1 and s.turn.phase == "movement"


def test_MOV_1_movement_is_mandatory_before_actions() -> None:
    err = _refused(new_game(), "end")
    assert (err.code, err.rule_id) == ("must-move", "MOV-1")


def test_MOV_2_never_stops_on_crossed_out_spaces() -> None:
    for start in range(1, 7):
        s = player(new_game(), 0, telescope=start)
        for n in (1, 2, 3):
            after, _ = play(s, f"move {n}")
            assert after.players[0].telescope >= S1


def test_ACT_3_fixed_and_moving_actions_at_most_once() -> None:
    s = actions_at(player(new_game(), 0, quadrants=9), S3)  # Quadrants keep the turn open
    s, _ = play(s, "fixed spot")
    assert _refused(s, "fixed spot").rule_id == "ACT-3"
    s, _ = play(s, "tile 1")
    s, _ = finish_effects(s)
    assert _refused(s, "tile 2").rule_id == "ACT-3"


def test_ACT_4_slash_space_offers_a_choice_of_one() -> None:
    s = actions_at(new_game(), S2)
    offered = {str(m) for m in legal_moves(s)}
    assert {"@0 fixed die", "@0 fixed lecture"} <= offered
    s, _ = play(s, "fixed lecture")
    s, _ = finish_effects(s)
    assert _refused(s, "fixed die").rule_id == "ACT-3"


def test_SKY_2_each_space_offers_its_fixed_action() -> None:
    wanted = {S1: set(), S2: {"die", "lecture"}, S3: {"spot"}, S4: {"die"}, UPGRADE: {"upgrade"}}
    for space, actions in wanted.items():
        s = actions_at(new_game(), space)
        got = {m.action for m in legal_moves(s) if type(m).__name__ == "TakeFixed"}
        assert got == actions
    s = actions_at(new_game(), S3)
    assert _refused(s, "fixed upgrade").rule_id == "SKY-2"
    s = actions_at(new_game(), S2)
    assert _refused(s, "observe MO:D1-01 R1 c1=0 c2=0").rule_id == "SKY-2"


def test_UPG_2_quadrant_instead_of_a_moving_action_at_U() -> None:
    s = actions_at(new_game(), UPGRADE)
    assert "@0 tile 1" not in {str(m) for m in legal_moves(s)}
    assert _refused(s, "tile 1").rule_id == "UPG-2"
    s, _ = play(s, "tile 0")
    assert s.players[0].quadrants == 1


def test_UPG_4_an_upgraded_tile_cannot_be_upgraded_again() -> None:
    s = new_game()
    tile = s.players[0].queue[0]
    s = with_agenda(actions_at(s, S2), Task("UPG"))
    assert _refused(dataclasses.replace(s), "upgrade ZZ").rule_id == "UPG-1"
    s, _ = play(s, f"upgrade {tile}")
    s = with_agenda(s, Task("UPG"))
    assert _refused(s, f"upgrade {tile}").rule_id == "UPG-4"


def test_UPG_4_with_every_tile_upgraded_upgrade_is_lost() -> None:
    s = new_game()
    s = player(s, 0, upgraded=frozenset(s.players[0].queue))
    s, events = resolve(actions_at(s, UPGRADE), Task("UPG"))
    assert of_type(events, ev.EffectLost)[0].rule == "UPG-4"


def test_ROT_4_no_rotation_when_no_moving_action_was_taken() -> None:
    s = actions_at(new_game(), S2)
    queue = s.players[0].queue
    s, events = play(s, "fixed die")
    s, _ = finish_effects(s)
    s, events = play(s, "end")
    assert not of_type(events, ev.ActionTilesRotated) and s.players[0].queue == queue


def test_ROT_4_option_rotates_the_tile_at_the_telescope() -> None:
    s = actions_at(new_game(rotate_when_moving_action_skipped=True), S2)
    queue = s.players[0].queue
    s, events = play(s, "end")
    assert of_type(events, ev.ActionTilesRotated)[0].tile == queue[S2]


# -- dice -----------------------------------------------------------------------------------------


def test_DIE_3_three_dice_at_value_1() -> None:
    assert new_game().players[0].dice == (("B", 1), ("R", 1), ("Y", 1))


def test_DIE_4_gained_die_enters_at_value_1() -> None:
    s = with_agenda(actions_at(new_game(), S2), Task("DIE"))
    s, events = play(s, "die Y")
    assert of_type(events, ev.DieGained)[0].value == 1 and ("Y", 1) in s.players[0].dice


def test_DIE_7_a_colour_missing_from_the_supply_cannot_be_gained() -> None:
    s = dataclasses.replace(new_game(), supply=(0, 5, 5))
    s = with_agenda(actions_at(s, S2), Task("DIE"))
    assert "@0 die R" not in {str(m) for m in legal_moves(s)}
    assert _refused(s, "die R").rule_id == "DIE-7"


def test_DIE_7_with_no_dice_at_all_the_gain_is_lost() -> None:
    s = dataclasses.replace(new_game(), supply=(0, 0, 0))
    s, events = resolve(actions_at(s, S2), Task("DIE"))
    assert of_type(events, ev.EffectLost)[0].rule == "DIE-7"


def test_DIE_8_spent_dice_return_to_the_supply() -> None:
    s = show(new_game(), 0, "D1-01")
    s = actions_at(player(s, 0, dice=(("R", 2), ("R", 3))), S1)
    before = s.supply
    s, _ = play(s, "observe C:D1-01:0 R2+R3 c1=0 c2=0")
    assert s.supply[0] == before[0] + 2


def test_DIE_10_values_are_capped_at_6() -> None:
    s = player(new_game(), 0, dice=(("R", 5), ("R", 6)))
    s, _ = resolve(actions_at(s, S2), Task("INC", 2, "R"))
    assert s.players[0].dice == (("R", 6), ("R", 6))


def test_DIE_11_change_colour_keeps_the_value() -> None:
    s = player(new_game(), 0, dice=(("R", 4),), quadrants=1)
    s = actions_at(s, S2)
    s, _ = play(s, "free recolour", "recolour R4 B")
    assert s.players[0].dice == (("B", 4),) and s.players[0].quadrants == 0


def test_DIE_6_no_colour_change_to_a_fourth_die_of_a_colour() -> None:
    s = player(new_game(), 0, dice=(("R", 1), ("R", 1), ("R", 1), ("B", 4)), quadrants=1)
    s = with_agenda(actions_at(s, S2), Task("RECOLOUR"))
    assert "@0 recolour B4 R" not in {str(m) for m in legal_moves(s)}
    assert _refused(s, "recolour B4 R").rule_id == "DIE-6"


# -- observe --------------------------------------------------------------------------------------


def _observer(dice: tuple, card: str = "D1-01") -> object:
    s = show(new_game(), 0, card)
    return actions_at(player(s, 0, dice=dice), S1)


def test_OBS_3_a_covered_constellation_cannot_be_observed() -> None:
    s = _observer((("R", 5),))
    covers = list(s.covers)  # type: ignore[attr-defined]
    covers[0] = (1,)
    s = dataclasses.replace(s, covers=tuple(covers))  # type: ignore[type-var]
    assert _refused(s, "observe C:D1-01:0 R5 c1=0 c2=0").rule_id == "OBS-3"


def test_OBS_20_the_total_must_reach_the_cost() -> None:
    err = _refused(_observer((("R", 4),)), "observe C:D1-01:0 R4 c1=0 c2=0")
    assert (err.code, err.rule_id) == ("not-enough", "OBS-20")


def test_OBS_21_constellation_dice_are_of_its_colour() -> None:
    err = _refused(_observer((("R", 4), ("Y", 3))), "observe C:D1-01:0 R4+Y3 c1=0 c2=0")
    assert err.rule_id == "OBS-21"


def test_OBS_22_major_object_needs_both_colours() -> None:
    err = _refused(_observer((("R", 6), ("R", 5))), "observe MO:D1-01 R5+R6 c1=0 c2=0")
    assert (err.code, err.rule_id) == ("missing-colour", "OBS-33")
    err = _refused(_observer((("R", 6), ("B", 5))), "observe MO:D1-01 B5+R6 c1=0 c2=0")
    assert err.rule_id == "OBS-22"


def test_OBS_33_comets_never_replace_a_missing_colour() -> None:
    s = _observer((("R", 6),))
    s = player(s, 0, comets=("sky2", "sky2", "sky2", "slot", "slot", "slot", "slot"))  # type: ignore[arg-type]
    assert not [m for m in legal_moves(s) if str(m).startswith("@0 observe MO:D1-01")]


def test_OBS_31_each_comet_once_per_turn() -> None:
    s = show(show(new_game(), 0, "D1-01"), 1, "D1-03")
    dice = (("R", 4), ("R", 3), ("R", 6))
    s = player(s, 0, dice=dice, comets=("sky1", "slot", "slot", "slot", "slot", "slot", "slot"))
    s = actions_at(s, S1)
    s, _ = play(s, "observe C:D1-01:0 R4 c1=1 c2=0")  # the comet turns into a "2"
    s, _ = finish_effects_until_observe(s)
    assert s.players[0].comets[0] == "sky2" and s.agenda[-1].kind == "OBSERVE"
    err = _refused(s, "observe C:D1-03:0 R3 c1=0 c2=1")  # Orion R4: 3 + 2 would do, but not this turn
    assert err.rule_id == "OBS-31"


def finish_effects_until_observe(s):  # type: ignore[no-untyped-def]
    while s.agenda and s.agenda[-1].kind != "OBSERVE":
        s, _ = play(s, str(legal_moves(s)[0]))
    return s, []


def test_OBS_1_at_most_two_constellations_and_no_major_object_after_one() -> None:
    s = show(show(new_game(), 0, "D1-01"), 1, "D1-03")
    s = actions_at(player(s, 0, dice=(("R", 5), ("R", 4), ("R", 6), ("B", 6))), S1)
    s, _ = play(s, "observe C:D1-01:0 R5 c1=0 c2=0")
    s, _ = finish_effects_until_observe(s)
    assert _refused(s, "observe MO:D1-03 B6+R6 c1=0 c2=0").rule_id == "OBS-1"
    s, _ = play(s, "observe C:D1-03:0 R4 c1=0 c2=0")
    s, _ = finish_effects(s)
    assert s.players[0].tokens_used == 2
    assert not [m for m in legal_moves(s) if type(m).__name__ == "Observe"]


def test_OBS_34_comet_moves_on_after_each_use_and_OBS_30_discounts() -> None:
    s = _observer((("R", 3),))
    s = player(s, 0, comets=("sky2", "slot", "slot", "slot", "slot", "slot", "slot"))  # type: ignore[arg-type]
    s, events = play(s, "observe C:D1-01:0 R3 c1=0 c2=1")
    assert of_type(events, ev.ConstellationObserved)[0].comets == (0,)
    assert s.players[0].comets[0] == "pending"


def test_OBS_52_gain_a_card_face_down() -> None:
    s = new_game()
    top = s.deck[0]
    s, events = resolve(actions_at(s, S2), Task("CARD"))
    assert s.players[0].library == ((top, False),)
    assert s.players[0].major_objects == 0  # LIB-5: light cards never count


def test_OBS_54_no_constellation_without_a_token() -> None:
    s = player(_observer((("R", 5),)), 0, tokens_used=7, tokens_boxed=7)  # type: ignore[arg-type]
    assert _refused(s, "observe C:D1-01:0 R5 c1=0 c2=0").rule_id == "OBS-54"


def test_OBS_2_only_cards_face_up_on_the_board() -> None:
    s = _observer((("R", 5),))
    missing = next(c for c in s.catalog.cards if c not in s.display)  # type: ignore[attr-defined]
    assert _refused(s, f"observe MO:{missing} R5 c1=0 c2=0").rule_id == "OBS-2"


# -- lecture, spot, writing -----------------------------------------------------------------------


def test_LEC_2_a_token_on_the_top_row_cannot_move() -> None:
    s = player(new_game(), 0, university=(4, 0, 0, 0))
    s = with_agenda(actions_at(s, S2), Task("LEC"))
    assert _refused(s, "lecture 1").rule_id == "LEC-2"
    s = player(new_game(), 0, university=(4, 4, 4, 4))
    s, events = resolve(actions_at(s, S2), Task("LEC"))
    assert of_type(events, ev.EffectLost)[0].rule == "LEC-2"


def test_SPOT_1_leftmost_comet_and_SPOT_2_none_left() -> None:
    s = player(new_game(), 0, comets=("sky1", "slot", "slot", "slot", "slot", "slot", "slot"))
    s, events = resolve(actions_at(s, S3), Task("SPOT"))
    assert of_type(events, ev.CometSpotted)[0].comet == 1
    s = player(new_game(), 0, comets=("book",) * 7)
    s, events = resolve(actions_at(s, S3), Task("SPOT"))
    assert of_type(events, ev.EffectLost)[0].rule == "SPOT-2"


def test_WRT_5_a_space_already_passed_never_pays_again() -> None:
    s = player(new_game(), 0, library=(("D1-01", True),), books=(2, 0, 0, 0))
    s = with_agenda(actions_at(s, S2), Task("WRITE", 1))
    s, events = play(s, "write R2")
    assert [e.end for e in of_type(events, ev.BookTokenMoved)] == [1]  # R1's passed spaces untouched


def test_WRT_6_a_token_cannot_pass_the_end() -> None:
    s = player(new_game(), 0, library=(), books=(1, 1, 1, 0))
    s, events = resolve(actions_at(s, S2), Task("WRITE", 3))
    s, more = finish_effects(s)  # the printed R4 space gives a die
    assert s.players[0].books == (1, 1, 1, 1)  # one step possible, two lost
    assert of_type(events + more, ev.EffectLost)[0].rule == "WRT-6"


def test_WRT_2_complete_writing_goes_to_the_end_of_the_row() -> None:
    s = player(new_game(), 0, library=(("D1-03", True), ("D1-07", True)), books=(0, 3, 3, 3))
    s, events = resolve(actions_at(s, S2), Task("WC"))  # only R1 can move: chosen at once
    s, _ = finish_effects(s)
    assert s.players[0].books[0] == 3


def test_AMB_9_complete_writing_with_every_token_at_the_end() -> None:
    s = player(new_game(), 0, library=(), books=(1, 1, 1, 1))
    s, events = resolve(actions_at(s, S2), Task("WC"))
    assert of_type(events, ev.EffectLost)[0].rule == "AMB-9"


# -- free actions ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "cost"),
    [("recolour", 1), ("raise", 1), ("die", 2), ("write", 2), ("persuade", 3), ("spot", 4)],
)
def test_FREE_1_costs(action: str, cost: int) -> None:
    s = actions_at(player(new_game(), 0, quadrants=cost), S2)
    s, events = play(s, f"free {action}")
    assert of_type(events, ev.FreeActionBought)[0].cost == cost
    poor = actions_at(player(new_game(), 0, quadrants=cost - 1), S2)
    err = _refused(poor, f"free {action}")
    assert (err.code, err.rule_id) == ("not-enough-quadrants", "FREE-1")


def test_FREE_3_free_actions_in_cleanup_windows_but_not_before_moving() -> None:
    s = player(new_game(), 0, quadrants=4)
    assert {str(m) for m in legal_moves(s)} == {"@0 move 1", "@0 move 2", "@0 move 3"}  # S004: move first
    assert _refused(s, "free die").rule_id == "MOV-1"
    s = actions_at(s, S2)
    s, _ = play(s, "end")
    assert "@0 free die" in {str(m) for m in legal_moves(s)}  # window before the interrogation
    s, _ = play(s, "done")
    assert "@0 free die" in {str(m) for m in legal_moves(s)}  # window at the end of the turn
    s, _ = play(s, "free spot")  # no Quadrant left: the window closes by itself
    assert s.turn.seat == 1


def test_FREE_3_option_off_free_actions_only_in_the_action_phase() -> None:
    s = player(new_game(free_actions_in_all_phases=False), 0, quadrants=2)
    s = actions_at(s, S2)
    s, _ = play(s, "end")
    assert s.turn.seat == 1  # no Cleanup window


def test_INQ_20_a_persuade_bought_after_the_interrogation_is_interrogated_too() -> None:
    s = player(new_game(), 0, quadrants=4, cellar=(1, 0, 0, 0), reputation=0)
    s = actions_at(s, S2)
    s, events = play(s, "end", "done")  # nothing moved: no interrogation yet
    assert not of_type(events, ev.InterrogationHeld)
    s, events = play(s, "free persuade")  # the end-of-turn window
    held = of_type(events, ev.InterrogationHeld)
    assert held and held[0].total == -1  # C1 -> C2 -> C3


def test_OBJ_2_objectives_met_at_the_start_of_step_4_are_all_claimed() -> None:
    s = new_game()
    s = dataclasses.replace(s, objectives=("OBJ-P1", "OBJ-P2", "OBJ-N3", "OBJ-N5"))
    s = player(
        s,
        0,
        library=(("D1-01", True), ("D1-02", True)),
        tokens_used=2,
        tokens_boxed=2,
        comets=("sky1", "sky2") + ("slot",) * 5,
        cellar=(5, 0, 0, 1),
    )
    s = actions_at(s, S2)
    s, events = play(s, "end")  # no Quadrants: no free-action window
    assert of_type(events, ev.ObjectivesChecked)[0].met == ("OBJ-P1", "OBJ-N3")
    s, events = play(s, "farewell yes", "die R")  # the Farewell leaves 5 Inquisitors...
    s, more = finish_effects(s)
    claimed = [e.objective for e in of_type(events + more, ev.ObjectiveAchieved)]
    assert "OBJ-N3" in claimed  # ...but OBJ-N3 was met when step 4 began


def test_FREE_3_a_persuade_bought_in_cleanup_is_interrogated() -> None:
    s = player(new_game(), 0, quadrants=4, cellar=(1, 0, 0, 0))
    s = actions_at(s, S2)
    s, _ = play(s, "end", "free persuade")  # one Quadrant left keeps the window open
    s, events = play(s, "done")
    assert of_type(events, ev.InterrogationHeld)


# -- book of comets --------------------------------------------------------------------------------


def test_BOC_4_appendix_only_when_no_page_is_empty() -> None:
    s = new_game(3)
    s = player(s, 0, comets=("pending",) + ("slot",) * 6)
    s = turn(s, phase="cleanup")
    assert _refused(s, "page appendix").rule_id == "BOC-4"
    s = dataclasses.replace(s, pages=(1,) * len(s.pages))
    s, events = resolve(s)  # the Appendix is the only place left: taken at once
    assert s.players[0].appendix == 1 and of_type(events, ev.VictoryPointsScored)[0].source == "book"


def test_BOC_9_purple_pages_only_with_3_or_4_players() -> None:
    s = turn(player(new_game(2), 0, comets=("pending",) + ("slot",) * 6), phase="cleanup")
    assert not [m for m in legal_moves(s) if "purple" in str(m)]
    assert _refused(s, "page purple-1").rule_id == "BOC-9"
    s3 = turn(player(new_game(3), 0, comets=("pending",) + ("slot",) * 6), phase="cleanup")
    assert [m for m in legal_moves(s3) if "purple" in str(m)]


def test_BOC_3_a_filled_page_stays_filled() -> None:
    s = turn(player(new_game(3), 0, comets=("pending",) + ("slot",) * 6), phase="cleanup")
    s = dataclasses.replace(s, pages=(1,) + s.pages[1:])
    assert _refused(s, "page blue-1").rule_id == "BOC-3"


# -- inquisition ----------------------------------------------------------------------------------


def test_INQ_10_persuade_moves_one_space_right() -> None:
    s = player(new_game(), 0, cellar=(1, 1, 0, 0))
    s = with_agenda(actions_at(s, S2), Task("PER"))
    assert _refused(s, "persuade C4").rule_id == "INQ-10"
    s, _ = play(s, "persuade C2")
    assert s.players[0].cellar == (1, 0, 1, 0)


def test_INQ_16_farewell_void_without_an_inquisitor_on_the_rightmost_space() -> None:
    s = player(new_game(), 0, cellar=(2, 0, 0, 0))
    s, events = resolve(actions_at(s, S2), Task("FW"))
    assert of_type(events, ev.EffectLost)[0].rule == "INQ-16"


def test_INQ_15_farewell_returns_an_inquisitor_and_gives_a_die_and_a_quadrant() -> None:
    s = player(new_game(), 0, cellar=(0, 0, 0, 2))
    s = with_agenda(actions_at(s, S2), Task("FW"))
    s, _ = play(s, "farewell yes", "die R")
    assert s.players[0].cellar == (0, 0, 0, 1) and s.players[0].quadrants == 1 and len(s.players[0].dice) == 4


def test_INQ_20_interrogation_only_if_an_inquisitor_moved() -> None:
    s = player(new_game(), 0, cellar=(1, 0, 0, 0))
    s, events = resolve(actions_at(s, S2), Task("INQ"))
    s, events = play(s, "end")
    assert not of_type(events, ev.InterrogationHeld)  # gained, not moved (DER-28)


def test_INQ_24_overflow_applies_once_per_interrogation() -> None:
    s = player(new_game(), 0, cellar=(3, 0, 0, 0), reputation=-8)
    s = turn(actions_at(s, S2), inquisitor_moved=True)
    s, events = play(s, "end")
    held = of_type(events, ev.InterrogationHeld)[0]
    assert (held.total, held.end, held.overflow) == (-9, -8, -2)
    assert [e.points for e in of_type(events, ev.VictoryPointsScored)] == [-2]


def test_AMB_7_option_overflow_only_when_starting_at_the_end() -> None:
    s = player(new_game(reputation_overflow_partial=False), 0, cellar=(1, 0, 0, 0), reputation=-7)
    s = turn(actions_at(s, S2), inquisitor_moved=True)
    s, events = play(s, "end")
    held = of_type(events, ev.InterrogationHeld)[0]
    assert (held.end, held.overflow) == (-8, 0)


# -- objectives -----------------------------------------------------------------------------------


def test_OBJ_4_each_objective_once_per_player() -> None:
    s = new_game()
    objective = s.objectives[0]
    claims = list(s.claims)
    claims[0] = (0,)
    s = dataclasses.replace(s, claims=tuple(claims))
    s = player(
        s,
        0,
        achievements=(objective,),
        university=(4, 4, 0, 0),
        library=tuple((c, True) for c in ("D1-01", "D1-02")),
        tokens_used=2,
        tokens_boxed=2,
        comets=("sky1", "sky1") + ("slot",) * 5,
    )
    s = turn(s, phase="cleanup")
    run = Run(s)
    from domain.resolve import advance

    advance(run)
    assert objective not in [e.objective for e in of_type(run.events, ev.ObjectiveAchieved)]


def test_OBJ_2_objectives_are_claimed_in_cleanup_not_during_actions() -> None:
    s = player(new_game(), 0, university=(4, 3, 0, 0))
    assert "OBJ-P2" in s.objectives
    s = with_agenda(actions_at(s, S2), Task("LEC"))
    s, events = play(s, "lecture 2")
    s, more = finish_effects(s)
    assert not of_type(events + more, ev.ObjectiveAchieved)
    s, events = play(s, "end")
    assert "OBJ-P2" in [e.objective for e in of_type(events, ev.ObjectiveAchieved)]


# -- end of game and scoring -----------------------------------------------------------------------


def test_END_1_AMB_10_a_face_down_draw_that_empties_the_deck_triggers_the_end() -> None:
    s = dataclasses.replace(new_game(), deck=new_game().deck[:1])
    s, events = resolve(actions_at(s, S2), Task("CARD"))
    assert of_type(events, ev.EndOfGameTriggered)[0].rule == "AMB-10"


def test_AMB_10_option_off_the_next_refill_triggers_instead() -> None:
    base = new_game(end_trigger_on_face_down_draw=False)
    s = dataclasses.replace(base, deck=base.deck[:1])
    s, events = resolve(actions_at(s, S2), Task("CARD"))
    assert not of_type(events, ev.EndOfGameTriggered) and s.deck == ()
    s, events = resolve(s, Task("REFILL", 0))
    assert of_type(events, ev.CardDealt)[0].from_reserve and of_type(events, ev.EndOfGameTriggered)


def test_END_4_after_the_deck_cards_come_from_the_tier_III_reserve() -> None:
    base = new_game()
    s = dataclasses.replace(base, deck=(), last_turn=10)
    reserve_top = s.reserve[0]
    s, events = resolve(actions_at(s, S2), Task("REFILL", 2))
    dealt = of_type(events, ev.CardDealt)[0]
    assert (dealt.card, dealt.from_reserve, dealt.rule) == (reserve_top, True, "END-4")
    s = dataclasses.replace(s, reserve=())
    s, events = resolve(s, Task("REFILL", 3))
    assert of_type(events, ev.EffectLost)[0].rule == "END-4"


def test_SCO_1_final_scoring_order_university_cellar_reputation() -> None:
    s = player(
        new_game(2), 0, university=(1, 1, 1, 1), library=(("D1-01", True),), cellar=(1, 0, 0, 0), reputation=2
    )
    s = turn(s, phase="scoring")
    run = Run(s)
    final_scoring(run)
    sources = [e.source for e in of_type(run.events, ev.VictoryPointsScored) if e.seat == 0]
    assert sources == sorted(sources, key=["university", "cellar", "reputation"].index)
    assert "cellar" in sources and "reputation" in sources
    assert types(run.events)[-1] == "GameEnded"


def test_SCO_5_scores_can_be_negative() -> None:
    s = player(new_game(2), 0, cellar=(3, 0, 0, 0), reputation=-8)
    s = turn(s, phase="scoring")
    run = Run(s)
    final_scoring(run)
    assert run.state.players[0].score < 0
    assert run.state.finished


def test_GameEnded_reveals_the_committed_deal() -> None:
    from domain.setup import commitment_of

    s = turn(new_game(2), phase="scoring")
    run = Run(s)
    final_scoring(run)
    end = of_type(run.events, ev.GameEnded)[0]
    assert commitment_of(end.salt, end.deck, end.box, end.reserve) == s.commitment


def test_S4_offers_observe_or_gain_a_die() -> None:
    s = show(new_game(), 0, "D1-01")
    s = actions_at(player(s, 0, dice=(("R", 5),)), S4)
    kinds = {type(m).__name__ for m in legal_moves(s)}
    assert {"Observe", "TakeFixed"} <= kinds


def test_S2_lecture_and_fresh_turns_reset_the_actions() -> None:
    s = fresh_turn(actions_at(new_game(), S2), 0, "actions")
    assert not s.turn.fixed_done and not s.turn.moving_done
