"""Python ``re`` patterns rewritten for RE2 so that both mean the same thing.

RE2 matches in time linear in the text; Python's ``re`` backtracks and can take quadratic or
worse time on text built to hurt a pattern. :func:`to_re2` rewrites a pattern so that RE2
finds the same first match with the same groups as Python (leftmost-first semantics are the
same in both; the constructs that differ are spelt out):

* ``\\d``, ``\\w`` and ``\\s`` are Unicode-aware in Python and ASCII in RE2: they become
  ``\\p{Nd}``, ``[\\p{L}\\p{N}_]`` and Python's own list of whitespace. (Equal on every
  character Python's Unicode database assigns; RE2's tables may know characters assigned
  in a later Unicode version.)
* Case-insensitive ``i``: Python also folds U+0130 and U+0131 to it; RE2 does not, so they
  are added.
* ``$`` without ``(?m)`` also matches before a final newline in Python; ``\\Z`` is ``\\z``.
* ``\\b`` and ``\\B`` are ASCII word boundaries in RE2. Patterns keep that meaning on every
  engine: :func:`python_form` rewrites them to ``(?a:\\b)`` for the Python fallback.

A pattern using a construct RE2 lacks (look-arounds, backreferences, atomic groups,
possessive quantifiers, conditionals, verbose or ASCII flags) gives ``None`` with the reason
from :func:`why_not`; such patterns run on ``re`` inside a bounded window instead.
"""

from __future__ import annotations

import functools
import re

__all__ = ["SPACE_CLASS", "Untranslatable", "python_form", "to_re2", "why_not"]

SPACE_CLASS = (
    r"\t-\r\x{1c}-\x{20}\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}"
    r"\x{205f}\x{3000}"
)
"""Exactly the characters Python's ``\\s`` matches in a ``str`` pattern (``str.isspace``)."""
_WORD = r"\p{L}\p{N}_"
_DIGIT = r"\p{Nd}"
_DOTTED_I = r"\x{130}\x{131}"  # İ and ı: Python's (?i) folds both to i, RE2's does not
_MAX_COUNT = 1000  # RE2's limit on {n,m}
_SIMPLE = frozenset("ntrfva\\")


class Untranslatable(ValueError):
    """The pattern uses a construct RE2 does not have; the message says which."""


_FLAG_GROUP = re.compile(r"\(\?([a-zA-Z]*)(?:-([a-zA-Z]+))?([:)])")
_COUNT = re.compile(r"\{(\d*)(,?)(\d*)\}")


def _escape_char(ch: str) -> str:
    return f"\\x{{{ord(ch):x}}}"


_ASCII_SPACE = r"\t-\r\x{1c}-\x{20}"
_ASCII_WORD = "0-9A-Za-z_"


class _Translator:
    def __init__(self, pattern: str, ascii_text: bool = False) -> None:
        self.p = pattern
        self.space = _ASCII_SPACE if ascii_text else SPACE_CLASS
        self.word = _ASCII_WORD if ascii_text else _WORD
        self.digit = "0-9" if ascii_text else _DIGIT
        self.i = 0
        self.out: list[str] = []
        self.flags: list[set[str]] = [set()]

    @property
    def caseless(self) -> bool:
        return "i" in self.flags[-1]

    @property
    def multiline(self) -> bool:
        return "m" in self.flags[-1]

    def run(self) -> str:
        p = self.p
        n = len(p)
        while self.i < n:
            c = p[self.i]
            if c == "\\":
                self.out.append(self._escape(in_class=False))
            elif c == "[":
                self._class()
            elif c == "(":
                self._open()
            elif c == ")":
                if len(self.flags) > 1:
                    self.flags.pop()
                self.out.append(")")
                self.i += 1
            elif c == "$":
                self._dollar()
            elif c in "*+?":
                self.out.append(c)
                self.i += 1
                self._possessive()
            elif c == "{":
                self._count()
            elif c in "iI" and self.caseless:
                self.out.append(f"[iI{_DOTTED_I}]")
                self.i += 1
            else:
                self.out.append(c)
                self.i += 1
        return "".join(self.out)

    def _possessive(self) -> None:
        if self.p.startswith("+", self.i):
            raise Untranslatable("possessive quantifier")
        if self.p.startswith("?", self.i):  # lazy
            self.out.append("?")
            self.i += 1

    def _count(self) -> None:
        m = _COUNT.match(self.p, self.i)
        if m is None or not (m.group(1) or m.group(3)):
            self.out.append(r"\{")  # a literal brace, as Python reads it
            self.i += 1
            return
        low, comma, high = m.groups()
        if int(low or 0) > _MAX_COUNT or (high and int(high) > _MAX_COUNT):
            raise Untranslatable(f"repeat count above {_MAX_COUNT}")
        self.out.append(f"{{{low or 0}{comma}{high}}}")
        self.i = m.end()
        self._possessive()

    def _dollar(self) -> None:
        self.i += 1
        if self.multiline:
            self.out.append("$")
            return
        # Python's $ also matches before a newline that ends the text. Spelt as \n?\z it
        # consumes that newline, which is the same only where nothing follows.
        if self.p[self.i :].strip(")"):
            raise Untranslatable("$ before more pattern without (?m)")
        self.out.append(r"(?:\n?\z)")

    def _open(self) -> None:
        p = self.p
        i = self.i
        if not p.startswith("(?", i):
            self.flags.append(set(self.flags[-1]))
            self.out.append("(")
            self.i += 1
            return
        head = p[i : i + 4]
        if head.startswith(("(?=", "(?!", "(?<=", "(?<!")):
            raise Untranslatable("look-around")
        if head.startswith("(?>"):
            raise Untranslatable("atomic group")
        if head.startswith("(?P="):
            raise Untranslatable("backreference")
        if head.startswith("(?("):
            raise Untranslatable("conditional")
        if head.startswith("(?#"):
            end = p.index(")", i)
            self.i = end + 1
            return
        if head.startswith(("(?P<", "(?<")):
            end = p.index(">", i)
            self.flags.append(set(self.flags[-1]))
            name = p[p.index("<", i) + 1 : end]
            self.out.append(f"(?P<{name}>")
            self.i = end + 1
            return
        if head.startswith("(?:"):
            self.flags.append(set(self.flags[-1]))
            self.out.append("(?:")
            self.i += 3
            return
        m = _FLAG_GROUP.match(p, i)
        if m is None:
            raise Untranslatable(f"group syntax {head!r}")
        add, remove, kind = m.group(1), m.group(2) or "", m.group(3)
        unknown = (set(add) | set(remove)) - set("imsu")
        if unknown:
            raise Untranslatable(f"flag {''.join(sorted(unknown))}")
        flags = (set(self.flags[-1]) | set(add)) - set(remove) - {"u"}
        spelt = "".join(sorted(set(add) - {"u"})) + (f"-{remove}" if remove else "")
        if kind == ")":  # a global flag at the start, as Python requires
            self.flags[-1] = flags
            if spelt:
                self.out.append(f"(?{spelt})")
        else:
            self.flags.append(flags)
            self.out.append(f"(?{spelt}:" if spelt else "(?:")
        self.i = m.end()

    def _escape(self, *, in_class: bool) -> str:
        p = self.p
        if self.i + 1 >= len(p):
            raise Untranslatable("trailing backslash")
        nxt = p[self.i + 1]
        self.i += 2
        if nxt == "d":
            return self.digit if in_class or self.digit == _DIGIT else f"[{self.digit}]"
        if nxt == "D":
            return r"\P{Nd}" if self.digit == _DIGIT else r"\D"
        if nxt == "w":
            return self.word if in_class else f"[{self.word}]"
        if nxt == "s":
            return self.space if in_class else f"[{self.space}]"
        if nxt in "WS":
            if in_class:  # only as [\s\S] or [\w\W] (any character): see _class
                return "\x00" + nxt
            return f"[^{self.word}]" if nxt == "W" else f"[^{self.space}]"
        if nxt in "bB":
            if in_class:
                return r"\x{8}" if nxt == "b" else "B"
            return "\\" + nxt
        if nxt == "A":
            return r"\A"
        if nxt in "Zz":  # \z: only in the edges to_re2_edges writes (Python has no \z)
            return r"\z"
        if nxt in _SIMPLE:
            return "\\" + nxt
        if nxt == "x":
            digits = p[self.i : self.i + 2]
            self.i += 2
            return f"\\x{{{digits}}}"
        if nxt in "uU":
            width = 4 if nxt == "u" else 8
            digits = p[self.i : self.i + width]
            self.i += width
            return f"\\x{{{int(digits, 16):x}}}"
        if nxt == "0":
            digits = nxt
            while len(digits) < 3 and self.i < len(p) and p[self.i] in "01234567":
                digits += p[self.i]
                self.i += 1
            return f"\\x{{{int(digits, 8):x}}}"
        if nxt.isdigit():
            raise Untranslatable("backreference")
        if nxt.isalpha():
            raise Untranslatable(f"escape \\{nxt}")
        if self.caseless and nxt in "iI":
            return f"[iI{_DOTTED_I}]"
        return _escape_char(nxt)

    def _class(self) -> None:
        p = self.p
        start = self.i
        self.i += 1
        negated = p.startswith("^", self.i)
        if negated:
            self.i += 1
        parts: list[str] = []
        first = True
        while True:
            if self.i >= len(p):
                raise Untranslatable("unterminated class")
            c = p[self.i]
            if c == "]" and not first:
                self.i += 1
                break
            first = False
            if c == "\\":
                parts.append(self._escape(in_class=True))
            elif c in "[]":
                parts.append("\\" + c)
                self.i += 1
            else:
                parts.append(c if c not in "^" else r"\^")
                self.i += 1
        body = "".join(parts)
        if "\x00" in body:
            # a negated category inside a class: RE2 has no class union with a complement;
            # the one form patterns use, [\s\S] or [\w\W], is any character
            if negated or not (
                ("\x00S" in body and self.space in body) or ("\x00W" in body and self.word in body)
            ):
                raise Untranslatable("\\W or \\S inside a character class")
            self.out.append(r"[\x{0}-\x{10ffff}]")
            return
        if self.caseless:
            # Python's (?i) folds İ and ı to i and RE2's does not: where the two would
            # disagree on them, list them (to take them, or, negated, to refuse them).
            source = p[start : self.i]
            for ch in "\u0130\u0131":
                taken = re.fullmatch(source, ch, re.IGNORECASE) is not None
                if taken != negated:
                    body = f"\\x{{{ord(ch):x}}}" + body
        self.out.append(f"[{'^' if negated else ''}{body}]")


@functools.lru_cache(maxsize=4096)
def _translate(pattern: str, ascii_text: bool = False) -> tuple[str | None, str]:
    try:
        return _Translator(pattern, ascii_text).run(), ""
    except Untranslatable as exc:
        return None, str(exc)
    except (ValueError, IndexError) as exc:
        return None, f"unparsed: {exc}"


def to_re2(pattern: str, *, ascii_text: bool = False) -> str | None:
    """The RE2 spelling of a Python pattern, or ``None`` if RE2 cannot mean the same.

    With ``ascii_text``, a spelling that means the same on ASCII text only (``\\w`` as
    ``[0-9A-Za-z_]``): RE2's automaton for it is far smaller, and so faster.
    """
    return _translate(pattern, ascii_text)[0]


def why_not(pattern: str) -> str:
    """Why :func:`to_re2` gives ``None`` for ``pattern`` (empty if it does not)."""
    return _translate(pattern)[1]


_BOUNDARY = re.compile(r"\\\\|\\[bB]|\[(?:\\.|[^\]\\])*\]?")


def python_form(pattern: str) -> str:
    """``pattern`` with ``\\b``/``\\B`` as ASCII word boundaries, the meaning RE2 and
    Vectorscan give them, so that every engine agrees (Python's own are Unicode-aware)."""
    if "\\b" not in pattern and "\\B" not in pattern:
        return pattern

    def fix(m: re.Match[str]) -> str:
        token = m.group()
        return f"(?a:{token})" if token in ("\\b", "\\B") else token

    return _BOUNDARY.sub(fix, pattern)


LEAD = "_hl_lead"
"""The group that marks where a match really starts after :func:`to_re2_edges` consumed the
character a leading look-behind looked at."""
TAIL = "_hl_tail"
"""The group that marks where a match really ends before the text a trailing look-ahead
looked at, which :func:`to_re2_edges` consumes."""

_ONE_CHAR = r"(?:\[(?:\\.|[^\]\\])+\]|\\[^\d]|[^\\()\[\]|*+?{}.^$])"
_LEAD_RE = re.compile(rf"\(\?<([!=])({_ONE_CHAR})\)")


def _top_level_alternation(pattern: str) -> bool:
    depth = 0
    i = 0
    in_class = False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
        elif c == "[":
            in_class = True
            if pattern.startswith(("[]", "[^]"), i):
                i += 2 if pattern[i + 1] == "]" else 3
                continue
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            return True
        i += 1
    return False


def _complement(atom: str) -> str:
    """A class matching exactly the characters ``atom`` (one character) does not."""
    if atom.startswith("[^"):
        return "[" + atom[2:]
    if atom.startswith("["):
        return "[^" + atom[1:]
    if atom.startswith("\\") and atom[1] in "wsdWSD":
        return "\\" + atom[1].swapcase()
    return f"[^{atom}]"


def _trailing_lookahead(pattern: str) -> tuple[int, str, str] | None:
    """``(where it starts, '!' or '=', its body)`` if ``pattern`` ends with a look-ahead."""
    if not pattern.endswith(")") or pattern.endswith("\\)"):
        return None
    depth = 0
    i = len(pattern) - 1
    # walk back to the matching "(" (escapes and classes make this approximate: verify below)
    while i >= 0:
        c = pattern[i]
        if c == ")" and (i == 0 or pattern[i - 1] != "\\"):
            depth += 1
        elif c == "(" and (i == 0 or pattern[i - 1] != "\\"):
            depth -= 1
            if depth == 0:
                break
        i -= 1
    if i < 0 or not pattern.startswith(("(?=", "(?!"), i):
        return None
    body = pattern[i + 3 : -1]
    try:
        re.compile(body)
        re.compile(pattern[:i])
    except re.error:
        return None
    return i, pattern[i + 2], body


def to_re2_edges(pattern: str, *, ascii_text: bool = False) -> str | None:
    """:func:`to_re2` for a pattern with a look-behind of one character at its start and/or a
    look-ahead at its end (the shape of most secret patterns: ``(?<![A-Za-z0-9])token(?!…)``).

    RE2 has no look-arounds, but at the edges of a pattern they can be consumed instead: a
    leading ``(?<!C)`` becomes ``(?:\\A|[^C])`` followed by an empty group :data:`LEAD` (the
    real start), a trailing ``(?!C)`` of one character becomes ``(?:[^C]|\\z)`` and a trailing
    ``(?=X)`` becomes ``X``, both after an empty group :data:`TAIL` (the real end). The first
    match and its groups stay those of Python: the consumed text lies outside the match, and
    nothing after it can be tried differently. Look-arounds elsewhere give ``None``.
    """
    if _top_level_alternation(pattern):
        return to_re2(pattern, ascii_text=ascii_text)
    lead = ""
    body = pattern
    m = _LEAD_RE.match(body)
    if m:
        kind, atom = m.groups()
        lead = rf"(?:\A|{_complement(atom)})" if kind == "!" else rf"(?:{atom})"
        body = body[m.end() :]
    tail = ""
    found = _trailing_lookahead(body)
    if found is not None:
        at, kind, ahead = found
        if kind == "!":
            if re.fullmatch(_ONE_CHAR, ahead) is None:
                return None
            tail = rf"(?:{_complement(ahead)}|\z)"
        else:
            tail = f"(?:{ahead})"
        body = body[:at]
    if not lead and not tail:
        return to_re2(pattern, ascii_text=ascii_text)
    source = (
        (f"{lead}(?P<{LEAD}>)" if lead else "")
        + f"(?:{body})"
        + (f"(?P<{TAIL}>){tail}" if tail else "")
    )
    return to_re2(source, ascii_text=ascii_text)
