"""The analysis job queue (replays/jobs.py): the task key, progress, cancellation, the result cache and
failures, in process (no Redis) and on Redis with real `galileo worker`-like processes, one of them
killed with SIGKILL in the middle of a job (re-queued, one result)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from domain.bots import make_bot
from domain.events import Event
from domain.selfplay import default_setup
from replays.jobs import (
    PREFIX,
    QUEUE,
    Analyser,
    Cancelled,
    JobInfo,
    JobLimits,
    JobQueue,
    JobRefused,
    LocalJobs,
    NotAsked,
    Progress,
    RedisJobs,
    Task,
    store_loader,
)
from replays.playout import play_out
from replays.service import Games
from tests.api.helpers import wait_until
from tests.replays.analysers import BROKEN, COUNTERS, PACED

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def stored(tmp_path: Path) -> tuple[str, str, int]:
    """A finished 3-seat game of greedy bots in a SQLite store: (store URL, game, head)."""
    url = f"sqlite:///{tmp_path}/games.db"
    with Games(url) as games:
        game_id, _ = games.create(default_setup(3, "jobs"))
        play_out(games, game_id, [make_bot("greedy", f"jobs-{i}") for i in range(3)])
        return url, game_id, games.head(game_id)


def task_of(game_id: str, version: int, budget: str = "quick", viewer: int | None = None) -> Task:
    return Task(game_id, version, "base", "0.1.0", budget, viewer, PACED.version)


def wait_status(jobs: JobQueue, job_id: str, statuses: Sequence[str], timeout: float = 30) -> JobInfo:
    def reached() -> JobInfo | None:
        info = jobs.get(job_id)
        return info if info is not None and info.status in statuses else None

    found: JobInfo = wait_until(reached, timeout, f"job {job_id} to be {'/'.join(statuses)}")
    return found


def test_the_task_is_the_cache_key_and_fixes_the_seed() -> None:
    task = task_of("g", 10)
    assert task.key == "g|10|base|0.1.0|quick|acting|paced-1"
    assert Task.from_dict(task.to_dict()) == task
    variants = [
        replace(task, version=11),
        replace(task, edition="2025"),
        replace(task, rules="0.2.0"),
        replace(task, budget="slow"),
        replace(task, viewer=0),
        replace(task, engine="paced-2"),
        replace(task, game_id="h"),
    ]
    assert len({v.digest for v in [task, *variants]}) == len(variants) + 1
    assert task.seed == task_of("g", 10).seed and task.seed != replace(task, viewer=0).seed


class Counting:
    """PACED, counting its runs."""

    def __init__(self, inner: Analyser = PACED) -> None:
        self.runs = 0
        self.analyser = replace(inner, run=self._run)
        self._inner = inner

    def _run(
        self, events: Sequence[Event], task: Task, progress: Progress, cancelled: Cancelled
    ) -> Mapping[str, Any]:
        self.runs += 1
        return self._inner.run(events, task, progress, cancelled)


def test_in_process_progress_result_and_cache_hit(stored: tuple[str, str, int]) -> None:
    url, game_id, head = stored
    counting = Counting()
    jobs = LocalJobs(counting.analyser, store_loader(url))
    try:
        info, created = jobs.submit(task_of(game_id, head, "steady"))
        assert created and info.status in ("queued", "running")
        seen = wait_until(lambda: (j := jobs.get(info.job_id)) and 0 < j.done < head and j, 30, "progress")
        assert seen.total == head and seen.status == "running"
        done = wait_status(jobs, info.job_id, ["finished"])
        assert done.done == done.total == head
        assert done.result == {"decisions": head, "last_event": "GameEnded", "viewer": None,
                               "seed": task_of(game_id, head, "steady").seed}  # fmt: skip
        again, created = jobs.submit(task_of(game_id, head, "steady"))
        assert not created and again.job_id == info.job_id and again.result == done.result
        assert counting.runs == 1  # the cache answered
        assert jobs.find(task_of(game_id, head, "steady")) is not None
        assert jobs.find(task_of(game_id, head, "quick")) is None
        other, created = jobs.submit(task_of(game_id, head, "quick", viewer=1))
        assert created and wait_status(jobs, other.job_id, ["finished"]).result["viewer"] == 1  # type: ignore[index]
        assert counting.runs == 2
    finally:
        jobs.close()


def test_in_process_cancel_running_and_queued(stored: tuple[str, str, int]) -> None:
    url, game_id, head = stored
    jobs = LocalJobs(PACED, store_loader(url), threads=1)
    try:
        running, _ = jobs.submit(task_of(game_id, head, "slow"))
        queued, _ = jobs.submit(task_of(game_id, head, "slow", viewer=0))
        wait_until(lambda: jobs.get(running.job_id).done > 0, 30, "the first job to start")  # type: ignore[union-attr]
        cancelled = jobs.cancel(queued.job_id)
        assert cancelled is not None and cancelled.status == "cancelled"
        cancelling = jobs.cancel(running.job_id)
        assert cancelling is not None and cancelling.status == "cancelling"
        ended = wait_status(jobs, running.job_id, ["cancelled"])
        assert ended.result is None and ended.done < head
        assert jobs.get(queued.job_id).done == 0  # type: ignore[union-attr]  # never ran
        # A cancelled task may be asked again: a new job.
        fresh, created = jobs.submit(task_of(game_id, head, "slow", viewer=0))
        assert created and fresh.job_id != queued.job_id
        jobs.cancel(fresh.job_id)
        assert jobs.cancel("no-such-job") is None
    finally:
        jobs.close()


def test_in_process_failure_is_reported_and_logged_without_the_error_text(
    stored: tuple[str, str, int], caplog: pytest.LogCaptureFixture
) -> None:
    url, game_id, head = stored
    jobs = LocalJobs(BROKEN, store_loader(url))
    try:
        info, _ = jobs.submit(task_of(game_id, head))
        failed = wait_status(jobs, info.job_id, ["failed"])
        assert failed.error == "the analysis failed; the error was logged" and failed.result is None
        retried, created = jobs.submit(task_of(game_id, head))  # a failed task may be asked again
        assert created and retried.job_id != info.job_id
        wait_status(jobs, retried.job_id, ["failed"])
    finally:
        jobs.close()
    assert "ValueError" in caplog.text and "C12-C07" not in caplog.text


# -- Redis -----------------------------------------------------------------------------------------


class WorkerProcess:
    """A worker process with the PACED analyser (tests/replays/analysers.py: main)."""

    def __init__(
        self, redis_url: str, database_url: str, analyser: str = "paced", log: Path | None = None
    ) -> None:
        env = {**os.environ, "GALILEO_TEST_ANALYSER_REDIS": redis_url, "PYTHONPATH": str(ROOT)}
        output = subprocess.DEVNULL if log is None else log.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.replays.analysers", redis_url, database_url, analyser],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )

    def stop(self) -> None:
        # rq's warm shutdown finishes the running job; a second signal stops its work horse too.
        for sig, seconds in ((signal.SIGINT, 3), (signal.SIGINT, 10), (signal.SIGKILL, 10)):
            if self.process.poll() is not None:
                return
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=seconds)
            except subprocess.TimeoutExpired:
                continue


@pytest.fixture
def redis_jobs(redis_url: str) -> Iterator[RedisJobs]:
    import redis as redis_client
    from rq import Queue

    client = redis_client.Redis.from_url(redis_url)
    keys = [*client.scan_iter(f"{PREFIX}:*"), *client.scan_iter(f"{COUNTERS}*"), *client.scan_iter("rq:*")]
    if keys:
        client.delete(*keys)  # what an earlier run of these tests left (this database is the tests' own)
    Queue(QUEUE, connection=client).empty()
    client.close()
    jobs = RedisJobs(redis_url, PACED)
    yield jobs
    jobs.close()


def test_redis_progress_result_cache_and_cancel(
    redis_jobs: RedisJobs, redis_url: str, stored: tuple[str, str, int]
) -> None:
    url, game_id, head = stored
    worker = WorkerProcess(redis_url, url)
    try:
        info, created = redis_jobs.submit(task_of(game_id, head, "steady"))
        assert created and info.status == "queued" and info.task == task_of(game_id, head, "steady")
        seen = wait_until(
            lambda: (j := redis_jobs.get(info.job_id)) and 0 < j.done < head and j, 60, "progress"
        )
        assert seen.status == "running" and seen.total == head and seen.started_at
        done = wait_status(redis_jobs, info.job_id, ["finished"], 60)
        assert done.result is not None and done.result["decisions"] == head and done.attempts == 1
        again, created = redis_jobs.submit(task_of(game_id, head, "steady"))
        assert not created and again.job_id == info.job_id and again.result == done.result
        assert redis_jobs.redis.llen(COUNTERS + "starts") == 1  # the cache answered

        slow, _ = redis_jobs.submit(task_of(game_id, head, "slow", viewer=2))
        wait_until(lambda: redis_jobs.get(slow.job_id).done > 0, 60, "the slow job to start")  # type: ignore[union-attr]
        asked = redis_jobs.cancel(slow.job_id)
        assert asked is not None and asked.status == "cancelling"
        ended = wait_status(redis_jobs, slow.job_id, ["cancelled"], 30)
        assert ended.result is None and ended.done < head
        assert redis_jobs.redis.get(f"{PREFIX}:result:{slow.task.digest}") is None
        assert redis_jobs.get("no-such-job") is None and redis_jobs.cancel("no-such-job") is None
    finally:
        worker.stop()
    # Queued with no worker running: cancelled at once, never run.
    queued, _ = redis_jobs.submit(task_of(game_id, head, "quick", viewer=1))
    cancelled = redis_jobs.cancel(queued.job_id)
    assert cancelled is not None and cancelled.status == "cancelled"


@pytest.mark.slow
def test_redis_job_survives_a_killed_worker_with_one_result(
    redis_jobs: RedisJobs, redis_url: str, stored: tuple[str, str, int]
) -> None:
    url, game_id, head = stored
    task = task_of(game_id, head, "slow")
    first = WorkerProcess(redis_url, url)
    second: WorkerProcess | None = None
    try:
        info, _ = redis_jobs.submit(task)
        wait_until(lambda: (j := redis_jobs.get(info.job_id)) and j.done >= 5, 60, "the job to be under way")
        # Kill the worker and its work horse (the process running the analysis) outright.
        horse = int(redis_jobs.redis.lindex(COUNTERS + "starts", 0))  # type: ignore[arg-type]
        os.kill(horse, signal.SIGKILL)
        first.process.send_signal(signal.SIGKILL)
        first.process.wait(timeout=10)
        assert redis_jobs.get(info.job_id).status == "running"  # type: ignore[union-attr]  # nobody knows yet
        second = WorkerProcess(redis_url, url)
        done = wait_status(redis_jobs, info.job_id, ["finished"], 120)
        assert done.attempts == 2 and done.result is not None and done.result["decisions"] == head
        starts = [int(p) for p in redis_jobs.redis.lrange(COUNTERS + "starts", 0, -1)]
        finishes = [int(p) for p in redis_jobs.redis.lrange(COUNTERS + "finishes", 0, -1)]
        assert len(starts) == 2 and starts[0] == horse and finishes == [starts[1]]
        assert len(list(redis_jobs.redis.scan_iter(f"{PREFIX}:result:*"))) == 1
        again, created = redis_jobs.submit(task)
        assert not created and again.job_id == info.job_id
    finally:
        first.stop()
        if second is not None:
            second.stop()


def test_redis_a_failing_analysis_fails_once_and_logs_no_message(
    redis_jobs: RedisJobs, redis_url: str, stored: tuple[str, str, int], tmp_path: Path
) -> None:
    url, game_id, head = stored
    log = tmp_path / "worker.log"
    worker = WorkerProcess(redis_url, url, "broken", log)
    try:
        info, _ = redis_jobs.submit(task_of(game_id, head))
        failed = wait_status(redis_jobs, info.job_id, ["failed"], 60)
        assert failed.error == "the analysis failed; the error was logged" and failed.result is None
        assert failed.attempts == 1 and redis_jobs.redis.llen(COUNTERS + "starts") == 1  # not re-run
    finally:
        worker.stop()
    logged = log.read_text()
    assert "ValueError" in logged and "C12-C07" not in logged


def test_galileo_worker_help_and_refusal_without_redis() -> None:
    from typer.testing import CliRunner

    from api.cli import app

    env = {"COLUMNS": "200", "NO_COLOR": "1", "REDIS_URL": ""}
    shown = CliRunner().invoke(app, ["worker", "--help"], env=env)
    assert shown.exit_code == 0, shown.output
    for option in ("--redis", "--heartbeat", "--abandon-after", "--burst", "REDIS_URL"):
        assert option in shown.output
    refused = CliRunner().invoke(app, ["worker"], env=env)
    assert refused.exit_code == 1 and "needs Redis" in refused.output


@pytest.mark.slow
def test_redis_job_survives_its_work_horse_killed(
    redis_jobs: RedisJobs, redis_url: str, stored: tuple[str, str, int]
) -> None:
    """Only the child running the analysis dies (say, the kernel's out-of-memory killer): the worker
    sees it at once and re-queues the job, which runs again; one result."""
    url, game_id, head = stored
    worker = WorkerProcess(redis_url, url)
    try:
        info, _ = redis_jobs.submit(task_of(game_id, head, "slow"))
        wait_until(lambda: (j := redis_jobs.get(info.job_id)) and j.done >= 5, 60, "the job to be under way")
        horse = int(redis_jobs.redis.lindex(COUNTERS + "starts", 0))  # type: ignore[arg-type]
        os.kill(horse, signal.SIGKILL)
        done = wait_status(redis_jobs, info.job_id, ["finished"], 120)
        assert done.attempts == 2 and done.result is not None and done.result["decisions"] == head
        starts = [int(p) for p in redis_jobs.redis.lrange(COUNTERS + "starts", 0, -1)]
        finishes = [int(p) for p in redis_jobs.redis.lrange(COUNTERS + "finishes", 0, -1)]
        assert len(starts) == 2 and starts[0] == horse and finishes == [starts[1]]
        assert worker.process.poll() is None  # the worker itself lives on
        assert len(list(redis_jobs.redis.scan_iter(f"{PREFIX}:result:*"))) == 1
    finally:
        worker.stop()


@pytest.mark.redis
def test_redis_limits_and_who_may_cancel(redis_jobs: RedisJobs, stored: tuple[str, str, int]) -> None:
    """No worker: the jobs stay queued. Per asker and in all, the queue's length decides (every API
    replica sees the same); only an asker withdraws a job, and it is cancelled when the last one does."""
    _, game_id, head = stored
    limits = JobLimits(per_asker=1, queued=2)
    first, _ = redis_jobs.submit(task_of(game_id, head, "slow", viewer=0), "alice", limits)
    same, created = redis_jobs.submit(task_of(game_id, head, "slow", viewer=0), "bob", limits)
    assert not created and same.job_id == first.job_id  # joining a job costs nothing
    with pytest.raises(JobRefused) as mine:
        redis_jobs.submit(task_of(game_id, head, "slow", viewer=1), "alice", limits)
    assert mine.value.scope == "client"
    redis_jobs.submit(task_of(game_id, head, "slow", viewer=1), "carol", limits)
    with pytest.raises(JobRefused) as full:
        redis_jobs.submit(task_of(game_id, head, "steady"), "dave", limits)
    assert full.value.scope == "queue"
    with pytest.raises(NotAsked):
        redis_jobs.cancel(first.job_id, "mallory")
    kept = redis_jobs.cancel(first.job_id, "alice")
    assert kept is not None and kept.status == "queued"  # bob still wants it
    gone = redis_jobs.cancel(first.job_id, "bob")
    assert gone is not None and gone.status == "cancelled"
    again, created = redis_jobs.submit(task_of(game_id, head, "slow", viewer=2), "alice", limits)
    assert created  # alice's cancelled job no longer counts


def test_local_limits_and_who_may_cancel(stored: tuple[str, str, int]) -> None:
    url, game_id, head = stored
    jobs = LocalJobs(PACED, store_loader(url), threads=1)
    try:
        limits = JobLimits(per_asker=1, queued=2)
        first, _ = jobs.submit(task_of(game_id, head, "slow", viewer=0), "alice", limits)
        with pytest.raises(JobRefused):
            jobs.submit(task_of(game_id, head, "slow", viewer=1), "alice", limits)
        jobs.submit(task_of(game_id, head, "slow", viewer=1), "bob", limits)
        with pytest.raises(JobRefused) as full:
            jobs.submit(task_of(game_id, head, "steady"), "carol", limits)
        assert full.value.scope == "queue"
        with pytest.raises(NotAsked):
            jobs.cancel(first.job_id, "mallory")
        assert jobs.cancel(first.job_id, "alice") is not None
        assert wait_status(jobs, first.job_id, ["cancelled"]).status == "cancelled"
    finally:
        jobs.close()
