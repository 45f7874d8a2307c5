"""A structlog processor that adds the deterministic hint to error events (no model call, ever).

>>> import structlog
>>> from hintline.integrations.structlog import add_hint
>>> structlog.configure(processors=[
...     structlog.processors.add_log_level,
...     add_hint,                                  # before format_exc_info / dict_tracebacks
...     structlog.processors.format_exc_info,
...     structlog.processors.JSONRenderer(),
... ])  # doctest: +SKIP

``add_hint`` sets ``hint`` (``"Hint: …"``) and ``hint_category`` (and ``hint_key`` when the hint
names an identifier) on events at error level or above that carry exception information:
``exc_info`` (``True``, an exception or a ``sys.exc_info()`` tuple) or an already formatted
``exception`` string, so it may also run after ``format_exc_info``.
"""

from __future__ import annotations

import sys
from collections.abc import MutableMapping
from typing import Any

from hintline.exceptions import MissingExtraError

try:
    import structlog  # noqa: F401 - the extra this integration belongs to
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("structlog", "structlog") from exc

from hintline.hint import Hint, clean

__all__ = ["add_hint"]

_ERROR_LEVELS = frozenset({"error", "err", "exception", "critical", "crit", "fatal", "alert", "emergency", "emerg", "panic"})


def _exception(event_dict: MutableMapping[str, Any]) -> BaseException | str | None:
    exc_info = event_dict.get("exc_info")
    if isinstance(exc_info, BaseException):
        return exc_info
    if isinstance(exc_info, tuple) and len(exc_info) == 3 and isinstance(exc_info[1], BaseException):
        return exc_info[1]
    if exc_info is True:
        current = sys.exc_info()[1]
        if current is not None:
            return current
    formatted = event_dict.get("exception")
    if isinstance(formatted, str) and formatted.strip():
        return formatted
    return None


def add_hint(logger: Any, method_name: str, event_dict: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """structlog processor: add ``hint`` and ``hint_category`` to error events with an exception.

    Never raises: if anything goes wrong the event passes unchanged.

    .. versionadded:: 0.1
    """
    del logger
    level = str(event_dict.get("level") or method_name or "").lower()
    if level not in _ERROR_LEVELS or "hint" in event_dict:
        return event_dict
    try:
        error = _exception(event_dict)
        if error is None:
            return event_dict
        hint: Hint = clean(error)
    except Exception:  # a hint must never break the logging call
        return event_dict
    event_dict["hint"] = hint.text
    event_dict["hint_category"] = str(hint.category)
    if hint.key:
        event_dict["hint_key"] = hint.key
    return event_dict
