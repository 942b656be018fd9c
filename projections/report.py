"""The statistics as rich tables (`galileo stats`)."""

from __future__ import annotations

from typing import Any

from rich.table import Table

BAR = 40  # characters of the longest bar in the score distribution


def stats_tables(stats: dict[str, Any]) -> list[Table | str]:
    """Tables (and lines) that print the result of `StatsView.compute`."""
    chosen = {k: v for k, v in stats["filters"].items() if v not in (None, False)}
    heading = ", ".join(f"{k}={v}" for k, v in chosen.items()) or "all games"
    out: list[Table | str] = [
        f"[bold]{stats['games']}[/bold] finished game(s) ({heading}); {stats['in_progress']} in progress"
    ]
    if not stats["games"]:
        return out
    out += [_characters(stats), _sources(stats), _positions(stats), _distribution(stats)]
    length = stats["length"]
    out.append(
        f"length: mean {length['mean_turns']:.1f} turns (median {length['median_turns']:g}, "
        f"{length['mean_rounds']:.1f} rounds), mean {length['mean_events']:.0f} events"
    )
    return out


def _characters(stats: dict[str, Any]) -> Table:
    table = Table(title="characters (a shared win counts for every winner)")
    for column in ("character", "games", "wins", "win rate", "mean score", "median score"):
        table.add_column(column, justify="left" if column == "character" else "right")
    for c in stats["characters"]:
        table.add_row(
            c["character"],
            str(c["games"]),
            str(c["wins"]),
            f"{c['win_rate']:.1%}",
            f"{c['mean_score']:.1f}",
            f"{c['median_score']:g}",
        )
    return table


def _sources(stats: dict[str, Any]) -> Table:
    means = stats["points_by_source"]["mean_per_seat"]
    table = Table(title="mean points by source per seat")
    table.add_column("source")
    table.add_column("all seats", justify="right")
    names = [c["character"] for c in stats["characters"]]
    for name in names:
        table.add_column(name, justify="right")
    by_character = {c["character"]: c["mean_points_by_source"] for c in stats["characters"]}
    for source, mean in sorted(means.items(), key=lambda kv: -kv[1]):
        table.add_row(source, f"{mean:.2f}", *(f"{by_character[n].get(source, 0):.2f}" for n in names))
    table.add_row("[bold]score[/bold]", f"{stats['scores']['mean']:.2f}", *("" for _ in names))
    return table


def _positions(stats: dict[str, Any]) -> Table:
    first = stats["first_seat"]
    advantage = first["advantage"]
    table = Table(
        title=f"first seat: wins {first['win_rate']:.1%}, fair share {first['fair_rate']:.1%} "
        f"({100 * advantage:+.1f} points)"
    )
    for column in ("position", "seats", "wins", "win rate", "mean score"):
        table.add_column(column, justify="right")
    for p in first["by_position"]:
        label = "first" if p["position"] == 0 else f"+{p['position']}"
        table.add_row(
            label, str(p["seats"]), str(p["wins"]), f"{p['win_rate']:.1%}", f"{p['mean_score']:.1f}"
        )
    return table


def _distribution(stats: dict[str, Any]) -> Table:
    scores = stats["scores"]
    table = Table(
        title=f"final scores: mean {scores['mean']:.1f}, median {scores['median']:g}, "
        f"range {scores['min']}..{scores['max']}"
    )
    table.add_column("score", justify="right")
    table.add_column("seats", justify="right")
    table.add_column("")
    most = max(b["seats"] for b in scores["bins"])
    for b in scores["bins"]:
        bar = "█" * round(BAR * b["seats"] / most) if most else ""
        table.add_row(f"{b['from']}..{b['to']}", str(b["seats"]), bar)
    return table
