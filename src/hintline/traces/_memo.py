"""Bounded memos shared across calls: the frame lines of one service recur in trace after trace.

A parser turns a frame line into its :data:`RawFrame` through a function wrapped by
:func:`line_memo` (a C ``functools.lru_cache``), so a line seen before, in this trace (deep
recursion) or an earlier one (the same error logged again), costs one dictionary lookup. Only
pure functions of their arguments are memoised, so results never depend on the cache; lines
longer than :data:`MAX_LINE` never reach a memo. :func:`clear_memos` empties them all (the
benchmark's cold rows call it before every parse).

What the memos keep: at most ``MEMO_SIZE`` recent distinct lines each, as the logs' trace
cache and ``clean``'s fallback cache keep recent texts. Python's echoed source lines are never
memoised, nor are the non-frame lines of Node, Ruby, PHP and .NET traces; the language vote
and the JVM parser memoise the lines they read, message lines included (about 30 µs of a 5 KB
Java trace).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["MEMO_SIZE", "SETTINGS_MEMO_SIZE", "clear_memos", "line_memo", "settings_memo"]

MEMO_SIZE = 4096  # entries per memo; a key is one line of at most MAX_LINE characters
# Per-settings objects (an in_app policy and its tables) hold up to MEMO_SIZE entries each,
# so only a few of them are kept.
SETTINGS_MEMO_SIZE = 16

_F = TypeVar("_F", bound=Callable[..., Any])
_MEMOS: list[Any] = []


def _memo(fn: _F, size: int) -> _F:
    cached = functools.lru_cache(maxsize=size)(fn)
    _MEMOS.append(cached)
    return cached  # type: ignore[return-value]


def line_memo(fn: _F) -> _F:
    """Memoise ``fn`` (pure, hashable arguments) in a bounded LRU cache cleared by :func:`clear_memos`."""
    return _memo(fn, MEMO_SIZE)


def settings_memo(fn: _F) -> _F:
    """Like :func:`line_memo` for objects made per settings (few, each holding a memo of its own)."""
    return _memo(fn, SETTINGS_MEMO_SIZE)


def clear_memos() -> None:
    """Empty every memo (for cold-start measurements and tests)."""
    for cached in _MEMOS:
        cached.cache_clear()
