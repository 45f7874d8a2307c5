"""Every cache ``clean()`` keeps across calls, emptied at once by :func:`clear`.

A repeated error is answered from these (a rendered hint, a completed key, a fallback line, a
trace's frame lines); an agent's *next* error usually is new, so the benchmark's first-seen rows
and the differential test call :func:`clear` before each call. Caches keyed by a rule's
pattern (its guard literals, its parsed form) are not input: they stay, as in a running
process. A new cache of the cleaner's registers here.
"""

from __future__ import annotations

__all__ = ["clear"]


def clear() -> None:
    """Empty every cache of ``clean()`` that depends on its input."""
    from hintline import hint
    from hintline.cleaner import fallback, render, signals
    from hintline.traces._memo import clear_memos

    hint.clear_fallback_cache()
    render.clear_cache()
    signals._completed.clear()
    fallback._fallback_hint.cache_clear()
    clear_memos()
