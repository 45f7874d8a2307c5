"""A real Anthropic SDK tool runner, offline: the client talks to a scripted Messages API
(httpx.MockTransport) that records every request body, i.e. what the model received."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anthropic
import httpx2 as httpx
import pytest

from hintline import AgentGuard, TooManyConsecutiveErrors
from hintline.agent import GuardPolicy, ToolRefused
from hintline.integrations.anthropic import guarded_beta_tool, raise_guard_decisions
from tests.agent.fakes import FakeClock, connect_closed_port


def tool_use(name: str, call_id: str, **args: object) -> dict[str, Any]:
    return {"content": [{"type": "tool_use", "id": call_id, "name": name, "input": args}], "stop_reason": "tool_use"}


def text(s: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": s}], "stop_reason": "end_turn"}


class ScriptedAPI:
    """Answers POST /v1/messages with the next scripted reply; records request bodies."""

    def __init__(self, *replies: dict[str, Any]) -> None:
        self.replies = list(replies)
        self.requests: list[dict[str, Any]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(json.loads(request.content))
        reply = self.replies.pop(0)
        body = {
            "id": f"msg_{len(self.requests)}", "type": "message", "role": "assistant",
            "model": "claude-test", "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1}, **reply,
        }
        return httpx.Response(200, json=body)

    def client(self) -> anthropic.Anthropic:
        return anthropic.Anthropic(
            api_key="test-key", base_url="http://127.0.0.1:9",
            http_client=httpx.Client(transport=httpx.MockTransport(self)), max_retries=0,
        )

    def tool_results(self, turn: int) -> list[dict[str, Any]]:
        last = self.requests[turn]["messages"][-1]
        return [b for b in last["content"] if isinstance(b, dict) and b.get("type") == "tool_result"]

    def everything(self) -> str:
        return json.dumps(self.requests)


def tools(root: Path, state: dict[str, int], guard: AgentGuard) -> list[Any]:
    def read_file(path: str) -> str:
        """Read a file of the workspace."""
        return (root / path).read_text()

    def delete_file(path: str) -> str:
        """Delete a file."""
        state["delete"] = state.get("delete", 0) + 1
        raise ToolRefused(f"deleting {path} is not allowed in this workspace")

    def fetch(url: str) -> str:
        """Fetch a URL."""
        state["fetch"] = state.get("fetch", 0) + 1
        if state["fetch"] == 1:
            connect_closed_port()
        return "fetched: 200 OK"

    def search_files(query: str) -> str:
        """Search file names."""
        return "report.txt"

    return [guarded_beta_tool(guard, f) for f in (read_file, delete_file, fetch, search_files)]


def run(api: ScriptedAPI, root: Path, state: dict[str, int], guard: AgentGuard) -> Any:
    runner = api.client().beta.messages.tool_runner(
        model="claude-test", max_tokens=256,
        messages=[{"role": "user", "content": "go"}], tools=tools(root, state, guard),
    )
    with raise_guard_decisions():
        return runner.until_done()


def guard_for(clock: FakeClock, **policy: Any) -> AgentGuard:
    return AgentGuard(GuardPolicy(**policy), clock=clock.time, sleep=clock.sleep, random=lambda: 0.5)


class TestAnthropicToolRunner:
    def test_recoverable_then_success(self, tmp_path: Path) -> None:
        """The model gets is_error with the hint (not repr), then the content."""
        (tmp_path / "report.txt").write_text("quarterly numbers")
        api = ScriptedAPI(
            tool_use("read_file", "toolu_1", path="reprot.txt"),
            tool_use("read_file", "toolu_2", path="report.txt"),
            text("done"),
        )
        guard = guard_for(FakeClock())
        run(api, tmp_path, {}, guard)
        (bad,) = api.tool_results(1)
        assert bad["is_error"] is True
        with pytest.raises(FileNotFoundError) as same:
            (tmp_path / "reprot.txt").read_text()
        content = bad["content"] if isinstance(bad["content"], str) else bad["content"][0]["text"]
        assert content == AgentGuard().describe(same.value).content
        assert "FileNotFoundError(" not in api.everything()  # not repr(exc)
        (good,) = api.tool_results(2)
        assert "is_error" not in good
        assert "quarterly numbers" in json.dumps(good["content"])
        assert guard.consecutive_errors == 0

    def test_policy_refusal(self, tmp_path: Path) -> None:
        """A refusal: is_error, intentional wording; a repeat is refused without running."""
        state: dict[str, int] = {}
        api = ScriptedAPI(
            tool_use("delete_file", "toolu_1", path="a"),
            tool_use("delete_file", "toolu_2", path="a"),
            text("asking the user"),
        )
        run(api, tmp_path, state, guard_for(FakeClock(), max_consecutive_errors=5))
        (first,) = api.tool_results(1)
        assert first["is_error"] is True
        assert "intentional and cannot be bypassed" in json.dumps(first["content"])
        assert state["delete"] == 1

    def test_transient_failure_retried_unseen(self, tmp_path: Path) -> None:
        """A real refused connection is retried inside the tool; the model sees the result."""
        state: dict[str, int] = {}
        clock = FakeClock()
        api = ScriptedAPI(tool_use("fetch", "toolu_1", url="http://x/"), text("done"))
        run(api, tmp_path, state, guard_for(clock))
        (out,) = api.tool_results(1)
        assert "is_error" not in out
        assert "fetched: 200 OK" in json.dumps(out["content"])
        assert clock.sleeps == [0.0]
        assert "refused" not in api.everything().lower()

    def test_loop_meta_message(self, tmp_path: Path) -> None:
        """The second identical call's result carries the meta-message."""
        api = ScriptedAPI(
            tool_use("search_files", "toolu_1", query="*.txt"),
            tool_use("search_files", "toolu_2", query="*.txt"),
            text("done"),
        )
        run(api, tmp_path, {}, guard_for(FakeClock()))
        (second,) = api.tool_results(2)
        assert "You appear to be stuck in a loop" in json.dumps(second["content"])

    def test_three_failures_escalate(self, tmp_path: Path) -> None:
        """The third failure stops the runner with the summary; the model is not asked again."""
        api = ScriptedAPI(
            *(tool_use("read_file", f"toolu_{i}", path=f"{i}.txt") for i in range(3)),
            text("never"),
        )
        with pytest.raises(TooManyConsecutiveErrors) as info:
            run(api, tmp_path, {}, guard_for(FakeClock()))
        assert '3. read_file({"path":"2.txt"}) -> Hint: ' in info.value.summary
        assert len(api.requests) == 3


class TestAsyncToolRunner:
    async def test_async_tool_retries_and_escalates(self, tmp_path: Path) -> None:
        """AsyncAnthropic + an async guarded tool: a transient fault is retried unseen, then
        three failures stop the runner with the summary."""
        clock = FakeClock()
        guard = AgentGuard(GuardPolicy(), clock=clock.time, async_sleep=clock.async_sleep, random=lambda: 0.5)
        state = {"n": 0}

        async def fetch(url: str) -> str:
            """Fetch a URL."""
            state["n"] += 1
            if state["n"] == 1:
                connect_closed_port()
            if url.endswith("missing"):
                raise FileNotFoundError(2, "No such file or directory", url)
            return "fetched"

        api = ScriptedAPI(
            tool_use("fetch", "toolu_0", url="http://x/ok"),
            *(tool_use("fetch", f"toolu_{i}", url=f"http://x/{i}/missing") for i in range(1, 4)),
            text("never"),
        )

        async def handler(request: httpx.Request) -> httpx.Response:
            return api(request)

        client = anthropic.AsyncAnthropic(
            api_key="test-key", base_url="http://127.0.0.1:9",
            http_client=httpx.AsyncClient(transport=httpx.MockTransport(handler)), max_retries=0,
        )
        runner = client.beta.messages.tool_runner(
            model="claude-test", max_tokens=256, messages=[{"role": "user", "content": "go"}],
            tools=[guarded_beta_tool(guard, fetch)],
        )
        with pytest.raises(TooManyConsecutiveErrors) as info, raise_guard_decisions():
            await runner.until_done()
        (first,) = api.tool_results(1)
        assert "is_error" not in first
        assert clock.sleeps == [0.0]
        assert '1. fetch({"url":"http://x/1/missing"})' in info.value.summary
        assert len(api.requests) == 4
