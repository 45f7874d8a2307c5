"""The scrubber's work grows with the lines and secrets it searches, not with the number of
triggers in the text (issue 14, section 1: thousands of glued triggers in 64 KiB cost
thousands of RE2 calls before). Counted calls, not timings: the speed itself is measured by
``python -m benchmarks scrub`` and ``python -m benchmarks hostile``."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from hintline._linear import AVAILABLE as RE2_AVAILABLE
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


class _CountingText(str):
    """A text that counts the line-break searches made on it."""

    finds = 0

    def find(self, *args: Any) -> int:
        type(self).finds += 1
        return super().find(*args)


def _walk(text: str, stop: int, lines: int) -> int:
    """The end of the ``lines``-th line after ``stop``, one line break after the other."""
    for _ in range(lines):
        if stop >= len(text):
            break
        nxt = text.find("\n", stop + 1)
        stop = len(text) if nxt < 0 else nxt
    return stop


def test_each_line_break_is_looked_for_once_per_pattern() -> None:
    """An Authorization header per line: a pattern that may span 20 lines asks, for each
    header, where its 20th line ends. Each line break is found once over the whole text, not
    19 times per header (162,000 searches on 64 KiB of headers before)."""
    line = "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl\n"
    text = _CountingText(line * 900)
    plain = str(text)
    walker = scrubber_module._Newlines(text)
    stops = [i for i, c in enumerate(plain) if c == "\n"]
    _CountingText.finds = 0
    for stop in stops:
        assert walker.after(stop, 19) == _walk(plain, stop, 19)
    assert _CountingText.finds <= len(stops) + 1


def test_line_ends_answer_as_a_walk_in_any_order() -> None:
    """Questions forward, backward and far ahead (a long text, where the list of found
    line breaks is trimmed) get the answer of a plain walk."""
    import random

    rng = random.Random(14)
    for size in (0, 1, 50, 20_000):
        text = "".join(rng.choice("ab\n") for _ in range(size))
        walker = scrubber_module._Newlines(text)
        stops = [i for i, c in enumerate(text) if c == "\n"] + [len(text)]
        k = 0
        for _ in range(3 * len(stops)):
            k = max(0, min(len(stops) - 1, k + rng.choice((1, 1, 1, 2, 7, -3, -40))))
            lines = rng.randint(1, 21)
            assert walker.after(stops[k], lines) == _walk(text, stops[k], lines)


class _Scanned:
    """A compiled pattern that adds up the characters its ``search`` calls may scan."""

    def __init__(self, regex: re.Pattern[str]) -> None:
        self.regex = regex
        self.scanned = 0

    def search(self, text: str, pos: int = 0, endpos: int = 1 << 62) -> re.Match[str] | None:
        self.scanned += min(endpos, len(text)) - pos
        return self.regex.search(text, pos, endpos)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.regex, name)


@pytest.mark.parametrize(
    "text",
    [
        "authorization: [secure]\n" + "x" * 60_000,
        "Proxy-Authorization: [redacted] and more\n" + "\t" * 60_000 + "\nAuthorization: Basic dXNlcjpwYXNz\n",
    ],
    ids=["no match below", "a match far below"],
)
def test_a_long_line_below_a_near_miss_is_not_searched_by_re(text: str) -> None:
    """A pattern on ``re`` that may span lines, whose trigger occurs on a line where it does
    not match: the long line below is searched for a start only if its loosened form (RE2)
    says one can start there, not position by position by ``re``. The answer is the one
    without engines."""
    if FAST._prefilter is None or not RE2_AVAILABLE:
        pytest.skip("no Hyperscan or RE2 wheel here")
    scrubber = Scrubber()
    assert scrubber._prefilter is not None
    assert scrubber._prefilter.wait(600)
    branch = next(b for b in scrubber._branches if b.name == "authorization-header")
    assert branch.lines > 1
    assert branch.linear is None
    assert branch.loose is not None
    scanned = _Scanned(branch.regex)
    branch.__dict__["regex"] = scanned  # the cached compiled pattern, counted
    assert scrubber.scrub(text) == PLAIN.scrub(text)
    assert scanned.scanned < 1_000
