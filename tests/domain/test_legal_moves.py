"""legal_moves is exact: every enumerated move is accepted; every other command is refused with a rule.

States come from bot games with fixed seeds; non-enumerated commands come from a wide universe of
commands of every type (fuzzing), including wrong seats and out-of-range arguments.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from domain import IllegalMove, Options, decide, legal_moves, play_through, start
from domain import commands as c
from domain.bots import make_bot
from domain.selfplay import default_setup
from domain.state import COLOURS, GameState

RULE_ID = re.compile(r"^[A-Z]+(-[A-Z0-9]+)+(\.\d+)?$")


def universe(s: GameState) -> Iterator[c.Command]:
    seat = s.turn.seat
    p = s.players[seat]
    for who in (seat, (seat + 1) % len(s.players)):
        yield from (c.Move(seat=who, steps=n) for n in range(-1, 5))
        yield c.EndActions(seat=who)
    yield from (
        c.TakeFixed(seat=seat, action=a) for a in ("die", "lecture", "spot", "upgrade", "observe", "x")
    )
    yield from (c.UseTile(seat=seat, option=n) for n in range(-1, 4))
    yield from (
        c.BuyFree(seat=seat, action=a) for a in ("recolour", "raise", "die", "write", "persuade", "spot", "x")
    )
    yield c.EndFreeActions(seat=seat)
    yield c.StopObserving(seat=seat)
    yield c.StopWriting(seat=seat)
    yield c.DeclineDie(seat=seat)
    dice = [*sorted(set(p.dice)), ("R", 6), ("Y", 9)]
    for card in [*(d for d in s.display if d), "D3-09"]:
        n = len(s.catalog.cards[card].constellations)
        for target in [f"MO:{card}", *(f"C:{card}:{i}" for i in range(n + 1)), f"X:{card}"]:
            for k in range(0, 3):
                for spent in ([], dice[:k], dice[k : k + 2], list(p.dice)):
                    for n1, n2 in ((0, 0), (1, 0), (0, 1), (1, 1), (3, 0)):
                        yield c.Observe(seat=seat, target=target, dice=tuple(spent), comets1=n1, comets2=n2)
    for space in range(-1, 5):
        yield c.Persuade(seat=seat, space=space)
        yield c.Persuade(seat=seat, space=space, grand=True)
    for colour in (*COLOURS, "G"):
        yield c.GainDie(seat=seat, colour=colour)
        for d in dice:
            yield c.GainDie(seat=seat, colour=colour, returned=d)
        for d in dice:
            yield c.Recolour(seat=seat, die=d, colour=colour)
    for n in range(-1, 5):
        yield c.Lecture(seat=seat, tile=n)
        yield c.WriteStep(seat=seat, row=n)
        yield c.WriteComplete(seat=seat, row=n)
    for d in dice:
        yield c.RaiseDie(seat=seat, die=d)
    yield c.Farewell(seat=seat, accept=True)
    yield c.Farewell(seat=seat, accept=False)
    for tile in (*p.queue, "ZZ"):
        yield c.Upgrade(seat=seat, tile=tile)
    for page in (*(pg.id for pg in s.catalog.book_pages), "appendix", "nope"):
        yield c.PlaceComet(seat=seat, page=page)
    # Luna commands (also offered to non-Luna states: they must be refused there)
    for position in ("I", "IV", "IX", "X"):
        for spent in ((), tuple(sorted(p.dice))):
            yield c.Observe(seat=seat, target=f"MOON:{position}", dice=spent)
    for space in range(0, 11):
        yield c.BonusSpace(seat=seat, space=space)
    for space in range(0, 8):
        yield c.Relocate(seat=seat, space=space)
    q = p.queue
    yield from (c.SwapTiles(seat=seat, first=a, second=b) for a in (*q[:2], "ZZ") for b in q[3:])
    for n in range(-1, 5):
        yield c.RegainRow(seat=seat, row=n)
        yield c.CollectScale(seat=seat, tile=n)
    for tile in (*q[:3], "ZZ"):
        for option in (0, 1, 2, 3):
            yield c.BonusTile(seat=seat, tile=tile, option=option)
    for choice in ("vp", "quadrants", "both"):
        yield c.MoonReward(seat=seat, choice=choice)
    yield c.TakeInquisitor(seat=seat, accept=True)
    yield c.TakeInquisitor(seat=seat, accept=False)
    yield c.Decline(seat=seat)


def states(players: int, seed: str, bot: str, every: int, luna: bool = False) -> Iterator[GameState]:
    setup = default_setup(players, seed, Options(luna=True) if luna else None)
    state, _ = start(setup)
    bots = [make_bot(bot, f"{seed}{i}") for i in range(players)]
    n = 0
    while not state.finished:
        if n % every == 0:
            yield state
        state, _ = play_through(state, bots[state.turn.seat].choose(state, legal_moves(state)))
        n += 1
    yield state


@pytest.mark.parametrize(
    ("players", "bot", "luna"),
    [(2, "random", False), (3, "greedy", False), (4, "random", False), (3, "random", True)],
)
def test_every_enumerated_move_is_accepted_and_nothing_else(players: int, bot: str, luna: bool) -> None:
    checked = 0
    for state in states(players, f"exact-{players}", bot, every=3, luna=luna):
        legal = legal_moves(state)
        assert len(set(legal)) == len(legal), "no duplicates in legal_moves"
        for move in legal:
            decide(state, move)  # raises if the enumeration offered an illegal move
        legal_set = set(legal)
        for cmd in universe(state):
            if cmd in legal_set:
                decide(state, cmd)
                continue
            with pytest.raises(IllegalMove) as err:
                decide(state, cmd)
            assert RULE_ID.match(err.value.rule_id), err.value.rule_id
            assert err.value.code and err.value.message
            checked += 1
    assert checked > 10_000


def test_decide_never_changes_the_state_it_is_given() -> None:
    from domain import dump_state

    for state in states(3, "pure", "random", every=7):
        before = dump_state(state)
        for move in legal_moves(state):
            decide(state, move)
        assert dump_state(state) == before


def test_a_finished_game_refuses_everything_with_END_2() -> None:
    *_, last = states(2, "over", "random", every=1000)
    assert last.finished and legal_moves(last) == []
    with pytest.raises(IllegalMove) as err:
        decide(last, c.Move(seat=0, steps=1))
    assert (err.value.code, err.value.rule_id) == ("game-over", "END-2")
