"""Giordano Bruno's ability side (digest §17.4): CHAR-BRU-1..3 on his 5-space cellar tile (DATA-18)."""

from __future__ import annotations

from domain import commands as c
from domain.characters.events import CellarRewardGained
from domain.events import FarewellTaken, InterrogationHeld
from domain.moves import book_options
from domain.scoring import cellar_points, interrogation
from domain.state import Task
from tests.domain.abilities import ability_game
from tests.domain.scenario import of_type, play, player, resolve, with_agenda

BRUNO_FIRST = ("bruno", "galileo", "kepler")


def _bruno(**changes):  # type: ignore[no-untyped-def]
    s = ability_game(characters=BRUNO_FIRST, sides=("ability", "basic", "basic"))
    return player(s, 0, **changes) if changes else s


def test_CHAR_BRU_2_his_cellar_has_five_spaces_and_the_others_four() -> None:
    s = _bruno()
    assert len(s.players[0].cellar) == 5 and len(s.players[1].cellar) == 4


def test_CHAR_BRU_3_new_inquisitors_enter_C1_and_interrogation_uses_the_tile() -> None:
    s = with_agenda(_bruno(), Task("INQ"))
    assert s.players[0].cellar == (1, 0, 0, 0, 0)
    assert interrogation(s, s.players[0])[0] == -4  # DATA-18: C1 -4
    s = _bruno(cellar=(0, 1, 0, 1, 1))
    assert interrogation(s, s.players[0])[0] == -3 - 1 + 2
    assert cellar_points(s, s.players[0]) == -4 - 2 + 2  # DATA-18 bottom row


def test_CHAR_BRU_2_an_inquisitor_moving_onto_a_space_gains_its_reward() -> None:
    s, events = resolve(_bruno(cellar=(1, 0, 0, 0, 0)), Task("PER"))  # the only option: played at once
    gained = of_type(events, CellarRewardGained)
    assert [(g.space, g.reward, g.rule) for g in gained] == [(1, ("Q",), "CHAR-BRU-2")]
    assert s.players[0].quadrants == 1 and s.players[0].cellar == (0, 1, 0, 0, 0)
    s = _bruno(cellar=(0, 0, 0, 1, 0))
    score = s.players[0].score
    s, events = resolve(s, Task("PER"))
    assert s.players[0].score == score + 4 and s.players[0].quadrants == 1  # C5: 4VP + Q
    assert dict(s.players[0].points)["cellar-tile"] == 4  # points by source


def test_CHAR_BRU_3_the_farewell_takes_from_C5() -> None:
    s = with_agenda(_bruno(cellar=(0, 0, 0, 0, 1)), Task("FW"))
    s, events = play(s, "farewell yes")
    assert of_type(events, FarewellTaken) and s.players[0].cellar == (0, 0, 0, 0, 0)


def test_CHAR_BRU_1_his_personal_pages_persuade_four_times_and_upgrade() -> None:
    s = _bruno(comets=("pending", *_bruno().players[0].comets[1:]), cellar=(2, 0, 0, 0, 0))
    assert {"BRU-P1", "BRU-P2"} <= {m.page for m in book_options(s, 0)}
    s = with_agenda(s, Task("BOOK"))
    s, _ = play(s, "page BRU-P1")
    # four steps, split as he likes (the first had one option: C1, played at once)
    assert s.players[0].cellar == (1, 1, 0, 0, 0) and [t.kind for t in s.agenda].count("PER") == 3
    s, _ = play(s, "persuade C2", "die B", "persuade C1", "persuade C2", "nodie")  # C3: a die
    assert s.players[0].cellar == (0, 0, 2, 0, 0)
    s = player(s, 0, comets=("book", "pending", *s.players[0].comets[2:]))
    s = with_agenda(s, Task("BOOK"))
    s, _ = play(s, "page BRU-P2")
    assert s.agenda[-1].kind == "UPG"
    tile = s.players[0].queue[0]
    s, _ = play(s, f"upgrade {tile}")
    assert tile in s.players[0].upgraded


def test_CHAR_BRU_basic_bruno_keeps_the_four_space_cellar() -> None:
    s = ability_game(characters=BRUNO_FIRST, sides=("basic", "basic", "basic"))
    assert len(s.players[0].cellar) == 4
    assert not of_type([], InterrogationHeld) and c.Persuade
