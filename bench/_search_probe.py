"""A fixed search workload for counting instructions under valgrind (issue 33: search.search split into
named steps without getting slower; load on the machine does not change the count):

    PYTHONHASHSEED=0 PYTHONPATH=TREE valgrind --tool=callgrind python bench/_search_probe.py MODE

MODE: search (the search bot's decisions at three positions of a greedy 2-player game and one of a
3-player game, and one with an included move as an analysis searches; budget normal, i=200/d=8), none
(the same process up to the searches: subtract it). Plays catalog edition base-provisional-1."""

import dataclasses
import sys

from domain.bots import make_bot
from domain.engine import legal_moves, play_on, start
from domain.search import Budget, search
from domain.selfplay import default_setup


def positions(players: int, seed: str, at: tuple[int, ...]) -> list:
    """The states at decisions `at` of a greedy game (the bots' own seeds fixed)."""
    setup = dataclasses.replace(default_setup(players, seed), catalog_edition="base-provisional-1")
    state, _ = start(setup)
    bots = [make_bot("greedy", f"{seed}:{i}") for i in range(players)]
    out, decision, known = [], 0, None
    while not state.finished and decision <= max(at):
        moves = legal_moves(state, known)
        if decision in at:
            out.append(state)
        state, _, known = play_on(state, bots[state.turn.seat].choose(state, moves))
        decision += 1
    return out


mode = sys.argv[1]
states = positions(2, "sp-2", (5, 40, 120)) + positions(3, "sp-3", (60,))
budget = Budget(iterations=200, determinisations=8)
if mode == "search":
    chosen = []
    for n, state in enumerate(states):
        result = search(state, budget, f"sp-{n}")
        chosen.append(str(result.best.move))
    last = states[1]
    included = legal_moves(last)[-1]
    chosen.append(str(search(last, budget, "sp-include", include=included).stats(included)))
    print("\n".join(chosen))
elif mode != "none":
    raise SystemExit(f"unknown mode {mode!r}: search or none")
