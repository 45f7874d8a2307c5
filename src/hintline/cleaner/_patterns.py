"""What the engines need to know about a rule's Python ``re`` pattern.

* :func:`required_literals`: strings of which at least one must occur in any text the
  pattern matches (the stdlib engine's cheap ``in`` guard).
* :func:`may_span_lines`: whether a match can contain a newline (if not, the engine can
  search for the captures from the start of the line where the multi-pattern engine saw the
  match end, instead of from the start of the text).
* :func:`to_hyperscan`: the pattern rewritten for Hyperscan so that its matches are a
  *superset* of Python's: Python's ``\\w``, ``\\d``, ``\\s`` and ``\\b`` are Unicode-aware, so
  each is widened to accept any non-ASCII character (a false positive only costs an ``re``
  verification; a false negative would change the winner).

Everything here is total: a construct it does not understand gives the conservative answer
(no guard, may span lines, not compilable by Hyperscan).
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from typing import Any

from hintline import _lazyre as re  # patterns compiled on first use

_c: Any
_sre: Any
try:  # Python >= 3.11
    _c = importlib.import_module("re._constants")
    _sre = importlib.import_module("re._parser")
except ImportError:  # Python 3.10
    _c = importlib.import_module("sre_constants")
    _sre = importlib.import_module("sre_parse")

__all__ = [
    "Guard",
    "HyperscanPattern",
    "every_required_literals",
    "may_span_lines",
    "required_literals",
    "to_hyperscan",
]

_MIN_LITERAL = 3
_MIN_LAST_LITERAL = 8
_NEWLINE = 10


@dataclass(frozen=True, slots=True)
class Guard:
    """At least one of ``literals`` occurs in any matching text (casefolded if ``caseless``)."""

    literals: tuple[str, ...]
    caseless: bool


def _subpattern_caseless(av: Any, caseless: bool) -> bool:
    _group, add, delete, _sub = av
    if add & _c.SRE_FLAG_IGNORECASE:
        return True
    if delete & _c.SRE_FLAG_IGNORECASE:
        return False
    return caseless


_Req = tuple[frozenset[str], bool]


def _score(req: _Req) -> tuple[int, int]:
    literals, _ = req
    return (min(len(s) for s in literals), -len(literals))


def _best(reqs: list[_Req]) -> _Req | None:
    return max(reqs, key=_score) if reqs else None


def _requirements(items: Any, caseless: bool) -> list[_Req]:
    """Requirements of a sequence: each a set of strings one of which must occur."""
    reqs: list[_Req] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            reqs.append((frozenset({"".join(run)}), caseless))
            run.clear()

    for op, av in items:
        if op is _c.LITERAL:
            run.append(chr(av))
            continue
        flush()
        if op is _c.SUBPATTERN:
            reqs.extend(_requirements(av[3], _subpattern_caseless(av, caseless)))
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", None)):
            low, _high, sub = av
            if low >= 1:
                reqs.extend(_requirements(sub, caseless))
        elif op is getattr(_c, "ATOMIC_GROUP", None):
            reqs.extend(_requirements(av, caseless))
        elif op is _c.BRANCH:
            alternatives = [_best(_requirements(alt, caseless)) for alt in av[1]]
            if alternatives and all(a is not None for a in alternatives):
                chosen = [a for a in alternatives if a is not None]
                any_caseless = any(ci for _, ci in chosen)
                merged = frozenset(
                    s.casefold() if any_caseless else s for lits, _ in chosen for s in lits
                )
                reqs.append((merged, any_caseless))
    flush()
    return reqs


@functools.lru_cache(maxsize=4096)
def _parse(pattern: str) -> Any:
    return _sre.parse(pattern)


def required_literals(pattern: str, *, last: bool = False) -> Guard | None:
    """A guard for ``pattern``: literals one of which any match contains, or ``None``.

    By default the requirement with the longest literals is chosen; ``last=True`` chooses the
    rightmost one whose literals have at least eight characters (the error line of a multi-line
    pattern, which is rarer in real text than the frame lines before it).
    """
    try:
        parsed = _parse(pattern)
        caseless = bool(parsed.state.flags & _c.SRE_FLAG_IGNORECASE)
        reqs = _requirements(parsed, caseless)
        if last:
            reqs = [r for r in reqs if min(len(s) for s in r[0]) >= _MIN_LAST_LITERAL][-1:] or reqs
        best = _best(reqs)
    except Exception:  # any parser oddity: no guard
        return None
    if best is None:
        return None
    literals, ci = best
    if min(len(s) for s in literals) < _MIN_LITERAL:
        return None
    if ci:
        if not all(s.isascii() for s in literals):
            return None
        literals = frozenset(s.casefold() for s in literals)
    return Guard(tuple(sorted(literals)), ci)


def every_required_literals(pattern: str) -> tuple[Guard, ...]:
    """Every requirement of ``pattern`` (not only the best, as :func:`required_literals`
    gives): any match contains one literal of each (casefolded where ``caseless``). Literals
    shorter than three characters, and caseless ones that are not ASCII, are left out; a
    pattern the parser cannot read gives none."""
    try:
        parsed = _parse(pattern)
        reqs = _requirements(parsed, bool(parsed.state.flags & _c.SRE_FLAG_IGNORECASE))
    except Exception:  # any parser oddity: no requirement
        return ()
    out: list[Guard] = []
    for literals, ci in reqs:
        if min(len(s) for s in literals) < _MIN_LITERAL:
            continue
        if ci:
            if not all(s.isascii() for s in literals):
                continue
            literals = frozenset(s.casefold() for s in literals)
        guard = Guard(tuple(sorted(literals)), ci)
        if guard not in out:
            out.append(guard)
    return tuple(out)


_CLASS_NEWLINE = {
    _c.CATEGORY_SPACE: True,
    _c.CATEGORY_NOT_WORD: True,
    _c.CATEGORY_NOT_DIGIT: True,
    _c.CATEGORY_LINEBREAK: True,
    _c.CATEGORY_NOT_SPACE: False,
    _c.CATEGORY_WORD: False,
    _c.CATEGORY_DIGIT: False,
    _c.CATEGORY_NOT_LINEBREAK: False,
}


def _class_has_newline(items: Any) -> bool:
    """Whether a character class ``[...]`` matches a newline."""
    negate = False
    contains = False
    for op, av in items:
        if op is _c.NEGATE:
            negate = True
        elif op is _c.LITERAL:
            contains = contains or av == _NEWLINE
        elif op is _c.RANGE:
            contains = contains or av[0] <= _NEWLINE <= av[1]
        elif op is _c.CATEGORY and av in _CLASS_NEWLINE:
            contains = contains or _CLASS_NEWLINE[av]
        else:
            return True
    return not contains if negate else contains


def _spans(items: Any, dotall: bool) -> bool:
    for op, av in items:
        if op is _c.LITERAL:
            if av == _NEWLINE:
                return True
        elif op is _c.NOT_LITERAL:
            if av != _NEWLINE:
                return True
        elif op is _c.ANY:
            if dotall:
                return True
        elif op is _c.IN:
            if _class_has_newline(av):
                return True
        elif op is _c.SUBPATTERN:
            _group, add, delete, sub = av
            inner = (dotall or bool(add & _c.SRE_FLAG_DOTALL)) and not delete & _c.SRE_FLAG_DOTALL
            if _spans(sub, inner):
                return True
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", None)):
            if _spans(av[2], dotall):
                return True
        elif op is getattr(_c, "ATOMIC_GROUP", None):
            if _spans(av, dotall):
                return True
        elif op is _c.BRANCH:
            if any(_spans(alt, dotall) for alt in av[1]):
                return True
        elif op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
            continue  # zero-width: consumes nothing
        else:  # group references, conditionals, anything new: be conservative
            return True
    return False


def may_span_lines(pattern: str) -> bool:
    """Whether a match of ``pattern`` can contain a newline (conservative: ``True`` if unsure)."""
    try:
        parsed = _parse(pattern)
        return _spans(parsed, bool(parsed.state.flags & _c.SRE_FLAG_DOTALL))
    except Exception:
        return True


@dataclass(frozen=True, slots=True)
class HyperscanPattern:
    """A pattern rewritten for Hyperscan: the UTF-8 expression and the flag names to set."""

    expression: bytes
    caseless: bool
    dotall: bool
    multiline: bool
    caseless_anywhere: bool


_NON_ASCII = r"\x{80}-\x{10FFFF}"
_WIDEN = {"w": r"\w", "d": "0-9", "s": r"\s\x1c-\x1f"}
_LEADING_FLAGS = re.compile(r"\(\?([aiLmsux]+)\)")
_SCOPED_FLAGS = re.compile(r"\(\?([aiLmsux]*)(?:-([imsx]+))?:")
_ASCII_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_QUANTIFIERS = frozenset("?*+{")
_BOUNDED = re.compile(r"\{(\d*)(,?)(\d*)\}")
_MAX_BOUND = 8
"""Bounded repeats longer than this become unbounded for Hyperscan: ``x{1,128}`` is costly to
compile in UTF-8 mode and ``x{1,}`` only widens the match."""


class _Untranslatable(Exception):
    """The pattern uses a construct that cannot be widened safely for Hyperscan."""


def _boundary_is_safe(pattern: str, at: int) -> bool:
    """Keep ``\\b`` at ``at`` when one side of it is a literal ASCII word character.

    Python's ``\\b`` is Unicode-aware; Hyperscan's (without UCP) is ASCII. Next to a literal
    ASCII word character, Hyperscan's boundary holds whenever Python's does.
    """
    before = pattern[at - 1] if at >= 1 else ""
    escaped_before = at >= 2 and pattern[at - 2] == "\\"
    if before in _ASCII_WORD and not escaped_before:
        return True
    after = pattern[at + 2] if at + 2 < len(pattern) else ""
    after2 = pattern[at + 3] if at + 3 < len(pattern) else ""
    return after in _ASCII_WORD and after2 not in _QUANTIFIERS


def _escape(pattern: str, i: int, in_class: bool, negated: bool, ascii_only: bool) -> str:
    """Translate the escape at ``pattern[i]`` (a backslash)."""
    if i + 1 >= len(pattern):
        raise _Untranslatable
    nxt = pattern[i + 1]
    esc = pattern[i : i + 2]
    if nxt in "wds" and not ascii_only:
        if in_class:
            if negated:
                return esc  # [^\w] in ASCII is wider than Python's
            return _WIDEN[nxt] + _NON_ASCII
        return f"[{_WIDEN[nxt]}{_NON_ASCII}]"
    if nxt in "WDS":
        if in_class and negated and not ascii_only:
            raise _Untranslatable
        return esc
    if in_class:
        if nxt in "uUN":
            raise _Untranslatable
        return esc
    if nxt == "b":
        return esc if ascii_only or _boundary_is_safe(pattern, i) else ""
    if nxt == "B":
        return "" if not ascii_only else esc
    if nxt == "Z":
        return r"\z"
    if nxt in "uUN":
        raise _Untranslatable
    return esc


def _repeat(low: str, comma: str, high: str) -> str:
    """A repeat ``{low,high}`` for Hyperscan: Python's ``{,n}`` spelled out, long ones unbounded."""
    lo = int(low or 0)
    if not comma:
        return f"{{{lo}}}" if lo <= _MAX_BOUND else f"{{{lo},}}"
    if high and int(high) <= _MAX_BOUND:
        return f"{{{lo},{int(high)}}}"
    return f"{{{lo},}}"


def _group_end(pattern: str, start: int) -> int:
    """Index of the ``)`` closing the group opened at ``pattern[start]``."""
    depth = 0
    i = start
    in_class = False
    class_start = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            if c == "]" and i > class_start:
                in_class = False
        elif c == "[":
            in_class = True
            class_start = i + (2 if pattern.startswith("[^", i) else 1)
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise _Untranslatable


_LOOKAROUNDS = ("(?=", "(?!", "(?<=", "(?<!")


def _translate(pattern: str, ascii_only: bool) -> str:
    out: list[str] = []
    i = 0
    n = len(pattern)
    in_class = False
    negated = False
    class_start = 0
    while i < n:
        c = pattern[i]
        if c == "\\":
            out.append(_escape(pattern, i, in_class, negated, ascii_only))
            i += 2
            continue
        if in_class:
            if c == "]" and i > class_start:
                in_class = False
            elif c == "[":
                c = r"\["
            out.append(c)
            i += 1
            continue
        if c == "[":
            in_class = True
            negated = pattern.startswith("[^", i)
            class_start = i + (2 if negated else 1)
            if class_start < n and pattern[class_start] == "]":  # leading ] is literal
                out.append(pattern[i:class_start] + r"\]")
                i = class_start + 1
                class_start = i
                continue
            out.append(pattern[i:class_start])
            i = class_start
            continue
        if c == "(" and pattern.startswith(_LOOKAROUNDS, i):
            # A zero-width assertion only narrows a match: dropping it gives a superset.
            i = _group_end(pattern, i) + 1
            continue
        if c == "(" and pattern.startswith("(?", i):
            scoped = _SCOPED_FLAGS.match(pattern, i)
            if scoped and set(scoped.group(1)) & set("aLux"):
                raise _Untranslatable
            if pattern.startswith(("(?P=", "(?("), i):
                raise _Untranslatable  # backreferences and conditionals
        if c == "{":
            bounded = _BOUNDED.match(pattern, i)
            if bounded and (bounded.group(1) or bounded.group(3)):
                out.append(_repeat(*bounded.groups()))
                i = bounded.end()
                continue
        out.append(c)
        i += 1
    if in_class:
        raise _Untranslatable
    return "".join(out)


def to_hyperscan(pattern: str) -> HyperscanPattern | None:
    """Rewrite ``pattern`` for Hyperscan (UTF-8 mode, no UCP), or ``None`` if it cannot be.

    Matches of the result are a superset of Python's matches on any valid UTF-8 text, except
    for the case-insensitive special cases the caller handles (see
    :data:`hintline.cleaner._vectorscan.CASEFOLD_SPECIALS`).
    """
    flags = ""
    body = pattern
    leading = _LEADING_FLAGS.match(pattern)
    if leading:
        flags = leading.group(1)
        body = pattern[leading.end() :]
    if set(flags) & set("Lx"):
        return None
    caseless = "i" in flags or "(?i" in body or bool(re.search(r"\(\?[a-z]*i[a-z]*[:)]", body))
    if caseless and not pattern.isascii():
        return None  # Hyperscan without UCP folds ASCII letters only
    try:
        expression = _translate(body, ascii_only="a" in flags)
    except _Untranslatable:
        return None
    return HyperscanPattern(
        expression.encode("utf-8"),
        caseless="i" in flags,
        dotall="s" in flags,
        multiline="m" in flags,
        caseless_anywhere=caseless,
    )
