"""Anthropic: guarded tools for the SDK's tool runner (``client.beta.messages.tool_runner``).

::

    import anthropic
    from hintline import AgentGuard
    from hintline.integrations.anthropic import guarded_beta_tool, raise_guard_decisions

    guard = AgentGuard()
    runner = client.beta.messages.tool_runner(
        model=..., max_tokens=1024, messages=[...], tools=[guarded_beta_tool(guard, read_file)]
    )
    with raise_guard_decisions():
        final = runner.until_done()

The runner turns any exception a tool raises into a ``tool_result`` with ``is_error`` and
``repr(exc)`` as content; a ``ToolError`` sets the content instead. So a guarded tool:

* raises ``ToolError(hint)`` for recoverable and policy failures (the model sees the hint,
  ``is_error: true``);
* retries transient system faults inside the tool; they never reach the model;
* cannot stop the run with an ``Exception`` (the runner would hand it to the model), so a
  system fault that outlives its retries, or a guard decision, travels as :class:`GuardStop`
  (a ``BaseException``) out of the runner; :func:`raise_guard_decisions` turns it back into the
  :class:`~hintline.GuardTripped` it carries.

For a raw Messages loop, :func:`hintline.agent.formats.anthropic_tool_result` builds the block.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any, cast

from hintline.agent import AgentGuard, Outcome
from hintline.exceptions import GuardTripped, MissingExtraError

try:
    from anthropic.lib.tools import (
        BetaAsyncFunctionTool,
        BetaFunctionTool,
        ToolError,
        beta_async_tool,
        beta_tool,
    )
except ImportError as exc:  # pragma: no cover - exercised without the extra
    raise MissingExtraError("anthropic", "anthropic") from exc

__all__ = ["GuardStop", "guarded_beta_tool", "raise_guard_decisions"]


class GuardStop(BaseException):
    """Carries a :class:`~hintline.GuardTripped` out of the tool runner, which would otherwise
    send any ``Exception`` to the model. Unwrap it with :func:`raise_guard_decisions`."""

    def __init__(self, tripped: GuardTripped) -> None:
        super().__init__(str(tripped))
        self.tripped = tripped


@contextmanager
def raise_guard_decisions() -> Iterator[None]:
    """Turn a :class:`GuardStop` leaving the block into the :class:`~hintline.GuardTripped`."""
    try:
        yield
    except GuardStop as stop:
        raise stop.tripped from None


def _value(outcome: Outcome[Any]) -> Any:
    if outcome.failure is not None:
        raise ToolError(outcome.text())
    if outcome.notice and isinstance(outcome.value, str):
        return outcome.text()
    return outcome.value


def _bound(sig: inspect.Signature, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    try:
        return dict(sig.bind_partial(*args, **kwargs).arguments)
    except TypeError:
        return dict(kwargs)


def guarded_beta_tool(
    guard: AgentGuard, fn: Callable[..., Any], **kwargs: Any
) -> BetaFunctionTool[Any] | BetaAsyncFunctionTool[Any]:
    """``beta_tool(fn)`` (or ``beta_async_tool`` for a coroutine function) under ``guard``.

    Args:
        guard: the guard of this run (the caller owns it).
        fn: the tool function.
        **kwargs: passed to ``beta_tool`` / ``beta_async_tool`` (``name``, ``description``, …).
    """
    name = kwargs.get("name") or fn.__name__
    sig = inspect.signature(fn)
    if inspect.iscoroutinefunction(fn):
        afn = cast(Callable[..., Awaitable[Any]], fn)

        @functools.wraps(fn)
        async def awrapper(*args: Any, **kw: Any) -> Any:
            try:
                outcome = await guard.acall(name, _bound(sig, args, kw), lambda: afn(*args, **kw))
            except GuardTripped as tripped:
                raise GuardStop(tripped) from tripped
            return _value(outcome)

        return beta_async_tool(awrapper, **kwargs)

    @functools.wraps(fn)
    def wrapper(*args: Any, **kw: Any) -> Any:
        try:
            outcome = guard.call(name, _bound(sig, args, kw), lambda: fn(*args, **kw))
        except GuardTripped as tripped:
            raise GuardStop(tripped) from tripped
        return _value(outcome)

    return beta_tool(wrapper, **kwargs)
