"""PydanticAI: :class:`HintlineCapability`, a capability that puts a guard on every tool call.

::

    from pydantic_ai import Agent
    from hintline.integrations.pydantic_ai import HintlineCapability

    agent = Agent(model, tools=[...], capabilities=[HintlineCapability()], retries=3)

It wraps the tool-execution lifecycle (``wrap_tool_execute``) and maps the kinds onto
PydanticAI's own three outcomes:

* recoverable → ``ModelRetry(hint)``: the model sees the hint and may call again (this counts
  against the tool's ``retries`` budget, so set ``retries`` at least to the guard's
  ``max_consecutive_errors``, or the run ends before the guard can escalate);
* policy → ``ToolFailed(text)``: a terminal failure the model sees, with no retry wording;
* system → retried inside the hook with backoff, never shown to the model; when retries are
  spent :class:`~hintline.RetryBudgetExhausted` propagates and ends the run.

A loop meta-message is appended to a string result, or sent as ``ToolReturn.content`` (a
separate user part) for other results. PydanticAI's own control flow (``ModelRetry``,
``ToolFailed``, deferrals, approvals) passes through untouched.

Arguments that fail validation (``on_tool_validate_error``) are counted like any failure and
answered with the hint naming the field. Each run has its own state: ``for_run`` gives every
run a capability keyed by ``RunContext.run_id`` (so durable workers derive the same key), and
the run's state is forgotten when it ends (``wrap_run``). Calls of one model response are one
turn (``RunContext.run_step``).

Not covered: PydanticAI's own per-tool ``retries`` budget still applies (a tool that exceeds it
ends the run with ``UnexpectedModelBehavior`` first), and model-request failures.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import uuid
from typing import Any

from hintline.agent import AgentGuard
from hintline.agent._runs import current_run, run_key
from hintline.categories import Kind
from hintline.exceptions import MissingExtraError

try:
    from pydantic_ai import RunContext
    from pydantic_ai.capabilities import AbstractCapability
    from pydantic_ai.capabilities.abstract import (
        RawToolArgs,
        ValidatedToolArgs,
        WrapRunHandler,
        WrapToolExecuteHandler,
    )
    from pydantic_ai.exceptions import (
        ApprovalRequired,
        CallDeferred,
        ModelRetry,
        SkipToolExecution,
        ToolFailed,
        ToolFailedError,
        ToolRetryError,
    )
    from pydantic_ai.messages import ToolCallPart, ToolReturn
    from pydantic_ai.run import AgentRunResult
    from pydantic_ai.tools import ToolDefinition
    from pydantic_core import ValidationError
except ImportError as exc:  # pragma: no cover - exercised without the extra
    raise MissingExtraError("pydantic-ai", "pydantic-ai-slim") from exc

__all__ = ["HintlineCapability"]

_CONTROL_FLOW: tuple[type[BaseException], ...] = (
    ModelRetry,
    ToolFailed,
    ToolRetryError,
    ToolFailedError,
    CallDeferred,
    ApprovalRequired,
    SkipToolExecution,
)


class HintlineCapability(AbstractCapability[Any]):  # type: ignore[misc]
    """Runs each tool call of a PydanticAI agent through an :class:`~hintline.AgentGuard`.

    Args:
        guard: the template guard (policy, store, clock); each run gets its own state under
            it. A default guard when omitted.
    """

    def __init__(
        self, guard: AgentGuard | None = None, *, _run: AgentGuard | None = None, _owned: bool = False
    ) -> None:
        self.guard = guard or AgentGuard()
        self._run = _run
        self._owned = _owned

    async def for_run(self, ctx: RunContext[Any]) -> HintlineCapability:
        """A capability for this run only, its state keyed by the run's id (or the run of an
        enclosing ``with guard.run():``, which then owns the state)."""
        active = current_run(self.guard)
        if active is not None:
            return HintlineCapability(self.guard, _run=self.guard.for_run(active))
        key = run_key("pydantic-ai", ctx.run_id or uuid.uuid4().hex)
        return HintlineCapability(self.guard, _run=self.guard.for_run(key), _owned=True)

    def _scoped(self, ctx: RunContext[Any]) -> AgentGuard:
        if self._run is not None:
            return self._run
        return self.guard.for_run(run_key("pydantic-ai", ctx.run_id)) if ctx.run_id else self.guard

    async def wrap_run(self, ctx: RunContext[Any], *, handler: WrapRunHandler) -> AgentRunResult[Any]:
        """Run, then forget the run's state however it ended."""
        try:
            return await handler()
        finally:
            if self._run is not None and self._owned:
                self._run.reset()

    async def on_tool_validate_error(
        self,
        ctx: RunContext[Any],
        *,
        call: ToolCallPart,
        tool_def: ToolDefinition,
        args: RawToolArgs,
        error: ValidationError | ModelRetry,
    ) -> ValidatedToolArgs:
        """Arguments that failed validation: counted, loop-checked, answered with the hint."""
        reason: BaseException | str = error if isinstance(error, ValidationError) else error.message
        outcome = self._scoped(ctx).rejected(
            call.tool_name, args, reason, turn=str(ctx.run_step)
        )
        raise ModelRetry(outcome.text()) from error

    async def wrap_tool_execute(
        self,
        ctx: RunContext[Any],
        *,
        call: ToolCallPart,
        tool_def: ToolDefinition,
        args: ValidatedToolArgs,
        handler: WrapToolExecuteHandler,
    ) -> Any:
        """Run the tool under the guard and map its outcome onto PydanticAI's outcomes."""

        async def run() -> Any:
            return await handler(args)

        outcome = await self._scoped(ctx).acall(
            call.tool_name, args, run, passthrough=_CONTROL_FLOW, turn=str(ctx.run_step)
        )
        if outcome.failure is not None:
            if outcome.failure.kind is Kind.POLICY:
                raise ToolFailed(outcome.text())
            raise ModelRetry(outcome.text())
        value = outcome.value
        if outcome.notice is None:
            return value
        if isinstance(value, str):
            return f"{value}\n\n{outcome.notice}"
        if isinstance(value, ToolReturn):
            return value
        return ToolReturn(return_value=value, content=outcome.notice)
