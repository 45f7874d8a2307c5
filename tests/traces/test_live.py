"""``parse_trace(exc)``: a live Python exception's chain, groups and frames."""

from __future__ import annotations

import json
import sys

import pytest

from hintline.traces import parse_trace

HERE = __file__


class AppError(Exception):
    """An error class of the test module."""


def _load(text: str) -> object:
    return json.loads(text)


def _raise_chain() -> None:
    try:
        _load("{'secret_token': 1}")
    except json.JSONDecodeError as exc:
        raise AppError("config broken") from exc


class TestLiveException:
    def test_cause_chain_and_frames(self) -> None:
        """``raise … from`` gives the app error outermost and the JSON error as root cause."""
        try:
            _raise_chain()
        except AppError as exc:
            trace = parse_trace(exc, project_root=str(__import__("pathlib").Path(HERE).parent))
        assert [e.type for e in trace.exceptions] == [
            "tests.traces.test_live.AppError", "json.decoder.JSONDecodeError"]
        assert trace.exceptions[1].relation == "cause"
        outer = trace.exceptions[0]
        assert outer.frames[0].function == "_raise_chain"
        assert outer.frames[0].in_app
        assert outer.frames[0].module == "tests.traces.test_live"
        root = trace.root_cause
        assert root is not None
        assert root.type == "json.decoder.JSONDecodeError"
        assert root.frames[0].function == "raw_decode"
        assert not root.frames[0].in_app
        assert [f.function for f in root.frames[-2:]] == ["_load", "_raise_chain"]

    def test_context_and_suppressed_context(self) -> None:
        """Implicit context is followed; ``from None`` hides it."""
        try:
            try:
                {}["k"]
            except KeyError:
                1 / 0  # noqa: B018
        except ZeroDivisionError as exc:
            t = parse_trace(exc)
        assert [(e.type, e.relation) for e in t.exceptions] == [("ZeroDivisionError", None), ("KeyError", "context")]
        try:
            try:
                {}["k"]
            except KeyError:
                raise ValueError("clean") from None
        except ValueError as exc:
            t = parse_trace(exc)
        assert [e.type for e in t.exceptions] == ["ValueError"]

    @pytest.mark.skipif(sys.version_info < (3, 11), reason="exception groups need Python 3.11")
    def test_exception_group(self) -> None:
        """Group members become ``group`` children of their group."""
        try:
            raise ExceptionGroup("many", [ValueError("a"), TypeError("b")])
        except Exception as exc:
            t = parse_trace(exc)
        assert [(e.type, e.message, e.relation, e.parent) for e in t.exceptions] == [
            ("ExceptionGroup", "many", None, None), ("ValueError", "a", "group", 0), ("TypeError", "b", "group", 0)]

    def test_no_source_lines_and_broken_str(self) -> None:
        """Frames never carry source text; an exception whose ``__str__`` raises still parses."""

        class Weird(Exception):
            def __str__(self) -> str:
                raise RuntimeError("no")

        try:
            raise Weird()
        except Weird as exc:
            t = parse_trace(exc)
        assert t.exceptions[0].message == "<exception str() failed>"
        frame = t.exceptions[0].frames[0]
        assert frame.function == "test_no_source_lines_and_broken_str"
        assert "raise" not in (frame.file or "") + (frame.function or "")

    def test_cycle_terminates(self) -> None:
        """A cause cycle (a → b → a) is walked once."""
        a, b = ValueError("a"), KeyError("b")
        a.__cause__, b.__cause__ = b, a
        t = parse_trace(a)
        assert [e.type for e in t.exceptions] == ["ValueError", "KeyError"]

    def test_unraised_exception(self) -> None:
        """An exception that was never raised has no frames but still parses."""
        t = parse_trace(RuntimeError("never raised"))
        assert t.exceptions[0].frames == ()
        assert t.root_cause is not None
        assert t.root_cause.message == "never raised"
