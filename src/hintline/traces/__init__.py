"""Parse any language's stack trace into an exception chain with frames.

PLACEHOLDER parse_trace: replaced by the real parsers (issue 4).
"""

from __future__ import annotations

from collections.abc import Sequence

from hintline.traces._model import ExceptionInfo, Frame, Trace

__all__ = ["ExceptionInfo", "Frame", "Trace", "parse_trace"]


def parse_trace(
    source: str | bytes | BaseException,
    *,
    project_root: str | None = None,
    language: str | None = None,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
) -> Trace:
    """Parse a trace (text, bytes or a live exception). Never raises; may return an empty Trace."""
    del source, project_root, language, include, exclude
    return Trace()
