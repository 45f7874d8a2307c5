"""One guard, many runs; and the four decisions the taxonomy leaves open, at the guard level."""

from __future__ import annotations

import json
import threading

import pytest

from hintline import TooManyConsecutiveErrors
from hintline.agent import AgentGuard, GuardPolicy, ToolRefused
from hintline.exceptions import RetryBudgetExhausted
from tests.agent.fakes import FakeClock, connect_closed_port, disk_full, refused_connection
from tests.agent.test_guard import Flaky, make_guard


class QuotaExceeded(Exception):
    """An exception of a third-party package."""


QuotaExceeded.__module__ = "acme.billing.errors"


def missing() -> str:
    return open("/nonexistent/hintline/x.txt").read()


class TestRuns:
    def test_runs_do_not_share_state(self) -> None:
        """Two runs of one template: run 1's two failures do not count in run 2."""
        guard = make_guard(FakeClock())
        one, two = guard.for_run("one"), guard.for_run("two")
        for i in range(2):
            one.call("read_file", {"path": f"a{i}"}, missing)
        out = two.call("read_file", {"path": "b"}, missing)
        assert out.is_error
        assert two.consecutive_errors == 1
        assert one.consecutive_errors == 2
        with pytest.raises(TooManyConsecutiveErrors) as info:
            one.call("read_file", {"path": "a2"}, missing)
        assert '"path":"b"' not in info.value.summary
        assert guard.consecutive_errors == 0  # the template's own key was never touched

    def test_run_block_scopes_and_forgets(self) -> None:
        guard = make_guard(FakeClock())
        with guard.run() as run:
            assert guard.current().run_id == run.run_id
            run.call("read_file", {"path": "a"}, missing)
            assert run.counts["errors"] == 1
        assert guard.current() is guard
        assert guard.store.get(run.run_id) is None  # forgotten when the run ended
        with guard.run(keep=True) as kept:
            kept.call("read_file", {"path": "a"}, missing)
        assert kept.counts["errors"] == 1

    def test_run_block_is_per_context(self) -> None:
        """Threads running their own runs of one guard see their own current run."""
        guard = make_guard(FakeClock())
        seen: dict[str, str] = {}

        def worker(name: str) -> None:
            with guard.run(name):
                seen[name] = guard.current().run_id

        threads = [threading.Thread(target=worker, args=(n,)) for n in ("a", "b")]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert seen == {"a": "a", "b": "b"}

    def test_state_format_is_backwards_compatible(self) -> None:
        """A state stored before turns and successes were kept still loads."""
        guard = make_guard(FakeClock())
        old = {"history": [], "consecutive_errors": 2, "streak": [], "loop_warnings": 0,
               "refused": [], "counts": {"errors": 2}}
        guard.store.update(guard.run_id, lambda _s: (json.loads(json.dumps(old)), None))
        with pytest.raises(TooManyConsecutiveErrors):
            guard.call("read_file", {"path": "a"}, missing)


class TestWording:
    def test_refusal_has_no_class_path_and_two_sentences(self) -> None:
        guard = make_guard(FakeClock())

        def refuse() -> str:
            raise ToolRefused("deleting a is not allowed in this workspace")

        out = guard.call("delete_file", {"path": "a"}, refuse)
        assert out.failure is not None
        assert out.failure.content.startswith(
            "Hint: deleting a is not allowed in this workspace. This restriction is intentional"
        )
        assert "hintline." not in out.failure.content
        assert "ToolRefused" not in out.failure.content

    def test_a_qualified_class_path_is_cut_to_the_class(self) -> None:
        content = make_guard(FakeClock()).describe(QuotaExceeded("monthly quota used")).content
        assert "acme.billing" not in content
        assert "QuotaExceeded: monthly quota used" in content

    def test_the_loop_notice_counts_the_calls(self) -> None:
        guard = make_guard(FakeClock(), max_loop_warnings=5)
        notices = [guard.call("search", {"q": "x"}, lambda: "r").notice for _ in range(4)]
        assert notices[0] is None
        assert ["2 times" in str(notices[1]), "3 times" in str(notices[2]), "4 times" in str(notices[3])] == [True] * 3

    def test_invalid_arguments_name_the_field(self) -> None:
        from pydantic import validate_call

        @validate_call
        def read_file(path: str) -> str:
            return path

        with pytest.raises(Exception) as info:
            read_file(pth="x")  # type: ignore[call-arg]
        failure = make_guard(FakeClock()).rejected("read_file", {"pth": "x"}, info.value).failure
        assert failure is not None
        assert failure.hint.key == "path"
        assert "argument 'path' is required" in failure.content
        assert "argument 'pth' is not accepted" in failure.content


class TestNonIdempotent:
    def test_timeout_is_not_retried(self) -> None:
        clock = FakeClock()
        guard = make_guard(clock, non_idempotent={"pay"})
        tool = Flaky([TimeoutError("timed out")], value="paid")
        with pytest.raises(RetryBudgetExhausted) as info:
            guard.call("pay", {"amount": 100}, tool)
        assert tool.calls == 1
        assert clock.sleeps == []
        assert "pay is not idempotent" in str(info.value)

    def test_refused_connection_is_retried_it_never_arrived(self) -> None:
        clock = FakeClock()
        guard = make_guard(clock, non_idempotent={"pay"})
        tool = Flaky([refused_connection()], value="paid")
        assert guard.call("pay", {"amount": 100}, tool).value == "paid"
        assert tool.calls == 2
        assert clock.sleeps == [0.0]

    def test_per_call_opt_out_and_default(self) -> None:
        clock = FakeClock()
        guard = make_guard(clock)
        assert guard.idempotent("anything")  # undeclared tools are retried as idempotent
        with pytest.raises(RetryBudgetExhausted):
            guard.call("send", {}, Flaky([TimeoutError("t")]), idempotent=False)
        assert guard.call("read", {}, Flaky([TimeoutError("t")])).value == "ok"

    def test_policy_round_trip(self) -> None:
        policy = GuardPolicy(non_idempotent={"pay", "email"})
        assert policy.to_dict()["non_idempotent"] == ["email", "pay"]
        assert GuardPolicy.from_dict(policy.to_dict()) == policy


class TestModelChosenAddress:
    def test_refused_at_the_models_url_goes_back_to_it(self) -> None:
        clock = FakeClock()
        guard = make_guard(clock)
        tool = Flaky([refused_connection(), refused_connection()])
        out = guard.call("fetch", {"url": "http://127.0.0.1:9/x"}, tool)
        assert out.is_error
        assert tool.calls == 2
        assert clock.sleeps == [0.0]
        assert out.failure is not None
        assert "(url='http://127.0.0.1:9/x')" in out.failure.content
        assert guard.consecutive_errors == 1

    def test_host_port_and_host_arguments(self) -> None:
        guard = make_guard(FakeClock())
        for args in ({"target": "db.internal:5432"}, {"host": "db"}):
            out = guard.call("connect", args, Flaky([refused_connection(), refused_connection()]))
            assert out.is_error

    def test_a_configured_address_is_the_systems(self) -> None:
        clock = FakeClock()
        guard = make_guard(clock)
        with pytest.raises(RetryBudgetExhausted):
            guard.call("sync", {"region": "eu"}, connect_closed_port)
        assert clock.sleeps == [0.0, 1.0, 2.0, 4.0]


class TestTurns:
    def test_one_turn_does_not_stop_the_run(self) -> None:
        guard = make_guard(FakeClock())
        outs = [guard.call("read_file", {"path": p}, missing, turn="t1") for p in "abcd"]
        assert all(o.is_error for o in outs)
        with pytest.raises(TooManyConsecutiveErrors) as info:
            guard.call("read_file", {"path": "e"}, missing, turn="t2")
        assert "5 tool calls failed in a row" in info.value.summary

    def test_unknown_turns_count_as_before(self) -> None:
        guard = make_guard(FakeClock())
        guard.call("read_file", {"path": "a"}, missing)
        guard.call("read_file", {"path": "b"}, missing)
        with pytest.raises(TooManyConsecutiveErrors):
            guard.call("read_file", {"path": "c"}, missing)


class TestRefusalMemory:
    def test_refusal_is_remembered_for_the_run_only(self) -> None:
        guard = make_guard(FakeClock(), max_consecutive_errors=9)
        tool = Flaky([ToolRefused("no")] * 3)
        run1 = guard.for_run("1")
        run1.call("delete", {"p": "a"}, tool)
        run1.call("delete", {"p": "a"}, tool)
        assert tool.calls == 1
        guard.for_run("2").call("delete", {"p": "a"}, tool)
        assert tool.calls == 2  # a new run asks the tool again

    def test_forget_refusals(self) -> None:
        guard = make_guard(FakeClock(), max_consecutive_errors=9)
        tool = Flaky([ToolRefused("no")], value="deleted")
        guard.call("delete", {"p": "a"}, tool)
        guard.forget_refusals()
        assert guard.call("delete", {"p": "a"}, tool).value == "deleted"

    def test_credentials_refusal_is_not_remembered(self) -> None:
        class Unauthorized(Exception):
            status_code = 401

        guard = make_guard(FakeClock(), max_consecutive_errors=9)
        tool = Flaky([Unauthorized("invalid api key")], value="ok")
        first = guard.call("call_api", {"p": "/x"}, tool)
        assert first.failure is not None
        assert "ask the user to fix them" in first.failure.content
        assert guard.call("call_api", {"p": "/x"}, tool).value == "ok"
        assert tool.calls == 2


def test_disk_full_stops_at_once() -> None:
    clock = FakeClock()
    guard = make_guard(clock)
    error = disk_full()
    tool = Flaky([error, error])
    with pytest.raises(RetryBudgetExhausted) as info:
        guard.call("save", {"text": "x"}, tool)
    assert tool.calls == 1
    assert clock.sleeps == []
    assert "disk_full" in str(info.value)


def test_the_default_store_forgets_the_oldest_runs() -> None:
    """Runs that never say they ended do not grow the default store without bound."""
    from hintline.agent import InMemoryStore

    store = InMemoryStore(max_keys=3)
    guard = AgentGuard(store=store)
    for i in range(5):
        guard.for_run(f"run-{i}").call("read_file", {"path": "a"}, missing)
    assert guard.for_run("run-2").counts["errors"] == 1  # touched: kept
    guard.for_run("run-5").call("read_file", {"path": "a"}, missing)
    assert len(store) == 3
    assert store.get("run-0") is None
    assert store.get("run-2") is not None
    assert InMemoryStore().get("x") is None
