"""Escalation shared across the workers of a run, and the guard while Redis is away (fail closed).

Real ``redis-server`` processes: the session one, and one per test that the test pauses
(``SIGSTOP``: a hung server) or stops (a server gone).
"""

from __future__ import annotations

import multiprocessing
import signal
import subprocess
import time
from pathlib import Path

import pytest

from hintline.agent import AgentGuard, GuardPolicy
from hintline.exceptions import TooManyConsecutiveErrors
from hintline.integrations.redis_store import GuardStoreUnavailable, RedisStore

pytestmark = pytest.mark.live

_POLICY = GuardPolicy(max_consecutive_errors=3, max_loop_warnings=None)


def _missing(i: int) -> str:
    return Path(f"/nonexistent/hintline/{i}.txt").read_text()


def _fail_until_stopped(url: str, run_id: str, out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    guard = AgentGuard(_POLICY, run_id=run_id, store=RedisStore(url))
    try:
        for i in range(10):
            guard.call("read_file", {"path": f"/nonexistent/{i}"}, lambda i=i: _missing(i))
    except TooManyConsecutiveErrors as exc:
        out.put(("stopped", exc.summary))
        return
    out.put(("not stopped", ""))


class TestSharedStop:
    def test_a_stop_in_one_worker_stops_the_others(self, redis_url: str) -> None:
        run_id = f"stop-{time.monotonic_ns()}"
        results: multiprocessing.Queue = multiprocessing.get_context("fork").Queue()  # type: ignore[type-arg]
        worker = multiprocessing.get_context("fork").Process(
            target=_fail_until_stopped, args=(redis_url, run_id, results)
        )
        worker.start()
        worker.join(60)
        kind, summary = results.get(timeout=5)
        assert kind == "stopped"
        other = AgentGuard(_POLICY, run_id=run_id, store=RedisStore(redis_url))
        ran: list[int] = []
        with pytest.raises(TooManyConsecutiveErrors) as caught:
            other.call("list_dir", {"path": "/"}, lambda: ran.append(1))
        assert not ran  # the tool did not run
        assert caught.value.summary == summary

    def test_a_later_success_elsewhere_does_not_clear_it(self, redis_url: str) -> None:
        run_id = f"sticky-{time.monotonic_ns()}"
        a = AgentGuard(_POLICY, run_id=run_id, store=RedisStore(redis_url))
        b = AgentGuard(_POLICY, run_id=run_id, store=RedisStore(redis_url))
        for i in range(2):
            a.fail("read_file", {"path": str(i)}, FileNotFoundError(2, "No such file or directory", str(i)))
        with pytest.raises(TooManyConsecutiveErrors):
            a.fail("read_file", {"path": "2"}, FileNotFoundError(2, "No such file or directory", "2"))
        b.succeed("list_dir", {"path": "/"})  # a call B had started before the stop
        with pytest.raises(TooManyConsecutiveErrors):
            b.begin("list_dir", {"path": "/tmp"})
        with pytest.raises(TooManyConsecutiveErrors):
            a.begin("list_dir", {"path": "/tmp"})
        a.reset()  # a human took over
        assert b.call("list_dir", {"path": "/"}, lambda: "ok").value == "ok"


class TestRedisAway:
    def test_server_gone_fails_closed_with_a_clear_error(
        self, redis_server: tuple[str, subprocess.Popen[bytes]]
    ) -> None:
        url, proc = redis_server
        guard = AgentGuard(_POLICY, run_id="gone", store=RedisStore(url, timeout=0.5))
        assert guard.call("t", {}, lambda: 1).value == 1
        proc.terminate()
        proc.wait(10)
        ran: list[int] = []
        started = time.monotonic()
        with pytest.raises(GuardStoreUnavailable) as caught:
            guard.call("t", {"x": 1}, lambda: ran.append(1))
        assert time.monotonic() - started < 5
        assert not ran
        text = str(caught.value)
        assert "refused or lost the connection" in text
        assert "fails closed" in text
        assert "'gone'" in text

    def test_server_hung_times_out_then_recovers(
        self, redis_server: tuple[str, subprocess.Popen[bytes]]
    ) -> None:
        url, proc = redis_server
        guard = AgentGuard(_POLICY, run_id="hung", store=RedisStore(url, timeout=0.5))
        guard.fail("read_file", {"path": "a"}, FileNotFoundError(2, "No such file or directory", "a"))
        proc.send_signal(signal.SIGSTOP)
        try:
            started = time.monotonic()
            with pytest.raises(GuardStoreUnavailable, match="timed out"):
                guard.call("t", {}, lambda: 1)
            assert time.monotonic() - started < 3  # bounded, not the length of the outage
        finally:
            proc.send_signal(signal.SIGCONT)
        assert guard.consecutive_errors == 1  # the state Redis kept
        assert guard.call("t", {}, lambda: 2).value == 2
