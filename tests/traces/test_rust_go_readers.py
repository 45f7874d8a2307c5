"""The Rust and Go parsers read lines with ``partition``/``rpartition`` and one regex scan per
backtrace instead of a regex per line: they must read exactly what the per-line patterns read.

Each reader is checked against the pattern it replaces, on the lines of the real captured
traces, variants of them (tabs for spaces, other digits, cut short, shifted numbers) and the
edge cases the patterns decide (empty files, extra colons, hex tails).
"""

from __future__ import annotations

import re
from pathlib import Path

from hintline.traces import _go, _rust, _split
from hintline.traces._memo import clear_memos
from hintline.traces._raw import MAX_EXCEPTIONS, MAX_LINE, RawException, RawTrace

FIXTURES = Path(__file__).parent / "fixtures"
RUST = [_split(p.read_text()) for p in sorted((FIXTURES / "rust").glob("*.txt"))]
GO = [_split(p.read_text()) for p in sorted((FIXTURES / "go").glob("*.txt"))]


def _variants(line: str) -> list[str]:
    """The line and what a trace, a log or a hostile input may make of it."""
    return [
        line,
        line.replace("    ", "\t", 1),
        line.replace(" ", "\u2003", 1),
        line.replace("1", "\u0661"),  # an Arabic-Indic digit: ``\d`` and ``isdecimal`` take it
        line[: len(line) // 2],
        line[: len(line) - 1],
        line + " ",
        line + ":7",
        line.replace(":", "::", 1),
        line.replace(" +0x", " +0xZ", 1),
    ]


def _lines(traces: list[list[str]], extra: list[str]) -> list[str]:
    return sorted({v for lines in traces for line in lines for v in _variants(line)} | set(extra))


# --- Rust -----------------------------------------------------------------------------------

_AT = re.compile(r"\s+at (.+?):(\d+)(?::(\d+))?$")
_SYMBOL = re.compile(r"\s*(\d+):\s+(?:0x[0-9a-f]+ - )?(.*)$")
_HASH = re.compile(r"\[[0-9a-f]{16}\]|::h[0-9a-f]{16}$")
_TOKENS = re.compile(r"::|[<>]")
RUST_EDGES = [
    "      at :1:2", "      at a::1", "      at a:1:2:3", "      at a:b:5", "      at x:1 ", "at x:1:1",
    "   1: 0x12 - g::h", "   1: 0xZZ - g", "   1: 0x - g", "   1:  0x1 -  g", "1:x", "  12: ", "\t3:\tx",
    "   5: a:::b", "   5: <a as b>::c", "   5: a::<b>", "   5: f::<T>::<U>", "   5: <a->b>::c", "   5: x>::y<::z",
    "   5: a::<b::<c>>::d", "   5: ::", "   5: a::", "   5: ::<T>", "   5: <T>", "   5: a::b::h0123456789abcdef",
    "   5: a[0123456789abcdef][0123456789abcdef]::b", "   5: a::h0123[0123456789abcdef]456789abcdef",
]


def _reference_split(sym: str) -> tuple[str | None, str | None]:
    """The token scan the parser replaced (left to right over ``::``, ``<``, ``>``)."""
    sym = _HASH.sub("", sym)
    for _ in range(2):
        depth, last = 0, -1
        for token in _TOKENS.finditer(sym):
            if token[0] == "<":
                depth += 1
            elif token[0] == ">":
                depth = max(depth - 1, 0)
            elif not depth:
                last = token.start()
        if last < 0:
            return None, sym or None
        module, function = sym[:last], sym[last + 2 :]
        if function.startswith("<") and module:
            sym = module
            continue
        return module or None, function or None
    return None, sym or None


def test_rust_lines_read_as_their_patterns() -> None:
    """``_read`` takes a symbol or ``at`` line exactly when its pattern does, with its parts."""
    for line in _lines(RUST, RUST_EDGES):
        at, sym = _AT.match(line), _SYMBOL.match(line)
        want = None
        if at:
            want = "@" + line.lstrip()[3:]
            assert _rust._at_body(line.lstrip()[3:]) == (at[1], int(at[2]), int(at[3]) if at[3] else None), line
        elif sym:
            want = "#" + sym[2]
        assert _rust._read(line) == want, line


def test_rust_symbols_split_as_the_token_scan() -> None:
    """Splitting by pieces (hashes taken out of many symbols in two passes) gives what the
    token scan gave, for the real symbols and the bracket and colon edge cases."""
    symbols = sorted({r[2] for line in _lines(RUST, RUST_EDGES) if (r := _SYMBOL.match(line))})
    assert len(symbols) > 60
    clear_memos()
    assert _rust._names(symbols) == [_reference_split(s) for s in symbols]


def test_rust_scan_reads_as_line_by_line() -> None:
    """The one-regex scan of a backtrace (cold and with the memos warm) reads the frames the
    line-by-line reading does, also when tabs, long lines or a second ``stack backtrace:``
    stop it half way."""
    for lines in RUST:
        if "stack backtrace:" not in lines:
            continue
        start = lines.index("stack backtrace:") + 1
        body = lines[start:]
        cases = [body, [v.replace("  ", "\t") for v in body], [*body[:5], "stack backtrace:", *body[5:]],
                 [*body[:3], "x" * (MAX_LINE + 1), *body[3:]], [*body[:4], "   9: " + "y" * MAX_LINE, *body[4:]],
                 [line.replace("1", "\u0661") for line in body]]
        for case in cases:
            want = _rust._by_line(case, 0, [])
            clear_memos()
            assert _rust._backtrace(case, 0) == want
            assert _rust._backtrace(case, 0) == want  # warm


# --- Go -------------------------------------------------------------------------------------

GO_EDGES = [
    "\t/a.go:1", "\t/a.go:1 +0x1f", "\t/a.go:1 +0xZZ", "\t:1", "\ta:b:1 +0x2", "\t/a.go:1 +0x", "\t/a.go: 1",
    "\t/a.go:1 +0x1f ", "\t\t/a.go:3", " \t/a.go:1", "\t", "\t +0x12", "(x)", "(x).f(a)", "f(a)b)", "main.f(a)(b)",
    "main.f()  ", " main.g()", "created by main.main in goroutine 1", "created by main.f", "exit status 2",
    "exit status 2 ", "exit status \u0662", "goroutine 7 [running]:", "",
]


def _reference_go(lines: list[str]) -> RawTrace:
    """The line-by-line parse the tight loop replaced (``_LOC``, ``_EXIT`` per line)."""
    trace = RawTrace("go")
    panics: list[RawException] = []
    in_goroutine = False
    func: tuple[str | None, str | None] | None = None
    for line in lines:
        if len(line) > MAX_LINE:
            continue
        if in_goroutine:
            loc = _go._LOC.match(line)
            if loc:
                if func is not None:
                    panics[-1].frames.append((loc[1], int(loc[2]), func[1], func[0], None))
                    func = None
            elif not line.strip():
                break
            elif exit_ := _go._EXIT.match(line):
                trace.extra["exit_status"] = exit_[1]
                break
            elif line[0] != "\t":
                func = _go._split_func(line.strip())
            continue
        m = _go._PANIC.match(line)
        if m:
            if len(panics) < MAX_EXCEPTIONS:
                msg = m[2][:-12] if m[2].endswith(" [recovered]") else m[2]
                panics.append(RawException(m[1], msg))
            continue
        if line.startswith("[signal ") and panics:
            trace.extra["signal"] = line.strip()[1:-1]
            continue
        g = _go._GOROUTINE.match(line)
        if g and panics:
            trace.extra["goroutine"], trace.extra["goroutine_state"] = g[1], g[2]
            in_goroutine = True
            continue
        if panics and line.strip() and line[0] not in " \t":
            panics[-1].append_message(line.strip())
    for i, exc in enumerate(reversed(panics)):
        if i:
            exc.relation = "context"
        trace.exceptions.append(exc)
    trace.chain_parents()
    return trace


def _dump(trace: RawTrace) -> object:
    return (trace.extra, [(e.type, e.message, e.frames, e.parent, e.relation) for e in trace.exceptions])


def test_go_reads_as_line_by_line() -> None:
    """The tight loop over a goroutine block (cold, warm, and a trace seen before looked up
    two lines at a time) reads what the per-line patterns read: real traces, each of their
    lines replaced by its variants, and the edge cases put in a block."""
    cases = [list(lines) for lines in GO]
    deep = next(lines for lines in GO if len(lines) > 40)
    for i in range(3, 40):
        for variant in _variants(deep[i])[1:]:
            cases.append([*deep[:i], variant, *deep[i + 1:]])
    for edge in GO_EDGES:
        cases.append([*deep[:9], edge, *deep[9:]])
        cases.append(["panic: x", "", "goroutine 1 [running]:", "main.f(0x1)", edge, "\t/a.go:3 +0x1", "main.main()", "\t/a.go:9"])
    for case in cases:
        want = _dump(_reference_go(case))
        clear_memos()
        assert _dump(_go.parse_go(case)) == want, case
        assert _dump(_go.parse_go(case)) == want, case  # warm: lines and pairs of lines seen before


def test_go_log_line_after_a_block_stays_out_of_the_memos() -> None:
    """A log line right after a goroutine block (no blank line) is read as a function line,
    but it makes no frame, so no memo keeps it (it may hold a secret): a real captured trace
    whose ``exit status`` line is replaced by a log line with a token."""
    from hintline.traces._memo import _MEMOS

    token = "token=hl-7f3a9c0e5b"
    lines = _split((FIXTURES / "go" / "nil_pointer.txt").read_text())
    lines[lines.index("exit status 2")] = f"2026-11-30 12:00:01 ERROR retry failed {token}"
    clear_memos()
    first = _go.parse_go(lines)
    assert first.exceptions[0].frames
    assert _dump(_go.parse_go(lines)) == _dump(first)
    keys = [str(k) for memo in _MEMOS if isinstance(memo, dict) for k in memo]
    assert any("main.go:19" in k for k in keys)  # its frame lines are kept
    assert not [k for k in keys if token in k]
