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
def version() -> None:
    """Print the version of the galileo-service distribution."""
    typer.echo(package_version("galileo-service"))
