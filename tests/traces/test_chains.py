"""Chains, relations and ``... N more`` on the real captured traces."""

from __future__ import annotations

from pathlib import Path

from hintline.traces import parse_trace

FIX = Path(__file__).parent / "fixtures"


def _parse(rel: str, root: str | None = None) -> object:
    return parse_trace((FIX / rel).read_text(), project_root=root)


class TestPython:
    def test_direct_cause_is_root_cause(self) -> None:
        """``raise … from exc``: the outermost is the app error, the root cause the JSON error."""
        t = parse_trace((FIX / "python/chained_cause.txt").read_text(), project_root="/tmp/hintline-traces/python")
        assert [e.type for e in t.exceptions] == ["ConfigError", "json.decoder.JSONDecodeError"]
        assert t.exceptions[1].relation == "cause"
        assert t.root_cause is t.exceptions[1]
        assert t.exceptions[0].frames[0].function == "read_config"
        assert t.exceptions[0].frames[0].line == 12
        assert t.root_cause.frames[0].file == "/usr/lib/python3.11/json/decoder.py"
        assert not t.root_cause.frames[0].in_app

    def test_context_relation(self) -> None:
        """``During handling of…`` links the first traceback as context."""
        t = parse_trace((FIX / "python/chained_context.txt").read_text())
        assert [e.type for e in t.exceptions] == ["ZeroDivisionError", "KeyError"]
        assert t.exceptions[1].relation == "context"

    def test_exception_group_members(self) -> None:
        """Group members hang off their group, nested groups off theirs."""
        t = parse_trace((FIX / "python/exception_group.txt").read_text())
        got = [(e.type, e.message, e.relation, e.parent) for e in t.exceptions]
        assert got == [
            ("ExceptionGroup", "batch failed", None, None),
            ("ValueError", "bad value 1", "group", 0),
            ("TypeError", "bad type 2", "group", 0),
            ("ExceptionGroup", "inner batch", "group", 0),
            ("OSError", "disk full", "group", 3),
        ]

    def test_syntax_error_caret(self) -> None:
        """A SyntaxError's frame has the file and line, no function, and the caret column."""
        t = parse_trace((FIX / "python/syntax_error.txt").read_text())
        frame = t.exceptions[0].frames[0]
        assert (frame.file.endswith("broken.py"), frame.line, frame.function, frame.column) == (True, 1, None, 12)

    def test_log_lines_around_the_trace(self) -> None:
        """Log records before and after the traceback are not part of the message."""
        t = parse_trace((FIX / "python/logging_exception.txt").read_text())
        assert t.root_cause.message == "'NoneType' object is not subscriptable"


class TestJvm:
    def test_more_resolved_against_enclosing(self) -> None:
        """``... 2 more`` appends the enclosing trace's last two frames."""
        t = parse_trace((FIX / "java/caused_by_more.txt").read_text())
        root = t.root_cause
        assert root.type == "java.lang.NumberFormatException"
        assert [f.line for f in root.frames] == [67, 668, 786, 9, 21, 28]
        assert t.extra["thread"] == "main"

    def test_suppressed_is_not_root_cause(self) -> None:
        """A suppressed exception hangs off its enclosing one and is not the root cause."""
        t = parse_trace((FIX / "java/suppressed_threads.txt").read_text())
        assert [(e.relation, e.parent) for e in t.exceptions] == [(None, None), ("cause", 0), ("suppressed", 1)]
        assert t.root_cause.type == "java.lang.UnsupportedOperationException"
        assert t.exceptions[2].frames[-1].function == "run"

    def test_only_first_trace(self) -> None:
        """A second ``Exception in thread`` starts another trace, which is not merged in."""
        t = parse_trace((FIX / "java/suppressed_threads.txt").read_text())
        assert t.exceptions[0].message == "import worker crashed"
        assert len(t.exceptions) == 3

    def test_multiline_caused_by_message_and_bare_more(self) -> None:
        """A ``Caused by`` with a multi-line message and only ``... 23 more`` gets 23 frames."""
        t = parse_trace((FIX / "defects4j/Closure-37.txt").read_text())
        assert t.exceptions[1].message == "INTERNAL COMPILER ERROR.\nPlease report this problem.\nnull"
        assert len(t.exceptions[2].frames) == 23


class TestNode:
    def test_cause_block_and_matching_lines_restored(self) -> None:
        """``[cause]:`` is the root cause; the 5 hidden lines come back from the cause's stack."""
        t = parse_trace((FIX / "node/error_cause.txt").read_text(), project_root="/tmp/hintline-traces/node")
        assert [e.type for e in t.exceptions] == ["DbError", "Error"]
        assert t.root_cause.message == "connect ECONNREFUSED 127.0.0.1:5432"
        outer = t.exceptions[0]
        assert len(outer.frames) == 8
        assert outer.omitted == 0
        assert outer.frames[2].function == "Module._compile"

    def test_async_frames_and_internal(self) -> None:
        """``at async fn`` frames parse; node:internal frames are not in app."""
        t = parse_trace((FIX / "node/async_enoent.txt").read_text(), project_root="/tmp/hintline-traces/node")
        fns = [(f.function, f.in_app) for f in t.exceptions[0].frames]
        assert fns == [("open", False), ("Object.readFile", False), ("readSettings", True), ("main", True)]
        assert t.extra["code"] == "ENOENT"

    def test_anonymous_frames(self) -> None:
        """``at file:line:col`` has no function; ``at Array.forEach (<anonymous>)`` no file line."""
        t = parse_trace((FIX / "node/anonymous_callbacks.txt").read_text())
        f0, f1 = t.exceptions[0].frames[:2]
        assert (f0.function, f0.line, f0.column) == (None, 4, 22)
        assert (f1.function, f1.file, f1.line) == ("Array.forEach", "<anonymous>", None)

    def test_node_modules_not_in_app(self) -> None:
        """A frame in node_modules inside the project root is still third party."""
        t = parse_trace((FIX / "node/node_modules_json.txt").read_text(), project_root="/tmp/hintline-traces/node")
        frames = t.exceptions[0].frames
        assert [f.in_app for f in frames[:3]] == [False, False, True]

    def test_aggregate_error_members(self) -> None:
        """AggregateError's ``[errors]`` become group members with their own frames."""
        t = parse_trace((FIX / "node/aggregate_error.txt").read_text())
        assert [(e.type, e.relation) for e in t.exceptions] == [
            ("AggregateError", None), ("Error", "group"), ("TypeError", "group")]
        assert t.exceptions[2].frames[0].line == 4


class TestJvmLogsAndKotlin:
    def test_logback_common_frames_omitted(self) -> None:
        """Logback's ``... 1 common frames omitted`` resolves like ``... 1 more``; log lines stay out."""
        t = parse_trace((FIX / "java/logback_common_frames_omitted.txt").read_text())
        assert [(e.type, e.message) for e in t.exceptions] == [
            ("java.lang.IllegalStateException", "invoice total failed"),
            ("java.lang.IllegalArgumentException", "no exchange rate for XAU"),
        ]
        assert [f.line for f in t.exceptions[1].frames] == [11, 18, 26]

    def test_kotlin_trace(self) -> None:
        """A real Kotlin trace: ``MainKt`` frames, a frame without line, a message-less cause."""
        t = parse_trace((FIX / "java/kotlin_npe_chain.txt").read_text())
        root = t.root_cause
        assert root is not None
        assert (root.type, root.message) == ("kotlin.KotlinNullPointerException", "")
        assert [(f.file, f.line) for f in root.frames] == [("Main.kt", 5), ("Main.kt", 10), ("Main.kt", None)]
        assert all(f.in_app for f in t.frames)
