"""``hintline mcp``: an MCP server on stdio offering ``clean_error`` and ``scrub`` as tools.

Register it with any MCP client, for example Claude Desktop or Claude Code::

    {"mcpServers": {"hintline": {"command": "hintline", "args": ["mcp"]}}}

Exit status: 0 when the client closes the connection (its end of standard input, or of standard
output: a broken pipe); 74 with one line on standard error when standard output cannot be written
(closed, a full disk: no answer can reach the client); 1 when standard input is closed; 2 when
the ``mcp`` extra is missing.
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
    import sys

    from hintline.cli import raise_write_failure
    from hintline.cli._io import error
    from hintline.integrations.mcp import build_server  # the `mcp` extra (cli.main says so)

    server = build_server()
    if sys.stdin is None:
        error("mcp", "standard input is closed: an MCP client speaks to this server on it")
        return 1
    try:
        server.run("stdio")
    except BaseExceptionGroup as group:  # the transport's reader and writer run as tasks
        raise_write_failure(group)
    return 0
