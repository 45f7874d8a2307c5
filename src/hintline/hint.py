"""``clean()``: any failure in, one actionable, secret-free line out."""

from __future__ import annotations

from dataclasses import dataclass

from hintline.categories import Category, Kind, Retry

__all__ = ["MAX_HINT_CHARS", "PREFIX", "Hint", "clean"]

PREFIX = "Hint: "
MAX_HINT_CHARS = 240


@dataclass(frozen=True, slots=True)
class Hint:
    """A Clean Hint.

    Attributes:
        text: ``Hint: …``, one line, at most 240 characters, scrubbed.
        category: what failed.
        rule: the name of the rule that matched, or ``None`` for the fallback.
        key: the offending identifier (``'user_id'``), or ``None``.
        kind: recoverable, policy or system.
        retry: for system faults, transient or permanent; else ``None``.
    """

    text: str
    category: Category
    rule: str | None
    key: str | None
    kind: Kind
    retry: Retry | None


def clean(error: str | bytes | BaseException) -> Hint:
    """Turn an error (text, bytes or an exception object) into a :class:`Hint`. Never raises.

    PLACEHOLDER: replaced by the real engine (issue 2).
    """
    text = error if isinstance(error, str) else repr(error)
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "unknown error")
    return Hint(
        text=(PREFIX + line)[:MAX_HINT_CHARS],
        category=Category.OTHER,
        rule=None,
        key=None,
        kind=Kind.RECOVERABLE,
        retry=None,
    )
