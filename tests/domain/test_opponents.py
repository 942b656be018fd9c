"""The seam for a non-player opponent (issue 10 item 2, domain/opponents.py): a seat whose turns its own
rules take, each step an event, with no branch for it in the base turn handlers."""

from __future__ import annotations

import pytest

from domain import commands as c
from domain import events as ev
from domain import opponents
from domain.effect_kinds import Emitter
from domain.engine import decide, legal_moves, play_through, settle, to_act
from domain.errors import IllegalMove
from domain.moves import options
from domain.ruleset import Plugin, Rules, Ruleset
from domain.state import GameState, replace
from tests.domain.scenario import new_game


class Automaton:
    """A minimal opponent: moves its telescope one step, ends its Action phase at once, and answers
    every decision the base rules ask with their last option."""

    key = "kepler"
    name = "the automaton"
    rule = "TURN-1"

    def __init__(self) -> None:
        self.ended = 0

    def step(self, run: Emitter) -> bool:
        s = run.state
        p = s.current
        if s.turn.phase == "movement":
            end = 2 if p.telescope in (1, 6) else p.telescope + 1
            run.emit(
                ev.TelescopeMoved(seat=p.seat, start=p.telescope, end=end, steps=1, wrapped=p.telescope == 6)
            )
            return True
        if s.turn.phase == "actions":
            run.emit(ev.ActionPhaseEnded(seat=p.seat))
            return True
        return False  # the base Cleanup

    def choose(self, state: GameState, options: list[c.Command]) -> c.Command:
        return options[-1]

    def before_end(self, run: Emitter) -> None:
        self.ended += 1

    def winners(self, state: GameState) -> tuple[int, ...] | None:
        return None


@pytest.fixture
def automaton() -> Automaton:
    return Automaton()


def with_automaton(s: GameState, bot: Automaton) -> GameState:
    """`s` played with a plug-in whose opponent is `bot` (at the seats of its character id)."""
    table = Rules("test-automaton")
    table.opponents[bot.key] = bot

    class AutomatonPlugin(Plugin):
        rules = (table,)

    return replace(s, rules=Ruleset(s.rules.pins, (*s.rules.plugins, AutomatonPlugin)))


def test_an_opponents_turns_play_themselves_and_nobody_decides_for_it(automaton: Automaton) -> None:
    from domain.bots import make_bot
    from domain.engine import start
    from domain.selfplay import default_setup

    bot = make_bot("greedy", "opponent-seam")
    s, _ = start(default_setup(2, "opponent-seam"))
    s, _ = settle(with_automaton(s, automaton))
    assert opponents.opponent_at(s, 1) is automaton
    seen_turns = set()
    decisions = 0
    while not s.finished:
        assert to_act(s) is not None and s.players[to_act(s)].character != "kepler"
        moves = legal_moves(s)
        assert moves and all(m.seat == s.turn.seat for m in moves)
        s, events = play_through(s, bot.choose(s, moves))
        seen_turns |= {e.seat for e in events if isinstance(e, ev.TurnEnded)}
        decisions += 1
        assert decisions < 5000
    assert seen_turns == {0, 1} and automaton.ended >= 1  # (the greedy bot looks ahead too)


def test_TURN_1_a_command_for_the_opponents_seat_is_refused_with_its_rule(automaton: Automaton) -> None:
    s = with_automaton(new_game(2), automaton)
    # put the opponent's seat to act, as at the start of its turn
    s = replace(s, turn=replace(s.turn, seat=1))
    assert options(s) is None and to_act(s) is None
    with pytest.raises(IllegalMove) as refused:
        decide(s, c.Move(seat=1, steps=1))
    assert refused.value.code == "opponent-turn" and refused.value.rule_id == "TURN-1"
