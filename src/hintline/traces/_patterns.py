"""Every regex of the trace readers, the text it may see, and why its time stays linear.

Issue 14 asks every pattern that sees untrusted text to run on a linear-time engine, or on
Python's ``re`` only inside a window whose size is bounded by construction and small enough
that the worst case stays within budget. The trace readers keep ``re``: RE2 (``google-re2``)
costs about 3 µs a call on a frame line where ``re`` costs 0.6 µs (5x, measured; 14x through
:class:`hintline._linear.LinearPattern`, which also encodes the line), and a reader makes one
or two calls per line. Instead, every pattern below is one of:

* ``line``: run on one line of at most :data:`~hintline.traces._raw.MAX_LINE` (4096)
  characters (a longer line is skipped, or cut, before any pattern sees it), so one call looks
  at 4096 characters at most; AND linear in that window (the reason is in ``why``), so a
  line built to hurt the pattern costs about what an ordinary line of its length costs.
* ``text``: run on text of any length (the whole input, a window of joined lines); then the
  pattern must be linear, and ``why`` says why.

"Linear" here is the argument ``why`` gives for the pattern as it is called (``call``):
anchored calls (``match``, ``fullmatch``, a scanner's ``match``) try one start; quantifiers
are possessive, or each is followed by something its class cannot hold, so a failed attempt
gives back each character at most once; fixed-width pieces cost a constant. ``search`` and
``sub`` try every start: there every attempt either fails within a constant or stops at a
character that bounds a run no other attempt scans again. ``tests/traces/test_patterns.py``
checks that every compiled pattern of the package is in :data:`PATTERNS` and times each on
the hostile shapes of ``tests/linear/shapes.py`` at its window: four times the text may cost
only about four times the time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import hintline.traces as _traces
from hintline.traces import (
    _detect,
    _dotnet,
    _go,
    _inapp,
    _jvm,
    _node,
    _php,
    _python,
    _raw,
    _ruby,
    _rust,
)
from hintline.traces._raw import MAX_LINE

__all__ = ["PATTERNS", "TracePattern"]


@dataclass(frozen=True)
class TracePattern:
    """One compiled pattern of the trace readers and what bounds its cost.

    Attributes:
        name: ``module.NAME`` of the compiled pattern.
        pattern: the compiled pattern itself.
        call: how the readers call it: ``match``, ``fullmatch``, ``search``, ``sub``,
            ``scan`` (a scanner's ``match``, each match going on where the last one ended) or
            ``none`` (kept as the reference a test compares an inline reading with).
        engine: ``re`` (every trace pattern: see the module docs for RE2's cost per call).
        window: the most characters one call may look at (``MAX_LINE``), or ``None`` when
            the text is not bounded (then ``why`` must show the pattern linear).
        text: what the pattern is run on.
        why: why its time is linear in the text it sees.
    """

    name: str
    pattern: re.Pattern[str]
    call: str
    engine: str
    window: int | None
    text: str
    why: str


_LINE = "one line of at most MAX_LINE characters (longer lines are skipped first)"
_POSSESSIVE = "anchored; every quantifier possessive or followed by a character its class excludes: no backtracking"
_FIXED = "fixed width: a constant per start"


def _p(name: str, pattern: re.Pattern[str], call: str, window: int | None, text: str, why: str) -> TracePattern:
    return TracePattern(name, pattern, call, "re", window, text, why)


PATTERNS: tuple[TracePattern, ...] = (
    # the entry point
    _p("traces._ESCAPE", _traces._ESCAPE, "sub", None,
       "the whole input once, when it is a JSON-escaped trace holding ``\\u`` escapes or a NUL",
       _FIXED + " (a backslash and one character, or ``\\u`` and four hex digits)"),
    _p(
        "traces._NEWLINES",
        _traces._NEWLINES,
        "match",
        None,
        "a run of more than 8,256 empty lines in the input, from where ``find`` found it",
        "anchored, one character repeated: reads the run once",
    ),
    _p(
        "traces._RUNS",
        _traces._RUNS,
        "sub",
        None,
        "the whole input once (after unescaping): every run of two or more empty lines",
        "one character repeated: an attempt starts only at a newline, and a failed one stops within "
        "three characters; a match takes its whole run, which no later attempt reads again",
    ),
    _p(
        "traces._PHP_RUNS",
        _traces._PHP_RUNS,
        "sub",
        None,
        "the whole input once more, when it holds a run of empty lines and is a PHP trace",
        "one character repeated, taken only from the first newline of a run (a two-character "
        "look-behind after the first): each run is read once, whether it matches (it is taken "
        "whole) or not",
    ),
    # language detection: every call on a stripped line of at most MAX_LINE
    _p("_detect._JVM_FRAME", _detect._JVM_FRAME, "match", MAX_LINE, _LINE,
       "anchored; ``[^(]++`` possessive; ``[\\w$.-]+`` gives back to each ``.`` once, where a fixed "
       "suffix (``java``, ``kt``…) is tried in constant time"),
    _p("_detect._NODE_FRAME", _detect._NODE_FRAME, "match", MAX_LINE, _LINE,
       "anchored; ``[^\\n]*\\(`` gives back to each ``(`` once; from it ``[^\\s()]*`` runs to the next "
       "space or parenthesis (runs of different ``(`` do not overlap) and gives back to each ``:`` "
       "once, where ``\\d+:\\d+`` scans only its own digits"),
    _p("_detect._PHP_FRAME", _detect._PHP_FRAME, "match", MAX_LINE, _LINE,
       "anchored; ``[^\\n]*`` gives back to each ``(`` once, where ``\\d+\\): `` scans only its own digits"),
    _p("_detect._RUBY_FRAME", _detect._RUBY_FRAME, "match", MAX_LINE, _LINE,
       "anchored; ``[^\\s:]+`` stops at the first ``:``, which its class excludes; then fixed text"),
    _p("_detect._GO_LOC", _detect._GO_LOC, "match", MAX_LINE, _LINE,
       "anchored; ``[^\\t]*`` gives back to each ``.go:`` once, where ``\\d+`` and the ``+0x`` tail scan "
       "only their own characters"),
    # .NET
    _p("_dotnet._TYPE", _dotnet._TYPE, "match", MAX_LINE,
       _LINE + ", or one `` ---> `` part of such a line",
       "anchored; ``[\\w.`+]*`` gives back to each position once, where a fixed suffix "
       "(``Exception``, ``Error``) is tried in constant time; in ``\\w*(?:\\.[A-Za-z_]\\w*)+`` each "
       "``\\w*`` ends at a ``.`` its class excludes, so no two quantifiers share a character"),
    _p("_dotnet._COMMON", _dotnet._COMMON, "fullmatch", MAX_LINE, _LINE,
       "anchored; ``[^(]+`` and ``[^)]*`` end at a character their class excludes; the location's "
       "``[^)]*`` gives back to each ``:`` once, where ``(?:line )?[0-9]+`` scans only its own digits"),
    # Go
    _p("_go._PANIC", _go._PANIC, "match", MAX_LINE, _LINE,
       "anchored; ``\\s*`` then a fixed word; ``.*$`` on a line (no newline) never gives back"),
    _p("_go._GOROUTINE", _go._GOROUTINE, "match", MAX_LINE, _LINE,
       "anchored; ``\\d+`` and ``[^\\]]*`` each end at a character their class excludes"),
    _p("_go._LOC", _go._LOC, "none", MAX_LINE,
       "no input: the reference tests/traces/test_rust_go_readers.py compares the inline reading with",
       "anchored; the lazy ``.+?`` stops at each ``:`` once, where ``\\d+`` scans only its own digits"),
    _p("_go._EXIT", _go._EXIT, "match", MAX_LINE, _LINE, _FIXED + " then ``\\d+`` to the end"),
    # in_app
    _p("_inapp._PY_STDLIB", _inapp._PY_STDLIB, "search", None,
       "a frame's file (at most MAX_LINE, or a JVM frame read from an overlong line), only when it "
       "holds ``/lib/python``",
       "a literal prefix (``/lib/python``) found by a fast scan; from each, ``[\\d.]*`` runs over its "
       "own digits and dots, which hold no next ``/lib/python``"),
    # JVM
    _p("_jvm._FRAME", _jvm._FRAME, "match", MAX_LINE, _LINE, _POSSESSIVE),
    _p("_jvm._SPACE", _jvm._SPACE, "search", MAX_LINE, "a frame's symbol, only when it holds an unprintable character",
       _FIXED + " (one character)"),
    _p("_jvm._FAST", _jvm._FAST, "match", None,
       _LINE + "; also the first line of a frame run when longer (its junk tail is never read)",
       _POSSESSIVE),
    _p("_jvm._MORE", _jvm._MORE, "match", MAX_LINE, _LINE,
       "anchored; ``\\s*`` then fixed text; ``\\d+`` ends at the space its class excludes"),
    _p("_jvm._HEADER", _jvm._HEADER, "match", MAX_LINE, _LINE,
       "anchored; the dotted name is possessive; ``[\\w$]*`` gives back to each position once, where a "
       "fixed suffix (``Exception``, ``Error``, ``Throwable``) is tried in constant time; ``.*$`` on a "
       "line never gives back"),
    _p("_jvm._LINKED", _jvm._LINKED, "match", MAX_LINE, _LINE, "anchored; ``\\s*`` then fixed text"),
    # Node
    _p("_node._HEADER", _node._HEADER, "match", MAX_LINE, _LINE,
       "anchored; possessive names; ``(.*)`` runs to the end of the line, where the optional tail and "
       "``$`` match at once"),
    _p("_node._COMMON", _node._COMMON, "match", MAX_LINE, _LINE,
       "anchored; the function's words are possessive; each location's ``[^()]*`` ends at a parenthesis "
       "and gives back to each ``:`` once, where the possessive ``\\d++`` scan only their own digits"),
    _p("_node._COMMON_REST", _node._COMMON_REST, "match", MAX_LINE, "what follows ``at `` on such a line",
       "as _node._COMMON"),
    _p("_node._MATCHING", _node._MATCHING, "match", MAX_LINE, _LINE, "anchored; fixed text around ``\\d+``"),
    _p("_node._CODE", _node._CODE, "match", MAX_LINE, _LINE, "anchored; fixed text around ``[\\w.-]+``"),
    # PHP
    _p("_php._ROW_MARK", _php._ROW_MARK, "search", None,
       "a PHP text of many lines, from where the last row block ended (reading_text)",
       "``#``, then digits, a space and blanks, all possessive, and one character: an attempt "
       "starts only at a ``#`` and reads the digits and blanks after it once (they hold no ``#``)"),
    _p("_php._UNCAUGHT", _php._UNCAUGHT, "search", MAX_LINE, _LINE + ", only when it holds ``Uncaught ``",
       "each try is a fixed word list, then ``\\s+`` (its own run of spaces), then fixed text; "
       "``.*$`` on a line never gives back"),
    _p("_php._MONOLOG", _php._MONOLOG, "match", 51 * (MAX_LINE + 1),
       "an exception header: at most 50 lines of at most MAX_LINE, joined",
       "anchored; ``[\\w\\\\]+`` ends at ``(``, ``-?\\d+`` at ``)``; ``.*$`` stops at the first newline "
       "and gives back to each position once, where ``$`` fails at once"),
    _p("_php._TYPE", _php._TYPE, "match", 51 * (MAX_LINE + 1), "a stripped line, or an exception header as above",
       "anchored; ``[\\w\\\\]*`` ends at ``:``; ``.*$`` as in _php._MONOLOG"),
    _p("_php._THROWN", _php._THROWN, "match", MAX_LINE, _LINE,
       "anchored; ``.*`` gives back to each `` on line `` once, where ``\\d+\\s*$`` scans only its own "
       "digits and spaces"),
    _p("_php._ROW_SHAPE", _php._ROW_SHAPE, "match", MAX_LINE, "a stack row's text after ``#N ``", _POSSESSIVE),
    # Python
    _p("_python._HEADER", _python._HEADER, "match", MAX_LINE, _LINE + ", only when it holds ``Traceback``",
       "anchored; ``\\s*`` then fixed text"),
    _p("_python._FRAME", _python._FRAME, "match", MAX_LINE, _LINE, _POSSESSIVE),
    _p("_python._EXC", _python._EXC, "match", MAX_LINE, _LINE, _POSSESSIVE),
    _p("_python._BOX_SEP", _python._BOX_SEP, "match", MAX_LINE, _LINE + ", only when it holds ``+-``",
       "anchored; `` *`` ends at ``+``; ``-+`` gives back to each position once, where a space or the "
       "end is tried in constant time"),
    _p("_python._BOX_LINE", _python._BOX_LINE, "match", MAX_LINE, _LINE, "anchored; `` *`` then one character"),
    _p("_python._SUB_COUNT", _python._SUB_COUNT, "sub", MAX_LINE, "an exception message read from such a line",
       "each try starts at `` (`` and ``\\d+`` scans only its own digits"),
    _p("_raw._LOG_START", _raw._LOG_START, "match", MAX_LINE, _LINE,
       "anchored; ``\\s*`` then fixed-width timestamps or level words"),
    # Ruby
    _p("_ruby._HEAD", _ruby._HEAD, "match", MAX_LINE, _LINE + ", only when it holds ``:in ``",
       "anchored; ``[^:]*`` ends at the first ``:`` its class excludes, ``[^`'\\n]*`` at the first quote; "
       "``.*$`` on a line never gives back"),
    _p("_ruby._FROM", _ruby._FROM, "match", MAX_LINE, _LINE,
       "anchored; ``[^:\\n]+`` and ``[^`'\\n]*`` end at a character their class excludes"),
    _p("_ruby._CLASS", _ruby._CLASS, "search", MAX_LINE, "the message of such a header line",
       "each try starts at `` (`` and an upper-case letter; ``[\\w:]*`` scans its own run, which holds no "
       "next `` (``"),
    # Rust
    _p("_rust._HEAD", _rust._HEAD, "search", MAX_LINE, _LINE,
       "each try starts at the literal ``thread '`` and ``[^'\\n]*`` stops at the next quote, which "
       "ends every earlier try's run too; ``.*$`` on a line never gives back"),
    _p("_rust._OLD_MSG", _rust._OLD_MSG, "match", MAX_LINE, "the panic header's text after `` panicked at ``",
       "anchored; ``.*`` gives back to each ``', `` once; from it the lazy ``\\S+?`` runs to the next "
       "space (runs of different ``', `` do not overlap), trying ``:\\d+:\\d+$`` at each ``:``"),
    _p("_rust._NEW_LOC", _rust._NEW_LOC, "match", MAX_LINE, "the panic header's text after `` panicked at ``",
       "anchored; the lazy ``\\S+?`` tries ``:\\d+:\\d+:?$`` at each ``:``, each scanning only its own digits"),
    _p("_rust._LEGACY_HASH", _rust._LEGACY_HASH, "sub", None, "the new symbols of a backtrace, joined",
       _FIXED + " (``::h`` and 16 hex digits)"),
    _p("_rust._CRATE_HASH", _rust._CRATE_HASH, "sub", None, "the new symbols of a backtrace, joined",
       _FIXED + " (``[``, 16 hex digits, ``]``)"),
    _p("_rust._ONE_GROUP", _rust._ONE_GROUP, "fullmatch", MAX_LINE, "a symbol from a backtrace line",
       "anchored; ``<…>`` nested four deep at most, each level possessive over ``[^<>]++`` or a ``<``: "
       "every character is read once per level"),
    _p("_rust._GROUPED", _rust._GROUPED, "fullmatch", MAX_LINE, "a symbol from a backtrace line",
       "as _rust._ONE_GROUP"),
    _p("_rust._FRAME_PAIR", _rust._FRAME_PAIR, "scan", None,
       "up to 512 backtrace lines joined (of any length: a longer one sends the block to the line reader "
       "after this pass)",
       "a scanner's ``match``: one start per frame, each where the last match ended; ``(.*)`` ends at "
       "the newline; ``.+`` gives back to each ``:`` once, where ``\\d++`` is possessive"),
)
