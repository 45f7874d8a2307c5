"""Render a hint: a rule's template filled with its normalised captures, or a fallback line,
as one scrubbed ``Hint: `` line of at most 240 characters."""

from __future__ import annotations

import operator
import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from hintline import _lazyre as re  # patterns compiled on first use
from hintline import scrub as _scrub_package
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


# The frozen dataclass's ``__init__`` sets each field through ``object.__setattr__`` (about
# 0.8 µs a hint); the hot path sets the slots directly: the same object, half the cost.
_new_object = object.__new__
_set_text, _set_category, _set_rule, _set_key, _set_kind, _set_retry = (
    Hint.__dict__[name].__set__ for name in ("text", "category", "rule", "key", "kind", "retry")
)


def _new_hint(
    text: str, category: Category, rule: str | None, key: str | None, kind: Kind, retry: Retry | None
) -> Hint:
    """``Hint(text, category, rule, key, kind, retry)``, built without the dataclass's
    ``__init__`` (``tests/cleaner/test_render.py`` checks they are equal, alike in every way)."""
    hint: Hint = _new_object(Hint)
    _set_text(hint, text)
    _set_category(hint, category)
    _set_rule(hint, rule)
    _set_key(hint, key)
    _set_kind(hint, kind)
    _set_retry(hint, retry)
    return hint


# a category's kind and retry are properties (an Enum's hash is computed in Python): looked up
# once here, by the member's value (a str, whose hash is cached)
_KIND_RETRY: dict[str, tuple[Kind, Retry | None]] = {
    category._value_: (category.kind, category.retry) for category in Category
}


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
    if len(value) <= MAX_VALUE_CHARS and "," not in value and value.isascii() and value.isprintable():
        # printable ASCII (no control character, no whitespace but the space), no composite,
        # not too long: nothing to remove, scrub or cut below (`user_id`, `'users'`)
        if " " in value:
            value = " ".join(value.split())
        return _strip_pairs(value) if value[:1] in _PAIRS else value
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
    text = valid_text(text)
    return _finish(text, scrub(text))


def _finish(text: str, scrubbed: str) -> str:
    """:func:`finish` of ``text`` (valid Unicode) given ``scrubbed``, its :func:`scrub`."""
    text = scrubbed
    # collapse whitespace, unless there is nothing to collapse (printable: no whitespace but
    # the ASCII space; no run of spaces, none at the ends)
    if not text.isprintable() or "  " in text or text[:1] == " " or text[-1:] == " ":
        text = " ".join(text.split())
    if not text.startswith(PREFIX):
        text = PREFIX + text
    return cut_scrubbed(text, MAX_HINT_CHARS, _ELLIPSIS)


def make(category: Category, text: str, rule: str | None, key: str | None) -> Hint:
    kind, retry = _KIND_RETRY[category._value_]
    return _new_hint(text, category, rule, key, kind, retry)


def make_hint(category: Category, text: str, rule: str | None, key: str | None) -> Hint:
    """A hint of ``category`` whose ``text`` (without the prefix) is finished as a rule's is:
    whitespace collapsed, scrubbed, cut to 240 characters. ``key`` must be scrubbed already."""
    return make(category, finish(PREFIX + text), rule, key)


def render(rule: Rule, groups: Mapping[str, str | None]) -> Hint:
    """Render the hint of ``rule`` from its named ``groups`` (the rendering contract of ``Rule``).

    Rendering is deterministic, so the last 1,024 distinct renderings are cached: an agent that
    repeats a failing call gets its hint without normalising and scrubbing again. A first-seen
    rendering does per call only what depends on the values: a plain value is kept as it is,
    one prefilter scan of the filled template answers for the hint and its key when it finds no
    trigger (else both are scrubbed in full), and the ``Hint`` is built by setting its slots.
    ``tests/cleaner/test_render_fast.py`` holds it to the contract read step by step.
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
    return cut_scrubbed(scrub(_joined(value)), MAX_VALUE_CHARS, "")


def _joined(value: str) -> str:
    """A key list's parts, each normalised, joined by ``, `` (not yet scrubbed nor cut)."""
    whole = normalise(value, split=False)
    return ", ".join(normalise(part, split=False) for part in whole.split(","))


def _quiet(text: str) -> bool:
    """Whether the scrubber's prefilter finds no trigger in ``text``, so that :func:`scrub`
    returns it, and every substring of it, unchanged (``False`` when it cannot tell).

    A substring too: each trigger is a pattern without anchors, word boundaries or
    look-arounds (checked once, :func:`_prefilter_scan`), so a trigger matching inside a part
    of ``text`` matches inside ``text``; and :func:`scrub` returns a text in which no trigger
    fires as it is. One prefilter scan thus answers for a rendered hint and its key.
    """
    scrubber = _scrub_package._DEFAULT
    if _scan[0] is not scrubber:
        _scan[:] = [scrubber, _prefilter_scan(scrubber)]
    fired = _scan[1]
    if fired is None:
        return False
    try:
        found = fired(text)
    except Exception:  # scrub decides
        return False
    return found is not None and not found


_scan: list[Any] = [None, None]
"""The scrubber :func:`_quiet` last saw and its prefilter's scan (``None``: no shortcut)."""


def _prefilter_scan(scrubber: object) -> Callable[[str], Any] | None:
    """The prefilter scan of ``scrubber`` (``fired``: the triggers found in a text, empty when
    :func:`scrub` returns the text as it is, ``None`` when it cannot tell) if every trigger
    matches by its characters alone (no assertion), so that whatever it matches in a substring
    it matches in the whole; else ``None``."""
    prefilter = getattr(scrubber, "_prefilter", None)
    if prefilter is None:
        return None
    try:
        triggers = [p.trigger or p.pattern for p in prefilter._patterns]
        if all(_no_assertion(trigger) for trigger in triggers):
            return prefilter.fired  # type: ignore[no-any-return]
    except Exception:  # an unreadable trigger: no shortcut
        pass
    return None


_PLAINLY_NO_ASSERTION = re.compile(
    r"""(?:
        [^\\\[(^$]                                       # a character that opens nothing
      | \\(?:[^A-Za-z0-9]|[dDsSwWfnrtv]|x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})
      | (?>\[\^?\]?(?:\\.|[^\]\\])*\])                    # a class, read as re reads it
      | \((?:(?!\?)|\?(?::|P<\w+>|[aiLmsu]+(?:-[imsu]+)?[:)]))  # a group that asserts nothing
    )*+""",
    re.VERBOSE,
)
"""A pattern this matches whole has no assertion: it is made of characters, the escapes of a
character or a class, classes and the groups that assert nothing; anything else (an anchor, a
boundary, a look-around, a back-reference, a conditional, a comment, verbose mode) is left to
the parser. Parsing the scrubber's 31 triggers costs some 6 ms of a process's first clean()."""


def _no_assertion(pattern: str) -> bool:
    """Whether ``pattern`` has no anchor, boundary, look-around or back-reference."""
    if _PLAINLY_NO_ASSERTION.fullmatch(pattern) is not None:
        return True
    from re import _constants as constants  # type: ignore[attr-defined]
    from re import _parser as parser  # type: ignore[attr-defined]

    banned = {
        constants.AT,
        constants.ASSERT,
        constants.ASSERT_NOT,
        constants.GROUPREF,
        constants.GROUPREF_EXISTS,
        constants.GROUPREF_IGNORE,
        constants.GROUPREF_LOC_IGNORE,
        constants.GROUPREF_UNI_IGNORE,
    }
    from hintline.scrub._scrubber import parsed_trigger  # the tree the scrubber parsed

    stack: list[object] = [parsed_trigger(pattern)]
    while stack:
        item = stack.pop()
        if isinstance(item, parser.SubPattern):  # type: ignore[attr-defined]
            for op, av in item.data:
                if op in banned:
                    return False
                stack.append(av)
        elif isinstance(item, (tuple, list)):
            stack.extend(item)
    return True


# --- a first-seen rendering of plain values --------------------------------------------------
#
# Most captures are identifiers or a few words (`user_id`, `users`, `/v1/orders`, `db:5432`,
# `lock timeout`): printable ASCII, single spaces between words, no comma, not too long, not
# opening a pair. Such a value normalises to itself (as a key list too), so the hint is the
# template filled with the raw values; and when the template (checked once, :func:`_plan`) is
# one printable line without a run of spaces or a trailing space, such a value (non-empty, no
# space at either end, none doubled) cannot make one, so there is nothing to collapse either.
# What is left per call depends on the values only: one check that they are plain, one
# prefilter scan of the filled template (as in the general path), the cut, the ``Hint``.
# Anything else (a value to normalise, a secret the scan finds, no prefilter) takes the general
# path, which answers as the contract reads (``tests/cleaner/test_render_fast.py``).

_PLAIN_FIRST = "".join(
    re.escape(c) for c in map(chr, range(0x21, 0x7F)) if c != "," and c not in _PAIRS
)
_PLAIN_REST = "".join(re.escape(c) for c in map(chr, range(0x20, 0x7F)) if c != ",")
_PLAIN_VALUE = f"[{_PLAIN_FIRST}][{_PLAIN_REST}]{{0,{MAX_VALUE_CHARS - 1}}}"
"""A value :func:`normalise` returns as it is (with or without ``split``) if, besides, it has
no space at its end nor two in a row (:func:`_plain_spaces`): 1-64 printable ASCII
characters, no comma, no space at its start, not opening a pair."""


def _plain_spaces(joined: str) -> bool:
    """Whether the values joined by NUL in ``joined`` (each matching :data:`_PLAIN_VALUE`, so
    none starting with a space) have no space at their end nor two in a row."""
    return " " not in joined or (
        "  " not in joined and " \x00" not in joined and joined[-1] != " "
    )


class _Plan(NamedTuple):
    """How :func:`_render_uncached` fills a template with plain values."""

    form: str
    """``PREFIX + template`` as a ``%`` format: each field a ``%s``, a literal ``%`` doubled."""
    values: Callable[[Mapping[str, str | None]], Any] | None
    """The fields' values in the template's order (a tuple; one value alone when there is one
    field); ``None`` when the template has no field (``form`` is then the text)."""
    single: bool
    """Whether the template has exactly one field."""
    fields: frozenset[str]
    """The template's field names."""
    plain: Callable[[str], Any]
    """Whether the values joined by NUL are that many values of the form :data:`_PLAIN_VALUE`,
    no more (a value holding a NUL is not plain), no fewer."""


_plans: dict[str, _Plan | None] = {}
"""Per hint template (rule data, not input, so not emptied by ``caches.clear``): its plan."""


def _plan(template: str) -> _Plan | None:
    """The plan of ``template`` when filling it with plain values gives a finished hint but for
    the scrub and the cut: every field a bare name; with each field filled, valid Unicode,
    printable (one line), no two spaces in a row, no space at the end. A non-empty value without
    spaces keeps all of that true whatever it is, so checking one filling (``x``) checks them
    all. ``None``: the general path renders this template."""
    if template in _plans:
        return _plans[template]
    plan = None
    try:
        form = [PREFIX]
        order: list[str] = []
        for literal, field, spec, conversion in string.Formatter().parse(template):
            form.append(literal.replace("%", "%%"))
            if field is not None:
                if not field.isidentifier() or spec or conversion:
                    raise ValueError(field)
                form.append("%s")
                order.append(field)
        sample = (PREFIX + template).format_map(dict.fromkeys(order, "x"))
        sample.encode("utf-8")
        if sample.isprintable() and "  " not in sample and sample[-1:] != " ":
            text = "".join(form)
            if not order:
                text = text % ()
            plan = _Plan(
                text,
                operator.itemgetter(*order) if order else None,
                len(order) == 1,
                frozenset(order),
                re.compile(
                    f"{_PLAIN_VALUE}(?:\\x00{_PLAIN_VALUE}){{{max(0, len(order) - 1)}}}"
                ).fullmatch,
            )
            filled = plan.form % (tuple("x" * len(order)) if order else ())
            if filled != sample:  # the two fillings agree, or no plan
                plan = None
    except Exception:  # the general path answers (or raises) as it always has
        plan = None
    if len(_plans) >= 4096:
        _plans.clear()
    _plans[template] = plan
    return plan


def _render_uncached(rule: Rule, groups: Mapping[str, str | None]) -> Hint:
    try:
        plan = _plans[rule.hint]
    except KeyError:
        plan = _plan(rule.hint)
    if plan is not None:
        formatted, fill, single, fields, plain = plan
        key_group = rule.key_group
        # the key, when there is one, is a field: in the hint, whose scan answers for it
        if key_group is None or key_group in fields:
            key = None if key_group is None else groups.get(key_group)
            if fill is not None:
                try:
                    args = fill(groups)
                    if single:
                        args = (args,)
                    try:
                        joined = "\x00".join(args)
                        plain_args = plain(joined) is not None and (
                            " " not in joined or _plain_spaces(joined)
                        )
                    except TypeError:  # a group that did not take part (None)
                        plain_args = False
                    if not plain_args:
                        # normalised, are they plain? (`'users'` is; a key list is read whole)
                        key_list = rule.key_list
                        values = {
                            field: normalise(groups[field], split=not key_list or field != key_group)
                            for field in fields
                        }
                        args = fill(values)
                        if single:
                            args = (args,)
                        joined = "\x00".join(args)
                        if plain(joined) is None or not _plain_spaces(joined):
                            return _render_general(rule, groups)
                        if key is not None:
                            key = values[key_group]  # type: ignore[index]
                except Exception:  # a missing group, a value not a str: as the general path says
                    return _render_general(rule, groups)
                formatted %= args
            scrubber = _scrub_package._DEFAULT
            if _scan[0] is not scrubber:
                _scan[:] = [scrubber, _prefilter_scan(scrubber)]
            fired = _scan[1]
            try:
                found = None if fired is None else fired(formatted)
            except Exception:  # scrub decides
                found = None
            if found is not None and not found:
                if len(formatted) > MAX_HINT_CHARS:
                    formatted = cut_scrubbed(formatted, MAX_HINT_CHARS, _ELLIPSIS)
                category = rule.category
                kind, retry = _KIND_RETRY[category._value_]
                hint: Hint = _new_object(Hint)
                _set_text(hint, formatted)
                _set_category(hint, category)
                _set_rule(hint, rule.name)
                _set_key(hint, key)
                _set_kind(hint, kind)
                _set_retry(hint, retry)
                return hint
    return _render_general(rule, groups)


def _render_general(rule: Rule, groups: Mapping[str, str | None]) -> Hint:
    values = {group: normalise(value) for group, value in groups.items()}
    key_group = rule.key_group
    pending = None  # a key list that fits, put in unscrubbed: the hint's scan answers for it
    if rule.key_list and key_group is not None:
        raw = groups.get(key_group)
        joined = None if raw is None else _joined(raw)
        if joined is not None and len(joined) <= MAX_VALUE_CHARS:
            values[key_group] = pending = joined
        else:
            values[key_group] = _key_list(raw)
    formatted = valid_text(PREFIX + rule.hint.format_map(values))
    # one prefilter scan answers for the hint, its key and a pending key list when it finds
    # nothing (_quiet); else each is scrubbed as before
    quiet = _quiet(formatted)
    if pending is not None and key_group is not None and not (quiet and pending in formatted):
        values[key_group] = _key_list(groups.get(key_group))
        formatted = valid_text(PREFIX + rule.hint.format_map(values))
        quiet = _quiet(formatted)
    if quiet and formatted.isprintable() and "  " not in formatted and formatted[-1:] != " ":
        # _finish with nothing to do but the cut: scrubbed (quiet), one line, starts with PREFIX
        text = cut_scrubbed(formatted, MAX_HINT_CHARS, _ELLIPSIS)
    else:
        text = _finish(formatted, formatted if quiet else scrub(formatted))
    key = None
    if key_group is not None and groups.get(key_group) is not None:
        key = values[key_group]
        if not (quiet and key in formatted):
            key = scrub(key)
    category = rule.category
    kind, retry = _KIND_RETRY[category._value_]
    return _new_hint(text, category, rule.name, key, kind, retry)
