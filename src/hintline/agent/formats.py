"""The tool-result shapes of each API, built from a guarded :class:`~hintline.agent.Outcome`.

Only Anthropic and MCP carry an error flag. OpenAI Chat ``role: tool`` messages and Responses
``function_call_output`` items do not, so for them the text itself says the call failed
(:data:`ERROR_PREFIX`): a flag a provider drops cannot lose the information.

The shapes are plain JSON-safe dicts, ready for the raw HTTP APIs and the official SDKs (which
accept these dicts as their typed params). ``hintline.integrations.mcp`` builds the typed
``CallToolResult``.
"""

from __future__ import annotations

from typing import TypeVar

from hintline.agent._guard import Outcome

__all__ = [
    "ERROR_PREFIX",
    "anthropic_tool_result",
    "mcp_call_tool_result",
    "openai_chat_tool_message",
    "openai_responses_output",
]

T = TypeVar("T")

ERROR_PREFIX = "Error: the tool call failed. "
"""Leads the text of a failed call where the format has no error flag."""


def _flagless_text(outcome: Outcome[T]) -> str:
    text = outcome.text()
    return ERROR_PREFIX + text if outcome.is_error else text


def anthropic_tool_result(outcome: Outcome[T], tool_use_id: str) -> dict[str, object]:
    """An Anthropic Messages ``tool_result`` content block (``is_error`` set on failure)."""
    block: dict[str, object] = {
        "type": "tool_result",
        "tool_use_id": tool_use_id,
        "content": outcome.text(),
    }
    if outcome.is_error:
        block["is_error"] = True
    return block


def openai_chat_tool_message(outcome: Outcome[T], tool_call_id: str) -> dict[str, object]:
    """An OpenAI Chat Completions ``role: tool`` message; a failure says so in its text."""
    return {"role": "tool", "tool_call_id": tool_call_id, "content": _flagless_text(outcome)}


def openai_responses_output(outcome: Outcome[T], call_id: str) -> dict[str, object]:
    """An OpenAI Responses ``function_call_output`` item; a failure says so in its text."""
    return {"type": "function_call_output", "call_id": call_id, "output": _flagless_text(outcome)}


def mcp_call_tool_result(outcome: Outcome[T]) -> dict[str, object]:
    """An MCP ``CallToolResult`` as JSON (``isError`` set on failure), per the 2025-11-25 spec."""
    return {
        "content": [{"type": "text", "text": outcome.text()}],
        "isError": outcome.is_error,
    }
