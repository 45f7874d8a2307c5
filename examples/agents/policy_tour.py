"""One small PydanticAI agent run through the whole error policy. Offline (FunctionModel).

    python examples/agents/policy_tour.py          (extra: pip install 'hintline[pydantic-ai]')

A scripted stand-in model drives real tools on a temporary workspace:

1. ``fetch`` meets a real refused connection the first time: a transient system fault, retried
   inside the hook; the model never sees it.
2. ``read_file`` of a misspelt name: recoverable; the model gets the hint with
   "Perhaps you meant …" and follows it.
3. ``delete_file``: the tool refuses (policy); the model is told it cannot be bypassed.
4. Two more failing reads: the third failure in a row stops the run with a summary for a human.

``make demo`` runs it; ``tests/agent/test_examples.py`` checks its output.
"""

from __future__ import annotations

import json
import socket
import tempfile
from pathlib import Path

from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from hintline import AgentGuard, TooManyConsecutiveErrors
from hintline.agent import ToolRefused
from hintline.integrations.pydantic_ai import HintlineCapability

PLAN: list[tuple[str, dict[str, str]]] = [
    ("fetch", {"url": "http://127.0.0.1/rates"}),
    ("read_file", {"path": "notes/tood.txt"}),
    # the model follows the hint's "Perhaps you meant" here (see scripted_model)
    ("delete_file", {"path": "notes/todo.txt"}),
    ("read_file", {"path": "notes/done.txt"}),
    ("read_file", {"path": "notes/old.txt"}),
]


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # closed again when the socket is


def _show(text: str) -> str:
    lines = [line if len(line) <= 200 else line[:197] + "..." for line in text.splitlines()[:3]]
    return "\n               ".join(lines)


class ScriptedModel:
    """Plays PLAN, following the first "Perhaps you meant" hint it gets."""

    def __init__(self, root: Path) -> None:
        self.plan = list(PLAN)
        self.root = root
        self.followed = False

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        last = messages[-1]
        parts = last.parts if isinstance(last, ModelRequest) else []
        for part in parts:
            if part.part_kind in {"tool-return", "retry-prompt"}:
                content = part.model_response() if part.part_kind == "retry-prompt" else part.content
                print(f"   model sees: {_show(str(content))}")
                meant = str(content).partition("Perhaps you meant '")[2].partition("'")[0]
                if meant and not self.followed:
                    self.followed = True
                    path = str(Path(meant).relative_to(self.root))
                    return self._call("read_file", {"path": path})
        if not self.plan:
            return ModelResponse(parts=[TextPart("done")])
        return self._call(*self.plan.pop(0))

    def _call(self, tool: str, args: dict[str, str]) -> ModelResponse:
        print(f"-> {tool}({json.dumps(args)})")
        return ModelResponse(parts=[ToolCallPart(tool, args)])


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "notes").mkdir()
        (root / "notes" / "todo.txt").write_text("buy milk\n")
        guard = AgentGuard()
        agent = Agent(
            FunctionModel(ScriptedModel(root)), capabilities=[HintlineCapability(guard)], retries=3
        )
        fetched: list[str] = []

        @agent.tool_plain
        def fetch(url: str) -> str:
            """Fetch a URL (the first attempt meets a refused connection: a real one)."""
            fetched.append(url)
            if len(fetched) == 1:
                print("   (attempt 1: connection refused; the guard retries, the model never sees it)")
                socket.create_connection(("127.0.0.1", _closed_port()), timeout=2).close()
            return "EUR/USD 1.08"

        @agent.tool_plain
        def read_file(path: str) -> str:
            """Read a file of the workspace."""
            return (root / path).read_text()

        @agent.tool_plain
        def delete_file(path: str) -> str:
            """Delete a file of the workspace."""
            raise ToolRefused(f"deleting {path} is not allowed in this workspace")

        try:
            agent.run_sync("Tidy up my notes.")
        except TooManyConsecutiveErrors as stop:
            print(f"run stopped: {stop}")
            print(stop.summary)
            return 0
        print("the run was not stopped")
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
