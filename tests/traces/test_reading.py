"""The screens that keep a reader from walking lines it cannot use read as the plain walk.

``_php.reading_text`` drops the lines PHP's reader passes over (no mark, outside a header's
window): every fixture of every language, read as PHP, with junk lines, empty lines, overlong
lines, marks and stack rows spliced in, parses the same with and without the screen. The vote
past its first lines goes by distinct line: it picks the language the plain walk picks, on
every fixture and on long mixes of them.
"""

from __future__ import annotations

import random

import pytest

import hintline.traces as traces
from hintline.traces import _detect, _php
from hintline.traces._memo import clear_memos
from hintline.traces._raw import MAX_LINE
from tests.traces.golden import cases

JUNK = [
    "", "", "", "Fatal error:", "Fatal error: nothing", "   ", "\t", "x" * (MAX_LINE + 3), "y" * MAX_LINE,
    "Stack trace:", "#0 /a/x.php(12): App\\\\Repo->find('x')", "#1 {main}", "#x not a row", "# ", "#0",
    "#1", "#1 ", "#1 \u2003", "#2 \t x", "#1  \x1c", "#3 \u00a0/a/x.php(3): g()", "  #3 /a/x.php(3): g()", "#12\t/a/x.php(1): f()", "#1024 /x(1): f()", "x #2 /a.php(2): h()", "#\u0663 /a/x.php(3): g()",
    "PHP Fatal error:  Uncaught RuntimeException: boom in /a/x.php:3", "Next LogicException: two in /a/y.php:4",
    "  thrown in /a/x.php on line 3", '{"message":"m","context":{"exception":{"class":"E","message":"m","file":"/a:1"}}}',
    "[2026-11-30 10:00:00] app.ERROR: boom {\"exception\":\"[object] (RuntimeException(code: 0): boom at /a/x.php:3)\"}",
    "thrown in x.php on line 3", '{"class":"E","message":"m","file":"x:1"}',
    "[stacktrace]", "[previous exception] [object] (LogicException(code: 0): two at /a/y.php:4)",
    "TypeError: f(): Argument #1 must be of type int in C:\\\\app\\\\x.php:9", "Next ", "Uncaught ", "a in /b",
]


def _spliced(lines: list[str], rnd: random.Random) -> list[str]:
    out = list(lines)
    for _ in range(rnd.randrange(1, 40)):
        at = rnd.randrange(len(out) + 1)
        pick = rnd.choice(JUNK)
        out[at:at] = [pick] * rnd.choice((1, 1, 2, 7, 49, 50, 51, 52, 120))
    return out


def test_php_reads_the_screened_text_as_the_whole_text() -> None:
    rnd = random.Random(20261202)
    checked = dropped = 0
    for txt in cases():
        base = txt.read_text(encoding="utf-8").split("\n")
        for _ in range(12):
            text = "\n".join(_spliced(base, rnd))
            if rnd.random() < 0.1:
                text = text.replace("\n", "\r\n")
            screened = _php.reading_text(text)
            dropped += screened != text
            clear_memos()
            want = _php.parse_php(traces._split(text))
            got = _php.parse_php(traces._split(screened))
            assert (got.extra, [(e.type, e.message, e.frames, e.parent, e.relation) for e in got.exceptions]) == (
                want.extra,
                [(e.type, e.message, e.frames, e.parent, e.relation) for e in want.exceptions],
            ), txt.name
            checked += 1
    assert checked > 600
    assert dropped > 300


def test_a_php_head_then_many_junk_lines_reads_few() -> None:
    head = "PHP Fatal error:  Uncaught Exception: boom in /a/x.php:1\nStack trace:\n#0 /a/x.php(1): f()\n"
    text = head + ("Fatal error:\n" + "\n" * 7) * 3000
    lines, lang = traces._lines(text, None)
    assert lang == "php"
    assert len(lines) < 80
    assert parse_trace_dict(text) == parse_trace_dict(text, screen=False)


def parse_trace_dict(text: str, *, screen: bool = True) -> dict[str, object]:
    if screen:
        return traces.parse_trace(text).to_dict()
    with pytest.MonkeyPatch.context() as m:
        m.setattr(traces, "_READING", {})
        return traces.parse_trace(text).to_dict()


def _plain_vote(lines: list[str]) -> str | None:
    """The vote as one walk over every line in order (what detect_language did for any length)."""
    score = dict.fromkeys(_detect.LANGUAGES, 0)
    for line in lines:
        if len(line) > MAX_LINE or not line:
            continue
        lang, add = _detect._vote(line)
        if lang is not None:
            score[lang] += add
            if score[lang] >= _detect._DECISIVE:
                return lang
    best = max(_detect.LANGUAGES, key=lambda lang: score[lang])
    return best if score[best] >= 2 else None


def test_the_vote_by_distinct_line_picks_what_the_walk_picks() -> None:
    rnd = random.Random(20261203)
    texts = [txt.read_text(encoding="utf-8").split("\n") for txt in cases()]
    seen = 0
    for _ in range(400):
        lines: list[str] = []
        while len(lines) < rnd.choice((100, 300, 600, 2000)):
            piece = rnd.choice(texts)
            cut = rnd.randrange(len(piece))
            lines += piece[cut : cut + rnd.randrange(1, 40)] if rnd.random() < 0.3 else [rnd.choice(piece)] * rnd.randrange(1, 200)
            lines += [rnd.choice(JUNK)] * rnd.randrange(0, 50)
        clear_memos()
        want = _plain_vote(lines)
        assert _detect.detect_language(lines) == want
        assert _detect.detect_language(lines) == want  # memos warm
        seen += len(lines) > _detect._WALK
    assert seen > 200


def _plain(text: str, language: str | None) -> dict[str, object]:
    """parse_trace with the lines split and voted on as they are (no cut, no screen)."""

    def plain(text: str, hint: str | None) -> tuple[list[str], str | None]:
        lines = traces._split(text)
        return lines, hint or traces.detect_language(lines)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(traces, "_lines", plain)
        return traces.parse_trace(text, language=language).to_dict()


def test_parse_trace_of_many_short_lines_reads_as_the_whole_text() -> None:
    """The whole path (runs cut, PHP's screen past _MANY_LINES short lines) on every fixture
    with hundreds of junk and empty lines spliced in, detected and read as PHP."""
    rnd = random.Random(20261204)
    screened = 0
    for txt in cases():
        base = txt.read_text(encoding="utf-8").split("\n")
        for _ in range(3):
            lines = list(base)
            for _ in range(rnd.randrange(20, 60)):
                at = rnd.randrange(len(lines) + 1)
                lines[at:at] = [rnd.choice([*JUNK[:7], "#1", "#1 ", "!", ""])] * rnd.choice((1, 3, 8, 49, 51, 60))
            text = "\n".join(lines)
            count = text.count("\n")
            screened += count >= traces._MANY_LINES and len(text) < traces._SHORT_LINES * count
            for language in (None, "php"):
                clear_memos()
                assert traces.parse_trace(text, language=language).to_dict() == _plain(text, language), txt.name
    assert screened > 100
