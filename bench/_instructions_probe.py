"""Fixed engine workloads for counting instructions under valgrind (load on the machine does not change
the count, unlike CPU time):

    PYTHONPATH=TREE valgrind --tool=callgrind python bench/_instructions_probe.py MODE

MODE: random (two random 4-player games through legal_moves + decide + evolve), greedy (one 3-player
greedy game, the bot's lookahead included), replay (evolve-only replay of two random games, three times),
search (a random 3-player game in which the search bot, `make_bot("mcts:...")`, is asked every
SEARCH_EVERY-th decision with a small fixed budget; the random bot still plays, so the game is the same
whatever the search says), none / none-replay / none-search (the same process without the measured part:
subtract it). Both trees play catalog edition base-provisional-1, so they play the same games. Only APIs
present since the first release, and for `search` since the search bot's (issue 18)."""

import dataclasses
import sys

from domain import decide, evolve, legal_moves, start
from domain.bots import RandomBot, make_bot
from domain.selfplay import default_setup, play_game


def setup(players, seed):
    chosen = default_setup(players, seed)
    if hasattr(chosen, "catalog_edition"):
        chosen = dataclasses.replace(chosen, catalog_edition="base-provisional-1")
    return chosen


SEARCH_BUDGET = "mcts:i=40/d=4"  # iterations over determinisations: a few plies per decision asked
SEARCH_EVERY = 8


def search_game(asked: bool) -> None:
    """The random 3-player game of the `search` modes; `asked`: the search bot is asked too."""
    state, _ = start(setup(3, "ip-search"))
    bots = [RandomBot(f"ip-search-{i}") for i in range(3)]
    decisions = 0
    while not state.finished:
        moves = legal_moves(state)
        if asked and decisions % SEARCH_EVERY == 0 and len(moves) > 1:
            make_bot(SEARCH_BUDGET, f"ip-search:{decisions}").choose(state, moves)
        move = bots[state.turn.seat].choose(state, moves)
        for event in decide(state, move):
            state = evolve(state, event)
        decisions += 1


mode = sys.argv[1]
logs = None
if mode in ("replay", "none-replay"):
    logs = [
        play_game(setup(4, f"ip-replay-{g}"), [make_bot("random", f"r{g}{i}") for i in range(4)]).events
        for g in range(2)
    ]
if mode == "random":
    for g in range(2):
        state, _ = start(setup(4, f"ip-decide-{g}"))
        bots = [RandomBot(f"ip-{g}-{i}") for i in range(4)]
        while not state.finished:
            move = bots[state.turn.seat].choose(state, legal_moves(state))
            for event in decide(state, move):
                state = evolve(state, event)
elif mode == "greedy":
    play_game(setup(3, "ip-greedy"), [make_bot("greedy", f"ip-greedy:{i}") for i in range(3)])
elif mode == "replay":
    for _ in range(3):
        for log in logs:
            s = None
            for e in log:
                s = evolve(s, e)
elif mode in ("search", "none-search"):
    search_game(asked=mode == "search")
elif mode in ("none", "none-replay"):
    start(setup(4, "ip-none"))
