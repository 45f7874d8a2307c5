"""A real PydanticAI agent run (FunctionModel) with HintlineCapability, through the scenarios."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from hintline import AgentGuard, TooManyConsecutiveErrors
from hintline.agent import GuardPolicy, ToolRefused
from hintline.integrations.pydantic_ai import HintlineCapability
from tests.agent.fakes import FakeClock, connect_closed_port


class Script:
    """A FunctionModel body that plays fixed responses and records every request."""

    def __init__(self, *steps: ModelResponse) -> None:
        self.steps = list(steps)
        self.seen: list[list[ModelMessage]] = []

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.seen.append(list(messages))
        return self.steps.pop(0)

    def last_parts(self, turn: int) -> list[Any]:
        request = self.seen[turn][-1]
        assert isinstance(request, ModelRequest)
        return list(request.parts)

    def everything(self) -> str:
        return "\n".join(
            str(getattr(p, "content", "")) for turn in self.seen for m in turn for p in m.parts
        )


def tool_call(name: str, call_id: str, **args: object) -> ModelResponse:
    return ModelResponse(parts=[ToolCallPart(tool_name=name, args=args, tool_call_id=call_id)])


def text(s: str) -> ModelResponse:
    return ModelResponse(parts=[TextPart(s)])


def make_agent(script: Script, root: Path, state: dict[str, int], guard: AgentGuard) -> Agent[None, str]:
    agent = Agent(FunctionModel(script), capabilities=[HintlineCapability(guard)], retries=3)

    @agent.tool_plain
    def read_file(path: str) -> str:
        """Read a file of the workspace."""
        return (root / path).read_text()

    @agent.tool_plain
    def delete_file(path: str) -> str:
        """Delete a file."""
        state["delete"] = state.get("delete", 0) + 1
        raise ToolRefused(f"deleting {path} is not allowed in this workspace")

    @agent.tool_plain
    def fetch(url: str) -> str:
        """Fetch a URL."""
        state["fetch"] = state.get("fetch", 0) + 1
        if state["fetch"] == 1:
            connect_closed_port()
        return "fetched: 200 OK"

    @agent.tool_plain
    def search_files(query: str) -> str:
        """Search file names."""
        return "report.txt"

    return agent


def guard_for(clock: FakeClock, **policy: Any) -> AgentGuard:
    return AgentGuard(
        GuardPolicy(**policy), clock=clock.time, sleep=clock.sleep,
        async_sleep=clock.async_sleep, random=lambda: 0.5,
    )


class TestPydanticAI:
    def test_recoverable_then_success(self, tmp_path: Path) -> None:
        """The model gets the hint as a retry prompt, then the file's content."""
        (tmp_path / "report.txt").write_text("quarterly numbers")
        script = Script(
            tool_call("read_file", "c1", path="reprot.txt"),
            tool_call("read_file", "c2", path="report.txt"),
            text("done"),
        )
        guard = guard_for(FakeClock())
        result = make_agent(script, tmp_path, {}, guard).run_sync("read the report")
        assert result.output == "done"
        (retry,) = script.last_parts(1)
        assert isinstance(retry, ToolReturnPart)
        assert retry.outcome == "retried"  # ModelRetry: the model may call again
        with pytest.raises(FileNotFoundError) as same:
            (tmp_path / "reprot.txt").read_text()
        assert retry.content == AgentGuard().describe(same.value).content
        assert str(retry.content).startswith("Hint: ")
        assert f"Perhaps you meant '{tmp_path / 'report.txt'}'?" in str(retry.content)
        assert "Traceback" not in script.everything()
        assert json.loads(retry.model_response_str()) == {"error": retry.content}
        (ok,) = script.last_parts(2)
        assert isinstance(ok, ToolReturnPart)
        assert ok.content == "quarterly numbers"
        assert guard.consecutive_errors == 0

    def test_policy_refusal_is_tool_failed(self, tmp_path: Path) -> None:
        """A refusal reaches the model as a failed tool return, with the intentional wording."""
        state: dict[str, int] = {}
        script = Script(tool_call("delete_file", "c1", path="a"), text("ok, asking the user"))
        make_agent(script, tmp_path, state, guard_for(FakeClock())).run_sync("delete a")
        (part,) = script.last_parts(1)
        assert isinstance(part, ToolReturnPart)
        assert part.outcome == "failed"  # ToolFailed: terminal, no retry wording
        assert "intentional and cannot be bypassed" in part.model_response_str()
        assert "Fix the errors" not in part.model_response_str()
        assert state["delete"] == 1

    def test_transient_system_failure_is_retried_unseen(self, tmp_path: Path) -> None:
        """A real refused connection is retried in the hook; the model only sees the result."""
        state: dict[str, int] = {}
        clock = FakeClock()
        script = Script(tool_call("fetch", "c1", url="http://x/"), text("done"))
        make_agent(script, tmp_path, state, guard_for(clock)).run_sync("fetch")
        assert state["fetch"] == 2
        assert clock.sleeps == [0.0]
        (part,) = script.last_parts(1)
        assert isinstance(part, ToolReturnPart)
        assert part.content == "fetched: 200 OK"
        assert "refused" not in script.everything().lower()

    def test_loop_gets_meta_message(self, tmp_path: Path) -> None:
        """The second identical call's result carries the loop meta-message."""
        script = Script(
            tool_call("search_files", "c1", query="*.txt"),
            tool_call("search_files", "c2", query="*.txt"),
            text("done"),
        )
        make_agent(script, tmp_path, {}, guard_for(FakeClock())).run_sync("find")
        (part,) = script.last_parts(2)
        assert str(part.content).startswith("report.txt\n\n[hintline] You appear to be stuck")

    def test_three_failures_escalate(self, tmp_path: Path) -> None:
        """Three failures in a row end the run with the summary; the model is not asked again."""
        script = Script(
            *(tool_call("read_file", f"c{i}", path=f"{i}.txt") for i in range(3)),
            text("never"),
        )
        with pytest.raises(TooManyConsecutiveErrors) as info:
            make_agent(script, tmp_path, {}, guard_for(FakeClock())).run_sync("read")
        lines = info.value.summary.splitlines()
        assert [line.split(" -> ")[0] for line in lines[2:]] == [
            '1. read_file({"path":"0.txt"})',
            '2. read_file({"path":"1.txt"})',
            '3. read_file({"path":"2.txt"})',
        ]
        assert len(script.seen) == 3
