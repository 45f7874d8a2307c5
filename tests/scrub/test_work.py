"""The scrubber's work grows with the lines and secrets it searches, not with the number of
triggers in the text (issue 14, section 1: thousands of glued triggers in 64 KiB cost
thousands of RE2 calls before). Counted calls, not timings: the speed itself is measured by
``python -m benchmarks scrub`` and ``python -m benchmarks hostile``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from hintline.scrub import SECRETS, Scrubber
from hintline.scrub import _scrubber as scrubber_module

FAST = Scrubber()
if FAST._prefilter is not None:  # a cold cache compiles it in the background: wait for it
    assert FAST._prefilter.wait(600)
PLAIN = Scrubber(engines="re")

TRIGGERS = "authorization:a::::::::" * 3000  # one line: the first value runs to its end


def _counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    calls = [0]
    original: Callable[..., Any] = getattr(owner, name)

    def counted(*args: Any) -> Any:
        calls[0] += 1
        return original(*args)

    monkeypatch.setattr(owner, name, counted)
    return calls


@pytest.mark.parametrize("scrubber", [FAST, PLAIN], ids=["engines", "no engines"])
def test_a_line_of_glued_triggers_costs_a_few_trigger_searches(
    monkeypatch: pytest.MonkeyPatch, scrubber: Scrubber
) -> None:
    """3,000 triggers of a ``re`` pattern on one line whose first value runs to the line's
    end: the trigger is searched a few times per pass, not once per occurrence."""
    calls = _counting(monkeypatch, scrubber_module._Branch, "trigger_at")
    out = scrubber.scrub(TRIGGERS)
    assert out == "authorization:***"
    assert 0 < calls[0] <= 20 * len(SECRETS)


def test_the_prefilter_reports_each_trigger_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hyperscan calls back once per pattern that fires, however often its trigger occurs."""
    if FAST._prefilter is None:
        pytest.skip("no Hyperscan wheel here")
    calls = _counting(monkeypatch, scrubber_module, "_on_match")
    fired = FAST._prefilter.fired(TRIGGERS + " password=S3cret " * 2000)
    assert fired is not None and len(fired) >= 2
    assert calls[0] == len(fired)
