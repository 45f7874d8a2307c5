"""The fingerprint of an error: which errors are "the same one" when counting repeats.

``hintline logs --group``, ``hintline scan``, the Spark job and the web page all call
:func:`fingerprint` (through :func:`hintline.logs.entry_fingerprint` for log entries), so a
fingerprint computed in one place matches one computed in another. Changing what goes into it
changes every stored fingerprint: treat the recipe as a versioned format (``VERSION``).

Recipe (version 2), Sentry-style: one group per *kind* of failure, never per value. SHA-256
over, one per line,

1. ``VERSION``;
2. with a stack (some exception of the chain has frames): ``stack``, the logged (outermost) and
   the root cause's exception classes, and the root cause's in-app frames as
   ``module-or-file:function`` (all in-app frames, throw site first, recursion collapsed, at most
   :data:`MAX_FRAMES`; the frames of the nearest exception that has some when the root cause has
   none; every frame when none is in-app). Line numbers are left out on purpose: they move with
   every edit of the file and would split a group;
3. without a stack: ``message``, the logger (component), the root exception class, and the
   message's *template* -- its first line with every variable part masked
   (:func:`template`: quoted values, paths, URLs, e-mail addresses, hosts and IP addresses,
   UUIDs, hex, and every token holding a digit: ids, numbers, durations, sizes). When there is
   no message, the hint's text is templated instead.

The hint's rule, key and category are *not* part of it: they are data of the group (the key's
template, a few example keys and the count of distinct keys, :mod:`hintline.scan`). A path, id
or host in the key therefore never splits a kind of failure into one group per value.

The first 16 hex digits are the fingerprint.
"""

from __future__ import annotations

import hashlib
import re

from hintline.hint import Hint
from hintline.traces import ExceptionInfo, Frame, Trace

__all__ = ["MAX_FRAMES", "VERSION", "fingerprint", "first_variable", "key_template", "template", "top_frame"]

VERSION = "2"
MAX_FRAMES = 30
"""In-app frames of the root cause that take part (deep recursion does not split a group)."""

_MASK = "<*>"
# Order matters: the alternatives are tried left to right at each position.
_VARIABLE = re.compile(
    r"""
      '[^'\n]{0,400}'                                  # quoted values
    | "[^"\n]{0,400}"
    | `[^`\n]{0,400}`
    | (?<=[=])[^\s,;)\]}'"]+                          # key=value: the value
    | \b[a-z][a-z0-9+.\-]{1,15}://[^\s'"<>]+          # URLs
    | [\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+                  # e-mail addresses
    | (?<![\w/])(?:[A-Za-z]:)?[\\/](?:[^\s\\/'"<>:,;()\[\]{}]+[\\/]?)+   # paths
    | \b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b  # UUIDs
    | (?:\[[0-9a-fA-F:]+\]|\b[0-9a-fA-F]*:[0-9a-fA-F:]{4,})(?::\d+)?   # IPv6
    | \b(?:[a-z0-9\-]+\.)+(?:com|net|org|io|local|internal|lan|svc|cluster|[a-z]{2})\b(?::\d+)?  # hosts
    | [\w.:\-/+]*(?:\d|(?<![A-Za-z])[0-9a-fA-F]{8,}(?![A-Za-z]))[\w.:\-/+%]*
                        # any token with a digit or a hex run: ids, hex, numbers, IPs, durations
    """,
    re.VERBOSE,
)
_RUNS = re.compile(r"(?:<\*>[\s,;:=/.\-]*){2,}")
_KEY_VARIABLE = re.compile(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
    r"|0x[0-9a-fA-F]+|(?<![A-Za-z])[0-9a-fA-F]*\d[0-9a-fA-F]*(?![A-Za-z])|\d+"
)
_TEMPLATE_CHARS = 300


def template(text: str) -> str:
    """The first line of ``text`` with its variable parts masked as ``<*>`` (at most 300 chars).

    >>> template("asset /srv/app/static/img/banner-17.webp missing after 30s (request 8812)")
    'asset <*> missing after <*> (request <*>)'
    """
    line = text.strip().split("\n", 1)[0][:2000]
    masked = _VARIABLE.sub(_MASK, line)
    masked = _RUNS.sub(lambda m: _MASK + (" " if m.group(0).endswith(" ") else ""), masked)
    return masked[:_TEMPLATE_CHARS]


def first_variable(text: str) -> str | None:
    """The first variable part of ``text``'s first line (what :func:`template` masks first), unquoted.

    A group whose hint has no key keeps this as its key: ``asset /srv/…/banner-17.webp missing``
    gives ``/srv/…/banner-17.webp``.
    """
    line = text.strip().split("\n", 1)[0][:2000]
    m = _VARIABLE.search(line)
    if m is None:
        return None
    value = m.group(0)
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"`":
        value = value[1:-1]
    return value or None


def key_template(key: str) -> str:
    """A key with its variable runs (digits, hex, UUIDs) as ``*``: ``banner-17.webp`` -> ``banner-*.webp``."""
    return _KEY_VARIABLE.sub("*", key)


def _stack_owner(trace: Trace) -> ExceptionInfo | None:
    """The root cause if it has frames, else the nearest exception (innermost first) that has some."""
    root = trace.root_cause
    if root is not None and root.frames:
        return root
    for info in reversed(trace.exceptions):
        if info.frames:
            return info
    return None


def top_frame(trace: Trace) -> Frame | None:
    """The root cause's first in-app frame (throw site first), else its first frame, else ``None``.

    When the root cause has no frames, the other exceptions of the chain are searched, innermost
    first.
    """
    owner = _stack_owner(trace)
    if owner is None:
        return None
    return next((f for f in owner.frames if f.in_app), owner.frames[0])


def _frame_id(frame: Frame) -> str:
    where = frame.module or (frame.file or "").replace("\\", "/").rsplit("/", 1)[-1] or "?"
    return f"{where}:{frame.function or '?'}"


def _frames(owner: ExceptionInfo) -> list[str]:
    chosen = [f for f in owner.frames if f.in_app] or list(owner.frames)
    ids: list[str] = []
    for frame in chosen:
        ident = _frame_id(frame)
        if ident not in ids[-3:]:  # recursion (a, a, a / a, b, a, b) does not split
            ids.append(ident)
        if len(ids) >= MAX_FRAMES:
            break
    return ids


def fingerprint(
    hint: Hint, trace: Trace, *, logger: str | None = None, message: str | None = None
) -> str:
    """Return the fingerprint of an error (see the module docstring for the recipe).

    Args:
        hint: the deterministic hint (``hintline.clean`` of the error).
        trace: the parsed trace (``hintline.parse_trace``); an empty trace is fine.
        logger: the logger or component that wrote the error, if known.
        message: the logged message, if known (else the hint's text is templated).

    Returns:
        16 lower-case hex digits, the same for every occurrence of the same kind of error.

    .. versionadded:: 0.1
    .. versionchanged:: 0.1
       Recipe 2: exception classes and in-app frames, or logger and message template.
    """
    owner = _stack_owner(trace)
    root = trace.root_cause
    outer = trace.outermost
    if owner is not None:
        parts = [
            VERSION, "stack", outer.type if outer else "-", root.type if root else "-", *_frames(owner)
        ]
    else:
        text = message if message and message.strip() else hint.text
        parts = [VERSION, "message", logger or "-", root.type if root else "-", template(text)]
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:16]
