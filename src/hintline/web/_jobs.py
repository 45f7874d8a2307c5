"""Hints made in the background: a model call never runs on the server's event loop.

A POST asks for a hint and is answered at once with a page that says the hint is being made and
reloads itself (``<meta http-equiv="refresh">``, no script) until the answer is there. The calls
run on a small thread pool; one entry has at most one call at a time (a second request for it
joins the first), and at most ``max_pending`` calls wait, so a burst of clicks cannot queue an
hour of model time. A finished job is kept for ``keep`` seconds for its owners to read, then
forgotten: hints are not cached (asking again makes a new call).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from hintline.web._security import new_token

__all__ = ["Busy", "Job", "Jobs"]

T = TypeVar("T")


class Busy(Exception):
    """Too many hints are already being made."""


@dataclass
class Job(Generic[T]):
    """One background call.

    Attributes:
        id: the random id in the job page's address.
        key: the entry key it is about.
        owners: the sessions that may read it.
        started: when it was asked for (the jobs' clock).
        future: its result.
        finished: when it finished (``None`` while running).
    """

    id: str
    key: str
    owners: set[str]
    started: float
    future: Future[T]
    finished: float | None = None
    entry: object = field(default=None)

    @property
    def done(self) -> bool:
        """Whether the answer is there."""
        return self.future.done()


class Jobs(Generic[T]):
    """The background calls of one server.

    Args:
        workers: model calls that run at once.
        max_pending: calls that may be running or waiting; beyond that :meth:`submit` raises
            :class:`Busy`.
        keep: seconds a finished job stays readable.
    """

    def __init__(
        self,
        *,
        workers: int = 2,
        max_pending: int = 8,
        keep: float = 900.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.max_pending = max_pending
        self.keep = keep
        self.clock = clock
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="hintline-hint")
        self._jobs: dict[str, Job[T]] = {}
        self._running: dict[str, Job[T]] = {}  # entry key -> its running job
        self._lock = threading.Lock()

    def submit(self, key: str, owner: str, call: Callable[[], T], *, entry: object = None) -> Job[T]:
        """Start ``call`` for the entry ``key``, or join the call already running for it.

        Raises:
            Busy: ``max_pending`` calls are running or waiting.
        """
        with self._lock:
            self._forget_old()
            running = self._running.get(key)
            if running is not None and not running.done:
                running.owners.add(owner)
                return running
            if sum(1 for j in self._running.values() if not j.done) >= self.max_pending:
                raise Busy(f"{self.max_pending} hints are already being made")
            job: Job[T] = Job(
                id=new_token(), key=key, owners={owner}, started=self.clock(),
                future=Future(), entry=entry,
            )
            self._jobs[job.id] = job
            self._running[key] = job
        job.future = self._pool.submit(call)
        job.future.add_done_callback(lambda _: self._finished(job))
        return job

    def _finished(self, job: Job[T]) -> None:
        with self._lock:
            job.finished = self.clock()
            if self._running.get(job.key) is job:
                del self._running[job.key]

    def get(self, job_id: str, owner: str) -> Job[T] | None:
        """The job with this id if ``owner`` may read it."""
        with self._lock:
            self._forget_old()
            job = self._jobs.get(job_id)
        return job if job is not None and owner in job.owners else None

    def _forget_old(self) -> None:
        now = self.clock()
        old = [
            i for i, j in self._jobs.items()
            if j.finished is not None and now - j.finished >= self.keep
        ]
        for job_id in old:
            del self._jobs[job_id]

    def shutdown(self) -> None:
        """Stop taking calls; waiting ones are dropped, running ones end on their own timeout."""
        self._pool.shutdown(wait=False, cancel_futures=True)
