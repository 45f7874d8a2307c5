"""The five scenarios of the agent policy, run against a real LangChain/LangGraph agent loop
with a scripted fake chat model that records every message list it receives."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.tools import BaseTool, tool
from pydantic import Field

from hintline import AgentGuard, TooManyConsecutiveErrors
from hintline.agent import GuardPolicy, ToolRefused
from tests.agent.fakes import FakeClock, connect_closed_port

Build = Callable[["ScriptedChatModel", list[BaseTool], AgentGuard], Any]


class ScriptedChatModel(GenericFakeChatModel):
    """GenericFakeChatModel that accepts tools and records what it was sent."""

    seen: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedChatModel:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def call(name: str, call_id: str, **args: object) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": call_id, "type": "tool_call"}])


def model(*script: AIMessage | str) -> ScriptedChatModel:
    steps: Iterator[AIMessage | str] = iter(script)
    return ScriptedChatModel(messages=steps)


def tool_messages(m: ScriptedChatModel) -> list[ToolMessage]:
    """The tool results the model received on its last turn."""
    return [msg for msg in m.seen[-1] if isinstance(msg, ToolMessage)]


def everything_seen(m: ScriptedChatModel) -> str:
    return "\n".join(str(msg.content) for turn in m.seen for msg in turn)


def make_tools(root: Path, state: dict[str, int]) -> list[BaseTool]:
    @tool
    def read_file(path: str) -> str:
        """Read a file of the workspace."""
        return (root / path).read_text()

    @tool
    def delete_file(path: str) -> str:
        """Delete a file of the workspace."""
        state["delete"] = state.get("delete", 0) + 1
        raise ToolRefused(f"deleting {path} is not allowed in this workspace")

    @tool
    def fetch(url: str) -> str:
        """Fetch a URL."""
        state["fetch"] = state.get("fetch", 0) + 1
        if state["fetch"] == 1:
            connect_closed_port()  # a real ConnectionRefusedError
        return "fetched: 200 OK"

    @tool
    def search_files(query: str) -> str:
        """Search file names."""
        return "report.txt"

    return [read_file, delete_file, fetch, search_files]


def guard_for(clock: FakeClock, **policy: Any) -> AgentGuard:
    return AgentGuard(
        GuardPolicy(**policy), clock=clock.time, sleep=clock.sleep,
        async_sleep=clock.async_sleep, random=lambda: 0.5,
    )


def recoverable_then_success(build: Build, root: Path) -> None:
    (root / "report.txt").write_text("quarterly numbers")
    m = model(
        call("read_file", "c1", path="reprot.txt"),
        call("read_file", "c2", path="report.txt"),
        "The report says: quarterly numbers",
    )
    guard = guard_for(FakeClock())
    result = build(m, make_tools(root, {}), guard).invoke({"messages": [("user", "read the report")]})
    assert result["messages"][-1].content == "The report says: quarterly numbers"
    error = m.seen[1][-1]
    assert isinstance(error, ToolMessage)
    assert error.status == "error"
    assert str(error.content).startswith("Hint: ")
    assert f"Perhaps you meant '{root / 'report.txt'}'?" in str(error.content)
    assert "Traceback" not in everything_seen(m)
    with pytest.raises(FileNotFoundError) as same:
        (root / "reprot.txt").read_text()
    assert error.content == AgentGuard().describe(same.value).content
    ok = m.seen[2][-1]
    assert isinstance(ok, ToolMessage)
    assert ok.content == "quarterly numbers"
    assert guard.consecutive_errors == 0


def policy_refusal(build: Build, root: Path) -> None:
    state: dict[str, int] = {}
    m = model(
        call("delete_file", "c1", path="report.txt"),
        call("delete_file", "c2", path="report.txt"),
        "I cannot delete it; please confirm with an administrator.",
    )
    guard = guard_for(FakeClock(), max_consecutive_errors=5)
    build(m, make_tools(root, state), guard).invoke({"messages": [("user", "delete report")]})
    first, again = m.seen[1][-1], m.seen[2][-1]
    assert isinstance(first, ToolMessage)
    assert first.status == "error"
    assert "intentional and cannot be bypassed" in str(first.content)
    assert "Ask the user" in str(first.content)
    assert state["delete"] == 1  # the repeated call was refused without running the tool
    assert isinstance(again, ToolMessage)
    assert str(again.content).startswith(str(first.content))


def transient_system_failure(build: Build, root: Path) -> None:
    state: dict[str, int] = {}
    clock = FakeClock()
    m = model(call("fetch", "c1", url="http://example.invalid/"), "fetched")
    build(m, make_tools(root, state), guard_for(clock)).invoke({"messages": [("user", "fetch")]})
    assert state["fetch"] == 2
    assert clock.sleeps == [0.0]  # the blip's immediate retry
    result = m.seen[1][-1]
    assert isinstance(result, ToolMessage)
    assert result.content == "fetched: 200 OK"
    assert result.status != "error"
    seen = everything_seen(m).lower()
    assert "refused" not in seen
    assert "errno" not in seen


def loop(build: Build, root: Path) -> None:
    m = model(
        call("search_files", "c1", query="*.txt"),
        call("search_files", "c2", query="*.txt"),
        "done",
    )
    build(m, make_tools(root, {}), guard_for(FakeClock())).invoke({"messages": [("user", "find")]})
    first, second = m.seen[1][-1], m.seen[2][-1]
    assert first.content == "report.txt"
    assert str(second.content).startswith("report.txt\n\n[hintline] You appear to be stuck in a loop")
    assert "search_files" in str(second.content)


def escalation(build: Build, root: Path) -> None:
    m = model(
        call("read_file", "c1", path="a.txt"),
        call("read_file", "c2", path="b.txt"),
        call("read_file", "c3", path="c.txt"),
        "never reached",
    )
    graph = build(m, make_tools(root, {}), guard_for(FakeClock()))
    with pytest.raises(TooManyConsecutiveErrors) as info:
        graph.invoke({"messages": [("user", "read")]})
    lines = info.value.summary.splitlines()
    assert lines[1] == "What was tried, in order:"
    assert [line.split(" -> ")[0] for line in lines[2:]] == [
        '1. read_file({"path":"a.txt"})',
        '2. read_file({"path":"b.txt"})',
        '3. read_file({"path":"c.txt"})',
    ]
    assert all(" -> Hint: " in line for line in lines[2:])
    assert len(m.seen) == 3  # the model was not asked again after the third failure


SCENARIOS = [recoverable_then_success, policy_refusal, transient_system_failure, loop, escalation]
