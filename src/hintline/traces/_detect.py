"""Which language printed this trace? A line-by-line vote on anchored signatures.

Every check looks at one line of bounded length with ``startswith`` tests and line-anchored
regexes without nested quantifiers, so detection is linear in the input.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from hintline._vectorscan.screen import LiteralScreen
from hintline.traces._memo import MEMO_SIZE, shared_dict
from hintline.traces._raw import MAX_LINE

__all__ = ["LANGUAGES", "detect_language", "is_dotnet_frame", "may_hold_trace", "normalize_language"]

LANGUAGES = ("python", "java", "javascript", "php", "go", "rust", "dotnet", "ruby")

_ALIASES = {
    "py": "python", "python3": "python",
    "jvm": "java", "kotlin": "java", "kt": "java", "scala": "java", "groovy": "java",
    "js": "javascript", "node": "javascript", "nodejs": "javascript", "typescript": "javascript", "ts": "javascript",
    "golang": "go", "rs": "rust",
    ".net": "dotnet", "csharp": "dotnet", "c#": "dotnet", "cs": "dotnet", "fsharp": "dotnet", "mono": "dotnet",
    "rb": "ruby",
}

# Pieces every supported trace shape contains at least one of; ``in`` on a str is a fast
# C search, so the no-trace case (``clean`` calls parse_trace on every unmatched input) is cheap.
_MARKERS = (
    "at ", "File \"", "Traceback", "panicked at", "goroutine ", "panic: ", "fatal error: ",
    "#0 ", "Stack trace:", "thrown in", "[stacktrace]", ":in ", "Caused by:", "--- End of",
    '"class":"',
)
_JVM_FRAME = re.compile(r"[ \t]*at ([^(]++)\((?:[\w$.-]+\.(?:java|kt|kts|scala|groovy|clj)(?::\d+)?|Native Method|Unknown Source)\)")
_NODE_FRAME = re.compile(r"[ \t]*at (?:[^\n]*\()?[^\s()]*:\d+:\d+\)?,?(?: \{)?$|[ \t]*at [^\s(]+ \((?:<anonymous>|native|index \d+)\)")
_PHP_FRAME = re.compile(r"#\d+ (?:[^\n]*\(\d+\): |\{main\}|\[internal function\]: )")
_RUBY_FRAME = re.compile(r"(?:[ \t]*from )?[^\s:]+:\d+:in [`']")
_GO_LOC = re.compile(r"\t[^\t]*\.go:\d+(?: \+0x[0-9a-f]+)?$")


def is_dotnet_frame(s: str) -> bool:
    """Whether a stripped ``at …`` line is a .NET frame (CoreCLR or Mono)."""
    if ") [0x" in s or ") <0x" in s:
        return True
    pos = s.rfind(":line ")
    if pos > 0 and s[pos + 6 :].strip().isdecimal() and " in " in s:
        return True
    if not s.endswith(")") or " (" in s:
        return False
    open_ = s.find("(")
    args = s[open_ + 1 : -1]
    return open_ > 3 and ":" not in args and (not args or " " in args) and "." in s[3:open_]


def normalize_language(language: str | None) -> str | None:
    """Map a caller's hint (``js``, ``kotlin``, ``c#``…) to one of :data:`LANGUAGES`."""
    if not language:
        return None
    lang = language.strip().lower()
    lang = _ALIASES.get(lang, lang)
    return lang if lang in LANGUAGES else None


_MAY_HOLD = LiteralScreen(_MARKERS)


def may_hold_trace(text: str) -> bool:
    """Cheap reject: ``False`` when the text has none of the pieces any trace is made of.

    One Vectorscan pass that stops at the first piece found (``in`` per piece where Hyperscan
    cannot run): 15 ``in`` scans of 5 KB of prose cost about 35 µs.
    """
    return _MAY_HOLD.search(text)


_DECISIVE = 12


# The first characters of the prefixes :func:`_vote` tests (after ``at ``): any other line
# goes straight to the few substring tests at its end.
_PREFIX_STARTS = frozenset("TF|+CEtg#SP[-U{Npf")


def _vote(line: str) -> tuple[str | None, int]:
    """The language one line (at most MAX_LINE long) votes for, and how strongly.

    The prefix tests are grouped by the line's first character (no two prefixes of one group
    can both match, so the grouping keeps the answer the plain chain of tests gives).
    """
    s = line.lstrip()
    if not s:
        return None, 0
    c = s[0]
    if c == "a" and s.startswith("at "):
        return _at_vote(s)
    if c in _PREFIX_STARTS:
        if c == "T":
            if s.startswith("Traceback (most recent call last):"):
                return "python", 12
        elif c == "F":
            if s.startswith('File "') and ", line " in s:
                return "python", 3
        elif c == "|" or c == "+":
            if "Traceback (most recent call last):" in s or 'File "' in s:
                return "python", 3
        elif c == "C":
            if s.startswith("Caused by: "):
                return "java", 3
        elif c == "E":
            if s.startswith('Exception in thread "'):
                return "java", 6
        elif c == "t":
            if s.startswith("thread '") and " panicked at " in s:
                return "rust", 12
            if s.startswith("thrown in "):
                return "php", 5
        elif c == "g":
            if s.startswith("goroutine ") and s.endswith("]:"):
                return "go", 12
        elif c == "#":
            if _PHP_FRAME.match(s):
                return "php", 2
        elif c == "S":
            if s.startswith("Stack trace:"):
                return "php", 2
        elif c == "P" or c == "[":
            if s.startswith(("PHP Fatal error:", "PHP Warning:", "[stacktrace]", "[previous exception]")):
                return "php", 5
            if s.startswith("[cause]: "):
                return "javascript", 3
        elif c == "-" or c == "U":
            if s.startswith(("--- End of inner exception stack trace ---", "Unhandled exception.", "Unhandled Exception:")):
                return "dotnet", 6
        elif c == "{":
            if '"class":"' in s and '"file":"' in s:
                return "php", 5
        elif c == "N":
            if s.startswith("Node.js v"):
                return "javascript", 3
        elif s.startswith(("panic: ", "fatal error: ")):  # c is "p" or "f"
            return "go", 3
    if line[0] == "\t" and _GO_LOC.match(line):
        return "go", 1
    if ":in " in s and _RUBY_FRAME.match(s):  # the substring test is the cheap half
        return "ruby", 3
    if " ---> " in s and ": " in s:
        return "dotnet", 2
    if "Uncaught " in s and " in /" in s:
        return "php", 3
    return None, 0


def _at_vote(s: str) -> tuple[str | None, int]:
    """The vote of a stripped line starting with ``at `` (JVM, .NET or Node frame)."""
    jvm = _JVM_FRAME.match(s)
    if jvm is not None:
        # ``[^(]`` in the pattern (twice as fast as ``[^\s(]``): the symbol must hold no
        # whitespace, which ``str.split`` tests (it splits on exactly what ``\s`` matches)
        sym = jvm[1]
        parts = sym.split(None, 1)
        if len(parts) == 1 and len(parts[0]) == len(sym):
            return "java", 2
    if is_dotnet_frame(s):
        return "dotnet", 2
    if _NODE_FRAME.match(s):
        return "javascript", 2
    return None, 0


# The votes of frame lines seen before: the only lines kept between calls. Other lines,
# messages among them (they may hold secrets), are remembered only within a call (a log of one
# repeated line costs one vote).
_FRAME_VOTES: dict[str, tuple[str | None, int]] = shared_dict()
# The same votes by the frame line's shape: its UTF-8 bytes with every ASCII digit 1-9 made
# ``1``. No test of :func:`_vote` tells two such digits apart (they meet only ``\d``,
# ``[0-9a-f]``, ``\w`` and ``isdecimal``, and keep every position; ``0`` stays itself for the
# ``0x`` of Go and .NET frames), so a line of a known shape (the same code throwing from other
# lines, as after a release) votes without its tests.
_SHAPE_VOTES: dict[bytes, tuple[str | None, int]] = shared_dict()
_SHAPE_DIGITS = bytes.maketrans(b"23456789", b"11111111")
# What a kept line starts with (leading blanks stripped): frames (JVM, .NET, Node ``at``, Ruby
# ``from``, Python ``File "``, PHP ``#N`` rows, which its parser keeps too) and headers that hold
# no message.
_FRAME_STARTS = ("at ", "from ", 'File "', "#", "goroutine ", "Traceback (most recent call last):")


def _is_frame_vote(line: str, vote: tuple[str | None, int]) -> bool:
    """Whether a line that voted is a frame line (or a header without a message)."""
    if vote[0] == "go" and vote[1] == 1:
        return True  # a Go ``\t/path/f.go:12 +0x1d`` line
    return line.lstrip().startswith(_FRAME_STARTS)


# Lines voted one by one (a trace is decided within its first lines, as a rule); the rest of a
# longer text is voted once per distinct line, and only the lines that vote are walked in order.
_WALK = 256


def detect_language(lines: list[str]) -> str | None:
    """The language whose signatures score highest in ``lines`` (``None`` if none match).

    The first language to reach a decisive score, in line order, wins; else the highest score.
    Past its first :data:`_WALK` lines a text is voted by distinct line (each voted once) and
    only the lines that vote are walked again, by a C-level ``filter``: thousands of lines of
    junk or of one line repeated cost no Python step each.
    """
    score = dict.fromkeys(LANGUAGES, 0)
    here: dict[str, tuple[str | None, int]] = {}
    lang = _walk(lines if len(lines) <= _WALK else lines[:_WALK], score, here)
    if lang is not None or len(lines) <= _WALK:
        return lang or _best(score)
    rest = lines[_WALK:]
    voting = {}
    for line in dict.fromkeys(rest):
        vote = _line_vote(line, here) if line and len(line) <= MAX_LINE else (None, 0)
        if vote[0] is not None:
            voting[line] = vote
    if voting:
        lang = _walk(filter(voting.__contains__, rest), score, voting)
        if lang is not None:
            return lang
    return _best(score)


def _best(score: dict[str, int]) -> str | None:
    best = max(LANGUAGES, key=lambda lang: score[lang])
    return best if score[best] >= 2 else None


def _line_vote(line: str, here: dict[str, tuple[str | None, int]]) -> tuple[str | None, int]:
    """The vote of one line (non-empty, at most MAX_LINE), through the memos as :func:`_walk` reads it."""
    vote = _FRAME_VOTES.get(line) or here.get(line)
    if vote is None:
        _walk((line,), dict.fromkeys(LANGUAGES, 0), here)
        vote = _FRAME_VOTES.get(line) or here[line]
    return vote


def _walk(lines: Iterable[str], score: dict[str, int], here: dict[str, tuple[str | None, int]]) -> str | None:
    """Add the votes of ``lines`` to ``score``, in order; the language that reaches a decisive
    score first, else ``None``. Frame lines' votes are memoised across calls, the other
    lines' only in ``here`` (this call)."""
    votes = _FRAME_VOTES
    shapes = _SHAPE_VOTES
    for line in lines:
        if len(line) > MAX_LINE or not line:
            continue
        vote = votes.get(line) or here.get(line)
        if vote is None:
            shape = line.encode("utf-8", "surrogatepass").translate(_SHAPE_DIGITS)
            vote = shapes.get(shape)
            keep = vote is not None  # a frame line's shape seen before
            if vote is None:
                vote = _vote(line)
                keep = vote[0] is not None and _is_frame_vote(line, vote)
                if keep:
                    if len(shapes) >= MEMO_SIZE:
                        shapes.clear()
                    shapes[shape] = vote
            if keep:
                if len(votes) >= MEMO_SIZE:
                    votes.clear()
                votes[line] = vote
            else:
                here[line] = vote  # not a frame line: not kept past this call
        lang, add = vote
        if lang is not None:
            score[lang] += add
            if score[lang] >= _DECISIVE:
                return lang
    return None
