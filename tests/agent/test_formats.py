"""Tool-result shapes for each API."""

from __future__ import annotations

import json

from hintline.agent import AgentGuard, Outcome
from hintline.agent.formats import (
    ERROR_PREFIX,
    anthropic_tool_result,
    mcp_call_tool_result,
    openai_chat_tool_message,
    openai_responses_output,
)


def failed() -> Outcome[str]:
    def tool() -> str:
        return open("/nonexistent/dir/file.txt").read()

    return AgentGuard().call("read_file", {"path": "/nonexistent/dir/file.txt"}, tool)


def succeeded() -> Outcome[str]:
    return AgentGuard().call("echo", {}, lambda: "hello")


class TestFormats:
    def test_anthropic_sets_is_error(self) -> None:
        """Anthropic tool_result carries is_error on failure and not on success."""
        block = anthropic_tool_result(failed(), "toolu_01")
        assert block["type"] == "tool_result"
        assert block["tool_use_id"] == "toolu_01"
        assert block["is_error"] is True
        assert str(block["content"]).startswith("Hint: ")
        assert "is_error" not in anthropic_tool_result(succeeded(), "toolu_02")

    def test_openai_chat_says_error_in_text(self) -> None:
        """Chat role:tool has no flag: the text starts with the error prefix."""
        msg = openai_chat_tool_message(failed(), "call_1")
        assert msg["role"] == "tool"
        assert msg["tool_call_id"] == "call_1"
        assert str(msg["content"]).startswith(ERROR_PREFIX + "Hint: ")
        assert openai_chat_tool_message(succeeded(), "call_2")["content"] == "hello"

    def test_openai_responses_says_error_in_text(self) -> None:
        """Responses function_call_output has no flag: the output says it failed."""
        item = openai_responses_output(failed(), "call_9")
        assert item["type"] == "function_call_output"
        assert item["call_id"] == "call_9"
        assert str(item["output"]).startswith(ERROR_PREFIX)

    def test_mcp_is_json_with_is_error(self) -> None:
        """MCP CallToolResult JSON has isError and one text content item."""
        result = mcp_call_tool_result(failed())
        assert result["isError"] is True
        assert json.loads(json.dumps(result))["content"][0]["type"] == "text"
        assert mcp_call_tool_result(succeeded())["isError"] is False
