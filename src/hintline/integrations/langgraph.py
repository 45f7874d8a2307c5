"""LangGraph: put an :class:`~hintline.AgentGuard` on a ``ToolNode``.

Two real hooks of ``langgraph.prebuilt.ToolNode``:

* ``handle_tool_errors=hint_tool_errors()``: stateless. Recoverable and policy failures
  become the hint text (an error ``ToolMessage``); system faults and guard decisions re-raise
  (so a node ``RetryPolicy`` or the caller handles them, never the model).
* ``wrap_tool_call=guard_tool_call(guard)`` / ``awrap_tool_call=aguard_tool_call(guard)``: the
  full policy. Each call runs through the guard: retries of transient system faults inside
  the node, loop meta-messages, the consecutive-error stop.

:func:`guarded_tool_node` builds a ``ToolNode`` with both wrappers::

    from hintline import AgentGuard
    from hintline.integrations.langgraph import guarded_tool_node

    tools = guarded_tool_node([read_file, search], AgentGuard())

.. versionadded:: 0.1.0
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from hintline.agent import AgentGuard, Outcome
from hintline.categories import Kind
from hintline.exceptions import GuardTripped, MissingExtraError

try:
    from langchain_core.messages import ToolMessage
    from langchain_core.tools import BaseTool
    from langgraph.errors import GraphBubbleUp
    from langgraph.prebuilt import ToolNode
    from langgraph.prebuilt.tool_node import ToolCallRequest
    from langgraph.types import Command
except ImportError as exc:  # pragma: no cover - exercised without the extra
    raise MissingExtraError("langgraph", "langgraph") from exc

__all__ = [
    "ToolErrorResult",
    "aguard_tool_call",
    "guard_tool_call",
    "guarded_tool_node",
    "hint_tool_errors",
]

Result = ToolMessage | Command[Any]
Handler = Callable[[ToolCallRequest], Result]
AsyncHandler = Callable[[ToolCallRequest], Awaitable[Result]]


class ToolErrorResult(Exception):
    """An error ``ToolMessage`` the node produced itself (e.g. invalid arguments), re-cleaned."""


def hint_tool_errors(guard: AgentGuard | None = None) -> Callable[[Exception], str]:
    """A ``ToolNode(handle_tool_errors=…)`` handler: the hint for the model, or re-raise.

    It sees only the exception, so it cannot count errors or detect loops: use
    :func:`guard_tool_call` for that.
    """
    describer = guard or AgentGuard()

    def handle(e: Exception) -> str:
        if isinstance(e, GuardTripped):
            raise e
        failure = describer.describe(e)
        if failure.kind is Kind.SYSTEM:
            raise e
        return failure.content

    return handle


def _call_parts(request: ToolCallRequest) -> tuple[str, dict[str, Any], str]:
    call = request.tool_call
    return str(call["name"]), dict(call.get("args") or {}), str(call.get("id") or "")


def _checked(result: Result) -> Result:
    if isinstance(result, ToolMessage) and result.status == "error":
        raise ToolErrorResult(str(result.content))
    return result


def _finish(outcome: Outcome[Result], name: str, call_id: str) -> Result:
    if outcome.failure is not None or outcome.value is None:
        return ToolMessage(
            content=outcome.text(), name=name, tool_call_id=call_id, status="error"
        )
    result = outcome.value
    if outcome.notice and isinstance(result, ToolMessage) and isinstance(result.content, str):
        return result.model_copy(update={"content": f"{result.content}\n\n{outcome.notice}"})
    if outcome.notice and isinstance(result, ToolMessage) and isinstance(result.content, list):
        notice = {"type": "text", "text": outcome.notice}
        return result.model_copy(update={"content": [*result.content, notice]})
    return result


def guard_tool_call(guard: AgentGuard) -> Callable[[ToolCallRequest, Handler], Result]:
    """A ``ToolNode(wrap_tool_call=…)`` wrapper that runs every tool call through ``guard``."""

    def wrap(request: ToolCallRequest, execute: Handler) -> Result:
        name, args, call_id = _call_parts(request)
        outcome = guard.call(
            name, args, lambda: _checked(execute(request)), passthrough=(GraphBubbleUp,)
        )
        return _finish(outcome, name, call_id)

    return wrap


def aguard_tool_call(
    guard: AgentGuard,
) -> Callable[[ToolCallRequest, AsyncHandler], Awaitable[Result]]:
    """The async ``ToolNode(awrap_tool_call=…)`` form of :func:`guard_tool_call`."""

    async def wrap(request: ToolCallRequest, execute: AsyncHandler) -> Result:
        name, args, call_id = _call_parts(request)

        async def run() -> Result:
            return _checked(await execute(request))

        outcome = await guard.acall(name, args, run, passthrough=(GraphBubbleUp,))
        return _finish(outcome, name, call_id)

    return wrap


def guarded_tool_node(
    tools: Sequence[BaseTool | Callable[..., Any]], guard: AgentGuard, **kwargs: Any
) -> ToolNode:
    """A ``ToolNode`` whose calls all go through ``guard`` (sync and async).

    Exceptions reach the guard (``handle_tool_errors=False``); what it lets through (system
    faults it could not fix, guard decisions) propagates out of the graph.
    """
    return ToolNode(
        tools,
        handle_tool_errors=False,
        wrap_tool_call=guard_tool_call(guard),
        awrap_tool_call=aguard_tool_call(guard),
        **kwargs,
    )
