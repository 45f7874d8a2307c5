"""Short, actionable context a tool can add to a failure, such as close file names.

>>> perhaps_you_meant("notes/reprot.txt")  # doctest: +SKIP
"Perhaps you meant 'notes/report.txt'?"
"""

from __future__ import annotations

import difflib
import os
from itertools import islice
from pathlib import PurePath

__all__ = ["perhaps_you_meant", "suggest_paths"]

_MAX_LISTED = 5000


def _listing(directory: str) -> list[str]:
    try:
        with os.scandir(directory or ".") as entries:
            return [e.name for e in islice(entries, _MAX_LISTED)]
    except OSError:
        return []


def suggest_paths(
    missing: str | os.PathLike[str], *, limit: int = 3, cutoff: float = 0.6
) -> list[str]:
    """Names close to a missing path, spelled the way the caller spelled the path.

    The first path component that does not exist is compared (with :mod:`difflib`) with the
    entries of the directory holding it; the rest of the path is kept. A missing
    ``src/utlis/io.py`` can give ``src/utils/io.py``. Reads one directory listing, never raises.

    Args:
        missing: the path that was not found.
        limit: the most suggestions to give.
        cutoff: the :func:`difflib.get_close_matches` similarity cutoff.

    .. versionadded:: 0.1.0
    """
    try:
        raw = os.fspath(missing)
    except TypeError:
        return []
    if not raw or "\x00" in raw:
        return []
    parts = PurePath(raw).parts
    for i, part in enumerate(parts):
        prefix = os.path.join(*parts[:i]) if i else ""
        candidate = os.path.join(prefix, part) if prefix else part
        try:
            exists = os.path.lexists(candidate)
        except (OSError, ValueError):
            return []
        if exists:
            continue
        names = [n for n in _listing(prefix) if n != part]
        close = difflib.get_close_matches(part, names, n=limit, cutoff=cutoff)
        rest = parts[i + 1 :]
        return [os.path.join(prefix, name, *rest) if prefix else os.path.join(name, *rest) for name in close]
    return []


def perhaps_you_meant(missing: str | os.PathLike[str], *, limit: int = 3) -> str | None:
    """``"Perhaps you meant 'a' or 'b'?"`` for a missing path, or ``None`` with no close name.

    .. versionadded:: 0.1.0
    """
    names = suggest_paths(missing, limit=limit)
    if not names:
        return None
    quoted = [f"'{n}'" for n in names]
    listed = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]
    return f"Perhaps you meant {listed}?"
