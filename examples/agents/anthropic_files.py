"""An Anthropic tool-runner agent whose tool fails, guarded by hintline. Runs offline.

    python examples/agents/anthropic_files.py

The real ``anthropic`` client and ``client.beta.messages.tool_runner`` talk to a stand-in
Messages API (an ``httpx2.MockTransport`` that decides from the request it receives): it asks
for a misspelt file, gets a ``tool_result`` with ``is_error: true`` and the hint (not
``repr(exc)``), follows "Perhaps you meant …", and answers.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

import anthropic
import httpx2

from hintline import AgentGuard
from hintline.integrations.anthropic import tool_runner


def stand_in_api(request: httpx2.Request) -> httpx2.Response:
    """POST /v1/messages: read notes/tood.txt, follow a "Perhaps you meant" hint, answer."""
    last = json.loads(request.content)["messages"][-1]
    results = [b for b in last["content"] if isinstance(b, dict) and b.get("type") == "tool_result"] if isinstance(last["content"], list) else []
    reply: dict[str, Any]
    if not results:
        reply = {"content": [{"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "notes/tood.txt"}}], "stop_reason": "tool_use"}
    else:
        content = results[-1]["content"]
        text = content if isinstance(content, str) else " ".join(b.get("text", "") for b in content)
        print(f"model saw (is_error={results[-1].get('is_error', False)}): {text!r}")
        suggestion = re.search(r"Perhaps you meant '([^']+)'", text)
        if suggestion:
            reply = {"content": [{"type": "tool_use", "id": "toolu_2", "name": "read_file", "input": {"path": suggestion.group(1)}}], "stop_reason": "tool_use"}
        else:
            reply = {"content": [{"type": "text", "text": f"Your todo list says: {text}"}], "stop_reason": "end_turn"}
    body = {"id": "msg_1", "type": "message", "role": "assistant", "model": "stand-in",
            "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}, **reply}
    return httpx2.Response(200, json=body)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "notes").mkdir()
        (root / "notes" / "todo.txt").write_text("buy milk")

        def read_file(path: str) -> str:
            """Read a file of the workspace."""
            return (root / path).read_text()

        client = anthropic.Anthropic(
            api_key="offline", base_url="http://127.0.0.1:9",
            http_client=httpx2.Client(transport=httpx2.MockTransport(stand_in_api)), max_retries=0,
        )
        guard = AgentGuard()
        with guard.run(keep=True) as run:  # only to print this run's counts below
            final = tool_runner(
                client, guard=guard, model="stand-in", max_tokens=256, tools=[read_file],
                messages=[{"role": "user", "content": "What is on my todo list?"}],
            ).until_done()
        print(final.content[0].text)
        print(f"guard counts: {run.counts}")


if __name__ == "__main__":
    main()
