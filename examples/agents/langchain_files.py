"""A LangChain v1 agent whose tool fails, guarded by HintlineMiddleware. Runs offline.

    python examples/agents/langchain_files.py

The chat model is a stand-in (a LangChain fake chat model that decides from the messages it
receives): it asks for a misspelt file, follows the guard's "Perhaps you meant …", and answers.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool

from hintline import AgentGuard
from hintline.integrations.langchain import HintlineMiddleware


class StandInModel(GenericFakeChatModel):
    """Reads notes/tood.txt, follows a "Perhaps you meant" hint, then answers."""

    messages: Any = iter(())

    def bind_tools(self, tools: Any, **kwargs: Any) -> StandInModel:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        last = messages[-1]
        if not isinstance(last, ToolMessage):
            reply = AIMessage("", tool_calls=[{"name": "read_file", "args": {"path": "notes/tood.txt"}, "id": "c1"}])
        else:
            print(f"model saw ({last.status}): {last.content!r}")
            suggestion = re.search(r"Perhaps you meant '([^']+)'", str(last.content))
            if suggestion:
                reply = AIMessage("", tool_calls=[{"name": "read_file", "args": {"path": suggestion.group(1)}, "id": "c2"}])
            else:
                reply = AIMessage(f"Your todo list says: {last.content}")
        return ChatResult(generations=[ChatGeneration(message=reply)])


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
        agent = create_agent(StandInModel(), [read_file], middleware=[HintlineMiddleware(guard)])
        with guard.run(keep=True) as run:  # only to print this run's counts below
            result = agent.invoke({"messages": [("user", "What is on my todo list?")]})
        print(result["messages"][-1].content)
        print(f"guard counts: {run.counts}")


if __name__ == "__main__":
    main()
