"""The `galileo` command line: composes the service, the store, the read models and the tools from the top
layer (`python -m api.cli`, or the `galileo` console script)."""

from __future__ import annotations

import json
import os
import secrets
from importlib.metadata import version as package_version
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from replays.service import Games

app = typer.Typer(
    help="Galileo Galilei game service: run the server, replay and verify games.", no_args_is_help=True
)

DATA_DIR = Path("data")
GAME = typer.Argument(..., help="Game ID (see `galileo games`).")
JSON = typer.Option(False, "--json", help="Print JSON instead of tables.")
LANG = typer.Option(
    None,
    "--lang",
    help="The language of the words: en, ja or zh-Hans (docs/i18n.md) \\[default: LC_ALL / LANG, else en].",
)


def _locale(lang: str | None) -> str:
    """--lang, else the environment's language (LC_ALL, LC_MESSAGES, LANG: "ja_JP.UTF-8" → "ja")."""
    import os

    from projections.i18n import available, match

    if lang:
        found = match(lang, available())
        if found is None:
            raise typer.BadParameter(f"speaks {', '.join(available())}", param_hint="--lang")
        return found
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "").split(".")[0]
        if value and value not in ("C", "POSIX"):
            return match(value, available()) or "en"
    return "en"


@app.callback()
def main(
    ctx: typer.Context,
    db: str = typer.Option(
        None,
        "--db",
        envvar="GALILEO_DATABASE_URL",
        help="Event store: sqlite:///path.db or postgresql://user@host:port/db (default sqlite:///./data/galileo.db).",
    ),
) -> None:
    """Galileo Galilei game service: run the server, replay and verify games."""
    ctx.obj = db


def _games(ctx: typer.Context) -> Games:
    from replays.service import Games

    return Games(ctx.obj)


def _fail(message: str, code: int = 1) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


def _echo_json(value: Any) -> None:
    import orjson

    typer.echo(orjson.dumps(value, option=orjson.OPT_INDENT_2).decode())


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8000, help="Port to listen on."),
) -> None:
    """Run the HTTP service (embedded SQLite store under ./data/ unless configured otherwise)."""
    import uvicorn

    from api.accounts import AccountStore
    from api.connections import uvicorn_options
    from api.crypto import KeyringError
    from api.settings import Settings
    from api.tables import open_tables

    DATA_DIR.mkdir(parents=True, exist_ok=True)
    settings = Settings.from_env()
    try:  # the keys must open the secrets the database holds (and seal those kept in clear by older releases)
        tables = open_tables(settings)
        try:
            AccountStore(settings.database_url, tables.keyring).close()
        finally:
            tables.close()
    except KeyringError as error:
        raise _fail(f"encryption keys: {error}", 2) from None
    # On SIGTERM, requests in flight get GALILEO_SHUTDOWN_GRACE_SECONDS to finish; then the live streams,
    # which never end by themselves, are closed (their clients resume with Last-Event-ID) and it exits.
    uvicorn.run(
        "api.app:app",
        host=host,
        port=port,
        timeout_graceful_shutdown=settings.shutdown_grace_seconds,
        **uvicorn_options(settings),
    )


@app.command()
def keygen() -> None:
    """Print a new encryption key (for GALILEO_ENCRYPTION_KEYS or a line of GALILEO_ENCRYPTION_KEY_FILE;
    docs/operations.md, "Secrets at rest"): to rotate, put it first and keep the old key after it."""
    from api.crypto import new_key

    typer.echo(new_key())


@app.command()
def selfplay(
    ctx: typer.Context,
    players: int = typer.Option(3, "--players", "-p", min=2, max=4, help="Seats per game (2-4)."),
    games: int = typer.Option(1, "--games", "-n", min=1, help="How many games to play."),
    seed: str = typer.Option("selfplay", help="Base seed; game i uses '<seed>-<i>'."),
    bot: str = typer.Option(
        "greedy",
        help="Bot for every seat: greedy, random, or the search bot mcts[:fast|normal|strong].",
    ),
    json_output: bool = typer.Option(False, "--json", help="Print one JSON document instead of tables."),
    store: bool = typer.Option(False, "--store", help="Play through the event store and keep the games."),
    luna: bool = typer.Option(
        False, "--luna", help="Play with the Luna expansion (the Moon, Grand Inquisitors)."
    ),
    solo: bool = typer.Option(
        False, "--solo", help="The solo game: one bot against Tycho Brahe, who plays by his rules (SOLO-27)."
    ),
    difficulty: str = typer.Option(
        None,
        "--difficulty",
        help="Solo with Luna: easy, normal, hard or flaming (SOLO-2) \\[default: normal].",
    ),
    side: str = typer.Option(
        None,
        "--side",
        help="Character sides: basic, ability, or mixed (alternating from seat 0) "
        "\\[default: basic; ability in the solo game, SOLO-26].",
    ),
    characters: str = typer.Option(
        "", "--characters", help="Comma-separated characters for the seats in order (e.g. newton,hevelius)."
    ),
) -> None:
    """Play complete bot games and print per-game results (points by source) and totals; with --solo,
    the bot's win rate against Tycho Brahe."""
    import orjson
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from domain.bots import bot_kind_error
    from replays.selfplay import run_selfplay

    if bot_kind_error(bot):
        raise typer.BadParameter(bot_kind_error(bot) or "", param_hint="--bot")
    from domain.expansions.solo.data import DIFFICULTIES

    if side is not None and side not in ("basic", "ability", "mixed"):
        raise typer.BadParameter("use basic, ability or mixed", param_hint="--side")
    from domain.options import Options
    from domain.setup import characters as all_characters

    if difficulty is not None and not (solo and luna):
        raise typer.BadParameter(
            "difficulty levels are the solo game's with Luna (SOLO-2)", param_hint="--difficulty"
        )
    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise typer.BadParameter(f"use one of {', '.join(DIFFICULTIES)}", param_hint="--difficulty")
    if solo:
        players = 1  # SOLO-27: one seat against Tycho Brahe
    chosen = tuple(ch.strip() for ch in characters.split(",") if ch.strip())
    unknown = [ch for ch in chosen if ch not in all_characters()]
    if unknown or len(set(chosen)) != len(chosen):
        known = ", ".join(all_characters())
        raise typer.BadParameter(f"distinct characters of {known}", param_hint="--characters")
    options = Options.from_json({"luna": luna})
    console = Console(stderr=json_output)
    with Progress(console=console, transient=True, disable=json_output) as progress:
        task = progress.add_task(f"{games} game(s), {players} {bot} bots", total=games)
        service = _games(ctx) if store else None
        play = None
        if service is not None:
            from replays.playout import stored_selfplay

            def play(n: int, game_seed: str, kind: str) -> tuple[str | None, Any]:
                return stored_selfplay(service, n, game_seed, kind, options, side, difficulty, chosen)

        try:
            summaries, total = run_selfplay(
                players,
                games,
                seed,
                bot,
                lambda i, r: progress.advance(task),
                play=play,
                options=options,
                difficulty=difficulty,
                side=side,
                characters=chosen,
            )
        finally:
            if service is not None:
                service.close()
    if json_output:
        typer.echo(orjson.dumps({"games": summaries, "totals": total}, option=orjson.OPT_INDENT_2).decode())
        return
    table = Table(title=f"Self-play: {players} players, {bot} bots")
    for column in ("game", "seed", "winner", "scores (points by source)", "turns", "events"):
        table.add_column(column, overflow="fold")
    for g in summaries:
        scores = "\n".join(
            f"{name} ({s['character']}): {s['score']}  "
            + " ".join(f"{k}={v}" for k, v in s["by_source"].items())
            for name, s in g["scores"].items()
        )
        label = f"{g['game']}\n{g['game_id']}" if "game_id" in g else str(g["game"])
        table.add_row(label, g["seed"], ", ".join(g["winners"]), scores, str(g["turns"]), str(g["events"]))
    console.print(table)
    console.print(
        f"[bold]totals[/bold]: {total['games']} games, wins {total['wins_by_seat']}, mean score "
        f"{total['mean_score']}, mean turns {total['mean_turns']}, mean events {total['mean_events']}, "
        f"{total['games_per_second']} games/s"
    )
    if "solo" in total:
        figures = total["solo"]
        console.print(
            f"[bold]solo[/bold] ({', '.join(figures['difficulty'])}): the {bot} bot beat Tycho Brahe in "
            f"{figures['person_wins']} of {figures['games']} games ({figures['person_win_rate']:.0%}); "
            f"mean scores {figures['mean_person_score']} vs {figures['mean_tycho_score']}"
        )


@app.command()
def tournament(
    bots: str = typer.Option(
        "greedy,mcts",
        "--bots",
        "-b",
        help="Bot kinds, comma-separated: greedy, random, mcts[:fast|normal|strong|<budget>]. With fewer "
        "bots than seats the first fills the rest (greedy,mcts with 4 players: mcts against three greedy).",
    ),
    players: int = typer.Option(2, "--players", "-p", min=2, max=4, help="Seats per game (2-4)."),
    games: int = typer.Option(
        20, "--games", "-n", min=1, help="Games to play (each deal once per seat rotation)."
    ),
    seed: str = typer.Option("tournament", help="Base seed; deal d uses '<seed>-<d>'."),
    jobs: int = typer.Option(
        1, "--jobs", "-j", min=1, help="Worker processes (results do not depend on it)."
    ),
    side: str = typer.Option(None, help="Characters' side for every seat: basic, ability or mixed."),
    luna: bool = typer.Option(False, "--luna", help="Play with the Luna expansion."),
    json_output: bool = typer.Option(False, "--json", help="Print one JSON document instead of tables."),
) -> None:
    """Seat-rotated bot matches: win rates with 95% Wilson intervals, top-scorer counts, mean score
    margins and a Bradley-Terry rating table (docs/analysis.md, "Tournament")."""
    import time

    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from replays.tournament import lineup_of, play_games, report

    kinds = [k.strip() for k in bots.split(",") if k.strip()]
    try:
        lineup = lineup_of(kinds, players)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--bots") from None
    if side is not None and side not in ("basic", "ability", "mixed"):
        raise typer.BadParameter("use basic, ability or mixed", param_hint="--side")
    console = Console(stderr=json_output)
    began = time.perf_counter()
    with Progress(console=console, transient=True, disable=json_output) as progress:
        task = progress.add_task(f"{games} game(s): {', '.join(lineup)}", total=games)
        results = play_games(
            kinds,
            players,
            games,
            seed,
            jobs=jobs,
            side=side,
            luna=luna,
            on_game=lambda r: progress.advance(task),
        )
    document = report(kinds, players, games, seed, results, time.perf_counter() - began)
    if json_output:
        _echo_json(document)
        return
    table = Table(
        title=f"Tournament: {players} players, {games} games, seed {seed!r} (lineup {', '.join(lineup)})"
    )
    for column in ("bot", "games", "win rate", "95% CI", "top", "margin", "rating", "ms/move"):
        table.add_column(column, justify="left" if column == "bot" else "right", no_wrap=True)
    for k in document["standings"]:
        table.add_row(
            k["kind"],
            str(k["seat_games"]),
            f"{k['win_rate']:.1%}",
            f"{k['interval95'][0]:.0%}-{k['interval95'][1]:.0%}",
            str(k["top"]),
            f"{k['mean_margin']:+.1f}",
            f"{k['rating']:.0f}",
            f"{k['ms_per_decision']:.1f}",
        )
    console.print(table)
    console.print(
        f"{len(results)} games in {document['seconds']} s. games: seat-games; win rate: wins per seat-game "
        "(co-winners share) with its 95% Wilson interval; top: games as top scorer; margin: mean score minus "
        f"the best other seat's; rating: Bradley-Terry on the Elo scale, {lineup[0]} at 1500."
    )


@app.command()
def train(
    seed: str = typer.Option(
        "train", "--seed", help="Base seed: the games, samples and weights follow from it."
    ),
    games: int = typer.Option(40, "--games", "-n", min=1, help="Greedy self-play games of round 0."),
    rounds: int = typer.Option(
        3, "--rounds", min=1, help="Rounds: greedy games, then search games valued by the last model."
    ),
    search_games: int = typer.Option(
        None, "--search-games", min=1, help="Search games per later round \\[default: games // 4]."
    ),
    budget: str = typer.Option("i=24/d=2", "--budget", help="The later rounds' search budget (mcts levels)."),
    players: int = typer.Option(2, "--players", "-p", min=2, max=4, help="Seats per game (2-4)."),
    out: str = typer.Option(
        None, "--out", "-o", help="Where to write the model \\[default: the shipped domain/catalog/models/]."
    ),
) -> None:
    """Fit the learned evaluation from self-play (docs/learned-evaluation.md) and write its model file;
    reproducible: one seed and the same options give the same bytes."""
    import time

    from rich.console import Console

    import domain
    from domain.learned import MODEL
    from domain.search import parse_budget
    from domain.training import train as fit_model

    try:
        chosen = parse_budget(budget)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--budget") from None
    console = Console(stderr=True)
    began = time.process_time()

    def progress(r: int, game: int, count: int) -> None:
        console.print(f"round {r}: game {game}/{count}", end="\r")

    model = fit_model(
        seed,
        games,
        players=players,
        rounds=rounds,
        search_games=search_games,
        budget=chosen,
        progress=progress,
    )
    target = Path(out) if out else Path(domain.__file__).parent / "catalog" / "models" / f"{MODEL}.json"
    target.write_text(model.to_text(), encoding="utf-8")
    trained = dict(model.trained)
    console.print(
        f"{model.version}: {trained['samples']} samples, {rounds} round(s), "
        f"{time.process_time() - began:.1f} CPU s; written to {target}"
    )


@app.command()
def analyse(
    ctx: typer.Context,
    game: str = typer.Argument(..., help="Game ID (see `galileo games`) or an export file (docs/export.md)."),
    viewer: int = typer.Option(
        None,
        "--viewer",
        min=0,
        max=3,
        help="Analyse what this seat could see (required for a running game) \\[default: each decision "
        "from its acting seat's view; a finished game only].",
    ),
    budget: str = typer.Option(
        "normal", "--budget", help="fast, normal, strong, or iterations=N[,determinisations=N][,horizon=N]."
    ),
    seed: str = typer.Option("analysis", help="The search's seed (same seed and budget: same analysis)."),
    json_output: bool = typer.Option(False, "--json", help="Print the analysis document (docs/analysis.md)."),
) -> None:
    """Evaluate every decision of a game with the search bot, from what the seat could see: win
    probability and expected margin before and after each move, the best alternative, mistakes,
    accuracy per seat and the turning points (docs/analysis.md)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from domain.analysis import analyse_game
    from domain.search import parse_budget

    try:
        chosen = parse_budget(budget)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--budget") from None
    events = _analysis_events(ctx, game, viewer)
    console = Console(stderr=json_output)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(f"analysing {game} ({chosen.label})", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        try:
            analysis = analyse_game(events, viewer=viewer, budget=chosen, seed=seed, progress=advance)
        except ValueError as exc:
            raise _fail(str(exc)) from None
    document = analysis.as_dict()
    if json_output:
        _echo_json(document)
        return
    from projections.render import analysis_tables

    for table in analysis_tables(document, game):
        console.print(table)


def _analysis_events(ctx: typer.Context, game: str, viewer: int | None) -> list[Any]:
    """The events of a stored game, or of an export file (a complete one, or a running game's file for
    the seat it was exported for: its redacted events cannot be replayed)."""
    path = Path(game)
    if path.is_file():
        from domain import event_from_dict
        from replays.export import parse

        try:
            log = parse(path.read_bytes())
            if not log.header.get("complete"):
                raise ValueError(
                    "a redacted export cannot be replayed: analyse the stored game with --viewer"
                )
            return [event_from_dict(r.event, r.meta.get("engine_version")) for r in log.records]
        except ValueError as exc:
            raise _fail(f"{path}: {exc}") from None
    with _games(ctx) as service:
        try:
            return [stored.event for stored in service.events(game)]
        except (LookupError, ValueError) as exc:
            raise _fail(str(exc)) from None


def _seat_spec(text: str) -> Any:
    """NAME:CHARACTER[:SIDE[:ASIDE]] (`galileo new --seat`)."""
    from domain import SeatSpec

    parts = text.split(":")
    if not 2 <= len(parts) <= 4 or not all(parts[:2]):
        raise typer.BadParameter(f"expected NAME:CHARACTER[:SIDE[:ASIDE]], got {text!r}", param_hint="--seat")
    side = parts[2] if len(parts) > 2 and parts[2] else "basic"
    aside = parts[3] if len(parts) > 3 and parts[3] else None
    return SeatSpec(name=parts[0], character=parts[1], side=side, aside=aside)


def _seat_json(s: Any) -> list[Any]:
    """A seat in `new --json`: [name, character], and the side for an ability seat (CHAR-1)."""
    return [s.name, s.character] if s.side == "basic" else [s.name, s.character, s.side]


@app.command()
def new(
    ctx: typer.Context,
    players: int = typer.Option(
        2, "--players", "-p", min=2, max=4, help="Seats (2-4), named P1.. with the base characters."
    ),
    seat: Annotated[
        list[str] | None,
        typer.Option(
            "--seat",
            help="NAME:CHARACTER[:SIDE[:ASIDE]] for each seat, in order (overrides --players); SIDE is "
            "basic or ability (CHAR-1), ASIDE Kepler's set-aside tile (AMB-30).",
        ),
    ] = None,
    side: str = typer.Option(
        "basic", "--side", help="Every seat's side without --seat (CHAR-1): basic, ability or mixed."
    ),
    seed: str = typer.Option(None, help="Secret seed of the deal \\[default: random]."),
    first_seat: int = typer.Option(None, "--first-seat", help="Seat that starts \\[default: drawn]."),
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="Rule option NAME=VALUE (JSON value), e.g. dieMax=6."),
    ] = None,
    json_output: bool = JSON,
) -> None:
    """Create a game and print its ID (seat tokens come with the HTTP API)."""
    from domain import IllegalMove, Options, Setup
    from domain.selfplay import default_setup

    try:
        options = Options.from_json({k: json.loads(v) for k, v in (_pair(o) for o in option or [])})
    except ValueError as exc:
        raise _fail(str(exc)) from None
    if side is not None and side not in ("basic", "ability", "mixed"):
        raise typer.BadParameter("use basic, ability or mixed", param_hint="--side")
    seats = tuple(_seat_spec(s) for s in seat) if seat else default_setup(players, "", side=side).seats
    setup = Setup(seats=seats, seed=seed or secrets.token_hex(16), first_seat=first_seat, options=options)
    with _games(ctx) as games:
        try:
            game_id, version = games.create(setup, actor="cli")
        except IllegalMove as exc:
            raise _fail(f"{exc.message} [{exc.rule_id}]") from None
    if json_output:
        _echo_json({"game_id": game_id, "version": version, "seats": [_seat_json(s) for s in seats]})
        return
    typer.echo(f"game {game_id} created at version {version}")
    for i, s in enumerate(seats):
        typer.echo(f"  seat {i}: {s.name} ({s.character}, {s.side} side)")
    typer.echo(f"issue a seat's link with: galileo seats issue {game_id} --seat N")


@app.command("seats")
def seats_command(
    ctx: typer.Context,
    first: str = typer.Argument(..., metavar="[issue] GAME", help="A game ID, or `issue` then a game ID."),
    game: str = typer.Argument(None, metavar="", hidden=True),
    seat: int = typer.Option(None, "--seat", min=0, max=3, help="With `issue`: the seat (0-based)."),
    base_url: str = typer.Option(
        "http://127.0.0.1:8000", "--base-url", envvar="GALILEO_PUBLIC_URL", help="Base of the printed link."
    ),
    json_output: bool = JSON,
) -> None:
    """`galileo seats GAME` lists who plays each seat; `galileo seats issue GAME --seat N` issues a new
    seat link (a person's token; the seat's old token stops working), so that games made by
    `galileo new` can be played over HTTP."""
    from dataclasses import replace

    from api.seats import open_seats
    from api.settings import Settings
    from api.tables import open_tables
    from replays.table import player

    issuing = first == "issue"
    game_id = game if issuing else first
    if game_id is None or (not issuing and game is not None):
        raise _fail("usage: galileo seats GAME | galileo seats issue GAME --seat N", 2)
    if issuing and seat is None:
        raise _fail("galileo seats issue GAME needs --seat N", 2)
    url = _url(ctx)
    with _games(ctx) as service:
        try:
            aggregate = service.game(game_id)
        except LookupError as exc:
            raise _fail(str(exc)) from None
        state = aggregate.state
        assert state is not None
        tables, seat_store = open_tables(replace(Settings.from_env(), database_url=url)), open_seats(url)
        try:
            rows = {r.seat: r for r in seat_store.of_game(game_id)}
            players = [player(aggregate, i, rows.get(i)) for i in range(len(state.players))]
            hooks = tables.hooks(game_id)
            if issuing:
                token = _issue_token(service, tables, game_id, seat, players, rows)
                link = f"{base_url.rstrip('/')}/play/{game_id}#token={token}"
                if json_output:
                    _echo_json({"game_id": game_id, "seat": seat, "token": token, "link": link})
                else:
                    typer.echo(f"seat {seat} ({state.players[seat].name}): {link}")
                    typer.echo(
                        "keep it secret: the token is the seat; any earlier token of this seat stops working"
                    )
                return
        finally:
            tables.close()
            seat_store.close()
    listing = [
        {
            "seat": i,
            "name": p.name,
            "character": p.character,
            "played_by": players[i].by,
            "bot": players[i].bot,
            "token_issued": bool(rows.get(i) and rows[i].token_hash),
            "webhook": hooks[i].url if i in hooks else None,
        }
        for i, p in enumerate(state.players)
    ]
    if json_output:
        _echo_json({"game_id": game_id, "seats": listing})
        return
    for entry, played in zip(listing, players, strict=True):
        typer.echo(_seat_line(entry, played.server))


def _issue_token(
    service: Any, tables: Any, game_id: str, seat: int, players: list[Any], rows: dict[int, Any]
) -> str:
    """`galileo seats issue`: a new person's token for `seat`, stored hashed; when the seat had one, the
    re-issue is a fact of the game's log (ASYNC-9), stored with the new token. The new token."""
    import uuid

    from api.seats import HUMAN, REISSUED, rewritten_seat
    from api.tables import stamp
    from api.tokens import new_token, token_hash
    from replays.errors import TableRefused
    from replays.service import OPERATOR
    from replays.table import reissue_batch

    if not 0 <= seat < len(players):
        raise _fail(f"the game has no seat {seat} (0..{len(players) - 1})")
    if players[seat].server:
        raise _fail(f"seat {seat} is played by the server; its host can hand it to a person")
    token = new_token()
    old = rows[seat].token_hash if seat in rows else None
    if old is None:  # the seat's first link: nothing to revoke
        tables.set_seat(game_id, seat, HUMAN, None, token_hash(token))
    else:
        try:
            service.table(
                game_id,
                {"type": "ReissueLink", "seat": seat},
                reissue_batch(seat),
                f"reissue:{uuid.uuid4().hex}",
                OPERATOR,
                rows=lambda version: rewritten_seat(
                    game_id, seat, token_hash(token), old, version, REISSUED, stamp(service.now())
                ),
            )
        except TableRefused as refused:
            raise _fail(f"{refused.message} ({refused.rule})") from None
    return token


def _seat_line(entry: dict[str, Any], server: bool) -> str:
    """One seat of `galileo seats GAME` in words."""
    token = "token issued" if entry["token_issued"] else "no token (galileo seats issue)"
    return (
        f"seat {entry['seat']}: {entry['name']} ({entry['character']}), {entry['played_by']}"
        + (f" ({entry['bot']})" if entry["bot"] else "")
        + (f", {token}" if not server else "")
        + (f", webhook {entry['webhook']}" if entry["webhook"] else "")
    )


def _pair(text: str, sep: str = "=") -> tuple[str, str]:
    name, found, value = text.partition(sep)
    if not found or not name:
        raise typer.BadParameter(f"expected NAME{sep}VALUE, got {text!r}")
    return name, value


@app.command()
def games(ctx: typer.Context, json_output: bool = JSON) -> None:
    """List the stored games, oldest first."""
    with _games(ctx) as service:
        found = service.list_games()
    if json_output:
        _echo_json(
            [
                {
                    "game_id": g.game_id,
                    "created_at": g.created_at,
                    "status": g.status,
                    "winners": list(g.winners),
                    "seats": g.seats,
                }
                for g in found
            ]
        )
        return
    for g in found:
        won = ", ".join(g.seats[w][0] for w in g.winners if w < len(g.seats))
        status = f"finished, won by {won}" if g.status == "finished" else "active"
        seats = ", ".join(f"{n} ({c})" for n, c in g.seats)
        typer.echo(f"{g.game_id}  {g.created_at}  {status:<28}  {seats}")


@app.command()
def show(
    ctx: typer.Context,
    game: str = GAME,
    at: int = typer.Option(None, "--at", help="Version to show (0..head) \\[default: now]."),
    json_output: bool = JSON,
) -> None:
    """Show a game's state at a version: scores by source, dice, positions; whose turn."""
    from rich.console import Console

    from domain import dump_state, public_state
    from projections.render import state_summary, state_table

    with _games(ctx) as service:
        try:
            state = service.state(game, at)
            head = service.head(game)
            over = service.state(game).finished  # type: ignore[union-attr]
        except (LookupError, ValueError) as exc:
            raise _fail(str(exc)) from None
    version = head if at is None else at
    if state is None:
        typer.echo(f"version 0 of {game}: no events yet (a game begins with GameStarted, version 1)")
        return
    if json_output:
        # The hidden deal is shown only once the game is over.
        _echo_json(
            {"game_id": game, "version": version, "state": dump_state(state) if over else public_state(state)}
        )
        return
    console = Console()
    console.print(state_table(state, f"game {game} at version {version} of {head}"))
    console.print(state_summary(state))


@app.command()
def log(
    ctx: typer.Context,
    game: str = GAME,
    after: int = typer.Option(0, help="Show events after this version."),
    limit: int = typer.Option(None, help="Show at most this many events."),
    viewer: int = typer.Option(None, help="Show what this seat may see \\[default: a spectator's view]."),
    lang: str = LANG,
    json_output: bool = JSON,
) -> None:
    """Print a game's events with who caused them, which command and which rule (no secrets before
    the end: as a spectator, or as --viewer sees them)."""
    from rich.console import Console

    from projections.render import log_table

    with _games(ctx) as service:
        try:
            lines = service.log(game, viewer, after=after, limit=limit)
        except (LookupError, ValueError) as exc:
            raise _fail(str(exc)) from None
    if json_output:
        _echo_json(lines)
        return
    title = f"game {game}: {len(lines)} event(s) after version {after}"
    Console().print(log_table(lines, title, _locale(lang)))


@app.command()
def fork(
    ctx: typer.Context,
    game: str = GAME,
    at: int = typer.Option(..., "--at", help="Copy the first N events, then fork."),
) -> None:
    """Fork a new game from a game's first N events (an unfinished game's unseen cards are re-dealt)."""
    with _games(ctx) as service:
        try:
            new_id = service.fork(game, at, actor="cli")
            version = service.head(new_id)
        except (LookupError, ValueError) as exc:
            raise _fail(str(exc)) from None
    typer.echo(f"game {new_id} forked from {game} at version {at}; now at version {version}")


@app.command("export")
def export_game(
    ctx: typer.Context,
    output: Annotated[
        Path, typer.Option("--output", "-o", help="File to write (JSON Lines, docs/export.md).")
    ],
    game: str = GAME,
    viewer: int = typer.Option(
        None, help="Seat whose view an unfinished game is exported for \\[default: spectator]."
    ),
    reveal_hidden: bool = typer.Option(
        False,
        "--reveal-hidden",
        help="Operator backup of an unfinished game, hidden deal included: keep it secret.",
    ),
) -> None:
    """Export a game to a versioned JSON Lines file (redacted unless the game is over)."""
    with _games(ctx) as service:
        try:
            data = service.export(game, viewer, reveal=reveal_hidden)
        except (LookupError, ValueError) as exc:
            raise _fail(str(exc)) from None
    output.write_bytes(data)
    typer.echo(f"wrote {output} ({len(data)} bytes)")


@app.command("import")
def import_game(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="An export file.")],
) -> None:
    """Import an export file as a new game, after verifying all of it (nothing is written otherwise)."""
    from replays.errors import ImportRejected

    with _games(ctx) as service:
        try:
            game_id = service.import_(file.read_bytes())
        except ImportRejected as exc:
            raise _fail(f"{file}: {exc}") from None
    typer.echo(f"imported {file} as game {game_id}")


@app.command()
def explain(
    ctx: typer.Context,
    game: str = GAME,
    turn: int = typer.Option(..., "--turn", min=0, help="The turn to explain (0 = the first turn)."),
    viewer: int = typer.Option(None, help="Explain what this seat may see \\[default: a spectator's view]."),
    evaluate: bool = typer.Option(
        False,
        "--evaluate",
        help="Add each decision's evaluation by the search bot (as `galileo analyse`; a running game's needs "
        "--viewer).",
    ),
    budget: str = typer.Option(
        "normal", "--budget", help="With --evaluate: the search budget (as `analyse`)."
    ),
    lang: str = LANG,
    json_output: bool = JSON,
) -> None:
    """A dispute report: one turn event by event, with each command, the legal moves it was chosen from,
    the rule behind every event and the game's verification; with --evaluate, the evaluation of each
    decision of the turn (win probability, margin, best move found, loss: docs/analysis.md)."""
    from domain.search import parse_budget
    from projections.dispute import dispute_report, render

    try:
        chosen = parse_budget(budget) if evaluate else None
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--budget") from None
    with _games(ctx) as service:
        try:
            report = dispute_report(service, game, turn, viewer, chosen, locale=_locale(lang))
        except (LookupError, ValueError) as exc:
            raise _fail(str(exc)) from None
    if json_output:
        _echo_json(report)
        return
    typer.echo(render(report))


@app.command()
def verify(
    ctx: typer.Context,
    target: str = typer.Argument(..., help="A game ID or an export file."),
    json_output: bool = JSON,
    edition: str = typer.Option(
        None,
        help="Also re-adjudicate under this rules edition ('current', or a catalog edition id) and report "
        "the first divergence as information (docs/editions.md); the exit code is unaffected.",
    ),
) -> None:
    """Verify a game or a file: hash chain, re-adjudication, fair deal. Exit 0 only when all checks pass
    (1: a problem was found, 2: a redacted file could only be partly checked)."""
    from rich.console import Console

    from domain.errors import EditionUnknown
    from projections.render import report_table
    from replays.service import verify_file

    path = Path(target)
    try:
        if path.is_file():
            report = verify_file(path.read_bytes(), str(path), edition)
        else:
            with _games(ctx) as service:
                try:
                    report = service.verify(target, edition)
                except LookupError as exc:
                    raise _fail(f"{exc} (and no such file)") from None
    except EditionUnknown as exc:
        raise _fail(str(exc)) from None
    if json_output:
        _echo_json(report.to_dict())
    else:
        console = Console()
        console.print(report_table(report))
        for finding in report.findings:
            console.print(f"[red]{finding}[/]", markup=True, highlight=False)
            # Only what the finding has: a chain finding compares hashes, not events ("expected: None").
            if finding.expected is not None:
                console.print(f"  expected: {finding.expected}", markup=False)
            if finding.stored is not None:
                console.print(f"  stored:   {finding.stored}", markup=False)
        for note in report.notes:
            console.print(f"note: {note}", markup=False)
        divergence = report.edition.divergence if report.edition is not None else None
        if divergence is not None and (divergence.expected is not None or divergence.stored is not None):
            console.print(f"  expected: {divergence.expected}\n  recorded: {divergence.stored}", markup=False)
    raise typer.Exit(report.exit_code)


projections_app = typer.Typer(
    help="Materialised views (lobby, statistics): run them, rebuild them, see where they are.",
    no_args_is_help=True,
)
app.add_typer(projections_app, name="projections")


def _url(ctx: typer.Context) -> str:
    from replays.service import database_url

    return str(ctx.obj or database_url())


@projections_app.command("run")
def projections_run(
    ctx: typer.Context,
    interval: float = typer.Option(1.0, min=0.05, help="SQLite: seconds between polls for other processes."),
) -> None:
    """Keep every view up to date until interrupted (the `projector` service; `galileo serve` runs them
    in-process unless GALILEO_PROJECTIONS=off)."""
    import logging

    from projections.projector import run_forever

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    typer.echo(f"projections running on {_url(ctx).partition('://')[0]}; Ctrl-C to stop", err=True)
    run_forever(_url(ctx), interval)


clocks_app = typer.Typer(help="Clocks and turn notifications (docs/async.md).", no_args_is_help=True)
app.add_typer(clocks_app, name="clocks")


@clocks_app.command("run")
def clocks_run(ctx: typer.Context) -> None:
    """Run the clock scheduler (records TimeExpired, hands seats to bots), the webhook deliveries and
    the bots of seats taken over, until interrupted (compose's `clocks` service; `galileo serve` runs
    them in-process unless GALILEO_CLOCKS=off)."""
    import asyncio
    import logging
    import signal
    from dataclasses import replace

    from api.runtime import Runtime
    from api.settings import Settings

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = replace(Settings.from_env(), database_url=_url(ctx), projections=False, clocks=True)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        runtime = Runtime.build(settings)
        await runtime.start()
        typer.echo(f"clocks running on {settings.database_url.partition('://')[0]}; Ctrl-C to stop", err=True)
        try:
            await stop.wait()
        finally:
            await runtime.stop()

    asyncio.run(main())


@app.command()
def worker(
    ctx: typer.Context,
    redis_url: str = typer.Option(
        None, "--redis", envvar="REDIS_URL", help="The Redis of the job queue, e.g. redis://127.0.0.1:6379/0."
    ),
    heartbeat: int = typer.Option(10, min=1, help="Seconds between the heartbeats of a running job."),
    abandon_after: int = typer.Option(
        30, min=1, help="A running job without a heartbeat for this many seconds more is re-queued."
    ),
    burst: bool = typer.Option(False, "--burst", help="Stop once the queue is empty."),
    name: str = typer.Option(None, help="The worker's name in rq (default: a random one)."),
) -> None:
    """Run game analyses from the Redis job queue until interrupted (compose's `worker` service; add
    processes to analyse more games at once). Each job runs in a child process; a job whose worker dies
    is re-queued and run again by another worker, and its result is stored once (docs/analysis-api.md).
    Without Redis, `galileo serve` analyses on threads of its own and needs no worker."""
    import logging

    from replays.jobs import WorkerContext, WorkerSettings, engine_analyser, run_worker

    if not redis_url:
        raise _fail("the job queue needs Redis: --redis URL or REDIS_URL")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = WorkerSettings(
        heartbeat_seconds=heartbeat,
        abandon_after=abandon_after,
        maintenance_seconds=max(heartbeat, abandon_after),
        burst=burst,
        name=name,
    )
    typer.echo(f"analysis worker on {_url(ctx).partition('://')[0]}; Ctrl-C to stop", err=True)
    run_worker(redis_url, WorkerContext(_url(ctx), engine_analyser()), settings)


@projections_app.command("rebuild")
def projections_rebuild(
    ctx: typer.Context,
    name: str = typer.Argument(None, help="lobby or stats \\[default: every view]."),
) -> None:
    """Drop a view and rebuild it from event 1, with a progress bar."""
    import time

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from projections.projector import SPECS, head, rebuild

    if name is not None and name not in SPECS:
        raise typer.BadParameter(f"one of {', '.join(SPECS)}", param_hint="NAME")
    url = _url(ctx)
    end = head(url)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns) as progress:
        for view in [name] if name else list(SPECS):
            task = progress.add_task(f"{view:<6}", total=end or 1)
            began = time.perf_counter()

            def advance(position: int, task: Any = task) -> None:
                progress.update(task, completed=position)

            count = rebuild(url, view, advance)
            progress.update(task, completed=end or 1)
            seconds = time.perf_counter() - began
            progress.console.print(f"{view}: {count} event(s) of {end} in {seconds:.1f} s")


@projections_app.command("status")
def projections_status(ctx: typer.Context, json_output: bool = JSON) -> None:
    """Where each view stands in the store's notification log."""
    from rich.console import Console
    from rich.table import Table

    from projections.projector import status

    found = status(_url(ctx))
    if json_output:
        _echo_json(found)
        return
    table = Table(title="projections")
    for column in ("view", "position", "log end", "what"):
        table.add_column(column)
    for v in found:
        table.add_row(v["name"], str(v["position"]), str(v["log_end"]), v["description"])
    Console().print(table)


@app.command()
def stats(
    ctx: typer.Context,
    players: int = typer.Option(None, "--players", "-p", min=1, max=4, help="Only games of this many seats."),
    luna: bool = typer.Option(None, "--luna/--no-luna", help="Only games with (or without) Luna."),
    seats: str = typer.Option(None, help="Only games of bots, humans or mixed seats."),
    edition: str = typer.Option(None, help="Only games of this catalog edition."),
    forks: bool = typer.Option(False, "--forks", help="Count forked games too."),
    imports: bool = typer.Option(True, "--imports/--no-imports", help="Count imported games."),
    solo: bool = typer.Option(
        None, "--solo/--no-solo", help="Only solo games against Tycho Brahe (or none)."
    ),
    difficulty: str = typer.Option(
        None, help="Only solo games of this level: base, easy, normal, hard or flaming (SOLO-2)."
    ),
    bin_width: int = typer.Option(10, min=1, help="Width of the score distribution's bins."),
    update: bool = typer.Option(True, help="Bring the view up to date first (else read it as it is)."),
    json_output: bool = JSON,
) -> None:
    """Statistics across finished games: characters, points by source, scores, length, first seat."""
    from rich.console import Console

    from projections.projector import open_stats
    from projections.projector import update as update_view
    from projections.report import stats_tables
    from projections.stats import Filters

    try:
        filters = Filters(
            players=players,
            luna=luna,
            seats=seats,
            edition=edition,
            forks=forks,
            imports=imports,
            solo=solo,
            difficulty=difficulty,
        )
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    url = _url(ctx)
    if update:
        update_view(url, "stats")
    view = open_stats(url)
    try:
        result = view.compute(filters, bin_width)
    finally:
        view.close()
    if json_output:
        _echo_json(result)
        return
    console = Console()
    for part in stats_tables(result):
        console.print(part)


@app.command()
def plot(
    ctx: typer.Context,
    output: Annotated[Path, typer.Option("--output", "-o", help="SVG file to write.")],
    game: str = GAME,
) -> None:
    """Draw a game's score timeline (one line per seat over the turns) and its points by source as SVG."""
    from projections.svg import render_timeline
    from projections.timeline import timeline

    with _games(ctx) as service:
        try:
            events = [s.event for s in service.events(game)]
        except LookupError as exc:
            raise _fail(str(exc)) from None
    data = timeline(events)
    output.write_text(render_timeline(data, f"game {game}"), encoding="utf-8")
    scores = ", ".join(f"{s['name']} {score}" for s, score in zip(data["seats"], data["scores"], strict=True))
    typer.echo(f"wrote {output}: {data['turns']} turns; {scores}")


def _environment_language() -> str:
    """The terminal's language, POSIX order: LC_ALL, LC_MESSAGES, LANG ("ja_JP.UTF-8" -> "ja_JP")."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "").split(".")[0]
        if value and value not in {"C", "POSIX"}:
            return value
    return "en"


@app.command()
def rules(
    rule_id: str = typer.Argument(None, help="A rule ID such as MOV-1 or CHAR-GAL-2; omit to list."),
    search: str = typer.Option(None, "--search", "-s", help="List the rules whose text has every word."),
    json_output: bool = JSON,
    lang: str = typer.Option(
        None,
        "--lang",
        help="The language of titles and texts: en, ja or zh-Hans (default: from LANG / LC_ALL, else en).",
    ),
) -> None:
    """The rules reference (docs/rules/): one rule's text, source and edition values, or the list of rules
    (all, or those matching --search). Every rule ID in errors, events and dispute reports is here.
    In English, Japanese or Simplified Chinese (--lang)."""
    from rich.console import Console

    from rulebook import LOCALES, UnknownRule, locale_of, reference
    from rulebook.console import rule_panel, rules_table
    from rulebook.labels import label

    if lang is not None and lang not in LOCALES and locale_of(lang) == "en" and not lang.startswith("en"):
        raise _fail(f"--lang {lang!r}: the rules reference is in {', '.join(LOCALES)}")
    ref = reference(locale_of(lang if lang is not None else _environment_language()))
    if rule_id is not None:
        try:
            found = ref.get(rule_id)
        except UnknownRule as exc:
            raise _fail(str(exc)) from None
        if json_output:
            _echo_json(ref.to_json(found))
        else:
            Console().print(rule_panel(found, ref))
        return
    listed = ref.search(search) if search else list(ref)
    if json_output:
        _echo_json([{"id": r.id, "title": r.title, "kind": r.kind, "url": r.url} for r in listed])
        return
    if not listed:
        raise _fail(f"no rule matches {search!r}")
    title = label(ref.locale, "rules_count", count=len(listed)) + (
        label(ref.locale, "matching", query=repr(search)) if search else ""
    )
    Console().print(rules_table(listed, ref, title))


@app.command()
def version() -> None:
    """Print the version of the galileo-service distribution."""
    typer.echo(package_version("galileo-service"))


if __name__ == "__main__":
    app()
