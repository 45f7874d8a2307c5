"""OpenAI Agents SDK: guarded function tools.

::

    from agents import Agent
    from hintline.integrations.openai_agents import guarded_tool

    agent = Agent(name="files", tools=[guarded_tool(read_file)])   # or guarded_tool(fn, guard)

:func:`guarded_tool` is ``function_tool`` with the whole call under the guard:

* arguments are checked against the tool's schema first: JSON that does not parse, or a field
  that is missing or of the wrong type, is counted and answered with the hint naming the field
  (the SDK itself says only "Invalid JSON input for tool …");
* transient system faults are retried *inside* the tool and never reach the model;
* recoverable and policy failures become the hint text. The Responses API has no error flag, so
  that text starts with :data:`~hintline.agent.formats.ERROR_PREFIX`;
* a guard decision (a system fault that outlives its retries, the consecutive-error stop, a
  loop past its warnings) ends ``Runner.run`` with hintline's own exception, its ``summary``
  attached. It is raised as a subclass that the SDK also recognises as its own
  (``AgentsException``), so it is not wrapped in ``UserError``: ``except
  TooManyConsecutiveErrors`` works around ``Runner.run`` directly.

Each ``Runner.run`` has its own state: the run is identified by its context (the ``Usage`` every
tool call of a run shares), or by ``with guard.run():`` around the run. Calls made from one model
response are one turn.

For tools you build yourself, :func:`failure_error_function` is the hook alone:
``function_tool(fn, failure_error_function=failure_error_function())``. It is stateless (it
sees failures but not successes, so it cannot count a streak or a loop) and cannot retry (the
SDK has already given up on the call): it gives the hint, and re-raises system faults.

Not covered: hosted tools, MCP tools the SDK calls for you, and model-request failures (the
SDK's ``ModelSettings.retry``).

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from hintline.agent import AgentGuard, Outcome
from hintline.agent._runs import current_run, object_key, run_key
from hintline.agent.formats import ERROR_PREFIX
from hintline.categories import Kind
from hintline.exceptions import GuardTripped, MissingExtraError

try:
    from agents import FunctionTool, RunContextWrapper, UserError, function_tool
    from agents.exceptions import AgentsException
    from agents.function_schema import function_schema
    from agents.tool_context import ToolContext
    from pydantic import ValidationError
except ImportError as exc:  # pragma: no cover - exercised without the extra
    raise MissingExtraError("openai-agents", "openai-agents") from exc

__all__ = [
    "GuardedToolFailure",
    "failure_error_function",
    "guarded_tool",
    "raise_guard_decisions",
]


class GuardedToolFailure(Exception):
    """A guarded tool's recoverable or policy failure (kept for code that caught it)."""

    def __init__(self, outcome: Outcome[Any]) -> None:
        super().__init__(outcome.text())
        self.outcome = outcome


def failure_error_function(
    guard: AgentGuard | None = None,
) -> Callable[[RunContextWrapper[Any], Exception], str | None]:
    """A stateless ``failure_error_function``: the hint for recoverable and policy failures,
    ``None`` (the SDK re-raises) for system faults and guard decisions."""
    describer = guard or AgentGuard()

    def on_failure(ctx: RunContextWrapper[Any], error: Exception) -> str | None:
        if isinstance(error, GuardedToolFailure):
            return ERROR_PREFIX + error.outcome.text()
        if isinstance(error, GuardTripped):
            return None
        failure = describer.describe(error)
        if failure.kind is Kind.SYSTEM:
            return None
        return ERROR_PREFIX + failure.content

    return on_failure


_THROUGH: dict[type[GuardTripped], type[GuardTripped]] = {}


def _through_sdk(exc: GuardTripped) -> GuardTripped:
    """The same decision as an exception the SDK passes through untouched (an
    ``AgentsException``) and callers still catch as hintline's own."""
    if isinstance(exc, AgentsException):
        return exc
    kind = type(exc)
    combined = _THROUGH.get(kind)
    if combined is None:
        combined = type(kind.__name__, (kind, AgentsException), {"__module__": kind.__module__})
        _THROUGH[kind] = combined
    return combined(str(exc), summary=exc.summary)


def _run_guard(guard: AgentGuard, ctx: ToolContext[Any]) -> AgentGuard:
    active = current_run(guard)
    if active is not None:
        return guard.for_run(active)

    def forget(key: str) -> None:
        guard.for_run(run_key("openai-agents", key)).reset()

    # every ToolContext of a run shares the run's Usage object (and nothing else of a run is
    # reachable from a tool): its identity is the run's
    return guard.for_run(run_key("openai-agents", object_key(ctx.usage, forget)))


def _turn(ctx: ToolContext[Any]) -> str | None:
    requests = getattr(ctx.usage, "requests", None)
    # a real model reports one request per response; a model that reports none leaves it unknown
    return f"request-{requests}" if isinstance(requests, int) and requests > 0 else None


def _parsed(text: str) -> tuple[Any, BaseException | None]:
    try:
        return (json.loads(text) if text.strip() else {}), None
    except ValueError as exc:
        return text, exc


def guarded_tool(
    guard_or_fn: AgentGuard | Callable[..., Any] | None = None,
    fn: Callable[..., Any] | AgentGuard | None = None,
    **kwargs: Any,
) -> FunctionTool:
    """``function_tool(fn, **kwargs)`` whose calls run under the guard (sync or async ``fn``).

    ``guarded_tool(fn)``, ``guarded_tool(fn, guard)`` and (as before) ``guarded_tool(guard, fn)``
    all work.

    Args:
        guard_or_fn, fn: the tool function (it may take a ``RunContextWrapper`` first, as
            usual) and the template guard (each run gets its own state under it).
        **kwargs: passed to ``function_tool`` (``name_override``, ``strict_mode``, …).
    """
    guard = guard_or_fn if isinstance(guard_or_fn, AgentGuard) else fn
    func = fn if isinstance(guard_or_fn, AgentGuard) else guard_or_fn
    if not callable(func) or isinstance(func, AgentGuard):
        raise TypeError("guarded_tool needs the tool function")
    template = guard if isinstance(guard, AgentGuard) else AgentGuard()
    kwargs.setdefault("failure_error_function", None)  # failures come to the guard
    tool = function_tool(func, **kwargs)
    assert isinstance(tool, FunctionTool)
    model = function_schema(func, name_override=kwargs.get("name_override")).params_pydantic_model
    invoke = tool.on_invoke_tool

    async def guarded_invoke(ctx: ToolContext[Any], input: str) -> Any:
        run = _run_guard(template, ctx)
        name, turn = tool.name, _turn(ctx)
        args, bad_json = _parsed(input)
        try:
            if bad_json is not None:
                return ERROR_PREFIX + run.rejected(name, input, bad_json, turn=turn).text()
            try:
                model(**args) if isinstance(args, dict) else model()
            except ValidationError as invalid:
                return ERROR_PREFIX + run.rejected(name, args, invalid, turn=turn).text()
            except TypeError as invalid:
                return ERROR_PREFIX + run.rejected(name, args, invalid, turn=turn).text()
            outcome = await run.acall(name, args, lambda: invoke(ctx, input), turn=turn)
        except GuardTripped as tripped:
            run.reset()
            raise _through_sdk(tripped) from None
        if outcome.failure is not None:
            return ERROR_PREFIX + outcome.text()
        if outcome.notice and isinstance(outcome.value, str):
            return outcome.text()
        return outcome.value

    tool.on_invoke_tool = guarded_invoke
    return tool


@contextmanager
def raise_guard_decisions() -> Iterator[None]:
    """Re-raise a :class:`~hintline.GuardTripped` that the SDK wrapped in its ``UserError``.

    No longer needed for :func:`guarded_tool` (its decisions pass through the SDK as they are);
    kept for tools built with the stateless :func:`failure_error_function`.
    """
    try:
        yield
    except UserError as exc:
        cause = exc.__cause__
        if isinstance(cause, GuardTripped):
            raise cause from exc
        raise
