"""The parsers' fast paths give what their reference code gives.

Node's frame loop reads the common frame shapes with one regex (:data:`_node._COMMON`) and
falls back to :func:`node_frame` for the rest; PHP's row loop tests a row's head against a set
instead of splitting its number off. Both must accept exactly the same lines, and read them the
same, as the slow path they shortcut: these tests build many frame lines from the pieces real
traces are made of (and the odd ones around them) and compare.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any

from hintline.traces import _node, _php
from hintline.traces._memo import clear_memos

_INDENTS = ["", "    ", "      ", "\t", " \u00a0 "]
_PREFIXES = ["", "async ", "async async ", "new ", "async new "]
_FUNCS = ["f", "Object.<anonymous>", "Function.executeUserEntryPoint [as runMain]", "new Foo", "a b c", "f(x)",
          "x [as y]", "async", "new", "", "Promise.all", "[as z]", "f ", "a  b", "Module._extensions..js"]
_LOCS = ["/a/b.js:1:2", "node:internal/modules/cjs/loader:1521:14", "/a b/c.js:1:2", "file:///a.mjs:3:4", ":1:2",
         "a:1", "a", "a:b:c", "a:1:2:3", "eval at f (/a.js:1:2), <anonymous>:3:4", "eval at a, b.js:1:2",
         "x, y:1:2", "a:\u00b2:1", "a:1:\u0663", "a:\u0661:\u0662", "index 0", "<anonymous>", "", "a.js:1:2 ",
         "(a.js:1:2)", "a(b).js:1:2", "C:\\x\\y.js:10:5"]
_TAILS = ["", " {", ",", " ", ")", " }", "  "]


def _node_lines() -> list[str]:
    lines = []
    for indent, prefix, func, loc, tail in itertools.product(_INDENTS, _PREFIXES, _FUNCS, _LOCS, _TAILS):
        body = f"{prefix}{func} ({loc})" if func else f"{prefix}{loc}"
        lines.append(f"{indent}at {body}{tail}")
    random.Random(4).shuffle(lines)
    return lines[:6000]


def _outcome(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)``, or the name of the ValueError it raised (``int()`` of a digit like ``²``
    that is no decimal: the reference raises there, and parse_trace turns it into no trace)."""
    try:
        return fn(*args)
    except ValueError as exc:
        return type(exc).__name__


def _reference(line: str) -> tuple[object, bool] | str | None:
    """What the reference path makes of a line: (frame, opens), ``None`` or an error name."""
    s = line.strip()
    if not s.startswith("at ") or len(s) <= 3:
        return None
    rest = s[3:]
    opens = rest.endswith(" {")
    rest = rest[:-2] if opens else rest[:-1] if rest.endswith(",") else rest
    frame = _outcome(_node.node_frame, rest)
    return frame if isinstance(frame, str) else (frame, opens)


def test_node_common_shape_reads_as_node_frame() -> None:
    """Wherever the one-regex shape matches, its frame is node_frame's; the frame loop and the
    per-line reader give every line the reference's frame (or stop where it does)."""
    matched = 0
    for line in _node_lines():
        expected = _reference(line)
        m = _node._COMMON.match(line)
        if m is not None:
            matched += 1
            assert expected == (_node._common_frame(m), False), line
        clear_memos()
        frames: list[object] = []
        stop = _outcome(_node._frame_run, [line, line], 0, frames)
        if isinstance(stop, str):  # the loop read it and raised as the reference does
            assert expected == stop, line
        elif isinstance(expected, str):  # the loop left it to the caller, whose reading raises
            assert line.endswith(" {"), line
            assert (stop, frames) == (0, []), line
        elif expected is None or expected[1]:
            assert (stop, frames) == (0, []), line
        else:
            assert (stop, frames) == (2, [expected[0]] * 2), line
            assert _node._at_line(line.strip()) == expected, line
    assert matched > 500  # the fast shape is a common one


def test_php_row_loop_matches_the_row_test() -> None:
    """The row loop's head-in-a-set test reads every line as the partition-and-isdecimal test
    does, stopping at the same line, with or without the body in the memo."""
    bodies = ["/a.php(3): f()", "{main}", "[internal function]: g('x')", "/a.php(3): A\\B->c('#1 x')", "x", " x",
              "/a(b).php(3): f()", "/a.php(\u00b2): f()", "", "  ", "/a): x.php(3): f()", "{main}(1): x",
              "[internal function]: a(1): b()", "/a.php(3):  f()", "/a.php(3): ", "C:\\a.php(3): {closure}(1)"]
    heads = ["#0", "#7", "#1023", "#1024", "#99999", "#\u0663", "#01", "# 1", "#1x", "#", "x"]
    lines = [f"{lead}{head} {body}{trail}" for lead, head, body, trail in
             itertools.product(["", "  ", "\t"], heads, bodies, ["", " ", "\r"])]
    for line in lines:
        for warm in (False, True):
            if not warm:
                clear_memos()
            expected = _outcome(_php._row_line, line.strip())
            rows: list[_php._Row] = []
            stop = _outcome(_php._row_run, [line], 0, rows)
            if isinstance(expected, str):
                assert stop == expected, line
            elif expected is None:
                assert (stop, rows) == (0, []), line
            elif expected is _php._UNPARSED:
                assert (stop, rows) == (1, []), line
            else:
                assert (stop, rows) == (1, [expected]), line


def test_php_row_shape_splits_as_row() -> None:
    """The one-match row body (:data:`_php._ROW_SHAPE`) splits a body exactly as ``_row`` does."""
    files = ["/a.php", "/a b/c.php", "C:\\a.php", "/a(b).php", "/a).php", "/a): x.php", "{main}", "x", ""]
    nums = ["3", "12", "\u00b2", "\u0663", "", "3x"]
    calls = ["f()", "A\\B->c('#1 x')", "{closure}(1)", " f()", "", "a(1): b()", "{main}"]
    bodies = [f"{file}({num}): {call}" for file, num, call in itertools.product(files, nums, calls)]
    bodies += ["{main}", "{main}(1): x", "[internal function]: a(1): b()", "/a.php(3):", "/a.php(3)"]
    for body in bodies:
        shape = _php._ROW_SHAPE.match(body)
        if shape is not None:
            file, num, call = shape.groups()
            assert _php._row(body) == (file, int(num), call), body
