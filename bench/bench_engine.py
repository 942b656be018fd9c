"""Rules-engine benchmarks (engine issue): decisions/s against python-chess perft nodes/s, replay
events/s, and complete greedy 4-player games/s. Ratios compare figures measured in this one run."""

from __future__ import annotations

import time

from domain import decide, evolve, legal_moves, start
from domain.bots import RandomBot
from domain.selfplay import default_setup, selfplay


def decisions_per_second(games: int = 30) -> tuple[float, int]:
    """Full checked path per decision: legal_moves + decide (validates) + evolve of its events."""
    decisions = 0
    elapsed = 0.0
    for g in range(games):
        state, _ = start(default_setup(4, f"bench-decide-{g}"))
        bots = [RandomBot(f"bench-{g}-{i}") for i in range(4)]
        while not state.finished:
            t0 = time.perf_counter()
            moves = legal_moves(state)
            t1 = time.perf_counter()
            move = bots[state.turn.seat].choose(state, moves)  # the bot's pick is not the engine's cost
            t2 = time.perf_counter()
            for event in decide(state, move):
                state = evolve(state, event)
            elapsed += (t1 - t0) + (time.perf_counter() - t2)
            decisions += 1
    return decisions / elapsed, decisions


def perft_nodes_per_second(depth: int = 3, repeat: int = 3, bulk: bool = True) -> float:
    """python-chess perft from the start position; `bulk` counts the leaves without playing them
    (the usual perft), otherwise every node is pushed and popped like one of our decisions."""
    import chess

    def perft(board: chess.Board, d: int) -> int:
        if d == 0:
            return 1
        if d == 1 and bulk:
            return board.legal_moves.count()
        nodes = 0
        for move in board.legal_moves:
            board.push(move)
            nodes += perft(board, d - 1)
            board.pop()
        return nodes

    best = 0.0
    for _ in range(repeat):
        board = chess.Board()
        t0 = time.perf_counter()
        nodes = perft(board, depth)
        best = max(best, nodes / (time.perf_counter() - t0))
    return best


def replay_events_per_second(games: int = 20) -> float:
    logs = [selfplay(4, f"bench-replay-{g}", "random").events for g in range(games)]
    total = sum(len(log) for log in logs)
    t0 = time.perf_counter()
    for log in logs:
        state = None
        for event in log:
            state = evolve(state, event)
    return total / (time.perf_counter() - t0)


def greedy_games_per_second(games: int = 10) -> float:
    t0 = time.perf_counter()
    for g in range(games):
        selfplay(4, f"bench-greedy-{g}", "greedy")
    return games / (time.perf_counter() - t0)


def main() -> None:
    dps, n = decisions_per_second()
    nps = perft_nodes_per_second()
    nps_full = perft_nodes_per_second(bulk=False)
    eps = replay_events_per_second()
    gps = greedy_games_per_second()
    print(f"engine decisions/s (legal_moves + decide + evolve, 4p random games, {n} decisions): {dps:,.0f}")
    print(f"python-chess perft(3) nodes/s from the start position: {nps:,.0f}")
    print(f"python-chess perft(3) nodes/s, every node pushed and popped: {nps_full:,.0f}")
    print(f"ratio decisions/s : perft nodes/s = {dps / nps:.3f} (bulk), {dps / nps_full:.3f} (push/pop)")
    print(f"evolve-only replay: {eps:,.0f} events/s")
    print(f"complete greedy 4-player games/s: {gps:.2f}")


if __name__ == "__main__":
    main()
