"""The fingerprint of an error: which errors are "the same one" when counting repeats.

``hintline logs --group``, ``hintline scan`` and the Spark job all call :func:`fingerprint`, so a
fingerprint computed in one place matches one computed in another. Changing what goes into it
changes every stored fingerprint: treat the recipe as a versioned format (``VERSION``).

Recipe (version 1): SHA-256 over, one per line,

1. ``VERSION``;
2. the hint's rule name, or, for the fallback hint (no rule), ``-`` followed by the root cause's
   exception class and the hint text with its variable parts (numbers, hex, quoted values)
   masked, so that two unrelated unmatched errors do not fall together;
3. the hint's key (the offending identifier), or ``-``;
4. the top in-app frame of the root cause (throw site first) as ``module-or-file:function``
   -- or the top frame if no frame is in-app, or ``-`` if there is no frame. Line numbers are
   left out on purpose: they move with every edit of the file and would split a group.

The first 16 hex digits are the fingerprint.
"""

from __future__ import annotations

import hashlib
import re

from hintline.hint import Hint
from hintline.traces import Frame, Trace

__all__ = ["VERSION", "fingerprint", "top_frame"]

VERSION = "1"

_VARIABLE = re.compile(
    r"'[^'\n]*'|\"[^\"\n]*\"|\b0x[0-9a-fA-F]+\b|\b[0-9a-fA-F]{8,}\b|\d+(?:\.\d+)*"
)


def _mask(text: str) -> str:
    return _VARIABLE.sub("<*>", text)


def top_frame(trace: Trace) -> Frame | None:
    """The root cause's first in-app frame (throw site first), else its first frame, else ``None``.

    When the root cause has no frames, the other exceptions of the chain are searched, innermost
    first.
    """
    for info in reversed(trace.exceptions):
        if not info.frames:
            continue
        return next((f for f in info.frames if f.in_app), info.frames[0])
    return None


def _frame_id(frame: Frame | None) -> str:
    if frame is None:
        return "-"
    where = frame.module or (frame.file or "").replace("\\", "/").rsplit("/", 1)[-1] or "?"
    return f"{where}:{frame.function or '?'}"


def fingerprint(hint: Hint, trace: Trace) -> str:
    """Return the fingerprint of an error from its hint and its parsed trace.

    Args:
        hint: the deterministic hint (``hintline.clean`` of the error).
        trace: the parsed trace (``hintline.parse_trace``); an empty trace is fine.

    Returns:
        16 lower-case hex digits, the same for every occurrence of the same error.

    .. versionadded:: 0.1
    """
    if hint.rule:
        rule = hint.rule
    else:
        root = trace.root_cause
        rule = "-" + (root.type if root else "") + "|" + _mask(hint.text)
    parts = (VERSION, rule, hint.key or "-", _frame_id(top_frame(trace)))
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:16]
