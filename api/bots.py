"""Bot seats: the server plays them in the background through the same command path as people.

After any change that may hand the turn to a bot (creation, a command, a fork, an import, or simply
reading a game whose bot has not moved yet, e.g. after a restart), `kick(game)` starts one task per game
that plays bot moves until a person must act or the game ends. A bot's move is a deterministic function
of (game, version): its command ID is `bot:<version>`, so two processes driving the same game write the
move once (the loser gets a version conflict or the first result) and never double a move.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from starlette.concurrency import run_in_threadpool

from api.seats import BOT
from api.service import StoreClosed
from domain import Command, GameState, legal_moves
from domain import commands as c
from domain.bots import make_bot
from domain.engine import play_through
from domain.expansions.luna.commands import Decline
from replays.errors import VersionConflict

if TYPE_CHECKING:
    from api.runtime import Runtime

logger = logging.getLogger(__name__)

MAX_MOVES_PER_RUN = 50_000  # a safety net: a game ends long before
PASS = "pass"  # a forfeited seat (docs/async.md, ASYNC-3): the server finishes the turn it was frozen in
_PASSING = (c.EndActions, c.EndFreeActions, c.StopObserving, c.StopWriting, c.DeclineDie, Decline)


def pass_move(state: GameState, moves: Sequence[Command]) -> Command:
    """A forfeited seat's move: the one that gains it the fewest points, preferring to end or decline
    (the telescope moves one step when it must). Deterministic: ties go to the first listed."""
    seat = state.turn.seat
    before = state.players[seat].score

    def cost(indexed: tuple[int, Command]) -> tuple[int, int, int, int]:
        i, move = indexed
        gained = play_through(state, move)[0].players[seat].score - before
        steps = move.steps if isinstance(move, c.Move) else 0
        return (gained, 0 if isinstance(move, _PASSING) else 1, steps, i)

    return min(enumerate(moves), key=cost)[1]


class BotRunner:
    def __init__(self, runtime: Runtime, enabled: bool = True) -> None:
        self._runtime = runtime
        self._enabled = enabled
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()  # kicked while running: look once more before stopping
        self._bots: dict[str, dict[int, str]] = {}  # game -> seat -> bot kind (seats never change)

    def kick(self, game_id: str) -> None:
        """Make sure the bots of `game_id` play if it is their turn (no-op when already running)."""
        if not self._enabled:
            return
        if game_id in self._tasks:
            self._again.add(game_id)
            return
        task = asyncio.get_running_loop().create_task(self._drive(game_id), name=f"bots-{game_id}")
        self._tasks[game_id] = task
        task.add_done_callback(lambda _: self._finished(game_id))

    def _finished(self, game_id: str) -> None:
        self._tasks.pop(game_id, None)
        if game_id in self._again:  # kicked between the task's last look and now
            self._again.discard(game_id)
            self.kick(game_id)

    @property
    def running(self) -> int:
        return len(self._tasks)

    async def idle(self, timeout: float = 30.0) -> None:
        """Wait until no game has a bot task (tests and benchmarks)."""
        async with asyncio.timeout(timeout):
            while self._tasks:
                await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def stop(self) -> None:
        self._enabled = False
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def forget(self, game_id: str) -> None:
        """Read the game's seats again (a seat was handed over)."""
        self._bots.pop(game_id, None)

    def bots_of(self, game_id: str, handed: Mapping[str, Sequence[str]] | None = None) -> dict[int, str]:
        """The seats the server plays: the bot seats of creation, then the hand-overs the game
        recorded (`SeatHandedOver`, docs/async.md): to a bot, to `PASS` (a forfeited seat), or back to
        a person."""
        bots = self._bots.get(game_id)
        if bots is None:
            seats = self._runtime.seats.of_game(game_id)
            bots = {s.seat: s.bot for s in seats if s.kind == BOT and s.bot}
            self._bots[game_id] = bots  # the seats of creation never change
        if not handed:
            return bots
        out = dict(bots)
        for seat, (to, kind) in ((int(k), v) for k, v in handed.items()):
            if to == "bot":
                out[seat] = kind or "greedy"
            elif to == "forfeit":
                out[seat] = PASS
            else:
                out.pop(seat, None)
        return out

    def _next(self, game_id: str) -> tuple[Command, int] | None:
        """The bot move to play now and the version it was chosen at, or None if no bot is to act."""
        game = self._runtime.store.game(game_id)
        state, version = game.state, game.version
        assert state is not None
        if state.finished or game.cancelled:
            return None
        bots = self.bots_of(game_id, game.handed)
        if state.turn.seat not in bots:
            return None
        seat = state.turn.seat
        moves = legal_moves(state)
        if bots[seat] == PASS:
            return pass_move(state, moves), version
        bot = make_bot(bots[seat], f"{game_id}:{seat}:{version}")
        return bot.choose(state, moves), version

    async def _drive(self, game_id: str) -> None:
        from api import play

        try:
            for _ in range(MAX_MOVES_PER_RUN):
                self._again.discard(game_id)
                step = await run_in_threadpool(self._next, game_id)
                if step is None:
                    if game_id in self._again:  # a command landed while we looked
                        continue
                    return
                command, version = step
                try:
                    await play.submit(
                        self._runtime, game_id, command.seat, command, version, f"bot:{version}", BOT
                    )
                except VersionConflict:
                    continue  # someone (another process's runner) moved first: look again
        except asyncio.CancelledError:
            raise
        except StoreClosed:
            return  # the process is stopping; the next kick (any read of the game) resumes
        except Exception:
            logger.exception("the bots of game %s stopped", game_id)
