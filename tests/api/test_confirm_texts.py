"""The confirm text of every move (GET /games/{id}/moves: `descriptions` and `previews`) against what the
move then does, over 20 seeded games played to the end through the real store (SQLite), Luna and the
ability sides included.

For each decision the listing is built the way the route builds it (`moves_listing`); one move is
chosen by a random bot and submitted with `Games.submit`. Then:
- the preview's lines are, in order, the history's words (`api.play.event_item`, the seat's form) of
  the stored events up to the information horizon, routine steps left out;
- every reward the move wasted (an `EffectLost` among them) was warned of, and nothing else was;
- "cannot be taken back" is said exactly when the take-back horizon (`replays.table.horizon_problem`,
  ASYNC-7) refuses to return to before the move;
- the words never say more than the mover may know: no line names a card or tile revealed by the move;
- no description claims a Quadrant for passing U (MOV-3 grants none) nor a Moon cost other than the
  one the engine charged (LUNA-22);
- what a move's words say it grants or where it lands is what the engine then did: a Persuade's
  destination (INQ-10, Bruno's 5-space cellar), how many times one of Newton's special tiles gives its
  bonus (CHAR-NEW-2), where his tile shift puts it and with which multiplier (CHAR-NEW-4), and what
  each library row covered by Copernicus' tile gives from then on (CHAR-COP-4)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from api import play
from api.viewing import moves_listing
from domain import GameState, Options, command_from_dict
from domain.abilities.newton import mirror_times
from domain.characters import rules_for
from domain.characters.newton import MirrorShifted, data_of
from domain.events import EffectLost, Event, InquisitorPersuaded, TurnEnded
from domain.expansions.luna.events import MoonObserved
from domain.selfplay import default_setup
from domain.state import SKY
from domain.takeback import reveals
from projections.describe import ROWS, reward_text, routine
from replays.service import Games
from replays.table import horizon_problem

# (seed, players, luna, side, characters): 20 games, 6 with Luna, 8 with ability sides.
GAMES = [
    *((f"confirm-{i}", 2 + i % 3, False, None, ()) for i in range(8)),
    *((f"confirm-luna-{i}", 2 + i % 3, True, None, ()) for i in range(4)),
    *(
        (f"confirm-ability-{i}", 4, False, "ability", ("galileo", "kepler", "copernicus", "bruno"))
        for i in range(4)
    ),
    *(
        (f"confirm-luna-ability-{i}", 4, True, "ability", ("newton", "hevelius", "cunitz", "sophia"))
        for i in range(2)
    ),
    ("confirm-solo-0", 1, False, None, ()),
    ("confirm-solo-luna", 1, True, None, ()),
]


def _granted_as_told(
    before: GameState, after: GameState, chosen: dict[str, Any], words: str, events: tuple[Event, ...]
) -> str | None:
    """The kind of claim `words` (the chosen move's description) makes about what the engine grants or
    where something lands, checked against the stored `events` and the position `after` them."""
    seat = int(chosen["seat"])
    kind = str(chosen["type"])
    if kind == "Persuade":
        moved = next(e for e in events if isinstance(e, InquisitorPersuaded))
        size = len(after.players[seat].cellar)
        where = f"C{moved.end + 1}" if moved.end < size else "out of the cellar"
        assert words.endswith(f" to {where}"), (words, moved)
        return "persuade"
    luna = before.catalog.luna_characters
    tiles = {t.id: t for t in luna.newton_tiles if t.mirror} if luna is not None else {}
    player = before.players[seat]
    if kind == "UseTile" and chosen["option"] and player.queue[before.turn.space] in tiles:
        tile = tiles[player.queue[before.turn.space]]
        position = player.queue.index(tile.id)
        upgraded = tile.id in player.upgraded
        times = mirror_times(data_of(before.catalog).multipliers, position, upgraded, tile.upgrade_bonus)
        assert words.endswith(f", {times} time{'' if times == 1 else 's'}"), (words, times)
        return "mirror"
    if kind == "ShiftMirror" and chosen["steps"]:
        shifted = next(e for e in events if isinstance(e, MirrorShifted))
        at, to = player.queue.index(shifted.tile), shifted.queue.index(shifted.tile)
        multipliers = data_of(before.catalog).multipliers
        told = f"(from {SKY[at]}, multiplier {multipliers[at]}, to {SKY[to]}, multiplier {multipliers[to]})"
        assert words.endswith(told), (words, told)
        return "shift"
    if kind == "PlaceLibraryTile":
        rules, holder = rules_for(after, after.players[seat]), after.players[seat]
        for row, reward in re.findall(r"(R\d) gives ([^,]+)", words):
            covered = rules.library_reward(after, holder, ROWS.index(row), int(chosen["column"]))
            assert covered is not None and reward_text(covered) == reward, (words, row, covered)
        assert " gives " in words, words
        return "library"
    return None


def _play_and_compare(
    games: Games, seed: str, players: int, luna: bool, side: str | None, chars: tuple[str, ...]
) -> dict[str, int]:
    game_id, version = games.create(
        default_setup(players, seed, Options(luna=luna), side=side, characters=chars)
    )
    rng = random.Random(seed)
    counts = {"decisions": 0, "warned": 0, "final": 0, "revealing": 0, "moon": 0}
    counts |= {"persuade": 0, "mirror": 0, "shift": 0, "library": 0}
    while True:
        game = games.game(game_id)
        state = game.state
        assert state is not None
        if state.finished:
            return counts
        seat = state.turn.seat
        moves, descriptions, previews = moves_listing(state, seat)
        assert len(moves) == len(descriptions) == len(previews) and moves
        for text in descriptions:
            assert "Quadrant" not in text or "passing" not in text, text  # MOV-3: passing U grants nothing
        i = rng.randrange(len(moves))
        chosen, shown = moves[i], previews[i]
        result = games.submit(game_id, command_from_dict(chosen), version, f"c{version}", seat)
        first = version + 1
        version = result.version
        counts["decisions"] += 1
        after = games.game(game_id).state
        assert after is not None
        claim = _granted_as_told(state, after, chosen, descriptions[i], tuple(result.events))
        if claim is not None:
            counts[claim] += 1

        # The lines: the history's words of the stored events up to the horizon, in order.
        expected: list[str] = []
        wasted: list[str] = []
        for k, event in enumerate(result.events):
            if (
                reveals(event)
                or isinstance(event, TurnEnded)
                or play.withheld_from(play.event_item(first + k, event, False), seat)
            ):
                break
            item = play.event_item(first + k, event, False, seat)
            if isinstance(event, EffectLost):
                wasted.append(item["text"])
            if not routine(item["event"], item["type"]):
                expected.append(item["text"])
        assert shown["lines"] == expected, (seed, chosen["text"])
        assert shown["warnings"] == wasted, (seed, chosen["text"])
        counts["warned"] += bool(wasted)

        # "Cannot be taken back" exactly when the take-back horizon refuses (ASYNC-7).
        stored = [s for s in games.events(game_id, first - 1) if s.version >= first]
        refused = horizon_problem(stored, seat, first - 1)
        assert shown["undoable"] == (refused is None), (seed, chosen["text"], refused)
        counts["final"] += refused is not None

        # What the move reveals is told only by what is known before (projections/preview.py, FORESEEN).
        revealing = next((e for e in result.events if reveals(e)), None)
        if revealing is not None and shown["reveals"] is not None:
            counts["revealing"] += 1
            for name in ("card", "scoring", "revealed", "note", "stack", "drawn"):
                value = getattr(revealing, name, None)
                if isinstance(value, str) and value:
                    assert value not in shown["reveals"], (seed, shown["reveals"])
        moon = next((e for e in result.events if isinstance(e, MoonObserved)), None)
        if moon is not None:  # LUNA-22: the cost the engine charged is the one told, and no other
            counts["moon"] += 1
            told = " ".join([*shown["lines"], shown["reveals"] or "", descriptions[i]])
            assert set(re.findall(r"cost (\d+)", told)) == {str(moon.cost)}, (seed, told)


def _compare_all(
    tmp_path: Path, games_list: list[tuple[str, int, bool, str | None, tuple[str, ...]]]
) -> dict[str, int]:
    totals: dict[str, int] = {}
    with Games(f"sqlite:///{tmp_path}/games.db") as games:
        for seed, players, luna, side, chars in games_list:
            for key, n in _play_and_compare(games, seed, players, luna, side, chars).items():
                totals[key] = totals.get(key, 0) + n
    return totals


# One game of each kind in every run (base with the ability sides, Luna, abilities with Luna, solo with
# Luna); all 20 under soak.
QUICK = [GAMES[12], GAMES[8], GAMES[16], GAMES[19]]


@pytest.mark.slow
def test_every_confirm_text_is_what_the_move_then_does_in_one_game_of_each_kind(tmp_path: Path) -> None:
    totals = _compare_all(tmp_path, QUICK)
    print(f"quick: {totals}")
    assert totals["decisions"] > 300 and totals["warned"] and totals["final"] and totals["revealing"]
    assert totals["persuade"] and totals["mirror"] and totals["shift"] and totals["library"], totals


@pytest.mark.soak
@pytest.mark.parametrize("batch", range(4))
def test_every_confirm_text_is_what_the_move_then_does(tmp_path: Path, batch: int) -> None:
    totals = _compare_all(tmp_path, GAMES[batch::4])
    print(f"batch {batch}: {totals}")
    assert totals["decisions"] > 500 and totals["warned"] and totals["final"] and totals["revealing"]
    assert totals["persuade"], totals
