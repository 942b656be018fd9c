"""Request and response bodies. Requests forbid unknown fields; responses carry only public fields."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, cast, get_args

from pydantic import BaseModel, ConfigDict, Field

from domain.bots import BOT_KINDS
from domain.setup import characters

MAX_VERSION = 2**31 - 1  # the highest version a request may name (far beyond any game; SQLite's integers
# stop at 2**63 - 1, and a larger number must get 422, not a database error)

if TYPE_CHECKING:
    Character = str
    BotKind = str
else:  # CHAR-2: the current catalog edition's characters, a Literal for the documented enum
    Character = Literal[characters()]
    BotKind = Literal[BOT_KINDS]  # the bots `make_bot` knows (mcts: the search bot, docs/analysis.md)
Deal = Literal["secret", "chosen-seed", "known"]  # api.seats.DEALS


def as_deal(value: str | None) -> Deal | None:
    """A deal read back from the store, checked against the documented values."""
    if value is None:
        return None
    if value not in get_args(Deal):
        raise ValueError(f"unknown deal {value!r}")
    return cast(Deal, value)


SEED_HELP = (
    "Optional; leave it out to play a fair game. Whoever chooses the seed knows the whole deal (the order "
    'of every hidden stack), so a game created with one is marked `deal: "chosen-seed"` (in this answer, '
    "its board and its lobby entry): for practice and for analysts reproducing a deal. Without it the "
    'service draws a secret random seed and a secret random salt for the commitment (`deal: "secret"`).'
)
DEAL_HELP = (
    "Who may know the deal before the end: `secret` (nobody: the service drew the seed and salt), "
    "`chosen-seed` (whoever chose the seed at creation: a practice game, not a fair one), `known` "
    "(anyone who had its source: a fork of a finished game, an imported file); null for a game not "
    "created through the API."
)


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- requests ----------------------------------------------------------------------------------------


WEBHOOK_HELP = (
    "A URL the service POSTs a signed JSON body to when this seat must act, is asked to accept a "
    "take-back, runs out of time, and when the game ends (docs/async.md). An http(s) URL without "
    "credentials whose host resolves only to public addresses (HOOK-1; 422 `invalid-webhook` else). "
    "The answer gives the seat's `webhook_secret` for checking the Standard Webhooks signature "
    "(`webhook-signature`)."
)
SECRET_HELP = (
    "The seat's webhook signing secret (`whsec_` and standard base64, as Standard Webhooks libraries "
    "take it): verify `webhook-signature` (`v1,<base64 HMAC-SHA256 of id.timestamp.body>`). The "
    "deprecated `X-Galileo-Signature: sha256=<hex HMAC-SHA256 of the body>` (key: the secret's text) is "
    "sent for one more release."
)


class SeatRequest(Request):
    name: str | None = Field(None, min_length=1, max_length=40, description="Shown to everyone.")
    character: Character | None = Field(None, description="Default: the first character not yet taken.")
    bot: BotKind | None = Field(None, description="Played by the server; no token is issued.")
    webhook: str | None = Field(None, min_length=8, max_length=2000, description=WEBHOOK_HELP)
    side: Literal["basic", "ability"] = Field(
        "basic",
        description="The character board's side (CHAR-1): basic (Quadrant symbol) or ability. In the solo "
        "game the person always plays the ability side (SOLO-26): leave it out or give `ability`.",
    )
    aside: str | None = Field(
        None,
        min_length=1,
        max_length=8,
        description="Kepler on his ability side: the basic Action tile set aside (AMB-30); default: the one "
        "dealt to S4.",
    )


class ClockRequest(Request):
    """Day-scale time control (docs/async.md): ISO 8601 durations, seconds allowed (`PT3S`)."""

    per_move: str | None = Field(None, description="Time for each turn, e.g. `P2D`.", examples=["P2D"])
    reserve: str | None = Field(None, description="With per_move: a bank per seat for longer turns.")
    base: str | None = Field(None, description="Instead of per_move: each seat's starting bank.")
    increment: str | None = Field(None, description="With base: added after each of the seat's turns.")
    on_timeout: Literal["bot", "forfeit"] = Field(
        "bot", description="bot: a bot takes the seat over; forfeit: its turns are skipped, its score frozen."
    )
    bot: BotKind = Field("greedy", description="The bot that takes a seat over.")


class CreateGame(Request):
    seats: list[SeatRequest] = Field(
        min_length=1,
        max_length=4,
        description="One to four seats; one seat is the solo game against Tycho Brahe, who takes seat 1 "
        "and plays by his own rules (SOLO-27).",
    )
    difficulty: Literal["easy", "normal", "hard", "flaming"] | None = Field(
        None, description="The solo game with Luna: Tycho's level (SOLO-2; default normal)."
    )
    options: dict[str, Any] = Field(
        default_factory=dict, description="Rule options by their documented names (digest §23.1)."
    )
    seed: str | None = Field(None, min_length=1, max_length=200, description=SEED_HELP)
    first_seat: int | None = Field(None, ge=0, le=3)
    tile_orders: list[list[str]] | None = Field(None, description="Only with randomActionTiles false.")
    clock: ClockRequest | None = Field(None, description="Time control; none: the game waits forever.")
    takeback_timeout: str | None = Field(
        None, description="How long a take-back request waits for the other people (ISO 8601, default P1D)."
    )
    on_resign: Literal["bot", "forfeit"] = Field(
        "bot",
        description="What a resigned seat becomes: a bot's, or forfeited (turns skipped, score frozen).",
    )


class SubmitCommand(Request):
    command: dict[str, Any] = Field(
        description='A command object exactly as /moves lists it, or {"text": "@0 move 2"}.'
    )
    expected_version: int = Field(ge=0, le=MAX_VERSION, description="The version the client saw.")
    command_id: str = Field(
        min_length=1, max_length=200, description="The client's ID: a retry with it never doubles a move."
    )


class ForkSeat(Request):
    bot: BotKind | None = None


class ForkGame(Request):
    at_version: int = Field(ge=1, le=MAX_VERSION, description="Copy the first `at_version` events.")
    seats: list[ForkSeat] | None = Field(None, description="Per seat, a bot or a person (default: people).")


class StatsFilters(Request):
    """Which finished games the statistics cover (`projections.stats.Filters`); absent means any."""

    players: int | None = Field(None, ge=1, le=4, description="Player count.")
    luna: bool | None = Field(None, description="The Luna expansion on (true) or off (false).")
    seats: Literal["bots", "humans", "mixed"] | None = Field(
        None, description="bots: every seat a bot; humans: every seat a person; mixed: both."
    )
    edition: str | None = Field(None, min_length=1, max_length=100, description="The catalog edition.")
    forks: bool = Field(False, description="Include forked games (a fork repeats its source's start).")
    imports: bool = Field(
        True, description="Include imported games (copies of one game, by content, count once either way)."
    )
    solo: bool | None = Field(None, description="Solo games against Tycho Brahe (true) or not (false).")
    difficulty: Literal["base", "easy", "normal", "hard", "flaming"] | None = Field(
        None, description="A solo game's level (SOLO-2; base: without Luna)."
    )


# -- responses ---------------------------------------------------------------------------------------


SIDE_HELP = (
    "The side the seat plays its character board on (CHAR-1): `basic` (the Quadrant symbol, the base "
    "rules) or `ability` (the character's ability, digest §17)."
)


class SeatOut(BaseModel):
    seat: int
    name: str
    character: str
    side: Literal["basic", "ability"] = Field("basic", description=SIDE_HELP)
    bot: str | None = None
    token: str | None = Field(None, description="Only in the answer that issued it: keep it secret.")
    webhook_secret: str | None = Field(default=None, description=SECRET_HELP)


class GameCreated(BaseModel):
    game_id: str
    version: int
    deal: Deal = Field(description=DEAL_HELP)
    seats: list[SeatOut]
    host_token: str | None = Field(
        default=None,
        description="The table host's secret token (re-issue seat links, hand seats over, extend a clock, "
        "cancel the game): shown this once only.",
    )


class EventItem(BaseModel):
    version: int
    type: str
    event: dict[str, Any]
    text: str | None = Field(
        default=None, description="The event in words, without its subject (the seat is in `event`)."
    )
    routine: bool = Field(
        default=False,
        description="A step the rules take every turn whatever the player chose (a free-action window "
        "closed, an objective check that met nothing, the turn's end): the history folds these away.",
    )
    actor: int | str | None = None
    received_at: str | None = None


class CommandResult(BaseModel):
    game_id: str
    version: int
    replayed: bool = Field(description="True when this command ID had been accepted before.")
    events: list[EventItem]
    board: BoardView | None = Field(
        None,
        description="Only with `include=board`: the seat's board view with its legal moves (`moves`) after"
        " the command, as `GET /games/{game_id}?include=moves` answers then (a bot may have moved since).",
    )


class MovePreview(BaseModel):
    """What a move will do, from the events the engine produces for it (projections/preview.py), told only
    up to the information horizon (ASYNC-7): nothing hidden is in it."""

    lines: list[str] = Field(description="Each event up to the horizon, in the words of the history.")
    warnings: list[str] = Field(description="Rewards the move wastes, with the reason (`EffectLost`).")
    reveals: str | None = Field(description="What hidden thing is revealed next, where the telling stops.")
    ends_turn: bool
    undoable: bool = Field(description="Whether a take-back can return to before this move (ASYNC-7).")
    events: list[dict[str, Any]] = Field(description="The told events, each with its `type`.")


class MovesOut(BaseModel):
    game_id: str
    version: int
    seat: int
    to_act: int | None
    moves: list[dict[str, Any]]
    descriptions: list[str] = Field(
        default_factory=list,
        description="Each move in words (what is chosen), in the order of `moves` (not part of a move: "
        "post the move back unchanged).",
    )
    previews: list[MovePreview] = Field(
        default_factory=list,
        description="What each move will do, in the order of `moves` (projections/preview.py).",
    )


class EventsPage(BaseModel):
    game_id: str
    version: int
    after: int
    events: list[EventItem]
    next_after: int | None = Field(description="Pass as `after` for the next page; null at the end.")


class LobbySeat(BaseModel):
    seat: int
    name: str
    character: str
    side: Literal["basic", "ability"] = Field("basic", description=SIDE_HELP)
    bot: str | None


class LobbyGame(BaseModel):
    game_id: str
    status: Literal["active", "finished", "cancelled"]
    seats: list[LobbySeat]
    to_act: int | None
    version: int
    created_at: str
    last_move_at: str
    deal: Deal | None = Field(description=DEAL_HELP)
    clock: dict[str, Any] | None = Field(
        None, description="A clocked game's time control and the next deadline (docs/async.md)."
    )
    solo: dict[str, Any] | None = Field(
        None,
        description="A solo game against Tycho Brahe: his seat and, with Luna, the difficulty (SOLO-2).",
    )
    options: dict[str, Any] = Field(
        default_factory=dict, description='The game\'s options as it began, e.g. `{"luna": true}`.'
    )


class Lobby(BaseModel):
    games: list[LobbyGame]
    next_cursor: str | None = Field(
        default=None,
        description="Pass as `cursor` for the next page (null: this page is the last). A deep page "
        "costs what the first costs (keyset pagination).",
    )


class BoardView(BaseModel):
    """The projection of `projections.views.board_view` (documented there)."""

    model_config = ConfigDict(extra="allow")
    version: int
    viewer: dict[str, Any]
    status: str
    to_act: int | None
    deal: Deal | None = Field(description=DEAL_HELP)
    clock: dict[str, Any] | None = Field(
        None, description="The clock: config, the seat whose time runs, its deadline, paused (docs/async.md)."
    )
    moves: MovesOut | None = Field(
        None,
        description="Only with `include=moves`: the caller's legal moves at this version (null for a"
        " spectator), as `GET /games/{game_id}/moves` answers.",
    )


class Stats(BaseModel):
    """Statistics across finished games: `StatsView.compute` of `projections.stats` (docs/projections.md)."""

    model_config = ConfigDict(extra="allow")
    filters: dict[str, Any]
    position: int = Field(description="The statistics view's position in the store's notification log.")
    games: int = Field(description="Finished games matching the filters.")
    in_progress: int = Field(description="Unfinished games matching the filters (not counted).")


class Timeline(BaseModel):
    """A game's score timeline: `projections.timeline.timeline` (docs/projections.md)."""

    model_config = ConfigDict(extra="allow")
    seats: list[dict[str, Any]]
    finished: bool
    turns: int
    points: list[dict[str, Any]] = Field(description="At the start, after every turn, and at the end.")


class Health(BaseModel):
    status: str
    checks: dict[str, str] = Field(default_factory=dict)


# -- the table (docs/async.md) -------------------------------------------------------------------------


class TableCommand(Request):
    command_id: str = Field(
        min_length=1,
        max_length=200,
        description="The client's ID: a retry with it never doubles the request.",
    )
    expected_version: int | None = Field(
        None, ge=0, le=MAX_VERSION, description="When given, the game must be at it."
    )


class TakeBackRequest(TableCommand):
    to_version: int | None = Field(
        None,
        ge=1,
        le=MAX_VERSION,
        description="Return to the state after this event (default: before your last command).",
    )


class TakeBackAnswer(TableCommand):
    accept: bool


class HandOver(TableCommand):
    to: Literal["bot", "person"]
    bot: BotKind = "greedy"


class Extend(TableCommand):
    seat: int = Field(ge=0, le=3)
    by: str = Field(description="ISO 8601 duration added to the seat's time, e.g. `P1D`.")


class WebhookIn(Request):
    url: str = Field(min_length=8, max_length=2000, description=WEBHOOK_HELP)


class WebhookOut(BaseModel):
    seat: int
    url: str
    secret: str = Field(description=SECRET_HELP)


class WebhookSecret(WebhookOut):
    previous_valid_until: datetime = Field(
        description="Until then the previous secret signs too: a second `v1` in `webhook-signature`."
    )


class TableResult(BaseModel):
    game_id: str
    version: int
    replayed: bool
    events: list[EventItem]


class SeatLink(BaseModel):
    seat: int
    token: str = Field(description="The new seat token (the old one stops working): keep it secret.")
    link: str = Field(description="The seat's page, the token in the fragment.")


class HostAction(BaseModel):
    """One act of the table's host: an event of a host's table batch (docs/async.md, ASYNC-9)."""

    version: int = Field(description="The event's version in the game's log.")
    type: str = Field(description="The event: SeatLinkReissued, SeatHandedOver, ClockExtended...")
    seat: int | None = Field(description="The seat it concerns (None: the whole game).")
    at: str | None = Field(description="When the service received it (ISO 8601).")


class TableView(BaseModel):
    """The table of a game (docs/async.md): seats and who plays them, clocks, take-back, pause votes."""

    model_config = ConfigDict(extra="allow")
    game_id: str
    version: int
    status: str
    seats: list[dict[str, Any]]
    clock: dict[str, Any] | None
    takeback: dict[str, Any] | None
    pause_votes: list[int]
    host_actions: list[HostAction] = Field(
        description="Every act of the table's host, oldest first (ASYNC-9): each is an event of the log."
    )
    you: dict[str, Any]


Result = Literal["2xx", "3xx", "4xx", "5xx", "no-response", "refused", "superseded", "rejected"]


class DeliveryOut(BaseModel):
    id: str = Field(description="The notification's id: the body's `id` and the `webhook-id` header.")
    seat: int
    kind: str = Field(
        description="The body's `event`: your-turn, take-back-requested, time-expired, …; a turn mail is "
        "`mail:your-turn`, a push `push:your-turn` (docs/notifications.md; only the seat's own log "
        "shows them)"
    )
    version: int
    status: Literal["pending", "delivered", "failed"]
    attempts: int
    result: Result | None = Field(
        description="The last attempt's class: the answer's status class; `no-response` (no connection, "
        "no answer in time); `refused` (the host does not resolve only to allowed addresses, HOOK-1); "
        "`superseded` (the webhook it was queued for was replaced, removed or its seat handed over: "
        "never sent elsewhere); `rejected` (a mail the mail server refused for good: the address bounced). "
        "Never the raw error or status code."
    )
    next_attempt_at: str | None
    created_at: str
    delivered_at: str | None


class Notifications(BaseModel):
    game_id: str
    deliveries: list[DeliveryOut]


AnalysisStatus = Literal["queued", "running", "finished", "failed", "cancelling", "cancelled"]  # replays.jobs


class AnalysisRequest(Request):
    budget: str | None = Field(
        None,
        description="The search's budget level: `fast`, `normal` (the default) or `strong` "
        "(GET /games/{id}/analysis lists them on a 404). More iterations per decision: a better "
        "evaluation, a longer job.",
        max_length=32,
    )
    viewer: int | None = Field(
        None,
        ge=0,
        le=3,
        description="A finished game: analyse every decision as this seat could have seen it (default: "
        "each decision from the information of the seat that took it). A running game is analysed only "
        "from the token's seat: leave it out, or give that seat.",
    )


class AnalysisProgress(BaseModel):
    done: int = Field(description="Decisions analysed so far.")
    total: int | None = Field(description="Decisions in all (null until the job has started).")


class AnalysisJob(BaseModel):
    """An analysis job (docs/analysis-api.md): what it analyses, how far it is, then its result."""

    job_id: str
    url: str = Field(description="This job's resource: poll it for progress, DELETE it to cancel.")
    game_id: str
    status: AnalysisStatus = Field(
        description="`queued`, `running`, `finished` (with `result`), `failed`, `cancelling` (asked to stop, "
        "stops at its next decision) or `cancelled`."
    )
    version: int = Field(description="The game's version analysed (its head when the job was asked for).")
    viewer: int | None = Field(description="The seat whose information is used; null: each decision's actor.")
    budget: str
    edition: str = Field(description="The game's rules edition (catalog edition).")
    rules: str = Field(description="The game's rules version.")
    engine: str = Field(description="The analysis engine's version (part of the cache key).")
    progress: AnalysisProgress
    attempts: int = Field(description="Runs started: more than one when a worker died and it was re-queued.")
    created_at: str
    started_at: str | None
    ended_at: str | None
    error: str | None = Field(description="Why a failed job failed (never the game's hidden information).")
    result: dict[str, Any] | None = Field(
        description="Once finished: the analysis document (docs/analysis.md): every decision's evaluation "
        "before and after the move played, the best alternative, the loss, mistakes, accuracy per seat, "
        "turning points."
    )


class HandOverResult(TableResult):
    """A hand-over's events, and for a seat handed to a new person the new seat link (once)."""

    link: SeatLink | None = Field(
        None, description="Handed to a new person: the seat's new link and token (shown this once only)."
    )


# -- verification (replays.verify.VerifyReport, docs/audit.md) -----------------------------------------


class VerifyCheck(BaseModel):
    name: Literal["format", "chain", "adjudication", "fairness"]  # replays.verify.CHECKS
    status: Literal["ok", "failed", "skipped"]
    detail: str = ""


class VerifyFinding(BaseModel):
    """One problem: which check found it, where (event `version`, file `line`), and what differs."""

    check: str
    message: str
    version: int | None = Field(None, description="The event's number (1-based).")
    line: int | None = Field(None, description="The line of an export file.")
    rule: str | None = Field(None, description="The rule ID that decides it.")
    expected: dict[str, Any] | None = None
    stored: dict[str, Any] | None = None


class RecordedEdition(BaseModel):
    catalog_edition: str
    engine_version: str


class EditionCheckOut(BaseModel):
    """`edition=...`: the game re-adjudicated under another rules edition, as information only."""

    catalog_edition: str
    engine_version: str
    recorded: RecordedEdition
    same: bool
    divergence: VerifyFinding | None = Field(description="The first event that differs; null: none.")


class VerifyReport(BaseModel):
    """The verification of a stored game (docs/audit.md): format, hash chain, re-adjudication by the
    rules, fair deal. `ok`: every check ran and holds."""

    source: str = Field(description="The game's ID.")
    ok: bool
    events: int
    finished: bool
    complete: bool = Field(description="False for a redacted log: re-adjudication and the deal are skipped.")
    checks: list[VerifyCheck]
    findings: list[VerifyFinding]
    notes: list[str]
    edition: EditionCheckOut | None = Field(None, description="Only with the `edition` parameter, else null.")
