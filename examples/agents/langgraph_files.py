"""A LangGraph graph (model node + guarded ToolNode) whose tool fails. Runs offline.

    python examples/agents/langgraph_files.py

``guarded_tool_node`` is a ``ToolNode`` with hintline's ``wrap_tool_call``: the model gets the
hint ("Perhaps you meant …") with ``status="error"`` instead of a crash, follows it, and answers.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import tools_condition

from hintline import AgentGuard
from hintline.integrations.langgraph import guarded_tool_node


def stand_in_model(state: MessagesState) -> dict[str, Any]:
    """A model node that reads notes/tood.txt, follows a "Perhaps you meant" hint, answers."""
    last = state["messages"][-1]
    if not isinstance(last, ToolMessage):
        call = {"name": "read_file", "args": {"path": "notes/tood.txt"}, "id": "c1"}
        return {"messages": [AIMessage("", tool_calls=[call])]}
    print(f"model saw ({last.status}): {last.content!r}")
    suggestion = re.search(r"Perhaps you meant '([^']+)'", str(last.content))
    if suggestion:
        call = {"name": "read_file", "args": {"path": suggestion.group(1)}, "id": "c2"}
        return {"messages": [AIMessage("", tool_calls=[call])]}
    return {"messages": [AIMessage(f"Your todo list says: {last.content}")]}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "notes").mkdir()
        (root / "notes" / "todo.txt").write_text("buy milk")

        @tool
        def read_file(path: str) -> str:
            """Read a file of the workspace."""
            return (root / path).read_text()

        guard = AgentGuard()
        graph = StateGraph(MessagesState)
        graph.add_node("agent", stand_in_model)
        graph.add_node("tools", guarded_tool_node([read_file], guard))
        graph.add_edge(START, "agent")
        graph.add_conditional_edges("agent", tools_condition, {"tools": "tools", END: END})
        graph.add_edge("tools", "agent")
        with guard.run(keep=True) as run:  # only to print this run's counts below
            result = graph.compile().invoke({"messages": [("user", "What is on my todo list?")]})
        print(result["messages"][-1].content)
        print(f"guard counts: {run.counts}")


if __name__ == "__main__":
    main()
