"""A run of more empty lines than any reader can tell apart is cut before parsing, and the parse
is the same as without the cut (hintline.traces._cut_blank_runs): a text of empty lines, one per
byte, is 64 Ki lines a 64 KiB that every reader would otherwise walk to its end."""

from __future__ import annotations

import random

import pytest

import hintline.traces as traces
from hintline.traces import parse_trace
from hintline.traces._memo import clear_memos
from tests.traces.golden import cases, meta

K = traces._KEPT_BLANKS


def _uncut(text: str, root: str | None, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    with monkeypatch.context() as m:
        m.setattr(traces, "_cut_blank_runs", lambda t: t)
        return parse_trace(text, project_root=root).to_dict()


def _with_runs(text: str, rnd: random.Random) -> str:
    lines = text.split("\n")
    for _ in range(rnd.randrange(1, 3)):
        at = rnd.randrange(len(lines) + 1)
        lines[at:at] = [""] * (K + rnd.choice((1, 2, 3, 17, 3000)))
    return "\n".join(lines)


def test_cut_runs_parse_as_the_whole_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(20261202)
    cut = 0
    for txt in cases():
        root = meta(txt.parent).get("project_root")
        text = _with_runs(txt.read_text(encoding="utf-8"), rnd)
        assert traces._cut_blank_runs(text) != text
        cut += 1
        clear_memos()
        assert parse_trace(text, project_root=root).to_dict() == _uncut(text, root, monkeypatch), txt.name
    assert cut > 50


@pytest.mark.parametrize(
    "text",
    [
        # a message that takes every empty line (a Rust panic message, up to MAX_MESSAGE)
        "thread 'main' panicked at src/main.rs:1:1:\nboom" + "\n" * (K + 500) + "note: run with `RUST_BACKTRACE=1`\n",
        "thread 'main' panicked at src/main.rs:1:1:\nboom" + "\n" * (K - 10) + "x\n",
        # a PHP header that counts its lines (50 at most)
        "PHP Fatal error:  Uncaught Exception: boom in /a/x.php:1" + "\n" * (K + 5) + "Stack trace:\n#0 /a/x.php(1): f()\n",
        # runs at the start and the end, and CRLF lines around one
        "\n" * (K + 9) + "Traceback (most recent call last):\n  File \"/a/x.py\", line 1, in f\nValueError: v" + "\n" * (K + 9),
        "java.lang.X: boom\r\n\tat a.b.C.d(C.java:1)\r\n" + "\n" * (K + 2) + "Caused by: a.B: x\r\n\t... 1 more\r\n",
    ],
    ids=["rust-message", "rust-short", "php-header", "python-ends", "jvm-crlf"],
)
def test_cut_runs_keep_what_readers_count(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert parse_trace(text).to_dict() == _uncut(text, None, monkeypatch)


def test_cut_is_linear_and_keeps_short_runs() -> None:
    short = ("\n" * K + "x") * 8  # runs of K newlines: K - 1 empty lines, kept
    assert traces._cut_blank_runs(short) == short
    long = "a" + "\n" * (10 * K) + "b"
    assert traces._cut_blank_runs(long) == "a" + "\n" * (K + 1) + "b"
    assert traces._split(long) == ["a", *[""] * K, "b"]


# --- runs of empty lines cut to what each language's reader tells apart ----------------------

def _whole_runs(text: str, language: str | None, root: str | None, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """The parse with no run cut below the general bound: lines split and voted on as they are."""

    def plain(text: str, hint: str | None) -> tuple[list[str], str | None]:
        lines = traces._split(text)
        return lines, hint or traces.detect_language(lines)

    with monkeypatch.context() as m:
        m.setattr(traces, "_lines", plain)
        return parse_trace(text, project_root=root, language=language).to_dict()


def _lengths(bound: int) -> list[int]:
    return sorted({1, 2, 3, 4, bound - 1, bound, bound + 1, bound + 2, 2 * bound + 3, 300})


def _runs_put(text: str, rnd: random.Random, lengths: list[int]) -> str:
    """``text`` with runs of empty lines put after some of its lines (after a header, inside
    a message, between frames, at the start and at the end)."""
    lines = text.split("\n")
    for _ in range(rnd.randrange(1, 5)):
        at = rnd.choice((0, len(lines), *range(1, min(len(lines), 8)), rnd.randrange(len(lines) + 1)))
        lines[at:at] = [""] * rnd.choice([n for n in lengths if n > 0])
    return "\n".join(lines)


@pytest.mark.parametrize("language", [None, *traces.LANGUAGES])
def test_runs_cut_to_the_readers_bound_parse_as_the_whole_runs(language: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every fixture, with runs of empty lines of every length around each reader's bound,
    through detection and through every reader (forced): the same parse as without the cut
    (which every text takes here, whatever the length of its lines)."""
    monkeypatch.setattr(traces, "_SHORT_LINES", 10**9)
    rnd = random.Random(f"blank-runs-{language}")
    checked = cut = 0
    for txt in cases():
        root = meta(txt.parent).get("project_root")
        base = txt.read_text(encoding="utf-8")
        for _ in range(3):
            text = _runs_put(base, rnd, _lengths(traces._BLANK_RUNS[language or "php"]) + _lengths(1))
            if rnd.random() < 0.2:
                text = text.replace("\n", "\r\n")
            clear_memos()
            got = parse_trace(text, project_root=root, language=language).to_dict()
            assert got == _whole_runs(text, language, root, monkeypatch), (txt.name, language)
            checked += 1
            cut += traces._RUNS.search(text) is not None
    assert checked > 150
    assert cut > 100


@pytest.mark.parametrize(
    "text",
    [
        # a PHP header takes empty lines until it is dropped (MAX_HEADER): every count around it
        *(f"PHP Fatal error:  Uncaught Exception: boom in /a/x.php:1{chr(10) * k}Stack trace:\n#0 /a/x.php(1): f()\n#1 {{main}}\n"
          for k in range(traces._PHP_BLANKS - 3, traces._PHP_BLANKS + 5)),
        *(f"PHP Fatal error:  Uncaught Exception: boom in /a/x.php:1\nline two{chr(10) * k}Stack trace:\n#0 /a/x.php(1): f()\n"
          for k in range(traces._PHP_BLANKS - 3, traces._PHP_BLANKS + 5)),
        # messages, frame runs and causes broken by runs of one to three empty lines
        *(t.replace("\n", "\n" * k, 2) for k in (2, 3, 4) for t in (
            "Traceback (most recent call last):\n  File \"/a/x.py\", line 1, in f\n    x()\nValueError: v\nmore\n",
            "java.lang.X: boom\nline two\n\tat a.b.C.d(C.java:1)\nCaused by: a.B: x\n\n\t... 1 more\n",
            "Error: boom\n    at f (/a/x.js:1:2)\n    at g (/a/x.js:2:2) {\n  code: 'E'\n}\n",
            "panic: boom\n\ngoroutine 1 [running]:\nmain.f()\n\t/a/x.go:1 +0x1d\n",
            "System.Exception: boom\n   at A.B() in /a.cs:line 1\n   at A.C() in /a.cs:line 2\n",
            "a.rb:1:in `f': boom (RuntimeError)\n\tfrom a.rb:1:in `g'\n\tfrom a.rb:2:in `h'\n",
        )),
    ],
)
def test_runs_around_the_bounds(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(traces, "_SHORT_LINES", 10**9)  # (every text takes the cut)
    for language in (None, *traces.LANGUAGES):
        assert parse_trace(text, language=language).to_dict() == _whole_runs(text, language, None, monkeypatch), language


def test_a_text_of_short_runs_is_cut_before_it_is_split() -> None:
    """A run below the general cut (MAX_MESSAGE) is cut to the reader's bound: the lines a
    reader gets from 64 KiB of runs of 4,000 empty lines."""
    text = "java.lang.X: boom\n\tat a.b.C.d(C.java:1)\n" + ("x" + "\n" * 4000) * 16
    lines, lang = traces._lines(text, None)
    assert lang == "java"
    assert len(lines) < 60
    php = "PHP Fatal error:  Uncaught Exception: boom in /a/x.php:1\n" + ("x" + "\n" * 4000) * 16
    lines, lang = traces._lines(php, None)
    assert lang == "php"
    assert len(lines) < 17 * (traces._PHP_BLANKS + 2)
