"""OpenAI Agents SDK: guarded function tools through ``failure_error_function``.

::

    from agents import Agent
    from hintline import AgentGuard
    from hintline.integrations.openai_agents import guarded_tool

    guard = AgentGuard()
    agent = Agent(name="files", tools=[guarded_tool(guard, read_file)])

:func:`guarded_tool` is ``function_tool`` with two changes. The function runs under the guard,
so transient system faults are retried *inside* the tool and never reach the model; and its
``failure_error_function`` turns recoverable and policy failures into the hint text. The
Responses API has no error flag, so that text starts with
:data:`~hintline.agent.formats.ERROR_PREFIX`. System faults that outlive their retries and the
guard's stop decisions (:class:`~hintline.GuardTripped`) are re-raised (the function returns
``None``), so ``Runner.run`` ends with them instead of sending them to the model. The SDK wraps
them in its ``UserError``; run inside :func:`raise_guard_decisions` to get hintline's own
exception (with its ``summary``) back::

    with raise_guard_decisions():
        result = await Runner.run(agent, "…")

For tools you build yourself, :func:`failure_error_function` is the hook alone:
``function_tool(fn, failure_error_function=failure_error_function())``. It is stateless (it
sees failures but not successes, so it cannot count a streak or a loop) and cannot retry (the
SDK has already given up on the call): it gives the hint, and re-raises system faults.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any, cast

from hintline.agent import AgentGuard, Outcome
from hintline.agent.formats import ERROR_PREFIX
from hintline.categories import Kind
from hintline.exceptions import GuardTripped, MissingExtraError

try:
    from agents import FunctionTool, RunContextWrapper, UserError, function_tool
    from agents.tool_context import ToolContext
except ImportError as exc:  # pragma: no cover - exercised without the extra
    raise MissingExtraError("openai-agents", "openai-agents") from exc

__all__ = [
    "GuardedToolFailure",
    "failure_error_function",
    "guarded_tool",
    "raise_guard_decisions",
]


class GuardedToolFailure(Exception):
    """Raised by a guarded tool to hand its recoverable or policy failure to the SDK."""

    def __init__(self, outcome: Outcome[Any]) -> None:
        super().__init__(outcome.text())
        self.outcome = outcome


def failure_error_function(
    guard: AgentGuard | None = None,
) -> Callable[[RunContextWrapper[Any], Exception], str | None]:
    """A stateless ``failure_error_function``: the hint for recoverable and policy failures,
    ``None`` (the SDK re-raises) for system faults and guard decisions."""
    return _on_failure(guard or AgentGuard(), record=False)


def _on_failure(
    guard: AgentGuard, *, record: bool
) -> Callable[[RunContextWrapper[Any], Exception], str | None]:
    def on_failure(ctx: RunContextWrapper[Any], error: Exception) -> str | None:
        if isinstance(error, GuardedToolFailure):
            return ERROR_PREFIX + error.outcome.text()
        if isinstance(error, GuardTripped):
            return None
        if record and isinstance(ctx, ToolContext):
            # failed before the guarded function ran (e.g. arguments that are not valid JSON)
            guard.begin(ctx.tool_name, ctx.tool_arguments)
            failure = guard.fail(ctx.tool_name, ctx.tool_arguments, error)
        else:
            failure = guard.describe(error)
        if failure.kind is Kind.SYSTEM:
            return None
        return ERROR_PREFIX + failure.content

    return on_failure


def _call_args(sig: inspect.Signature, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    try:
        bound = sig.bind_partial(*args, **kwargs)
    except TypeError:
        return dict(kwargs)
    return {
        k: v for k, v in bound.arguments.items() if not isinstance(v, RunContextWrapper)
    }


def _value(outcome: Outcome[Any]) -> Any:
    if outcome.failure is not None:
        raise GuardedToolFailure(outcome)
    if outcome.notice and isinstance(outcome.value, str):
        return outcome.text()
    return outcome.value


def guarded_tool(
    guard: AgentGuard, fn: Callable[..., Any], **kwargs: Any
) -> FunctionTool:
    """``function_tool(fn, **kwargs)`` whose calls run under ``guard`` (sync or async ``fn``).

    Args:
        guard: the guard of this run (the caller owns it).
        fn: the tool function (it may take a ``RunContextWrapper`` first, as usual).
        **kwargs: passed to ``function_tool`` (``name_override``, ``strict_mode``, …);
            ``failure_error_function`` is set by this function.
    """
    name = kwargs.get("name_override") or fn.__name__
    sig = inspect.signature(fn)
    if inspect.iscoroutinefunction(fn):
        afn = cast(Callable[..., Awaitable[Any]], fn)

        @functools.wraps(fn)
        async def awrapper(*args: Any, **kw: Any) -> Any:
            outcome = await guard.acall(name, _call_args(sig, args, kw), lambda: afn(*args, **kw))
            return _value(outcome)

        wrapped: Callable[..., Any] = awrapper
    else:

        @functools.wraps(fn)
        def wrapper(*args: Any, **kw: Any) -> Any:
            outcome = guard.call(name, _call_args(sig, args, kw), lambda: fn(*args, **kw))
            return _value(outcome)

        wrapped = wrapper
    kwargs["failure_error_function"] = _on_failure(guard, record=True)
    tool = function_tool(wrapped, **kwargs)
    assert isinstance(tool, FunctionTool)
    return tool


@contextmanager
def raise_guard_decisions() -> Iterator[None]:
    """Re-raise a :class:`~hintline.GuardTripped` that the SDK wrapped in its ``UserError``."""
    try:
        yield
    except UserError as exc:
        cause = exc.__cause__
        if isinstance(cause, GuardTripped):
            raise cause from exc
        raise
