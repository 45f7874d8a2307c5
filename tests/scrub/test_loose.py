"""The loosened screen of the patterns that run on ``re`` (issue 14, section 1).

A pattern RE2 cannot run is searched line by line with Python's ``re``; its loosened form (its
look-arounds dropped, on RE2) says first where a match can start at the earliest, and the
merge searches it only once that place comes first (a pattern on RE2 whose last match another
covered, likewise). Both only skip work: these tests hold them
to that. The loosened form matches wherever the pattern does; and a scrubber without it gives
the same text, on fuzz, on the fixtures and on the hostile shapes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, seed, settings

from hintline._linear import AVAILABLE as _RE2
from hintline.scrub import Scrubber
from hintline.scrub._scrubber import RE_PATTERNS, _Branch, _superset, _Text
from tests.linear.fuzz import texts
from tests.linear.shapes import table_shapes
from tests.scrub.test_differential import corpus

pytestmark = pytest.mark.skipif(not _RE2, reason="the loosened screen runs on RE2")

LOOSE = Scrubber()
if LOOSE._prefilter is not None:
    assert LOOSE._prefilter.wait(600)
RE_BRANCHES = [b for b in LOOSE._branches if b.name in RE_PATTERNS]
ALL_BRANCHES = [b for b in LOOSE._branches if b.loose is not None]


class _Strict(Scrubber):
    """The scrubber as it was: every pattern on re searched from its trigger alone."""

    def __post_init__(self) -> None:
        super().__post_init__()
        for branch in self._branches:
            branch.__dict__["loose"] = None  # the cached property, answered before it runs


STRICT = _Strict()
if STRICT._prefilter is not None:
    assert STRICT._prefilter.wait(600)


def test_every_pattern_has_a_loosened_form() -> None:
    """Each of the six patterns RE2 cannot run loosens into one it can (the others: into one
    without groups, which the merge uses for a pattern whose last match was covered)."""
    assert sorted(b.name for b in RE_BRANCHES) == sorted(RE_PATTERNS)
    assert len(ALL_BRANCHES) == len(LOOSE._branches)


def test_the_loosened_form_drops_look_arounds_and_keeps_the_leading_one() -> None:
    source = _superset(r"(?<![a-z])key(?:(?!no)(?P<secret>x+)|(?<=y)z)(?!y)$")
    assert source == r"(?<![a-z])key(?:(?:)(?:x+)|(?:)z)(?:)(?m:$)"


def test_the_loosened_form_ends_with_what_its_first_look_ahead_saw() -> None:
    """A look-ahead at the top level is kept as what it needs (the rest is cut): a bearer
    token without a digit is ruled out by the loosened form already."""
    assert _superset(r"(?<![a-z])bearer\s+(?=\w*[0-9])(?P<secret>\w+)$") == r"(?<![a-z])bearer\s+(?:\w*[0-9])"
    assert _superset(r"a(?=b)|c") == r"a(?:)|c"  # an alternation: dropped, not cut
    branch = next(b for b in LOOSE._branches if b.name == "bearer-token")
    text = "sent bearer abcdefghijkl\n" * 100
    assert branch.earliest(_Text(text), 0)[0] == len(text) + 1


def _starts(branch: _Branch, text: str) -> Iterator[int]:
    """Where the pattern matches, from every position of the text on a window that ends at
    the end of the line (``re_search`` searches such windows)."""
    regex: re.Pattern[str] = branch.regex
    for pos in range(len(text)):
        end = text.find("\n", pos)
        for stop in {len(text), len(text) if end < 0 else end}:
            if regex.match(text, pos, stop):
                yield pos


def _never_late(text: str) -> None:
    t = _Text(text)
    for branch in ALL_BRANCHES:
        starts = sorted(set(_starts(branch, text)))
        for pos in {0, *starts, *(s + 1 for s in starts), len(text) // 2}:
            if pos > len(text):
                continue
            first = next((s for s in starts if s >= pos), len(text) + 1)
            at, _read = branch.earliest(t, pos)
            assert pos <= at <= first, (branch.name, text, pos, at, first)


@functools.cache
def _fixtures() -> list[str]:
    return [t for t in corpus() if len(t) < 4000]


def test_the_loosened_form_is_never_later_than_a_match_on_the_fixtures() -> None:
    """Fixtures, every pattern's examples and near misses, rule examples."""
    for text in _fixtures():
        _never_late(text)


@seed(14)
@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(texts())
def test_the_loosened_form_is_never_later_than_a_match_on_fuzz(text: str) -> None:
    _never_late(text[:600])


@seed(14)
@settings(max_examples=600, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(texts())
def test_the_loosened_screen_changes_no_answer_on_fuzz(text: str) -> None:
    """With and without it, fast path and full pass: one text."""
    assert LOOSE.scrub(text) == STRICT.scrub(text)
    assert LOOSE._report(text, fast=False) == STRICT._report(text, fast=False)


def test_the_loosened_screen_changes_no_answer_on_the_fixtures() -> None:
    differ = [t for t in corpus() if LOOSE.scrub(t) != STRICT.scrub(t)]
    assert differ == []


def test_the_loosened_screen_changes_no_answer_on_the_hostile_shapes() -> None:
    """Every shape of the hostile tier, at 1 KiB (each pattern's runs, glued examples, near
    misses and triggers)."""
    differ = [s.owner + " | " + s.kind for s in table_shapes(1024) if LOOSE.scrub(s.text) != STRICT.scrub(s.text)]
    assert differ == []


def test_a_trigger_without_a_match_is_not_searched_line_by_line() -> None:
    """``authorization:`` then 64 KiB of spaces: one RE2 search says nothing can match (the
    line-by-line search walked back over every space for each alternative)."""
    text = "authorization:" + " " * 65536
    t = _Text(text)
    branch = next(b for b in LOOSE._branches if b.name == "authorization-header")
    assert branch.earliest(t, 0)[0] == len(text) + 1
    assert LOOSE.scrub(text) == text


def test_the_loosened_searches_read_a_bounded_multiple_of_the_text() -> None:
    """A line of loosened matches that each run to its end (``[secure]`` values: the pattern
    refuses them, its loosened form takes the rest of the line) between real ones: once the
    loosened searches have read the text a few times, the trigger-led search goes on alone."""
    line = "Authorization: [secure] x Authorization: Bearer tok1 " * 1200
    t = _Text(line)
    branch = next(b for b in LOOSE._branches if b.name == "authorization-header")
    state = [1, 0, 0, 1, 0, 0, 1, 0, 0]
    pos = 0
    found = 0
    while (m := branch.re_search(t, pos, state)) is not None:
        found += 1
        pos = m.end()
    assert found == 1200
    assert state[8] == -1  # the budget ran out: the loosened searches stopped
    assert LOOSE.scrub(line) == STRICT.scrub(line)
