"""locate()'s shortcuts answer as the long way would (differential tests).

* ``locate`` reads the first line's level on the text's start and hands it to the log reader,
  which would read it again on the line alone: the two readings must agree, whatever follows
  the line (a header does not run past its line).
* The level word comes from the named group that matched (``lastgroup``); it must be the one
  of ``level``, ``lower``, ``kv`` that is set.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hintline.cleaner import locate as loc

_HEADS = [
    "2026-12-01 10:00:00,101 WARNING urllib3.connectionpool: ",
    "2026-12-01T10:00:00Z ERROR ",
    "2026-12-01 10:00:00 INFO app.import: ",
    "[2026-12-01 10:00:00] production.ERROR: ",
    "[error] ",
    "[Mon Dec 01 10:00:00.123456 2026] [core:error] [pid 1] ",
    "level=warn ",
    "time=2026-12-01T10:00:00Z level=error ",
    "E1202 02:16:48.123456 12345 file.cc:42] ",
    "PHP Warning:  ",
    "Fatal error: ",
    "ERROR: ",
    "WARN  [main] com.acme.Foo - ",
    "INFO",
    "ERROR",
    "Dec  1 10:00:00 host ",
    "10:00:00.123 DEBUG x ",
    "CRITICAL:root:",
    "2026-12-01 10:00:00 [error] ",
    "2026-12-01 10:00:00 [warn] ",
    "2026-12-01T10:00:00Z level=error ",
    "2026-12-01T10:00:00Z level=bogus ",
    "2026-12-01 10:00:00 app.TypeError: ",
    "12 ERROR ",
]
_TAILS = [
    "", "boom", "TypeError: x", "a.b.CError: y", "\tz", "-", ":", "[", ".", " ", "Exception",
    "x" * 1100,
]
_AFTER = ["", "\n", "\nmore", "\n  at x", "\nERROR y", "\n[", "\n.x", "\n\n"]


@settings(max_examples=2000, deadline=None)
@given(st.sampled_from(_HEADS), st.sampled_from(_TAILS), st.sampled_from(_AFTER))
def test_first_level_on_the_text_is_the_level_on_the_line(head: str, tail: str, after: str) -> None:
    line = head + tail
    assert loc._level(line + after) == loc._level(line)


@settings(max_examples=1000, deadline=None)
@given(st.sampled_from(_HEADS), st.sampled_from(_TAILS))
def test_level_word_is_the_group_that_matched(head: str, tail: str) -> None:
    line = head + tail
    found = loc._header().match(line)
    if found is None:
        return
    word = found["level"] or found["lower"] or found["kv"]
    assert found[found.lastgroup or "level"] == word


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_HEADS), st.sampled_from(_TAILS)), min_size=1, max_size=6))
def test_log_read_from_its_first_level_is_the_log_read_line_by_line(lines: list[tuple[str, str]]) -> None:
    """The log reader given the first line's level answers as when it reads that line itself."""
    text = "\n".join(head + tail for head, tail in lines)
    first = loc._level(text)
    if first is None:
        return
    on_line = loc._level(text.split("\n", 1)[0])
    assert on_line is not None
    a = loc._locate_log(text, first)
    b = loc._locate_log(text, on_line)
    assert (a.block, a.rest, a.message, a.failure) == (b.block, b.rest, b.message, b.failure)


_BODY = ["  at x.y(Z.java:1)", "Traceback (most recent call last):", "ValueError: boom", "", "...",
         "DETAIL:  Key (id)=(1) is still referenced", "2 rows", "\tmore"]  # fmt: skip
_log_lines = st.one_of(
    st.tuples(st.sampled_from(_HEADS), st.sampled_from(_TAILS)).map("".join),
    st.sampled_from(_BODY),
)


@settings(max_examples=2000, deadline=None)
@given(st.lists(_log_lines, min_size=1, max_size=10))
def test_timestamp_lines_read_inline_as_by_level(lines: list[str]) -> None:
    """The log reader's inline header check for lines opening with a digit answers as
    ``_level()`` (forced by leaving no character to the inline path)."""
    text = "\n".join(lines)

    def read() -> object:
        found = loc.locate(text)
        return None if found is None else (found.block, found.rest, found.message, found.failure)

    inline = read()
    saved = loc._DIGITS
    loc._DIGITS = frozenset()
    try:
        by_level = read()
    finally:
        loc._DIGITS = saved
    assert inline == by_level
