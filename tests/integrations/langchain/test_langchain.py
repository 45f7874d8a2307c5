"""A real LangChain v1 agent (create_agent + HintlineMiddleware) through the five scenarios."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.tools import BaseTool

from hintline import AgentGuard
from hintline.integrations.langchain import HintlineMiddleware
from tests.integrations.langgraph.scenarios import SCENARIOS, Build, ScriptedChatModel


def build_agent(m: ScriptedChatModel, tools: list[BaseTool], guard: AgentGuard) -> Any:
    return create_agent(m, tools, middleware=[HintlineMiddleware(guard)])


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.__name__)
def test_scenario(scenario: Any, tmp_path: Path) -> None:
    """Each scenario of the policy holds in a real create_agent run."""
    build: Build = build_agent
    scenario(build, tmp_path)


async def test_async_agent_retries_transient(tmp_path: Path) -> None:
    """ainvoke goes through awrap_tool_call: the transient fault is retried, unseen."""
    from tests.agent.fakes import FakeClock
    from tests.integrations.langgraph.scenarios import call, guard_for, make_tools, model

    state: dict[str, int] = {}
    clock = FakeClock()
    m = model(call("fetch", "c1", url="http://x/"), "done")
    agent = build_agent(m, make_tools(tmp_path, state), guard_for(clock))
    await agent.ainvoke({"messages": [("user", "fetch")]})
    assert state["fetch"] == 2
    assert m.seen[1][-1].content == "fetched: 200 OK"
