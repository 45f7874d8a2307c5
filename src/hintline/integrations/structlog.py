"""A structlog processor that adds the deterministic hint to error events (no model call, ever).

>>> import structlog
>>> from hintline.integrations.structlog import add_hint
>>> structlog.configure(processors=[
...     structlog.processors.add_log_level,
...     structlog.processors.format_exc_info,     # or dict_tracebacks
...     add_hint,                                  # after them: the traceback is scrubbed too
...     structlog.processors.JSONRenderer(),
... ])  # doctest: +SKIP

``add_hint`` sets ``hint`` (``"Hint: …"``) and ``hint_category`` (and ``hint_key`` when the hint
names an identifier) on events at error level or above that carry exception information:
``exc_info`` (``True``, an exception or a ``sys.exc_info()`` tuple) or an already formatted
``exception`` string, so it may run before or after ``format_exc_info``.

It also scrubs every event it passes on (:func:`scrub_event`): each string value, inside dicts,
lists and tuples too (the event text, a formatted traceback, ``dict_tracebacks`` frames, extra
fields). Placed after ``format_exc_info``/``dict_tracebacks``, everything the renderer prints
has been scrubbed; an exception still unformatted when it runs is formatted later, unscrubbed.
``AddHint(scrub=False)`` opts out.
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
from hintline.scrub import scrub as _scrub

__all__ = ["AddHint", "add_hint", "scrub_event"]

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


_MAX_DEPTH = 32


def _scrubbed(value: Any, depth: int) -> Any:
    if isinstance(value, str):
        return _scrub(value)
    if depth >= _MAX_DEPTH:
        return value
    if isinstance(value, dict):
        return {k: _scrubbed(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrubbed(v, depth + 1) for v in value]
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return tuple(_scrubbed(v, depth + 1) for v in value)
    return value


def scrub_event(
    logger: Any, method_name: str, event_dict: MutableMapping[str, Any]
) -> MutableMapping[str, Any]:
    """structlog processor: scrub every string value of the event (recursively). Never raises.

    .. versionadded:: 0.1.0
    """
    del logger, method_name
    try:
        for key, value in list(event_dict.items()):
            if key != "exc_info":
                event_dict[key] = _scrubbed(value, 0)
    except Exception:  # scrubbing must never break the logging call
        pass
    return event_dict


def _add_hint(event_dict: MutableMapping[str, Any], method_name: str) -> MutableMapping[str, Any]:
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


class AddHint:
    """The ``add_hint`` processor with its option: ``AddHint(scrub=False)`` adds the hint only
    and leaves the other values as they are.

    .. versionadded:: 0.1.0
    """

    def __init__(self, *, scrub: bool = True) -> None:
        self.scrub = scrub

    def __call__(
        self, logger: Any, method_name: str, event_dict: MutableMapping[str, Any]
    ) -> MutableMapping[str, Any]:
        event_dict = _add_hint(event_dict, method_name)
        return scrub_event(logger, method_name, event_dict) if self.scrub else event_dict


_ADD_HINT = AddHint()


def add_hint(logger: Any, method_name: str, event_dict: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """structlog processor: add ``hint`` and ``hint_category`` to error events with an exception,
    and scrub every string value of every event (:func:`scrub_event`).

    Never raises: if anything goes wrong the event passes unchanged.

    .. versionadded:: 0.1
    .. versionchanged:: 0.1.0 scrubs the event (``AddHint(scrub=False)`` does not)
    """
    return _ADD_HINT(logger, method_name, event_dict)
