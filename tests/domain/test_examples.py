"""The worked examples (EX-n) and constructed tests (CT-n) of digest §20 that concern the base game.

EX-16 (Galileo's ability), EX-17..27 and CT-7..9, CT-15 concern the advanced characters, Luna or the
solo mode and are tested with those features.
"""

from __future__ import annotations

import pytest

from domain import IllegalMove, evolve, legal_moves
from domain import events as ev
from domain.moves import payments
from domain.resolve import Run, advance
from domain.scoring import cellar_points, interrogation, reputation_points, university_points, winners
from domain.state import S1, S2, S3, S4, START, UPGRADE, Task
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


def test_EX_1_deck_setup_three_players() -> None:
    s = new_game(3)
    tiers = [s.catalog.cards[c].tier for c in s.deck]
    assert len(s.display) == 6 and all(s.catalog.cards[c].tier == 1 for c in s.display if c)
    assert len(s.deck) == 15
    assert tiers == [1] * 4 + [2] * 6 + [3] * 5  # Tier I on top, Tier III at the bottom (SET-4)
    assert len(s.reserve) == 10 - 5  # END-4: the Tier III cards left in the box


@pytest.mark.parametrize(
    ("start", "steps", "end", "wrapped"),
    [(START, 1, S1, False), (START, 3, S3, False), (S4, 3, S2, True), (UPGRADE, 1, S1, True)],
)
def test_EX_2_movement_and_wrap(start: int, steps: int, end: int, wrapped: bool) -> None:
    s = player(new_game(), 0, telescope=start)
    s, events = play(s, f"move {steps}")
    moved = of_type(events, ev.TelescopeMoved)[0]
    assert (moved.end, moved.wrapped) == (end, wrapped)
    assert s.players[0].telescope == end


@pytest.mark.parametrize("steps", [0, 4, -1])
def test_EX_2_moves_of_0_or_4_are_illegal(steps: int) -> None:
    with pytest.raises(IllegalMove) as err:
        play(new_game(), f"move {steps}")
    assert err.value.rule_id == "MOV-1"


def test_EX_3_upgrade_then_use_the_upgraded_tile() -> None:
    s = actions_at(new_game(), UPGRADE)
    tile = s.players[0].queue[S3]
    s, events = play(s, "fixed upgrade", f"upgrade {tile}", "tile 0", "end")
    assert tile in s.players[0].upgraded
    assert s.players[0].quadrants == 1  # UPG-2
    assert not of_type(events, ev.ActionTilesRotated)  # ROT-3
    s = fresh_turn(s, 0)
    s, _ = play(s, "move 3")
    assert s.players[0].telescope == S3 and s.players[0].queue[S3] == tile
    s, events = play(s, "tile 1")
    assert of_type(events, ev.MovingActionTaken)[0].upgraded


def _blue_tile_game() -> tuple:
    s = new_game()
    queue = list(s.players[0].queue)
    queue.remove("A2")
    queue.insert(S2, "A2")  # the "all blue +1 | one die +2" tile on S2
    s = player(s, 0, queue=tuple(queue), dice=(("B", 1), ("B", 1), ("B", 2), ("R", 3)))
    return actions_at(s, S2)


def test_EX_4_increase_icons_all_blue() -> None:
    s, _ = play(_blue_tile_game(), "tile 1")
    assert s.players[0].dice == (("B", 2), ("B", 2), ("B", 3), ("R", 3))


@pytest.mark.parametrize(("die", "after"), [("R3", ("R", 5)), ("B1", ("B", 3))])
def test_EX_4_increase_icons_one_die(die: str, after: tuple) -> None:
    s, _ = play(_blue_tile_game(), "tile 2", f"raise {die}")
    assert after in s.players[0].dice


def _moon_game() -> tuple:
    s = show(new_game(), 0, "D1-01")
    s = player(s, 0, dice=(("R", 4), ("Y", 4)))
    return actions_at(s, S1)


def test_EX_5_observing_the_moon_major_object() -> None:
    s = _moon_game()
    s = player(s, 1, tokens_used=1)
    covers = list(s.covers)
    covers[0] = (1,)  # seat 1's token on Ursa Minor goes to the box (OBS-42)
    import dataclasses

    s = dataclasses.replace(s, covers=tuple(covers))
    top = s.deck[0]
    s, events = play(s, "observe MO:D1-01 R4+Y4 c1=0 c2=0")
    # OBS-40, OBS-41, OBS-43: VP, then the Inquisitor, then the refill
    assert types(events)[:4] == [
        "MajorObjectObserved",
        "VictoryPointsScored",
        "InquisitorGained",
        "CardDealt",
    ]
    assert s.players[0].score == 7 and s.players[0].cellar[0] == 1
    assert s.players[0].library == (("D1-01", True),)
    assert s.players[0].dice == ()
    assert s.supply == (s.catalog.dice_per_colour - 3 + 1,) * 2 + (s.catalog.dice_per_colour - 3,)
    assert s.display[0] == top and s.players[1].tokens_boxed == 1


def test_EX_6_observing_a_constellation_ursa_minor() -> None:
    s = show(new_game(), 0, "D1-01")
    s = actions_at(player(s, 0, dice=(("R", 1), ("R", 1), ("R", 3))), S1)
    s, events = play(s, "observe C:D1-01:0 R1+R1+R3 c1=0 c2=0")
    assert s.covers[0] == (0,)
    assert s.players[0].score == 3 and s.players[0].quadrants == 1
    # the slot reward under the leftmost token is a Lecture, resolved at once (a decision: which tile)
    assert {type(m).__name__ for m in legal_moves(s)} == {"Lecture"}
    s, events = play(s, "lecture 1")
    assert of_type(events, ev.LectureGiven)[0].height == 1


def test_EX_7_lecture_gives_the_row_reward() -> None:
    import dataclasses

    s = dataclasses.replace(new_game(), scale=("SC1-B", "SC2-A", "SC3-A", "SC4-A"))
    s = actions_at(s, S2)
    s, _events = play(s, "fixed lecture", "lecture 1")
    assert s.players[0].university[0] == 1 and s.players[0].quadrants == 1


def test_EX_8_comet_life_cycle() -> None:
    s = actions_at(new_game(), S3)
    s, _ = play(s, "fixed spot")
    assert s.players[0].comets[0] == "sky1"
    # Turn B: dice one short, the "1" comet pays the difference, then moves below the cards as a "2".
    s = show(s, 0, "D1-01")
    s = actions_at(fresh_turn(player(s, 0, dice=(("R", 3), ("R", 1)))), S1)
    s, _ = play(s, "observe C:D1-01:0 R1+R3 c1=1 c2=0")
    assert s.players[0].comets[0] == "sky2"
    # Later turn: used for -2, it goes to the Book (pending) and is placed in Cleanup.
    s = show(s, 1, "D1-03")
    s = actions_at(fresh_turn(player(s, 0, dice=(("R", 2),))), S1)
    s, _ = play(s, "observe C:D1-03:0 R2 c1=0 c2=1")
    assert s.players[0].comets[0] == "pending"
    s, _ = finish_effects(s)
    s, _events = play(s, "end")
    assert {type(m).__name__ for m in legal_moves(s)} == {"PlaceComet"}


def test_EX_9_book_of_comets_in_cleanup() -> None:
    s = new_game()
    s = player(s, 0, comets=("pending", "pending", "slot", "slot", "slot", "slot", "slot"), dice=(("B", 1),))
    s = turn(s, phase="cleanup")
    s, _ = play(s, "page blue-6", "page blue-3")
    assert s.players[0].quadrants == 1
    assert {type(m).__name__ for m in legal_moves(s)} == {"GainDie"}
    s, _events = play(s, "die R")
    assert ("R", 1) in s.players[0].dice
    assert s.players[0].comets[:2] == ("book", "book")


def test_EX_10_complete_writing_resolves_each_space_in_order() -> None:
    s = new_game()
    library = (("D3-03", True), ("D1-05", True), ("D1-01", True), ("D1-12", True), ("D1-03", True))
    s = player(s, 0, library=library, cellar=(1, 1, 0, 0), dice=(("Y", 1), ("R", 1)))
    s = with_agenda(actions_at(s, S2), Task("WC"))
    s, events = play(s, "complete R3")
    assert [e.end for e in of_type(events, ev.BookTokenMoved)] == [1]  # stops at the first decision
    s, more = play(s, "persuade C1")  # (1) Persuade one Inquisitor (C1 or C2: a choice)
    events += more  # (4) the second Persuade has one option (C2 -> C3) and is taken at once
    s, more = play(s, "lecture 2")  # (5) Lecture, resolved fully
    events += more
    s, more = finish_effects(s)  # the Scale row's reward, then the last (blank) space
    events += more
    wanted = [
        "CompleteWritingStarted",
        "BookTokenMoved",
        "InquisitorPersuaded",  # (1)
        "BookTokenMoved",
        "VictoryPointsScored",  # (2)
        "BookTokenMoved",
        "DiceRaised",  # (3) all yellow dice +1
        "BookTokenMoved",
        "InquisitorPersuaded",  # (4)
        "BookTokenMoved",
        "LectureGiven",  # (5)
    ]
    assert types(events)[: len(wanted)] == wanted
    assert s.players[0].books[2] == 6  # the blank last space (p = 6)
    assert s.players[0].cellar == (0, 1, 1, 0) and ("Y", 2) in s.players[0].dice


def test_EX_11_objective_first_and_later_claimants() -> None:
    s = new_game()
    assert "OBJ-P1" in s.objectives
    meets = {
        "library": (("D1-01", True), ("D1-02", True)),
        "tokens_used": 2,
        "tokens_boxed": 2,
        "comets": ("sky1", "sky2", "slot", "slot", "slot", "slot", "slot"),
    }
    for seat in (0, 1, 2):
        s = player(s, seat, **meets)
    results = []
    for seat in (0, 1, 2):
        s = turn(s, seat=seat, phase="cleanup")
        run = Run(s)
        advance(run)
        s = run.state
        got = of_type(run.events, ev.ObjectiveAchieved)
        assert got[0].objective == "OBJ-P1"
        results.append((got[0].first, of_type(run.events, ev.VictoryPointsScored)[0].points))
    assert results == [(True, 7), (False, 3), (False, 3)]
    assert s.claims[s.objectives.index("OBJ-P1")] == (0, 1, 2)


def test_EX_11_farewell_offered_with_each_claim() -> None:
    s = new_game()
    s = player(
        s,
        0,
        library=(("D1-01", True), ("D1-02", True)),
        tokens_used=2,
        tokens_boxed=2,
        comets=("sky1", "sky2", "slot", "slot", "slot", "slot", "slot"),
        cellar=(0, 0, 0, 1),
    )
    s = turn(s, phase="cleanup")
    run = Run(s)
    advance(run)
    assert set(map(str, legal_moves(run.state))) == {"@0 farewell yes", "@0 farewell no"}


def test_EX_12_subject_scoring_with_a_4x_tile() -> None:
    import dataclasses

    s = dataclasses.replace(
        new_game(), scale=("SC2-A",) * 4, subjects=("SUBJ-A1", "SUBJ-A4", "SUBJ-A5", "SUBJ-A6")
    )
    mos = tuple((c, True) for c in ("D1-01", "D1-02", "D1-03", "D1-04", "D1-05", "D1-06"))
    s = player(s, 0, university=(4, 0, 0, 0), library=mos[:4])
    s = player(s, 1, university=(2, 0, 0, 0), library=mos)
    assert university_points(s, s.players[0])[0] == ("SUBJ-A1", 16)
    assert university_points(s, s.players[1])[0] == ("SUBJ-A1", 12)


def test_EX_13_interrogation_with_persuaded_inquisitors() -> None:
    s = player(new_game(), 0, cellar=(0, 1, 0, 2), reputation=-3)
    s = with_agenda(actions_at(s, S2), Task("INQ"), Task("PER"), Task("PER"))
    s, events = play(s, "persuade C1", "end")  # the second Persuade has one option (C2 -> C3)
    held = of_type(events, ev.InterrogationHeld)
    assert held and held[0].total == -1 and held[0].end == -4  # -2 -1 +1 +1 = -1


def test_EX_14_end_game_cellar_scoring() -> None:
    s = player(new_game(), 0, cellar=(1, 0, 1, 3))  # bottom values -4 (C1) and -2 (C3)
    assert cellar_points(s, s.players[0]) == 3 - 2 - 4


def test_EX_15_end_game_university_and_reputation() -> None:
    import dataclasses

    s = dataclasses.replace(
        new_game(), scale=("SC2-A",) * 4, subjects=("SUBJ-A1", "SUBJ-A5", "SUBJ-A6", "SUBJ-A2")
    )
    s = player(
        s,
        0,
        university=(3, 1, 0, 2),
        library=tuple((c, True) for c in ("D1-01", "D1-02", "D1-03", "D1-04", "D1-05")),
        comets=("sky1", "sky2", "book", "pending", "slot", "slot", "slot"),
        books=(4, 5, 6, 6),
        reputation=3,
    )
    p = s.players[0]
    assert [vp for _, vp in university_points(s, p)] == [15, 4, 0, 8]
    assert sum(vp for _, vp in university_points(s, p)) == 27
    assert reputation_points(s, p) == 3


def test_EX_28_mandatory_and_impossible_writing_rewards() -> None:
    s = new_game()
    library = (("D1-02", True), ("D1-03", True))  # row R4: p2 "red +1" (D1-02), p3 "3VP+INQ" (D1-03)
    assert s.catalog.cards["D1-02"].front[3] == ("INC:R",)
    assert s.catalog.cards["D1-03"].front[3] == ("3VP", "INQ")
    s = player(s, 0, library=library, books=(3, 3, 3, 1), dice=(("B", 1), ("Y", 1)))
    # Only the R4 token can move: both steps have a single option and are taken at once.
    s, events = resolve(actions_at(s, S2), Task("WRITE", 2, "", "test"))
    lost = of_type(events, ev.EffectLost)
    assert lost and lost[0].effect == "INC:R" and lost[0].rule == "RES-4"  # no red die: lost
    assert of_type(events, ev.InquisitorGained)  # the Inquisitor must be taken
    assert s.players[0].cellar[0] == 1 and s.players[0].books[3] == 3


def test_EX_29_a_reward_that_is_an_action_is_resolved_first() -> None:
    s = player(new_game(), 0, quadrants=5)
    s = with_agenda(actions_at(s, S2), Task("LEC", 1, "", "library"))
    with pytest.raises(IllegalMove) as err:
        play(s, "free die")
    assert err.value.code == "pending-decision" and err.value.rule_id == "RES-1"
    s, _ = play(s, "lecture 1")
    s, _ = finish_effects(s)
    q = s.players[0].quadrants
    s, _ = play(s, "free die")
    assert s.players[0].quadrants == q - 2


def test_CT_1_comet_necessity() -> None:
    one = payments((("R", 1), ("Y", 2)), ("R", "Y"), 5, 1, 2)
    combos = {(n1, n2) for spent, n1, n2 in one if spent == (("R", 1), ("Y", 2))}
    assert (0, 1) in combos  # {2}: 3 + 2 = 5
    assert (0, 2) not in combos  # {2,2}: dropping one still gives 5
    assert (1, 1) not in combos  # {2,1}: dropping the 1 still gives 5
    assert (1, 0) not in combos  # {1}: 4 < 5
    two = payments((("R", 1), ("Y", 1)), ("R", "Y"), 5, 1, 2)
    assert (1, 1) in {(n1, n2) for spent, n1, n2 in two if spent == (("R", 1), ("Y", 1))}


@pytest.mark.parametrize(
    ("start", "steps", "end", "wrapped"), [(S3, 3, S1, True), (UPGRADE, 2, S2, True), (S4, 1, UPGRADE, False)]
)
def test_CT_2_movement_cycle_and_wrap(start: int, steps: int, end: int, wrapped: bool) -> None:
    test_EX_2_movement_and_wrap(start, steps, end, wrapped)


@pytest.mark.parametrize(("space", "after"), [(S2, "DABCEF"), (S4, "FABCDE"), (S1, "CABDEF")])
def test_CT_3_rotation(space: int, after: str) -> None:
    s = new_game()
    ids = s.players[0].queue
    letters = dict(zip("ABCDEF", ids, strict=True))
    s = actions_at(s, space)
    s, _ = play(s, "tile 1")
    while legal_moves(s) and s.turn.phase == "actions" and s.agenda:
        s, _ = play(s, str(legal_moves(s)[0]))
    s, _events = play(s, "end")
    assert s.players[0].queue == tuple(letters[x] for x in after)


def test_CT_3_no_rotation_after_an_upgrade_turn() -> None:
    s = actions_at(new_game(), UPGRADE)
    queue = s.players[0].queue
    s, _ = play(s, "tile 0", "end")
    assert s.players[0].queue == queue


@pytest.mark.parametrize(
    ("start", "total", "end", "vp"), [(-7, -3, -8, -2), (-8, -1, -8, -2), (8, 4, 8, 2), (6, 2, 8, 0)]
)
def test_CT_4_reputation_ends(start: int, total: int, end: int, vp: int) -> None:
    # arch values C1 -3, C2 -2, C3 -1, C4 +1: build the wanted total from Inquisitors
    cellar = {-3: (1, 0, 0, 0), -1: (0, 0, 1, 0), 4: (0, 0, 0, 4), 2: (0, 0, 0, 2)}[total]
    s = player(new_game(), 0, cellar=cellar, reputation=start)
    got_total, got_end, overflow = interrogation(s, s.players[0])
    assert (got_total, got_end, overflow) == (total, end, vp)


def test_CT_5_partial_writing_split_up_to_n_with_the_option() -> None:
    s = new_game(partial_writing_exact=False)
    s = player(s, 0, library=(("D1-01", True),))
    s = with_agenda(actions_at(s, S2), Task("WRITE", 3, "", "test"))
    s, events = play(s, "write R1")
    assert of_type(events, ev.FixedActionTaken) == [] and s.agenda[-1].kind == "LEC"  # Lecture at once
    s, events = play(s, "lecture 1", "write R2", "stopwriting")
    assert s.players[0].books[:2] == (1, 1) and s.players[0].quadrants >= 1


def test_CT_5_partial_writing_exact_is_the_default() -> None:
    s = player(new_game(), 0, library=(("D1-01", True),))
    s = with_agenda(actions_at(s, S2), Task("WRITE", 3, "", "test"))
    assert "StopWriting" not in {type(m).__name__ for m in legal_moves(s)}
    with pytest.raises(IllegalMove) as err:
        play(s, "stopwriting")
    assert err.value.rule_id == "AMB-8"


@pytest.mark.parametrize("cellar", [(0, 0, 0, 2), (0, 0, 0, 0)])
def test_CT_6_no_interrogation_when_nothing_moved(cellar: tuple) -> None:
    s = player(new_game(), 0, cellar=cellar)
    s, events = resolve(actions_at(s, S2), Task("PER"))
    assert of_type(events, ev.EffectLost)[0].rule == "INQ-11"
    s, events = play(s, "end")
    assert not of_type(events, ev.InterrogationHeld)


def test_CT_10_tie_break() -> None:
    s = new_game(2)
    s = player(s, 0, score=60, dice=(("R", 3), ("Y", 4)), quadrants=2)
    s = player(s, 1, score=60, dice=(("B", 1), ("B", 1), ("R", 5)), quadrants=3)
    assert winners(s) == (1,)
    s = player(s, 1, quadrants=2)
    assert winners(s) == (0, 1)  # shared victory


@pytest.mark.parametrize(("books", "met"), [((3, 3, 4, 5), True), ((2, 9, 9, 9), False)])
def test_CT_11_objective_N2(books: tuple, met: bool) -> None:
    from domain.scoring import OBJECTIVES

    s = player(new_game(), 0, books=books)
    assert OBJECTIVES["OBJ-N2"](s, s.players[0]) is met


def test_CT_12_end_game_timing() -> None:
    s = new_game(3)
    s = turn(s, seat=1, number=1, phase="actions")
    s = player(s, 1, telescope=S1)
    import dataclasses

    s = dataclasses.replace(s, deck=s.deck[-1:])
    s, events = resolve(s, Task("REFILL", 0))
    trig = of_type(events, ev.EndOfGameTriggered)[0]
    assert (trig.turn, trig.last_turn) == (1, 5)  # P3 ends the round, then P1, P2, P3 play once more
    seats = []
    from domain.bots import make_bot

    bot = make_bot("random", "ct12")
    while not s.finished:
        if s.turn.phase == "movement" and (not seats or seats[-1] != s.turn.number):
            seats.append(s.turn.number)
        move = bot.choose(s, legal_moves(s))
        from domain import play_through

        s, _ = play_through(s, move)
    assert seats == [2, 3, 4, 5] and s.turn.number == 5


def test_CT_13_dice_limits() -> None:
    s = player(new_game(), 0, dice=(("B", 1), ("R", 1), ("R", 1), ("R", 1)))
    s = with_agenda(actions_at(s, S2), Task("DIE"))
    moves = {str(m) for m in legal_moves(s)}
    assert not any(m.startswith("@0 die R") and "swap R" not in m for m in moves)  # never a 4th red
    assert "@0 die Y swap R1" in moves and "@0 die B swap R1" in moves and "@0 nodie" in moves
    assert "@0 die Y" not in moves  # 4 dice held: only an exchange
    with pytest.raises(IllegalMove) as err:
        play(s, "die Y")
    assert err.value.rule_id == "DIE-5"


def test_CT_14_farewell_is_optional_inquisitor_is_not() -> None:
    s = player(new_game(), 0, cellar=(0, 0, 0, 1))
    s = with_agenda(actions_at(s, S2), Task("FW"), Task("INQ"))
    assert {str(m) for m in legal_moves(s)} == {"@0 farewell yes", "@0 farewell no"}
    s, events = play(s, "farewell no")
    assert types(events)[:2] == ["FarewellDeclined", "InquisitorGained"]
    assert s.players[0].cellar == (1, 0, 0, 1)


def test_evolve_replays_the_example_events() -> None:
    s0 = _moon_game()
    s1, events = play(s0, "observe MO:D1-01 R4+Y4 c1=0 c2=0")
    s = s0
    for e in events:
        s = evolve(s, e)
    assert s == s1
