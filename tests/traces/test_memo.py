"""The shared memos: results never depend on them, and overlong lines never enter them."""

from __future__ import annotations

import dataclasses
import gc
import re
import tracemalloc
from pathlib import Path

from hintline.traces import ExceptionInfo, Frame, Trace, parse_trace
from hintline.traces._build import _ExceptionFill, _FrameFill, _table_for, _TraceFill
from hintline.traces._inapp import policy_for
from hintline.traces._memo import MEMO_SIZE, SETTINGS_MEMO_SIZE, clear_memos, memo_size
from hintline.traces._php import _UNPARSED, _Row, _row_line, _row_run
from hintline.traces._python import _py_frame
from tests.traces.golden import cases, parse_case


def test_frame_fill_has_frames_layout() -> None:
    """The fast builder's slots are exactly Frame's fields, so ``__class__`` can be assigned."""
    assert _FrameFill.__slots__ == tuple(f.name for f in dataclasses.fields(Frame))
    assert _ExceptionFill.__slots__ == tuple(f.name for f in dataclasses.fields(ExceptionInfo))
    assert _TraceFill.__slots__ == tuple(f.name for f in dataclasses.fields(Trace))
    built = parse_trace("Traceback (most recent call last):\n  File \"/a/x.py\", line 3, in f\nValueError: v\n")
    frame = built.exceptions[0].frames[0]
    assert type(frame) is Frame
    assert type(built.exceptions[0]) is ExceptionInfo
    assert type(built) is Trace
    assert built == Trace(built.exceptions, "python", {})
    assert built.exceptions[0] == ExceptionInfo("ValueError", "v", (frame,), "python")
    assert frame == Frame("/a/x.py", 3, "f", None, "python", False)
    assert hash(frame) == hash(Frame("/a/x.py", 3, "f", None, "python", False))


def test_warm_and_cold_parses_agree() -> None:
    """Every golden fixture parses the same with empty memos, warm memos, and again."""
    for txt in cases():
        clear_memos()
        cold = parse_case(txt)
        warm = parse_case(txt)
        assert cold == warm, txt.name


def test_in_app_memo_is_per_settings() -> None:
    """The same frame gets the decision of each call's project root, not a remembered one."""
    text = "Traceback (most recent call last):\n  File \"/srv/app/x.py\", line 3, in f\nValueError: v\n"
    assert parse_trace(text, project_root="/srv/app").frames[0].in_app
    assert not parse_trace(text, project_root="/srv/other").frames[0].in_app
    assert parse_trace(text, include=["/srv/app/"]).frames[0].in_app
    assert not parse_trace(text, project_root="/srv/app", exclude=["/srv/app/x.py"]).frames[0].in_app


def _parse_overlong() -> int:
    big = 1_000_000
    text = (
        "java.lang.X: boom\n\tat a.b.C.d(C.java:1)\n\tat a.b.C.f(C.java:4)\n"
        f"\tat a.b.C.e(C.java:2) {'x' * big}\n"  # matches the frame pattern; the tail is ignored
        f"\tat {'a.' * (big // 2)}B.m(B.java:3)\n"  # a 1 MB module name
    )
    trace = parse_trace(text)
    return len(trace.exceptions[0].frames)


def test_overlong_lines_stay_out_of_the_memos() -> None:
    """A frame line longer than MAX_LINE is parsed, but no memo keeps it (memory stays flat)."""
    clear_memos()
    _parse_overlong()  # warm the code paths
    clear_memos()
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        assert _parse_overlong() == 4
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert kept < 200_000, f"memos kept {kept} bytes of an overlong trace"


def test_memos_are_bounded() -> None:
    """The memos forget old entries past MEMO_SIZE, so memory stays bounded."""
    clear_memos()
    for i in range(MEMO_SIZE + 10):
        parse_trace(f"Traceback (most recent call last):\n  File \"/a/x{i}.py\", line 3, in f\nValueError: v\n")
    assert memo_size(_table_for) == 1
    table = _table_for("python", policy_for(None, (), (), ()))
    assert 0 < len(table) <= MEMO_SIZE
    assert len(policy_for(None, (), (), ()).decisions) <= MEMO_SIZE
    assert 0 < memo_size(_py_frame) <= MEMO_SIZE


def test_php_row_split_matches_its_pattern() -> None:
    """The row test by partition and isdecimal accepts exactly what ``#(\\d+) (.*)$`` does, and
    so does the row run's quicker test (its head in ``#0``…``#1023``) on unstripped lines."""
    pattern = re.compile(r"#(\d+) (.*)$")
    samples = ["#0 /a.php(3): f()", "#12 {main}", "# 1 x", "#1x y", "#1", "#1 ", "#² x", "#٣ x", "#1  x",
               "#01 x", "x #1 y", "#1\tx", "#", "#-1 x", "#1 [internal function]: g()", "#1023 {main}",
               "#1024 {main}", "#99999 /a.php(3): f()", "#3 \t ", "#3 /a.php(3): f()  "]
    for s in samples:
        row = _row_line(s)
        assert (row is not None) == (pattern.match(s) is not None), s
        for line in (s, f"  {s}", f"{s} ", f"\t{s}\r"):
            stripped = line.strip()
            is_row = pattern.match(stripped) is not None
            assert (_row_run([line], 0, []) == 1) == is_row, line
            rows: list[_Row] = []
            _row_run([line, line], 0, rows)  # the second time from the memo
            expected = _row_line(stripped)
            assert rows == ([] if expected in (None, _UNPARSED) else [expected, expected]), line


def test_few_policies_are_kept() -> None:
    """Each distinct project root makes a policy; only SETTINGS_MEMO_SIZE of them are kept."""
    clear_memos()
    text = "Traceback (most recent call last):\n  File \"/srv/app/x.py\", line 3, in f\nValueError: v\n"
    for i in range(3 * SETTINGS_MEMO_SIZE):
        assert parse_trace(text, project_root=f"/srv/app{i}").frames
    assert memo_size(policy_for) == SETTINGS_MEMO_SIZE
    assert memo_size(_table_for) == SETTINGS_MEMO_SIZE


def _raise_from_long_name() -> BaseException:
    name = "f" * 1_000_000
    namespace: dict[str, object] = {}
    exec(f"def {name}():\n    raise ValueError('deep')\n", namespace)  # a real code object with a long name
    try:
        namespace[name]()  # type: ignore[operator]
    except ValueError as exc:
        return exc
    raise AssertionError("not raised")


def test_live_exception_with_an_overlong_name_stays_out_of_the_memos() -> None:
    """A live exception whose code object has a 1 MB name parses, and no memo takes its frames."""
    exc = _raise_from_long_name()
    clear_memos()
    trace = parse_trace(exc)
    assert trace.frames[0].function == "f" * 1_000_000
    assert memo_size(_table_for) == 0
    assert memo_size(policy_for) == 0
    assert parse_trace(_raise_short()).frames  # a normal one does use them
    assert memo_size(_table_for) == 1


def _raise_short() -> BaseException:
    try:
        raise ValueError("short")
    except ValueError as exc:
        return exc


def _strings(item: object) -> list[str]:
    """The strings in a memo key or value: itself (bytes decoded), or those inside a tuple (a
    pair of lines, a raw frame) or a Frame."""
    if isinstance(item, str):
        return [item]
    if isinstance(item, bytes):  # the language vote's line shapes
        return [item.decode("utf-8", "surrogatepass")]
    if isinstance(item, tuple):
        return [s for part in item for s in _strings(part)]
    if isinstance(item, Frame):
        return [s for s in (item.file, item.function, item.module) if s is not None]
    return []


def _memo_keys() -> list[str]:
    """Every string the line memos hold, in their keys and values (settings LRUs hold no lines;
    their policies' and tables' dicts are looked at through the memos of the shared ones)."""
    from hintline.traces._memo import _MEMOS

    out: list[str] = []
    for memo in _MEMOS:
        if isinstance(memo, dict):
            for key, value in memo.items():
                out += _strings(key) + _strings(value)
    return out


def test_message_lines_stay_out_of_the_memos() -> None:
    """Only frame lines are kept between calls: a message line (it may hold a secret) is read
    afresh each time, and the parse is the same with the memos warm. Real traces: Python's
    captured DSN with its password, and a Java and a Ruby trace whose first message line gets a
    token appended (Ruby's with ``from ``, the word its frame lines start with)."""
    fixtures = Path(__file__).parent / "fixtures"
    token = "token=hl-7f3a9c0e5b"
    python = (fixtures / "python" / "secret_in_message.txt").read_text()
    java_lines = (fixtures / "defects4j" / "Closure-37.txt").read_text().split("\n")
    java_lines[1] += f" {token}"
    ruby_lines = (fixtures / "ruby" / "deep_tree.txt").read_text().split("\n")
    ruby_lines[0] = ruby_lines[0].replace(" (TreeError)", f" loaded from {token} (TreeError)")
    cases = (
        ("python", python, "Tr0ub4dor-s3cret"),
        ("java", "\n".join(java_lines), token),
        ("ruby", "\n".join(ruby_lines), token),
    )
    clear_memos()
    for lang, text, secret in cases:
        first = parse_trace(text)
        assert first.language == lang
        assert first.frames
        assert parse_trace(text) == first
        assert any(secret in e.message for e in first.exceptions)
    keys = _memo_keys()
    assert any("jscomp" in k for k in keys)  # frame lines are kept
    assert any("db.py" in k for k in keys)
    assert any("tree.rb:9" in k for k in keys)
    for _, _, secret in cases:
        assert not [k for k in keys if secret in k]


def test_dotnet_message_line_starting_with_at_stays_out_of_the_memos() -> None:
    """A .NET message line that starts with ``at `` but is no frame is not remembered (it may
    hold a secret); the real captured trace around it parses the same cold and warm."""
    token = "token=hl-7f3a9c0e5b"
    lines = (Path(__file__).parent / "fixtures" / "dotnet" / "inner_exception.txt").read_text().split("\n")
    lines.insert(3, f"at most 3 retries were made with {token}")  # a second line of the message
    text = "\n".join(lines)
    clear_memos()
    first = parse_trace(text)
    assert first.language == "dotnet"
    assert len(first.frames) >= 4
    assert parse_trace(text) == first
    keys = _memo_keys()
    assert any("Program.cs:27" in k for k in keys)  # frame lines are kept
    assert not [k for k in keys if token in k]
