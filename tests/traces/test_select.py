"""The frame limit keeps the throw site, then in-app frames, then the rest."""

from __future__ import annotations

from pathlib import Path

from hintline.traces import Frame, parse_trace, select_frames
from hintline.traces._model import ExceptionInfo, Trace

FIX = Path(__file__).parent / "fixtures"


def _frame(i: int, in_app: bool) -> Frame:
    return Frame(f"f{i}.py", i, f"fn{i}", None, "python", in_app)


class TestSelectFrames:
    def test_throw_site_then_in_app_then_rest(self) -> None:
        """Priority order decides which frames survive; survivors keep their order."""
        frames = tuple(_frame(i, i in (5, 9)) for i in range(12))
        exc = ExceptionInfo("E", "m", frames)
        assert [f.line for f in select_frames(exc, 4)] == [0, 1, 5, 9]
        assert [f.line for f in select_frames(exc, 1)] == [0]
        assert select_frames(exc, 0) == ()
        assert select_frames(exc, 50) == frames

    def test_trace_limited_counts_omitted(self) -> None:
        """``Trace.limited`` cuts every exception and counts what it dropped."""
        text = (FIX / "defects4j/Lang-1.txt").read_text()
        t = parse_trace(text)
        limited = t.limited()
        exc = limited.exceptions[0]
        assert len(exc.frames) == 20
        assert exc.omitted == len(t.exceptions[0].frames) - 20
        assert exc.frames[0] == t.exceptions[0].frames[0]
        in_app = [f for f in t.exceptions[0].frames if f.in_app]
        assert all(f in exc.frames for f in in_app)
        assert limited.root_cause is not None
        assert limited.root_cause.type == t.root_cause.type

    def test_empty_trace(self) -> None:
        """An empty trace limits to an empty trace and is falsy."""
        assert Trace().limited() == Trace()
        assert not Trace()
