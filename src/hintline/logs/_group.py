"""Repeated errors, grouped by fingerprint, and the deterministic hint of an entry."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from hintline.fingerprint import fingerprint
from hintline.hint import Hint, clean
from hintline.logs._model import Entry, Group

__all__ = ["entry_fingerprint", "group", "hint_for"]


def hint_for(entry: Entry) -> Hint:
    """The deterministic hint of an entry: ``hintline.clean`` of its message and exception.

    .. versionadded:: 0.1
    """
    return clean(entry.text)


def entry_fingerprint(entry: Entry, hint: Hint | None = None) -> str:
    """The entry's fingerprint (see :mod:`hintline.fingerprint`).

    .. versionadded:: 0.1
    """
    return fingerprint(
        hint or hint_for(entry), entry.trace, logger=entry.component, message=entry.message
    )


@dataclass(slots=True)
class _Acc:
    count: int
    first: datetime | None
    last: datetime | None
    example: Entry
    hint: Hint
    order: int


def _older(a: datetime | None, b: datetime | None) -> bool:
    return b is not None and (a is None or b < a)


def group(entries: Iterable[Entry]) -> list[Group]:
    """Group entries that are the same error (same fingerprint).

    Memory holds one aggregate per group, so ``entries`` may be a long stream.

    Returns:
        The groups, the most recently seen first (groups without any time last, in the order
        they were first met). Each group's example is its newest entry.

    .. versionadded:: 0.1
    """
    acc: dict[str, _Acc] = {}
    for entry in entries:
        hint = hint_for(entry)
        fp = entry_fingerprint(entry, hint)
        ts = entry.timestamp
        a = acc.get(fp)
        if a is None:
            acc[fp] = _Acc(1, ts, ts, entry, hint, len(acc))
            continue
        a.count += 1
        if _older(a.first, ts):
            a.first = ts
        if a.last is None or (ts is not None and ts > a.last):
            a.last, a.example, a.hint = ts, entry, hint
    ordered = sorted(
        acc.items(),
        key=lambda kv: (kv[1].last is not None, kv[1].last.timestamp() if kv[1].last else 0.0, -kv[1].order),
        reverse=True,
    )
    return [Group(fp, a.count, a.first, a.last, a.example, a.hint) for fp, a in ordered]
