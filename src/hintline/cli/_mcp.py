"""``hintline mcp``: an MCP server on stdio offering ``clean_error`` and ``scrub`` as tools.

Register it with any MCP client, for example Claude Desktop or Claude Code::

    {"mcpServers": {"hintline": {"command": "hintline", "args": ["mcp"]}}}

Exit status: 0 when the client closes the connection; 2 when the ``mcp`` extra is missing.
"""

from __future__ import annotations

from typing import Any

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``mcp`` subcommand."""
    p = subparsers.add_parser(
        "mcp",
        help="serve clean_error and scrub as MCP tools on stdio",
        description="Run an MCP server on stdin/stdout with two tools: clean_error(text) -> "
        "{hint, category, kind, key, rule, retry} and scrub(text) -> text.",
    )
    p.set_defaults(func=run)


def run(args: Any) -> int:
    """Serve until the client disconnects."""
    from hintline.integrations.mcp import build_server  # the `mcp` extra (cli.main says so)

    build_server().run("stdio")
    return 0
