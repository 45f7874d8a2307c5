"""A real OpenAI Agents SDK run (Runner + scripted Model) with guarded tools."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from agents import Agent, RunConfig, Runner, function_tool

from hintline import AgentGuard, TooManyConsecutiveErrors
from hintline.agent import GuardPolicy, ToolRefused
from hintline.agent.formats import ERROR_PREFIX
from hintline.integrations.openai_agents import (
    failure_error_function,
    guarded_tool,
    raise_guard_decisions,
)
from tests.agent.fakes import FakeClock, connect_closed_port
from tests.integrations.openai_agents.scripted import ScriptedModel, message, tool_call

CONFIG = RunConfig(tracing_disabled=True)


def make_agent(model: ScriptedModel, root: Path, state: dict[str, int], guard: AgentGuard) -> Agent[Any]:
    def read_file(path: str) -> str:
        """Read a file of the workspace."""
        return (root / path).read_text()

    def delete_file(path: str) -> str:
        """Delete a file."""
        state["delete"] = state.get("delete", 0) + 1
        raise ToolRefused(f"deleting {path} is not allowed in this workspace")

    async def fetch(url: str) -> str:
        """Fetch a URL."""
        state["fetch"] = state.get("fetch", 0) + 1
        if state["fetch"] == 1:
            connect_closed_port()
        return "fetched: 200 OK"

    def search_files(query: str) -> str:
        """Search file names."""
        return "report.txt"

    tools = [guarded_tool(guard, f) for f in (read_file, delete_file, fetch, search_files)]
    return Agent(name="files", model=model, tools=tools)


def guard_for(clock: FakeClock, **policy: Any) -> AgentGuard:
    return AgentGuard(
        GuardPolicy(**policy), clock=clock.time, sleep=clock.sleep,
        async_sleep=clock.async_sleep, random=lambda: 0.5,
    )


class TestOpenAIAgents:
    async def test_recoverable_then_success(self, tmp_path: Path) -> None:
        """The model gets the hint (marked as an error in the text), then the content."""
        (tmp_path / "report.txt").write_text("quarterly numbers")
        model = ScriptedModel(
            tool_call("read_file", "c1", path="reprot.txt"),
            tool_call("read_file", "c2", path="report.txt"),
            message("done"),
        )
        guard = guard_for(FakeClock())
        result = await Runner.run(make_agent(model, tmp_path, {}, guard), "read", run_config=CONFIG)
        assert result.final_output == "done"
        (bad,) = model.outputs(1)
        with pytest.raises(FileNotFoundError) as same:
            (tmp_path / "reprot.txt").read_text()
        assert bad["output"] == ERROR_PREFIX + AgentGuard().describe(same.value).content
        assert "Perhaps you meant" in bad["output"]
        assert "An error occurred while running the tool" not in model.everything()
        assert "Traceback" not in model.everything()
        good = model.outputs(2)[-1]
        assert good["output"] == "quarterly numbers"
        assert guard.consecutive_errors == 0

    async def test_policy_refusal(self, tmp_path: Path) -> None:
        """A refusal says it is intentional; a repeated call is refused without running."""
        state: dict[str, int] = {}
        model = ScriptedModel(
            tool_call("delete_file", "c1", path="a"),
            tool_call("delete_file", "c2", path="a"),
            message("asking the user"),
        )
        guard = guard_for(FakeClock(), max_consecutive_errors=5)
        await Runner.run(make_agent(model, tmp_path, state, guard), "delete", run_config=CONFIG)
        (first,) = model.outputs(1)
        assert first["output"].startswith(ERROR_PREFIX)
        assert "intentional and cannot be bypassed" in first["output"]
        assert state["delete"] == 1

    async def test_transient_failure_retried_unseen(self, tmp_path: Path) -> None:
        """A real refused connection is retried inside the tool; the model sees the result."""
        state: dict[str, int] = {}
        clock = FakeClock()
        model = ScriptedModel(tool_call("fetch", "c1", url="http://x/"), message("done"))
        await Runner.run(make_agent(model, tmp_path, state, guard_for(clock)), "go", run_config=CONFIG)
        (out,) = model.outputs(1)
        assert out["output"] == "fetched: 200 OK"
        assert state["fetch"] == 2
        assert clock.sleeps == [0.0]
        assert "refused" not in model.everything().lower()

    async def test_loop_meta_message(self, tmp_path: Path) -> None:
        """The second identical call's output carries the meta-message."""
        model = ScriptedModel(
            tool_call("search_files", "c1", query="*.txt"),
            tool_call("search_files", "c2", query="*.txt"),
            message("done"),
        )
        await Runner.run(make_agent(model, tmp_path, {}, guard_for(FakeClock())), "find", run_config=CONFIG)
        second = model.outputs(2)[-1]
        assert second["output"].startswith("report.txt\n\n[hintline] You appear to be stuck")

    async def test_three_failures_escalate(self, tmp_path: Path) -> None:
        """The third failure ends Runner.run with the summary; the model is not asked again."""
        model = ScriptedModel(
            *(tool_call("read_file", f"c{i}", path=f"{i}.txt") for i in range(3)),
            message("never"),
        )
        agent = make_agent(model, tmp_path, {}, guard_for(FakeClock()))
        with pytest.raises(TooManyConsecutiveErrors) as info, raise_guard_decisions():
            await Runner.run(agent, "read", run_config=CONFIG)
        assert '3. read_file({"path":"2.txt"}) -> Hint: ' in info.value.summary
        assert len(model.seen) == 3

    async def test_stateless_hook_on_a_plain_function_tool(self, tmp_path: Path) -> None:
        """function_tool(failure_error_function=failure_error_function()) gives the hint."""

        def read_file(path: str) -> str:
            """Read a file."""
            return (tmp_path / path).read_text()

        tool = function_tool(read_file, failure_error_function=failure_error_function())
        model = ScriptedModel(tool_call("read_file", "c1", path="nope.txt"), message("done"))
        await Runner.run(Agent(name="f", model=model, tools=[tool]), "read", run_config=CONFIG)
        (out,) = model.outputs(1)
        assert out["output"].startswith(ERROR_PREFIX + "Hint: ")
