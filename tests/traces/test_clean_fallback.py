"""``clean``'s fallback names the root cause that ``parse_trace`` finds (issue 4, "Used by")."""

from __future__ import annotations

from pathlib import Path

import pytest

from hintline.hint import fallback
from hintline.traces import parse_trace

FIX = Path(__file__).parent / "fixtures"
ONE_PER_LANGUAGE = [
    "python/chained_cause", "java/caused_by_more", "node/error_cause", "php/uncaught_chain",
    "go/index_out_of_range", "rust/unwrap_err_backtrace", "dotnet/inner_exception", "ruby/cause_chain",
    "defects4j/Gson-5",
]


@pytest.mark.parametrize("name", ONE_PER_LANGUAGE)
def test_fallback_uses_root_cause(name: str) -> None:
    """The fallback hint of a real trace names its root cause's type and message."""
    text = (FIX / f"{name}.txt").read_text()
    root = parse_trace(text).root_cause
    assert root is not None
    hint = fallback(text).text
    assert root.type in hint
    assert root.message[:30] in hint
