"""Every regex of the trace readers is listed with its bound (hintline.traces._patterns), and
each is linear in the text it may see (issue 14, section 1).

The listing test fails for a pattern added anywhere in ``src/hintline/traces`` without an
entry; the timing test runs each listed pattern, the way the readers call it, on the hostile
shapes generated from the pattern itself (tests/linear/shapes.py) at its window and at a
quarter of it: four times the text must cost about four times the time (quadratic is 16x).
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import time
import types
from collections.abc import Callable
from pathlib import Path

import pytest

import hintline.traces as traces
from hintline.traces._patterns import PATTERNS, TracePattern
from hintline.traces._raw import MAX_LINE
from tests.linear.shapes import pattern_shapes

PACKAGE = Path(traces.__file__).parent
CALLS = ("match", "fullmatch", "search", "sub", "scan", "none")
GROWTH = 7.0  # 4x the text: linear is 4, quadratic 16; headroom for a shared machine
FLOOR_S = 0.0005  # below this at the full window a shape is fast whatever its growth
BIG_TEXT = 65536  # where a pattern's text is not bounded (or bounded far above a line)


def _modules() -> list[types.ModuleType]:
    names = [m.name for m in pkgutil.iter_modules(traces.__path__)]
    return [traces] + [importlib.import_module(f"hintline.traces.{n}") for n in names]


def _compiled() -> dict[int, str]:
    """Every compiled pattern held by a module of the package, by id, with a name."""
    found: dict[int, str] = {}
    for module in _modules():
        for key, value in vars(module).items():
            if isinstance(value, re.Pattern):
                found.setdefault(id(value), f"{module.__name__}.{key}")
    return found


def test_every_compiled_pattern_is_listed_with_a_bound() -> None:
    listed = {id(p.pattern): p for p in PATTERNS}
    missing = sorted(name for pid, name in _compiled().items() if pid not in listed)
    assert missing == [], f"patterns without an entry in hintline.traces._patterns.PATTERNS: {missing}"
    names = [p.name for p in PATTERNS]
    assert len(names) == len(set(names))
    for p in PATTERNS:
        assert p.engine in ("re", "re2"), p.name
        assert p.call in CALLS, p.name
        assert p.window is None or p.window > 0, p.name
        assert p.text, p.name
        assert len(p.why) > 10, p.name


def test_no_pattern_is_compiled_outside_a_module_level_name() -> None:
    """A pattern compiled in a function, or passed to ``re.match``/``re.sub``… as a string,
    would escape the listing: every ``re`` call in the package compiles a module-level name."""
    bad = []
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top_level = {id(node.value) for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            owner = node.func.value
            if not (isinstance(owner, ast.Name) and owner.id == "re"):
                continue
            if node.func.attr == "compile" and id(node) in top_level:
                continue
            if node.func.attr in ("escape",):
                continue
            bad.append(f"{path.name}:{node.lineno} re.{node.func.attr}")
    assert bad == []


def test_a_new_pattern_would_be_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The listing test fails for a compiled pattern the table does not name."""
    from hintline.traces import _jvm

    monkeypatch.setattr(_jvm, "_UNLISTED", re.compile(r"(a+)+b"), raising=False)
    with pytest.raises(AssertionError, match="_UNLISTED"):
        test_every_compiled_pattern_is_listed_with_a_bound()


def _caller(p: TracePattern) -> Callable[[str], object]:
    regex = p.pattern
    if p.call == "match":
        return regex.match
    if p.call == "fullmatch":
        return regex.fullmatch
    if p.call == "search":
        return regex.search
    if p.call == "sub":
        return lambda text: regex.sub("", text)
    return lambda text: list(iter(regex.scanner(text).match, None))  # type: ignore[attr-defined]


def _best(fn: Callable[[str], object], text: str, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn(text)
        best = min(best, time.perf_counter() - t0)
    return best


def _size(p: TracePattern) -> int:
    return min(p.window or BIG_TEXT, BIG_TEXT)


def _shapes(p: TracePattern, size: int) -> dict[str, str]:
    out: dict[str, str] = {}
    for shape in pattern_shapes(p.name, p.pattern.pattern, size):
        text = shape.text
        if p.window is not None and p.window <= MAX_LINE:
            text = text.replace("\n", " ")  # a line never holds a newline
        out[shape.kind] = text[:size]
    return out


@pytest.mark.parametrize("p", [p for p in PATTERNS if p.call != "none"], ids=lambda p: p.name)
def test_pattern_is_linear_in_its_window(p: TracePattern) -> None:
    fn = _caller(p)
    size = _size(p)
    big = _shapes(p, size)
    small = _shapes(p, size // 4)
    if not big:  # no quantifier long enough to get shapes
        assert "fixed width" in p.why, p.name
        return
    slow = []
    for kind, text in big.items():
        if kind not in small:
            continue
        if _best(fn, text, 1) < FLOOR_S:
            continue
        # a shape counts only when every one of three measurements says so (one measurement
        # of a millisecond on a shared machine can double; quadratic grows 16x)
        growths = []
        for _ in range(3):
            t_big = _best(fn, text)
            growths.append(t_big / max(_best(fn, small[kind]), 1e-6))
            if t_big < FLOOR_S or growths[-1] <= GROWTH:
                break
        else:
            slow.append((kind, round(t_big * 1e3, 2), round(min(growths), 1)))
    assert slow == [], f"{p.name} grows faster than its text: {slow}"


def test_the_timing_test_sees_a_quadratic_pattern() -> None:
    """The check above flags a pattern that is quadratic in its window."""
    bad = TracePattern("bad", re.compile(r" \[as [^\]]*\]$"), "sub", "re", MAX_LINE, "x", "not linear at all")
    with pytest.raises(AssertionError, match="grows faster"):
        test_pattern_is_linear_in_its_window(bad)
