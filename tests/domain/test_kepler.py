"""Johannes Kepler's ability side (digest §17.2): CHAR-KEP-1..5, AMB-30 (DATA-16)."""

from __future__ import annotations

import pytest

from domain import IllegalMove, SeatSpec, Setup, legal_moves, start
from domain import events as ev
from domain.characters.commands import DeclineAbility, KeplerSwap
from domain.characters.events import AbilityDeclined, KeplerTilesSwapped
from domain.characters.kepler import KeplerBoard
from domain.concepts.actions import swapped, upgrade_options
from domain.expansions.luna.commands import SwapTiles
from domain.expansions.luna.events import ActionTilesSwapped
from domain.moves import check
from domain.state import S4, Task
from tests.domain.abilities import ability_game
from tests.domain.scenario import actions_at, of_type, play, with_agenda

KEP_FIRST = ("kepler", "galileo", "bruno")


def _kepler(aside: str | None = "A3"):  # type: ignore[no-untyped-def]
    return ability_game(characters=KEP_FIRST, sides=("ability", "basic", "basic"), aside=aside)


def test_CHAR_KEP_1_AMB_30_the_special_tile_on_S4_and_the_chosen_tile_aside() -> None:
    s = _kepler("A3")
    p = s.players[0]
    assert p.queue[S4] == "K1" and len(p.queue) == 6 and "A3" not in p.queue
    assert p.part(KeplerBoard).aside == "A3"  # type: ignore[union-attr]
    seats = (SeatSpec("A", "kepler", side="ability", aside="K1"), SeatSpec("B", "galileo"))
    with pytest.raises(IllegalMove) as refused:
        start(Setup(seats=seats, seed="x"))
    assert refused.value.rule_id == "AMB-30"
    _, events = start(
        Setup(seats=(SeatSpec("A", "kepler", side="ability"), SeatSpec("B", "galileo")), seed="x")
    )
    started = events[0]
    assert isinstance(started, ev.GameStarted) and started.sides == ("ability", "basic")
    assert started.layouts is not None and started.layouts[0] is not None and started.layouts[1] is None


def _at_special_tile(s):  # type: ignore[no-untyped-def]
    return actions_at(s, S4)  # the telescope on S4: the special tile's space


def test_CHAR_KEP_2_option_1_swaps_two_player_board_tiles() -> None:
    s = _at_special_tile(_kepler())
    queue = s.players[0].queue
    s, _ = play(s, "tile 1")
    assert s.agenda[-1] == Task("KSWAP", 1, "board", "action-tile")
    moves = legal_moves(s)
    assert all("K1" not in str(m) for m in moves)  # CHAR-KEP-3
    assert isinstance(moves[-1], DeclineAbility) and len(moves) == 10 + 1  # 5 tiles: 10 pairs
    a, b = sorted(t for t in queue if t != "K1")[:2]
    s, events = play(s, f"kswap {a} {b}")
    swapped = of_type(events, KeplerTilesSwapped)
    assert swapped and swapped[0].rule == "CHAR-KEP-2"
    q = s.players[0].queue
    assert q.index(a) == queue.index(b) and q.index(b) == queue.index(a)


def test_CHAR_KEP_2_option_2_swaps_the_character_board_tile_in() -> None:
    s = _at_special_tile(_kepler("A3"))
    s, _ = play(s, "tile 2")
    target = s.players[0].queue[0]
    s, _ = play(s, f"kswap A3 {target}")
    assert s.players[0].queue[0] == "A3" and s.players[0].part(KeplerBoard).aside == target  # type: ignore[union-attr]


def test_CHAR_KEP_3_the_special_tile_is_never_a_swap_target() -> None:
    s = _at_special_tile(_kepler("A3"))
    s, _ = play(s, "tile 2")
    refusal = check(s, KeplerSwap(seat=0, first="A3", second="K1"))
    assert refusal is not None and refusal.rule_id == "CHAR-KEP-3"


def test_CHAR_KEP_2_the_swap_may_be_declined_and_CHAR_KEP_4_the_tile_rotates() -> None:
    s = _at_special_tile(_kepler())
    s, events = play(s, "tile 1", "noability")
    assert of_type(events, AbilityDeclined)[0].rule == "CHAR-KEP-2"
    s, events = play(s, "end")
    rotated = of_type(events, ev.ActionTilesRotated)
    assert rotated and rotated[0].tile == "K1" and s.players[0].queue[0] == "K1"  # ROT-1


def test_CHAR_KEP_5_the_set_aside_tile_can_be_upgraded() -> None:
    s = _kepler("A3")
    assert "A3" in {m.tile for m in upgrade_options(s, Task("UPG"), 0)}  # type: ignore[attr-defined]
    assert "K1" in {m.tile for m in upgrade_options(s, Task("UPG"), 0)}  # type: ignore[attr-defined]
    s = with_agenda(s, Task("UPG"))
    s, _ = play(s, "upgrade A3")
    assert "A3" in s.players[0].upgraded


def test_CHAR_KEP_2_DATA_16_the_upgraded_special_tile_adds_a_quadrant() -> None:
    s = _at_special_tile(_kepler())
    s = with_agenda(s, Task("UPG"))
    s, _ = play(s, "upgrade K1")
    s, _ = play(s, "tile 1", "noability")
    assert s.players[0].quadrants == 1


def test_LUNA_BA_6_CHAR_KEP_2_luna_a6_takes_keplers_special_tile() -> None:
    """docs/characters.md: Luna's A6 ("the moving action of any Action tile") may take Kepler's special
    tile K1: its moving action is his swap (CHAR-KEP-2), and the tile rotates to q0 at once."""
    from domain.state import S1
    from tests.domain.scenario import resolve

    s = ability_game(
        characters=("kepler", "galileo", "bruno"), sides=("ability", "basic", "basic"), luna=True
    )
    s = actions_at(s, S1)
    assert "K1" in s.players[0].queue
    s, _ = resolve(s, Task("ANYTILE"))
    s, _ = play(s, "anytile K1 1")
    assert s.agenda and s.agenda[-1].kind == "KSWAP"  # K1's moving action: his swap
    s, _ = play(s, "noability")
    assert s.players[0].queue[0] == "K1"  # then rotated to the beginning of the queue (LUNA-BA-6)


def test_CHAR_KEP_2_CHAR_KEP_3_LUNA_BA_7_kepler_and_luna_swap_the_same_way_under_different_rules() -> None:
    """docs/characters.md, "Two swap commands": Kepler's swap may be declined and never takes K1; Luna's
    A7 swap is a reward (no decline) of any two player-board tiles, as released; both exchange two tiles'
    spaces the same way (`swapped`)."""
    s = ability_game(characters=KEP_FIRST, sides=("ability", "basic", "basic"), aside="A3", luna=True)
    queue = s.players[0].queue
    kepler = with_agenda(s, Task("KSWAP", 1, "board", "action-tile"))
    luna = with_agenda(s, Task("SWAP", 1, "", "bonus-board"))
    kswaps, swaps = legal_moves(kepler), legal_moves(luna)
    assert isinstance(kswaps[-1], DeclineAbility) and all("K1" not in str(m) for m in kswaps)  # RES-7, KEP-3
    assert all(isinstance(m, SwapTiles) for m in swaps) and any("K1" in str(m) for m in swaps)
    assert len(swaps) == 15 and len(kswaps) == 10 + 1  # 6 tiles: 15 pairs; 5 without K1: 10, and decline
    a, b = sorted(t for t in queue if t != "K1")[:2]
    after_kepler, kepler_events = play(kepler, f"kswap {a} {b}")
    after_luna, luna_events = play(luna, f"swap {a} {b}")
    assert after_kepler.players[0].queue == after_luna.players[0].queue == swapped(queue, a, b)
    assert [e.rule for e in of_type(kepler_events, KeplerTilesSwapped)] == ["CHAR-KEP-2"]
    assert [e.rule for e in of_type(luna_events, ActionTilesSwapped)] == ["LUNA-BA-7"]
    assert check(luna, KeplerSwap(seat=0, first=a, second=b)) is not None  # each rule's command only
    assert check(kepler, SwapTiles(seat=0, first=a, second=b)) is not None
