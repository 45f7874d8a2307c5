"""Bounded memos shared across calls: the frame lines of one service recur in trace after trace.

A parser turns a frame line into its :data:`RawFrame` through a function wrapped by
:func:`line_memo` (a dict that computes missing keys), or, in the tight loops that read runs of
frames (every language now), through a plain :func:`shared_dict` it looks lines up in itself
(on a miss it computes inline and stores: no Python call per new line). Either way a line seen before, in
this trace (deep recursion) or an earlier one (the same error logged again), costs one
dictionary lookup. Only pure functions of their arguments are memoised, so results never
depend on the cache; lines longer than :data:`MAX_LINE` never reach a memo. :func:`clear_memos`
empties them all (the benchmark's cold rows call it before every parse).

What the memos keep: at most ``MEMO_SIZE`` recent distinct lines each, as the logs' trace
cache and ``clean``'s fallback cache keep recent texts. Only frame lines (and parts of them: a
PHP row's body, a Go function line once its location follows) are memoised, by every parser
and the language vote; message lines, Python's echoed source lines and whatever follows a trace
in a log may hold secrets and are read afresh each time (a few µs a trace).
``tests/traces/test_memo.py`` checks that no string of a real message reaches a memo.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = [
    "MEMO_SIZE",
    "SETTINGS_MEMO_SIZE",
    "clear_memos",
    "line_memo",
    "memo_size",
    "settings_memo",
    "shared_dict",
]

MEMO_SIZE = 4096  # entries per memo; a key is one line of at most MAX_LINE characters
# Per-settings objects (an in_app policy and its tables) hold up to MEMO_SIZE entries each,
# so only a few of them are kept.
SETTINGS_MEMO_SIZE = 16

_F = TypeVar("_F", bound=Callable[..., Any])
_K = TypeVar("_K")
_V = TypeVar("_V")
_MEMOS: list[Any] = []


class _LineMemo(dict[_K, _V]):
    """A one-argument memo: a dict whose missing keys are computed (and stored) on lookup.

    Its bound ``__getitem__`` is the memoised function: a hit is one C dict lookup, cheaper
    than ``lru_cache``'s; when it reaches ``MEMO_SIZE`` entries it starts over empty.
    """

    __slots__ = ("fn",)

    def __init__(self, fn: Callable[[_K], _V]) -> None:
        super().__init__()
        self.fn = fn

    def __missing__(self, key: _K) -> _V:
        value = self.fn(key)
        if len(self) >= MEMO_SIZE:
            self.clear()
        self[key] = value
        return value


def line_memo(fn: Callable[[_K], _V]) -> Callable[[_K], _V]:
    """Memoise the one-argument pure ``fn`` (a line, a symbol…) in a bounded memo."""
    memo = _LineMemo(fn)
    _MEMOS.append(memo)
    return memo.__getitem__


def shared_dict() -> dict[Any, Any]:
    """A plain dict registered as a memo, for a tight loop that looks lines up itself
    (``get``, and on a miss computes inline and stores): no Python call per new line. The
    caller keeps it under ``MEMO_SIZE`` entries (clearing it when full)."""
    memo: dict[Any, Any] = {}
    _MEMOS.append(memo)
    return memo


def settings_memo(fn: _F) -> _F:
    """Memoise ``fn`` (pure, hashable arguments) for objects made per settings: a small LRU
    (few settings, each object holding a memo of its own)."""
    cached = functools.lru_cache(maxsize=SETTINGS_MEMO_SIZE)(fn)
    _MEMOS.append(cached)
    return cached  # type: ignore[return-value]


def memo_size(memoised: Callable[..., Any] | dict[Any, Any]) -> int:
    """How many entries the memo behind ``memoised`` holds (for tests)."""
    if isinstance(memoised, dict):
        return len(memoised)
    owner = getattr(memoised, "__self__", None)
    if isinstance(owner, _LineMemo):
        return len(owner)
    return int(memoised.cache_info().currsize)  # type: ignore[attr-defined]


def clear_memos() -> None:
    """Empty every memo (for cold-start measurements and tests)."""
    for memo in _MEMOS:
        if isinstance(memo, dict):
            memo.clear()
        else:
            memo.cache_clear()
