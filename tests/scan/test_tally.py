"""The per-entry shortcuts of ``tally_entries`` give what merging one-entry tallies gives."""

from __future__ import annotations

import pytest

from hintline.logs._formats import _CACHED_TRACE_CHARS, _trace_of
from hintline.scan import Tally, plan_chunks, read_chunk, tally_entries
from hintline.scan._sample import write_sample_log
from hintline.traces import parse_trace

SECRET = "Zq8-tally-secret-31"


@pytest.fixture(scope="module")
def entries(tmp_path_factory: pytest.TempPathFactory) -> list:  # type: ignore[type-arg]
    path = tmp_path_factory.mktemp("tally") / "app.log"
    write_sample_log(path, records=1200, error_share=0.1, seed=5, secret=SECRET)
    (chunk,) = plan_chunks([str(path)], fmt=None, chunk_bytes=1 << 30)
    found = list(read_chunk(chunk))
    assert len(found) > 50
    return found


def test_same_as_merging_single_entries(entries: list) -> None:  # type: ignore[type-arg]
    merged = Tally()
    for entry in reversed(entries):  # the earliest entry must still win the example
        merged.merge(tally_entries([entry]))
    direct = tally_entries(entries)
    assert [r.to_dict() for r in direct.rows()] == [r.to_dict() for r in merged.rows()]
    assert direct.hours == merged.hours
    assert direct.entries == merged.entries == len(entries)


def test_examples_are_scrubbed(entries: list) -> None:  # type: ignore[type-arg]
    assert any(SECRET in e.raw for e in entries)
    rows = tally_entries(entries).rows()
    assert rows
    assert all(SECRET not in str(r.to_dict()) for r in rows)


def test_trace_cache_matches_parse_trace(entries: list) -> None:  # type: ignore[type-arg]
    text = next(e.trace_text for e in entries if e.trace_text)
    assert _trace_of(text) == parse_trace(text)
    assert _trace_of(text) is _trace_of(text)  # remembered
    long = text + "\n" + "x" * (_CACHED_TRACE_CHARS + 1)
    assert _trace_of(long) == parse_trace(long)
    assert _trace_of(long) is not _trace_of(long)  # too long to be kept
