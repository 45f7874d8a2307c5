"""``clean()``: any failure in, one actionable, secret-free line out."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass

from hintline._text import valid_text
from hintline._vectorscan.screen import LiteralScreen
from hintline.categories import Category, Kind, Retry
from hintline.cleaner import match as _engine
from hintline.cleaner import signals as _signals
from hintline.cleaner.bound import prepare
from hintline.cleaner.fallback import PLAIN, keep_chain_root, pick_line_with_strength
from hintline.rules._model import Rule
from hintline.scrub import cut_scrubbed, scrub

__all__ = ["MAX_HINT_CHARS", "MAX_VALUE_CHARS", "PREFIX", "Hint", "clean", "render"]

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


def _finish(text: str) -> str:
    """Scrub, collapse whitespace, cut to 240 characters; always valid Unicode.

    Scrubbing comes first: a secret wrapped onto the next line is recognised only while the
    line break is still there.
    """
    text = " ".join(scrub(valid_text(text)).split())
    if not text.startswith(PREFIX):
        text = PREFIX + text
    return cut_scrubbed(text, MAX_HINT_CHARS, _ELLIPSIS)


def _make(category: Category, text: str, rule: str | None, key: str | None) -> Hint:
    return Hint(text, category, rule, key, category.kind, category.retry)


def make_hint(category: Category, text: str, rule: str | None, key: str | None) -> Hint:
    """A hint of ``category`` whose ``text`` (without the prefix) is finished as a rule's is:
    whitespace collapsed, scrubbed, cut to 240 characters. ``key`` must be scrubbed already."""
    return _make(category, _finish(PREFIX + text), rule, key)


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


def _key_list(value: str | None) -> str:
    """A key list's parts, each normalised, joined by ``, `` (``('a', 'b')`` gives ``a, b``)."""
    if value is None:
        return UNKNOWN
    whole = normalise(value, split=False)
    return ", ".join(normalise(part, split=False) for part in whole.split(","))[:MAX_VALUE_CHARS]


def _render_uncached(rule: Rule, groups: Mapping[str, str | None]) -> Hint:
    values = {group: normalise(value) for group, value in groups.items()}
    if rule.key_list and rule.key_group is not None:
        values[rule.key_group] = _key_list(groups.get(rule.key_group))
    text = _finish(PREFIX + rule.hint.format(**values))
    key = None
    if rule.key_group is not None and groups.get(rule.key_group) is not None:
        key = scrub(values[rule.key_group])
    return _make(rule.category, text, rule.name, key)


def _root_cause_line(source: str | BaseException) -> str | None:
    try:
        from hintline.traces import parse_trace

        root = parse_trace(source).root_cause
    except Exception:  # the fallback must not fail with the trace parser
        return None
    if root is None or not (root.type or root.message):
        return None
    return (
        f"{root.type}: {root.message}" if root.type and root.message else root.type or root.message
    )


_CHAIN_MARKERS = (
    "The above exception was the direct cause",
    "During handling of the above exception",
    "[cause]:",
    " ---> ",  # .NET inner exceptions, on the outer exception's line
    "[recovered]",  # Go: a panic re-raised while recovering names the first one before it
)
_CHAINED = LiteralScreen(_CHAIN_MARKERS)


def _needs_trace_parser(text: str, picked: str | None, strength: int) -> bool:
    """Whether the root cause may not be the line the cheap picker found.

    A chained Python traceback prints its root cause first, a Node error its ``[cause]`` inside
    braces, .NET its inner exception after ``--->`` on the outer one's line, Go the first panic
    before ``[recovered]``; there, and when the picker found no exception line at all, the trace
    parser decides.
    A Java ``Caused by:`` chain ends with its root cause, as does a single exception.
    """
    if picked is None or strength == PLAIN:
        return True
    return _CHAINED.search(text)


def fallback(text: str, source: str | BaseException | None = None) -> Hint:
    """The hint when no rule matches: the most useful line of ``text``, category ``other``.

    The root cause named by :func:`hintline.traces.parse_trace` is preferred for exception
    objects and for texts whose root cause is not their last exception line (chained Python
    tracebacks, Node ``[cause]`` chains, texts with no exception line); otherwise the cheap
    picker's line is the root cause already: the last ``Caused by:``, else the last exception
    line, else the first line that is not a stack frame.
    """
    picked, strength = pick_line_with_strength(text)
    line = None
    if isinstance(source, BaseException):
        line = _root_cause_line(source)
    elif _needs_trace_parser(text, picked, strength):
        line = _root_cause_line(text)
    line = line or picked
    if line is not None and len(line) > _MAX_CACHED_VALUE:
        return _fallback_hint_uncached(line)
    return _fallback_hint(line)


def _fallback_hint_uncached(line: str | None) -> Hint:
    if line:
        # scrubbed before links are dropped: `password: S3cret` must not lose its key
        line = keep_chain_root(scrub(_CONTROL.sub("", line)), MAX_HINT_CHARS - len(PREFIX))
    text = _finish(PREFIX + (line or "Empty error message: nothing to act on."))
    return _make(Category.OTHER, text, None, None)


_fallback_hint = functools.lru_cache(maxsize=1024)(_fallback_hint_uncached)


_SAFE = Hint(
    PREFIX + "hintline could not read this error.",
    Category.OTHER,
    None,
    None,
    Kind.RECOVERABLE,
    None,
)


def clean(error: str | bytes | BaseException) -> Hint:
    """Turn an error (text, bytes or an exception object) into a :class:`Hint`. Never raises.

    Text is bounded to 64 KiB (first 16 KiB and last 48 KiB); bytes are decoded as UTF-8 with
    replacement; an exception is read with its whole chain (causes, contexts, group members and
    their tracebacks), the innermost cause last. The first-listed rule of
    :data:`hintline.rules.RULES` that matches anywhere in the text renders the hint (see the
    rendering contract on :class:`hintline.Rule`); with no match, the fallback picks the root
    cause of the parsed trace, the last ``Caused by:``, the last exception line or the first
    line that is not a stack frame.

    Args:
        error: the error text, its raw bytes, or an exception object.

    Returns:
        The hint: ``text`` starts with ``Hint: ``, is one line of at most 240 characters and
        has been through :func:`hintline.scrub`.
    """
    try:
        text = prepare(error)
        found = _engine.match(text)
        if found is not None:
            # the rendered hint and key are scrubbed; a keyless one gets its family's key
            return _signals.complete_key(render(found.rule, found.groups), text, found.rule.pattern)
        signalled = _signals.classify(text)  # no wording rule: what the runtime's codes say
        if signalled is not None:
            return signalled
        # scrub the whole text before the fallback picks a line: the line may hold only part
        # of a multi-line secret (a PEM body line), which no pattern recognises on its own
        return fallback(scrub(text), error if isinstance(error, BaseException) else None)
    except Exception:  # clean() is total: a diagnostics library must not crash its host
        return _SAFE
