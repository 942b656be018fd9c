"""The `galileo` command line."""

from __future__ import annotations

from importlib.metadata import version as package_version
from pathlib import Path

import typer

app = typer.Typer(
    help="Galileo Galilei game service: run the server, replay and verify games.", no_args_is_help=True
)

DATA_DIR = Path("data")


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8000, help="Port to listen on."),
) -> None:
    """Run the HTTP service (embedded SQLite store under ./data/ unless configured otherwise)."""
    import uvicorn

    DATA_DIR.mkdir(parents=True, exist_ok=True)
    uvicorn.run("api.app:app", host=host, port=port)


@app.command()
def selfplay(
    players: int = typer.Option(3, "--players", "-p", min=2, max=4, help="Seats per game (2-4)."),
    games: int = typer.Option(1, "--games", "-n", min=1, help="How many games to play."),
    seed: str = typer.Option("selfplay", help="Base seed; game i uses '<seed>-<i>'."),
    bot: str = typer.Option("greedy", help="Bot for every seat: greedy or random."),
    json_output: bool = typer.Option(False, "--json", help="Print one JSON document instead of tables."),
) -> None:
    """Play complete bot games and print per-game results (points by source) and totals."""
    import orjson
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from replays.selfplay import run_selfplay

    if bot not in ("greedy", "random"):
        raise typer.BadParameter("use greedy or random", param_hint="--bot")
    console = Console(stderr=json_output)
    with Progress(console=console, transient=True, disable=json_output) as progress:
        task = progress.add_task(f"{games} game(s), {players} {bot} bots", total=games)
        summaries, total = run_selfplay(players, games, seed, bot, lambda i, r: progress.advance(task))
    if json_output:
        typer.echo(orjson.dumps({"games": summaries, "totals": total}, option=orjson.OPT_INDENT_2).decode())
        return
    table = Table(title=f"Self-play: {players} players, {bot} bots")
    for column in ("game", "seed", "winner", "scores (points by source)", "turns", "events"):
        table.add_column(column)
    for g in summaries:
        scores = "\n".join(
            f"{name} ({s['character']}): {s['score']}  "
            + " ".join(f"{k}={v}" for k, v in s["by_source"].items())
            for name, s in g["scores"].items()
        )
        table.add_row(
            str(g["game"]), g["seed"], ", ".join(g["winners"]), scores, str(g["turns"]), str(g["events"])
        )
    console.print(table)
    console.print(
        f"[bold]totals[/bold]: {total['games']} games, wins {total['wins_by_seat']}, mean score "
        f"{total['mean_score']}, mean turns {total['mean_turns']}, mean events {total['mean_events']}, "
        f"{total['games_per_second']} games/s"
    )


@app.command()
def version() -> None:
    """Print the version of the galileo-service distribution."""
    typer.echo(package_version("galileo-service"))
