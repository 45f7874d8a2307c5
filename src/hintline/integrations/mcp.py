"""MCP servers (``mcp`` 2.x ``MCPServer``): guarded tools, and the ``hintline mcp`` server.

Put a guard on a tool with :func:`hint_errors` (below the ``@server.tool()`` decorator)::

    from mcp.server.mcpserver import MCPServer
    from hintline import AgentGuard
    from hintline.integrations.mcp import hint_errors

    server, guard = MCPServer("files"), AgentGuard()

    @server.tool()
    @hint_errors(guard)
    def read_file(path: str) -> str: ...

* recoverable and policy failures return a ``CallToolResult`` with ``is_error=True`` whose
  text is the hint (policy: with the intentional wording), instead of the SDK's masked
  "Error executing tool …";
* system faults are retried inside the server; if they persist the exception propagates and
  the SDK masks it, so infrastructure detail never reaches the client's model;
* a loop adds the meta-message to a text result; reaching the consecutive-error threshold (or a
  loop past its warnings) returns an error result that tells the client's agent to stop and
  hand the summary to its user — a server cannot end its client's run itself.

:func:`build_server` is the ``hintline mcp`` server: ``clean_error`` and ``scrub`` as tools.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

from hintline.agent import AgentGuard, Outcome
from hintline.exceptions import GuardTripped, MissingExtraError, RetryBudgetExhausted

try:
    from mcp.server.mcpserver import MCPServer
    from mcp_types import CallToolResult, TextContent
except ImportError as exc:  # pragma: no cover - exercised without the extra
    raise MissingExtraError("mcp", "mcp") from exc

__all__ = ["build_server", "hint_errors", "to_call_tool_result"]

F = TypeVar("F", bound=Callable[..., Any])


def to_call_tool_result(outcome: Outcome[Any]) -> CallToolResult:
    """The ``CallToolResult`` for a guarded outcome (``is_error`` set on failure)."""
    return CallToolResult(
        content=[TextContent(type="text", text=outcome.text())], is_error=outcome.is_error
    )


def _result(outcome: Outcome[Any]) -> Any:
    """What the tool function returns: an error result, or the value (a string with the
    notice appended) for the SDK to convert as usual, so structured output still validates."""
    if outcome.is_error:
        return to_call_tool_result(outcome)
    if outcome.notice and isinstance(outcome.value, str):
        return outcome.text()
    return outcome.value


def _tripped(exc: GuardTripped) -> CallToolResult:
    text = (
        f"{exc} Stop calling tools and give the user this summary; they need to decide how to "
        f"continue.\n{exc.summary}"
    )
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def _args(sig: inspect.Signature, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    try:
        bound = sig.bind_partial(*args, **kwargs)
    except TypeError:
        return dict(kwargs)
    return dict(bound.arguments)


def hint_errors(guard: AgentGuard, *, name: str | None = None) -> Callable[[F], F]:
    """Decorate an MCP tool function (sync or async) so its failures follow the guard's policy.

    Args:
        guard: the guard; one per client session or run (the caller owns it).
        name: the tool name the guard records (the function's name by default).
    """

    def decorate(fn: F) -> F:
        tool = name or fn.__name__
        sig = inspect.signature(fn)
        if inspect.iscoroutinefunction(fn):
            afn = cast(Callable[..., Awaitable[Any]], fn)

            @functools.wraps(fn)
            async def awrapper(*args: Any, **kwargs: Any) -> Any:
                try:
                    outcome = await guard.acall(
                        tool, _args(sig, args, kwargs), lambda: afn(*args, **kwargs)
                    )
                except RetryBudgetExhausted:
                    raise
                except GuardTripped as exc:
                    return _tripped(exc)
                return _result(outcome)

            return cast(F, awrapper)

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                outcome = guard.call(tool, _args(sig, args, kwargs), lambda: fn(*args, **kwargs))
            except RetryBudgetExhausted:
                raise
            except GuardTripped as exc:
                return _tripped(exc)
            return _result(outcome)

        return cast(F, wrapper)

    return decorate


def build_server() -> MCPServer:
    """The ``hintline mcp`` server: ``clean_error(text)`` and ``scrub(text)`` as tools."""
    from hintline.hint import clean
    from hintline.scrub import scrub as scrub_text

    server = MCPServer(
        "hintline",
        instructions=(
            "Turn an error message, log line or stack trace into one actionable, secret-free "
            "hint (clean_error), or remove secrets from any text (scrub)."
        ),
    )

    @server.tool()
    def clean_error(text: str) -> dict[str, str | None]:
        """Clean an error (message, log line or stack trace) into one actionable hint.

        Returns the hint line, its category, its kind (recoverable, policy or system: what to
        do about it), the offending key if any, the rule that matched, and for system faults
        whether a retry can help.
        """
        hint = clean(text)
        return {
            "hint": scrub_text(hint.text),
            "category": str(hint.category),
            "kind": str(hint.kind),
            "key": None if hint.key is None else scrub_text(hint.key),
            "rule": hint.rule,
            "retry": None if hint.retry is None else str(hint.retry),
        }

    @server.tool()
    def scrub(text: str) -> str:
        """Replace secret values (keys, tokens, passwords, credentials in URLs) in the text."""
        return scrub_text(text)

    return server
