"""``clean()``: any failure in, one actionable, secret-free line out.

The stages live in :mod:`hintline.cleaner`, one module each, and run in this order::

    bound -> normalise -> locate -> match(block) -> signals(block) -> match(rest)
          -> match(as it arrived) -> fallback(block)

``clean()`` only orchestrates them; :class:`Hint` and :func:`render` live in
:mod:`hintline.cleaner.render` and are re-exported here.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from hintline.categories import Category, Kind
from hintline.cleaner import match as _engine
from hintline.cleaner.bound import prepare
from hintline.cleaner.normalise import normalise_and_locate
from hintline.cleaner.render import (
    MAX_HINT_CHARS,
    MAX_VALUE_CHARS,
    PREFIX,
    UNKNOWN,
    Hint,
    finish,
    make_hint,
    normalise,
    render,
)
from hintline.scrub import scrub

__all__ = [
    "MAX_HINT_CHARS",
    "MAX_VALUE_CHARS",
    "PREFIX",
    "Hint",
    "clean",
    "fallback",
    "make_hint",
    "normalise",
    "render",
]

_finish = finish  # the name older callers import
_ = UNKNOWN  # re-exported for callers of hintline.hint

if TYPE_CHECKING:
    from hintline.cleaner.fallback import _CHAIN_MARKERS as _CHAIN_MARKERS
    from hintline.cleaner.fallback import fallback, fallback_block
    from hintline.cleaner.signals import classify, complete_key
else:
    # The signal layer and the fallback are loaded by the first text that needs them (a first
    # call a rule answers with its key needs neither) and bound here, in place of these.

    def classify(block: str) -> Hint | None:
        global classify, complete_key
        from hintline.cleaner.signals import classify, complete_key

        return classify(block)

    def complete_key(hint: Hint, text: str, pattern: str | None = None) -> Hint:
        global classify, complete_key
        from hintline.cleaner.signals import classify, complete_key

        return complete_key(hint, text, pattern)

    def fallback(*args: Any, **kwargs: Any) -> Hint:
        global fallback, fallback_block
        from hintline.cleaner.fallback import fallback, fallback_block

        return fallback(*args, **kwargs)

    def fallback_block(*args: Any, **kwargs: Any) -> Hint:
        global fallback, fallback_block
        from hintline.cleaner.fallback import fallback, fallback_block

        return fallback_block(*args, **kwargs)

    def __getattr__(name: str) -> Any:
        if name == "_CHAIN_MARKERS":  # re-exported for callers of hintline.hint
            from hintline.cleaner.fallback import _CHAIN_MARKERS

            return _CHAIN_MARKERS
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_SAFE = Hint(
    PREFIX + "hintline could not read this error.",
    Category.OTHER,
    None,
    None,
    Kind.RECOVERABLE,
    None,
)


def _matched(text: str) -> Hint | None:
    """The hint of the first-listed rule matching ``text`` (rendered and scrubbed; a keyless
    one gets its family's key from ``text``), or ``None``."""
    found = _engine.match(text)
    if found is None:
        return None
    hint = render(found.rule, found.groups)
    key = hint.key
    if key is not None and not key.isdigit():  # complete_key() returns such a hint as it is
        return hint
    return complete_key(hint, text, found.rule.pattern)


def clean(error: str | bytes | BaseException) -> Hint:
    """Turn an error (text, bytes or an exception object) into a :class:`Hint`. Never raises.

    1. **Bound**: text over 64 KiB keeps its head, its tail and a window around the last
       failure (:mod:`~hintline.cleaner.bound`); bytes are decoded as UTF-8 with replacement;
       an exception is read with its whole chain (causes, contexts, group members and their
       tracebacks), the innermost cause last.
    2. **Normalise** a JSON log record, a JSON envelope, an HTML page, CRLF, escapes and common
       line prefixes into plain text (:mod:`~hintline.cleaner.normalise`).
    3. **Locate** the failing block: the last ERROR record or exception of a log, the last
       failure of a test report, else the whole text (:mod:`~hintline.cleaner.locate`).
    4. **Match**: the first-listed rule of :data:`hintline.rules.RULES` that matches the block
       renders the hint (see the rendering contract on :class:`hintline.Rule`); with no rule,
       the signal layer (:mod:`~hintline.cleaner.signals`: exception classes, SQLSTATE, errno,
       HTTP status) reads the block; only then is the rest of the text matched, its records
       below ERROR left out, and last the text as it arrived (a JSON envelope's code).
    5. **Fallback**: the root cause (``Type: message``), else the ERROR record's message, else
       the first line that says something, else a plain "no error line found".

    Args:
        error: the error text, its raw bytes, or an exception object.

    Returns:
        The hint: ``text`` starts with ``Hint: ``, is one line of at most 240 characters and
        has been through :func:`hintline.scrub`.
    """
    try:
        prepared = prepare(error)
        front = normalise_and_locate(prepared)
        if front is None:  # plain text, one block: the common case
            text, located = prepared, None
        else:
            text, located = front
        block = text if located is None else located.block
        hint = _matched(block)
        if hint is None:  # no wording rule: what the runtime's codes say
            hint = classify(block)
        if hint is None and located is not None and located.rest is not None:
            hint = _matched(located.rest)
        if hint is None and text is not prepared:  # a rule may read the envelope (JSON-RPC code)
            hint = _matched(prepared)
        if hint is not None:
            return hint
        if isinstance(error, BaseException):
            return fallback(scrub(block), error)
        if located is None:
            return _text_fallback(block, None, True)
        return _text_fallback(block, located.message, located.failure)
    except Exception:  # clean() is total: a diagnostics library must not crash its host
        return _SAFE


def _text_fallback_uncached(block: str, message: str | None, failure: bool) -> Hint:
    """The fallback of a text no rule or signal claimed: as if the whole block were scrubbed
    before a line is picked (the line may hold only part of a multi-line secret, a PEM body
    line, which no pattern recognises on its own); see :func:`fallback_block`."""
    return fallback_block(block, message=message, failure=failure)


# A repeated text that falls back is answered from here (the answer depends on the block, the
# located record's message and whether a failure record exists, nothing else); the scrub of the
# whole block and the line pick run once. Long blocks get a small cache of their own, so that
# the cache never holds more than about 1,024 short and 8 bounded (≤ 64 KiB) blocks.
_SHORT_BLOCK = 4096
_short_fallback = functools.lru_cache(maxsize=1024)(_text_fallback_uncached)
_long_fallback = functools.lru_cache(maxsize=8)(_text_fallback_uncached)


def _text_fallback(block: str, message: str | None, failure: bool) -> Hint:
    cache = _short_fallback if len(block) <= _SHORT_BLOCK else _long_fallback
    return cache(block, message, failure)


def clear_fallback_cache() -> None:
    """Empty the fallback's block caches (:func:`hintline.cleaner.caches.clear`)."""
    _short_fallback.cache_clear()
    _long_fallback.cache_clear()
