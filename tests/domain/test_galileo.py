"""Galileo Galilei's ability side (digest §17.1): CHAR-GAL-1..4, AMB-11, AMB-12, EX-16."""

from __future__ import annotations

from domain import events as ev
from domain import legal_moves
from domain.characters import Character, rules_for
from domain.state import S1, Task
from tests.domain.abilities import ability_game, settle_until
from tests.domain.scenario import actions_at, of_type, play, player, show, with_agenda


def _observing(dice=(("R", 5), ("R", 4), ("R", 5), ("Y", 4))):  # type: ignore[no-untyped-def]
    s = show(show(show(ability_game(), 0, "D1-01"), 1, "D1-03"), 2, "D1-07")
    return actions_at(player(s, 0, dice=dice), S1)


def test_CHAR_1_the_ability_side_is_recorded_and_basic_seats_keep_the_base_rules() -> None:
    s = ability_game(sides=("ability", "basic", "basic"))
    assert s.players[0].part(Character) is not None and s.players[1].part(Character) is None
    assert rules_for(s, s.players[1]).observe_more(s, s.players[1], "C").n == 1  # type: ignore[union-attr]


def test_CHAR_GAL_2_up_to_three_constellations_in_one_observe() -> None:
    s, _ = play(_observing(), "observe C:D1-01:0 R5 c1=0 c2=0")
    s = settle_until(s, "OBSERVE")
    assert (s.agenda[-1].n, s.agenda[-1].arg, s.agenda[-1].source) == (2, "MO", "CHAR-GAL-2")
    s, _ = play(s, "observe C:D1-03:0 R4 c1=0 c2=0")
    s = settle_until(s, "OBSERVE")
    assert s.agenda[-1].n == 1
    assert not any(str(m).startswith("@0 observe MO:") for m in legal_moves(s))  # no MO after two
    s, events = play(s, "observe C:D1-07:0 R5 c1=0 c2=0")
    assert [e.rule for e in of_type(events, ev.ConstellationObserved)] == ["CHAR-GAL-2"]  # the third
    assert s.players[0].tokens_used == 3


def test_CHAR_GAL_2_AMB_11_a_constellation_then_a_major_object() -> None:
    s, _ = play(_observing((("R", 5), ("R", 4), ("Y", 4), ("Y", 4))), "observe C:D1-01:0 R5 c1=0 c2=0")
    s = settle_until(s, "OBSERVE")
    moves = [str(m) for m in legal_moves(s)]
    assert any(m.startswith("@0 observe MO:D1-01") for m in moves)  # CHAR-GAL-2: 1 MO + 1 constellation
    s, events = play(s, "observe MO:D1-01 R4+Y4 c1=0 c2=0")
    assert of_type(events, ev.MajorObjectObserved)
    assert all(t.kind != "OBSERVE" for t in s.agenda)  # the Observe is over after the Major Object


def test_CHAR_GAL_3_EX_16_a_major_object_then_a_constellation_on_the_refilled_card() -> None:
    s = _observing((("R", 4), ("B", 4), ("R", 5), ("Y", 5)))
    s, events = play(s, "observe MO:D1-03 R4+B4 c1=0 c2=0")
    assert of_type(events, ev.MajorObjectObserved)
    s = settle_until(s, "OBSERVE")
    assert (s.agenda[-1].n, s.agenda[-1].arg, s.agenda[-1].source) == (1, "C", "CHAR-GAL-3")
    new_card = s.display[1]
    assert new_card is not None  # CHAR-GAL-3: the emptied space was refilled at once, before
    moves = [str(m) for m in legal_moves(s)]
    assert "@0 stop" in moves and all(" MO:" not in m for m in moves)  # one constellation, or stop
    con = s.catalog.cards[new_card].constellations[0]
    s = player(s, 0, dice=((con.colour, 6),))
    move = next(m for m in legal_moves(s) if f"C:{new_card}:0" in str(m))  # EX-16: on the new card
    s, events = play(s, str(move))
    observed = of_type(events, ev.ConstellationObserved)
    assert [(e.card, e.rule) for e in observed] == [(new_card, "CHAR-GAL-3")]
    assert all(t.kind != "OBSERVE" for t in s.agenda)  # the Observe is complete


def test_CHAR_GAL_1_the_personal_page_gives_two_quadrants() -> None:
    from domain.moves import book_check, book_options

    s = ability_game()
    s = player(s, 0, comets=("pending", *s.players[0].comets[1:]))
    assert "GAL-P1" in [m.page for m in book_options(s, 0)]  # BOC-5: his personal page beside the shared
    assert "GAL-P1" not in [m.page for m in book_options(s, 1)]  # no one else's
    s = with_agenda(s, Task("BOOK"))
    s, events = play(s, "page GAL-P1")
    assert s.players[0].part(Character).pages == ("GAL-P1",)  # type: ignore[union-attr]
    assert s.players[0].quadrants == 2 and s.players[0].comets[0] == "book"  # CHAR-GAL-1
    s = player(s, 0, comets=("book", "pending", *s.players[0].comets[2:]))
    assert "GAL-P1" not in [m.page for m in book_options(s, 0)]  # BOC-3: one comet per page
    from domain import commands as c

    refusal = book_check(s, c.PlaceComet(seat=0, page="GAL-P1"))
    assert refusal is not None and refusal.rule_id == "BOC-5"


def test_CHAR_GAL_2_a_second_major_object_is_refused_by_galileos_own_rule() -> None:
    """CHAR-GAL-2: "1 Major Object, 1 Major Object + 1 constellation, or 1-3 constellations": after his
    Major Object a second one is refused naming CHAR-GAL-2, the rule that forbids it (not OBS-1)."""
    from domain import commands as c
    from domain.moves import check

    s = _observing((("R", 4), ("B", 4), ("R", 5), ("Y", 5)))
    s, _ = play(s, "observe MO:D1-03 R4+B4 c1=0 c2=0")
    s = settle_until(s, "OBSERVE")
    other = next(card for card in s.display if card is not None and card != "D1-03")
    refusal = check(
        s, c.Observe(seat=0, target=f"MO:{other}", dice=(("R", 5), ("Y", 5)), comets1=0, comets2=0)
    )
    assert refusal is not None and (refusal.code, refusal.rule_id) == ("one-major-object", "CHAR-GAL-2")


def test_BOC_5_another_seat_on_galileos_page_is_refused_by_the_personal_page_rule() -> None:
    """BOC-5: a comet may go on an empty personal page of the player's own character: another seat
    naming Galileo's page is refused by BOC-5, not as an unknown page (BOC-1)."""
    from domain import commands as c
    from domain.moves import book_check

    s = ability_game()
    s = player(s, 1, comets=("pending", *s.players[1].comets[1:]))
    refusal = book_check(s, c.PlaceComet(seat=1, page="GAL-P1"))
    assert refusal is not None and (refusal.code, refusal.rule_id) == ("not-your-page", "BOC-5")
    refusal = book_check(s, c.PlaceComet(seat=1, page="NOPE-1"))
    assert refusal is not None and refusal.rule_id == "BOC-1"  # a page no one has
