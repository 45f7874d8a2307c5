"""LangChain v1 agents: :class:`HintlineMiddleware`, an ``AgentMiddleware`` for ``create_agent``.

::

    from langchain.agents import create_agent
    from hintline.integrations.langchain import HintlineMiddleware

    agent = create_agent(model, tools, middleware=[HintlineMiddleware()])

Every tool call goes through the guard (``wrap_tool_call`` / ``awrap_tool_call``): the model
gets the hint (with ``status="error"``) instead of a crash or ``repr(e)``, policy refusals say
they are intentional, transient system faults are retried inside the middleware and never
reach the model, loops get a meta-message, and three failures in a row raise
:class:`~hintline.TooManyConsecutiveErrors` out of ``agent.invoke`` with a summary.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from hintline.agent import AgentGuard
from hintline.exceptions import MissingExtraError

try:
    from langchain.agents.middleware import AgentMiddleware
    from langchain_core.messages import ToolMessage
    from langgraph.prebuilt.tool_node import ToolCallRequest
    from langgraph.types import Command

    from hintline.integrations.langgraph import aguard_tool_call, guard_tool_call
except ImportError as exc:  # pragma: no cover - exercised without the extra
    raise MissingExtraError("langchain", "langchain") from exc

__all__ = ["HintlineMiddleware"]


class HintlineMiddleware(AgentMiddleware):  # type: ignore[misc]
    """Runs each tool call of a LangChain agent through an :class:`~hintline.AgentGuard`.

    Args:
        guard: the guard (one per run; the caller owns it). A fresh one by default.
    """

    def __init__(self, guard: AgentGuard | None = None) -> None:
        super().__init__()
        self.guard = guard or AgentGuard()
        self._wrap = guard_tool_call(self.guard)
        self._awrap = aguard_tool_call(self.guard)

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
