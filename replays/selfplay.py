"""`galileo selfplay`: complete bot games with a progress bar, per-game results and totals."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from domain.events import GameEnded
from domain.options import Options
from domain.selfplay import GameRecord, selfplay


def game_summary(index: int, record: GameRecord) -> dict[str, Any]:
    """One game's result: seed, winners, scores with points by source, turns and events."""
    state = record.state
    ended = record.events[-1]
    assert isinstance(ended, GameEnded)
    return {
        "game": index,
        "seed": record.setup.seed,
        "winners": [state.players[s].name for s in ended.winners],
        "scores": {
            p.name: {"character": p.character, "score": p.score, "by_source": dict(p.points)}
            for p in state.players
        },
        "turns": record.turns,
        "rounds": record.turns // len(state.players),
        "decisions": record.decisions,
        "events": len(record.events),
        **({"difficulty": record.setup.difficulty or "normal"} if _solo_luna(record) else {}),
    }


def _solo_luna(record: GameRecord) -> bool:
    return len(record.setup.seats) == 1 and bool(record.setup.options.get("luna"))


def solo_totals(summaries: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The solo games' figures: how often the person's seat (a bot here) beat Tycho Brahe (SOLO-27)."""
    solo = [g for g in summaries if any(s["character"] == "tycho" for s in g["scores"].values())]
    if not solo:
        return None
    won = sum(1 for g in solo if any(g["scores"][n]["character"] != "tycho" for n in g["winners"]))
    person = [s["score"] for g in solo for s in g["scores"].values() if s["character"] != "tycho"]
    tycho = [s["score"] for g in solo for s in g["scores"].values() if s["character"] == "tycho"]
    return {
        "games": len(solo),
        "difficulty": sorted({g.get("difficulty") or "base" for g in solo}),
        "person_wins": won,
        "person_win_rate": round(won / len(solo), 3),
        "mean_person_score": round(statistics.mean(person), 2),
        "mean_tycho_score": round(statistics.mean(tycho), 2),
    }


def totals(summaries: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    wins: dict[str, float] = {}
    scores: list[int] = []
    for g in summaries:
        for name in g["winners"]:
            wins[name] = wins.get(name, 0) + 1
        scores += [s["score"] for s in g["scores"].values()]
    solo = solo_totals(summaries)
    return {
        **({"solo": solo} if solo is not None else {}),
        "games": len(summaries),
        "wins_by_seat": dict(sorted(wins.items())),
        "mean_score": round(statistics.mean(scores), 2) if scores else 0,
        "mean_turns": round(statistics.mean(g["turns"] for g in summaries), 2) if summaries else 0,
        "mean_events": round(statistics.mean(g["events"] for g in summaries), 2) if summaries else 0,
        "seconds": round(seconds, 3),
        "games_per_second": round(len(summaries) / seconds, 2) if seconds else 0,
    }


def run_selfplay(
    players: int,
    games: int,
    seed: str,
    bot: str,
    on_game: Callable[[int, GameRecord], None] | None = None,
    play: Callable[[int, str, str], tuple[str | None, GameRecord]] | None = None,
    options: Options | None = None,
    side: str | None = None,
    difficulty: str | None = None,
    characters: tuple[str, ...] = (),
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Play `games` games with seeds `<seed>-<i>`; `on_game` sees each record (progress, storage).

    `play(players, seed, bot)` plays one game and gives its stored game ID (None when not stored)
    and record; by default the game is played in memory only."""
    summaries = []
    began = time.perf_counter()
    for i in range(games):
        game_id, record = (
            play(players, f"{seed}-{i}", bot)
            if play
            else (None, selfplay(players, f"{seed}-{i}", bot, options, side, difficulty, characters))
        )
        summary = game_summary(i, record)
        if game_id is not None:
            summary["game_id"] = game_id
        summaries.append(summary)
        if on_game is not None:
            on_game(i, record)
    return summaries, totals(summaries, time.perf_counter() - began)
