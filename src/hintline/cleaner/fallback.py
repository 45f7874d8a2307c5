"""The fallback of ``clean()`` when no rule matches: pick the most useful line of the text.

In order: the root cause found by :func:`hintline.traces.parse_trace` (``Type: message``);
else the last ``Caused by:`` line (Java); else the last exception line (``Type: message`` in
Python, JavaScript, PHP, Go, ...); else the first line that says something: not a stack frame,
banner, ruler, log record below ERROR, JSON/HTML left-over, nor a progress or status line.
"""

from __future__ import annotations

import functools
import re
from types import ModuleType
from typing import TYPE_CHECKING

from hintline._vectorscan.screen import LiteralScreen
from hintline.categories import Category
from hintline.cleaner.render import (
    _CONTROL,
    _MAX_CACHED_VALUE,
    MAX_HINT_CHARS,
    PREFIX,
    Hint,
    _finish,
    _quiet,
    finish,
    make,
)
from hintline.scrub import scrub

if TYPE_CHECKING:
    from hintline.traces import ExceptionInfo

__all__ = [
    "CAUSED_BY",
    "EXCEPTION",
    "NO_ERROR_LINE",
    "PLAIN",
    "fallback",
    "fallback_block",
    "keep_chain_root",
    "pick_line",
    "pick_line_with_strength",
]

_CAUSED_BY = "Caused by:"

# The type of an exception line ``Type: message``: an (optionally qualified) exception type.
_EXCEPTION_TYPE = re.compile(
    r"""(?:[\w$]+(?:\.|::|\\))*[\w$]*
        (?:Error|Exception|Exit|Interrupt|Warning|Fault|Failure|Rejection|Exceeded|Panic)
        (?:[ ]?\[[^\]]{1,80}\])?                    # node's TypeError [ERR_X]
      | (?:[a-z_][\w$]*\.)+[A-Z][\w$]*               # zipfile.BadZipFile
      | panic | fatal[ ]error | error(?:\[\w+\])?
    """,
    re.VERBOSE,
)
# The common shape first, without backtracking: a dotted name whose last part ends with one of
# the suffixes above is what the first branch of _EXCEPTION_TYPE accepts (separators are not
# word characters, so the name splits one way only).
_DOTTED = re.compile(r"[\w$]+(?:(?:\.|::|\\)[\w$]+)*")
_SUFFIXES: tuple[str, ...] = ("Error", "Exception", "Exit", "Interrupt", "Warning", "Fault")
_SUFFIXES += ("Failure", "Rejection", "Exceeded", "Panic")
_PREFIXES = ("PHP Fatal error:", "Fatal error:", "Uncaught", "Unhandled exception:", "Unhandled")
_MAX_TYPE = 160


def _is_exception_type(line: str, end: int) -> bool:
    """Whether ``line[:end]`` is an exception type as ``_EXCEPTION_TYPE`` reads one."""
    if line.endswith(_SUFFIXES, 0, end) and _DOTTED.fullmatch(line, 0, end):
        return True
    return _EXCEPTION_TYPE.fullmatch(line, 0, end) is not None


def _exception_line(line: str) -> str | None:
    """``line`` (stripped of prefixes) if it reads ``Type: message``."""
    line = line.strip()
    if line.startswith("|"):
        line = line.lstrip("|").strip()
    if line.startswith(_PREFIXES):
        for prefix in _PREFIXES:
            if line.startswith(prefix) and len(line) > len(prefix):
                line = line[len(prefix) :].strip()
    colon = line.find(": ", 0, _MAX_TYPE)
    if colon <= 0 or not line[colon + 1 :].strip():
        return None
    if line.find(" ", 0, colon) >= 0 and line.find("[", 0, colon) < 0:
        # a type holds no space, but for `fatal error` and node's `TypeError [ERR_X]`
        return line if line.startswith("fatal error: ") else None
    return line if _is_exception_type(line, colon) else None


_FRAME = re.compile(
    r"""[ \t]*(?:
        at[ ] | File[ ]" | \#\d+[ ] | \.\.\.[ ]\d+[ ]more | Traceback[ ]\(most[ ]recent
      | goroutine[ ]\d+ | \[(?:Previous[ ]line|\d+[ ]more) | \^+\s*$ | ~*\^[~^]*\s*$
      | (?:\w+/)*[\w.-]+\.(?:go|rs|py|js|ts|java|php):\d+ | -{3,} | ={3,} | \|
      | During[ ]handling[ ]of | The[ ]above[ ]exception
    )""",
    re.VERBOSE,
)


def _line_at(text: str, index: int) -> str:
    start = text.rfind("\n", 0, index) + 1
    end = text.find("\n", index)
    return text[start : len(text) if end < 0 else end]


def _last_caused_by(text: str) -> str | None:
    """The root cause of a ``Caused by:`` chain: the last one at the start of its line (a JVM
    chain; an indented one belongs to a ``Suppressed:`` block), else the last indented one;
    a bare ``Caused by:`` heads a list (Rust anyhow), whose last item is the root."""
    return _last_caused_by_at(text)[0]


def _last_caused_by_at(text: str) -> tuple[str | None, int, bool]:
    """:func:`_last_caused_by`, where its line starts, and whether it is an indented one
    (``(None, -1, False)`` when there is none)."""
    indented: tuple[str | None, int, bool] = (None, -1, False)
    index = text.rfind(_CAUSED_BY)
    while index >= 0:
        raw = _line_at(text, index)
        line = raw.strip()
        if line.startswith(_CAUSED_BY):
            rest = line[len(_CAUSED_BY) :].strip()
            if not rest:
                rest = _last_list_item(text, index) or ""
            if rest:
                start = text.rfind("\n", 0, index) + 1
                if not raw[:1].isspace():
                    return rest, start, False
                if indented[0] is None:
                    indented = (rest, start, True)
        index = text.rfind(_CAUSED_BY, 0, index)
    return indented


def _last_list_item(text: str, index: int) -> str | None:
    """The last item of the indented list after a bare ``Caused by:`` (``    0: a``, ``    1: b``
    or one unnumbered line), up to the first line that is not indented."""
    start = text.find("\n", index)
    last = None
    while start >= 0:
        end = text.find("\n", start + 1)
        line = text[start + 1 : len(text) if end < 0 else end]
        if not line.strip() or not line[:1].isspace():
            break
        item = line.strip()
        number, colon, rest = item.partition(": ")
        last = rest.strip() if colon and number.isdigit() else item
        start = end
    return last or None


def _last_exception_line(text: str) -> str | None:
    return _last_exception_at(text)[0]


def _last_exception_at(text: str) -> tuple[str | None, int]:
    """The last line reading ``Type: message`` and where it starts (``(None, -1)``: none)."""
    end = len(text)
    while end > 0:
        colon = text.rfind(": ", 0, end)  # frames have no ": ", exception lines do
        if colon < 0:
            return None, -1
        start = text.rfind("\n", 0, colon) + 1
        line_end = text.find("\n", colon)
        found = _exception_line(text[start : len(text) if line_end < 0 else line_end])
        if found is not None:
            return found, start
        end = start
    return None, -1


# Lines that say nothing about the failure: banners and rulers, a bare word, a JSON or HTML
# envelope line, a log record below ERROR, a test runner's header.
_USELESS = re.compile(
    r"""[ \t]*(?:
        [=_\-*#~+]{3,}.* | \.\.\.                          # banners, rulers, bound()'s cut
      | (?i:error|exception|failure|failed|fatal|warning|traceback|stack[ ]trace)[.!:]?\s*
      | (?:\{\s*"|\[\s*[{"]|</?[A-Za-z!]).*                # JSON / HTML left over
      | \S*[ \t,|\]]*(?:TRACE|DEBUG|INFO|NOTICE|WARN(?:ING)?)\b.*   # records below ERROR
      | platform[ ]\S+[ ]--[ ]Python.* | rootdir:.* | cachedir:.* | plugins:.*
      | collect(?:ed|ing)[ ].* | configfile:.*
    )$""",
    re.VERBOSE,
)


# Progress and status lines: a tool reporting what it is doing, never what failed. A status
# glyph (Docker compose's `[+]`, a spinner frame, a done tick, a BuildKit step `#5`), a progress
# verb opening the line (after a tag: a layer id, `remote:`, `go:`), or a progress measure (a
# percentage, `12.3/45.6 MB`, a bar). A line that also names a failure is not one of them.
_PROGRESS = re.compile(
    r"""[ \t]*(?:
        \[[+*]\][ ] | [\u2800-\u28ff✔✓] | [━█▉▊▋▌▍▎▏░▒▓]{3} | \#\d+[ ]
      | (?:[\w.\-]{1,64}:[ ])?[ \t]*
        (?:Pulling|Pulled|Pull[ ]complete|Pushing|Pushed|Downloading|Downloaded|Download[ ]complete
          |Extracting|Verifying|Waiting|Already[ ]exists|Collecting|Installing|Uninstalling
          |Successfully[ ]installed|Using[ ]cached|Requirement[ ]already[ ]satisfied|Looking[ ]in
          |Processing|Would[ ]install|Cloning[ ]into|Receiving[ ]objects|Resolving[ ]deltas
          |Counting[ ]objects|Compressing[ ]objects|Enumerating[ ]objects|Unpacking[ ]objects
          |Total[ ]\d+[ ]\(delta|Compiling|Updating|Fetching|Resolving|Building|Preparing
          |Reading[ ]package[ ]lists|Building[ ]dependency[ ]tree|(?:Get|Hit|Ign):\d+
          |Digest:[ ]sha256|Status:[ ]Downloaded|added[ ]\d+[ ]packages?|up[ ]to[ ]date
          |Step[ ]\d+/\d+|Sending[ ]build[ ]context|downloading|extracting)\b
    )""",
    re.VERBOSE,
)
# A progress measure anywhere on the line: a percentage, a rate, a bar, or a counter ending the
# line. Each is searched only when its literal is on the line (a search per position of a
# regex with no literal costs ~40 ns a character); each fails within a bounded step or a run it
# consumes, so a hostile line costs linear time.
_PERCENT = re.compile(r"\d%")
_RATE = re.compile(r"\d[ ]?[kMG]i?B/s")
_BAR = re.compile(r"\[=*>?[ ]*\]")
_COUNTER = re.compile(r"\d/\d+$")


def _has_measure(line: str) -> bool:
    if "%" in line and _PERCENT.search(line):
        return True
    if "B/s" in line and _RATE.search(line):
        return True
    if "[" in line and _BAR.search(line):
        return True
    return "/" in line and _COUNTER.search(line.rstrip(" ")[-32:]) is not None
# Words that make a line a failure report even when it reads like progress (searched in the
# lower-cased line: a case-insensitive alternation costs ~10 µs a short line, this ~1.5).
_FAILURE_WORDS = (
    "error", "fail", "fatal", "denied", "refused", "unable", "cannot", "can't", "could not",
    "invalid", "not found", "unauthori", "forbidden", "timeout", "timed out", "time out",
    "exception", "abort", "panic", "✘", "✗", "×",
)  # fmt: skip
_FAILURE_WORD = re.compile("|".join(re.escape(word) for word in _FAILURE_WORDS))


def _is_progress(line: str) -> bool:
    """Whether ``line`` reports progress or status, and no failure."""
    if _PROGRESS.match(line) is None and not _has_measure(line):
        return False
    return _FAILURE_WORD.search(line.lower()) is None


def _first_plain_line(text: str) -> str | None:
    start = 0
    size = len(text)
    while start < size:
        end = text.find("\n", start)
        if end < 0:
            end = size
        line = text[start:end]
        start = end + 1
        if (
            line.strip()
            and not _FRAME.match(line)
            and not _USELESS.match(line)
            and not _is_progress(line)
        ):
            return line.strip()
    return None


CAUSED_BY = 3
"""Strength of a pick: the last ``Caused by:`` line."""
EXCEPTION = 2
"""Strength of a pick: the last ``Type: message`` line."""
PLAIN = 1
"""Strength of a pick: the first line that is not a stack frame."""


def pick_line_with_strength(text: str) -> tuple[str | None, int]:
    """The most useful line of a text no rule claimed and how it was found (0: blank text)."""
    line = _last_caused_by(text)
    if line:
        return line, CAUSED_BY
    line = _last_exception_line(text)
    if line:
        return line, EXCEPTION
    line = _first_plain_line(text)
    return (line, PLAIN) if line else (None, 0)


def pick_line(text: str) -> str | None:
    """The most useful line of a text no rule claimed, or ``None`` for a blank text."""
    return pick_line_with_strength(text)[0]


@functools.cache
def _trace_modules() -> tuple[ModuleType, ModuleType]:
    """:mod:`hintline.traces` and its detector, imported on the first fallback that needs them
    (not with ``hintline``; an import statement per call would cost a microsecond)."""
    from hintline import traces
    from hintline.traces import _detect

    return traces, _detect


def _root_cause_line(source: str | BaseException) -> str | None:
    try:
        traces, detect = _trace_modules()
        if isinstance(source, str) and not detect.may_hold_trace(source):
            return None  # parse_trace's own first screen, without building an empty Trace
        root: ExceptionInfo | None = traces.parse_trace(source).root_cause
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


NO_ERROR_LINE = "No error line found in this input: nothing failed that hintline can name."
"""The fallback's text when the input holds no exception, no error record and no message."""
NO_ERROR_RECORD = (
    "No error line found: the input holds only log records below ERROR (INFO, DEBUG, WARNING)."
)


def fallback(
    text: str,
    source: str | BaseException | None = None,
    *,
    message: str | None = None,
    failure: bool = True,
) -> Hint:
    """The hint when no rule matches, category ``other``.

    It names the root cause: for an exception object, the one :func:`hintline.traces.parse_trace`
    finds; for text, the last ``Caused by:``, else the last exception line, or the trace
    parser's root cause where that is not the last line (chained Python tracebacks, Node
    ``[cause]`` chains, .NET inner exceptions); else ``message``, the located ERROR record's
    message; else the first line that says something (no banner, ruler, bare ``Error``, JSON
    or HTML left-over, log record below ERROR); else it says plainly that no error line was
    found.

    Args:
        text: the located failing block (scrubbed).
        source: the exception object, when ``clean()`` was given one.
        message: the message of the located ERROR record, if any (scrubbed).
        failure: false when the input is a log with no record at ERROR or above.
    """
    return _fallback(text, source, message, failure, scrub_message=False)


def _fallback(
    text: str,
    source: str | BaseException | None,
    message: str | None,
    failure: bool,
    *,
    scrub_message: bool,
) -> Hint:
    """:func:`fallback`; with ``scrub_message``, ``message`` is raw and scrubbed only if the
    hint names it (a pick from the text or the trace parser names something else)."""
    if not failure:
        return _fallback_hint(NO_ERROR_RECORD)
    picked, strength = pick_line_with_strength(text)
    line = None
    if isinstance(source, BaseException):
        line = _root_cause_line(source)
    elif _needs_trace_parser(text, picked, strength):
        line = _root_cause_line(text)
    if line is None and message and (picked is None or strength == PLAIN):
        line = scrub(message) if scrub_message else message
    return _hint_of(line or picked or (NO_ERROR_LINE if text.strip() else None))


def _hint_of(line: str | None) -> Hint:
    """The hint naming ``line`` (cached unless the line is long)."""
    if line is not None and len(line) > _MAX_CACHED_VALUE:
        return _fallback_hint_uncached(line)
    return _fallback_hint(line)


def fallback_block(block: str, *, message: str | None = None, failure: bool = True) -> Hint:
    """:func:`fallback` of a text block that has not been scrubbed yet: the same hint as
    ``fallback(scrub(block), message=scrub(message), failure=failure)``, without scrubbing all
    of a long block when the line it names sits near its end.

    A line is picked from the *raw* block first. When that is the last ``Caused by:`` or
    exception line (the picks made from the end of the text) of a long block, only a window is
    scrubbed: from :data:`_WINDOW_LINES` lines above that line to the end of the block, and the
    line is picked again from the scrubbed window. Why this is the same line as from the whole
    scrubbed block, and no secret can reach it unmasked:

    * the scrubber's own contract (:class:`~hintline.scrub.SecretPattern`: ``trigger``,
      ``reach``, ``lines``): a match starts on the line where its trigger ends and spans at
      most ``lines`` lines, so what masks the window's lines below its first
      :data:`_WINDOW_LINES` is found in the window, as it is in the whole block;
    * a pattern that may span any number of lines (``multiline``: a PEM body) has its trigger
      anywhere above; if the literal that opens its trigger occurs anywhere in the block (or the
      trigger opens with no literal), the whole block is scrubbed, as before;
    * the window's pick must come from below its first :data:`_WINDOW_LINES` lines, and a
      ``Caused by:`` pick must be one at the start of its line (an indented one gives way to
      any unindented one above); otherwise the whole block is scrubbed;
    * a chained trace (:data:`_CHAIN_MARKERS`) sends the pick to the trace parser, which reads
      the whole text: the whole block is scrubbed. Masking never writes a marker (``***``
      holds none of their characters), so the raw block's screen decides for the scrubbed one;
    * masking creates no ``Caused by:`` line (it may hide one): the window must find a
      ``Caused by:`` exactly when the raw block has one, so an exception-line pick from the
      window is never overtaken by a ``Caused by:`` above it.

    ``tests/cleaner/test_fallback_window.py`` holds it to the whole-block path on every fixture
    and on generated blocks with PEM keys, YAML block scalars and folded values planted around
    the picked line.
    """
    if failure and len(block) > _WINDOW_MIN:
        hint = _fallback_window(block)
        if hint is not None:
            return hint  # a Caused by: or exception line: the message is not named
    # the message is scrubbed only when the hint names it (scrub(message) is then what
    # fallback() is given; scrub() of an empty message is empty, as `message and` reads it)
    return _fallback(scrub(block), None, message, failure, scrub_message=True)


_WINDOW_MIN = 4096
"""Blocks up to this long are scrubbed whole (one scan of a few KiB costs less than the checks)."""
_WINDOW_LINES = 16
"""Lines scrubbed above the picked line: many times the most lines a secret pattern spans (2)."""


def _multiline_literals() -> tuple[str, ...] | None:
    """The literal opening the trigger of every pattern of the default scrubber that may span
    any number of lines, or ``None`` when one has no such literal (then no window is safe)."""
    from hintline import scrub as scrub_package

    scrubber = scrub_package._DEFAULT
    cached = _LITERALS.get(id(scrubber))
    if cached is not None and cached[0] is scrubber:
        return cached[1]
    literals: list[str] | None = []
    for pattern in scrubber.patterns:
        if pattern.multiline:
            lead = _LITERAL_LEAD.match(pattern.trigger or pattern.pattern)
            if lead is None or len(lead.group()) < 3 or literals is None:
                literals = None
            else:
                literals.append(lead.group())
    result = None if literals is None else tuple(literals)
    _LITERALS.clear()
    _LITERALS[id(scrubber)] = (scrubber, result)
    return result


_CAUSED_BY_INDEX = 0


def _blockers(literals: tuple[str, ...]) -> LiteralScreen:
    """One screen for ``Caused by:`` (index 0), the chain markers and the multi-line secrets'
    literals: one pass over a long block answers all three (``in`` or ``rfind`` costs about as
    much as a pass per literal on 64 KiB)."""
    screen = _BLOCKERS.get(literals)
    if screen is None:
        screen = LiteralScreen((_CAUSED_BY, *_CHAIN_MARKERS, *literals))
        _BLOCKERS.clear()
        _BLOCKERS[literals] = screen
    return screen


_BLOCKERS: dict[tuple[str, ...], LiteralScreen] = {}
_LITERAL_LEAD = re.compile(r"[A-Za-z0-9 _\-]+(?![?*{])")
_LITERALS: dict[int, tuple[object, tuple[str, ...] | None]] = {}


def _fallback_window(block: str) -> Hint | None:
    """The fallback from a scrubbed window at the end of ``block`` (see :func:`fallback_block`),
    or ``None`` when the whole block must be scrubbed."""
    literals = _multiline_literals()
    if literals is None:
        return None
    found = _blockers(literals).which(block)
    if len(found) > 1 or (found and _CAUSED_BY_INDEX not in found):
        return None  # a multi-line secret may open anywhere above, or a chained trace
    line, start, indented = (
        _last_caused_by_at(block) if _CAUSED_BY_INDEX in found else (None, -1, False)
    )
    caused_by = line is not None
    if not caused_by:
        line, start = _last_exception_at(block)
        if line is None:
            return None
    elif indented:
        return None
    cut = start  # where the window starts: _WINDOW_LINES lines above the picked line
    for _ in range(_WINDOW_LINES):
        if cut == 0:
            return None  # the window would be the whole block
        cut = block.rfind("\n", 0, cut - 1) + 1
    window = scrub(block[cut:])
    zone = -1
    for _ in range(_WINDOW_LINES):
        zone = window.find("\n", zone + 1)
        if zone < 0:
            return None
    picked, at, indented = _last_caused_by_at(window)
    if (picked is not None) != caused_by:
        return None  # a masked `Caused by:` line: the whole block may hold an earlier one
    if picked is None:
        picked, at = _last_exception_at(window)
    if picked is None or indented or at <= zone:
        return None
    # fallback(window) would pick this same line (the same searches, in the same order) and
    # name it: the window holds no chain marker (the block has none, and masking writes only
    # `*`, which no marker holds), so the trace parser is not asked, nor the message
    return _hint_of(picked)


def _fallback_hint_uncached(line: str | None) -> Hint:
    if line:
        # a printable line holds none of _CONTROL's characters (each is a control or format
        # character, or an escape sequence opening with ESC): nothing to remove
        shown = line if line.isprintable() else _CONTROL.sub("", line)
        if shown:
            text = _quiet_text(shown)
            if text is not None:
                return make(Category.OTHER, text, None, None)
        # scrubbed before links are dropped: `password: S3cret` must not lose its key
        line = keep_chain_root(scrub(shown), _BUDGET)
    text = finish(PREFIX + (line or "Empty error message: nothing to act on."))
    return make(Category.OTHER, text, None, None)


_BUDGET = MAX_HINT_CHARS - len(PREFIX)


def _quiet_text(shown: str) -> str | None:
    """The hint's text for the line ``shown`` when one prefilter scan of ``PREFIX + shown``
    finds no trigger, else ``None`` (then ``shown`` and the hint are scrubbed as they were).

    That scan answers for both scrubs of the long way, ``finish(PREFIX +
    keep_chain_root(scrub(shown)))`` (:func:`~hintline.cleaner.render._quiet`): ``shown`` is a
    part of the scanned text, so ``scrub(shown)`` is ``shown``; when no link is dropped the
    hint is the scanned text itself, whose scrub is itself (a scan that found nothing means
    it is valid UTF-8: ``valid_text`` keeps it too). A chain cut to its root joins links that
    were apart: that hint is scrubbed by ``finish`` as before.
    """
    candidate = PREFIX + shown
    if not _quiet(candidate):
        return None
    kept = keep_chain_root(shown, _BUDGET)
    if kept is not shown:
        return finish(PREFIX + kept)
    return _finish(candidate, candidate)


_fallback_hint = functools.lru_cache(maxsize=1024)(_fallback_hint_uncached)


_CHAIN_SEPARATOR = ": "
_MIN_LINKS = 4


def keep_chain_root(line: str, budget: int) -> str:
    """A wrapped-error chain longer than ``budget`` keeps its first link and as many of its last
    links as fit (``sync orders: … dial tcp 10.0.0.5:443: connect: connection reset``): Go's
    ``%w`` chains and similar ``a: b: c`` wrappers print the root cause last, where a plain
    cut would drop it. Other lines are returned as they are (the caller cuts them)."""
    if len(line) <= budget or line.count(_CHAIN_SEPARATOR) < _MIN_LINKS - 1:
        return line
    links = line.split(_CHAIN_SEPARATOR)
    head = links[0] + ": … "
    tail: list[str] = []
    size = len(head)
    for link in reversed(links[1:]):
        extra = len(link) + (len(_CHAIN_SEPARATOR) if tail else 0)
        if size + extra > budget:
            break
        tail.insert(0, link)
        size += extra
    if not tail:
        return line
    return head + _CHAIN_SEPARATOR.join(tail)
