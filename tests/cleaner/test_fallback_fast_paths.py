"""The fallback's shortcuts give the answers of the work they skip (issue 20).

* ``_exception_line`` rejects a ``Type`` part that holds a space (and no ``[``) before the
  exception-type regex: the regex alone must say the same on every line.
* ``_root_cause_line`` skips ``parse_trace`` on a text without any piece of a trace: the
  parser must find no root cause there either.
* The signal matcher is looked up by identity while the rule table's matcher is unchanged:
  switching the engine or the table still switches the signals.

Lines and texts come from every fixture of the repository (real captures), the Defects4J
traces, and generated lines built from the pieces the regex reads.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hintline.cleaner import fallback as fb
from hintline.cleaner import match as _engine
from hintline.cleaner import signals
from hintline.traces import parse_trace

ROOT = Path(__file__).resolve().parents[2]
_TEXTS = sorted(
    {*ROOT.joinpath("tests").rglob("*.txt"), *ROOT.joinpath("benchmarks/data").rglob("*.txt")}
)


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def _regex_only(line: str) -> str | None:
    """``_exception_line`` as it read a line before the shortcut: the regex decides."""
    line = line.strip()
    if line.startswith("|"):
        line = line.lstrip("|").strip()
    if line.startswith(fb._PREFIXES):
        for prefix in fb._PREFIXES:
            if line.startswith(prefix) and len(line) > len(prefix):
                line = line[len(prefix) :].strip()
    colon = line.find(": ", 0, fb._MAX_TYPE)
    if colon <= 0 or not line[colon + 1 :].strip():
        return None
    return line if fb._is_exception_type(line, colon) else None


def _root_cause_unscreened(text: str) -> str | None:
    root = parse_trace(text).root_cause
    if root is None or not (root.type or root.message):
        return None
    if root.type and root.message:
        return f"{root.type}: {root.message}"
    return root.type or root.message


def test_exception_line_on_every_fixture_line() -> None:
    """Every line of every fixture: the shortcut and the regex agree."""
    lines = {line for path in _TEXTS for line in _read(path).split("\n")}
    assert len(lines) > 5_000
    differ = [line for line in lines if fb._exception_line(line) != _regex_only(line)]
    assert differ == []


_PIECES = [
    "Error", "Exception", "TypeError", "fatal", "error", "fatal error", "panic", " ", "  ", "\t",
    "[", "]", "[ERR_X]", "[ERR X]", ".", "::", "\\", "$", "java.lang", "a", "Z", "é", ":", ": ",
    "|", "Uncaught ", "PHP Fatal error: ", "Warning", "x y",
]  # fmt: skip


@settings(max_examples=3000, deadline=None)
@given(
    st.lists(st.sampled_from(_PIECES), min_size=1, max_size=8),
    st.sampled_from(["msg", " ", "a: b"]),
)
def test_exception_line_on_generated_lines(pieces: list[str], message: str) -> None:
    """Lines built from what the type regex reads (spaces, brackets, ``fatal error``)."""
    line = "".join(pieces) + ": " + message
    assert fb._exception_line(line) == _regex_only(line)


def test_exception_line_keeps_the_spaced_types() -> None:
    """The two types with a space are still read as types."""
    assert fb._exception_line("fatal error: all goroutines are asleep - deadlock!")
    assert fb._exception_line("TypeError [ERR_INVALID_ARG_TYPE]: The argument must be a string")
    assert fb._exception_line("Error response from daemon: unauthorized") is None


@pytest.mark.parametrize("path", _TEXTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_root_cause_screen_on_every_fixture(path: Path) -> None:
    """Every fixture, and its first and last 300 characters: the same root cause line."""
    text = _read(path)
    for piece in (text, text[:300], text[-300:]):
        assert fb._root_cause_line(piece) == _root_cause_unscreened(piece)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=400))
def test_root_cause_screen_on_any_text(text: str) -> None:
    assert fb._root_cause_line(text) == _root_cause_unscreened(text)


def test_signal_matcher_follows_the_engine() -> None:
    """set_engine() replaces the rule table's matcher, and with it the signals' engine."""
    try:
        for name in _engine.available_engines():
            _engine.set_engine(name)
            matcher = signals._matcher()
            assert matcher is not None
            assert matcher.name == name
            assert signals._matcher() is matcher  # the same while nothing changes
            assert signals.classify("psycopg.errors.UniqueViolation: doppelter Schlüsselwert")
    finally:
        _engine.set_engine(None)


def test_signal_matcher_follows_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new signal table is compiled, not served from the old one's matcher."""
    before = signals._matcher()
    monkeypatch.setattr(signals, "SIGNALS", signals.SIGNALS[:1])
    after = signals._matcher()
    assert after is not before
    assert after is not None
    assert len(after.rules) == 1
    monkeypatch.setattr(signals, "SIGNALS", ())
    assert signals._matcher() is None


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_signal_matcher_rebuilt_after_fork() -> None:
    """A forked child builds its own signal matcher (a background compile does not survive
    fork) and answers with it."""
    parent = signals._matcher()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through the pipe
        try:
            child = signals._matcher()
            hint = signals.classify("psycopg.errors.UniqueViolation: doppelter Schlüsselwert")
            ok = child is not None and child is not parent and hint is not None
            os.write(write, b"1" if ok else b"0")
        finally:
            os._exit(0)
    os.close(write)
    answer = os.read(read, 1)
    os.close(read)
    os.waitpid(pid, 0)
    assert answer == b"1"
