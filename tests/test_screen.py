"""LiteralScreen: one Vectorscan pass answers exactly as ``any(literal in text)``."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hintline._vectorscan.screen import LiteralScreen
from hintline.hint import _CHAIN_MARKERS
from hintline.traces._detect import _MARKERS, may_hold_trace

pytest.importorskip("hyperscan")  # CI installs it; the `in` path is tested below either way


_WHICH = ("Caused by:", *_CHAIN_MARKERS, "-----BEGIN")


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["", *_WHICH, "x", "é", "\n", "-----", "Caused"]), max_size=6),
    st.text(max_size=200),
)
def test_which_names_every_literal_found(parts: list[str], noise: str) -> None:
    """``which`` reports every literal present (not only the first), on both paths."""
    text = noise.join(parts) + noise
    expected = frozenset(i for i, m in enumerate(_WHICH) if m in text)
    screen = LiteralScreen(_WHICH)
    assert screen.which(text) == expected
    assert screen._database is not None
    plain = LiteralScreen(_WHICH)
    plain._failed = True  # no engine: the `in` checks answer
    assert plain.which(text) == expected


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["", *_CHAIN_MARKERS, "x", "é", "\n", "--->", "[cause]"]), max_size=6),
    st.text(max_size=200),
)
def test_same_answer_as_in(parts: list[str], noise: str) -> None:
    """Markers (whole, cut, in non-ASCII surroundings) are found exactly when present."""
    text = noise.join(parts) + noise
    screen = LiteralScreen(_CHAIN_MARKERS)
    assert screen.search(text) is any(m in text for m in _CHAIN_MARKERS)
    assert screen._database is not None  # the Vectorscan path answered


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["", *_MARKERS, "a", "t", " ", "File", "\n", "é"]), max_size=6),
    st.text(max_size=200),
)
def test_trace_markers_same_answer_as_in(parts: list[str], noise: str) -> None:
    """parse_trace's quick reject (a screen that stops at the first marker) answers as ``in``."""
    text = noise.join(parts) + noise
    assert may_hold_trace(text) is any(m in text for m in _MARKERS)


def test_lone_surrogate_falls_back_to_in() -> None:
    """Text that does not encode is answered by the plain checks."""
    screen = LiteralScreen(("[recovered]",))
    assert screen.search("\ud800 panic: x [recovered]") is True
    assert screen.search("\ud800 panic: x") is False


def test_engine_forced_to_re_uses_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """HINTLINE_ENGINE=re keeps Vectorscan out: the same answers from ``in``."""
    monkeypatch.setenv("HINTLINE_ENGINE", "re")
    screen = LiteralScreen(("--->",))
    assert screen.search("a ---> b") is True
    assert screen.search("a --> b") is False
    assert screen._database is None


def test_trace_markers_in_long_texts() -> None:
    """A long text is screened by its head first: a marker after it, or across its end, counts."""
    head = 65536
    for at in (10, head - 2, head - 1, head, head + 5, 3 * head):
        text = "x" * at + "Caused by:" + "y" * 100
        assert may_hold_trace(text), at
    assert not may_hold_trace("x" * (3 * head))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["", *_CHAIN_MARKERS, "x", "é", "\n", "--->", "[cause]"]), max_size=6),
    st.text(max_size=200),
    st.integers(min_value=0, max_value=50),
)
def test_last_is_the_last_occurrence(parts: list[str], noise: str, start: int) -> None:
    """``last()`` (reversed Vectorscan pass) answers as the largest ``rfind`` of the literals."""
    text = noise.join(parts) + noise
    screen = LiteralScreen(_CHAIN_MARKERS)
    expected = max(text.rfind(m, start) for m in _CHAIN_MARKERS)
    assert screen.last(text, start) == expected


def test_last_finds_a_literal_across_its_chunks() -> None:
    """A literal that straddles two 1 MiB chunks of a long text is found."""
    from hintline._vectorscan import screen as module

    marker = "Caused by: "
    for inside in range(1, len(marker)):  # characters of the marker in the last chunk
        before = 2 * module._CHUNK
        text = "a" * before + marker + "b" * (module._CHUNK - inside)
        assert len(text) - module._CHUNK == before + len(marker) - inside  # the chunk boundary
        assert LiteralScreen((marker,)).last(text) == before
