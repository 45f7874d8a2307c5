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

.. versionadded:: 0.1.0
"""

from __future__ import annotations

from typing import Any

from hintline.agent import AgentGuard
from hintline.categories import Kind
from hintline.exceptions import MissingExtraError

try:
    from pydantic_ai import RunContext
    from pydantic_ai.capabilities import AbstractCapability
    from pydantic_ai.capabilities.abstract import ValidatedToolArgs, WrapToolExecuteHandler
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
    from pydantic_ai.tools import ToolDefinition
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
        guard: the guard (one per run; the caller owns it). A fresh one by default.
    """

    def __init__(self, guard: AgentGuard | None = None) -> None:
        self.guard = guard or AgentGuard()

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

        outcome = await self.guard.acall(call.tool_name, args, run, passthrough=_CONTROL_FLOW)
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
