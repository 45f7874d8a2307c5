"""The JVM and Node frame runs read a run of lines seen before at C level: the same raw
traces as the line-by-line loops they replaced (``_reference_runs.py``), on every fixture
and on variants built to exercise the runs (frame lines repeated, the trace logged twice,
overlong lines and other frames inside runs, a memo about to be emptied), cold and warm."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hintline.traces import _jvm, _node, parse_trace
from hintline.traces._memo import MEMO_SIZE, clear_memos
from hintline.traces._raw import MAX_LINE, RawTrace
from tests.traces import _reference_runs

FIXTURES = sorted((Path(__file__).parent / "fixtures").rglob("*.txt"))
LONG = "x" * (MAX_LINE + 10)


def _variants(text: str) -> Iterator[tuple[str, list[str]]]:
    lines = text.split("\n")
    yield "as is", lines
    yield "logged twice", lines + lines
    frames = [k for k, line in enumerate(lines) if line.lstrip().startswith("at ")]
    if not frames:
        return
    doubled: list[str] = []
    for k, line in enumerate(lines):
        doubled += [line] * (3 if k in frames else 1)
    yield "every frame line thrice", doubled
    first = frames[0]
    yield "a run repeated", lines[: first + 1] + [lines[first]] * 40 + lines[first + 1 :]
    for at, name in ((first + 1, "after the first frame"), (frames[-1] + 1, "after the last frame")):
        yield f"overlong frame line {name}", [*lines[:at], lines[first] + LONG, *lines[at:]]
        yield f"overlong junk line {name}", [*lines[:at], LONG, *lines[at:]]
        yield f"native frame {name}", [*lines[:at], "\tat x.Y.z(Native Method)", lines[first], *lines[at:]]
        yield f"module path frame {name}", lines[:at] + ["\tat java.base/java.lang.Thread.run(Thread.java:833)"] * 3 + lines[at:]


def _raw(trace: RawTrace) -> tuple[Any, ...]:
    return (
        trace.language,
        trace.extra,
        trace.long_lines,
        [(e.type, e.message, list(e.frames), e.relation, e.parent, e.omitted) for e in trace.exceptions],
    )


def _fill_memos() -> None:
    """Leave the frame memos one entry short of full: the next new line empties them."""
    for memo in (_jvm._FRAME_LINES, _node._FRAME_LINES):
        memo.clear()
        memo.update((f"\tat filler.F.f{k}(F.java:{k})", ("F.java", k, f"f{k}", "filler.F", None)) for k in range(MEMO_SIZE - 1))


READERS: list[tuple[str, Callable[[list[str]], RawTrace], Any, str, Callable[..., int]]] = [
    ("java", _jvm.parse_jvm, _jvm, "_frame_run", _reference_runs.jvm_frame_run),
    ("javascript", _node.parse_node, _node, "_frame_run", _reference_runs.node_frame_run),
]


@pytest.mark.parametrize(("language", "parse", "module", "name", "reference"), READERS, ids=[r[0] for r in READERS])
def test_frame_runs_match_the_line_by_line_loop(
    language: str, parse: Callable[[list[str]], RawTrace], module: Any, name: str, reference: Callable[..., int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    checked = runs = 0
    for path in FIXTURES:
        for label, lines in _variants(path.read_text(encoding="utf-8", errors="replace")):
            states = ("cold", "warm", "memo nearly full") if label in ("as is", "a run repeated") else ("cold", "warm")
            for state in states:
                got = []
                for use_reference in (False, True):
                    if state == "cold":
                        clear_memos()
                    elif state == "memo nearly full":
                        _fill_memos()
                    else:
                        parse(list(lines))  # (fills the memos with this trace's lines)
                    with monkeypatch.context() as m:
                        if use_reference:
                            m.setattr(module, name, reference)
                        got.append(_raw(parse(list(lines))))
                assert got[0] == got[1], (path.name, label, state)
                checked += 1
                runs += sum(len(e[2]) for e in got[0][3])
    assert checked > 900
    assert runs > 10_000


def test_a_repeated_run_reads_every_line() -> None:
    """A recursion of one frame line: every repeat is a frame, whatever the memos hold."""
    text = "java.lang.StackOverflowError\n" + "\tat a.b.C.f(C.java:5)\n" * 500 + "\tat a.b.C.main(C.java:9)\n"
    clear_memos()
    cold = parse_trace(text)
    warm = parse_trace(text)
    assert cold == warm
    assert len(cold.exceptions[0].frames) == 501
    assert cold.exceptions[0].frames[-1].function == "main"
    node = "Error: deep\n" + "    at f (/srv/a.js:5:3)\n" * 500 + "    at main (/srv/a.js:9:1)\n"
    clear_memos()
    assert len(parse_trace(node).exceptions[0].frames) == 501
    assert parse_trace(node).exceptions[0].frames[-1].function == "main"
