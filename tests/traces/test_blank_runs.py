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
