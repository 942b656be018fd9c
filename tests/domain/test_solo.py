"""The solo game against Tycho Brahe (issue 13; rules addendum "The solo game", CN p.16-18; digest §19):
his setup, turn, every condition and effect with its tie-breaks, his interrogation, objectives without the
Farewell, the end, the hidden Movement stack, Luna's additions and property runs."""

from __future__ import annotations

from typing import Any

import pytest

from domain import commands as c
from domain import events as ev
from domain.engine import decide, legal_moves, settle, start, to_act
from domain.errors import IllegalMove
from domain.events import redact_event
from domain.expansions.luna.state import seat_of
from domain.expansions.solo import events as se
from domain.expansions.solo.data import DIFFICULTIES, solo_data
from domain.expansions.solo.rules import (
    choose_row,
    condition_holds,
    dice_to_pay,
    lecture_tile,
    stack_commitment,
)
from domain.expansions.solo.state import TychoState
from domain.options import Options
from domain.resolve import Run, auto_task
from domain.scoring import SUBJECTS
from domain.serialize import dump_state, load_state, public_state
from domain.setup import SeatSpec, Setup
from domain.state import GameState, Task, TurnState, replace
from tests.domain.invariants import check_all
from tests.runs import runs


def solo_setup(seed: str = "solo", luna: bool = False, difficulty: str | None = None) -> Setup:
    return Setup(
        seats=(SeatSpec("Ada", "galileo"),), seed=seed, options=Options(luna=luna), difficulty=difficulty
    )


def solo(
    seed: str = "solo", luna: bool = False, difficulty: str | None = None
) -> tuple[GameState, list[ev.Event]]:
    return start(solo_setup(seed, luna, difficulty))


def part(s: GameState) -> TychoState:
    found = s.players[1].part(TychoState)
    assert found is not None
    return found


def with_tycho(
    s: GameState, phase: str = "actions", agenda: tuple[Task, ...] = (), **changes: Any
) -> GameState:
    """`s` at Tycho's turn (seat 1) in `phase`, his seat changed by `changes` (`marker`/`stack` go to his
    part)."""
    p = s.players[1]
    own = {k: changes.pop(k) for k in ("marker", "stack") if k in changes}
    if own:
        parts = tuple(replace(x, **own) if isinstance(x, TychoState) else x for x in p.parts)
        changes["parts"] = parts
    p = replace(p, **changes)
    return replace(s, players=(s.players[0], p), turn=TurnState(seat=1, number=1, phase=phase), agenda=agenda)


def resolve(s: GameState, task: Task) -> tuple[GameState, list[ev.Event]]:
    """Resolve one of Tycho's effects (and nothing after it)."""
    run = Run(replace(s, agenda=(*s.agenda, task)))
    auto_task(run, task)
    return run.state, run.events


def only(events: list[ev.Event], cls: type[ev.Event]) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


# -- setup -----


def test_SOLO_20_to_25_setup_deck_board_dice_tiles_and_stack() -> None:
    s, events = solo()
    assert isinstance(events[0], ev.GameStarted) and isinstance(events[1], se.OpponentDealt)
    assert [p.character for p in s.players] == ["galileo", "tycho"] and s.players[1].name == "Tycho Brahe"
    assert len(s.deck) + 6 == sum(s.catalog.deck_composition[2]) == 18  # SOLO-20: the 2-player deck 9/5/4
    tycho = s.players[1]
    assert len(tycho.dice) == 3 and all(v == 1 for _, v in tycho.dice)  # SOLO-22
    assert sorted(tycho.queue) == sorted(solo_data().base_tiles) and not tycho.upgraded  # SOLO-23: basic up
    assert part(s).marker == 0  # SOLO-23: under the leftmost
    assert len(part(s).stack) == 60 and sorted(part(s).stack[:6]) == sorted(solo_data().base_stack)  # SOLO-24
    assert (
        tycho.comets == ("slot",) * 7
        and tycho.tokens_used == 0
        and tycho.reputation == s.players[0].reputation
    )
    assert s.turn.seat == 0 and to_act(s) == 0  # SOLO-27: the person first


def test_SOLO_2_difficulty_is_lunas_and_names_the_stack() -> None:
    with pytest.raises(IllegalMove) as refused:
        solo(difficulty="hard")
    assert refused.value.rule_id == "SOLO-2"
    with pytest.raises(IllegalMove) as refused:
        solo(luna=True, difficulty="impossible")
    assert refused.value.rule_id == "SOLO-2"
    for level in DIFFICULTIES:
        s, events = solo(luna=True, difficulty=level)
        dealt = events[1]
        assert isinstance(dealt, se.OpponentDealt) and dealt.difficulty == level
        assert sorted(part(s).stack[:6]) == sorted(solo_data().difficulty[level])
        assert sorted(s.players[1].queue) == sorted((*solo_data().base_tiles, "TYM"))  # SOLO-3
    assert (
        isinstance(solo(luna=True)[1][1], se.OpponentDealt)
        and part(solo(luna=True)[0]).difficulty == "normal"
    )


# -- the turn -----


def _first_tycho_turn(seed: str = "solo") -> list[ev.Event]:
    s, _ = solo(seed)
    while s.turn.seat == 0:
        moves = legal_moves(s)
        end = [m for m in moves if isinstance(m, c.EndActions | c.EndFreeActions)]
        events = decide(s, end[0] if end else moves[0])
        from domain.evolve import fold

        s = fold(events, s)
        if any(isinstance(e, se.MovementTileRevealed) for e in events):
            return events
    raise AssertionError("Tycho never played")


def test_SOLO_27_28_his_turn_follows_the_persons_and_each_step_is_an_event_with_its_rule() -> None:
    events = _first_tycho_turn()
    i = next(i for i, e in enumerate(events) if isinstance(e, se.MovementTileRevealed))
    theirs = events[i:]
    assert all(e.seat == 1 for e in theirs if e.seat is not None)
    assert isinstance(theirs[-1], ev.TurnEnded) and theirs[-1].seat == 1
    assert any(isinstance(e, se.TychoRowChosen) for e in theirs)
    for e in theirs:
        rule = getattr(e, "rule", None)
        assert rule is None or isinstance(rule, str)


def test_SOLO_27_nobody_decides_for_tycho() -> None:
    s, _ = solo()
    s = with_tycho(s, phase="movement")
    assert legal_moves(s) == [] and to_act(s) is None
    with pytest.raises(IllegalMove) as refused:
        decide(s, c.Move(seat=1, steps=1))
    assert refused.value.code == "opponent-turn" and refused.value.rule_id == "SOLO-27"
    with pytest.raises(IllegalMove) as refused:
        decide(s, c.Move(seat=0, steps=1))
    assert refused.value.rule_id == "TURN-1"


def test_SOLO_29_move_N_wraps_from_the_rightmost_to_the_leftmost() -> None:
    s, _ = solo()
    s = with_tycho(s, phase="actions", marker=3)
    _, events = resolve(s, Task("TMOVE", 3, "", "SOLO-29"))
    assert only(events, se.TychoMoved)[0].end == 1 and only(events, se.TychoMoved)[0].steps == 3  # SOLO-7


def test_SOLO_30_move_N_stops_early_at_an_upgraded_tile() -> None:
    s, _ = solo()
    line = s.players[1].queue
    s = with_tycho(s, marker=0, upgraded=frozenset({line[2]}))
    _, events = resolve(s, Task("TMOVE", 4, "upgraded", "SOLO-30"))
    moved = only(events, se.TychoMoved)[0]
    assert (moved.end, moved.steps, moved.stopped, moved.rule) == (2, 2, True, "SOLO-30")


def test_SOLO_31_upgrade_the_tile_under_the_marker_or_the_nearest_basic_one_to_its_right() -> None:
    s, _ = solo()
    line = s.players[1].queue
    _, events = resolve(with_tycho(s, marker=1), Task("TUPG"))
    assert only(events, se.TychoTileUpgraded)[0].tile == line[1]
    _, events = resolve(with_tycho(s, marker=4, upgraded=frozenset({line[4]})), Task("TUPG"))
    assert only(events, se.TychoTileUpgraded)[0].tile == line[0]  # AMB-55: past the rightmost, the leftmost
    _, events = resolve(with_tycho(s, marker=0, upgraded=frozenset(line)), Task("TUPG"))
    assert only(events, ev.EffectLost)[0].rule == "SOLO-31"


def test_SOLO_6_luna_tile_4_stops_at_the_moon_tile() -> None:
    s, _ = solo(luna=True, difficulty="normal")
    moon = s.players[1].queue.index("TYM")
    start_at = (moon - 2) % 6
    _, events = resolve(with_tycho(s, marker=start_at), Task("TMOVE", 4, "moon", "SOLO-6"))
    moved = only(events, se.TychoMoved)[0]
    assert moved.end == moon and moved.steps == 2 and moved.rule == "SOLO-6"


def test_SOLO_5_bonuses_first_then_the_move() -> None:
    data = solo_data()
    assert data.movement["L3"] == ("die", "move-to-upgraded:3")
    s, _ = solo(luna=True, difficulty="flaming")
    s = with_tycho(s, phase="movement", stack=("L3", *part(s).stack))
    s, events = settle(s)
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("TychoDieGained") < kinds.index("TychoMoved") < kinds.index("TychoRowChosen")


# -- conditions (SOLO-32..38) -------------------------------------------------------------------------------


def test_SOLO_34_two_unpersuaded_inquisitors() -> None:
    s, _ = solo()
    assert condition_holds(s, with_tycho(s, cellar=(1, 1, 0, 0)).players[1], "unpersuaded2")
    assert not condition_holds(s, with_tycho(s, cellar=(1, 0, 0, 3)).players[1], "unpersuaded2")  # AMB-53


def test_SOLO_35_three_fully_persuaded_inquisitors() -> None:
    s, _ = solo()
    assert condition_holds(s, with_tycho(s, cellar=(0, 0, 0, 3)).players[1], "persuaded3")
    assert not condition_holds(s, with_tycho(s, cellar=(0, 0, 1, 2)).players[1], "persuaded3")


def test_SOLO_36_pay_two_or_three_dice() -> None:
    s, _ = solo()
    two = with_tycho(s, dice=(("B", 1), ("R", 1))).players[1]
    assert condition_holds(s, two, "pay2") and not condition_holds(s, two, "pay3")


def test_SOLO_37_pay_two_dice_and_two_observable_constellations() -> None:
    s, _ = solo()
    p = s.players[1]
    assert condition_holds(s, p, "pay2-constellations")
    covered = tuple(tuple(1 for _ in row) for row in s.covers)
    assert not condition_holds(replace(s, covers=covered), p, "pay2-constellations")


def test_SOLO_38_a_comet_still_on_his_board() -> None:
    s, _ = solo()
    assert condition_holds(s, s.players[1], "comet")
    assert not condition_holds(s, with_tycho(s, comets=("sky1",) * 7).players[1], "comet")


def test_SOLO_32_only_the_first_row_whose_condition_holds() -> None:
    s, _ = solo()
    # TY1 basic: pay 3 -> Major Object; a comet on his board -> place it; else a die
    t = with_tycho(s, dice=(("B", 1), ("R", 1), ("Y", 1)))
    assert choose_row(t, t.players[1], "TY1") == (0, ())
    t = with_tycho(s, dice=(("B", 1),))
    assert choose_row(t, t.players[1], "TY1") == (1, ())
    t = with_tycho(s, dice=(("B", 1),), comets=("sky1",) * 7)
    assert choose_row(t, t.players[1], "TY1") == (2, ())


def test_the_rulebooks_example_turn_SOLO_33_partial_condition_adds_to_the_bottom_row() -> None:
    """CN p.17: no comet on his board -> skip the top row; bottom row: Book marker one space, persuade so as
    to lose least at the next interrogation, Lecture on the subject he meets most; the partial condition
    "3 fully persuaded Inquisitors" adds "remove one of them and gain 10 VP"."""
    s, _ = solo()
    line = s.players[1].queue
    marker = line.index("TY3")
    t = with_tycho(
        s,
        phase="actions",
        marker=marker,
        comets=("sky1",) * 7,
        cellar=(1, 0, 0, 3),
        library=((s.deck[0], False),),  # a card: his Book marker may move one space
    )
    t = replace(t, deck=t.deck[1:])
    after, events = settle(t)
    row = only(events, se.TychoRowChosen)[0]
    assert (row.tile, row.row, row.partials, row.rule) == ("TY3", 2, (1,), "SOLO-33")
    kinds = [type(e).__name__ for e in events]
    assert kinds[:6] == [
        "TychoRowChosen",
        "TychoBookMoved",
        "InquisitorPersuaded",
        "TychoLectured",
        "TychoInquisitorRemoved",
        "VictoryPointsScored",
    ]
    assert only(events, ev.VictoryPointsScored)[0].points == 10
    assert only(events, se.TychoBookMoved)[0].end == 1
    persuaded = only(events, ev.InquisitorPersuaded)[0]
    assert (persuaded.start, persuaded.end) == (0, 1)
    assert "InterrogationHeld" in kinds  # SOLO-51: he moved an Inquisitor this turn
    assert after.players[1].cellar == (0, 1, 0, 2)


# -- effects (SOLO-40..50) ----------------------------------------------------------------------------------


def test_SOLO_40_place_a_comet_the_leftmost_on_his_board() -> None:
    s, _ = solo()
    after, events = resolve(with_tycho(s, comets=("sky1", "slot", *("slot",) * 5)), Task("TCOMET"))
    assert only(events, se.TychoCometPlaced)[0].comet == 1 and after.players[1].comets[1] == "sky1"
    _, events = resolve(with_tycho(s, comets=("sky1",) * 7), Task("TCOMET"))
    assert only(events, ev.EffectLost)[0].rule == "SOLO-40"


def test_SOLO_41_move_a_comet_down_a_2_into_the_book_first_never_rewarded() -> None:
    s, _ = solo()
    t = with_tycho(s, comets=("sky1", "sky2", *("slot",) * 5))
    after, events = resolve(t, Task("TDOWN"))
    moved = only(events, se.TychoCometMoved)[0]
    page = next(p.id for p in s.catalog.book_pages if p.min_players <= 2)
    assert (moved.comet, moved.end, moved.page) == (1, "book", page)  # AMB-53: the leftmost 2-player page
    assert after.players[1].score == 0 and after.agenda == ()  # never rewarded
    after, events = resolve(with_tycho(s, comets=("sky1", *("slot",) * 6)), Task("TDOWN"))
    assert only(events, se.TychoCometMoved)[0].end == "sky2"
    full = replace(s, pages=(1,) * len(s.pages))
    after, events = resolve(with_tycho(full, comets=("sky2", *("slot",) * 6)), Task("TDOWN"))
    assert only(events, se.TychoCometMoved)[0].page == "appendix" and after.players[1].appendix == 1


def test_SOLO_42_gain_a_die_of_the_colour_the_supply_holds_most() -> None:
    s, _ = solo()
    t = replace(with_tycho(s, dice=(("B", 1),)), supply=(2, 5, 5))  # R 2, Y 5, B 5
    after, events = resolve(t, Task("TDIE"))
    assert only(events, se.TychoDieGained)[0].colour == "Y"  # AMB-55: ties R, Y, B
    four = with_tycho(s, dice=(("B", 1), ("B", 1), ("R", 1), ("Y", 1)))
    _, events = resolve(four, Task("TDIE"))
    assert only(events, ev.EffectLost)[0].rule == "DIE-2"


def test_SOLO_36_he_pays_from_the_colour_he_holds_most() -> None:
    s, _ = solo()
    p = with_tycho(s, dice=(("B", 1), ("R", 1), ("R", 1), ("Y", 1))).players[1]
    assert dice_to_pay(p, 2) == (("R", 1), ("R", 1))  # AMB-55: R (two held), then the tie R, Y, B: R again
    assert dice_to_pay(p, 3) == (("R", 1), ("R", 1), ("Y", 1))
    assert len(dice_to_pay(p, 3)) == 3


def test_SOLO_43_AMB_56_rules_0_3_0_book_marker_up_to_one_space_past_his_cards() -> None:
    s, _ = solo()
    s = replace(s, engine_version="0.3.0")  # the track as released: one space past his last card
    cards = tuple((card, False) for card in s.deck[:2])
    after, events = resolve(with_tycho(s, library=cards), Task("TBOOK", 5))
    moved = only(events, se.TychoBookMoved)[0]
    assert (moved.start, moved.end) == (0, 3) and after.players[1].books == (3, 3, 3, 3)  # AMB-56
    _, events = resolve(with_tycho(s), Task("TBOOK", 1))
    assert only(events, se.TychoBookMoved)[0].end == 1
    _, events = resolve(with_tycho(s, books=(1, 1, 1, 1)), Task("TBOOK", 1))
    assert only(events, ev.EffectLost)[0].rule == "SOLO-43"


def test_SOLO_43_AMB_56_his_book_marker_runs_on_his_own_library_board() -> None:
    """CN p.16: "Place Tycho's special library board on the player board so that it covers all four
    library areas"; CN p.17: "Move Tycho's Book marker right the number of steps shown. Tycho never gains
    rewards from his library." The track is his board's, whatever cards his library holds (AMB-56)."""
    from domain.expansions.solo.rules import BOOK_END

    s, _ = solo()
    after, events = resolve(with_tycho(s), Task("TBOOK", 3))  # no card in his library
    moved = only(events, se.TychoBookMoved)[0]
    assert (moved.start, moved.end) == (0, 3) and after.players[1].books == (3, 3, 3, 3)
    assert not [e for e in events if isinstance(e, ev.VictoryPointsScored)]  # never rewarded
    _, events = resolve(with_tycho(s, books=(BOOK_END - 1,) * 4), Task("TBOOK", 3))
    assert only(events, se.TychoBookMoved)[0].end == BOOK_END  # the board's last space; the rest lost
    _, events = resolve(with_tycho(s, books=(BOOK_END,) * 4), Task("TBOOK", 1))
    assert only(events, ev.EffectLost)[0].rule == "SOLO-43"


def _tycho_before_the_moon(engine_version: str) -> GameState:
    """Tycho with two ordinary Inquisitors and no Grand Inquisitor, every observable Moon tile holding the
    Scoring tile "Inquisitors in your cellar" (LUNA-63)."""
    from domain.expansions.luna.state import luna, with_luna

    s, _ = solo("moon-inq", luna=True, difficulty="normal")
    s = replace(s, engine_version=engine_version)
    s = with_luna(s, replace(luna(s), scoring=tuple("LUNA-63" if t else "" for t in luna(s).scoring)))
    return with_tycho(s, cellar=(2, 0, 0, 0))


def test_LUNA_63_SOLO_11_tycho_counts_only_his_own_inquisitors() -> None:
    """S000 Scoring tiles: "2 VP for each Inquisitor figure in your cellar. This includes the Grand
    Inquisitor gained from observing the Moon"; S000 Solo: "He never places Grand Inquisitors in his
    cellar!" Two ordinary Inquisitors, no Grand one: 2 x 2 = 4 VP, not 6."""
    from domain.expansions.luna.events import ScoringTileScored

    s = _tycho_before_the_moon("0.4.0")
    after, _ = resolve(s, Task("TMOON"))
    scoring = next(t for t in reversed(after.agenda) if t.kind == "SCORING")
    run = Run(replace(after, agenda=(scoring,)))
    auto_task(run, scoring)
    scored = only(run.events, ScoringTileScored)[0]
    assert (
        scored.tile == "LUNA-63" and scored.points[1] == 4 and seat_of(after.players[1]).grand == (0, 0, 0, 0)
    )


@pytest.mark.parametrize(("engine_version", "chosen"), [("0.4.0", "LUNA-62"), ("0.3.0", "LUNA-63")])
def test_SOLO_9_LUNA_63_his_choice_of_moon_tile_counts_no_grand_inquisitor(
    engine_version: str, chosen: str
) -> None:
    """SOLO-9: the Moon tile whose Scoring tile gives him most. Two Inquisitors (LUNA-63: 4 VP, 6 under
    the released overcount) against University spaces 5 (LUNA-62: 5 VP)."""
    from domain.expansions.luna.rules import observable_moon_tiles
    from domain.expansions.luna.state import luna, with_luna
    from domain.expansions.solo.moon import moon_choice

    s = _tycho_before_the_moon(engine_version)
    first, *_ = observable_moon_tiles(s)
    scoring = list(luna(s).scoring)
    scoring[first] = "LUNA-62"
    s = with_tycho(
        with_luna(s, replace(luna(s), scoring=tuple(scoring))), cellar=(2, 0, 0, 0), university=(2, 2, 1, 0)
    )
    index = moon_choice(s, 1)
    assert index is not None and luna(s).scoring[index] == chosen


def test_LUNA_63_rules_0_3_0_tycho_counted_a_grand_inquisitor_as_released() -> None:
    from domain.expansions.luna.events import ScoringTileScored

    s = _tycho_before_the_moon("0.3.0")
    after, _ = resolve(s, Task("TMOON"))
    scoring = next(t for t in reversed(after.agenda) if t.kind == "SCORING")
    run = Run(replace(after, agenda=(scoring,)))
    auto_task(run, scoring)
    assert only(run.events, ScoringTileScored)[0].points[1] == 6


def test_SOLO_44_lecture_on_the_subject_he_meets_most_ties_leftmost() -> None:
    s, _ = solo()
    p = s.players[1]
    counts = [SUBJECTS[subject](s, p) for subject in s.subjects]
    assert lecture_tile(s, p) == counts.index(max(counts))
    t = with_tycho(s, upgraded=frozenset(p.queue[:3]))  # SUBJ-A4 (upgraded tiles) now counts 3
    if "SUBJ-A4" in s.subjects:
        assert lecture_tile(t, t.players[1]) == s.subjects.index("SUBJ-A4")
    top = with_tycho(s, university=(4, 4, 4, 4))
    _, events = resolve(top, Task("TLEC"))
    assert only(events, ev.EffectLost)[0].rule == "SOLO-44"
    after, events = resolve(with_tycho(s), Task("TLEC"))
    lectured = only(events, se.TychoLectured)[0]
    assert lectured.height == 1 and after.players[1].score == 0  # the row's reward is never taken


def test_SOLO_45_persuade_to_lose_least_at_the_next_interrogation() -> None:
    s, _ = solo()
    # C1 -> C2 changes the arch value by arch[1] - arch[0]; C3 -> C4 by arch[3] - arch[2]: he takes the better
    arch = s.catalog.cellar_arch
    t = with_tycho(s, cellar=(1, 0, 1, 0))
    _, events = resolve(t, Task("TPER"))
    moved = only(events, ev.InquisitorPersuaded)[0]
    best = 0 if arch[1] - arch[0] >= arch[3] - arch[2] else 2
    assert moved.start == best
    _, events = resolve(with_tycho(s, cellar=(0, 0, 0, 2)), Task("TPER"))
    assert only(events, ev.EffectLost)[0].rule == "SOLO-45"


def test_SOLO_46_remove_a_fully_persuaded_inquisitor() -> None:
    s, _ = solo()
    after, events = resolve(with_tycho(s, cellar=(0, 0, 0, 2)), Task("TREMOVE"))
    assert only(events, se.TychoInquisitorRemoved) and after.players[1].cellar == (0, 0, 0, 1)
    _, events = resolve(with_tycho(s), Task("TREMOVE"))
    assert only(events, ev.EffectLost)[0].rule == "SOLO-46"


def test_SOLO_47_victory_points() -> None:
    s, _ = solo()
    after, events = resolve(with_tycho(s), Task("VP", 3, "", "tycho"))
    scored = only(events, ev.VictoryPointsScored)[0]
    assert (scored.points, scored.rule) == (3, "SOLO-47") and after.players[1].score == 3


def test_SOLO_48_constellation_worth_most_ties_leftmost_only_its_vp() -> None:
    s, _ = solo()
    from domain.expansions.solo.rules import observable_constellations

    found = observable_constellations(s)
    best = max(found, key=lambda f: (f[0], -f[1], -f[2]))
    after, events = resolve(with_tycho(s), Task("TCONST"))
    seen = only(events, se.TychoConstellationObserved)[0]
    assert (seen.vp, seen.space, seen.index, seen.slot) == best + (0,) or (
        seen.vp,
        seen.space,
        seen.index,
    ) == best
    assert after.covers[seen.space][seen.index] == 1 and after.players[1].tokens_used == 1
    assert [t.kind for t in after.agenda] == (["VP"] if seen.vp else [])  # only its VP, no other reward


def test_SOLO_49_major_object_worth_most_only_its_vp_and_the_board_refills() -> None:
    s, _ = solo()
    vps = [s.catalog.cards[card].major.vp for card in s.display if card]
    after, events = resolve(with_tycho(s), Task("TMO"))
    taken = only(events, se.TychoMajorObjectTaken)[0]
    assert taken.vp == max(vps) and taken.space == vps.index(max(vps))  # ties: the leftmost
    assert [t.kind for t in reversed(after.agenda)] == ["VP", "REFILL"]
    assert after.players[1].library == ((taken.card, True),)


def test_SOLO_50_top_card_of_the_deck_light_side_up() -> None:
    s, _ = solo()
    top = s.deck[0]
    after, events = resolve(with_tycho(s), Task("TCARD"))
    assert only(events, ev.CardDrawnFaceDown)[0].card == top and after.players[1].library == ((top, False),)


# -- interrogation, objectives, the end -----


def test_SOLO_51_interrogated_only_after_a_turn_in_which_he_moved_an_inquisitor() -> None:
    s, _ = solo()
    # TY5 basic: two unpersuaded -> persuade twice
    marker = s.players[1].queue.index("TY5")
    _, events = settle(with_tycho(s, marker=marker, cellar=(2, 0, 0, 0)))
    assert only(events, ev.InterrogationHeld) and only(events, ev.InterrogationHeld)[0].seat == 1
    _, events = settle(with_tycho(s, marker=marker, cellar=(1, 0, 0, 0)))
    assert not only(events, ev.InterrogationHeld)


def test_SOLO_53_he_claims_objectives_but_never_the_farewell() -> None:
    s, _ = solo()
    objective = s.objectives[0]
    from domain.scoring import OBJECTIVES

    # make him meet every objective that a full cellar's last space and many comets, tokens and tiles meet
    t = with_tycho(
        s,
        phase="cleanup",
        comets=("book",) * 5 + ("slot",) * 2,
        cellar=(0, 0, 0, 6),
        upgraded=frozenset(s.players[1].queue),
        university=(4, 4, 4, 4),
    )
    t = replace(t, pages=tuple(1 if i < 5 else -1 for i in range(len(t.pages))))
    met = [o for o in t.objectives if OBJECTIVES[o](t, t.players[1])]
    assert met, objective
    after, events = settle(t)
    achieved = only(events, ev.ObjectiveAchieved)
    assert achieved and all(e.seat == 1 for e in achieved)
    assert only(events, ev.FarewellDeclined) and not only(events, ev.FarewellTaken)
    assert after.players[1].cellar[-1] == 6


def test_SOLO_54_the_end_last_card_drawn_finish_the_round_then_one_more() -> None:
    from domain.bots import make_bot
    from domain.selfplay import play_game

    record = play_game(solo_setup("end"), [make_bot("greedy", "end"), make_bot("greedy", "unused")])
    trigger = next(e for e in record.events if isinstance(e, ev.EndOfGameTriggered))
    assert trigger.last_turn == (trigger.turn // 2 + 2) * 2 - 1
    ended = [e for e in record.events if isinstance(e, ev.TurnEnded)]
    assert ended[-1].turn == trigger.last_turn and ended[-1].seat == 1
    assert isinstance(record.events[-1], ev.GameEnded)


# -- the hidden Movement stack -----


def test_SOLO_24_the_movement_stack_is_committed_redacted_and_revealed_at_the_end() -> None:
    s, events = solo("hidden")
    dealt = events[1]
    assert isinstance(dealt, se.OpponentDealt)
    assert dealt.commitment == stack_commitment(s.salt, dealt.stack)
    public = redact_event(dealt, viewer=0)
    assert "stack" not in public and "stack" in public["redacted"]
    view = public_state(s, viewer=0)
    tycho = view["players"][1]["tycho"]
    assert "stack" not in tycho and "dealt" not in tycho and tycho["stack_size"] == 60
    text = str(view)
    assert ",".join(dealt.stack[:6]) not in text
    assert load_state(dump_state(s)) == s
    from domain.bots import make_bot
    from domain.selfplay import play_game

    record = play_game(solo_setup("hidden"), [make_bot("greedy", "h"), make_bot("greedy", "unused")])
    revealed = [e for e in record.events if isinstance(e, se.MovementStackRevealed)]
    assert len(revealed) == 1 and revealed[0].stack == dealt.stack
    shown = [e.tile for e in record.events if isinstance(e, se.MovementTileRevealed)]
    assert tuple(shown) == dealt.stack[: len(shown)]


def test_SOLO_24_a_fork_re_deals_the_unseen_movement_tiles() -> None:
    from domain.bots import make_bot
    from domain.fork import fork_events
    from domain.selfplay import play_game

    record = play_game(solo_setup("fork"), [make_bot("greedy", "f"), make_bot("greedy", "unused")])
    events = list(record.events)
    at = next(i for i, e in enumerate(events) if isinstance(e, se.MovementTileRevealed)) + 20
    shown = [e.tile for e in events[:at] if isinstance(e, se.MovementTileRevealed)]
    forked = fork_events(events, at, "source", "new-seed", "new-salt")
    dealt = forked[1]
    original = events[1]
    assert isinstance(dealt, se.OpponentDealt) and isinstance(original, se.OpponentDealt)
    assert dealt.stack[: len(shown)] == tuple(shown)
    assert dealt.stack != original.stack and sorted(dealt.stack) == sorted(original.stack)
    assert dealt.commitment == stack_commitment("new-salt", dealt.stack)
    check_all(forked)


# -- whole games -----


def test_determinism_same_seed_same_solo_game() -> None:
    from domain.bots import make_bot
    from domain.selfplay import play_game

    a = play_game(solo_setup("det", True, "hard"), [make_bot("greedy", "d"), make_bot("greedy", "x")])
    b = play_game(solo_setup("det", True, "hard"), [make_bot("greedy", "d"), make_bot("greedy", "x")])
    assert a.events == b.events


def test_SOLO_10_11_12_tycho_observes_the_moon() -> None:
    from domain.expansions.luna.state import luna
    from domain.expansions.solo.moon import TychoMoonObserved, moon_choice

    s, _ = solo("moon", luna=True, difficulty="normal")
    index = moon_choice(s, 1)
    assert index is not None
    after, events = resolve(with_tycho(s), Task("TMOON"))
    seen = only(events, TychoMoonObserved)[0]
    assert seen.bonus_space == 1  # SOLO-11, AMB-43: the leftmost open space, no reward
    assert luna(after).bonus[0] == (1,) and seat_of(after.players[1]).grand == (0, 0, 0, 0)
    kinds = [t.kind for t in reversed(after.agenda)]
    assert "SCORING" in kinds  # SOLO-10
    assert kinds[-4:] == ["TDOWN", "TCARD", "VP", "TBOOK"]  # SOLO-12, AMB-44
    assert all(k not in kinds for k in ("INQ", "GRAND", "CARD", "Q"))  # only the VP of the Moon's reward


# -- property runs (issue 13): `make soak` 1,000 solo games per level, `make test` a fixed sample ----------

LEVELS = [None, *DIFFICULTIES]  # the base game (no levels), then Luna's four (SOLO-2)


@pytest.mark.parametrize("games", runs(3, 1000))
@pytest.mark.parametrize("level", LEVELS)
def test_solo_games_end_and_keep_invariants(level: str | None, games: int) -> None:
    from domain.events import GameEnded, VictoryPointsScored
    from domain.selfplay import selfplay

    for i in range(games):
        bot = "greedy" if i % 4 == 0 else "random"
        record = selfplay(1, f"solo-prop-{level}-{i}", bot, Options(luna=level is not None), difficulty=level)
        assert record.state.finished and isinstance(record.events[-1], GameEnded)
        final = check_all(record.events)  # the invariants after every event (tests/domain/invariants.py)
        scored = {p.seat: 0 for p in final.players}
        for e in record.events:
            if isinstance(e, VictoryPointsScored):
                scored[e.seat] += e.points
        assert scored == {p.seat: p.score for p in final.players}
        assert [type(e) for e in record.events[:2]] == [ev.GameStarted, se.OpponentDealt]
        turns = [e for e in record.events if isinstance(e, ev.TurnEnded)]
        assert [e.seat for e in turns] == [i % 2 for i in range(len(turns))]  # SOLO-27: alternating
        revealed = [e for e in record.events if isinstance(e, se.MovementTileRevealed)]
        assert len(revealed) == sum(1 for e in turns if e.seat == 1)  # one Movement tile per turn (SOLO-28)
        assert not any(isinstance(e, ev.FarewellTaken) and e.seat == 1 for e in record.events)  # SOLO-53
        assert all(e.seat == 0 for e in record.events if isinstance(e, ev.TelescopeMoved))
        assert seat_of(final.players[1]).grand == (0, 0, 0, 0)  # SOLO-11


def test_SOLO_26_the_person_plays_the_ability_side() -> None:
    for character in ("galileo", "kepler", "copernicus", "bruno"):
        s, events = start(Setup(seats=(SeatSpec("Ada", character),), seed="side"))
        started = events[0]
        assert isinstance(started, ev.GameStarted) and started.sides == ("ability", "basic")
    basic = Setup(seats=(SeatSpec("Ada", "kepler", side="basic"),), seed="side")
    _, events = start(basic)  # CN p.16: "always use the side that lists its special ability"
    assert isinstance(events[0], ev.GameStarted) and events[0].sides == ("ability", "basic")
    old = Setup(seats=(SeatSpec("Ada", "newton"),), seed="side", catalog_edition="base-3")
    with pytest.raises(IllegalMove) as refused:  # edition base-3 has no ability side for Newton
        start(old)
    assert (refused.value.code, refused.value.rule_id) == ("no-ability-side", "SOLO-26")


def test_SOLO_26_rules_0_3_0_a_character_without_its_ability_side_played_basic() -> None:
    old = Setup(
        seats=(SeatSpec("Ada", "newton"),), seed="side", catalog_edition="base-3", engine_version="0.3.0"
    )
    _, events = start(old)  # as released: edition base-3 has no ability side for Newton, the basic side
    assert isinstance(events[0], ev.GameStarted) and events[0].sides is None


@pytest.mark.parametrize("difficulty", [None, "hard"])
def test_SOLO_24_a_re_dealt_start_expects_his_deal_as_the_fork_re_dealt_it(difficulty: str | None) -> None:
    """What verification expects after a re-dealt GameStarted (domain/setup.py `redealt_start`): his
    deal as recorded by the fork, and not a stack holding other tiles than his setup deals."""
    from domain.bots import make_bot
    from domain.fork import fork_events
    from domain.selfplay import play_game
    from domain.setup import redealt_start

    setup = solo_setup("redealt", luna=difficulty is not None, difficulty=difficulty)
    record = play_game(setup, [make_bot("random", "r"), make_bot("random", "unused")])
    events = list(record.events)
    at = next(i for i, e in enumerate(events) if isinstance(e, se.MovementTileRevealed)) + 30
    forked = fork_events(events, at, "source", "seed-r", "salt-r")
    dealt = forked[1]
    assert isinstance(dealt, se.OpponentDealt) and dealt != events[1]
    fork_setup = replace(setup, seed="seed-r", salt="salt-r")
    assert redealt_start(fork_setup, forked[1:]) == [dealt]
    other = list(dealt.stack)
    other[-1] = next(t for t in sorted(set(other)) if t != other[-1])  # a tile too many of one kind
    forged = replace(dealt, stack=tuple(other), commitment=stack_commitment("salt-r", tuple(other)))
    (expected,) = redealt_start(fork_setup, [forged, *forked[2:]])
    assert isinstance(expected, se.OpponentDealt) and expected.stack != forged.stack
    assert sorted(expected.stack) == sorted(dealt.stack) and expected.dice == dealt.dice
