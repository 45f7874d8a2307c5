"""Render a hint: a rule's template filled with its normalised captures, or a fallback line,
as one scrubbed ``Hint: `` line of at most 240 characters."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from hintline._text import valid_text
from hintline.categories import Category, Kind, Retry
from hintline.rules._model import Rule
from hintline.scrub import cut_scrubbed, scrub

__all__ = [
    "MAX_HINT_CHARS",
    "MAX_VALUE_CHARS",
    "PREFIX",
    "UNKNOWN",
    "Hint",
    "finish",
    "make",
    "make_hint",
    "normalise",
    "render",
]

PREFIX = "Hint: "
MAX_HINT_CHARS = 240
"""A hint's text is at most this long (the prefix included)."""
MAX_VALUE_CHARS = 64
"""A captured value is cut to this length (after it is scrubbed whole) before it is put in a
hint."""
UNKNOWN = "unknown"
"""What a group that did not take part in the match renders as."""

_ELLIPSIS = "…"
_CONTROL = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|[\x00-\x08\x0e-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]"
)
_PAIRS = {
    "'": "'",
    '"': '"',
    "`": "`",
    "(": ")",
    "[": "]",
    "{": "}",
    "<": ">",
    "‘": "’",
    "“": "”",
    "«": "»",
}


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


def _strip_pairs(value: str) -> str:
    while len(value) >= 2 and _PAIRS.get(value[0]) == value[-1]:
        inner = value[1:-1]
        if value[0] in inner or value[-1] in inner:  # '"a"."b"' is not one quoted value
            break
        value = inner.strip()
    return value


def normalise(value: str | None, *, split: bool = True) -> str:
    """Normalise one captured value as the rendering contract says (see ``Rule``); with
    ``split=False`` a composite ``a, b`` is kept whole (a key list: every column)."""
    if value is None:
        return UNKNOWN
    if not value.isascii() or not value.isprintable():
        value = _CONTROL.sub("", value)
    value = _strip_pairs(" ".join(value.split()))
    if "," in value or len(value) > MAX_VALUE_CHARS:
        # about to be cut: scrub the whole value first, so no prefix of a secret is left
        # (`postgresql://app:S3c…` has lost the `@host` that made it a URL with credentials)
        value = scrub(value)
    if split and "," in value:
        value = _strip_pairs(value.split(",", 1)[0].strip())
    return cut_scrubbed(value, MAX_VALUE_CHARS, "")


def finish(text: str) -> str:
    """Scrub, collapse whitespace, cut to 240 characters; always valid Unicode.

    Scrubbing comes first: a secret wrapped onto the next line is recognised only while the
    line break is still there.
    """
    text = " ".join(scrub(valid_text(text)).split())
    if not text.startswith(PREFIX):
        text = PREFIX + text
    return cut_scrubbed(text, MAX_HINT_CHARS, _ELLIPSIS)


def make(category: Category, text: str, rule: str | None, key: str | None) -> Hint:
    return Hint(text, category, rule, key, category.kind, category.retry)


def make_hint(category: Category, text: str, rule: str | None, key: str | None) -> Hint:
    """A hint of ``category`` whose ``text`` (without the prefix) is finished as a rule's is:
    whitespace collapsed, scrubbed, cut to 240 characters. ``key`` must be scrubbed already."""
    return make(category, finish(PREFIX + text), rule, key)


def render(rule: Rule, groups: Mapping[str, str | None]) -> Hint:
    """Render the hint of ``rule`` from its named ``groups`` (the rendering contract of ``Rule``).

    Rendering is deterministic, so the last 1,024 distinct renderings are cached: an agent that
    repeats a failing call gets its hint without normalising and scrubbing again.
    """
    values = tuple(groups.values())
    for value in values:
        if value is not None and len(value) > _MAX_CACHED_VALUE:
            return _render_uncached(rule, groups)  # not cached (nor hashed)
    # str fields only: their hashes are cached, the Category's (an Enum) is computed in Python
    key = (rule.code, rule.name, rule.hint, rule.key_group, rule.key_list, tuple(groups), values)
    hint = _rendered.get(key)
    if hint is None:
        hint = _render_uncached(rule, groups)
        if len(_rendered) >= _MAX_CACHED:
            _rendered.clear()
        _rendered[key] = hint
    return hint


_MAX_CACHED = 1024
_MAX_CACHED_VALUE = 512
"""Renderings with a longer captured value are not cached (nor hashed)."""
_rendered: dict[tuple[object, ...], Hint] = {}


def clear_cache() -> None:
    """Forget every cached rendering (see :mod:`hintline.cleaner.caches`)."""
    _rendered.clear()


def _key_list(value: str | None) -> str:
    """A key list's parts, each normalised, joined by ``, `` (``('a', 'b')`` gives ``a, b``)."""
    if value is None:
        return UNKNOWN
    whole = normalise(value, split=False)
    joined = ", ".join(normalise(part, split=False) for part in whole.split(","))
    return cut_scrubbed(scrub(joined), MAX_VALUE_CHARS, "")


def _render_uncached(rule: Rule, groups: Mapping[str, str | None]) -> Hint:
    values = {group: normalise(value) for group, value in groups.items()}
    if rule.key_list and rule.key_group is not None:
        values[rule.key_group] = _key_list(groups.get(rule.key_group))
    text = finish(PREFIX + rule.hint.format(**values))
    key = None
    if rule.key_group is not None and groups.get(rule.key_group) is not None:
        key = scrub(values[rule.key_group])
    return make(rule.category, text, rule.name, key)
