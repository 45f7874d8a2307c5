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
from hintline.scrub import scrub_cut

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
    invalid = _invalid_arguments(exc)
    if invalid is not None:
        return invalid
    category = _structural(exc)
    if category is None or category is hint.category:
        return hint
    return dataclasses.replace(hint, category=category, kind=category.kind, retry=category.retry)


_MISSING = {"missing", "missing_argument", "missing_keyword_only_argument", "missing_positional_only_argument"}
_EXTRA = {"extra_forbidden", "unexpected_keyword_argument", "unexpected_positional_argument"}


def _invalid_arguments(exc: BaseException) -> Hint | None:
    """A hint from a validation error's structured details (pydantic's ``errors()``): which
    argument is missing, not accepted or of the wrong type. For the wrappers whose text the
    rules cannot read (``validate_call``'s "Missing required argument", an ``ArgsKwargs``)."""
    errors = getattr(exc, "errors", None)
    if not callable(errors) or "ValidationError" not in type(exc).__name__:
        return None
    try:
        try:
            items = errors(include_url=False, include_input=False, include_context=False)
        except TypeError:
            items = errors()
    except Exception:  # a foreign errors() that misbehaves: not ours to read
        return None
    parts: list[str] = []
    first_key: str | None = None
    first_missing = False
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, Mapping):
            continue
        loc = [str(p) for p in item.get("loc", ()) if not isinstance(p, int)]
        field = ".".join(loc) or "arguments"
        kind = str(item.get("type", ""))
        if kind in _MISSING:
            part = f"argument '{field}' is required"
        elif kind in _EXTRA:
            part = f"argument '{field}' is not accepted"
        else:
            part = f"argument '{field}': {scrub_cut(str(item.get('msg', 'invalid value')), 80, '')}"
        if first_key is None:
            first_key, first_missing = field, kind in _MISSING
        if part not in parts:
            parts.append(part)
    if first_key is None:
        return None
    text = "Hint: Invalid arguments: " + "; ".join(parts[:3])
    text = scrub_cut(text, 200, "").rstrip() + ". Fix the arguments and call again."
    category = Category.MISSING_FIELD if first_missing else Category.TYPE_MISMATCH
    return Hint(text, category, None, first_key, category.kind, None)


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
