"""A scripted implementation of the OpenAI Agents SDK ``Model`` interface (offline)."""

from __future__ import annotations

import copy
import json
from collections.abc import AsyncIterator
from typing import Any

from agents import ModelResponse, Usage
from agents.models.interface import Model
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)


def tool_call(name: str, call_id: str, **args: object) -> ResponseFunctionToolCall:
    return ResponseFunctionToolCall(
        type="function_call", call_id=call_id, name=name, arguments=json.dumps(args),
        id=f"fc_{call_id}", status="completed",
    )


def message(text: str) -> ResponseOutputMessage:
    return ResponseOutputMessage(
        id="msg_1", type="message", role="assistant", status="completed",
        content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
    )


class ScriptedModel(Model):
    """Plays fixed outputs and records the input items of every request."""

    def __init__(self, *steps: Any) -> None:
        self.steps = list(steps)
        self.seen: list[list[Any]] = []

    async def get_response(self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any) -> ModelResponse:
        self.seen.append(copy.deepcopy(input if isinstance(input, list) else [input]))
        return ModelResponse(output=[self.steps.pop(0)], usage=Usage(requests=1), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError

    def outputs(self, turn: int) -> list[dict[str, Any]]:
        """The function_call_output items the model received on a turn."""
        return [
            i for i in self.seen[turn]
            if isinstance(i, dict) and i.get("type") == "function_call_output"
        ]

    def everything(self) -> str:
        return json.dumps(self.seen, default=str)
