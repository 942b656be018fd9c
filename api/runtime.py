"""Everything one API process holds for its lifetime, built from the settings at start-up."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from starlette.concurrency import run_in_threadpool

from api import push, secretbox
from api.accounts import AccountStore
from api.boards import ViewCache, make_cache
from api.bots import BotRunner
from api.broker import Fanout, make_fanout
from api.chat import ChatStore
from api.clocks import Scheduler
from api.community import Community
from api.crypto import Keyring
from api.egress import Resolver, system_resolve
from api.limits import RateLimiter, RedisBuckets, StreamSlots, flush_growth
from api.lobby import Lobby, ProjectedLobby
from api.lru import Lru
from api.notify import Notifier
from api.outage import StoreHealth
from api.reach import ReachStore
from api.repair import repair
from api.seats import SeatStore, open_seats
from api.service import Store
from api.settings import Settings
from api.stream import Page, PageKey, page_cache
from api.tables import TableRecord, TableStore, open_tables
from api.tournaments import Tournaments
from domain.events import Event
from projections.projector import Projector, open_lobby, open_stats
from projections.stats import StatsView
from replays.jobs import Analyser, JobQueue, LocalJobs, QueueSettings, RedisJobs, engine_analyser
from replays.store import Game
from replays.table import PERSON, player

# A seat's move listing: its legal moves as JSON, in words, and their previews (api/routers/play.py).
Listing = tuple[list[dict[str, Any]], list[str], list[dict[str, Any]]]

logger = logging.getLogger(__name__)

PING_TIMEOUT_SECONDS = 1.5  # a readiness ping: /readyz answers within 2 s even when the store hangs
TOURNAMENT_SECONDS = 5.0  # how often running tournaments are checked for a round that has ended
GROWTH_FLUSH_SECONDS = 2.0  # how often the bytes games grew by are added to their makers' usage


@dataclass(eq=False)
class Runtime:
    settings: Settings
    store: Store
    seats: SeatStore
    fanout: Fanout
    views: ViewCache
    lobby: Lobby
    stats: StatsView  # statistics across games (read model kept by the projector)
    tables: TableStore  # host records, webhooks, the notification outbox (docs/async.md)
    clock: Callable[[], datetime]  # the service's time (tests pass a controllable one)
    analyses: JobQueue  # game analysis jobs (replays/jobs.py)
    projector: Projector | None = None  # the read models, when this process keeps them
    # The webhook hosts' resolver (api/egress.py): the system's; a test may set one whose answers change.
    resolve: Resolver = field(default=system_resolve)
    bots: BotRunner = field(init=False)
    health: StoreHealth = field(init=False)  # whether the store answers (api/outage.py)
    limiter: RateLimiter = field(init=False)  # per-client token buckets (api/limits.py)
    streams: StreamSlots = field(init=False)  # the event streams open, per client (api/limits.py)
    stream_reads: asyncio.Semaphore = field(init=False)  # store reads of streams under way
    stream_pages: Lru[PageKey, Page] = field(
        default_factory=page_cache
    )  # encoded catch-up pages (api/stream.py)
    # (game, version, seat) -> that seat's move listing with its previews (api/routers/play.py): a version
    # and a seat fix it, and a page asks for it again after every event of the turn.
    move_listings: Lru[tuple[str, int, int, str], Listing] = field(default_factory=lambda: Lru(512))
    _growth_task: asyncio.Task[None] | None = field(init=False, default=None)
    scheduler: Scheduler = field(init=False)
    notifier: Notifier = field(init=False)
    accounts: AccountStore = field(init=False)  # optional sign-in (docs/accounts.md)
    chat: ChatStore = field(init=False)  # table chat, apart from the games' logs (docs/chat.md)
    community: Community = field(init=False)  # ratings and profiles, read from events (docs/ratings.md)
    tournaments: Tournaments = field(init=False)  # async tournaments (docs/tournaments.md)
    _tournament_task: asyncio.Task[None] | None = field(init=False, default=None)
    box: secretbox.SecretBox = field(init=False)  # seals and signs for the notifications
    reach: ReachStore = field(init=False)  # addresses and push subscriptions (docs/notifications.md)
    vapid: push.Vapid = field(init=False)  # the service's Web Push identity
    deal_cache: dict[str, str] = field(default_factory=dict)  # game -> its deal (never changes)
    table_cache: dict[str, TableRecord | None] = field(default_factory=dict)  # game -> its host record

    def __post_init__(self) -> None:
        self.bots = BotRunner(self, enabled=self.settings.bots)
        self.health = StoreHealth(self.ping, self.settings.store_probe_seconds, PING_TIMEOUT_SECONDS)
        settings = self.settings
        shared = None
        if settings.redis_url and any(r.enabled for r in settings.rates.values()):
            shared = RedisBuckets(
                settings.redis_url, settings.redis_timeout_seconds, settings.rate_key_prefix
            )
        self.limiter = RateLimiter(settings.rates, shared=shared)
        self.streams = StreamSlots(settings.max_streams_per_client, settings.max_streams)
        self.stream_reads = asyncio.Semaphore(max(1, settings.stream_reads))
        self.scheduler = Scheduler(self)
        self.notifier = Notifier(self)
        self.accounts = AccountStore(self.settings.database_url, self.tables.keyring)
        self.chat = ChatStore(self.settings.database_url)
        self.community = Community(self)
        self.tournaments = Tournaments(self)
        self.box = secretbox.SecretBox(self.tables.keyring)
        self.reach = ReachStore(settings.database_url, self.box)
        self.vapid = push.Vapid.of(self._vapid_key(), settings.vapid_subject)

    def _vapid_key(self) -> str:
        """The VAPID private key: the settings', else the one generated at the first start. A start never
        fails on it: a stored key this process cannot open (other encryption keys) gives a key of this process
        only, with an error in the log (pushes to subscriptions made under the other key may be refused)."""
        if self.settings.vapid_private_key:
            return self.settings.vapid_private_key
        try:
            return self.reach.service_key("vapid", push.new_private_key, datetime.now(UTC))
        except ValueError:
            logger.error(
                "the VAPID key in the database was sealed under a key this process lacks: it pushes with a "
                "key of its own; give every process the same GALILEO_ENCRYPTION_KEYS (docs/notifications.md)"
            )
            return push.new_private_key()

    @property
    def keyring(self) -> Keyring:
        """The server's keys (api/crypto.py): what a store must read back in clear is sealed under them."""
        return self.tables.keyring

    def ping(self) -> None:
        """Raise unless the event store and the seat tables can be read (blocking)."""
        self.store.ping()
        self.seats.ping()

    @classmethod
    def build(
        cls,
        settings: Settings,
        clock: Callable[[], datetime] | None = None,
        analyser: Analyser | None = None,
        secret: Callable[[], str] | None = None,
    ) -> Runtime:
        """The runtime of `settings`. `analyser`: the analysis engine (default: domain.analysis at the
        search's levels); with Redis it only names the budgets and the version, the workers run theirs.
        `secret`: the secret seeds of new games (default: the system's CSPRNG; tests fix it)."""
        clock = clock or (lambda: datetime.now(UTC))
        tables = open_tables(settings)  # first: a creation writes galileo_tables with its events
        store = Store(settings.database_url, secret=secret, clock=clock)
        seats = open_seats(settings.database_url)
        fanout = make_fanout(settings.redis_url, settings.redis_timeout_seconds, settings.redis_retry_seconds)
        views = make_cache(settings.redis_url, settings.view_cache_seconds, settings.redis_timeout_seconds)
        lobby = ProjectedLobby(open_lobby(settings.database_url), seats, tables)
        stats = open_stats(settings.database_url)
        analyses = make_analyses(settings, store, analyser or engine_analyser())
        return cls(settings, store, seats, fanout, views, lobby, stats, tables, clock, analyses)

    async def start(self) -> None:
        await run_in_threadpool(repair, self.store.games, self.seats)
        if self.settings.projections:  # else a separate `galileo projections run` keeps them
            self.projector = await run_in_threadpool(Projector(self.settings.database_url).start)
        await self.fanout.start()
        self._growth_task = asyncio.get_running_loop().create_task(self._flush_growth(), name="growth")
        if self.settings.clocks:  # else a separate `galileo clocks run` keeps the clocks and webhooks
            self.scheduler.start()
            self.notifier.start()
            loop = asyncio.get_running_loop()
            self._tournament_task = loop.create_task(self._advance_tournaments(), name="tournaments")

    async def _advance_tournaments(self) -> None:
        """Start the next round of every tournament whose round has ended (TOUR-4), every few seconds."""
        from api.routers.tournaments import advance  # the route's own step: pairing, games, their clocks

        while True:
            await asyncio.sleep(TOURNAMENT_SECONDS)
            try:
                for tournament_id in await run_in_threadpool(self.tournaments.running):
                    await advance(self, tournament_id)
            except Exception:
                logger.exception("advancing the tournaments; trying again")

    async def _flush_growth(self) -> None:
        """Add the bytes games grew by to their makers' usage every few seconds (docs/operations.md,
        "Limits")."""
        while True:
            await asyncio.sleep(GROWTH_FLUSH_SECONDS)
            try:
                await run_in_threadpool(flush_growth, self.store.growth, self.seats.grow)
            except Exception as error:  # the store is down: kept for the next flush
                logger.warning("could not record game sizes (%s); retrying", type(error).__name__)

    async def table_of(self, game_id: str) -> TableRecord | None:
        """The game's host record (clock, host token hash); None for a game made elsewhere."""
        if game_id in self.table_cache:
            return self.table_cache[game_id]
        record = await run_in_threadpool(self.tables.of_game, game_id)
        # The record is written with the seats, before the game's first write, and never changes; a
        # game without one (a fork, an import, `galileo new`) never gets one.
        self.table_cache[game_id] = record
        return record

    async def people(self, game_id: str, game: Game) -> list[int]:
        """The seats people play now: a person's seat of creation or one handed to a person, and not
        handed to a bot or forfeited since (docs/async.md)."""
        seats = await run_in_threadpool(self.seats.of_game, game_id)
        return [s.seat for s in seats if player(game, s.seat, s).by == PERSON]

    async def stop(self) -> None:
        if self._tournament_task is not None:
            self._tournament_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._tournament_task
        await self.scheduler.stop()
        await self.notifier.stop()
        await self.health.stop()
        await self.bots.stop()
        if self._growth_task is not None:
            self._growth_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._growth_task
        with contextlib.suppress(Exception):
            await run_in_threadpool(flush_growth, self.store.growth, self.seats.grow)
        if self.limiter.shared is not None:
            await self.limiter.shared.close()
        await self.fanout.stop()
        await self.views.close()
        if self.projector is not None:
            await run_in_threadpool(self.projector.stop)
        await run_in_threadpool(self.analyses.close)  # in process: stops the running analyses
        self.lobby.close()
        self.stats.close()
        self.seats.close()
        self.tables.close()
        self.accounts.close()
        self.chat.close()
        self.reach.close()
        self.store.close()


def make_analyses(settings: Settings, store: Store, analyser: Analyser) -> JobQueue:
    """The analysis queue: rq on Redis (run by `galileo worker` processes) or threads of this process."""
    if settings.analysis_queue == "redis" and not settings.redis_url:
        raise ValueError("GALILEO_ANALYSIS_QUEUE=redis needs REDIS_URL")
    if settings.analysis_on_redis:
        assert settings.redis_url is not None
        queue = QueueSettings(
            result_seconds=settings.analysis_result_seconds, retries=settings.analysis_retries
        )
        return RedisJobs(settings.redis_url, analyser, queue)

    def load(game_id: str, version: int) -> list[Event]:
        return [stored.event for stored in store.events(game_id, 0, version)]

    return LocalJobs(analyser, load, settings.analysis_threads)
