"""Normalise an error as it arrives, so that the rules read what a person reading it would.

* A JSON string, a JSON log record (python-json-logger, structlog, pino, ECS, Monolog…), JSON
  lines of them, or a JSON envelope of an error (a JSON-RPC ``error``, a tool result's
  ``content`` texts, ``{"error": {"message": …}}``, ``{"detail": …}``) becomes its text: the
  message and exception fields the log readers know, one or two levels deep (a JSON string
  inside a JSON field is decoded too). A record below ERROR, and every record of JSON lines,
  opens with its level (``INFO message``) so that the failure can be located.
* An HTML page (a text that opens with markup) becomes its text: its ``<pre>`` blocks, else
  its title and body text; tags, scripts and styles dropped, ``<br>`` a line break, entities
  decoded. A text that opens with words keeps the markup it quotes (a trace's ``<module>``, a
  template error's ``'<b>'``).
* CRLF and lone CR become LF; HTML entities and JSON escapes left in plain text (``&#x27;``,
  ``\\n``, ``\\"``) are decoded, so captured keys carry no escape residue.
* A prefix common to every line is cut: an ISO timestamp, a syslog header, a container
  runtime's (CRI ``… stdout F``, Compose ``web-1  | ``), pytest's ``E``, uniform indentation.

A text with none of these is returned as is (the same object), after a few checks that cost
well under a microsecond: its first two characters, then four one-character ``in`` tests
(``\\r``, ``\\``, ``&``, ``|``), each a ``memchr`` pass; the regexes run only when one of them
says there may be something to do. :func:`normalise_and_locate`, ``clean()``'s front, makes
the same checks for locate() too (a log opens with a record header). Total: any input gives a
``str``.
"""

from __future__ import annotations

from collections.abc import Callable

from hintline import _lazyre as re  # patterns compiled on first use
from hintline.cleaner._json import MAX_DEPTH, json_string, json_text
from hintline.cleaner.locate import STARTS_BY_FIRST, Located, locate

__all__ = ["normalise", "normalise_and_locate"]


def _load_html(text: str) -> bool:
    """``is_html(text)`` after loading :mod:`hintline.cleaner._html` and binding its two
    functions here: only a text holding ``<`` needs them (not at start-up)."""
    global is_html, html_text
    from hintline.cleaner import _html

    is_html, html_text = _html.is_html, _html.html_text
    return is_html(text)


def _html_text(text: str) -> str:  # pragma: no cover - is_html() has bound the real one
    from hintline.cleaner._html import html_text as real

    return real(text)


is_html: Callable[[str], bool] = _load_html
html_text: Callable[[str], str] = _html_text

_ISO = r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?"
_SYSLOG_TS = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[ ][ \d]\d[ ]\d\d:\d\d:\d\d"
_LEVELS = r"(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|CRITICAL|FATAL)"
# Line prefixes, each tried on the first line; cut when every non-blank line has it.
_PREFIXES = (
    re.compile(rf"{_ISO}[ ](?:stdout|stderr)[ ][FP][ ]"),  # Kubernetes CRI log files
    re.compile(  # syslog (RFC 3164 and 5424 shapes), journalctl's short output
        rf"(?:<\d{{1,3}}>\d?[ ]?{_ISO}|{_SYSLOG_TS})[ ](?!{_LEVELS}\b)[\w.\-]+[ ]"
        r"[\w./\-]+(?:\[\d+\])?:[ ]?"
    ),
    # an ISO timestamp, then host and program[pid] (rsyslog's file format, short-iso)
    re.compile(rf"{_ISO}[ ](?!{_LEVELS}\b)[\w.\-]+[ ][\w./\-]+\[\d+\]:[ ]?"),
    # the same without [pid] (``… web01 kernel: ``) reads like ``<ts> parse error: …``: a
    # syslog header only when two lines or more carry the same host and program
    re.compile(rf"{_ISO}[ ](?!{_LEVELS}\b)(?P<tag>[\w.\-]+[ ][\w./\-]+):[ ]?"),
    re.compile(r"[\w.\-]{1,64}[ ]*\|[ ]?"),  # docker compose ``web-1  | ``
    re.compile(rf"\[?{_ISO}\]?(?:[ ]|\t|:[ ])"),  # an ISO timestamp (docker logs -t, ts(1))
    re.compile(r"E(?=[ ]|$)"),  # pytest's failure lines (the spaces after it are indentation)
)
_GATE = re.compile(
    r"\[?\d{4}-|<\d|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[ ]|[\w.\-]{1,64}[ ]*\||E[ ]|[ \t]"
)
_JSON_ESCAPE = re.compile(r"\\(?:n|t|r|\"|/|\\|u[0-9a-fA-F]{4})")
_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z]{2,8});")


def normalise(text: str) -> str:
    """``text`` as a person would read it (see the module docstring). Never raises.

    Plain text (the common case) is recognised by a few character checks and returned as is.
    """
    try:
        first = text[0]
        if not (  # the checks of _plain(), inline and cheapest first: this is every call's path
            (first in _STARTS and ((starts := _STARTS[first]) is None or text[1] in starts))
            or "\r" in text
            or "\\" in text
            or "&" in text
            or ("|" in text and 0 < text.find("|", 0, 72) < text.find("\n", 0, 72) % 73)
        ):
            return text
    except IndexError:  # an empty or one-character text: the long way
        if not text:
            return text
    try:
        return _remembered(text)
    except (ValueError, RecursionError, MemoryError):
        return text


def normalise_and_locate(text: str) -> tuple[str, Located | None] | None:
    """:func:`normalise` then :func:`~hintline.cleaner.locate.locate` on what it gives, in
    one call (``clean()``'s front): ``(normalised text, located block or None)``.

    ``None`` when there is nothing to do: the text is plain and one block, the common case,
    recognised by :func:`normalise`'s character checks with the first two characters read
    once for both stages.
    """
    try:
        first = text[0]
        if not (
            (first in _FRONT and ((second := _FRONT[first]) is None or text[1] in second))
            or "\r" in text
            or "\\" in text
            or "&" in text
            or ("|" in text and 0 < text.find("|", 0, 72) < text.find("\n", 0, 72) % 73)
        ):
            return None
    except IndexError:  # an empty or one-character text: the long way
        pass
    out = normalise(text)  # (not in the try: an IndexError there is not one of the checks')
    return out, locate(out)


_MEMO: dict[str, str | None] = {}
"""The texts normalised last (``None``: returned as is): a repeated error arrives again as the
same JSON line or page, and is decoded once. Input-keyed: emptied by ``caches.clear()``."""
_MEMO_SIZE = 128
_MEMO_CHARS = 8192
"""Only texts up to 8 K characters are kept (at most about 2 MB of ASCII text in all)."""


def _remembered(text: str) -> str:
    """``_normalise(text, 0)``, from :data:`_MEMO` when ``text`` was normalised before."""
    if len(text) > _MEMO_CHARS:
        return _normalise(text, 0)
    try:
        out = _MEMO[text]
    except KeyError:
        out = _normalise(text, 0)
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()  # (one atomic step: no order to keep across threads)
        _MEMO[text] = None if out is text else out
        return out
    return text if out is None else out


def clear_memo() -> None:
    """Forget the texts normalised so far (see :data:`_MEMO`)."""
    _MEMO.clear()


def _plain(text: str) -> bool:
    """Whether there is nothing to normalise (a few character checks, no regex)."""
    if not text:
        return True
    first = text[0]
    return not (
        first in _FIRST_SPECIAL
        or "\r" in text
        or "\\" in text
        or "&" in text
        or (first in _MONTH_FIRST and text.startswith(_MONTHS))
        or (first == "E" and text[1:2] in _PYTEST_E_NEXT)
        or ("|" in text and 0 < text.find("|", 0, 72) < text.find("\n", 0, 72) % 73)
        or ("<" in text and is_html(text))
    )


def _normalise(text: str, depth: int) -> str:
    if not text:
        return text
    first = text[0]
    if first in " \t\n\ufeff":
        stripped = text.strip()
        first = stripped[:1]
        if first in ("{", "[", '"', "<") and depth <= MAX_DEPTH:
            text = stripped
    if depth <= MAX_DEPTH:
        if first in ("{", "["):
            decoded = json_text(text, depth)
            if decoded is not None:
                return decoded if _plain(decoded) else _normalise(decoded, depth + 1)
        elif first == '"':
            decoded = json_string(text)
            if decoded is not None:
                return decoded if _plain(decoded) else _normalise(decoded, depth + 1)
        if is_html(text):
            return _normalise(html_text(text), MAX_DEPTH + 1)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\\" in text and text.count("\\n") + text.count('\\"') > text.count("\n"):
        text = _unescape_json(text)
    if "&" in text and _ENTITY.search(text):
        import html  # here: a text with entities is rare, and the module costs start-up

        text = html.unescape(text)
    if _may_be_prefixed(text) and _GATE.match(text):
        text = _cut_prefixes(text)
    return text


_MONTHS = ("Jan ", "Feb ", "Mar ", "Apr ", "May ", "Jun ", "Jul ", "Aug ", "Sep ", "Oct ", "Nov ",
           "Dec ")  # fmt: skip
_MONTH_FIRST = frozenset("JFMASOND")
# What a text's first character may be when there is something to do: JSON, HTML, indentation,
# a timestamp, a syslog priority, a bracket (pytest's E: with a space after it).
_FIRST_SPECIAL = frozenset(' \t\n\ufeff{["<0123456789')
_PYTEST_E_NEXT = frozenset((" ", "\n", ""))
_PREFIX_FIRST = frozenset("0123456789[< \tE")


def _second_characters(starts: dict[str, tuple[str, ...]]) -> dict[str, frozenset[str] | None]:
    """For each first character, the second characters a text opening with one of its starts
    can have (``None``: any, a start of one character)."""
    seconds: dict[str, frozenset[str] | None] = {}
    for first, options in starts.items():
        if any(len(start) < 2 for start in options):
            seconds[first] = None
        else:
            seconds[first] = frozenset(start[1] for start in options)
    return seconds


# The starts of a text that normalise() may have work on, by first character: JSON, HTML,
# indentation, a timestamp, a syslog priority (any second character); a syslog month; pytest's
# ``E`` with a space or a line break after it (a text of ``E`` alone has no second character).
_NORMALISE_STARTS: dict[str, tuple[str, ...]] = {first: (first,) for first in _FIRST_SPECIAL}
for _month in _MONTHS:
    _NORMALISE_STARTS[_month[0]] = (*_NORMALISE_STARTS.get(_month[0], ()), _month)
_NORMALISE_STARTS["E"] = ("E ", "E\n")
_STARTS = _second_characters(_NORMALISE_STARTS)
"""First character -> the second characters (``None``: any) of a text normalise() may change;
a text whose first two characters are not here needs none of the start's checks."""
# The same for normalise() then locate(): a record header's starts, a pytest report's ``=``, a
# PHP error after an empty line.
_FRONT = _second_characters(
    {
        first: (*_NORMALISE_STARTS.get(first, ()), *STARTS_BY_FIRST.get(first, ()))
        for first in {*_NORMALISE_STARTS, *STARTS_BY_FIRST, "=", "\n"}
    }
    | {"=": ("=",), "\n": ("\n",)}
)



def _may_be_prefixed(text: str) -> bool:
    """Cheap checks before the prefix regex: what the first character of a prefix can be."""
    return bool(text) and (
        text[0] in _PREFIX_FIRST
        or text.startswith(_MONTHS)
        or 0 < text.find("|", 0, 72) < text.find("\n", 0, 72) % 73
    )


def _unescape_json(text: str) -> str:
    """Undo JSON string escapes in a text that holds an escaped string but is not JSON."""
    return _JSON_ESCAPE.sub(_unescape_one, text)


_SIMPLE = {"n": "\n", "t": "\t", "r": "", '"': '"', "/": "/", "\\": "\\"}


def _unescape_one(found: re.Match[str]) -> str:
    code = found[0][1:]
    if code[0] == "u":
        return chr(int(code[1:], 16))
    return _SIMPLE[code]


# --- line prefixes ---------------------------------------------------------------------------

_TAG = "tag"
# Each prefix as a pass over the whole text (C-level, no Python loop per line): a non-blank
# line that does not open with it (then the prefix is not common to every line), and the cut
# itself on the lines after the first (the prefix off each; a line of whitespace only becomes
# empty; every line break counted, so that a line without the prefix shows). Each opens with
# the line break, so the search jumps from one to the next (a ``^`` is tried at every
# character); ``$`` (MULTILINE) is a line's end here, as it is on the line alone.
_NOT_PREFIXED = tuple(
    re.compile(rf"\n(?![^\S\n]*$)(?!{p.pattern})", re.MULTILINE) for p in _PREFIXES
)
_CUT = tuple(re.compile(rf"\n(?:{p.pattern}|[^\S\n]*$)", re.MULTILINE) for p in _PREFIXES)
# What each prefix's first character can be: a line after the first opening with anything
# else (but whitespace) shows at once that the prefix is not on every line.
_OPENERS = (r"\d", r"<JFMASOND", r"\d", r"\d", r"\w.\-", r"\[\d", r"E")
_OTHER_OPENER = tuple(re.compile(rf"\n[^\s{chars}]") for chars in _OPENERS)
_UNINDENTED = re.compile(r"\n[^ \t\n]")
_EARLY = 2048
"""The lines in the first 2 KiB are checked for the prefix before the whole text is cut: a
log's own first lines are where a text without a common prefix most often shows it."""


def _first_line(text: str) -> str:
    """The first line of ``text`` that is not blank (``""`` when there is none): the line of
    its first character that is not whitespace."""
    end = text.find("\n")
    line = text if end < 0 else text[:end]
    if line.strip() or end < 0:
        return line if line.strip() else ""
    rest = text.lstrip()
    if not rest:
        return ""
    at = len(text) - len(rest)
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return text[start:] if end < 0 else text[start:end]


def _cut_prefixes(text: str, rounds: int = 2) -> str:
    """Cut a prefix that every non-blank line carries (tried in the order of ``_PREFIXES``)."""
    first = _first_line(text)
    for index, prefix in enumerate(_PREFIXES):
        if prefix.match(first) is None:
            continue
        if _TAG in prefix.groupindex:
            cut_text = _cut_tagged(text, prefix)
            if cut_text is None:
                continue
        else:
            if _OTHER_OPENER[index].search(text) is not None:
                continue
            early = text.rfind("\n", 0, _EARLY) if len(text) > _EARLY else len(text)
            if _NOT_PREFIXED[index].search(text, 0, max(early, 0)) is not None:
                continue
            cut_text = _cut(text, prefix, _CUT[index])
            if cut_text is None:
                continue
            if prefix.pattern.startswith("E"):
                return _dedent(cut_text)
        # a CRI prefix then the program's own timestamp: cut once more, not without end
        if rounds > 1 and _may_be_prefixed(cut_text) and _GATE.match(cut_text):
            return _cut_prefixes(cut_text, rounds - 1)
        return cut_text
    return _dedent(text)


def _cut(text: str, prefix: re.Pattern[str], rest: re.Pattern[str]) -> str | None:
    """``prefix`` off the start of every line, the first here, the others by ``rest``; a line
    of whitespace only becomes empty. ``None`` when a non-blank line does not open with it."""
    end = text.find("\n")
    head = text if end < 0 else text[:end]
    found = prefix.match(head)
    if found is not None:
        head = head[found.end() :]
    elif head.strip():
        return None
    else:
        head = ""
    if end < 0:
        return head
    tail, cuts = rest.subn("\n", text[end:])
    if cuts != text.count("\n"):
        return None  # a line break not followed by the prefix nor by a blank line
    return head + tail


def _cut_tagged(text: str, prefix: re.Pattern[str]) -> str | None:
    """The cut of a ``<ts> host program:`` prefix: every non-blank line has it, with one and
    the same host and program, on two lines or more; else ``None``."""
    cut = []
    tags = set()
    for line in text.split("\n"):
        if not line.strip():
            cut.append("")
            continue
        found = prefix.match(line)
        if found is None:
            return None
        tags.add(found[_TAG])
        if len(tags) > 1:
            return None
        cut.append(line[found.end() :])
    if sum(1 for line in cut if line) < 2:
        return None  # one line: its ``host program:`` may be the message's own words
    return "\n".join(cut)


def _dedent(text: str) -> str:
    """``text`` without the indentation common to its non-blank lines."""
    if text[:1] not in (" ", "\t", "\n") or _UNINDENTED.search(text) is not None:
        return text  # a line that is not indented: nothing is common
    lines = text.split("\n")
    indent = None
    for line in lines:
        stripped = line.lstrip(" \t")
        if stripped:
            size = len(line) - len(stripped)
            if size == 0:
                return text
            if indent is None or size < indent:
                indent = size
    if not indent:
        return text
    return "\n".join(line[indent:] for line in lines)
