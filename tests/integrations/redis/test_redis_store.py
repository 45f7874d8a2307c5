"""The Redis guard store against a real redis-server, with concurrent processes."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path

import pytest

from hintline.agent import AgentGuard, GuardPolicy
from hintline.integrations.redis_store import RedisStore

pytestmark = pytest.mark.live

# Many failures in a row are the point here, not a reason to stop the run.
_PATIENT = GuardPolicy(max_consecutive_errors=10_000, max_loop_warnings=None)


def _bump_many(url: str, run_id: str, n: int) -> None:
    store = RedisStore(url)
    for i in range(n):
        def change(state, i=i):
            state = state or {"count": 0, "seen": []}
            state["count"] += 1
            state["seen"].append(i)
            return state, None

        store.update(run_id, change)


def _fail_via_guard(url: str, run_id: str, n: int) -> None:
    guard = AgentGuard(_PATIENT, run_id=run_id, store=RedisStore(url))
    for i in range(n):
        outcome = guard.call("read_file", {"path": f"/nope/{i}"}, lambda i=i: Path(f"/nope/{i}").read_text())
        assert outcome.is_error


class TestRedisStore:
    def test_round_trip_and_delete(self, redis_url: str) -> None:
        """update returns the change's result; get sees the new state; delete forgets it."""
        store = RedisStore(redis_url)
        assert store.get("r1") is None
        assert store.update("r1", lambda s: ({"n": 1}, "first")) == "first"
        assert store.update("r1", lambda s: ({"n": s["n"] + 1}, s["n"])) == 1
        assert store.get("r1") == {"n": 2}
        store.delete("r1")
        assert store.get("r1") is None

    def test_two_processes_lose_nothing(self, redis_url: str) -> None:
        """Two processes appending to one run's state concurrently: every update is kept."""
        ctx = multiprocessing.get_context("spawn")
        procs = [ctx.Process(target=_bump_many, args=(redis_url, "shared", 300)) for _ in range(2)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(120)
            assert p.exitcode == 0
        state = RedisStore(redis_url).get("shared")
        assert state is not None
        assert state["count"] == 600
        assert len(state["seen"]) == 600

    def test_guard_counters_across_processes(self, redis_url: str) -> None:
        """Two workers failing calls of one run through AgentGuard: the counters add up."""
        ctx = multiprocessing.get_context("spawn")
        procs = [ctx.Process(target=_fail_via_guard, args=(redis_url, "run-42", 40)) for _ in range(2)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(120)
            assert p.exitcode == 0
        guard = AgentGuard(_PATIENT, run_id="run-42", store=RedisStore(redis_url))
        assert guard.consecutive_errors == 80
        assert guard.counts["errors"] == 80

    def test_run_resumes_on_another_worker(self, redis_url: str) -> None:
        """A new guard object for the same run id keeps the error streak and the loop history."""
        store = RedisStore(redis_url)
        first = AgentGuard(run_id="resume-1", store=store)
        for _ in range(2):
            first.call("read_file", {"path": "/nope/config.toml"}, lambda: Path("/nope/config.toml").read_text())
        elsewhere = AgentGuard(run_id="resume-1", store=RedisStore(redis_url))
        assert elsewhere.consecutive_errors == 2
        assert elsewhere.state()["history"] == first.state()["history"]
        assert len(elsewhere.state()["history"]) == 2

    def test_finished_runs_expire(self, redis_url: str) -> None:
        """State untouched for ttl seconds disappears."""
        store = RedisStore(redis_url, ttl=1)
        store.update("short", lambda s: ({"n": 1}, None))
        assert store.get("short") == {"n": 1}
        time.sleep(2.2)
        assert store.get("short") is None
