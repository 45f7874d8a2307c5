"""Anthropic: guarded tools for the SDK's tool runner (``client.beta.messages.tool_runner``).

::

    from hintline.integrations.anthropic import tool_runner

    runner = tool_runner(client, model=..., max_tokens=1024, messages=[...], tools=[read_file])
    final = runner.until_done()        # or: for message in runner: ...

:func:`tool_runner` is ``client.beta.messages.tool_runner`` (sync or async client) with every
tool guarded for *this run*: its own state, forgotten when the run ends, so a second run starts
clean. The runner turns any exception a tool raises into a ``tool_result`` with ``is_error`` and
``repr(exc)`` as content; a ``ToolError`` sets the content instead. So a guarded tool:

* raises ``ToolError(hint)`` for recoverable and policy failures (the model sees the hint,
  ``is_error: true``), arguments that fail validation included (with the field, instead of
  ``ValueError('Invalid arguments for function …')``);
* retries transient system faults inside the tool; they never reach the model;
* stops the run on a guard decision: the runner would hand any ``Exception`` to the model, so
  the decision travels as :class:`GuardStop` (a ``BaseException``) out of the SDK's loop, and
  the runner returned here re-raises the :class:`~hintline.GuardTripped` it carries.

:func:`guarded_beta_tool` is the per-tool form for a runner you build yourself; then run inside
``with guard.run():`` (a run of its own, decisions re-raised as themselves) or
:func:`raise_guard_decisions`. Without either, the tools share the guard's state across runs.

The calls of one reply are one turn (three failures in one reply give the model three hints
before the streak can stop the run); with :func:`guarded_beta_tool` on a runner of your own the
guard cannot tell replies apart, and every call counts alone.

Not covered: model-request failures (the client's ``max_retries``). For a raw Messages loop,
:func:`hintline.agent.formats.anthropic_tool_result` builds the block.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import functools
import inspect
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, cast

from hintline.agent import AgentGuard, Outcome
from hintline.agent._runs import current_run, run_key
from hintline.exceptions import GuardTripped, MissingExtraError

try:
    import pydantic
    from anthropic.lib.tools import (
        BetaAsyncFunctionTool,
        BetaFunctionTool,
        ToolError,
        beta_async_tool,
        beta_tool,
    )
except ImportError as exc:  # pragma: no cover - exercised without the extra
    raise MissingExtraError("anthropic", "anthropic") from exc

__all__ = ["GuardStop", "guarded_beta_tool", "raise_guard_decisions", "tool_runner"]


class GuardStop(BaseException):
    """Carries a :class:`~hintline.GuardTripped` out of the tool runner, which would otherwise
    send any ``Exception`` to the model. :func:`tool_runner`, ``guard.run()`` and
    :func:`raise_guard_decisions` turn it back into the decision."""

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


def _rejected(
    guard: AgentGuard, name: str, given: object, error: ValueError, turn: str | None
) -> ToolError:
    """Arguments the SDK's validation refused: counted, and the hint naming the field."""
    cause = error.__cause__ if isinstance(error.__cause__, pydantic.ValidationError) else error
    args = given if isinstance(given, dict) else None
    try:
        outcome = guard.rejected(name, args, cause, turn=turn)
    except GuardTripped as tripped:
        raise GuardStop(tripped) from tripped
    return ToolError(outcome.text())


def guarded_beta_tool(
    guard_or_fn: AgentGuard | Callable[..., Any] | None = None,
    fn: Callable[..., Any] | AgentGuard | None = None,
    **kwargs: Any,
) -> BetaFunctionTool[Any] | BetaAsyncFunctionTool[Any]:
    """``beta_tool(fn)`` (or ``beta_async_tool`` for a coroutine function) under the guard.

    ``guarded_beta_tool(fn)``, ``guarded_beta_tool(fn, guard)`` and (as before)
    ``guarded_beta_tool(guard, fn)`` all work.

    Args:
        guard_or_fn, fn: the tool function and the guard (the run in progress, see
            ``guard.run()``, else the guard itself).
        **kwargs: passed to ``beta_tool`` / ``beta_async_tool`` (``name``, ``description``, …).
    """
    guard = guard_or_fn if isinstance(guard_or_fn, AgentGuard) else fn
    func = fn if isinstance(guard_or_fn, AgentGuard) else guard_or_fn
    if not callable(func) or isinstance(func, AgentGuard):
        raise TypeError("guarded_beta_tool needs the tool function")
    template = guard if isinstance(guard, AgentGuard) else AgentGuard()
    return _guarded(template.current, func, **kwargs)


def _no_turn() -> str | None:
    return None


def _guarded(
    resolve: Callable[[], AgentGuard],
    fn: Callable[..., Any],
    turn: Callable[[], str | None] = _no_turn,
    **kwargs: Any,
) -> BetaFunctionTool[Any] | BetaAsyncFunctionTool[Any]:
    name = kwargs.get("name") or fn.__name__
    sig = inspect.signature(fn)
    if inspect.iscoroutinefunction(fn):
        afn = cast(Callable[..., Awaitable[Any]], fn)

        @functools.wraps(fn)
        async def awrapper(*args: Any, **kw: Any) -> Any:
            try:
                outcome = await resolve().acall(
                    name, _bound(sig, args, kw), lambda: afn(*args, **kw), turn=turn()
                )
            except GuardTripped as tripped:
                raise GuardStop(tripped) from tripped
            return _value(outcome)

        atool = beta_async_tool(awrapper, **kwargs)
        acall = atool.call

        async def checked_acall(input: object) -> Any:
            try:
                return await acall(input)
            except ValueError as error:
                if isinstance(error.__cause__, pydantic.ValidationError):
                    raise _rejected(resolve(), name, input, error, turn()) from None
                raise

        atool.call = checked_acall  # type: ignore[method-assign]
        return atool

    @functools.wraps(fn)
    def wrapper(*args: Any, **kw: Any) -> Any:
        try:
            outcome = resolve().call(
                name, _bound(sig, args, kw), lambda: fn(*args, **kw), turn=turn()
            )
        except GuardTripped as tripped:
            raise GuardStop(tripped) from tripped
        return _value(outcome)

    tool = beta_tool(wrapper, **kwargs)
    call = tool.call

    def checked_call(input: object) -> Any:
        try:
            return call(input)
        except ValueError as error:
            if isinstance(error.__cause__, pydantic.ValidationError):
                raise _rejected(resolve(), name, input, error, turn()) from None
            raise

    tool.call = checked_call  # type: ignore[method-assign]
    return tool


class GuardedRunner:
    """A tool runner whose run has its own guard state; re-raises guard decisions as themselves
    and forgets the run's state when it ends. Everything else is the SDK runner's.

    It drives the SDK runner through its iterator, so it knows which reply the tools being run
    answer: the calls of one reply are one turn for the guard.
    """

    def __init__(self, runner: Any, guard: AgentGuard, *, owned: bool = True) -> None:
        self._runner = runner
        self.guard = guard
        self._owned = owned
        self.turn: str | None = None
        self._replies = 0

    def _next_turn(self) -> None:
        self._replies += 1
        self.turn = f"reply-{self._replies}"

    def _end(self) -> None:
        if self._owned:
            self.guard.reset()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._runner, name)

    def until_done(self) -> Any:
        """Run to the end (``runner.until_done()``)."""
        try:
            for _reply in self._runner:
                self._next_turn()
            return self._runner.until_done()
        except GuardStop as stop:
            raise stop.tripped from None
        finally:
            self._end()

    def __iter__(self) -> Iterator[Any]:
        try:
            for reply in self._runner:
                self._next_turn()
                yield reply
        except GuardStop as stop:
            raise stop.tripped from None
        finally:
            self._end()


class AsyncGuardedRunner(GuardedRunner):
    """The async form of :class:`GuardedRunner`."""

    async def until_done(self) -> Any:  # type: ignore[override]
        """Run to the end (``await runner.until_done()``)."""
        try:
            async for _reply in self._runner:
                self._next_turn()
            return await self._runner.until_done()
        except GuardStop as stop:
            raise stop.tripped from None
        finally:
            self._end()

    def __iter__(self) -> Iterator[Any]:
        raise TypeError("iterate an async runner with 'async for'")

    async def __aiter__(self) -> AsyncIterator[Any]:
        try:
            async for message in self._runner:
                self._next_turn()
                yield message
        except GuardStop as stop:
            raise stop.tripped from None
        finally:
            self._end()


def tool_runner(
    client: Any,
    *,
    tools: Sequence[Callable[..., Any]],
    guard: AgentGuard | None = None,
    **params: Any,
) -> GuardedRunner:
    """``client.beta.messages.tool_runner(tools=…, **params)`` with each tool guarded for this
    run (sync ``Anthropic`` or ``AsyncAnthropic`` client; async clients need async tools).

    Args:
        client: the Anthropic client.
        tools: the plain tool functions.
        guard: the template guard (policy, store, clock); the run gets its own state under it.
        **params: the runner's parameters (``model``, ``max_tokens``, ``messages``, …).
    """
    template = guard or AgentGuard()
    active = current_run(template)
    run = template.for_run(active or run_key("anthropic", uuid.uuid4().hex))
    holder: list[GuardedRunner] = []

    def turn() -> str | None:
        return holder[0].turn if holder else None

    guarded = [_guarded(lambda: run, fn, turn) for fn in tools]
    runner = client.beta.messages.tool_runner(tools=guarded, **params)
    owned = active is None  # inside ``with guard.run():`` the block owns the state
    kind = GuardedRunner
    if inspect.iscoroutinefunction(getattr(runner, "until_done", None)):
        kind = AsyncGuardedRunner
    holder.append(kind(runner, run, owned=owned))
    return holder[0]
