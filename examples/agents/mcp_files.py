"""An MCP server whose tool fails, guarded by hintline, and a client session calling it.

    python examples/agents/mcp_files.py

``guard_server`` turns each tool exception into a ``CallToolResult`` with ``is_error`` and the
hint ("Perhaps you meant …") instead of the SDK's masked "Error executing tool read_file".
The client follows the hint. (``hintline mcp`` is a ready server offering ``clean_error`` and
``scrub`` to any MCP client.)
"""

from __future__ import annotations

import asyncio
import re
import tempfile
from pathlib import Path

from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp_types import TextContent

from hintline import AgentGuard
from hintline.integrations.mcp import guard_server


def files_server(root: Path, guard: AgentGuard) -> MCPServer:
    server = guard_server(MCPServer("files"), guard)  # one guard state per client session

    @server.tool()
    def read_file(path: str) -> str:
        """Read a file of the workspace."""
        return (root / path).read_text()

    return server


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "notes").mkdir()
        (root / "notes" / "todo.txt").write_text("buy milk")
        guard = AgentGuard()
        with guard.run(keep=True) as run:  # only to print this session's counts below
            await session(files_server(root, guard))
        print(f"guard counts: {run.counts}")


async def session(server: MCPServer) -> None:
    """One client session (the in-memory transport, with the session handshake)."""
    async with Client(server, mode="legacy") as client:
        path = "notes/tood.txt"
        while True:
            result = await client.call_tool("read_file", {"path": path})
            text = " ".join(c.text for c in result.content if isinstance(c, TextContent))
            print(f"client saw (is_error={result.is_error}): {text!r}")
            suggestion = re.search(r"Perhaps you meant '([^']+)'", text)
            if not (result.is_error and suggestion):
                break
            path = suggestion.group(1)


if __name__ == "__main__":
    asyncio.run(main())
