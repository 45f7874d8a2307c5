"""An OpenAI Agents SDK agent whose tool fails, guarded by hintline. Runs offline.

    python examples/agents/openai_agents_files.py

The model is a stand-in implementing the SDK's ``Model`` interface: it asks for a misspelt
file, reads the ``function_call_output`` (which says it is an error, since the Responses API
has no error flag), follows "Perhaps you meant …", and answers.
"""

from __future__ import annotations

import asyncio
import json
import re
import tempfile
from pathlib import Path
from typing import Any

from agents import Agent, ModelResponse, RunConfig, Runner, Usage
from agents.models.interface import Model
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from hintline import AgentGuard
from hintline.integrations.openai_agents import guarded_tool


def call(path: str, call_id: str) -> ResponseFunctionToolCall:
    return ResponseFunctionToolCall(
        type="function_call", call_id=call_id, name="read_file",
        arguments=json.dumps({"path": path}), id=f"fc_{call_id}", status="completed",
    )


class StandInModel(Model):
    """Reads notes/tood.txt, follows a "Perhaps you meant" hint, then answers."""

    async def get_response(self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any) -> ModelResponse:
        outputs = [i for i in input if isinstance(i, dict) and i.get("type") == "function_call_output"]
        if not outputs:
            item: Any = call("notes/tood.txt", "c1")
        else:
            text = str(outputs[-1]["output"])
            print(f"model saw: {text!r}")
            suggestion = re.search(r"Perhaps you meant '([^']+)'", text)
            if suggestion:
                item = call(suggestion.group(1), f"c{len(outputs) + 1}")
            else:
                item = ResponseOutputMessage(
                    id="m1", type="message", role="assistant", status="completed",
                    content=[ResponseOutputText(type="output_text", text=f"Your todo list says: {text}", annotations=[])],
                )
        return ModelResponse(output=[item], usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "notes").mkdir()
        (root / "notes" / "todo.txt").write_text("buy milk")

        def read_file(path: str) -> str:
            """Read a file of the workspace."""
            return (root / path).read_text()

        guard = AgentGuard()
        agent = Agent(name="files", model=StandInModel(), tools=[guarded_tool(read_file, guard)])
        with guard.run(keep=True) as run:  # only to print this run's counts below
            result = await Runner.run(agent, "What is on my todo list?", run_config=RunConfig(tracing_disabled=True))
        print(result.final_output)
        print(f"guard counts: {run.counts}")


if __name__ == "__main__":
    asyncio.run(main())
