"""From an exception to a :class:`~hintline.Hint` the guard can act on.

The text rules of :func:`hintline.clean` decide first. Only when they fall back (category
``other``) does the guard look at what the exception object itself says: its type, its
``errno``, an HTTP status it carries. Text rules cannot see those, and a policy that retried or
refused on the wrong kind would be worse than no policy.
"""

from __future__ import annotations

import dataclasses
import errno
import re
import socket
import ssl
import time
from collections.abc import Callable, Mapping
from email.utils import parsedate_to_datetime

from hintline.categories import Category
from hintline.hint import Hint

__all__ = [
    "Classifier",
    "ToolRefused",
    "classify",
    "http_status",
    "is_blip",
    "is_transient",
    "retry_after",
]

Classifier = Callable[[str | BaseException], Hint]
"""What turns an exception into a hint; :func:`hintline.clean` by default."""


class ToolRefused(Exception):
    """Raise from a tool to refuse a call by policy (out of scope, cancelled by the user, …).

    The guard treats it as a *policy* failure whatever the message says: the model is told
    the restriction is intentional and that it should ask the user.

    .. versionadded:: 0.1.0
    """


_ERRNO: Mapping[int, Category] = {
    errno.ENOENT: Category.FILE_NOT_FOUND,
    errno.ENOTDIR: Category.FILE_NOT_FOUND,
    errno.EACCES: Category.PERMISSION_DENIED,
    errno.EPERM: Category.PERMISSION_DENIED,
    errno.ENOSPC: Category.DISK_FULL,
    errno.EDQUOT: Category.DISK_FULL,
    errno.ENOMEM: Category.OUT_OF_MEMORY,
    errno.ECONNREFUSED: Category.CONNECTION_REFUSED,
    errno.ECONNRESET: Category.CONNECTION_REFUSED,
    errno.ECONNABORTED: Category.CONNECTION_REFUSED,
    errno.EPIPE: Category.CONNECTION_REFUSED,
    errno.ENETUNREACH: Category.CONNECTION_REFUSED,
    errno.EHOSTUNREACH: Category.CONNECTION_REFUSED,
    errno.ETIMEDOUT: Category.TIMEOUT,
}

# Checked in order; the first isinstance match wins (subclasses before their bases).
_TYPES: tuple[tuple[type[BaseException], Category], ...] = (
    (ToolRefused, Category.PERMISSION_DENIED),
    (socket.gaierror, Category.DNS_FAILURE),
    (ssl.SSLError, Category.TLS_ERROR),
    (MemoryError, Category.OUT_OF_MEMORY),
    (ConnectionError, Category.CONNECTION_REFUSED),
    (TimeoutError, Category.TIMEOUT),
    (FileNotFoundError, Category.FILE_NOT_FOUND),
    (PermissionError, Category.PERMISSION_DENIED),
    (KeyError, Category.KEY_ERROR),
    (IndexError, Category.INDEX_ERROR),
    (ZeroDivisionError, Category.DIVISION_BY_ZERO),
    (RecursionError, Category.RECURSION),
)

_STATUS: Mapping[int, Category] = {
    401: Category.HTTP_UNAUTHORIZED,
    403: Category.HTTP_FORBIDDEN,
    404: Category.HTTP_NOT_FOUND,
    408: Category.TIMEOUT,
    429: Category.RATE_LIMITED,
}

_BLIP = {Category.CONNECTION_REFUSED, Category.DNS_FAILURE}


def http_status(exc: BaseException) -> int | None:
    """The HTTP status an exception carries (``status_code``, ``status``, ``code`` or on its
    ``response``), if any."""
    for holder in (exc, getattr(exc, "response", None)):
        if holder is None:
            continue
        for attr in ("status_code", "status", "code"):
            value = getattr(holder, attr, None)
            if isinstance(value, int) and not isinstance(value, bool) and 100 <= value <= 599:
                return value
    return None


def _structural(exc: BaseException) -> Category | None:
    if isinstance(exc, ToolRefused):
        return Category.PERMISSION_DENIED
    status = http_status(exc)
    if status is not None:
        if status >= 500:
            return Category.HTTP_SERVER_ERROR
        if status in _STATUS:
            return _STATUS[status]
        if status >= 400:
            return Category.HTTP_CLIENT_ERROR
    code = getattr(exc, "errno", None)
    if isinstance(code, int) and code in _ERRNO:
        return _ERRNO[code]
    for kind, category in _TYPES:
        if isinstance(exc, kind):
            return category
    return None


def classify(exc: BaseException | str, classifier: Classifier) -> Hint:
    """Clean ``exc`` with ``classifier``; if it fell back, refine the category from the object.

    A :class:`ToolRefused` is always a policy failure. Never raises: a classifier that raises
    is treated as having fallen back.
    """
    try:
        hint = classifier(exc)
    except Exception:  # a broken classifier must not turn a tool error into a crash
        from hintline.hint import clean

        hint = clean(exc)
    if isinstance(exc, str) or (
        hint.category is not Category.OTHER and not isinstance(exc, ToolRefused)
    ):
        return hint
    category = _structural(exc)
    if category is None or category is hint.category:
        return hint
    return dataclasses.replace(hint, category=category, kind=category.kind, retry=category.retry)


def is_transient(error: BaseException | str) -> bool:
    """A system fault a retry can help: the predicate for ``retry_on=`` / ``giveup=`` slots.

    For LangGraph ``RetryPolicy(retry_on=is_transient)``, tenacity
    ``retry_if_exception(is_transient)``, LangChain ``ToolRetryMiddleware(retry_on=…)`` or
    ``backoff.on_exception(..., giveup=lambda e: not is_transient(e))``.

    .. versionadded:: 0.1.0
    """
    from hintline.categories import Retry
    from hintline.hint import clean

    return classify(error, clean).retry is Retry.TRANSIENT


def is_blip(hint: Hint, exc: BaseException | str) -> bool:
    """A network blip: worth one immediate retry before backing off."""
    return hint.category in _BLIP or isinstance(exc, (ConnectionResetError, ConnectionAbortedError))


_SECONDS = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*$")


def _header(headers: object, name: str) -> str | None:
    getter = getattr(headers, "get", None)
    if getter is None:
        return None
    for key in (name, name.lower(), name.title()):
        value = getter(key)
        if isinstance(value, (str, bytes)):
            return value.decode("latin-1") if isinstance(value, bytes) else value
    return None


def retry_after(exc: BaseException | str, now: Callable[[], float] = time.time) -> float | None:
    """Seconds the server asked to wait (``Retry-After``), from the exception or its response.

    Reads a numeric ``retry_after`` attribute, else the header on ``exc.headers`` or
    ``exc.response.headers`` (delta-seconds or an HTTP date, RFC 9110 §10.2.3).
    """
    if isinstance(exc, str):
        return None
    direct = getattr(exc, "retry_after", None)
    if isinstance(direct, (int, float)) and not isinstance(direct, bool) and direct >= 0:
        return float(direct)
    for holder in (exc, getattr(exc, "response", None)):
        if holder is None:
            continue
        value = _header(getattr(holder, "headers", None), "Retry-After")
        if value is None:
            continue
        match = _SECONDS.match(value)
        if match:
            return float(match.group(1))
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            continue
        return max(0.0, when.timestamp() - now())
    return None
