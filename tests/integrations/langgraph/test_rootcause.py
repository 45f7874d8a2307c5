"""The root-cause step by key, on a real LangGraph graph driven by a fake chat model."""

from __future__ import annotations

from typing import Annotated, Any, TypedDict

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.tools import InjectedToolCallId, tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import InjectedState, tools_condition
from langgraph.types import Command

from hintline import TooManyConsecutiveErrors
from hintline.agent import AgentGuard, Steps
from hintline.integrations.langgraph import guarded_tool_node
from tests.agent.fakes import FakeClock
from tests.integrations.langgraph.scenarios import call, guard_for, model


class OrderState(MessagesState):
    user_id: int


@tool
def create_user(username: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command[Any]:
    """Create a user; the new id goes into the graph state."""
    return Command(update={"user_id": 7, "messages": [ToolMessage("created user 7", tool_call_id=tool_call_id)]})


@tool
def create_order(item: str, state: Annotated[dict[str, Any], InjectedState]) -> str:
    """Create an order for the current user."""
    return f"order for user {state['user_id']}: {item}"  # a real KeyError when no user exists


def build(m: Any, guard: AgentGuard) -> Any:
    def agent(state: OrderState) -> dict[str, Any]:
        return {"messages": [m.invoke(state["messages"])]}

    graph = StateGraph(OrderState)
    graph.add_node("agent", agent)
    graph.add_node("tools", guarded_tool_node([create_user, create_order], guard))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", tools_condition, {"tools": "tools", END: END})
    graph.add_edge("tools", "agent")
    return graph


def steps_of(graph: Any) -> Steps:
    # the graph says the tools and their arguments; what a Command writes, the caller says
    return Steps.from_langgraph(graph, produces={"create_user": {"user_id"}})


def test_introspection_of_the_graph() -> None:
    steps = steps_of(build(model("x"), AgentGuard()))
    assert [s.name for s in steps] == ["agent", "create_user", "create_order"]
    assert steps.step("create_order") is not None
    assert steps.step("create_order").consumes == {"item"}  # type: ignore[union-attr]
    assert steps.step("create_user").produces == {"user_id"}  # type: ignore[union-attr]


def test_the_tool_result_names_the_step_that_did_not_run() -> None:
    """The model orders before creating the user: the result says which step to run first."""
    m = model(call("create_order", "c1", item="book"), call("create_user", "c2", username="ann"),
              call("create_order", "c3", item="book"), "done")
    guard = guard_for(FakeClock())
    graph = build(m, guard)
    guard.steps = steps_of(graph)
    result = graph.compile().invoke({"messages": [("user", "order a book")]})
    first = m.seen[1][-1]
    assert isinstance(first, ToolMessage)
    assert first.status == "error"
    assert str(first.content).startswith("Hint: Key 'user_id' is not in the mapping")
    assert str(first.content).endswith(
        "create_order failed: no user 'user_id'; the step that produces it, create_user, did not run."
    )
    assert result["messages"][-2].content == "order for user 7: book"


def test_the_escalation_summary_names_it() -> None:
    m = model(*(call("create_order", f"c{i}", item=f"book {i}") for i in range(3)), "never")
    guard = guard_for(FakeClock())
    graph = build(m, guard)
    guard.steps = steps_of(graph)
    with pytest.raises(TooManyConsecutiveErrors) as info:
        graph.compile().invoke({"messages": [("user", "order")]})
    assert "3. create_order" in info.value.summary
    assert info.value.summary.count("the step that produces it, create_user, did not run.") == 3


class UserOut(TypedDict):
    user_id: int


class OrderIn(TypedDict):
    user_id: int
    item: str


class Flow(TypedDict, total=False):
    name: str
    user_id: int
    item: str
    order_id: int


def test_state_graph_nodes_from_their_annotations() -> None:
    """Plain nodes: produces from the return annotation, consumes from the input schema."""

    def create_user(state: Flow) -> UserOut:
        return {"user_id": 1}

    def create_order(state: OrderIn) -> dict[str, Any]:
        return {"order_id": 1}

    graph = StateGraph(Flow)
    graph.add_node("create_user", create_user)
    graph.add_node("create_order", create_order)
    graph.add_edge(START, "create_user")
    graph.add_edge("create_user", "create_order")
    graph.add_edge("create_order", END)
    steps = Steps.from_langgraph(graph.compile())
    assert [s.name for s in steps] == ["create_user", "create_order"]
    assert steps.step("create_user").produces == {"user_id"}  # type: ignore[union-attr]
    assert steps.step("create_order").consumes == {"user_id", "item"}  # type: ignore[union-attr]
    cause = steps.root_cause("create_order", "user_id")
    assert cause is not None
    assert cause.producer == "create_user"
