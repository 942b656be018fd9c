"""Everything one API process holds for its lifetime, built from the settings at start-up."""

from __future__ import annotations

from dataclasses import dataclass, field

from starlette.concurrency import run_in_threadpool

from api.boards import ViewCache, make_cache
from api.bots import BotRunner
from api.broker import Fanout, make_fanout
from api.limits import RateLimiter
from api.lobby import Lobby, ProjectedLobby
from api.outage import StoreHealth
from api.repair import repair
from api.seats import Seat, SeatStore, open_seats
from api.service import Store
from api.settings import Settings
from projections.projector import Projector, open_lobby, open_stats
from projections.stats import StatsView

PING_TIMEOUT_SECONDS = 1.5  # a readiness ping: /readyz answers within 2 s even when the store hangs


@dataclass(eq=False)
class Runtime:
    settings: Settings
    store: Store
    seats: SeatStore
    fanout: Fanout
    views: ViewCache
    lobby: Lobby
    stats: StatsView  # statistics across games (read model kept by the projector)
    projector: Projector | None = None  # the read models, when this process keeps them
    bots: BotRunner = field(init=False)
    health: StoreHealth = field(init=False)  # whether the store answers (api/outage.py)
    limiter: RateLimiter = field(init=False)  # per-client token buckets (api/limits.py)
    token_cache: dict[str, Seat] = field(default_factory=dict)  # token hash -> seat (seats never change)
    deal_cache: dict[str, str] = field(default_factory=dict)  # game -> its deal (never changes)

    def __post_init__(self) -> None:
        self.bots = BotRunner(self, enabled=self.settings.bots)
        self.health = StoreHealth(self.ping, self.settings.store_probe_seconds, PING_TIMEOUT_SECONDS)
        self.limiter = RateLimiter(self.settings.rates)

    def ping(self) -> None:
        """Raise unless the event store and the seat tables can be read (blocking)."""
        self.store.ping()
        self.seats.ping()

    @classmethod
    def build(cls, settings: Settings) -> Runtime:
        store = Store(settings.database_url)
        seats = open_seats(settings.database_url)
        fanout = make_fanout(settings.redis_url, settings.redis_timeout_seconds, settings.redis_retry_seconds)
        views = make_cache(settings.redis_url, settings.view_cache_seconds, settings.redis_timeout_seconds)
        lobby = ProjectedLobby(open_lobby(settings.database_url), seats)
        stats = open_stats(settings.database_url)
        return cls(settings, store, seats, fanout, views, lobby, stats)

    async def start(self) -> None:
        await run_in_threadpool(repair, self.store.games, self.seats)
        if self.settings.projections:  # else a separate `galileo projections run` keeps them
            self.projector = await run_in_threadpool(Projector(self.settings.database_url).start)
        await self.fanout.start()

    async def stop(self) -> None:
        await self.health.stop()
        await self.bots.stop()
        await self.fanout.stop()
        await self.views.close()
        if self.projector is not None:
            await run_in_threadpool(self.projector.stop)
        self.lobby.close()
        self.stats.close()
        self.seats.close()
        self.store.close()
