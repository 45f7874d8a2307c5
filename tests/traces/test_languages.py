"""PHP, Go, Rust, Ruby and .NET shapes on the real captured traces."""

from __future__ import annotations

from pathlib import Path

from hintline.traces import Trace, parse_trace

FIX = Path(__file__).parent / "fixtures"


def _t(rel: str, lang: str) -> Trace:
    return parse_trace((FIX / rel).read_text(), project_root=f"/tmp/hintline-traces/{lang}")


class TestPhp:
    def test_next_chain_outermost_first_and_shifted_frames(self) -> None:
        """PHP prints the previous exception first; frames name the function each line is in."""
        t = _t("php/uncaught_chain.txt", "php")
        assert [e.type for e in t.exceptions] == ["RuntimeException", "PDOException"]
        root = t.root_cause
        assert root is not None
        assert root.message.startswith("SQLSTATE[08006]")
        first = root.frames[0]
        assert (first.line, first.function, first.module) == (8, "find", "App\\Billing\\InvoiceRepository")
        assert (root.frames[1].line, root.frames[1].function) == (19, "total")

    def test_arguments_are_cut(self) -> None:
        """Argument values PHP printed into the trace are not in any frame."""
        text = (FIX / "php/uncaught_chain_with_args.txt").read_text()
        assert "find(42, " in text
        t = parse_trace(text)
        assert t.root_cause is not None
        for f in t.frames:
            assert "(" not in (f.function or "")
            assert "42" not in (f.function or "")

    def test_monolog_forms_agree(self) -> None:
        """Monolog's one-line (escaped), multi-line and JSON forms give the same chain."""
        forms = [_t(f"php/{n}.txt", "php") for n in ("monolog_line", "monolog_line_inline", "monolog_json")]
        for t in forms:
            assert [(e.type, e.message) for e in t.exceptions] == [
                ("RuntimeException", "import of orders.csv failed"),
                ("InvalidArgumentException", "line 3: unexpected token '}'"),
            ]
            assert t.exceptions[0].frames[0].line == 16
        assert forms[0] == forms[1]

    def test_typo3_one_line(self) -> None:
        """TYPO3's FileWriter line: the exception JSON-escaped inside the log line."""
        t = _t("php/typo3_filewriter_line.txt", "php")
        assert t.root_cause is not None
        assert (t.root_cause.type, t.root_cause.message) == ("UnexpectedValueException", "Page 481 not found in rootline")
        assert [f.function for f in t.root_cause.frames] == ["fetchPage", "{main}"]

    def test_vendor_and_internal_not_in_app(self) -> None:
        """vendor/ inside the project and ``[internal function]`` rows are third party."""
        t = _t("php/vendor_json_exception.txt", "php")
        assert [f.in_app for f in t.exceptions[0].frames] == [False, False, True, True]
        t = _t("php/type_error_closure.txt", "php")
        assert [f.in_app for f in t.exceptions[0].frames] == [True, True, False, True]


class TestGo:
    def test_index_panic(self) -> None:
        """``panic:`` message, goroutine frames with ``(...)`` args cut."""
        t = _t("go/index_out_of_range.txt", "go")
        exc = t.exceptions[0]
        assert (exc.type, exc.message) == ("panic", "runtime error: index out of range [3] with length 2")
        assert [(f.module, f.function, f.line) for f in exc.frames] == [("main", "third", 8), ("main", "main", 13)]
        assert t.extra["goroutine"] == "1"

    def test_recovered_repanic_and_runtime_frames(self) -> None:
        """``[recovered]`` then a new panic: the last panic is outermost; runtime frames not in app."""
        t = _t("go/repanic_error.txt", "go")
        assert [e.message.split(":")[0] for e in t.exceptions] == ["startup aborted", "open config"]
        assert t.exceptions[1].relation == "context"
        assert [f.in_app for f in t.exceptions[0].frames] == [True, False, True, True]

    def test_signal_and_fatal_error(self) -> None:
        """The signal line is kept in extra; ``fatal error:`` is its own type."""
        assert _t("go/nil_pointer.txt", "go").extra["signal"].startswith("signal SIGSEGV")
        assert _t("go/deadlock.txt", "go").exceptions[0].type == "fatal error"


class TestRust:
    def test_without_backtrace(self) -> None:
        """Without RUST_BACKTRACE the panic location is the only frame."""
        t = _t("rust/unwrap_err.txt", "rust")
        exc = t.exceptions[0]
        assert exc.message.startswith("called `Result::unwrap()` on an `Err` value")
        assert [(f.file, f.line, f.column, f.in_app) for f in exc.frames] == [("src/main.rs", 4, 58, True)]
        assert t.extra["thread"] == "main"

    def test_with_backtrace_starts_at_throw_site(self) -> None:
        """With RUST_BACKTRACE=1 the panic machinery before the throw site is dropped and counted."""
        t = _t("rust/unwrap_err_backtrace.txt", "rust")
        exc = t.exceptions[0]
        assert [(f.module, f.function) for f in exc.frames[:2]] == [("main", "port"), ("main", "main")]
        assert exc.omitted == 4
        assert not exc.frames[-1].in_app

    def test_full_backtrace_symbols(self) -> None:
        """RUST_BACKTRACE=full: addresses and crate hashes are stripped; glibc is not in app."""
        t = _t("rust/index_full_backtrace.txt", "rust")
        frames = t.exceptions[0].frames
        assert (frames[0].function, frames[0].file) == ("pick", "/tmp/hintline-traces/rust/src/main.rs")
        assert all("[" not in (f.module or "") or "<" in (f.module or "") for f in frames)
        assert [f.function for f in frames if f.in_app] == ["pick", "main"]


class TestRuby:
    def test_cause_printed_after(self) -> None:
        """Ruby prints the cause after the error: outermost first already."""
        t = _t("ruby/cause_chain.txt", "ruby")
        assert [e.type for e in t.exceptions] == ["ConfigError", "JSON::ParserError"]
        assert t.exceptions[0].frames[0].function == "rescue in read_config"
        assert not t.root_cause.frames[0].in_app  # type: ignore[union-attr]

    def test_error_highlight_source_skipped(self) -> None:
        """error_highlight's source line and caret are not frames or message."""
        t = _t("ruby/no_method_in_block.txt", "ruby")
        exc = t.exceptions[0]
        assert exc.message == "undefined method `*' for nil:NilClass"
        assert [f.function for f in exc.frames] == ["block in total", "sum", "total", "<main>"]


class TestDotnet:
    def test_inner_exception_blocks(self) -> None:
        """``--->`` inner exception: its frames are the block before ``End of inner``."""
        t = _t("dotnet/inner_exception.txt", "dotnet")
        outer, inner = t.exceptions
        assert (outer.type, inner.type, inner.relation) == ("System.InvalidOperationException", "System.FormatException", "cause")
        assert [f.line for f in outer.frames] == [11, 21, 27]
        assert [(f.module, f.function, f.in_app) for f in inner.frames[:1]] == [("System.Number", "ThrowOverflowOrFormatException", False)]
        assert inner.frames[-1].line == 10

    def test_mono_prints_twice_read_once(self) -> None:
        """Mono's second copy (``[ERROR] FATAL UNHANDLED EXCEPTION``) is not read again."""
        t = _t("dotnet/null_reference_linq.txt", "dotnet")
        assert len(t.exceptions) == 1
        assert len(t.exceptions[0].frames) == 4
        assert t.exceptions[0].frames[0].function == "<Main>m__0"
