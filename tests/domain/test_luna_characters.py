"""The Luna characters' ability sides in the engine (digest §17.5-17.8): scenarios per rule, events with
their rule IDs, points by source, hidden information (Cunitz' Notes)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from domain import Options, SeatSpec, Setup, fold, fork_events, legal_moves, public_state, start
from domain.characters.cunitz import FocusDeferred, NoteRevealed, RoundTokenMoved, SquareTokenMoved, urania_of
from domain.characters.newton import MirrorShifted, ShiftMirror
from domain.characters.sophia import SunRewardsGained, Venus, VenusMoved
from domain.events import (
    GameEnded,
    GameForked,
    GameStarted,
    InquisitorPersuaded,
    QuadrantsGained,
    VictoryPointsScored,
    event_to_dict,
    redact_event,
)
from domain.selfplay import play_game
from domain.state import S1, S4, UPGRADE, GameState, PlayerState, Task, put_part
from tests.domain.scenario import actions_at, finish_effects, of_type, play, player, resolve, show

EDITION = "base-4"


def ability_game(*seats: tuple[str, str], seed: str = "luna-chars", **options: Any) -> GameState:
    specs = tuple(SeatSpec(f"P{i + 1}", ch, side=side) for i, (ch, side) in enumerate(seats))
    setup = Setup(seats=specs, seed=seed, first_seat=0, options=Options(**options), catalog_edition=EDITION)
    state, _ = start(setup)
    return state


def with_part(s: GameState, seat: int, part: Any) -> GameState:
    p: PlayerState = s.players[seat]
    return player(s, seat, parts=put_part(p.parts, part))


# -- Sophia Brahe ---------------------------------------------------------------------------------------

SOPHIA = (("sophia", "ability"), ("galileo", "basic"))


def test_CHAR_SOP_1_venus_starts_over_the_sun() -> None:
    s = ability_game(*SOPHIA)
    assert s.players[0].part(Venus) == Venus(position=0)
    assert s.players[1].part(Venus) is None  # a basic-side seat has no Sun


def test_CHAR_SOP_2_DER_26_DER_30_each_wrap_moves_venus_and_the_last_returns_to_the_first() -> None:
    s = ability_game(*SOPHIA)
    positions = []
    for _ in range(4):
        s = replace(player(s, 0, telescope=UPGRADE), turn=replace(s.turn, seat=0, phase="movement"))
        s, events = play(s, "move 1")  # U -> S1
        moved = of_type(events, VenusMoved)
        assert len(moved) == 1 and moved[0].rule == "CHAR-SOP-2"
        positions.append(s.players[0].part(Venus).position)  # type: ignore[union-attr]
    assert positions == [1, 2, 3, 0]  # DER-30
    s = replace(player(s, 0, telescope=S1), turn=replace(s.turn, seat=0, phase="movement"))
    _, events = play(s, "move 1")  # no wrap, no Venus
    assert not of_type(events, VenusMoved)


def _observe_constellation(s: GameState) -> tuple[GameState, list[Any]]:
    s = show(show(show(s, 0, "D1-01"), 1, "D1-03"), 2, "D1-07")
    s = actions_at(player(s, 0, dice=(("R", 5), ("R", 4), ("R", 5), ("B", 1))), S1)
    s, events = play(s, "observe C:D1-01:0 R5 c1=0 c2=0")
    s, more = finish_effects(s)
    return s, events + more


def test_CHAR_SOP_3_AMB_39_the_sun_pays_once_after_the_observe() -> None:
    s, events = _observe_constellation(ability_game(*SOPHIA))
    sun = of_type(events, SunRewardsGained)
    assert len(sun) == 1 and sun[0].rule == "CHAR-SOP-3" and sun[0].spaces == (2, 3)  # Venus covers 1-2
    names = [type(e).__name__ for e in events]
    # after the whole Observe: its second observation (OBS-1) and both rewards came first (CHAR-SOP-3)
    assert names.count("ConstellationObserved") == 2
    assert names.index("SunRewardsGained") > max(
        i for i, n in enumerate(names) if n == "ConstellationObserved"
    )
    assert [g[0] for g in sun[0].grants or ()] == ["RAISE", "PER"]  # DATA-22: S3 1D+1, S4 PER


def test_CHAR_SOP_3_sun_points_by_source() -> None:
    s = with_part(ability_game(*SOPHIA), 0, Venus(position=3))  # visible: Q, 2VP, 1D+1
    s, events = _observe_constellation(s)
    assert any(e.source == "sun" and e.points == 2 for e in of_type(events, VictoryPointsScored))
    assert dict(s.players[0].points).get("sun") == 2


def test_AMB_39_no_sun_for_a_basic_side_or_without_an_observation() -> None:
    s, events = _observe_constellation(ability_game(("sophia", "basic"), ("galileo", "basic")))
    assert not of_type(events, SunRewardsGained)


# -- Isaac Newton ----------------------------------------------------------------------------------------

NEWTON = (("newton", "ability"), ("kepler", "basic"))


def test_CHAR_NEW_1_his_tiles_with_the_mirrors_on_the_crossed_out_spaces() -> None:
    s = ability_game(*NEWTON)
    q = s.players[0].queue
    assert q[:2] == ("N1", "N2") and sorted(q[2:]) == ["N3", "N4", "N5", "N6"]
    assert s.players[1].queue != q and "N1" not in s.players[1].queue
    others = {ability_game(*NEWTON, seed=f"n{i}").players[0].queue[2:] for i in range(12)}
    assert len(others) > 1  # the other four at random


def test_EX_21_CHAR_NEW_2_the_quadrant_mirror_at_the_top_gives_four() -> None:
    s = ability_game(*NEWTON)
    s = actions_at(player(s, 0, queue=("N3", "N4", "N5", "N6", "N2", "N1")), S4)
    s, events = play(s, "tile 1")
    s, more = finish_effects(s)
    assert sum(e.amount for e in of_type(events + more, QuadrantsGained)) == 4
    s = ability_game(*NEWTON)
    s = actions_at(player(s, 0, queue=("N3", "N4", "N1", "N6", "N2", "N5")), S1)
    s, events = play(s, "tile 2")  # a mirror's single option is both options (DATA-15)
    assert sum(e.amount for e in of_type(events, QuadrantsGained)) == 1
    s = ability_game(*NEWTON)
    s = actions_at(player(s, 0, queue=("N3", "N4", "N1", "N6", "N2", "N5"), upgraded=frozenset({"N1"})), S1)
    s, events = play(s, "tile 1")
    assert sum(e.amount for e in of_type(events, QuadrantsGained)) == 2  # DATA-15: upgraded m + 1


def test_CHAR_NEW_4_page_1_moves_a_special_tile_forward_skipped_tiles_back() -> None:
    s = actions_at(ability_game(*NEWTON), S1)
    s, _ = resolve(s, Task("NSHIFT"))
    moves = legal_moves(s)
    assert ShiftMirror(seat=0, tile="", steps=0) in moves
    assert {(m.tile, m.steps) for m in moves if isinstance(m, ShiftMirror)} == {
        ("", 0), ("N1", 1), ("N1", 2), ("N2", 1), ("N2", 2)
    }  # fmt: skip
    before = s.players[0].queue
    s, events = play(s, "shift N1 2")
    shifted = of_type(events, MirrorShifted)
    assert shifted[0].rule == "CHAR-NEW-4" and s.players[0].queue == (before[1], before[2], "N1", *before[3:])


def test_EX_22_CHAR_NEW_5_AMB_34_page_2_two_vp_per_multiplier() -> None:
    s = actions_at(ability_game(*NEWTON), S1)
    _, events = resolve(s, Task("NVP"))
    assert [(e.points, e.source, e.rule) for e in of_type(events, VictoryPointsScored)] == [
        (0, "newton", "CHAR-NEW-5")
    ]  # both mirrors on X1/X2: multiplier 0 (AMB-34)
    s = player(s, 0, queue=("N3", "N4", "N5", "N6", "N2", "N1"))
    _, events = resolve(s, Task("NVP"))
    assert [e.points for e in of_type(events, VictoryPointsScored)] == [8]


def test_CHAR_NEW_3_personal_pages_offered_in_the_book() -> None:
    from domain.characters import rules_for

    s = ability_game(*NEWTON)
    assert [p.id for p in rules_for(s, s.players[0]).personal_pages(s.catalog)] == ["NEW-P1", "NEW-P2"]


# -- Maria Cunitz ----------------------------------------------------------------------------------------

CUNITZ = (("cunitz", "ability"), ("bruno", "basic"))


def test_CHAR_CUN_1_setup_board_tokens_and_her_tiles() -> None:
    s = ability_game(*CUNITZ)
    part = urania_of(s.players[0])
    assert part.round == "" and part.square == 0 and part.shown == 1  # arrow; top; the next Note in view
    assert sorted(part.notes) == sorted(n.id for n in s.catalog.luna_characters.notes)  # type: ignore[union-attr]
    assert sorted(s.players[0].queue) == ["C1", "C2", "C3", "C4", "C5", "C6"]


def _cunitz_at(tile: str, **urania: Any) -> GameState:
    s = ability_game(*CUNITZ)
    q = list(s.players[0].queue)
    q.remove(tile)
    q.insert(2, tile)  # on S1
    s = actions_at(player(s, 0, queue=tuple(q)), S1)
    return with_part(s, 0, replace(urania_of(s.players[0]), **urania)) if urania else s


def test_CHAR_CUN_2_focus_after_the_left_option() -> None:
    s, events = play(_cunitz_at("C1"), "tile 1")  # INC:R + Focus
    assert s.agenda and s.agenda[-1].kind == "FOCUS" and s.agenda[-1].arg == "R"
    assert {str(m).split(" ", 1)[1] for m in legal_moves(s)} == {"focus -", "focus R"}
    s, events = play(s, "focus R")
    assert of_type(events, RoundTokenMoved)[0].rule == "CHAR-CUN-2" and urania_of(s.players[0]).round == "R"


def test_CHAR_CUN_3_4_move_pays_the_colourless_space() -> None:
    s, events = play(_cunitz_at("C2"), "tile 2")  # Q + Move 1
    moved = of_type(events, SquareTokenMoved)
    assert (moved[0].start, moved[0].end, moved[0].rule) == (0, 1, "CHAR-CUN-4")
    assert sum(e.amount for e in of_type(events, QuadrantsGained)) == 2  # the tile's Q and T1's Q


def test_CHAR_CUN_4_a_note_pays_only_when_the_colours_match() -> None:
    notes = ("NB", "NR", "NY", "NL", "NO", "NG")
    for round_token, pays in (("R", True), ("B", True), ("Y", False), ("", False)):
        s = _cunitz_at("C4", square=0, notes=notes, round=round_token)
        s, events = play(s, "tile 2")  # Move 2: T0 -> T2, the first Note (blue/red, Persuade)
        moved = of_type(events, SquareTokenMoved)[0]
        assert (moved.end, moved.note, moved.matched) == (2, "NB", pays)
        assert any(g[0] == "PER" for g in moved.grants or ()) == pays


def test_AMB_38_extra_steps_are_lost_and_only_the_landing_space_pays() -> None:
    s = _cunitz_at("C4", square=12)
    s, events = play(s, "tile 2")  # Move 2 from T12: stops on T13 (5 VP), T12 not paid again
    moved = of_type(events, SquareTokenMoved)[0]
    assert moved.end == 13 and [g[:2] for g in moved.grants or ()] == [("VP", 5)]


def test_CHAR_CUN_hidden_notes_redacted_until_revealed_and_revealed_at_the_end() -> None:
    setup = Setup(
        seats=(SeatSpec("A", "cunitz", side="ability"), SeatSpec("B", "bruno")),
        seed="cunitz-hidden",
        catalog_edition=EDITION,
    )
    state, events = start(setup)
    started = events[0]
    assert isinstance(started, GameStarted) and started.character_deals is not None
    notes = started.character_deals[0]
    public = redact_event(started, 0)
    assert "character_deals" not in public and "character_deals" in public["redacted"]
    view = public_state(state, 0)
    shown = [n for n in str(view).split("'notes': ")[1].split("]")[0].strip("[").split(", ")]
    assert shown[0].strip("'") == notes[0] and all(n == "'?'" for n in shown[1:])
    # the other notes are not in the public view anywhere
    assert not any(n in str(view) for n in notes[1:])


def _cunitz_game(seed: str, luna: bool = False) -> list[Any]:
    from domain.bots import make_bot

    setup = Setup(
        seats=(SeatSpec("A", "cunitz", side="ability"), SeatSpec("B", "sophia", side="ability")),
        seed=seed,
        options=Options(luna=luna),
        catalog_edition=EDITION,
    )
    return list(play_game(setup, [make_bot("random", f"{seed}{i}") for i in range(2)]).events)


def test_CHAR_CUN_notes_revealed_by_play_and_at_the_end_and_re_dealt_by_a_fork() -> None:
    events = _cunitz_game("cunitz-fork")
    started, ended = events[0], events[-1]
    assert isinstance(started, GameStarted) and isinstance(ended, GameEnded)
    assert ended.character_deals == started.character_deals  # revealed at the end
    assert "character_deals" in event_to_dict(ended)
    revealed = of_type(events, NoteRevealed)
    assert all(e.note == started.character_deals[0][e.index] for e in revealed)  # type: ignore[index]
    at = next(i for i, e in enumerate(events) if isinstance(e, NoteRevealed)) + 1
    source = fold(events[:at])
    shown = urania_of(source.players[0]).shown
    forked = fork_events(events, at, "src", "new-seed", "new-salt")
    fork = forked[at]
    assert isinstance(fork, GameForked) and fork.character_deals is not None
    new_notes = fork.character_deals[0]
    old_notes = urania_of(source.players[0]).notes
    assert new_notes[:shown] == old_notes[:shown] and sorted(new_notes) == sorted(old_notes)
    assert "character_deals" not in redact_event(fork, 0)
    again = fork_events(forked[:at], at, "src", "new-seed", "new-salt")
    assert again == forked  # the rewrite is a fixed point
    assert urania_of(fold(forked).players[0]).notes == new_notes
    first = forked[0]
    assert isinstance(first, GameStarted) and first.character_deals == fork.character_deals


# -- Elizabeth Hevelius ---------------------------------------------------------------------------------

HEVELIUS = (("hevelius", "ability"), ("kepler", "basic"))


def decode(order: tuple[str, ...]) -> Any:
    from domain.characters.hevelius import decode

    return decode(order)


def _heavens(s: GameState) -> Any:
    from domain.characters.hevelius import heavens_of

    return heavens_of(s.players[0])


def test_CHAR_HEV_1_shuffled_hidden_deck_and_an_offer_of_three() -> None:
    setup = Setup(
        seats=(SeatSpec("A", "hevelius", side="ability"), SeatSpec("B", "kepler")),
        seed="hev",
        catalog_edition=EDITION,
    )
    state, events = start(setup)
    part = _heavens(state)
    deck, preset, key = decode(part.dealt)
    assert len(key) == 32 and not preset  # rules 0.3.0: her reshuffles' key committed with the deck
    assert (
        len(part.offer) == 3
        and len(part.deck) == 13
        and sorted(deck)
        == sorted(
            t.id
            for t in state.catalog.luna_characters.hevelius_tiles  # type: ignore[union-attr]
        )
    )
    started = events[0]
    assert isinstance(started, GameStarted) and started.character_deals == (part.dealt, ())
    assert "character_deals" not in redact_event(started, 0)
    view = str(public_state(state, 0))
    assert all(t in view for t in part.offer)
    deck_view = view.split("'hevelius': ")[1].split("'offer'")[0]
    assert not any(t in deck_view for t in part.deck)  # the deck's order is not in the public view


def _hevelius_at_blue(constellations: tuple[tuple[str, ...], ...], offer: tuple[str, ...]) -> GameState:
    from domain.characters.hevelius import Heavens

    s = ability_game(*HEVELIUS)
    q = list(s.players[0].queue)
    q.remove("A2")  # the Blue tile: all blue dice +1 | one die +2
    q.insert(2, "A2")
    s = actions_at(player(s, 0, queue=tuple(q), dice=(("B", 2), ("R", 1), ("Y", 1))), S1)
    rest = tuple(t for t in _heavens(s).dealt if t not in offer and all(t not in c for c in constellations))
    return with_part(
        s, 0, Heavens(deck=rest, offer=offer, constellations=constellations, dealt=_heavens(s).dealt)
    )


def test_EX_23_CHAR_HEV_2_5_6_claim_after_the_condition_and_close_the_five_star_constellation() -> None:
    from domain.characters.hevelius import ClaimTile, ConstellationTileClaimed

    five = ("H13", "H04")  # 3 + 1 stars, one open connection
    seven = ("H14", "H16")  # 3 + 3 stars, one open connection
    s = _hevelius_at_blue((five, seven), ("H01", "H03", "H08"))  # the middle tile: increase blue dice
    assert not any(isinstance(m, ClaimTile) for m in legal_moves(s))  # condition not met yet
    s, _ = play(s, "tile 1")  # all blue +1: 2 -> 3
    claims = {(m.tile, m.target) for m in legal_moves(s) if isinstance(m, ClaimTile)}
    assert claims == {("H03", 0), ("H03", 1), ("H03", 2)}  # new, or either open constellation
    s, events = play(s, "claim H03 1")
    claimed = of_type(events, ConstellationTileClaimed)[0]
    assert (claimed.completed, claimed.stars, claimed.rule) == (("H13", "H04", "H03"), 5, "CHAR-HEV-5")
    assert [g[:2] for g in claimed.grants or ()][:2] == [("VP", 4), ("DIE", 1)]
    s, _ = finish_effects(s)
    part = _heavens(s)
    assert len(part.offer) == 3 and part.constellations == (seven,) and set(five) <= set(part.discard)
    assert dict(s.players[0].points).get("hevelius") == 4
    assert not any(isinstance(m, ClaimTile) for m in legal_moves(s))  # one claim per turn
    # the 7-star one instead: 10 VP
    s = _hevelius_at_blue((five, seven), ("H01", "H03", "H08"))
    s, _ = play(s, "tile 1")
    s, events = play(s, "claim H03 2")
    assert next(g[:2] for g in of_type(events, ConstellationTileClaimed)[0].grants or ()) == ("VP", 10)


def test_EX_24_CHAR_HEV_3_one_die_plus_two_on_yellow_is_not_increase_yellow() -> None:
    from domain.characters.hevelius import ClaimTile

    s = _hevelius_at_blue((), ("H11", "H01", "H13"))  # H11: increase yellow dice
    s, _ = play(s, "tile 2")  # one die +2
    s, _ = play(s, "raise Y1")
    assert not any(isinstance(m, ClaimTile) for m in legal_moves(s))


def test_CHAR_HEV_8_AMB_37_rules_0_3_0_the_discard_ends_the_action_phase_with_no_condition_met() -> None:
    from domain.characters.hevelius import DiscardOffer, OfferRefilled, OfferTilesDiscarded
    from domain.events import ActionPhaseEnded

    s = replace(_hevelius_at_blue((), ("H11", "H01", "H13")), engine_version="0.3.0")
    assert not any(isinstance(m, DiscardOffer) for m in legal_moves(s))  # not before the actions
    s = replace(s, turn=replace(s.turn, fixed_done=True, moving_done=True))
    discards = [m for m in legal_moves(s) if isinstance(m, DiscardOffer)]
    assert len(discards) == 7  # any non-empty set of the three
    s, events = play(s, "discard H01 H11")
    assert of_type(events, OfferTilesDiscarded)[0].rule == "CHAR-HEV-8"
    names = [type(e).__name__ for e in events]
    assert names.index("OfferTilesDiscarded") < names.index("ActionPhaseEnded") < names.index("OfferRefilled")
    assert of_type(events, ActionPhaseEnded) and s.turn.phase != "actions"  # AMB-37: at the end of it
    assert len(of_type(events, OfferRefilled)[0].drawn) == 2 and len(_heavens(s).offer) == 3
    s = replace(_hevelius_at_blue((), ("H03", "H01", "H13")), engine_version="0.3.0")
    s, _ = play(s, "tile 1")  # all blue +1: H03's condition met, no discard
    s = replace(s, turn=replace(s.turn, fixed_done=True))
    assert not any(isinstance(m, DiscardOffer) for m in legal_moves(s))


def test_CHAR_HEV_8_AMB_37_the_discard_after_an_action_phase_with_a_skipped_action() -> None:
    """S000: "If you do not meet the condition of any of the offer's constellation tiles during your turn,
    you may instead discard any number of tiles from the offer"; S001: the fixed and the moving action are
    each optional; AMB-37: decided at the end of her Action phase. Only a Lecture, then the discard."""
    s = actions_at(_hevelius_at_blue((), ("H11", "H01", "H13")), S1 + 1)  # S2: gain a die / Lecture
    s, _ = play(s, "fixed lecture", "lecture 1")
    while s.agenda:  # the Lecture's reward, whatever it is
        s, _ = play(s, str(legal_moves(s)[0]))
    assert not s.turn.moving_done and "LEC" in _heavens(s).performed  # the moving action skipped
    moves = [str(m).split(" ", 1)[1] for m in legal_moves(s)]
    assert "discard H01 H11 H13" in moves and "end" in moves  # H06 (Lecture) is not in the offer
    s, events = play(s, "discard H01 H11")
    names = [type(e).__name__ for e in events]
    assert names.index("OfferTilesDiscarded") < names.index("ActionPhaseEnded") < names.index("OfferRefilled")
    assert s.turn.phase != "actions" and len(_heavens(s).offer) == 3


def test_AMB_37_the_discard_when_the_fixed_action_is_impossible() -> None:
    from domain.characters.hevelius import DiscardOffer

    s = _hevelius_at_blue((), ("H11", "H01", "H13"))
    s = player(s, 0, dice=())  # at S1 without dice: no observation is possible (OBS-20)
    s = replace(s, turn=replace(s.turn, moving_done=True))
    assert [str(m).split(" ", 1)[1] for m in legal_moves(s) if not isinstance(m, DiscardOffer)] == ["end"]
    assert len([m for m in legal_moves(s) if isinstance(m, DiscardOffer)]) == 7


def test_AMB_37_rules_0_2_0_discard_after_both_actions_and_the_phase_goes_on() -> None:
    from domain.characters.hevelius import DiscardOffer, OfferRefilled

    s = _hevelius_at_blue((), ("H11", "H01", "H13"))
    s = replace(s, engine_version="0.2.0")
    assert not any(isinstance(m, DiscardOffer) for m in legal_moves(s))  # not before the actions
    s = replace(s, turn=replace(s.turn, fixed_done=True, moving_done=True), players=s.players)
    s = player(s, 0, quadrants=2)  # something left to do in the Action phase
    assert len([m for m in legal_moves(s) if isinstance(m, DiscardOffer)]) == 7
    s, events = play(s, "discard H01 H11")
    assert len(of_type(events, OfferRefilled)[0].drawn) == 2 and s.turn.phase == "actions"
    assert not any(isinstance(m, DiscardOffer) for m in legal_moves(s))  # once


def test_CHAR_HEV_7_an_empty_deck_reshuffles_the_discard_pile_in_secret() -> None:
    from domain.characters.hevelius import ConstellationDeckReshuffled, Heavens

    s = _hevelius_at_blue((), ("H03", "H01"))
    part = _heavens(s)
    s = with_part(s, 0, Heavens(deck=(), offer=("H03", "H01"), discard=("H05", "H06"), dealt=part.dealt))
    s, _ = play(s, "tile 1")
    s, events = play(s, "claim H03 0")
    shuffled = of_type(events, ConstellationDeckReshuffled)
    assert len(shuffled) == 1 and sorted(shuffled[0].deck) == ["H05", "H06"]
    assert "deck" not in redact_event(shuffled[0], 0)  # hidden until the end
    assert len(_heavens(s).offer) == 3 and _heavens(s).deck == () and _heavens(s).discard == ()


def test_hevelius_deck_re_dealt_by_a_fork_and_revealed_at_the_end() -> None:
    from domain.bots import make_bot

    setup = Setup(
        seats=(SeatSpec("A", "hevelius", side="ability"), SeatSpec("B", "newton", side="ability")),
        seed="hev-fork",
        catalog_edition=EDITION,
    )
    events = list(play_game(setup, [make_bot("random", f"hf{i}") for i in range(2)]).events)
    started, ended = events[0], events[-1]
    assert isinstance(started, GameStarted) and isinstance(ended, GameEnded)
    at = len(events) // 4
    source = fold(events[:at])
    forked = fork_events(events, at, "src", "seed-h", "salt-h")
    fork = forked[at]
    assert isinstance(fork, GameForked) and fork.character_deals is not None
    deck, _, key = decode(fork.character_deals[0])
    assert sorted(deck) == sorted(_heavens(source).deck) and key != decode(_heavens(source).dealt)[2]
    again = fork_events(forked[:at], at, "src", "seed-h", "salt-h")
    assert again == forked
    assert _heavens(fold(forked)).deck == deck


def test_AMB_23_luna_a6_takes_a_mirror_with_its_multiplier_and_rotates_it() -> None:
    s = ability_game(("newton", "ability"), ("cunitz", "ability"), luna=True)
    s = actions_at(player(s, 0, queue=("N3", "N4", "N5", "N6", "N2", "N1")), S1)
    s, _ = resolve(s, Task("ANYTILE"))
    s, events = play(s, "anytile N1 1")  # on S4: x4 (EX-21)
    assert sum(e.amount for e in of_type(events, QuadrantsGained)) == 4
    assert s.players[0].queue[0] == "N1"  # rotated at once (LUNA-BA-6)
    s = actions_at(ability_game(("newton", "ability"), ("cunitz", "ability"), luna=True), S1)
    s, _ = resolve(s, Task("ANYTILE"))
    s, events = play(s, "anytile N1 1")  # on X1: x0 (AMB-34)
    assert not of_type(events, QuadrantsGained)


# -- Hevelius in Cleanup (CHAR-HEV-4, rules 0.3.0) -------------------------------------------------------


def _claims(s: GameState) -> set[tuple[str, int]]:
    from domain.characters.hevelius import ClaimTile

    return {(m.tile, m.target) for m in legal_moves(s) if isinstance(m, ClaimTile)}


def test_CHAR_HEV_4_a_condition_met_in_the_action_phase_can_be_claimed_in_cleanup() -> None:
    from domain.characters.hevelius import ConstellationTileClaimed

    s = _hevelius_at_blue((), ("H01", "H03", "H08"))
    s, _ = play(s, "tile 1")  # all blue +1: H03's condition met
    assert _claims(s) == {("H03", 0)}
    s, _ = play(s, "end")  # not claimed in the Action phase: her turn goes on (TURN-2)
    assert s.turn.phase == "cleanup" and _claims(s) == {("H03", 0)}  # the first Cleanup window
    s, events = play(s, "claim H03 0")
    assert of_type(events, ConstellationTileClaimed)[0].tile == "H03"
    s, _ = finish_effects(s)
    assert _heavens(s).constellations == (("H03",),) and len(_heavens(s).offer) == 3
    assert not _claims(s)  # CHAR-HEV-2: one claim per turn


def test_CHAR_HEV_4_BOC_2_a_book_page_reward_in_cleanup_meets_a_condition() -> None:
    s = _hevelius_at_blue((), ("H07", "H01", "H02"))  # H07: Persuade
    s = player(s, 0, comets=("pending", *("slot",) * 6), cellar=(1, 0, 0, 0))
    s = replace(s, turn=replace(s.turn, phase="cleanup", rotated=True, fixed_done=True, moving_done=True))
    assert not _claims(s)  # the Book of Comets first (CLN-1 step 2), nothing met yet
    s, events = play(s, "page blue-4")  # the page's reward: Persuade (BOC-2), its one option taken
    assert of_type(events, InquisitorPersuaded)  # the Inquisitor moved: with effect (CHAR-HEV-2/3)
    assert _claims(s) == {("H07", 0)}
    s, _ = play(s, "done")  # she lets the first window pass: the last one offers it again
    assert s.turn.phase == "cleanup" and _claims(s) == {("H07", 0)}
    s, _ = play(s, "done")
    assert s.turn.phase != "cleanup" or s.turn.seat != 0  # her turn is over: the claim is gone


def test_CHAR_HEV_4_a_window_opens_for_a_claim_even_without_free_actions_in_cleanup() -> None:
    s = _hevelius_at_blue((), ("H01", "H03", "H08"))
    s = replace(s, options=replace(s.options, free_actions_in_all_phases=False))
    s, _ = play(s, "tile 1")
    s, _ = play(s, "end")
    moves = {str(m).split(" ", 1)[1] for m in legal_moves(s)}
    assert moves == {"claim H03 0", "done"}  # her claim and the end of the window, no free action


def test_CHAR_HEV_8_a_discard_is_instead_of_a_claim() -> None:
    from domain.characters.hevelius import ClaimTile, OfferTilesDiscarded, heavens_of
    from domain.moves import check

    s = _hevelius_at_blue((), ("H11", "H01", "H13"))
    s = replace(s, turn=replace(s.turn, fixed_done=True, moving_done=True))
    _, events = play(s, "discard H01 H11 H13")
    assert of_type(events, OfferTilesDiscarded)
    # the same turn after the discard and the refill, her free actions meeting every new tile's condition
    part = heavens_of(s.players[0])
    offer = ("H03", "H05", "H08")
    met = tuple(t.condition for t in _hev_tiles(s) if t.id in offer)
    later = replace(part, offer=offer, discarded=True, turn=s.turn.number, performed=met)
    s = with_part(s, 0, later)
    assert not _claims(s)
    refusal = check(s, ClaimTile(seat=0, tile="H03", target=0))
    assert refusal is not None and (refusal.code, refusal.rule_id) == ("discarded-instead", "CHAR-HEV-8")


def test_CHAR_HEV_4_rules_0_2_0_keep_hevelius_claims_out_of_cleanup() -> None:
    setup = Setup(
        seats=(SeatSpec("A", "hevelius", side="ability"), SeatSpec("B", "kepler")),
        seed="luna-chars",
        first_seat=0,
        catalog_edition=EDITION,
        engine_version="0.2.0",
    )
    old, _ = start(setup)
    s = _hevelius_at_blue((), ("H01", "H03", "H08"))
    s = replace(s, engine_version=old.engine_version)
    s, _ = play(s, "tile 1")
    s, _ = play(s, "end")
    assert not _claims(s)  # a game recorded under rules 0.2.0 plays on as it was recorded
    assert decode(_heavens(old).dealt)[2] == ""  # and its hidden deal holds no reshuffle key
    from domain import dump_state

    dumped = str(dump_state(old))  # its positions (and a take-back's state) keep their released shape
    assert all(name not in dumped for name in ("shuffle_key", "preset", "older"))
    assert "shuffle_key" in str(dump_state(ability_game(*HEVELIUS)))


def _hev_tiles(s: GameState) -> Any:
    return s.catalog.luna_characters.hevelius_tiles  # type: ignore[union-attr]


# -- Hevelius' reshuffles in forks (CHAR-HEV-7, rules 0.3.0: committed at setup) -------------------------


def _recorded(seed: str) -> tuple[list[Any], list[tuple[Any, int, int]]]:
    """A random-bot game with Hevelius and Cunitz on their ability side: its events and its batches
    (command, first event, end), the setup's first."""
    from domain.bots import make_bot
    from domain.engine import play_through

    setup = Setup(
        seats=(SeatSpec("A", "hevelius", side="ability"), SeatSpec("B", "cunitz", side="ability")),
        seed=seed,
        catalog_edition=EDITION,
    )
    state, events = start(setup)
    batches: list[tuple[Any, int, int]] = [(None, 0, len(events))]
    bots = [make_bot("random", f"{seed}{i}") for i in range(2)]
    while not state.finished:
        command = bots[state.turn.seat].choose(state, legal_moves(state))
        state, new = play_through(state, command)
        batches.append((command, len(events), len(events) + len(new)))
        events += new
    return events, batches


def _first_reshuffle(events: list[Any]) -> int:
    from domain.characters.hevelius import ConstellationDeckReshuffled

    return next((i for i, e in enumerate(events) if isinstance(e, ConstellationDeckReshuffled)), -1)


def test_CHAR_HEV_7_a_fork_after_a_reshuffle_reproduces_the_original_when_not_re_dealt() -> None:
    from domain.engine import play_through

    events, batches = _recorded("hev-exact")
    for at in (_first_reshuffle(events) + 1, _first_reshuffle(events) + 3):  # between it and its refill
        forked = fork_events(events, at, "src", None)  # a finished game's fork keeps the deal
        assert forked[:at] == events[:at] and isinstance(forked[at], GameForked)
        cut = next(end for _, start_, end in batches if start_ < at <= end)
        assert forked[at + 1 :] == events[at:cut]  # the automatic rest of the cut batch, as it was
        state = fold(forked)
        for command, start_, end in batches:
            if start_ >= cut:
                state, new = play_through(state, command)
                assert new == events[start_:end]  # every later reshuffle and draw as in the original
        assert state.finished


def _rerun(prefix: list[Any], batches: list[tuple[Any, int, int]]) -> None:
    """The copied events are what the rules produce from the fork's rewritten deal (as verify checks)."""
    from domain.engine import decide, settle
    from domain.evolve import evolve

    state = evolve(None, prefix[0])
    state, settled = settle(state)
    assert settled == prefix[1 : len(settled) + 1]
    for command, start_, end in batches[1:]:
        if start_ >= len(prefix):
            break
        new = decide(state, command)
        assert new[: len(prefix) - start_] == prefix[start_ : min(end, len(prefix))], start_
        for e in new[: len(prefix) - start_]:
            state = evolve(state, e)


def test_CHAR_HEV_7_a_re_dealing_fork_after_a_reshuffle_is_exact_and_reveals_nothing() -> None:
    import orjson

    from domain.characters.hevelius import heavens_of

    events, batches = _recorded("hev-exact")
    first = _first_reshuffle(events)
    for at in (first + 1, first + 2, first + 60):
        source = heavens_of(fold(events[:at]).players[0])
        forked = fork_events(events, at, "src", "seed-r", "salt-r")
        assert fork_events(forked[:at], at, "src", "seed-r", "salt-r") == forked  # a fixed point
        _rerun(forked[:at], batches)  # the prefix reproduces itself from the rewritten deal
        public = [redact_event(e, None) for e in events[1:at]]
        assert [redact_event(e, None) for e in forked[1:at]] == public  # the same game to everyone
        # nothing of the source's unseen order is in the fork, hidden fields and the end's reveal included
        later = fold(forked[: at + 1])  # right after the re-deal
        text = b"\n".join(orjson.dumps(event_to_dict(e)) for e in forked)
        assert orjson.dumps(list(source.deck))[1:-1] not in text or len(source.deck) < 2
        assert source.shuffle_key.encode() not in text
        assert heavens_of(later.players[0]).shuffle_key != source.shuffle_key
        assert sorted(heavens_of(later.players[0]).deck) == sorted(source.deck)


def test_CHAR_HEV_7_CHAR_CUN_1_forks_of_forks_are_exact_for_hevelius_and_cunitz() -> None:
    from domain.bots import make_bot
    from domain.engine import play_through

    events, batches = _recorded("hev-fork-of-fork")
    a1 = _first_reshuffle(events) - 30
    once = fork_events(events, a1, "src", "seed-1", "salt-1")
    state, more = fold(once), list(once)
    bots = [make_bot("random", f"ff{i}") for i in range(2)]
    inner = [(c_, b, min(e, a1)) for c_, b, e in batches if b < a1]  # the copied ones, the last cut
    inner.append((None, a1, len(once)))  # the fork's batch: GameForked and what settles after it
    after = 0
    while after < 20 and not state.finished:  # on past a reshuffle of the fork's own
        command = bots[state.turn.seat].choose(state, legal_moves(state))
        state, new = play_through(state, command)
        inner.append((command, len(more), len(more) + len(new)))
        more += new
        after += 1 if _first_reshuffle(more[a1:]) >= 0 else 0
    assert not state.finished
    a2 = len(more) - 5
    twice = fork_events(more, a2, "fork-1", "seed-2", "salt-2")
    assert fork_events(twice[:a2], a2, "fork-1", "seed-2", "salt-2") == twice
    assert [redact_event(e, None) for e in twice[1:a2] if not isinstance(e, GameForked)] == [
        redact_event(e, None) for e in more[1:a2] if not isinstance(e, GameForked)
    ]
    _rerun_with_forks(twice[:a2], inner)


def _rerun_with_forks(prefix: list[Any], batches: list[tuple[Any, int, int]]) -> None:
    from domain.engine import decide, settle
    from domain.evolve import evolve

    state, settled = settle(evolve(None, prefix[0]))
    assert settled == prefix[1 : len(settled) + 1]
    for command, start_, end in batches[1:]:
        if start_ >= len(prefix):
            break
        end = min(end, len(prefix))
        if command is None:  # an earlier fork: its re-deal, and what settles after it
            forked = prefix[start_]
            assert isinstance(forked, GameForked)
            new = [forked, *settle(evolve(state, forked))[1]]
        else:
            new = decide(state, command)
        assert new[: end - start_] == prefix[start_:end], start_
        for e in new[: end - start_]:
            state = evolve(state, e)


# -- rules by ID not covered above -------------------------------------------------------------------


def test_DER_10_CHAR_NEW_2_the_quadrant_mirror_gives_one_to_four_by_position() -> None:
    got = []
    for space in (S1, S1 + 1, S1 + 2, S4):
        queue = [t for t in ("N3", "N4", "N5", "N6", "N2") if t]
        queue.insert(space, "N1")
        s = actions_at(player(ability_game(*NEWTON), 0, queue=tuple(queue)), space)
        s, events = play(s, "tile 1")
        s, more = finish_effects(s)
        got.append(sum(e.amount for e in of_type(events + more, QuadrantsGained)))
    assert got == [1, 2, 3, 4]  # S1 x1 .. S4 x4


def _cunitz_in_cleanup(**urania: Any) -> GameState:
    s = ability_game(*CUNITZ)
    s = with_part(s, 0, replace(urania_of(s.players[0]), **urania))
    s = player(s, 0, comets=("pending", *("slot",) * 6), cellar=(1, 0, 0, 0))
    return replace(s, turn=replace(s.turn, phase="cleanup", rotated=True, fixed_done=True, moving_done=True))


def test_EX_25_CHAR_CUN_5_rules_0_3_0_the_page_moves_first_then_focuses() -> None:
    """S000's Cunitz example from step (3) (AMB-6: the page in Cleanup step 2): round token on red, the
    next space a blue/red Note (Persuade); her left-hand page: the Move first (red matches), the 2
    Quadrants, then Focus onto blue."""
    notes = ("NB", "NR", "NY", "NL", "NO", "NG")
    s = replace(_cunitz_in_cleanup(notes=notes, round="R", square=1), engine_version="0.3.0")
    quadrants = s.players[0].quadrants
    s, events = play(s, "page CUN-P1")
    assert sum(e.amount for e in of_type(events, QuadrantsGained)) == 2
    assert {str(m).split(" ", 1)[1] for m in legal_moves(s)} == {
        "focus -",
        "focus R",
        "focus Y",
        "focus B",
        "focus later",
    }
    s, events = play(s, "focus later")  # CHAR-CUN-5: any order
    deferred = of_type(events, FocusDeferred)
    assert len(deferred) == 1 and deferred[0].rule == "CHAR-CUN-5"
    moved = of_type(events, SquareTokenMoved)[0]
    assert (moved.start, moved.end, moved.note, moved.matched) == (1, 2, "NB", True)
    assert of_type(events, InquisitorPersuaded) and s.turn.inquisitor_moved  # interrogated in step 3
    assert "focus later" not in {str(m).split(" ", 1)[1] for m in legal_moves(s)}  # the Move is done
    s, events = play(s, "focus B")
    part = urania_of(s.players[0])
    assert (part.round, part.square) == ("B", 2) and s.players[0].quadrants >= quadrants + 2


def test_CHAR_CUN_5_rules_0_3_0_focus_first_then_move_and_only_a_page_focus_may_wait() -> None:
    from domain.characters.cunitz import Focus
    from domain.moves import check

    s = _cunitz_in_cleanup(notes=("NB", "NR", "NY", "NL", "NO", "NG"), round="Y", square=1)
    s, _ = play(replace(s, engine_version="0.3.0"), "page CUN-P1")
    s, events = play(s, "focus B")  # Focus first: blue matches the blue/red Note as well
    assert of_type(events, SquareTokenMoved)[0].matched
    s, _ = play(_cunitz_at("C1"), "tile 1")  # a tile's Focus (CHAR-CUN-2): no Move of its own to wait for
    refusal = check(s, Focus(seat=0, space="later"))
    assert refusal is not None and (refusal.code, refusal.rule_id) == ("no-move-to-wait-for", "CHAR-CUN-5")


def test_CHAR_CUN_5_every_part_of_a_page_in_any_order_move_then_the_plus_3() -> None:
    """S000: "you may gain Cunitz's rewards in any order". No die, the round token on yellow, the next
    space a yellow Note that gives a die: the Move first, then the one die +3 raises that die."""
    notes = ("NY", "NR", "NB", "NL", "NO", "NG")  # the first Note space (space 2) holds NY: a die
    s = player(_cunitz_in_cleanup(notes=notes, round="Y", square=1), 0, dice=())
    s, _ = play(s, "page CUN-P2")  # one die +3, Focus anywhere, square token +1
    assert {str(m).split(" ", 1)[1] for m in legal_moves(s)} == {"part 1D+3", "part FOCUSANY", "part MOVE1"}
    s, events = play(s, "part MOVE1")
    moved = of_type(events, SquareTokenMoved)[0]
    assert (moved.start, moved.end, moved.note, moved.matched) == (1, 2, "NY", True)
    s, _ = play(s, "die Y")  # the Note's die (CHAR-CUN-4)
    assert s.players[0].dice == (("Y", 1),)
    assert {str(m).split(" ", 1)[1] for m in legal_moves(s)} == {"part 1D+3", "part FOCUSANY"}
    s, _ = play(s, "part 1D+3")  # her one die: raised at once (RES-1, no choice)
    assert s.players[0].dice == (("Y", 4),)  # the die the Move brought, raised by 3
    s, _ = play(s, "focus B")  # the last part needs no choice of order
    assert urania_of(s.players[0]).round == "B" and not any(t.source == "book" for t in s.agenda)


def test_CHAR_CUN_5_a_page_part_not_on_the_page_is_refused() -> None:
    from domain.characters.cunitz import Focus, PagePart
    from domain.moves import check

    s = _cunitz_in_cleanup(notes=("NY", "NR", "NB", "NL", "NO", "NG"), round="Y", square=1)
    s, _ = play(s, "page CUN-P3")  # Persuade once, Focus anywhere, square token +2
    refusal = check(s, PagePart(seat=0, part="1D+3"))
    assert refusal is not None and (refusal.code, refusal.rule_id) == ("not-a-page-part", "CHAR-CUN-5")
    refusal = check(s, Focus(seat=0, space="B"))  # a Focus before its part is chosen
    assert refusal is not None and (refusal.code, refusal.rule_id) == ("pending-decision", "RES-1")


def test_DER_11_a_completed_constellation_has_at_least_two_stars() -> None:
    from domain.abilities import hevelius as hev

    data = ability_game(*HEVELIUS).catalog.luna_characters
    assert data is not None
    tiles = [hev.Tile(t.id, t.stars, t.connections) for t in data.hevelius_tiles]
    for a in tiles:  # no single tile completes; two tiles complete exactly when both have one connection
        layout, done = hev.place((), a, hev.NEW)
        assert done is None
        for b in tiles:
            if b.id == a.id:
                continue
            _, done = hev.place(layout, b, 0)
            assert (done is not None) == (a.connections == b.connections == 1)
            if done is not None:
                assert hev.stars(done) >= 2


def test_AMB_36_write_twice_is_two_separate_writes() -> None:
    from domain.abilities import hevelius as hev

    data = ability_game(*HEVELIUS).catalog.luna_characters
    assert data is not None
    reward = hev.completion_reward(data.bands, 3)
    assert list(reward).count("W1") == 2 and "W2" not in reward  # AMB-36: W1, then W1


def test_AMB_39_luna_a2_is_an_observe_that_pays_the_sun() -> None:
    s = ability_game(("sophia", "ability"), ("galileo", "basic"), luna=True)
    s = show(show(show(s, 0, "D1-01"), 1, "D1-03"), 2, "D1-07")
    s = actions_at(s, S1)
    s, _ = resolve(s, Task("FREEOBS", 4))  # LUNA-BA-2: one constellation of cost 4 or less, free
    moves = legal_moves(s)
    assert moves, "an observation open to the bonus"
    s, events = play(s, str(moves[0]))
    s, more = finish_effects(s)
    sun = of_type(events + more, SunRewardsGained)
    assert len(sun) == 1 and sun[0].rule == "CHAR-SOP-3"


def test_CHAR_HEV_5_claim_targets_exhaustively_on_small_layouts() -> None:
    """Every layout of up to three constellations in progress of one or two of her tiles (built by the
    placement rules, so each has an open connection): a claim may start a new constellation or extend any
    of them, nothing else; the refusal of a target that is not there names CHAR-HEV-5."""
    import itertools

    from domain.abilities import hevelius as hev
    from domain.characters.hevelius import ClaimTile, heavens_of
    from domain.moves import check

    base = _hevelius_at_blue((), ("H03", "H01", "H02"))
    s0, _ = play(base, "tile 1")  # H03's condition met
    data = base.catalog.luna_characters
    assert data is not None
    tiles = {t.id: hev.Tile(t.id, t.stars, t.connections) for t in data.hevelius_tiles}
    pool = [t for t in sorted(tiles) if t not in ("H03", "H01", "H02")]
    groups = [(a,) for a in pool[:4]] + [
        (a, b)
        for a, b in itertools.combinations(pool[:6], 2)
        if tiles[a].connections + tiles[b].connections > 2
    ]
    seen = 0
    for n in range(4):
        for layout in itertools.combinations(groups, n):
            if len({t for g in layout for t in g}) != sum(len(g) for g in layout):
                continue
            assert all(hev.open_connections(tuple(tiles[t] for t in g)) > 0 for g in layout)
            part = heavens_of(s0.players[0])
            rest = tuple(t for t in part.deck if all(t not in g for g in layout))
            s = with_part(s0, 0, replace(part, constellations=layout, deck=rest))
            assert _claims(s) == {("H03", k) for k in range(n + 1)}
            refusal = check(s, ClaimTile(seat=0, tile="H03", target=n + 1))
            assert refusal is not None and (refusal.code, refusal.rule_id) == (
                "no-open-connection",
                "CHAR-HEV-5",
            )
            seen += 1
    assert seen > 100


def test_CHAR_HEV_7_a_determinisation_knows_neither_her_deck_order_nor_her_reshuffle_key() -> None:
    from domain.characters.hevelius import heavens_of
    from domain.determinise import determinise

    events, _ = _recorded("hev-determinise")
    s = fold(events[: _first_reshuffle(events) + 1])  # between a reshuffle and its refill
    real = heavens_of(s.players[0])
    for viewer in (0, 1, None):
        seen = heavens_of(determinise(s, viewer, "search-seed").players[0])
        assert seen.shuffle_key not in ("", real.shuffle_key) and not seen.preset
        assert sorted(seen.deck) == sorted(real.deck) and seen.older == real.older
        assert set(seen.deck[: real.older]) == set(real.deck[: real.older])  # the generations kept apart
