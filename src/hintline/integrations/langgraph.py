"""LangGraph: put an :class:`~hintline.AgentGuard` on a ``ToolNode``.

Two real hooks of ``langgraph.prebuilt.ToolNode``:

* ``wrap_tool_call=guard_tool_call(guard)`` / ``awrap_tool_call=aguard_tool_call(guard)``: the
  full policy. Each call runs through the guard: retries of transient system faults inside
  the node, loop meta-messages, the consecutive-error stop, arguments that fail validation
  counted and hinted with the field.
* ``handle_tool_errors=hint_tool_errors()``: the hint text only. It sees one exception at a
  time, so it has **no retries, no loop detection, no counting and no escalation**: system
  faults re-raise (to a node ``RetryPolicy`` or the caller, never the model).

:func:`guarded_tool_node` builds a ``ToolNode`` with both wrappers::

    from hintline.integrations.langgraph import guarded_tool_node

    tools = guarded_tool_node([read_file, search])          # or (tools, AgentGuard(policy))

The guard given is a template: each run has its own state, keyed by the config's ``run_id`` if
set, else by the thread (``configurable.thread_id``) and the user message that started the run
(its id, which ``add_messages`` assigns), so a second ``invoke`` on the same graph, or on the
same thread, starts clean, and two threads never share a streak. A graph whose state has no
messages and no ``run_id`` shares one state across runs: pass ``run_id`` in the config or use
``with guard.run():``. Calls of one model turn (one ``AIMessage``) are one turn for the guard.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from hintline.agent import AgentGuard, Outcome
from hintline.agent._runs import current_run, run_key
from hintline.categories import Kind
from hintline.exceptions import GuardTripped, MissingExtraError

try:
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
    from langchain_core.tools import BaseTool
    from langgraph.errors import GraphBubbleUp
    from langgraph.prebuilt import ToolNode
    from langgraph.prebuilt.tool_node import ToolCallRequest
    from langgraph.types import Command
    from pydantic import ValidationError
except ImportError as exc:  # pragma: no cover - exercised without the extra
    raise MissingExtraError("langgraph", "langgraph") from exc

__all__ = [
    "RUN_KEY",
    "ToolErrorResult",
    "aguard_tool_call",
    "guard_tool_call",
    "guarded_tool_node",
    "hint_tool_errors",
]

Result = ToolMessage | Command[Any]
Handler = Callable[[ToolCallRequest], Result]
AsyncHandler = Callable[[ToolCallRequest], Awaitable[Result]]


RUN_KEY = "hintline_run"
"""The state key under which a run hook (LangChain's ``before_agent``) names the guard's run."""


class ToolErrorResult(Exception):
    """An error ``ToolMessage`` the node produced itself (e.g. an unknown tool), re-cleaned."""


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


def _messages(state: Any) -> list[Any]:
    messages = state.get("messages") if isinstance(state, Mapping) else getattr(state, "messages", None)
    if messages is None and isinstance(state, list):
        messages = state
    return list(messages) if isinstance(messages, list) else []


def run_of(request: ToolCallRequest) -> str | None:
    """The key of the run a tool call belongs to (see the module docstring), or ``None``."""
    state = request.state
    named = state.get(RUN_KEY) if isinstance(state, Mapping) else getattr(state, RUN_KEY, None)
    if isinstance(named, str) and named:
        return named
    config = getattr(request.runtime, "config", None)
    config = config if isinstance(config, Mapping) else {}
    run_id = config.get("run_id")
    if run_id:
        return run_key("run", run_id)
    configurable = config.get("configurable")
    thread = configurable.get("thread_id") if isinstance(configurable, Mapping) else None
    human = next(
        (m.id for m in reversed(_messages(state)) if isinstance(m, HumanMessage) and m.id), None
    )
    if thread is None and human is None:
        return None
    return run_key("thread", thread, human)


def turn_of(request: ToolCallRequest) -> str | None:
    """The model turn of a tool call: the id of the ``AIMessage`` that asked for it."""
    call_id = request.tool_call.get("id")
    for message in reversed(_messages(request.state)):
        if isinstance(message, AIMessage) and any(
            c.get("id") == call_id for c in message.tool_calls
        ):
            return message.id or f"turn-of-{call_id}"
    return None


def guard_of(guard: AgentGuard, request: ToolCallRequest) -> AgentGuard:
    """The guard of the run ``request`` belongs to (``guard`` itself when none is known)."""
    key = current_run(guard) or run_of(request)
    return guard if key is None else guard.for_run(key)


def _checked(result: Result, request: ToolCallRequest) -> Result:
    """The tool's result; an error ``ToolMessage`` the node made itself is raised again, as the
    validation error it reports when the arguments do not fit the tool's schema."""
    if isinstance(result, ToolMessage) and result.status == "error":
        schema = getattr(request.tool, "tool_call_schema", None)
        validate = getattr(schema, "model_validate", None)
        if callable(validate):
            try:
                validate(request.tool_call.get("args") or {})
            except ValidationError as invalid:
                raise invalid from None
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
        run = guard_of(guard, request)
        try:
            outcome = run.call(
                name,
                args,
                lambda: _checked(execute(request), request),
                passthrough=(GraphBubbleUp,),
                turn=turn_of(request),
            )
        except GuardTripped:
            run.reset()  # the run ends here; its state must not outlive it
            raise
        return _finish(outcome, name, call_id)

    return wrap


def aguard_tool_call(
    guard: AgentGuard,
) -> Callable[[ToolCallRequest, AsyncHandler], Awaitable[Result]]:
    """The async ``ToolNode(awrap_tool_call=…)`` form of :func:`guard_tool_call`."""

    async def wrap(request: ToolCallRequest, execute: AsyncHandler) -> Result:
        name, args, call_id = _call_parts(request)

        async def run() -> Result:
            return _checked(await execute(request), request)

        scoped = guard_of(guard, request)
        try:
            outcome = await scoped.acall(
                name, args, run, passthrough=(GraphBubbleUp,), turn=turn_of(request)
            )
        except GuardTripped:
            scoped.reset()
            raise
        return _finish(outcome, name, call_id)

    return wrap


def guarded_tool_node(
    tools: Sequence[BaseTool | Callable[..., Any]], guard: AgentGuard | None = None, **kwargs: Any
) -> ToolNode:
    """A ``ToolNode`` whose calls all go through ``guard`` (sync and async), each run with its
    own state.

    Exceptions reach the guard (``handle_tool_errors=False``), arguments that fail validation
    included; what it lets through (system faults it could not fix, guard decisions) propagates
    out of the graph.
    """
    guard = guard or AgentGuard()
    return ToolNode(
        tools,
        handle_tool_errors=False,
        wrap_tool_call=guard_tool_call(guard),
        awrap_tool_call=aguard_tool_call(guard),
        **kwargs,
    )
