"""LangChain v1 agents: :class:`HintlineMiddleware`, an ``AgentMiddleware`` for ``create_agent``.

::

    from langchain.agents import create_agent
    from hintline.integrations.langchain import HintlineMiddleware

    agent = create_agent(model, tools, middleware=[HintlineMiddleware()])

Every tool call goes through the guard (``wrap_tool_call`` / ``awrap_tool_call``): the model
gets the hint (with ``status="error"``) instead of a crash or ``repr(e)``, arguments that fail
validation get the field, policy refusals say they are intentional, transient system faults are
retried inside the middleware and never reach the model, loops get a meta-message, and three
failures in a row raise :class:`~hintline.TooManyConsecutiveErrors` out of ``agent.invoke`` with
a summary.

Each ``invoke`` is its own run: ``before_agent`` names a fresh run in the agent state
(``hintline_run``, private to the agent), the tool calls use that run's state, and
``after_agent`` forgets it. A second run on the same agent, or on the same thread, starts clean.

Not covered: failures of the model call itself (use LangChain's ``ModelRetryMiddleware``), and
tools that catch their own exceptions and return error text.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from typing_extensions import NotRequired

from hintline.agent import AgentGuard
from hintline.exceptions import MissingExtraError

try:
    from langchain.agents.middleware import AgentMiddleware, AgentState
    from langchain.agents.middleware.types import PrivateStateAttr
    from langchain_core.messages import ToolMessage
    from langgraph.prebuilt.tool_node import ToolCallRequest
    from langgraph.runtime import Runtime
    from langgraph.types import Command

    from hintline.integrations.langgraph import RUN_KEY, aguard_tool_call, guard_tool_call
except ImportError as exc:  # pragma: no cover - exercised without the extra
    raise MissingExtraError("langchain", "langchain") from exc

__all__ = ["HintlineMiddleware"]


class HintlineState(AgentState):  # type: ignore[misc]
    """The agent state plus the guard's run key (private: not in the input or the output)."""

    hintline_run: NotRequired[Annotated[str, PrivateStateAttr]]


class HintlineMiddleware(AgentMiddleware):  # type: ignore[misc]
    """Runs each tool call of a LangChain agent through an :class:`~hintline.AgentGuard`.

    Args:
        guard: the template guard (policy, store, clock); each run gets its own state under
            it. A default guard when omitted.
    """

    state_schema = HintlineState

    def __init__(self, guard: AgentGuard | None = None) -> None:
        super().__init__()
        self.guard = guard or AgentGuard()
        self._wrap = guard_tool_call(self.guard)
        self._awrap = aguard_tool_call(self.guard)

    def before_agent(self, state: Any, runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Start a run: a fresh key, so nothing of an earlier run is seen."""
        return {RUN_KEY: uuid.uuid4().hex}

    async def abefore_agent(self, state: Any, runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Start a run (async)."""
        return self.before_agent(state, runtime)

    def after_agent(self, state: Any, runtime: Runtime[Any]) -> dict[str, Any] | None:
        """End a run: forget its state."""
        key = state.get(RUN_KEY) if isinstance(state, dict) else None
        if isinstance(key, str) and key:
            self.guard.for_run(key).reset()
        return None

    async def aafter_agent(self, state: Any, runtime: Runtime[Any]) -> dict[str, Any] | None:
        """End a run (async)."""
        return self.after_agent(state, runtime)

    def wrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], ToolMessage | Command[Any]],
    ) -> ToolMessage | Command[Any]:
        """Run the tool call under the guard."""
        return self._wrap(request, handler)

    async def awrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
    ) -> ToolMessage | Command[Any]:
        """Run the tool call under the guard (async)."""
        return await self._awrap(request, handler)
