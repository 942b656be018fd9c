"""Analysers injected into the job queue by its tests (the production one: replays.jobs.engine_analyser):
each "decision" is one event of the game, worked through at a pace set by the budget, reporting progress and
honouring cancellation like the real engine. `main()` runs a `galileo worker`-like process with one of
them (tests/replays/test_jobs.py kills it mid-job)."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

from domain.events import Event
from replays.jobs import Analyser, Cancelled, Progress, Task

RUN_SECONDS = {"quick": 0.0, "steady": 2.0, "slow": 8.0}  # a whole run, spread over the events
COUNTERS = "test:analysis:"  # Redis lists the worker's analyser appends to (tests read them)


def _run(events: Sequence[Event], task: Task, progress: Progress, cancelled: Cancelled) -> Mapping[str, Any]:
    marks = _marks()
    if marks is not None:
        marks.rpush(COUNTERS + "starts", os.getpid())
    total = len(events)
    for done in range(1, total + 1):
        if cancelled():
            return {}
        time.sleep(RUN_SECONDS[task.budget] / total)
        progress(done, total)
    result = {
        "decisions": total,
        "last_event": type(events[-1]).__name__,
        "viewer": task.viewer,
        "seed": task.seed,
    }
    if marks is not None:
        marks.rpush(COUNTERS + "finishes", os.getpid())
    return result


def _marks() -> Any:
    url = os.environ.get("GALILEO_TEST_ANALYSER_REDIS")
    if not url:
        return None
    import redis

    return redis.Redis.from_url(url)


PACED = Analyser(run=_run, budgets=tuple(RUN_SECONDS), version="paced-1")


def _refuse(
    events: Sequence[Event], task: Task, progress: Progress, cancelled: Cancelled
) -> Mapping[str, Any]:
    marks = _marks()
    if marks is not None:
        marks.rpush(COUNTERS + "starts", os.getpid())
    progress(1, len(events))
    hidden = "-".join(("C12", "C07"))  # a message naming hidden cards: never shown nor logged
    raise ValueError(f"the deck is {hidden}")


BROKEN = Analyser(run=_refuse, budgets=PACED.budgets, version=PACED.version)
ANALYSERS = {"paced": PACED, "broken": BROKEN}


def main() -> None:
    """`python -m tests.replays.analysers REDIS_URL DATABASE_URL [paced|broken]`: a worker process
    with one of these analysers."""
    from replays.jobs import WorkerContext, WorkerSettings, run_worker

    redis_url, database_url = sys.argv[1:3]
    name = sys.argv[3] if len(sys.argv) > 3 else "paced"
    # The paced worker's jobs are abandoned soon after a kill (the tests kill it); a live worker must miss
    # four heartbeats in a row first, which a loaded machine does not make it do. The broken analyser's
    # test kills nothing: its jobs are never abandoned (a re-run there would be a second start).
    abandon_after = 4 if name == "paced" else 60
    settings = WorkerSettings(heartbeat_seconds=1, abandon_after=abandon_after, maintenance_seconds=1)
    analyser = ANALYSERS[name]
    run_worker(redis_url, WorkerContext(database_url, analyser), settings)


if __name__ == "__main__":
    main()
