"""Game analysis as background jobs: a queue on Redis (rq) with worker processes, or a worker thread in
the API process when no Redis is configured (`galileo serve` alone), with progress, cancellation and a
result cache (docs/analysis.md).

A job analyses one game at one version for one viewer with one budget. Its `Task` names everything the
result depends on, and so is the cache key: the game, its version, its rules edition and rules version,
the budget, the viewer (a seat, or None: every decision from the acting seat's information) and the
analysis engine's version. The search's seed is derived from the key, so the same task always gives the
same result and a cached result is the one a new run would give.

Redis (`RedisJobs` in the API, `run_worker` in each `galileo worker` process): jobs are rq jobs on the
queue `galileo-analysis`; progress is the job's meta; a cancellation is a key the running job polls
(a queued job is cancelled at once); a result is written once, `SET NX` under the task's key, so a job
that runs twice (re-queued after its worker was killed while a copy finished) stores one result. A
worker that dies mid-job stops sending heartbeats: once they lapse (`abandon_after` seconds after the
last), rq's registry clean-up re-queues the job (each job has `retries` re-queues) and another worker
runs it from the start. An analysis that raises ends its job as failed (running it again would give the
same error); it is logged by the exception's type and frames, never its message.

No Redis (`LocalJobs`): the same tasks run on a pool of threads of the API process, with results kept in
memory (up to `CACHE_LIMIT` tasks, `JOB_LIMIT` jobs listed); they do not survive a restart. The analysis is
pure Python: while it runs it shares the process's interpreter with the API, which answers more slowly;
a deployment that analyses often runs Redis and `galileo worker` processes.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import threading
import time
import traceback
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any, Final, Literal, Protocol

import orjson

from domain.events import Event

logger = logging.getLogger(__name__)

QUEUE: Final = "galileo-analysis"
PREFIX: Final = "galileo:analysis"
CACHE_LIMIT: Final = 256  # tasks whose results an in-process queue keeps
JOB_LIMIT: Final = 1024  # ended jobs an in-process queue keeps listed (the oldest are forgotten first)
POLL_SECONDS: Final = 0.2  # how often a running job looks for its cancellation
META_SECONDS: Final = 0.5  # how often a running job publishes its progress

Status = Literal["queued", "running", "finished", "failed", "cancelling", "cancelled"]
ACTIVE: Final = ("queued", "running")

Progress = Callable[[int, int], None]  # (decisions done, decisions in all)
Cancelled = Callable[[], bool]


class JobCancelled(Exception):
    """Raised by a job's progress callback once the job has been cancelled: the analysis stops there."""


class JobRefused(Exception):
    """A new job the queue will not take now: `scope` "client" (the asker has `limit` jobs queued or
    running already) or "queue" (the queue holds `limit` jobs: every asker waits)."""

    def __init__(self, scope: Literal["client", "queue"], limit: int) -> None:
        super().__init__(f"{scope} limit of {limit} active analyses reached")
        self.scope = scope
        self.limit = limit


class NotAsked(Exception):
    """A cancellation by someone who did not ask for the job (only its askers may withdraw it)."""


@dataclass(frozen=True, slots=True)
class JobLimits:
    """How many jobs may be queued or running at once: per asker and in all (0: no limit). A request
    for an analysis that is already queued, running or done costs nothing: it joins that job."""

    per_asker: int = 0
    queued: int = 0


@dataclass(frozen=True, slots=True)
class Task:
    """One analysis: everything its result depends on (the cache key)."""

    game_id: str
    version: int  # the game's version analysed (its head when asked)
    edition: str  # the game's catalog edition (GameState.catalog_edition)
    rules: str  # the game's rules version (GameState.engine_version)
    budget: str  # a budget level of the analysis engine
    viewer: int | None  # the seat whose information is used; None: each decision's acting seat
    engine: str  # the analysis engine's version

    @property
    def key(self) -> str:
        viewer = "acting" if self.viewer is None else f"seat{self.viewer}"
        return "|".join(
            (self.game_id, str(self.version), self.edition, self.rules, self.budget, viewer, self.engine)
        )

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.key.encode()).hexdigest()

    @property
    def seed(self) -> str:
        """The search's seed: fixed by the task, so a cached result is the one a new run would give."""
        return f"analysis-{self.digest[:32]}"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Task:
        return cls(**{name: data[name] for name in cls.__dataclass_fields__})


@dataclass(frozen=True, slots=True)
class Analyser:
    """The analysis engine as the queue uses it: `run(events, task, progress, cancelled)` analyses the
    game given by `events` (its first `task.version` events) and returns a JSON-serialisable result.
    `budgets` are its budget levels (the first is the default); `version` enters the cache key."""

    run: Callable[[Sequence[Event], Task, Progress, Cancelled], Mapping[str, Any]]
    budgets: tuple[str, ...]
    version: str

    @property
    def default_budget(self) -> str:
        return self.budgets[0]


EventLoader = Callable[[str, int], Sequence[Event]]  # (game, version) -> its first `version` events


@dataclass(slots=True)
class JobInfo:
    """A job as the API shows it (docs/analysis.md)."""

    job_id: str
    task: Task
    status: Status
    done: int = 0
    total: int | None = None
    attempts: int = 1  # runs started (more than one: re-queued after a worker died)
    created_at: str = ""
    started_at: str | None = None
    ended_at: str | None = None
    error: str | None = None
    result: Mapping[str, Any] | None = None


def analyse(
    task: Task, events: Sequence[Event], analyser: Analyser, progress: Progress, cancelled: Cancelled
) -> Mapping[str, Any]:
    """Run the analysis of `task`; raises JobCancelled once `cancelled()` (checked at each progress
    report too, so an analysis that only reports progress still stops)."""

    def report(done: int, total: int) -> None:
        progress(done, total)
        if cancelled():
            raise JobCancelled

    if cancelled():
        raise JobCancelled
    result = analyser.run(events, task, report, cancelled)
    if cancelled():
        raise JobCancelled
    return result


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


FAILED_DETAIL: Final = "the analysis failed; the error was logged"  # never the exception's text


def log_failure(job_id: str, error: Exception) -> None:
    """Log a failed analysis by its exception's type and where it was raised, never its message: the
    message of an error inside a running game's search could name a card its viewer has not seen."""
    frames = "".join(traceback.format_tb(error.__traceback__))
    logger.error("analysis job %s failed: %s\n%s", job_id, type(error).__name__, frames)


NO_LIMITS: Final = JobLimits()


class JobQueue(Protocol):
    """Where the API sends analyses (RedisJobs or LocalJobs)."""

    analyser: Analyser  # its budgets and version make the tasks (Redis: the workers run their own)

    def submit(self, task: Task, asker: str = "", limits: JobLimits = NO_LIMITS) -> tuple[JobInfo, bool]:
        """The job of `task`: the one queued, running or finished already (False; `asker` joins its
        askers), else a new one (True) unless `limits` refuse it (JobRefused)."""
        ...

    def get(self, job_id: str) -> JobInfo | None: ...

    def find(self, task: Task) -> JobInfo | None:
        """The latest job of `task`, if one was submitted (and is still known)."""
        ...

    def cancel(self, job_id: str, asker: str | None = None) -> JobInfo | None:
        """Withdraw `asker`'s request for a queued or running job (NotAsked if it made none): the job
        is cancelled once nobody who asked for it still wants it (a finished one is left as it is).
        `asker` None: an operator's cancellation, whoever asked."""
        ...

    def ping(self) -> None: ...

    def close(self) -> None: ...


# -- in-process ------------------------------------------------------------------------------------


@dataclass(eq=False)
class _LocalJob:
    info: JobInfo
    cancel: threading.Event = field(default_factory=threading.Event)
    askers: set[str] = field(default_factory=set)


class LocalJobs:
    """Jobs on `threads` worker threads of this process; results kept in memory (LRU of CACHE_LIMIT)."""

    def __init__(self, analyser: Analyser, load: EventLoader, threads: int = 1) -> None:
        self.analyser = analyser
        self._load = load
        self._pool = ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="analysis")
        self._lock = threading.Lock()
        self._jobs: dict[str, _LocalJob] = {}
        self._latest: dict[str, str] = {}  # task digest -> its latest job
        self._results: OrderedDict[str, Mapping[str, Any]] = OrderedDict()

    def submit(self, task: Task, asker: str = "", limits: JobLimits = NO_LIMITS) -> tuple[JobInfo, bool]:
        with self._lock:
            known = self._jobs.get(self._latest.get(task.digest, ""))
            if known is not None and (known.info.status in ACTIVE or task.digest in self._results):
                if known.info.status in ACTIVE:
                    known.askers.add(asker)
                return self._view(known), False
            if task.digest not in self._results:
                self._admit(asker, limits)
            job = _LocalJob(JobInfo(uuid.uuid4().hex, task, "queued", created_at=_now()), askers={asker})
            self._forget_old()
            self._jobs[job.info.job_id] = job
            self._latest[task.digest] = job.info.job_id
            if task.digest in self._results:  # known from an earlier job that is no longer listed
                job.info.status, job.info.ended_at = "finished", job.info.created_at
                return self._view(job), True
        self._pool.submit(self._run, job)
        return self._view(job), True

    def _admit(self, asker: str, limits: JobLimits) -> None:
        """Refuse a new job beyond `limits` (under the lock)."""
        active = [j for j in self._jobs.values() if j.info.status in (*ACTIVE, "cancelling")]
        if 0 < limits.queued <= len(active):
            raise JobRefused("queue", limits.queued)
        mine = sum(1 for j in active if asker in j.askers)
        if 0 < limits.per_asker <= mine:
            raise JobRefused("client", limits.per_asker)

    def _forget_old(self) -> None:
        """Keep at most JOB_LIMIT jobs listed, dropping the oldest ended ones (under the lock)."""
        excess = len(self._jobs) - JOB_LIMIT + 1
        if excess <= 0:
            return
        ended = [j for j in self._jobs.values() if j.info.status not in (*ACTIVE, "cancelling")][:excess]
        for old in ended:
            del self._jobs[old.info.job_id]
            if self._latest.get(old.info.task.digest) == old.info.job_id:
                del self._latest[old.info.task.digest]

    def _run(self, job: _LocalJob) -> None:
        info = job.info
        with self._lock:
            if job.cancel.is_set():
                return
            info.status, info.started_at = "running", _now()

        def progress(done: int, total: int) -> None:
            info.done, info.total = done, total

        try:
            events = self._load(info.task.game_id, info.task.version)
            result = analyse(info.task, events, self.analyser, progress, job.cancel.is_set)
        except JobCancelled:
            with self._lock:
                info.status, info.ended_at = "cancelled", _now()
            return
        except Exception as error:
            log_failure(info.job_id, error)
            with self._lock:
                info.status, info.ended_at, info.error = "failed", _now(), FAILED_DETAIL
            return
        with self._lock:
            self._results[info.task.digest] = result
            self._results.move_to_end(info.task.digest)
            while len(self._results) > CACHE_LIMIT:
                self._results.popitem(last=False)
            info.status, info.ended_at = "finished", _now()

    def _view(self, job: _LocalJob) -> JobInfo:
        info = job.info
        result = self._results.get(info.task.digest) if info.status == "finished" else None
        return JobInfo(**{**{f: getattr(info, f) for f in JobInfo.__dataclass_fields__}, "result": result})

    def get(self, job_id: str) -> JobInfo | None:
        with self._lock:
            job = self._jobs.get(job_id)
            return None if job is None else self._view(job)

    def find(self, task: Task) -> JobInfo | None:
        with self._lock:
            job = self._jobs.get(self._latest.get(task.digest, ""))
            return None if job is None else self._view(job)

    def cancel(self, job_id: str, asker: str | None = None) -> JobInfo | None:
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None:
                return None
            if asker is not None:
                if asker not in job.askers:
                    raise NotAsked(job_id)
                if job.info.status in ACTIVE:
                    job.askers.discard(asker)
                    if job.askers:  # others still want it
                        return self._view(job)
            if job.info.status == "queued":
                job.cancel.set()
                job.info.status, job.info.ended_at = "cancelled", _now()
            elif job.info.status == "running":
                job.cancel.set()
                job.info.status = "cancelling"
            return self._view(job)

    def ping(self) -> None:
        return None

    def close(self) -> None:
        with self._lock:
            for job in self._jobs.values():
                job.cancel.set()
        self._pool.shutdown(wait=True, cancel_futures=True)


# -- Redis (rq) ------------------------------------------------------------------------------------


def result_key(task: Task) -> str:
    return f"{PREFIX}:result:{task.digest}"


def latest_key(task: Task) -> str:
    return f"{PREFIX}:latest:{task.digest}"


def attempts_key(job_id: str) -> str:
    return f"{PREFIX}:attempts:{job_id}"


def cancel_key(job_id: str) -> str:
    return f"{PREFIX}:cancel:{job_id}"


def askers_key(job_id: str) -> str:
    return f"{PREFIX}:askers:{job_id}"


def asked_key(asker: str) -> str:
    """The jobs one asker asked for (pruned of ended ones when counted)."""
    return f"{PREFIX}:asked:{asker}"


@dataclass(frozen=True, slots=True)
class QueueSettings:
    """How long things are kept and how failures are handled (GALILEO_ANALYSIS_* settings)."""

    result_seconds: int = 7 * 24 * 3600  # a cached result, and the finished job that points at it
    job_timeout_seconds: int = 3600  # one run of one job, then rq stops it
    retries: int = 2  # re-queues of a job whose worker died (or whose run failed)


class RedisJobs:
    """The API's side of the rq queue: submit, look up, cancel. Workers are `galileo worker` processes."""

    def __init__(self, url: str, analyser: Analyser, settings: QueueSettings | None = None) -> None:
        from redis import Redis
        from rq import Queue

        self.analyser = analyser
        self.settings = settings or QueueSettings()
        self.redis = Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        self.queue = Queue(QUEUE, connection=self.redis)

    def submit(self, task: Task, asker: str = "", limits: JobLimits = NO_LIMITS) -> tuple[JobInfo, bool]:
        from rq import Retry

        with self.redis.lock(f"{PREFIX}:lock:{task.digest}", timeout=10, blocking_timeout=10):
            known = self.find(task)
            if known is not None and (known.status in ACTIVE or known.status == "finished"):
                if known.status in ACTIVE:
                    self._ask(known.job_id, asker)
                return known, False
            self._admit(asker, limits)
            job_id = uuid.uuid4().hex
            self._ask(job_id, asker)
            self.queue.enqueue(
                perform,
                task.to_dict(),
                job_id=job_id,
                retry=Retry(max=self.settings.retries) if self.settings.retries else None,
                job_timeout=self.settings.job_timeout_seconds,
                result_ttl=self.settings.result_seconds,
                failure_ttl=self.settings.result_seconds,
                ttl=self.settings.result_seconds,
                meta={"task": task.to_dict(), "created_at": _now()},
                description=f"analysis of {task.game_id} at {task.version} ({task.budget})",
            )
            self.redis.set(latest_key(task), job_id, ex=self.settings.result_seconds)
        info = self.get(job_id)
        assert info is not None
        return info, True

    def _ask(self, job_id: str, asker: str) -> None:
        ttl = self.settings.result_seconds
        with self.redis.pipeline() as pipe:
            pipe.sadd(askers_key(job_id), asker)
            pipe.expire(askers_key(job_id), ttl)
            pipe.sadd(asked_key(asker), job_id)
            pipe.expire(asked_key(asker), ttl)
            pipe.execute()

    def _admit(self, asker: str, limits: JobLimits) -> None:
        """Refuse a new job beyond `limits`: the queue's length and running jobs (every API replica
        and worker sees the same), then the asker's own jobs still queued or running."""
        from rq.registry import StartedJobRegistry

        if limits.queued > 0:
            backlog = len(self.queue) + StartedJobRegistry(queue=self.queue).count
            if backlog >= limits.queued:
                raise JobRefused("queue", limits.queued)
        if limits.per_asker > 0:
            active = 0
            for raw in self.redis.smembers(asked_key(asker)):
                job_id = raw.decode() if isinstance(raw, bytes) else str(raw)
                info = self.get(job_id)
                if info is None or info.status not in (*ACTIVE, "cancelling"):
                    self.redis.srem(asked_key(asker), job_id)
                else:
                    active += 1
            if active >= limits.per_asker:
                raise JobRefused("client", limits.per_asker)

    def _requeue_abandoned(self) -> None:
        """rq's registry clean-up: a running job whose worker stopped sending heartbeats is re-queued
        (workers do it too, every maintenance interval; doing it on a read makes it prompt)."""
        from rq.registry import StartedJobRegistry

        StartedJobRegistry(queue=self.queue).cleanup()

    def get(self, job_id: str) -> JobInfo | None:
        from rq.exceptions import NoSuchJobError
        from rq.job import Job

        self._requeue_abandoned()
        try:
            job = Job.fetch(job_id, connection=self.redis)
        except NoSuchJobError:
            return None
        meta = job.get_meta(refresh=True)
        if "task" not in meta:
            return None  # not an analysis job
        task = Task.from_dict(meta["task"])
        status = _status(job.get_status(refresh=False), meta, bool(self.redis.exists(cancel_key(job_id))))
        result = None
        if status == "finished":
            raw = self.redis.get(result_key(task))
            if raw is None:  # the cached result expired before its job
                return None
            result = orjson.loads(raw)
        progress = meta.get("progress") or {}
        return JobInfo(
            job_id=job_id,
            task=task,
            status=status,
            done=int(progress.get("done", 0)),
            total=progress.get("total"),
            attempts=int(self.redis.get(attempts_key(job_id)) or 0) or 1,
            created_at=str(meta.get("created_at", "")),
            started_at=meta.get("started_at"),
            ended_at=meta.get("ended_at"),
            error=FAILED_DETAIL if status == "failed" else None,
            result=result,
        )

    def find(self, task: Task) -> JobInfo | None:
        job_id = self.redis.get(latest_key(task))
        if job_id is None:
            return None
        return self.get(job_id.decode() if isinstance(job_id, bytes) else str(job_id))

    def cancel(self, job_id: str, asker: str | None = None) -> JobInfo | None:
        from rq.exceptions import InvalidJobOperation, NoSuchJobError
        from rq.job import Job, JobStatus

        try:
            job = Job.fetch(job_id, connection=self.redis)
        except NoSuchJobError:
            return None
        if "task" not in job.get_meta(refresh=True):
            return None
        if asker is not None and not self.redis.sismember(askers_key(job_id), asker):
            raise NotAsked(job_id)
        state = job.get_status(refresh=False)
        if state in (JobStatus.FINISHED, JobStatus.FAILED, JobStatus.CANCELED, JobStatus.STOPPED):
            return self.get(job_id)
        if asker is not None:
            self.redis.srem(askers_key(job_id), asker)
            self.redis.srem(asked_key(asker), job_id)
            if self.redis.scard(askers_key(job_id)) > 0:  # others still want it
                return self.get(job_id)
        # The running job polls this key; a queued one is taken off the queue now (and, should a worker
        # have taken it meanwhile, it sees the key before it starts).
        self.redis.set(cancel_key(job_id), "1", ex=self.settings.result_seconds)
        if state in (JobStatus.QUEUED, JobStatus.DEFERRED, JobStatus.SCHEDULED):
            with contextlib.suppress(InvalidJobOperation):  # taken by a worker meanwhile: it stops at its
                job.cancel()  # first poll
        return self.get(job_id)

    def ping(self) -> None:
        self.redis.ping()

    def close(self) -> None:
        self.redis.close()


def _status(state: Any, meta: Mapping[str, Any], cancel_asked: bool) -> Status:
    from rq.job import JobStatus

    if meta.get("cancelled") or state in (JobStatus.CANCELED, JobStatus.STOPPED):
        return "cancelled"
    if state == JobStatus.FAILED or meta.get("failed"):
        return "failed"
    if state == JobStatus.FINISHED:
        return "finished"
    if state == JobStatus.FAILED:
        return "failed"
    if state == JobStatus.STARTED:
        return "cancelling" if cancel_asked else "running"
    return "cancelling" if cancel_asked else "queued"


# -- the worker's side -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WorkerContext:
    """What the jobs of one worker process need: the event store's URL and the analysis engine."""

    database_url: str
    analyser: Analyser
    result_seconds: int = 7 * 24 * 3600  # as QueueSettings.result_seconds


_context: WorkerContext | None = None


def set_worker_context(context: WorkerContext) -> None:
    """Called once by a worker process before it takes jobs (rq forks a work horse per job, which
    inherits it)."""
    global _context
    _context = context


def store_loader(database_url: str) -> EventLoader:
    """Events from the event store at `database_url`, opened per call (a work horse is a fork: it must
    not share its parent's connections)."""

    def load(game_id: str, version: int) -> Sequence[Event]:
        from replays.service import Games

        with Games(database_url) as games:
            return [stored.event for stored in games.events(game_id, 0, version)]

    return load


def perform(task_data: Mapping[str, Any]) -> dict[str, Any]:
    """The rq job: analyse, publish progress, stop when cancelled, store the result once."""
    from rq import get_current_job

    job: Any = get_current_job()
    if job is None or _context is None:
        raise RuntimeError("perform runs in a `galileo worker` process")
    task = Task.from_dict(task_data)
    redis = job.connection
    # A counter of its own: rq re-queues a job whose work horse died from the worker's copy of the job,
    # whose meta predates this run's.
    redis.incr(attempts_key(job.id))
    redis.expire(attempts_key(job.id), _context.result_seconds)
    job.meta["started_at"] = _now()
    job.meta.pop("progress", None)
    job.save_meta()
    key = result_key(task)
    if redis.exists(key):  # a copy of this task finished first: its result stands
        return _ended(job, {"stored": False})
    published = [0.0]
    polled = [0.0, False]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if now - published[0] >= META_SECONDS or done >= total:
            published[0] = now
            job.meta["progress"] = {"done": done, "total": total}
            job.save_meta()

    def cancelled() -> bool:
        now = time.monotonic()
        if not polled[1] and now - float(polled[0]) >= POLL_SECONDS:
            polled[0], polled[1] = now, bool(redis.exists(cancel_key(job.id)))
        return bool(polled[1])

    events = store_loader(_context.database_url)(task.game_id, task.version)
    try:
        result = analyse(task, events, _context.analyser, progress, cancelled)
    except JobCancelled:
        job.meta["cancelled"] = True
        return _ended(job, {"cancelled": True})
    except Exception as error:  # the analysis refused the game: running it again would not help, so
        log_failure(job.id, error)  # the job ends here (rq re-queues only jobs whose worker died)
        job.meta["failed"] = True
        return _ended(job, {"failed": True})
    stored = bool(redis.set(key, orjson.dumps(result), nx=True, ex=_context.result_seconds))
    return _ended(job, {"stored": stored})


def _ended(job: Any, outcome: dict[str, Any]) -> dict[str, Any]:
    job.meta["ended_at"] = _now()
    job.save_meta()
    return outcome


@dataclass(frozen=True, slots=True)
class WorkerSettings:
    """One worker process (the `galileo worker` options)."""

    heartbeat_seconds: int = 10  # how often a running job's worker says it is alive
    abandon_after: int = 30  # a running job without a heartbeat for this long is re-queued
    maintenance_seconds: int = 30  # how often the worker looks for abandoned jobs (among others)
    burst: bool = False  # stop once the queue is empty
    name: str | None = None


def make_worker(redis_url: str, settings: WorkerSettings) -> Any:
    """An rq worker on the analysis queue, forking a work horse per job, whose jobs count as abandoned
    `abandon_after` seconds after their last heartbeat (rq's own grace is a fixed minute)."""
    from redis import Redis
    from rq import Worker
    from rq.job import Job

    class AnalysisWorker(Worker):
        def get_heartbeat_ttl(self, job: Job) -> int:
            interval = int(self.job_monitoring_interval)
            if job.timeout and job.timeout > 0:
                interval = int(min(job.timeout - self.current_job_working_time, interval))
            return max(1, interval) + settings.abandon_after

    connection = Redis.from_url(redis_url)
    return AnalysisWorker(
        [QUEUE],
        connection=connection,
        name=settings.name,
        job_monitoring_interval=settings.heartbeat_seconds,
        maintenance_interval=settings.maintenance_seconds,
    )


def run_worker(redis_url: str, context: WorkerContext, settings: WorkerSettings | None = None) -> bool:
    """Take analysis jobs until stopped (SIGINT/SIGTERM: the running job is finished first; a second
    signal stops at once), or until the queue is empty with `burst`. True if any job was run."""
    settings = settings or WorkerSettings()
    set_worker_context(context)
    worker = make_worker(redis_url, settings)
    return bool(worker.work(burst=settings.burst, logging_level="INFO"))


# -- the analysis engine ---------------------------------------------------------------------------


def engine_analyser() -> Analyser:
    """domain.analysis.analyse_game at the search's named levels (the default first). Only named levels:
    a budget of the caller's own could ask a worker for any amount of work."""
    from domain.analysis import AnalysisCancelled, analyse_game, analyser_version
    from domain.search import DEFAULT_LEVEL, LEVELS

    def run(
        events: Sequence[Event], task: Task, progress: Progress, cancelled: Cancelled
    ) -> Mapping[str, Any]:
        try:
            analysis = analyse_game(
                events,
                viewer=task.viewer,
                budget=LEVELS[task.budget],
                seed=task.seed,
                progress=progress,
                cancelled=cancelled,
            )
        except AnalysisCancelled:
            raise JobCancelled from None
        return analysis.as_dict()

    budgets = (DEFAULT_LEVEL, *(name for name in LEVELS if name != DEFAULT_LEVEL))
    return Analyser(run=run, budgets=budgets, version=analyser_version())
