"""The agent error policy: :class:`AgentGuard`, its policy and store, result shapes, compaction.

``hintline.AgentGuard`` is the same class. Framework hooks live in ``hintline.integrations``.
"""

from __future__ import annotations

from hintline.agent._classify import (
    Classifier,
    ToolRefused,
    http_status,
    is_transient,
    retry_after,
)
from hintline.agent._guard import AgentGuard, Failure, Outcome, canonical_args
from hintline.agent._policy import GuardPolicy
from hintline.agent._runs import run_key
from hintline.agent._store import GuardStore, InMemoryStore
from hintline.agent.rootcause import RootCause, Step, Steps
from hintline.agent.suggest import perhaps_you_meant, suggest_paths

__all__ = [
    "AgentGuard",
    "Classifier",
    "Failure",
    "GuardPolicy",
    "GuardStore",
    "InMemoryStore",
    "Outcome",
    "RootCause",
    "Step",
    "Steps",
    "ToolRefused",
    "canonical_args",
    "http_status",
    "is_transient",
    "perhaps_you_meant",
    "retry_after",
    "run_key",
    "suggest_paths",
]
