"""MCP servers (``mcp`` 2.x ``MCPServer``): a guarded server, and the ``hintline mcp`` server.

Put the guard on a whole server with :func:`guard_server`, once, after creating it::

    from mcp.server.mcpserver import MCPServer
    from hintline.integrations.mcp import guard_server

    server = guard_server(MCPServer("files"))      # or guard_server(server, AgentGuard(policy))

Every ``tools/call`` then runs through the guard of *its client session*: each session has its
own streak, loop history and refusals, forgotten when the session ends, so one client never
sees another's calls or paths. For each call:

* recoverable and policy failures return a ``CallToolResult`` with ``is_error=True`` whose
  text is the hint (policy: with the intentional wording), instead of the SDK's masked
  "Error executing tool …"; arguments that fail the tool's schema, and unknown tools, are
  counted the same way and the hint names the field;
* transient system faults are retried inside the server, never shown to the client;
* a guard decision (a system fault that persists or cannot be retried, such as a full disk; the
  consecutive-error threshold; a loop past its warnings) returns an error result that tells the
  client's agent to stop, why, and the summary to give its user: a server cannot end its
  client's run itself.

:func:`hint_errors` is the older per-tool form (``@server.tool()`` then ``@hint_errors()``): the
same policy for one tool, also keyed by session; it does not see arguments the SDK rejects
before the tool runs. Under :func:`guard_server` it steps aside.

Not covered: the client's own retries and its model-request failures, and state across requests
without a client session: on the per-request protocol (2026-07-28, the ``mcp`` 2.x default when
both sides speak it, stdio included) and on stateless HTTP every request arrives on a connection
of its own, so each call gets its hint and its own stop decision but no streak or loop
detection. Clients that keep a session (the handshake, ``Client(..., mode="legacy")``, stateful
streamable HTTP) get all of it.

:func:`build_server` is the ``hintline mcp`` server: ``clean_error`` and ``scrub`` as tools.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import contextvars
import functools
import inspect
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

from hintline.agent import AgentGuard, Outcome
from hintline.agent._runs import current_run, object_key, run_key
from hintline.exceptions import GuardTripped, MissingExtraError

try:
    from mcp.server.mcpserver import Context, MCPServer
    from mcp.shared.exceptions import MCPError
    from mcp_types import CallToolResult, TextContent
except ImportError as exc:  # pragma: no cover - exercised without the extra
    raise MissingExtraError("mcp", "mcp") from exc

__all__ = ["build_server", "guard_server", "hint_errors", "to_call_tool_result"]

F = TypeVar("F", bound=Callable[..., Any])
_CTX = "hintline_ctx"
_SERVER_GUARDED: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "hintline_mcp_server_guarded", default=False
)


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
    """A guard decision as the client sees it: stop, why, and what to tell the user."""
    text = (
        f"{exc} Stop calling tools and give the user this summary; they need to decide how to "
        f"continue.\n{exc.summary}"
    )
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def _client_of(context: Any) -> object | str | None:
    """What identifies the client a request comes from: the transport's session id (streamable
    HTTP), else the connection object (stdio, in-memory), else ``None`` (no request)."""
    try:
        session = context.request_context.session
    except (AttributeError, ValueError):  # no request (called in-process)
        return None
    # mcp 2.x builds a ServerSession per request; the per-client object is its connection
    connection = getattr(session, "connection", None) or getattr(session, "_connection", None)
    if connection is None:
        return cast(object, session)
    session_id = getattr(connection, "session_id", None)
    if isinstance(session_id, str) and session_id:
        return session_id
    return cast(object, connection)


def _session_guard(guard: AgentGuard, context: Any) -> AgentGuard:
    """The guard of the client session ``context`` belongs to (its own state)."""
    active = current_run(guard)
    if active is not None:
        return guard.for_run(active)
    client = _client_of(context)
    if client is None:
        return guard.for_run(run_key("mcp", object_key(object())))
    if isinstance(client, str):
        return guard.for_run(run_key("mcp-session", client))

    def forget(key: str) -> None:
        guard.for_run(run_key("mcp", key)).reset()

    return guard.for_run(run_key("mcp", object_key(client, forget)))


def guard_server(server: MCPServer, guard: AgentGuard | None = None) -> MCPServer:
    """Run every tool call of ``server`` through ``guard``, one state per client session.

    Returns the same server. See the module docstring for what the client sees.
    """
    template = guard or AgentGuard()
    call_tool = server.call_tool

    async def guarded_call_tool(
        name: str, arguments: dict[str, Any], context: Any = None
    ) -> Any:
        run = _session_guard(template, context)
        token = _SERVER_GUARDED.set(True)
        try:
            outcome = await run.acall(
                name, arguments, lambda: call_tool(name, arguments, context), passthrough=(MCPError,)
            )
        except GuardTripped as exc:
            run.reset()  # the client was told to stop: its run is over
            return _tripped(exc)
        finally:
            _SERVER_GUARDED.reset(token)
        if outcome.is_error:
            return to_call_tool_result(outcome)
        value = outcome.value
        if outcome.notice and isinstance(value, CallToolResult):
            notice = TextContent(type="text", text=outcome.notice)
            return value.model_copy(update={"content": [*value.content, notice]})
        return value

    server.call_tool = guarded_call_tool  # type: ignore[method-assign]
    return server


def _args(sig: inspect.Signature, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    try:
        bound = sig.bind_partial(*args, **kwargs)
    except TypeError:
        return dict(kwargs)
    return dict(bound.arguments)


def _with_context(fn: Callable[..., Any], wrapper: Callable[..., Any]) -> None:
    """Give ``wrapper`` a keyword-only ``Context`` parameter (hidden from the tool's schema, as
    the SDK does for any Context parameter) so it learns the client session."""
    sig = inspect.signature(fn)
    params = list(sig.parameters.values())
    extra = inspect.Parameter(_CTX, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Context)
    at = next(
        (i for i, p in enumerate(params) if p.kind is inspect.Parameter.VAR_KEYWORD), len(params)
    )
    params.insert(at, extra)
    wrapper.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {**getattr(fn, "__annotations__", {}), _CTX: Context}


def hint_errors(guard: AgentGuard | None = None, *, name: str | None = None) -> Callable[[F], F]:
    """Decorate an MCP tool function (sync or async) so its failures follow the guard's policy.

    Args:
        guard: the template guard; each client session gets its own state under it.
        name: the tool name the guard records (the function's name by default).
    """
    template = guard or AgentGuard()

    def decorate(fn: F) -> F:
        tool = name or fn.__name__
        sig = inspect.signature(fn)
        if inspect.iscoroutinefunction(fn):
            afn = cast(Callable[..., Awaitable[Any]], fn)

            @functools.wraps(fn)
            async def awrapper(*args: Any, **kwargs: Any) -> Any:
                context = kwargs.pop(_CTX, None)
                if _SERVER_GUARDED.get():
                    return await afn(*args, **kwargs)
                run = _session_guard(template, context)
                try:
                    outcome = await run.acall(
                        tool, _args(sig, args, kwargs), lambda: afn(*args, **kwargs)
                    )
                except GuardTripped as exc:
                    run.reset()
                    return _tripped(exc)
                return _result(outcome)

            _with_context(fn, awrapper)
            return cast(F, awrapper)

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            context = kwargs.pop(_CTX, None)
            if _SERVER_GUARDED.get():
                return fn(*args, **kwargs)
            run = _session_guard(template, context)
            try:
                outcome = run.call(tool, _args(sig, args, kwargs), lambda: fn(*args, **kwargs))
            except GuardTripped as exc:
                run.reset()
                return _tripped(exc)
            return _result(outcome)

        _with_context(fn, wrapper)
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
