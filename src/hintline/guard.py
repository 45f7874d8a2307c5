"""``hintline.AgentGuard`` and its companions (the implementation is in :mod:`hintline.agent`)."""

from __future__ import annotations

from hintline.agent import (
    AgentGuard,
    Failure,
    GuardPolicy,
    GuardStore,
    InMemoryStore,
    Outcome,
    ToolRefused,
)

__all__ = [
    "AgentGuard",
    "Failure",
    "GuardPolicy",
    "GuardStore",
    "InMemoryStore",
    "Outcome",
    "ToolRefused",
]
