"""A real LangGraph graph (model node + guarded ToolNode) through the five scenarios."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.tools import BaseTool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from hintline import AgentGuard
from hintline.integrations.langgraph import guarded_tool_node, hint_tool_errors
from tests.integrations.langgraph.scenarios import SCENARIOS, Build, ScriptedChatModel, call, model


def build_graph(m: ScriptedChatModel, tools: list[BaseTool], guard: AgentGuard) -> Any:
    def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [m.invoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", guarded_tool_node(tools, guard))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", tools_condition, {"tools": "tools", END: END})
    graph.add_edge("tools", "agent")
    return graph.compile()


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.__name__)
def test_scenario(scenario: Any, tmp_path: Path) -> None:
    """Each scenario of the policy holds in a real LangGraph run."""
    build: Build = build_graph
    scenario(build, tmp_path)


class TestHandleToolErrors:
    def test_handler_gives_hint_and_reraises_system(self, tmp_path: Path) -> None:
        """ToolNode(handle_tool_errors=hint_tool_errors()) returns the hint; system re-raises."""
        from tests.integrations.langgraph.scenarios import make_tools

        tools = make_tools(tmp_path, {})
        node = ToolNode(tools, handle_tool_errors=hint_tool_errors())
        m = model(call("read_file", "c1", path="missing.txt"), "ok")

        def agent(state: MessagesState) -> dict[str, Any]:
            return {"messages": [m.invoke(state["messages"])]}

        graph = StateGraph(MessagesState)
        graph.add_node("agent", agent)
        graph.add_node("tools", node)
        graph.add_edge(START, "agent")
        graph.add_conditional_edges("agent", tools_condition, {"tools": "tools", END: END})
        graph.add_edge("tools", "agent")
        graph.compile().invoke({"messages": [("user", "read")]})
        error = m.seen[1][-1]
        assert str(error.content).startswith("Hint: ")
        assert error.status == "error"

        system = ToolNode(tools, handle_tool_errors=hint_tool_errors())
        m2 = model(call("fetch", "c1", url="http://x/"), "ok")

        def agent2(state: MessagesState) -> dict[str, Any]:
            return {"messages": [m2.invoke(state["messages"])]}

        g2 = StateGraph(MessagesState)
        g2.add_node("agent", agent2)
        g2.add_node("tools", system)
        g2.add_edge(START, "agent")
        g2.add_conditional_edges("agent", tools_condition, {"tools": "tools", END: END})
        g2.add_edge("tools", "agent")
        with pytest.raises(ConnectionRefusedError):
            g2.compile().invoke({"messages": [("user", "fetch")]})


async def test_async_graph_escalates(tmp_path: Path) -> None:
    """The async path (awrap_tool_call) applies the same policy."""
    from hintline import TooManyConsecutiveErrors
    from tests.agent.fakes import FakeClock
    from tests.integrations.langgraph.scenarios import guard_for, make_tools

    m = model(*(call("read_file", f"c{i}", path=f"{i}.txt") for i in range(3)), "never")
    graph = build_graph(m, make_tools(tmp_path, {}), guard_for(FakeClock()))
    with pytest.raises(TooManyConsecutiveErrors):
        await graph.ainvoke({"messages": [("user", "read")]})


class TestRunsOfOneGraph:
    """The guard of a graph serves each run, thread and invoke with its own state."""

    def _graph(self, tmp_path: Path, script: list[Any], checkpointer: Any = None) -> tuple[Any, Any]:
        from tests.agent.fakes import FakeClock
        from tests.integrations.langgraph.scenarios import guard_for, make_tools

        m = model(*script)

        def agent(state: MessagesState) -> dict[str, Any]:
            return {"messages": [m.invoke(state["messages"])]}

        graph = StateGraph(MessagesState)
        graph.add_node("agent", agent)
        graph.add_node("tools", guarded_tool_node(make_tools(tmp_path, {}), guard_for(FakeClock())))
        graph.add_edge(START, "agent")
        graph.add_conditional_edges("agent", tools_condition, {"tools": "tools", END: END})
        graph.add_edge("tools", "agent")
        return graph.compile(checkpointer=checkpointer), m

    def test_threads_and_runs_on_a_checkpointed_graph(self, tmp_path: Path) -> None:
        from langgraph.checkpoint.memory import InMemorySaver

        script = [call("read_file", f"c{i}", path=f"{i}.txt") for i in range(2)] + ["answered"]
        script += [call("read_file", "d1", path="x.txt"), "answered again"]
        script += [call("read_file", "e1", path="y.txt"), "other thread"]
        graph, m = self._graph(tmp_path, script, InMemorySaver())
        one = {"configurable": {"thread_id": "one"}}
        graph.invoke({"messages": [("user", "read")]}, one)  # two failures, then an answer
        # the same thread, a new user message: a new run, its first failure does not stop it
        out = graph.invoke({"messages": [("user", "again")]}, one)
        assert out["messages"][-1].content == "answered again"
        out = graph.invoke({"messages": [("user", "read")]}, {"configurable": {"thread_id": "two"}})
        assert out["messages"][-1].content == "other thread"
        assert "0.txt" not in str(m.seen[-1][-1].content)
