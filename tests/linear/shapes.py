"""Hostile inputs generated from the pattern tables themselves (issue 14, section 1).

For every pattern that sees untrusted text (each rule of :data:`hintline.rules.RULES`, each
secret pattern and trigger of :data:`hintline.scrub.SECRETS`, the trace readers' and log
readers' patterns), the pattern is parsed with Python's own regex parser and, for each
quantifier, shapes are built around a long run of what the quantifier accepts:

* ``open``: the text that leads to the quantifier, then the run, and nothing after;
* ``closed``: the same, then what the pattern expects after the quantifier;
* ``broken``: the run, then a character that ends it badly (``!``, a newline);
* ``many``: the lead and a short run, repeated (many attempts instead of one long one).

Beside those, per rule and per secret pattern: its own near misses and examples, repeated and
glued; and the triggers of every rule or secret glued together. Sizes are free (the test uses
64 KiB, the benchmark 64 KiB and 1 MB). Nothing here is hand-written per pattern: a new rule
or secret pattern gets its shapes without anyone writing them.
"""

from __future__ import annotations

import contextlib
import importlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

_c: Any = importlib.import_module("re._constants")
_sre: Any = importlib.import_module("re._parser")

__all__ = ["Shape", "ordinary", "pattern_shapes", "table_shapes", "trace_shapes"]

_REPEATS = (_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", None))
_LONG = 16
"""A quantifier whose upper bound is at least this (or unbounded) gets its own shapes."""
_CANDIDATES = " a1:=_-./!\"'\t@#?&;,()[]{}<>\\$%é\x01Z\n"
_CATEGORY_CHAR = {
    _c.CATEGORY_DIGIT: "1",
    _c.CATEGORY_NOT_DIGIT: "a",
    _c.CATEGORY_SPACE: " ",
    _c.CATEGORY_NOT_SPACE: "a",
    _c.CATEGORY_WORD: "a",
    _c.CATEGORY_NOT_WORD: "!",
    _c.CATEGORY_LINEBREAK: "\n",
    _c.CATEGORY_NOT_LINEBREAK: "a",
}


@dataclass(frozen=True)
class Shape:
    """One hostile input: where it comes from (``owner``), what it is (``kind``) and its text."""

    owner: str
    kind: str
    text: str


def _in_class(items: Any, ch: str) -> bool:
    """Whether ``ch`` is in the parsed character class ``items`` (case-sensitive)."""
    negate = False
    hit = False
    code = ord(ch)
    for op, av in items:
        if op is _c.NEGATE:
            negate = True
        elif op is _c.LITERAL:
            hit = hit or av == code
        elif op is _c.RANGE:
            hit = hit or av[0] <= code <= av[1]
        elif op is _c.CATEGORY:
            probe = {
                _c.CATEGORY_DIGIT: r"\d",
                _c.CATEGORY_NOT_DIGIT: r"\D",
                _c.CATEGORY_SPACE: r"\s",
                _c.CATEGORY_NOT_SPACE: r"\S",
                _c.CATEGORY_WORD: r"\w",
                _c.CATEGORY_NOT_WORD: r"\W",
            }.get(av)
            hit = hit or (probe is not None and re.fullmatch(probe, ch) is not None)
    return hit != negate


def _accepts(op: Any, av: Any) -> list[str]:
    """Characters (from a fixed candidate list) a one-character node accepts."""
    if op is _c.LITERAL:
        return [chr(av)]
    if op is _c.NOT_LITERAL:
        return [ch for ch in _CANDIDATES if ord(ch) != av]
    if op is _c.ANY:
        return [ch for ch in _CANDIDATES if ch != "\n"]
    if op is _c.IN:
        return [ch for ch in _CANDIDATES if _in_class(av, ch)]
    if op is _c.CATEGORY:
        return [_CATEGORY_CHAR.get(av, "a")]
    return []


def _witness(items: Any) -> str:
    """A short text the sequence ``items`` matches (best effort: assertions are ignored)."""
    out: list[str] = []
    for op, av in items:
        if op in (_c.LITERAL, _c.NOT_LITERAL, _c.ANY, _c.IN, _c.CATEGORY):
            chars = _accepts(op, av)
            out.append(chars[0] if chars else "a")
        elif op is _c.SUBPATTERN:
            out.append(_witness(av[3]))
        elif op in _REPEATS:
            low, _high, sub = av
            out.append(_witness(sub) * low)
        elif op is _c.BRANCH:
            out.append(_witness(av[1][0]))
        elif op is getattr(_c, "ATOMIC_GROUP", None):
            out.append(_witness(av))
    return "".join(out)


def _units(sub: Any) -> list[str]:
    """What one iteration of a repeated ``sub`` can be: its witness and single characters."""
    units: list[str] = []
    witness = _witness(sub)
    if witness:
        units.append(witness)
    if len(sub) == 1:
        op, av = sub[0]
        if op is _c.SUBPATTERN and len(av[3]) == 1:
            op, av = av[3][0]
        for ch in _accepts(op, av):
            if ch not in units:
                units.append(ch)
            if len(units) >= 4:
                break
    return units or ["a"]


def _holes(items: Any) -> Iterator[tuple[str, str, str]]:
    """``(lead, unit, after)`` for every long quantifier in ``items``, nested ones included."""
    for i, (op, av) in enumerate(items):
        inner: list[tuple[str, str, str]] = []
        if op in _REPEATS:
            _low, high, sub = av
            if high >= _LONG:
                inner.extend(("", unit, "") for unit in _units(sub))
            inner.extend(_holes(sub))
        elif op is _c.SUBPATTERN:
            inner.extend(_holes(av[3]))
        elif op is _c.BRANCH:
            for alt in av[1]:
                inner.extend(_holes(alt))
        elif op in (_c.ASSERT, _c.ASSERT_NOT):
            inner.extend(_holes(av[1]))
        elif op is getattr(_c, "ATOMIC_GROUP", None):
            inner.extend(_holes(av))
        if not inner:
            continue
        before = _witness(items[:i])
        after = _witness(items[i + 1 :])
        for lead, unit, rest in inner:
            yield before + lead, unit, rest + after


def _fill(piece: str, size: int) -> str:
    if not piece:
        return ""
    return (piece * (size // len(piece) + 1))[:size]


def pattern_shapes(owner: str, pattern: str, size: int) -> Iterator[Shape]:
    """The quantifier shapes of one pattern, each about ``size`` characters."""
    try:
        parsed = _sre.parse(pattern)
    except Exception:
        return
    seen: set[tuple[str, str, str]] = set()
    for lead, unit, after in _holes(list(parsed)):
        if (lead, unit, after) in seen:
            continue
        seen.add((lead, unit, after))
        room = max(0, size - len(lead) - len(after) - 1)
        run = _fill(unit, room)
        tag = repr(unit)[:12]
        yield Shape(owner, f"open {tag}", lead + run)
        yield Shape(owner, f"closed {tag}", lead + run + after)
        yield Shape(owner, f"broken! {tag}", lead + run + "!")
        yield Shape(owner, f"broken-nl {tag}", lead + run + "\n" + after)
        yield Shape(owner, f"many {tag}", _fill(lead + unit * 64 + "!", size))
        yield Shape(owner, f"many-glued {tag}", _fill(lead + unit * 8, size))


def _texts_shapes(owner: str, kind: str, texts: tuple[str, ...], size: int) -> Iterator[Shape]:
    for n, text in enumerate(texts[:4]):
        if not text:
            continue
        yield Shape(owner, f"{kind}{n} glued", _fill(text, size))
        yield Shape(owner, f"{kind}{n} spaced", _fill(text + " ", size))
        yield Shape(owner, f"{kind}{n} lines", _fill(text + "\n", size))


def table_shapes(size: int, *, quantifiers: bool = True) -> Iterator[Shape]:
    """Every shape of every rule and secret pattern (and their glued triggers)."""
    from hintline.rules import RULES
    from hintline.scrub import SECRETS

    triggers: list[str] = []
    for rule in RULES:
        owner = f"rule {rule.name}"
        if quantifiers:
            yield from pattern_shapes(owner, rule.pattern, size)
        yield from _texts_shapes(owner, "near", rule.near_misses, size)
        yield from _texts_shapes(owner, "example", tuple(e.input for e in rule.examples), size)
        with contextlib.suppress(Exception):
            triggers.append(_witness(list(_sre.parse(rule.pattern)))[:40])
    for secret in SECRETS:
        owner = f"secret {secret.name}"
        if quantifiers:
            yield from pattern_shapes(owner, secret.pattern, size)
            if secret.trigger:
                yield from pattern_shapes(owner + " trigger", secret.trigger, size)
        yield from _texts_shapes(owner, "near", secret.near_misses, size)
        yield from _texts_shapes(owner, "example", secret.examples, size)
        with contextlib.suppress(Exception):
            triggers.append(_witness(list(_sre.parse(secret.trigger or secret.pattern))))
    glued = "".join(triggers)
    yield Shape("all", "triggers glued", _fill(glued, size))
    yield Shape("all", "triggers spaced", _fill(" ".join(triggers), size))
    yield Shape("all", "triggers lines", _fill("\n".join(triggers), size))


# What puts a reader in the state where its patterns run: a trace's first lines, per module.
_TRACE_HEADS = {
    "_jvm": "java.lang.IllegalStateException: boom\n\tat a.b.C.d(C.java:1)\n",
    "_python": 'Traceback (most recent call last):\n  File "/a/x.py", line 1, in f\n',
    "_node": "Error: boom\n    at f (/a/x.js:1:2)\n",
    "_php": "PHP Fatal error:  Uncaught Exception: boom in /a/x.php:1\nStack trace:\n#0 /a/x.php(1): f()\n",
    "_go": "panic: boom\n\ngoroutine 1 [running]:\nmain.f()\n\t/a/x.go:1 +0x1d\n",
    "_rust": "thread 'main' panicked at src/main.rs:1:1:\nboom\nstack backtrace:\n   0: f\n             at ./src/main.rs:1:1\n",
    "_ruby": "a.rb:1:in `f': boom (RuntimeError)\n\tfrom a.rb:1:in `g'\n",
    "_dotnet": "System.Exception: boom\n   at A.B() in /a.cs:line 1\n",
}


def trace_shapes(size: int) -> Iterator[Shape]:
    """The quantifier shapes of every trace reader pattern (hintline.traces._patterns), as
    lines the readers read (at most the pattern's window, which is a line for most), repeated
    to ``size`` after the first lines of a trace of the pattern's language; and glued whole."""
    from hintline.traces._patterns import PATTERNS
    from hintline.traces._raw import MAX_LINE

    for p in PATTERNS:
        if p.call == "none":
            continue
        head = _TRACE_HEADS.get(p.name.split(".", 1)[0], "")
        line_size = min(p.window or MAX_LINE, MAX_LINE) - 8
        for shape in pattern_shapes(f"trace {p.name}", p.pattern.pattern, line_size):
            yield Shape(shape.owner, f"{shape.kind} lines", head + _fill(shape.text + "\n", size - len(head)))
            yield Shape(shape.owner, f"{shape.kind} glued", head + _fill(shape.text, size - len(head)))


def ordinary(size: int) -> str:
    """Ordinary text of ``size`` characters: real JVM traces (benchmarks/data/defects4j, MIT)."""
    from pathlib import Path

    data = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "defects4j"
    names = ("Math-25", "Compress-28", "Csv-7", "Jsoup-85")
    block = "\n".join((data / f"{n}.txt").read_text(encoding="utf-8") for n in names)
    return _fill(block, size)
