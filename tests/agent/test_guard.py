"""The agent guard: policy per kind, backoff, loops, escalation, state."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import httpx
import pytest

from hintline import AgentGuard, LoopDetected, RetryBudgetExhausted, TooManyConsecutiveErrors
from hintline.agent import GuardPolicy, InMemoryStore, ToolRefused
from hintline.categories import Kind
from hintline.exceptions import ConfigError
from tests.agent.fakes import FakeClock, connect_closed_port, disk_full, http_server


def make_guard(clock: FakeClock, **policy: object) -> AgentGuard:
    return AgentGuard(
        GuardPolicy(**policy),  # type: ignore[arg-type]
        clock=clock.time,
        sleep=clock.sleep,
        async_sleep=clock.async_sleep,
        random=lambda: 0.5,  # no jitter unless a test says so
    )


class Flaky:
    """A tool that raises the given exceptions in turn, then returns ``value``."""

    def __init__(self, errors: list[BaseException], value: str = "ok") -> None:
        self.errors = list(errors)
        self.value = value
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return self.value


def read(path: Path) -> str:
    return path.read_text()


class TestRecoverable:
    def test_missing_file_returns_hint_and_close_names(self, tmp_path: Path) -> None:
        """A real FileNotFoundError becomes an error result with the hint and close names."""
        (tmp_path / "report.txt").write_text("data")
        missing = tmp_path / "reprot.txt"
        guard = make_guard(FakeClock())
        out = guard.call("read_file", {"path": str(missing)}, lambda: read(missing))
        assert out.is_error
        assert out.failure is not None
        assert out.failure.kind is Kind.RECOVERABLE
        text = out.text()
        assert text.startswith("Hint: ")
        assert f"Perhaps you meant '{tmp_path / 'report.txt'}'?" in text
        assert "Traceback" not in text
        assert guard.consecutive_errors == 1

    def test_notes_are_added_and_bounded(self) -> None:
        """Exception notes are context for the model, bounded by max_result_chars."""
        exc = ValueError("bad column")
        exc.__notes__ = ["Columns are: id, name, email", "x" * 5000]
        guard = make_guard(FakeClock(), max_result_chars=200)
        failure = guard.fail("query", {}, exc)
        assert "Columns are: id, name, email" in failure.content
        assert len(failure.content) <= 200
        assert failure.content.endswith("…")

    def test_success_resets_the_count(self) -> None:
        """A success between failures resets the consecutive-error count."""
        guard = make_guard(FakeClock())
        guard.call("a", {"n": 1}, Flaky([KeyError("x")]))
        guard.call("a", {"n": 2}, Flaky([KeyError("x")]))
        assert guard.consecutive_errors == 2
        assert not guard.call("a", {"n": 3}, Flaky([])).is_error
        assert guard.consecutive_errors == 0

    def test_secret_in_error_is_scrubbed(self) -> None:
        """A credential inside the error text does not reach the model."""
        guard = make_guard(FakeClock())
        exc = RuntimeError("cannot open postgres://admin:hunter2@db.internal/app")
        failure = guard.fail("q", {"dsn": "postgres://admin:hunter2@db/app"}, exc)
        assert "hunter2" not in failure.content


class TestPolicy:
    def test_refusal_says_it_is_intentional_and_is_not_retried(self) -> None:
        """A policy refusal is concise, says it is intentional, and the tool runs once."""
        guard = make_guard(FakeClock())
        tool = Flaky([ToolRefused("path ../secrets is outside the workspace")])
        out = guard.call("read_file", {"path": "../secrets"}, tool)
        assert out.failure is not None
        assert out.failure.kind is Kind.POLICY
        assert "intentional and cannot be bypassed" in out.text()
        assert "Ask the user" in out.text()
        assert tool.calls == 1

    def test_same_refused_call_is_not_run_again(self) -> None:
        """Asking again for a refused call gets the refusal without running the tool."""
        guard = make_guard(FakeClock(), max_consecutive_errors=5)
        tool = Flaky([ToolRefused("outside the workspace")])
        first = guard.call("read_file", {"path": "/etc/shadow"}, tool)
        again = guard.call("read_file", {"path": "/etc/shadow"}, tool)
        assert tool.calls == 1
        assert again.failure is not None
        assert again.failure.content == first.text()
        assert guard.counts["refused"] == 2

    def test_http_403_is_policy(self) -> None:
        """A real HTTP 403 from httpx is a policy failure."""
        with http_server(403) as url:
            response = httpx.get(url)
        guard = make_guard(FakeClock())
        failure = guard.fail("fetch", {"url": url}, _status_error(response))
        assert failure.kind is Kind.POLICY


def _status_error(response: httpx.Response) -> httpx.HTTPStatusError:
    try:
        response.raise_for_status()
    except httpx.HTTPStatusError as exc:
        return exc
    raise AssertionError("no error status")


class TestSystem:
    def test_blip_retries_at_once_then_backs_off(self) -> None:
        """A refused connection to a configured service is retried at once, then after 1 s; never
        shown to the model."""
        clock = FakeClock()
        guard = make_guard(clock)
        errors: list[BaseException] = []
        for _ in range(2):
            try:
                connect_closed_port()
            except ConnectionRefusedError as exc:
                errors.append(exc)
        tool = Flaky(errors, value="fetched")
        out = guard.call("fetch", {"query": "x"}, tool)  # the address is configured, not chosen
        assert not out.is_error
        assert out.value == "fetched"
        assert out.retries == 2
        assert clock.sleeps == [0.0, 1.0]
        assert guard.consecutive_errors == 0

    def test_budget_spent_stops_the_run(self) -> None:
        """After 0, 1, 2, 4 s the run stops with a message for the user."""
        clock = FakeClock()
        guard = make_guard(clock)

        def always_down() -> str:
            connect_closed_port()
            return "unreachable"

        with pytest.raises(RetryBudgetExhausted) as info:
            guard.call("fetch", {}, always_down)
        assert clock.sleeps == [0.0, 1.0, 2.0, 4.0]
        assert "persisted after 4 retries" in str(info.value)
        assert isinstance(info.value.__cause__, ConnectionRefusedError)

    def test_jitter_stays_in_bounds(self) -> None:
        """Jitter scales each delay by at most ±jitter."""
        clock = FakeClock()
        guard = AgentGuard(
            GuardPolicy(jitter=0.25, immediate_retry_on_blip=False),
            sleep=clock.sleep,
            random=iter([0.0, 0.999, 0.0]).__next__,
        )
        with pytest.raises(RetryBudgetExhausted):
            guard.call("fetch", {}, connect_closed_port)
        assert clock.sleeps[0] == pytest.approx(0.75)
        assert clock.sleeps[1] == pytest.approx(2.5, rel=1e-3)
        assert clock.sleeps[2] == pytest.approx(3.0)

    def test_rate_limit_honours_retry_after(self) -> None:
        """A real 429 with Retry-After: 3 waits 3 s, not the 1 s of the schedule."""
        clock = FakeClock()
        guard = make_guard(clock)
        with http_server(429, retry_after="3") as url:
            tool = Flaky([_status_error(httpx.get(url))], value="done")
        out = guard.call("fetch", {"url": url}, tool)
        assert out.value == "done"
        assert clock.sleeps == [3.0]

    def test_retry_after_http_date(self) -> None:
        """A Retry-After HTTP date is read against the injected clock."""
        clock = FakeClock(start=1_700_000_000.0)  # 2023-11-14 22:13:20 GMT
        with http_server(429, retry_after="Tue, 14 Nov 2023 22:13:30 GMT") as url:
            exc = _status_error(httpx.get(url))
        guard = make_guard(clock)
        failure = guard.fail("fetch", {}, exc)
        assert guard.retry_delay(failure, exc, 0) == pytest.approx(10.0)

    def test_retry_after_too_long_stops(self) -> None:
        """A Retry-After longer than max_retry_after stops at once, saying why."""
        clock = FakeClock()
        with http_server(429, retry_after="600") as url:
            tool = Flaky([_status_error(httpx.get(url))])
        with pytest.raises(RetryBudgetExhausted, match="Retry-After"):
            make_guard(clock).call("fetch", {}, tool)
        assert clock.sleeps == []

    def test_disk_full_is_not_retried(self) -> None:
        """A real ENOSPC (/dev/full) stops the run at once: permanent."""
        clock = FakeClock()
        tool = Flaky([disk_full()])
        with pytest.raises(RetryBudgetExhausted, match="permanent"):
            make_guard(clock).call("write", {}, tool)
        assert tool.calls == 1
        assert clock.sleeps == []

    def test_server_error_backs_off_without_immediate_retry(self) -> None:
        """A real HTTP 503 is transient but not a blip: 1 s, then 2 s."""
        clock = FakeClock()
        with http_server(503) as url:
            errors = [_status_error(httpx.get(url)) for _ in range(2)]
        out = make_guard(clock).call("fetch", {}, Flaky(errors))
        assert out.value == "ok"
        assert clock.sleeps == [1.0, 2.0]


class TestLoops:
    def test_same_call_twice_injects_meta_message(self) -> None:
        """The same call twice in a row adds the loop meta-message to the result."""
        guard = make_guard(FakeClock())
        first = guard.call("search_files", {"query": "*.ts", "limit": 10}, lambda: "10 files")
        second = guard.call("search_files", {"limit": 10, "query": "*.ts"}, lambda: "10 files")
        assert first.notice is None
        assert second.notice == (
            "[hintline] You appear to be stuck in a loop: you called search_files with the same "
            "arguments 2 times in a row. Try a different approach or ask the user."
        )
        assert second.text().endswith(second.notice)

    def test_oscillation_is_detected(self) -> None:
        """A-B-A-B gets the meta-message on the fourth call."""
        guard = make_guard(FakeClock())
        notices = [
            guard.call(t, {"p": t}, lambda: "same").notice
            for t in ("search_files", "read_file", "search_files", "read_file")
        ]
        assert notices[:3] == [None, None, None]
        assert notices[3] is not None
        assert "alternating between search_files and read_file" in notices[3]

    def test_loop_past_warnings_raises(self) -> None:
        """After max_loop_warnings meta-messages, a continuing loop raises LoopDetected."""
        guard = make_guard(FakeClock(), max_loop_warnings=1)
        guard.call("s", {"q": 1}, lambda: "x")
        assert guard.call("s", {"q": 1}, lambda: "x").notice is not None
        with pytest.raises(LoopDetected) as info:
            guard.call("s", {"q": 1}, lambda: "x")
        lines = info.value.summary.splitlines()
        assert lines[1] == "Recent calls, in order:"
        assert lines[2:] == [f'{i}. s({{"q":1}})' for i in (1, 2, 3)]  # the three calls

    def test_thresholds_are_configurable(self) -> None:
        """repeat_threshold=3 waits for the third identical call; oscillation can be off."""
        guard = make_guard(FakeClock(), repeat_threshold=3, detect_oscillation=False)
        notices = [guard.call("s", {}, lambda: "x").notice for _ in range(3)]
        assert notices[:2] == [None, None]
        assert notices[2] is not None
        for t in "abab":
            assert guard.call(t, {}, lambda: "x").notice is None

    def test_different_call_resets_warnings(self) -> None:
        """A call that breaks the loop resets the warning count."""
        guard = make_guard(FakeClock(), max_loop_warnings=1)
        for _ in range(2):
            guard.call("s", {}, lambda: "x")
        guard.call("other", {}, lambda: "x")
        guard.call("s", {}, lambda: "x")
        assert guard.call("s", {}, lambda: "x").notice is not None


class TestEscalation:
    def test_three_failures_escalate_with_summary(self, tmp_path: Path) -> None:
        """The third failure in a row raises with each call and its hint, in order."""
        guard = make_guard(FakeClock())
        hints = []
        for name in ("a.txt", "b.txt"):
            p = tmp_path / name
            hints.append(guard.call("read_file", {"path": name}, lambda p=p: read(p)).failure)
        with pytest.raises(TooManyConsecutiveErrors) as info:
            guard.call("read_file", {"path": "c.txt"}, lambda: read(tmp_path / "c.txt"))
        summary = info.value.summary
        lines = summary.splitlines()
        assert lines[0] == "3 tool calls failed in a row; stopping for a human to take over."
        assert lines[1] == "What was tried, in order:"
        assert lines[2].startswith('1. read_file({"path":"a.txt"}) -> Hint: ')
        assert lines[3].startswith('2. read_file({"path":"b.txt"}) -> Hint: ')
        assert lines[4].startswith('3. read_file({"path":"c.txt"}) -> Hint: ')
        assert hints[0] is not None
        assert hints[0].hint.text in lines[2]

    def test_long_streak_keeps_its_last_attempts(self, tmp_path: Path) -> None:
        """With a high threshold the state keeps the last 20 attempts, not every one (the state
        is serialised on every call), and the summary says how many it leaves out."""
        guard = make_guard(FakeClock(), max_consecutive_errors=50, max_loop_warnings=None)
        for n in range(49):
            guard.call("read_file", {"path": f"{n}.txt"}, lambda n=n: read(tmp_path / f"{n}.txt"))
            assert len(guard.to_dict()["state"]["streak"]) == min(n + 1, 20)
        with pytest.raises(TooManyConsecutiveErrors) as info:
            guard.call("read_file", {"path": "49.txt"}, lambda: read(tmp_path / "49.txt"))
        lines = info.value.summary.splitlines()
        assert lines[0].startswith("50 tool calls failed in a row")
        assert lines[1] == "What was tried, in order (the last 20 of 50):"
        assert lines[2].startswith('1. read_file({"path":"30.txt"}) -> Hint: ')
        assert lines[-1].startswith('20. read_file({"path":"49.txt"}) -> Hint: ')


class TestState:
    def test_round_trip_resumes_elsewhere(self) -> None:
        """to_dict survives JSON; the resumed guard continues the streak and history."""
        guard = make_guard(FakeClock(), max_consecutive_errors=3)
        guard.call("a", {"x": 1}, Flaky([KeyError("k")]))
        guard.call("b", {"x": 2}, Flaky([KeyError("k")]))
        data = json.loads(json.dumps(guard.to_dict()))
        resumed = AgentGuard.from_dict(data)
        assert resumed.run_id == guard.run_id
        assert resumed.policy == guard.policy
        assert resumed.consecutive_errors == 2
        assert resumed.call("b", {"x": 2}, lambda: "ok").notice is not None  # history came too
        guard2 = AgentGuard.from_dict(data)
        with pytest.raises(TooManyConsecutiveErrors):
            guard2.call("c", {}, Flaky([KeyError("k")]))

    def test_bad_data_is_a_config_error(self) -> None:
        """Unknown versions and policy keys raise ConfigError."""
        with pytest.raises(ConfigError):
            AgentGuard.from_dict({"version": 99})
        with pytest.raises(ConfigError):
            GuardPolicy.from_dict({"nope": 1})
        with pytest.raises(ConfigError):
            GuardPolicy(max_consecutive_errors=0)

    def test_shared_store_is_one_run(self) -> None:
        """Two guards with one store and run id (two workers) share the streak."""
        store = InMemoryStore()
        one = AgentGuard(run_id="run-1", store=store)
        two = AgentGuard(run_id="run-1", store=store)
        one.call("a", {}, Flaky([KeyError("k")]))
        two.call("b", {}, Flaky([KeyError("k")]))
        assert one.consecutive_errors == 2
        assert AgentGuard(run_id="run-2", store=store).consecutive_errors == 0

    def test_parallel_calls_count_exactly(self) -> None:
        """Updates are atomic: 8 threads x 50 calls count 400."""
        guard = AgentGuard(GuardPolicy(repeat_threshold=1000, history_size=1000, detect_oscillation=False))

        def work(n: int) -> None:
            for i in range(50):
                guard.call("t", {"n": n, "i": i}, lambda: "ok")

        threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert guard.counts["calls"] == 400
        assert guard.counts["successes"] == 400


class TestAsync:
    async def test_acall_retries_with_async_sleep(self) -> None:
        """acall retries a transient fault with the injected async sleep."""
        clock = FakeClock()
        guard = make_guard(clock)
        tool = Flaky([ConnectionResetError(104, "Connection reset by peer")], value="v")

        async def run() -> str:
            return tool()

        out = await guard.acall("fetch", {}, run)
        assert out.value == "v"
        assert clock.sleeps == [0.0]

    async def test_acall_escalates(self) -> None:
        """acall counts failures and escalates like call."""
        guard = make_guard(FakeClock(), max_consecutive_errors=2)

        async def bad() -> str:
            raise KeyError("customer")

        await guard.acall("a", {"i": 1}, bad)
        with pytest.raises(TooManyConsecutiveErrors):
            await guard.acall("a", {"i": 2}, bad)


class TestIsTransient:
    def test_predicate_for_retry_slots(self) -> None:
        """is_transient: a refused connection and a 503 yes; ENOSPC and a missing file no."""
        from hintline.agent import is_transient
        from tests.agent.fakes import refused_connection

        with http_server(503) as url:
            server_error = _status_error(httpx.get(url))
        assert is_transient(refused_connection())
        assert is_transient(server_error)
        assert not is_transient(disk_full())
        assert not is_transient(FileNotFoundError(2, "No such file or directory", "x.txt"))


class TestNoSecretLeaves:
    def test_escalation_summary_is_scrubbed(self) -> None:
        """Arguments echoed in the human summary go through scrub."""
        guard = make_guard(FakeClock(), max_consecutive_errors=1)
        with pytest.raises(TooManyConsecutiveErrors) as info:
            guard.call("connect", {"dsn": "postgres://admin:hunter2@db/app"}, Flaky([KeyError("k")]))
        assert "hunter2" not in info.value.summary
        assert "hunter2" not in str(info.value)
