"""The scrubber's work grows with the lines and secrets it searches, not with the number of
triggers in the text (issue 14, section 1: thousands of glued triggers in 64 KiB cost
thousands of RE2 calls before). Counted calls, not timings: the speed itself is measured by
``python -m benchmarks scrub`` and ``python -m benchmarks hostile``."""

from __future__ import annotations

import re
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


def test_the_prefilter_calls_back_a_bounded_number_of_times(monkeypatch: pytest.MonkeyPatch) -> None:
    """However often triggers occur in a long text, Hyperscan calls back at most
    ``_MANY + 1`` times while it reports every match, then once per pattern per block."""
    if FAST._prefilter is None:
        pytest.skip("no Hyperscan wheel here")
    every = _counting(monkeypatch, scrubber_module, "_on_any_match")
    once = _counting(monkeypatch, scrubber_module, "_on_match")
    text = TRIGGERS + " password=S3cret " * 2000
    fired = FAST._prefilter.fired(text)
    assert fired is not None
    assert len(fired) >= 2
    assert every[0] == scrubber_module._MANY + 1
    blocks = len(text.encode()) // (scrubber_module._BLOCK - scrubber_module._OVERLAP) + 1
    assert 0 < once[0] <= len(fired) * (blocks + 1)


_FILLER = " -px" * 40 + "\n"
"""Glued triggers of a pattern that masks nothing here (``-p`` outside a mysql command), so
that a long text is screened by blocks."""


def test_a_trigger_across_a_block_edge_is_reported() -> None:
    """The block screen of a long text misses no trigger: with every example secret planted
    at offsets across the first block edge, every pattern whose trigger occurs in the text
    (by ``re``) is reported."""
    if FAST._prefilter is None:
        pytest.skip("no Hyperscan wheel here")
    block = scrubber_module._BLOCK
    head = (_FILLER * (block // len(_FILLER) + 2))[: block + 600]
    triggers = [re.compile(p.trigger or p.pattern) for p in SECRETS]
    checked = 0
    for pattern in SECRETS:
        for example in pattern.examples[:1]:
            width = len(example.encode())
            for back in sorted({1, width // 2, width - 1}):
                text = head[: block - back] + example + " " + _FILLER * 40
                fired = FAST._prefilter.fired(text)
                assert fired is not None
                expected = {n for n, trigger in enumerate(triggers) if trigger.search(text)}
                assert expected <= fired, (pattern.name, back, expected - fired)
                checked += 1
    assert checked > 80


def test_the_prefilter_reports_each_trigger_once_in_a_short_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """A text of one block: Hyperscan calls back once per pattern that fires, however often
    its trigger occurs."""
    if FAST._prefilter is None:
        pytest.skip("no Hyperscan wheel here")
    calls = _counting(monkeypatch, scrubber_module, "_on_match")
    text = ("authorization:a:: " * 200 + " password=S3cret " * 100)[: scrubber_module._BLOCK]
    fired = FAST._prefilter.fired(text)
    assert fired is not None
    assert len(fired) >= 2
    assert calls[0] == len(fired)
