"""How a plug-in's state part is written to and read from a dumped state (domain/parts.py, docs/state.md)."""

from __future__ import annotations

import pytest

from domain.characters import Character
from domain.characters.copernicus import CopernicusLibrary
from domain.characters.kepler import KeplerBoard
from domain.parts import dump_parts
from domain.serialize import dump_state, load_state, public_state
from domain.state import S2
from domain.vocabulary import NESTED_PLAYER_PARTS, PLAYER_PARTS
from tests.domain.abilities import ability_game
from tests.domain.scenario import actions_at, play, player

RELEASED_ABILITY_KEYS = ["side", "pages", "aside", "library", "placed"]  # the released "ability" member


def test_CHAR_KEP_1_CHAR_COP_2_a_characters_own_part_is_written_in_the_released_ability_member() -> None:
    s = ability_game(characters=("copernicus", "kepler", "galileo"), aside="A2")
    s = actions_at(player(s, 0, library=(("D1-01", True),)), S2)
    s, _ = play(s, "libtile CP3 A 2 R1")
    copernicus, kepler, galileo = s.players
    assert copernicus.part(CopernicusLibrary) == CopernicusLibrary(library=(("CP3", "A", 2, 0),), placed=0)
    assert copernicus.part(KeplerBoard) is None and kepler.part(CopernicusLibrary) is None
    assert kepler.part(KeplerBoard) == KeplerBoard(aside="A2")
    assert galileo.part(KeplerBoard) is None and galileo.part(CopernicusLibrary) is None
    assert all(p.part(Character) == Character() for p in s.players)  # only what every ability side has
    for dumped in (dump_state(s), public_state(s), public_state(s, 1)):
        members = [p["ability"] for p in dumped["players"]]
        assert [list(m) for m in members] == [RELEASED_ABILITY_KEYS] * 3
        assert members[0] == {
            "side": "ability",
            "pages": [],
            "aside": "",
            "library": [["CP3", "A", 2, 0]],
            "placed": 0,  # turn 0
        }
        assert members[1]["aside"] == "A2" and members[1]["library"] == [] and members[1]["placed"] == -1
        assert members[2] == {"side": "ability", "pages": [], "aside": "", "library": [], "placed": -1}
    assert load_state(dump_state(s)) == s


def test_a_part_written_inside_another_is_refused_without_that_part() -> None:
    """A character's own part lives inside its seat's "ability" member (NestedCodec): never alone."""
    with pytest.raises(ValueError, match="KeplerBoard is written inside 'ability', which is absent"):
        dump_parts(PLAYER_PARTS, (KeplerBoard(aside="A2"),), False, nested=NESTED_PLAYER_PARTS)
    assert dump_parts(PLAYER_PARTS, (), False, nested=NESTED_PLAYER_PARTS) == {}
