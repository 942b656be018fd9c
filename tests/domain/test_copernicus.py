"""Nicolaus Copernicus' ability side (digest §17.3): CHAR-COP-1..4, AMB-28, FREE-6 (DATA-17)."""

from __future__ import annotations

import pytest

from domain import commands as c
from domain import legal_moves
from domain.characters import Character
from domain.characters.commands import DeclineAbility, PlaceLibraryTile
from domain.characters.copernicus import CopernicusLibrary
from domain.characters.events import AbilityDeclined, LibraryTilePlaced
from domain.errors import IllegalMove
from domain.events import EffectLost, InquisitorPersuaded
from domain.moves import check
from domain.state import S2, Task
from tests.domain.abilities import ability_game
from tests.domain.scenario import actions_at, of_type, play, player, with_agenda

COP_FIRST = ("copernicus", "galileo", "kepler")


def _cop(**changes):  # type: ignore[no-untyped-def]
    s = ability_game(characters=COP_FIRST, sides=("ability", "basic", "basic"))
    return player(s, 0, **changes) if changes else s


def _part(s):  # type: ignore[no-untyped-def]
    return s.players[0].part(Character)


def test_CHAR_COP_2_FREE_6_a_library_tile_once_per_turn_at_no_cost() -> None:
    s = actions_at(_cop(library=(("D1-01", True),), quadrants=0), S2)
    tiles = [m for m in legal_moves(s) if isinstance(m, PlaceLibraryTile)]
    assert tiles and {m.tile for m in tiles} == {"CP1", "CP2", "CP3", "CP4"}  # no Quadrants needed
    s, events = play(s, "libtile CP3 A 2 R1")
    placed = of_type(events, LibraryTilePlaced)
    assert [(e.tile, e.face, e.column, e.row, e.rows, e.rule) for e in placed] == [
        ("CP3", "A", 2, 0, 2, "CHAR-COP-2")
    ]
    assert s.players[0].part(CopernicusLibrary).library == (("CP3", "A", 2, 0),)  # type: ignore[union-attr]
    assert _part(s) is not None and s.players[0].quadrants == 0
    assert not any(isinstance(m, PlaceLibraryTile) for m in legal_moves(s))  # once per turn
    refusal = check(s, PlaceLibraryTile(seat=0, tile="CP1", face="A", column=1, row=0))
    assert refusal is not None and refusal.rule_id == "CHAR-COP-2"


def test_CHAR_COP_3_never_over_a_book_token_nor_outside_the_library() -> None:
    s = actions_at(_cop(library=(("D1-01", True),), books=(2, 0, 0, 0)), S2)
    for cmd, rule in (
        (PlaceLibraryTile(seat=0, tile="CP1", face="A", column=2, row=0), "CHAR-COP-3"),  # over a token
        (PlaceLibraryTile(seat=0, tile="CP1", face="A", column=3, row=1), "CHAR-COP-3"),  # no such column
        (PlaceLibraryTile(seat=0, tile="CP3", face="A", column=1, row=3), "CHAR-COP-3"),  # sticks out
        (PlaceLibraryTile(seat=0, tile="CP3", face="C", column=1, row=0), "CHAR-COP-3"),  # no face C
    ):
        refusal = check(s, cmd)
        assert refusal is not None and refusal.rule_id == rule, (cmd, refusal)
    assert check(s, PlaceLibraryTile(seat=0, tile="CP3", face="B", column=2, row=1)) is None


def test_CHAR_COP_4_a_covered_space_gives_the_tiles_reward() -> None:
    s = actions_at(_cop(library=(("D1-01", True),), books=(0, 1, 0, 0)), S2)
    s, _ = play(s, "libtile CP1 A 2 R2")  # 3VP on the card's space of R2
    s = with_agenda(s, Task("WRITE", 1))
    score = s.players[0].score
    s, _ = play(s, "write R2")
    assert s.players[0].score == score + 3 and dict(s.players[0].points)["library"] == 3


def test_CHAR_COP_1_AMB_28_two_different_inquisitors_up_to_two_spaces_each() -> None:
    s = _cop(cellar=(2, 0, 0, 0))
    s = with_agenda(s, Task("PER2D", 2, "1||"))
    # the first: both Inquisitors on C1 are alike, one option plus stop
    assert {str(m) for m in legal_moves(s)} == {"@0 persuade C1", "@0 noability"}
    s, _ = play(s, "persuade C1")
    assert {str(m) for m in legal_moves(s)} == {"@0 persuade C2", "@0 noability"}  # the same one on
    s, _ = play(s, "persuade C2")
    assert s.players[0].cellar == (1, 0, 1, 0)
    assert {str(m) for m in legal_moves(s)} == {"@0 persuade C1", "@0 noability"}  # not the one on C3
    refusal = check(s, c.Persuade(seat=0, space=2))
    assert refusal is not None and refusal.rule_id == "AMB-28"
    s, events = play(s, "persuade C1", "noability")
    assert s.players[0].cellar == (0, 1, 1, 0) and not any(t.kind == "PER2D" for t in s.agenda)
    assert len(of_type(events, AbilityDeclined)) == 1


def test_AMB_28_with_one_movable_inquisitor_only_its_two_steps() -> None:
    s = with_agenda(_cop(cellar=(1, 0, 0, 0)), Task("PER2D", 2, "1||"))
    s, events = play(s, "persuade C1", "persuade C2")
    assert not any(t.kind == "PER2D" for t in s.agenda)  # no different Inquisitor: the rest is lost
    assert s.players[0].cellar == (0, 0, 1, 0)
    assert [e.reason for e in of_type(events, EffectLost)] == ["no Inquisitor in the cellar can be persuaded"]


def test_CHAR_COP_1_the_personal_page() -> None:
    s = _cop(comets=("pending", *_cop().players[0].comets[1:]), cellar=(1, 1, 0, 0))
    s = with_agenda(s, Task("BOOK"))
    s, _ = play(s, "page COP-P1")
    assert s.agenda[-1].kind == "PER2D" and _part(s).pages == ("COP-P1",)
    assert isinstance(legal_moves(s)[-1], DeclineAbility)
    with pytest.raises(IllegalMove):
        play(s, "libtile CP1 A 1 R1")  # RES-1: first the page's persuading
    assert of_type([], InquisitorPersuaded) == []


def test_CHAR_COP_3_AMB_29_only_on_his_cards_spaces_never_the_printed_column() -> None:
    """CN p.15: the tiles may not stick out of the library, "they must fit the rows and columns of
    Copernicus' Discovery cards"; AMB-29: "only on card spaces (p >= 2)"."""
    s = actions_at(_cop(library=(("D1-01", True),)), S2)
    offered = {str(m).split(" ", 1)[1] for m in legal_moves(s) if isinstance(m, PlaceLibraryTile)}
    assert "libtile CP1 A 1 R4" not in offered and "libtile CP1 A 2 R4" in offered
    refusal = check(s, PlaceLibraryTile(seat=0, tile="CP1", face="A", column=1, row=3))
    assert refusal is not None and (refusal.code, refusal.rule_id) == ("outside-cards", "CHAR-COP-3")


def test_AMB_29_strictly_right_of_the_book_token_in_every_covered_row() -> None:
    """AMB-29: "strictly right of the Book token in every covered row": R1's token on p = 3."""
    cards = (("D1-01", True), ("D1-03", True), ("D1-07", True))
    s = actions_at(_cop(library=cards, books=(3, 0, 0, 0)), S2)
    offered = {str(m).split(" ", 1)[1] for m in legal_moves(s) if isinstance(m, PlaceLibraryTile)}
    assert "libtile CP2 A 2 R1" not in offered and "libtile CP2 A 4 R1" in offered
    assert "libtile CP2 A 2 R2" in offered  # R2's token has not moved
    refusal = check(s, PlaceLibraryTile(seat=0, tile="CP2", face="A", column=2, row=0))
    assert refusal is not None and (refusal.code, refusal.rule_id) == ("left-of-book-token", "AMB-29")
    two_rows = next(t for t in s.catalog.character("copernicus").ability.library_tiles if t.rows == 2)
    refusal = check(s, PlaceLibraryTile(seat=0, tile=two_rows.id, face="A", column=2, row=0))
    assert refusal is not None and refusal.rule_id == "AMB-29"  # R1 covered too: left of its token


def test_CHAR_COP_3_rules_0_3_0_the_printed_column_and_passed_spaces_as_released() -> None:
    """A game under rules 0.3.0 keeps the reading it was played under (docs/editions.md)."""
    from dataclasses import replace

    s = actions_at(_cop(library=(("D1-01", True), ("D1-03", True)), books=(3, 0, 0, 0)), S2)
    s = replace(s, engine_version="0.3.0")
    assert check(s, PlaceLibraryTile(seat=0, tile="CP1", face="A", column=1, row=3)) is None
    assert check(s, PlaceLibraryTile(seat=0, tile="CP2", face="A", column=2, row=0)) is None
