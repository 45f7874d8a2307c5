"""A PydanticAI agent whose tool fails, guarded by hintline. Runs offline (FunctionModel).

    python examples/agents/pydantic_ai_files.py

The model asks for a misspelt file; the guard returns the hint with "Perhaps you meant …"
(as ModelRetry); the model follows it and answers.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from hintline import AgentGuard
from hintline.integrations.pydantic_ai import HintlineCapability


def scripted_model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """A stand-in model: read notes/tood.txt, follow a "Perhaps you meant" hint, then answer."""
    last = messages[-1]
    parts = last.parts if isinstance(last, ModelRequest) else []
    result = next((p for p in parts if p.part_kind in {"tool-return", "retry-prompt"}), None)
    if result is None:
        return ModelResponse(parts=[ToolCallPart("read_file", {"path": "notes/tood.txt"})])
    text = str(result.content)
    print(f"model saw: {text!r}")
    suggestion = re.search(r"Perhaps you meant '([^']+)'", text)
    if suggestion:
        return ModelResponse(parts=[ToolCallPart("read_file", {"path": suggestion.group(1)})])
    return ModelResponse(parts=[TextPart(f"Your todo list says: {text}")])


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "notes").mkdir()
        (root / "notes" / "todo.txt").write_text("buy milk")
        guard = AgentGuard()
        agent = Agent(FunctionModel(scripted_model), capabilities=[HintlineCapability(guard)], retries=3)

        @agent.tool_plain
        def read_file(path: str) -> str:
            """Read a file of the workspace."""
            return (root / path).read_text()

        with guard.run(keep=True) as run:  # only to print this run's counts below
            print(agent.run_sync("What is on my todo list?").output)
        print(f"guard counts: {run.counts}")


if __name__ == "__main__":
    main()
