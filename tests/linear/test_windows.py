"""The rule engines' RE2 search reads a long text window by window (issue 14, section 1:
a first match tens of KiB long cost RE2 100-150 ns a byte): the first match is still the one
Python's ``re`` finds whenever it fits in :data:`hintline._linear.MATCH_SPAN` bytes, wherever
it falls against the windows, on ASCII and non-ASCII text; a window never finds a match the
whole text does not have (``\\b`` and ``$`` see the text beyond the window); a longer first
match is read from the first window holding a shorter reading of it, or is not found."""

from __future__ import annotations

import re

import pytest

from hintline import _linear
from hintline._linear import MATCH_SPAN, RE2_WINDOW, LinearPattern

pytest.importorskip("re2")

_STEP = RE2_WINDOW - MATCH_SPAN
# where a match may sit against the windows: across every window edge and the step between them
_EDGES = sorted(
    {
        k * _STEP + d
        for k in (1, 2, 3)
        for d in (-MATCH_SPAN - 1, -MATCH_SPAN, -300, -7, -1, 0, 1, 5)
    }
    | {k * _STEP + MATCH_SPAN + d for k in (1, 2) for d in (-260, -3, -1, 0, 1)}
    | {RE2_WINDOW + d for d in (-260, -200, -2, -1, 0, 1, 2)}
)
_PATTERNS = (
    r"key=(?P<key>[a-z]+)\b",  # greedy to a word boundary: cut by a window, it would differ
    r"(?m)^ERROR (?P<msg>[^\n]*)$",  # anchors
    r"from (?:[^\n]*\n[^\n]*?|[^\n]*)chain: [^\n]*\[\"(?P<key>[^\"\n]+)\"\]",  # two lines
)


def _search(pattern: str, text: str, pos: int = 0) -> dict[str, str | None] | None:
    data = text.encode("utf-8")
    regex = LinearPattern(pattern, use_re2=True)
    assert regex.engine == "re2"
    return regex.searcher(len(data) == len(text))(text, data, pos)


def _python(pattern: str, text: str, pos: int = 0) -> dict[str, str | None] | None:
    found = re.compile(_linear.python_form(pattern)).search(text, pos)
    return None if found is None else found.groupdict()


def _place(fill: str, at: int, match: str, size: int) -> str:
    text = (fill * (size // len(fill) + 1))[:at] + match
    return text + (fill * (size // len(fill) + 1))[: max(0, size - len(text))]


@pytest.mark.parametrize("fill", ["ab cd\n", "é x\n", "abcdefgh"])
@pytest.mark.parametrize("at", _EDGES)
def test_a_match_that_fits_is_found_wherever_it_falls(fill: str, at: int) -> None:
    size = 4 * RE2_WINDOW
    matches = (
        " key=" + "q" * 200 + " ",
        "\nERROR " + "é" * 100 + "\n",
        ' from String "x"\n at [Source] (through reference chain: A["quantity"])\n',
    )
    for pattern, match in zip(_PATTERNS, matches, strict=True):
        text = _place(fill, at, match, size)
        assert len(text.encode("utf-8")) > RE2_WINDOW
        assert _search(pattern, text) == _python(pattern, text), (pattern, fill, at)
        # and from a position, as the Hyperscan engine searches (the start of the match's line)
        pos = max(0, at - 100)
        assert _search(pattern, text, len(text[:pos].encode())) == _python(pattern, text, pos)


@pytest.mark.parametrize("at", [RE2_WINDOW - 3, RE2_WINDOW - 1, _STEP - 3, 2 * _STEP - 2])
def test_a_window_sees_the_text_beyond_it(at: int) -> None:
    # "key=abc" cut by a window's end would end at a word boundary of the window, not of the
    # text; the first real match lies further on
    text = "x" * (at - 4) + "key=abc" + "defgh" + " " * 50 + "key=zz " + "y" * (2 * RE2_WINDOW)
    found = _search(_PATTERNS[0], text)
    assert found == _python(_PATTERNS[0], text)


def test_an_earlier_match_that_did_not_fit_is_not_overtaken() -> None:
    # a match that starts where the next window starts, too long for this window, comes before
    # a short one this window holds: the next window finds it
    pattern = r"K(?P<g>[^\n]*Z|Q)"
    text = "." * (_STEP + 10) + "K" + "a" * 100 + "KQ" + "a" * 2900 + "Z" + "." * (3 * RE2_WINDOW)
    found = _search(pattern, text)
    assert found == _python(pattern, text)
    assert found is not None
    assert found["g"] is not None
    assert found["g"].endswith("Z")


def test_a_longer_first_match_is_read_from_a_window_or_not_at_all() -> None:
    # the bound, on purpose: a 64 KiB key is read from the window it starts in where a shorter
    # reading of the pattern ends there; where none does (the word boundary after the key lies
    # beyond every window that holds its start), the rule does not match
    text = "key=" + "a" * (64 * 1024) + " end"
    found = _search(r"key=(?P<key>[a-z]+)", text)
    assert found is not None
    assert found["key"] is not None
    assert found["key"].startswith("a" * 64)
    assert len(found["key"]) < RE2_WINDOW
    assert _python(_PATTERNS[0], text) is not None
    assert _search(_PATTERNS[0], text) is None
