"""Whose state a guarded call belongs to: run keys, the current run, and per-object keys.

A guard object is usually built once (next to the agent, graph or server) and serves many runs,
threads and client sessions. Its state must not: run 2 must not inherit run 1's error streak,
and an MCP client must never see another client's calls in a summary. So every integration asks
the template guard for the guard *of this run* (:meth:`~hintline.AgentGuard.for_run`), keyed by
the framework's own notion of a run:

* LangChain ``create_agent``: a key written into the agent state by ``before_agent``;
* LangGraph: the ``run_id`` of the config, else the thread and the user message that started
  the run;
* PydanticAI: ``RunContext.run_id``;
* MCP: the client session;
* OpenAI Agents / Anthropic tool runner: :meth:`~hintline.AgentGuard.run` around the run (or
  the run's context object).

This module holds the framework-neutral parts: a context variable for "the run in progress"
and stable string keys for objects (sessions) that end when the object is collected.
"""

from __future__ import annotations

import contextvars
import threading
import uuid
import weakref
from collections.abc import Callable

__all__ = ["current_run", "object_key", "run_key"]

_CURRENT: contextvars.ContextVar[dict[int, str] | None] = contextvars.ContextVar(
    "hintline_current_run", default=None
)


def current_run(owner: object) -> str | None:
    """The key of the run ``owner`` (a template guard) is serving in this context, if any."""
    runs = _CURRENT.get()
    return None if runs is None else runs.get(id(owner))


def enter_run(owner: object, key: str) -> contextvars.Token[dict[int, str] | None]:
    """Make ``key`` the current run of ``owner`` in this context (undo with :func:`leave_run`)."""
    runs = dict(_CURRENT.get() or {})
    runs[id(owner)] = key
    return _CURRENT.set(runs)


def leave_run(token: contextvars.Token[dict[int, str] | None]) -> None:
    """Undo :func:`enter_run`."""
    _CURRENT.reset(token)


def run_key(*parts: object) -> str:
    """A store key from its parts (``None`` parts are skipped): ``run_key("thread", t, m)``."""
    return ":".join(str(p) for p in parts if p is not None and p != "")


_KEYS: dict[int, str] = {}
"""Keys by object identity (sessions and run contexts are often unhashable dataclasses); an
entry is dropped by the object's finalizer, before its id can be reused."""
_LOCK = threading.Lock()


def _drop(ident: int, key: str, on_end: Callable[[str], None] | None) -> None:
    with _LOCK:
        if _KEYS.get(ident) == key:
            del _KEYS[ident]
    if on_end is not None:
        on_end(key)


def object_key(obj: object, on_end: Callable[[str], None] | None = None) -> str:
    """A stable, unguessable key for ``obj`` (an MCP connection, a run's context) while it lives.

    ``on_end(key)`` runs once ``obj`` is garbage-collected (to forget the state stored under the
    key). Objects that cannot be weakly referenced get a fresh key on every call: never shared.
    """
    ident = id(obj)
    with _LOCK:
        key = _KEYS.get(ident)
        if key is not None:
            return key
        key = uuid.uuid4().hex
        try:
            weakref.finalize(obj, _drop, ident, key, on_end)
        except TypeError:
            return key
        _KEYS[ident] = key
        return key
