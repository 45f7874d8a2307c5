"""The agent-policy scenarios, framework-neutral: tools that fail for real, scripted model turns,
and what a run is observed to do (what the model saw, how often each tool ran, the delays on an
injected clock, whether and why the run stopped).

A driver (``drivers.py``) plays a script through one framework, with hintline or alone.
"""

from __future__ import annotations

import socket
import threading
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hintline.agent import AgentGuard, GuardPolicy, ToolRefused
from tests.agent.fakes import FakeClock, closed_port, http_server

Call = tuple[str, dict[str, Any]]
Turn = list[Call] | str
"""A model turn: the tool calls of one response (in parallel), or the final answer."""

SECRET = "hunter2hunter2hunter2"


@dataclass
class Result:
    """A tool result as the model received it."""

    text: str
    is_error: bool | None  # None: the format has no flag


@dataclass
class Observation:
    """What one run did."""

    seen: list[list[Result]] = field(default_factory=list)
    """Per model turn after the first: the tool results the model received."""
    runs: Counter[str] = field(default_factory=Counter)
    sleeps: list[float] = field(default_factory=list)
    stop: str | None = None
    """Why the run stopped early: the exception type, or ``stop-result`` (MCP)."""
    stop_text: str = ""
    final: str | None = None

    def results(self) -> list[Result]:
        return [r for turn in self.seen for r in turn]

    def everything(self) -> str:
        return "\n".join(r.text for r in self.results()) + "\n" + self.stop_text


class _SilentServer:
    """A loopback socket that accepts connections and never answers (a real timeout)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = int(self.sock.getsockname()[1])
        self.conns: list[socket.socket] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(conn)

    def close(self) -> None:
        self.sock.close()
        for c in self.conns:
            c.close()


class Toolbox:
    """The scenario tools. ``plan[tool]`` lists what each call does in turn (the last repeats):
    ``ok``, ``refused`` (a closed loopback port), ``timeout`` (a silent socket), ``503``/``429``
    (a loopback server with ``Retry-After``), ``401``, ``diskfull`` (``/dev/full``)."""

    def __init__(self, root: Path, plan: dict[str, list[str]] | None = None) -> None:
        self.root = root
        self.plan = {k: list(v) for k, v in (plan or {}).items()}
        self.runs: Counter[str] = Counter()
        self._stack = ExitStack()
        self._urls: dict[str, str] = {}
        self._silent: _SilentServer | None = None
        (root / "report.txt").write_text("quarterly numbers")

    def close(self) -> None:
        self._stack.close()
        if self._silent is not None:
            self._silent.close()

    def _next(self, tool: str) -> str:
        queue = self.plan.get(tool) or ["ok"]
        return queue.pop(0) if len(queue) > 1 else queue[0]

    def _url(self, status: int, retry_after: str | None) -> str:
        key = f"{status}:{retry_after}"
        if key not in self._urls:
            self._urls[key] = self._stack.enter_context(http_server(status, retry_after))
        return self._urls[key]

    def _act(self, tool: str) -> None:
        behaviour = self._next(tool)
        if behaviour == "refused":
            socket.create_connection(("127.0.0.1", closed_port()), timeout=2).close()
        elif behaviour == "timeout":
            if self._silent is None:
                self._silent = _SilentServer()
            with socket.create_connection(("127.0.0.1", self._silent.port), timeout=2) as s:
                s.settimeout(0.05)
                s.recv(1)
        elif behaviour in ("503", "429", "401"):
            retry_after = {"503": "2", "429": "3600", "401": None}[behaviour]
            with urllib.request.urlopen(self._url(int(behaviour), retry_after), timeout=2):
                pass
        elif behaviour == "diskfull":
            with open("/dev/full", "w") as f:
                f.write("report")

    def tools(self) -> list[Callable[..., Any]]:
        box = self

        def read_file(path: str) -> str:
            """Read a file of the workspace."""
            box.runs["read_file"] += 1
            return (box.root / path).read_text()

        def parse_count(value: str) -> str:
            """Parse a count."""
            box.runs["parse_count"] += 1
            return str(int(value))

        def delete_file(path: str) -> str:
            """Delete a file of the workspace."""
            box.runs["delete_file"] += 1
            raise ToolRefused(f"deleting {path} is not allowed in this workspace")

        def fetch(url: str) -> str:
            """Fetch a URL."""
            box.runs["fetch"] += 1
            box._act("fetch")
            return "fetched: 200 OK"

        def sync_orders(region: str) -> str:
            """Sync the orders of a region with the (configured) order service."""
            box.runs["sync_orders"] += 1
            box._act("sync_orders")
            return "synced"

        def save_report(text: str) -> str:
            """Save the report."""
            box.runs["save_report"] += 1
            box._act("save_report")
            return "saved"

        def pay(amount: int) -> str:
            """Charge the customer."""
            box.runs["pay"] += 1
            box._act("pay")
            return "paid"

        def call_api(path: str) -> str:
            """Call the (configured) partner API."""
            box.runs["call_api"] += 1
            box._act("call_api")
            return "ok"

        def login(user: str) -> str:
            """Log in."""
            box.runs["login"] += 1
            raise ValueError(f"login for {user} rejected: password={SECRET} does not match")

        def search_files(query: str) -> str:
            """Search file names."""
            box.runs["search_files"] += 1
            return "report.txt"

        return [
            read_file, parse_count, delete_file, fetch, sync_orders, save_report, pay,
            call_api, login, search_files,
        ]


def guard_for(clock: FakeClock, **policy: Any) -> AgentGuard:
    return AgentGuard(
        GuardPolicy(**policy), clock=clock.time, sleep=clock.sleep,
        async_sleep=clock.async_sleep, random=lambda: 0.5,
    )


@dataclass
class Scenario:
    """A script, the toolbox plan, the policy, and what must hold with hintline."""

    name: str
    title: str
    script: list[Turn]
    plan: dict[str, list[str]] = field(default_factory=dict)
    policy: dict[str, Any] = field(default_factory=dict)
    check: Callable[[Observation, str], None] | None = None
    second: list[Turn] | None = None
    """A second run on the same agent object (its observation is checked)."""


def c(tool: str, **args: Any) -> Call:
    return (tool, args)


def _errors(obs: Observation) -> list[Result]:
    return [r for r in obs.results() if r.is_error or r.text.startswith(("Hint:", "Error:"))]


def _hint(r: Result) -> str:
    return r.text.removeprefix("Error: the tool call failed. ")


def _no_internals(obs: Observation) -> None:
    text = obs.everything()
    assert "hintline." not in text, text
    assert "Traceback" not in text


def check_missing_file(obs: Observation, fw: str) -> None:
    first, second = obs.seen[0][0], obs.seen[1][0]
    assert first.is_error in (True, None)
    assert _hint(first).startswith("Hint: ")
    assert "Perhaps you meant" in first.text
    assert "quarterly numbers" in second.text
    assert obs.runs["read_file"] == 2
    assert obs.stop is None
    assert obs.final == "done"
    _no_internals(obs)


def check_bad_value(obs: Observation, fw: str) -> None:
    first = obs.seen[0][0]
    assert _hint(first).startswith("Hint: ")
    assert "int()" in first.text
    assert obs.seen[1][0].text == "12"
    assert obs.stop is None


def check_bad_args(obs: Observation, fw: str) -> None:
    assert obs.runs["read_file"] == 0
    assert [_hint(r).startswith("Hint: ") for r in obs.results()[:2]] == [True, True]
    assert all("'path'" in r.text for r in obs.results()[:2]), obs.results()
    assert obs.stop in ("TooManyConsecutiveErrors", "stop-result"), obs.stop
    assert "'path'" in obs.stop_text
    assert "3. read_file" in obs.stop_text
    _no_internals(obs)


def check_policy(obs: Observation, fw: str) -> None:
    first, again = obs.seen[0][0], obs.seen[1][0]
    assert "deleting a is not allowed in this workspace. This restriction is intentional" in first.text
    assert again.text.count("intentional") == 1
    assert obs.runs["delete_file"] == 1  # the same call again is refused without running
    assert obs.stop is None
    _no_internals(obs)


def check_refused_once(obs: Observation, fw: str) -> None:
    assert obs.seen[0][0].text == "synced"
    assert obs.runs["sync_orders"] == 2
    assert obs.sleeps == [0.0]
    assert obs.stop is None
    assert "refused" not in obs.everything().lower()


def check_timeout_twice(obs: Observation, fw: str) -> None:
    assert obs.seen[0][0].text == "synced"
    assert obs.runs["sync_orders"] == 3
    assert obs.sleeps == [1.0, 2.0]
    assert obs.stop is None


def check_503(obs: Observation, fw: str) -> None:
    assert obs.seen[0][0].text == "synced"
    assert obs.runs["sync_orders"] == 2
    assert obs.sleeps == [2.0]


def check_persistent_timeout(obs: Observation, fw: str) -> None:
    assert obs.stop in ("RetryBudgetExhausted", "stop-result")
    assert "persisted after 3 retries" in obs.stop_text
    assert obs.runs["sync_orders"] == 4
    assert obs.sleeps == [1.0, 2.0, 4.0]
    assert not obs.seen or not any("timed out" in r.text for r in obs.results() if "Stop" not in r.text)


def check_429_long(obs: Observation, fw: str) -> None:
    assert obs.stop in ("RetryBudgetExhausted", "stop-result")
    assert "Retry-After" in obs.stop_text
    assert "3600 s" in obs.stop_text
    assert obs.runs["sync_orders"] == 1
    assert obs.sleeps == []


def check_disk_full(obs: Observation, fw: str) -> None:
    assert obs.stop in ("RetryBudgetExhausted", "stop-result")
    assert "disk_full" in obs.stop_text
    assert "retrying cannot help" in obs.stop_text
    assert obs.runs["save_report"] == 1
    assert obs.sleeps == []


def check_twice(obs: Observation, fw: str) -> None:
    assert obs.seen[1][0].text.startswith("report.txt")
    assert "called search_files with the same arguments 2 times in a row" in obs.seen[1][0].text
    assert obs.stop is None


def check_four_times(obs: Observation, fw: str) -> None:
    assert "3 times in a row" in obs.seen[2][0].text
    assert obs.stop in ("LoopDetected", "stop-result")
    assert obs.runs["search_files"] == 3


def check_oscillation(obs: Observation, fw: str) -> None:
    assert "alternating between search_files and read_file" in obs.seen[3][0].text
    assert obs.stop is None


def check_mixed(obs: Observation, fw: str) -> None:
    assert obs.stop in ("TooManyConsecutiveErrors", "stop-result")
    lines = [line for line in obs.stop_text.splitlines() if line[:3] in ("1. ", "2. ", "3. ")]
    assert [line.split("(")[0] for line in lines] == ["1. read_file", "2. parse_count", "3. delete_file"]
    _no_internals(obs)


def check_secret(obs: Observation, fw: str) -> None:
    assert obs.results()
    assert SECRET not in obs.everything()


def check_parallel(obs: Observation, fw: str) -> None:
    assert obs.seen
    assert len(obs.seen[0]) == 3
    assert all(_hint(r).startswith("Hint: ") for r in obs.seen[0])
    assert obs.stop is None
    assert obs.final == "done"


def check_second_run(obs: Observation, fw: str) -> None:
    # the second run's first failure must not stop it, nor show the first run's calls
    assert obs.stop is None, obs.stop_text
    assert "a.txt" not in obs.everything()
    assert "b.txt" not in obs.everything()
    assert obs.final == "done"


def check_reset_by_success(obs: Observation, fw: str) -> None:
    assert obs.stop is None
    assert obs.final == "done"


def check_non_idempotent(obs: Observation, fw: str) -> None:
    assert obs.stop in ("RetryBudgetExhausted", "stop-result")
    assert "pay is not idempotent" in obs.stop_text
    assert obs.runs["pay"] == 1
    assert obs.sleeps == []


def check_model_host(obs: Observation, fw: str) -> None:
    first = obs.seen[0][0]
    assert "The address comes from your arguments (url='http://127.0.0.1:9/')" in first.text
    assert obs.runs["fetch"] == 2
    assert obs.sleeps == [0.0]
    assert obs.stop is None


def check_credentials(obs: Observation, fw: str) -> None:
    first = obs.seen[0][0]
    assert "ask the user to fix them" in first.text
    assert obs.runs["call_api"] == 2  # not remembered: the same call runs again
    assert obs.seen[1][0].text.startswith("ok")


MISSING = [c("read_file", path="a.txt")]
SCENARIOS: list[Scenario] = [
    Scenario("missing_file", "missing file, then the right one",
             [[c("read_file", path="reprot.txt")], [c("read_file", path="report.txt")], "done"],
             check=check_missing_file),
    Scenario("bad_value", "bad value, then a good one",
             [[c("parse_count", value="twelve")], [c("parse_count", value="12")], "done"],
             check=check_bad_value),
    Scenario("bad_args_x3", "bad arguments ×3 (a field missing)",
             [[c("read_file", pth="a")], [c("read_file", pth="b")], [c("read_file", pth="c")], "never"],
             check=check_bad_args),
    Scenario("policy_refusal", "policy refusal, asked twice",
             [[c("delete_file", path="a")], [c("delete_file", path="a")], "asking the user"],
             check=check_policy),
    Scenario("refused_once", "connection refused once",
             [[c("sync_orders", region="eu")], "done"], plan={"sync_orders": ["refused", "ok"]},
             check=check_refused_once),
    Scenario("timeout_x2", "timeout ×2 (a silent socket), then success",
             [[c("sync_orders", region="eu")], "done"], plan={"sync_orders": ["timeout", "timeout", "ok"]},
             check=check_timeout_twice),
    Scenario("http_503", "503 with Retry-After: 2, then success",
             [[c("sync_orders", region="eu")], "done"], plan={"sync_orders": ["503", "ok"]},
             check=check_503),
    Scenario("persistent_timeout", "persistent timeout",
             [[c("sync_orders", region="eu")], "done"], plan={"sync_orders": ["timeout"]},
             check=check_persistent_timeout),
    Scenario("http_429_long", "429 with Retry-After: 3600",
             [[c("sync_orders", region="eu")], "done"], plan={"sync_orders": ["429"]},
             check=check_429_long),
    Scenario("disk_full", "disk full (/dev/full)",
             [[c("save_report", text="q3")], [c("save_report", text="q3")], "done"],
             plan={"save_report": ["diskfull"]}, check=check_disk_full),
    Scenario("same_call_twice", "same call twice",
             [[c("search_files", query="*.txt")], [c("search_files", query="*.txt")], "done"],
             check=check_twice),
    Scenario("same_call_4x", "same call 4×",
             [[c("search_files", query="*.txt")]] * 4 + ["never"], check=check_four_times),
    Scenario("oscillation", "A-B-A-B",
             [[c("search_files", query="*")], [c("read_file", path="report.txt")]] * 2 + ["done"],
             check=check_oscillation),
    Scenario("three_mixed", "three mixed errors",
             [[c("read_file", path="nope.txt")], [c("parse_count", value="x")],
              [c("delete_file", path="a")], "never"], check=check_mixed),
    Scenario("secret", "a secret in the error message",
             [[c("login", user="admin")], "done"], check=check_secret),
    Scenario("parallel", "three failing calls in one turn",
             [[c("read_file", path="a.txt"), c("read_file", path="b.txt"), c("read_file", path="c.txt")], "done"],
             check=check_parallel),
    Scenario("second_run", "a second run on the same agent object",
             [[c("read_file", path="a.txt")], [c("read_file", path="b.txt")], "done"],
             second=[[c("read_file", path="c.txt")], "done"], check=check_second_run),
    Scenario("fail_fail_ok_fail_fail", "fail, fail, success, fail, fail",
             [MISSING, MISSING, [c("read_file", path="report.txt")], MISSING, MISSING, "done"],
             check=check_reset_by_success),
    Scenario("non_idempotent", "a timeout in a non-idempotent tool (pay)",
             [[c("pay", amount=100)], "done"], plan={"pay": ["timeout", "ok"]},
             policy={"non_idempotent": {"pay"}}, check=check_non_idempotent),
    Scenario("model_chosen_host", "connection refused at a host the model chose",
             [[c("fetch", url="http://127.0.0.1:9/")], "done"], plan={"fetch": ["refused"]},
             check=check_model_host),
    Scenario("credentials_401", "401, then the same call after the user fixed it",
             [[c("call_api", path="/orders")], [c("call_api", path="/orders")], "done"],
             plan={"call_api": ["401", "ok"]}, policy={"max_consecutive_errors": 5},
             check=check_credentials),
]
BY_NAME = {s.name: s for s in SCENARIOS}

FRAMEWORK_LIMITS: dict[tuple[str, str], str] = {
    ("mcp", "parallel"): "MCP has no model turns: each tools/call is on its own",
}
"""Scenario checks a framework cannot meet, and why (the README says so too)."""


@contextmanager
def toolbox(root: Path, scenario: Scenario) -> Iterator[Toolbox]:
    box = Toolbox(root, scenario.plan)
    try:
        yield box
    finally:
        box.close()
