"""Where a guard keeps its state: the :class:`GuardStore` seam and the in-memory default.

A guard's state is a small JSON-safe mapping (the calls seen, the error streak, counters). The
guard never holds it itself: every read-modify-write goes through :meth:`GuardStore.update`, so
the same run can be served by several workers once the store is shared (a Redis store is
planned; see the contract below).

The contract of a store
-----------------------

``get(key)``
    Return the state stored under ``key`` (a JSON-safe mapping), or ``None``.
``update(key, change)``
    Atomically: read the state under ``key`` (``None`` if absent), call ``change(state)``, which
    returns ``(new_state, result)``, store ``new_state`` and return ``result``. ``change`` is
    pure: it may be called more than once when a store retries after a conflict (optimistic
    locking, e.g. Redis ``WATCH``/``MULTI``), so it must not have side effects. The state passed
    in is the store's own copy; ``change`` may mutate it.
``delete(key)``
    Forget ``key``; no error if absent.

Keys are the guard's ``run_id``: one per run, thread or client session (a template guard serves
many through :meth:`~hintline.AgentGuard.for_run`; :func:`hintline.agent._runs.run_key` composes
keys such as ``thread:<id>:<message id>``). A key never names another run's state, so a store
needs no notion of users: scoping is in the key. Values must survive ``json.dumps``/``json.loads`` unchanged;
the in-memory store enforces this by storing the JSON text.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar, runtime_checkable

__all__ = ["GuardState", "GuardStore", "InMemoryStore", "JSONDict"]

T = TypeVar("T")
JSONDict = dict[str, object]
"""A JSON object: what a store keeps."""


@runtime_checkable
class GuardStore(Protocol):
    """Keeps guard state by key, with an atomic read-modify-write (see the module docstring)."""

    def get(self, key: str) -> JSONDict | None:
        """The state under ``key``, or ``None``."""
        ...

    def update(self, key: str, change: Callable[[JSONDict | None], tuple[JSONDict, T]]) -> T:
        """Atomically replace the state under ``key`` by ``change(state)[0]``; return ``[1]``."""
        ...

    def delete(self, key: str) -> None:
        """Forget ``key``."""
        ...


class InMemoryStore:
    """The default store: a dict of JSON texts behind a lock. Safe across threads of one process.

    Args:
        max_keys: the most runs kept; past it the least recently used run is forgotten (a
            long-lived process serving runs that never say they ended, such as LangGraph
            invokes, must not grow without bound). ``None`` keeps every run.

    .. versionadded:: 0.1.0
    """

    DEFAULT_MAX_KEYS = 10_000

    def __init__(self, max_keys: int | None = DEFAULT_MAX_KEYS) -> None:
        if max_keys is not None and max_keys < 1:
            raise ValueError("max_keys must be None or at least 1")
        self._data: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()
        self._max_keys = max_keys

    def __len__(self) -> int:
        with self._lock:
            return len(self._data)

    def get(self, key: str) -> JSONDict | None:
        """The state under ``key``, or ``None``."""
        with self._lock:
            raw = self._data.get(key)
            if raw is not None:
                self._data.move_to_end(key)
        return None if raw is None else _loads(raw)

    def update(self, key: str, change: Callable[[JSONDict | None], tuple[JSONDict, T]]) -> T:
        """Atomically replace the state under ``key`` by ``change(state)[0]``; return ``[1]``."""
        with self._lock:
            raw = self._data.get(key)
            new, result = change(None if raw is None else _loads(raw))
            self._data[key] = json.dumps(new, sort_keys=True, allow_nan=False)
            self._data.move_to_end(key)
            if self._max_keys is not None:
                while len(self._data) > self._max_keys:
                    self._data.popitem(last=False)
        return result

    def delete(self, key: str) -> None:
        """Forget ``key``."""
        with self._lock:
            self._data.pop(key, None)


def _loads(raw: str) -> JSONDict:
    value = json.loads(raw)
    assert isinstance(value, dict)
    return value


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


@dataclass(slots=True)
class Attempt:
    """One failed call in the current error streak: what was called and the hint it got."""

    tool: str
    args: str
    hint: str

    def to_dict(self) -> JSONDict:
        """JSON-safe form."""
        return {"tool": self.tool, "args": self.args, "hint": self.hint}


@dataclass(slots=True)
class GuardState:
    """The mutable state of one run (internal; stored as JSON through a :class:`GuardStore`)."""

    history: list[tuple[str, str]] = field(default_factory=list)
    consecutive_errors: int = 0
    streak: list[Attempt] = field(default_factory=list)
    loop_warnings: int = 0
    refused: list[tuple[str, str, str, str]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    stopped: list[str] = field(default_factory=list)
    """``[message, summary]`` once the run was stopped (by any worker); only a reset clears it."""
    turns: list[str] = field(default_factory=list)
    """The model turns the current error streak spans (the last two)."""
    succeeded: list[str] = field(default_factory=list)
    """Tools that succeeded in this run (for the root-cause step)."""

    def bump(self, name: str, by: int = 1) -> None:
        """Add to a counter (calls, successes, errors, retries, loops)."""
        self.counts[name] = self.counts.get(name, 0) + by

    def to_dict(self) -> JSONDict:
        """JSON-safe form."""
        return {
            "history": [list(h) for h in self.history],
            "consecutive_errors": self.consecutive_errors,
            "streak": [a.to_dict() for a in self.streak],
            "loop_warnings": self.loop_warnings,
            "refused": [list(r) for r in self.refused],
            "counts": dict(self.counts),
            "stopped": list(self.stopped),
            "turns": list(self.turns),
            "succeeded": list(self.succeeded),
        }

    @classmethod
    def from_dict(cls, data: JSONDict | None) -> GuardState:
        """Rebuild from :meth:`to_dict` output; tolerant of missing keys (a fresh run)."""
        if not data:
            return cls()
        history_raw = data.get("history")
        streak_raw = data.get("streak")
        refused_raw = data.get("refused")
        counts_raw = data.get("counts")
        history = [
            (_str(h[0]), _str(h[1]))
            for h in (history_raw if isinstance(history_raw, list) else [])
            if isinstance(h, list) and len(h) == 2
        ]
        streak = [
            Attempt(_str(a.get("tool")), _str(a.get("args")), _str(a.get("hint")))
            for a in (streak_raw if isinstance(streak_raw, list) else [])
            if isinstance(a, dict)
        ]
        refused = [
            (_str(r[0]), _str(r[1]), _str(r[2]), _str(r[3]))
            for r in (refused_raw if isinstance(refused_raw, list) else [])
            if isinstance(r, list) and len(r) == 4
        ]
        counts = (
            {str(k): _int(v) for k, v in counts_raw.items()} if isinstance(counts_raw, dict) else {}
        )
        stopped_raw = data.get("stopped")
        stopped = [_str(x) for x in stopped_raw][:2] if isinstance(stopped_raw, list) else []
        turns_raw, succeeded_raw = data.get("turns"), data.get("succeeded")
        turns = [_str(t) for t in (turns_raw if isinstance(turns_raw, list) else [])]
        succeeded = [_str(t) for t in (succeeded_raw if isinstance(succeeded_raw, list) else [])]
        return cls(
            stopped=stopped if len(stopped) == 2 else [],
            history=history,
            consecutive_errors=_int(data.get("consecutive_errors")),
            streak=streak,
            loop_warnings=_int(data.get("loop_warnings")),
            refused=refused,
            counts=counts,
            turns=turns,
            succeeded=succeeded,
        )
