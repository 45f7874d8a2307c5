"""Grouping: one group per kind of failure, keys as bounded data, compared with Drain3.

The logs are written by the real ``logging`` module around real exceptions
(:func:`hintline.scan._sample.write_kinds_log`); the generator records the kind of every error
record it writes, which is the ground truth.
"""

from __future__ import annotations

import collections
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hintline import logs
from hintline.fingerprint import fingerprint, key_template, template
from hintline.hint import clean
from hintline.logs import entry_fingerprint
from hintline.scan import scan, write_html
from hintline.scan._distinct import Distinct
from hintline.scan._sample import KINDS, write_kinds_log
from hintline.traces import parse_trace


def _scores(labels: list[str], clusters: list[object]) -> tuple[int, float, int]:
    """(groups, purity, kinds split over more than one group)."""
    members: dict[object, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for kind, cluster in zip(labels, clusters, strict=True):
        members[cluster][kind] += 1
    purity = sum(c.most_common(1)[0][1] for c in members.values()) / len(labels)
    spread: dict[str, set[object]] = collections.defaultdict(set)
    for kind, cluster in zip(labels, clusters, strict=True):
        spread[kind].add(cluster)
    return len(members), purity, sum(1 for s in spread.values() if len(s) > 1)


@pytest.fixture(scope="module")
def kinds_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    d = tmp_path_factory.mktemp("kinds")
    labels = write_kinds_log(d / "app.log", records=8000, seed=11)
    return d / "app.log", labels


class TestKinds:
    def test_one_pure_group_per_kind(self, kinds_log: tuple[Path, list[str]]) -> None:
        """13 kinds with variable paths, ids, hosts and durations: 13 groups, each pure."""
        path, labels = kinds_log
        entries = list(logs.iter_entries(path))
        assert len(entries) == len(labels)
        groups, purity, split = _scores(labels, [entry_fingerprint(e) for e in entries])
        assert (groups, purity, split) == (len(KINDS), 1.0, 0)

    def test_scan_and_logs_group_agree(self, kinds_log: tuple[Path, list[str]]) -> None:
        path, labels = kinds_log
        rows = scan([path], jobs=2, chunk_bytes=64 << 10).tally.rows()
        grouped = logs.group(logs.iter_newest(path))
        assert len(rows) == len(KINDS)
        assert {(r.fingerprint, r.count) for r in rows} == {(g.fingerprint, g.count) for g in grouped}
        assert sum(r.count for r in rows) == len(labels)

    def test_drain3_comparison(self, kinds_log: tuple[Path, list[str]]) -> None:
        """Drain3 on the same messages: hintline is at least as pure and splits no kind."""
        from drain3 import TemplateMiner

        path, labels = kinds_log
        entries = list(logs.iter_entries(path))
        miner = TemplateMiner()
        drain = [miner.add_log_message(e.message.split("\n", 1)[0])["cluster_id"] for e in entries]
        d_groups, d_purity, _ = _scores(labels, drain)
        h_groups, h_purity, h_split = _scores(labels, [entry_fingerprint(e) for e in entries])
        assert h_purity >= d_purity
        assert h_split == 0
        assert d_groups >= 1
        assert h_groups == len(KINDS)

    def test_key_is_data_not_identity(self, kinds_log: tuple[Path, list[str]]) -> None:
        """The missing-asset group keeps the key's template, examples and distinct count."""
        path, _ = kinds_log
        rows = scan([path], jobs=1).tally.rows()
        asset = [r for r in rows if "banner" in r.example]
        assert len(asset) == 1
        data = asset[0].to_dict()
        assert data["key_template"] == "/srv/app/static/img/banner-*.webp"
        import re

        truth = len(set(re.findall(r"banner-(\d+)\.webp", path.read_text())))
        assert truth > 64  # past the exact set: the sketch's estimate
        assert abs(int(data["distinct_keys"]) - truth) <= 0.1 * truth  # type: ignore[call-overload]
        examples = data["key_examples"]
        assert isinstance(examples, list)
        assert len(examples) == 3
        assert all(str(k).startswith("/srv/app/static/img/banner-") for k in examples)

    def test_chained_exception_shows_outer_and_root(self, kinds_log: tuple[Path, list[str]]) -> None:
        path, _ = kinds_log
        rows = scan([path], jobs=1).tally.rows()
        chained = [r for r in rows if r.outer_type == "RuntimeError"]
        assert len(chained) == 1
        assert chained[0].exception_type == "KeyError"
        page = path.parent / "r.html"
        write_html(scan([path], jobs=1).tally, page)
        assert "root cause KeyError" in page.read_text()


class TestRecipe:
    def test_template_masks_variables(self) -> None:
        cases = {
            "asset /srv/app/static/img/banner-17.webp missing": "asset <*> missing",
            "connect to db1.prod.internal:5432 failed after 1.5s": "connect to <*> failed after <*>",
            "Instance 7e1c8a5e-1234-4bcd-9abc-0123456789ab not found": "Instance <*> not found",
            "GET https://api.example.com/v1/orders/77 returned 503": "GET <*> returned <*>",
            "user=alice denied": "user=<*> denied",
            "No such file: '/x/y.json'": "No such file: <*>",
        }
        for text, expected in cases.items():
            assert template(text) == expected

    def test_key_template(self) -> None:
        assert key_template("/srv/app/static/img/banner-17.webp") == "/srv/app/static/img/banner-*.webp"
        assert key_template("customer_id") == "customer_id"

    def test_same_frames_other_message_same_group(self) -> None:
        """A stack decides: the message's values do not split, another function does."""

        def fail(path: str) -> str:
            try:
                with open(path) as fh:
                    return fh.read()
            except OSError:
                import traceback

                return traceback.format_exc()

        a, b = fail("/nonexistent/a-1.json"), fail("/nonexistent/b-2.json")
        fa = fingerprint(clean(a), parse_trace(a), logger="x", message="load a")
        fb = fingerprint(clean(b), parse_trace(b), logger="x", message="load b")
        assert fa == fb

    def test_without_stack_logger_and_template_decide(self) -> None:
        hint = clean("worker 3 exited with code 137")
        same = fingerprint(hint, parse_trace(""), logger="ops", message="worker 3 exited with code 137")
        other_values = fingerprint(
            clean("worker 9 exited with code 1"), parse_trace(""), logger="ops", message="worker 9 exited with code 1"
        )
        other_logger = fingerprint(hint, parse_trace(""), logger="billing", message="worker 3 exited with code 137")
        assert same == other_values
        assert same != other_logger


class TestDistinct:
    def test_exact_then_estimated(self) -> None:
        d = Distinct()
        for i in range(50):
            d.add(f"v{i}")
            d.add(f"v{i}")
        assert d.exact
        assert d.count() == 50
        for i in range(50, 20000):
            d.add(f"v{i}")
        assert not d.exact
        assert abs(d.count() - 20000) / 20000 < 0.1
        assert len(json.dumps(d.to_json())) < 2200

    def test_merge_is_a_union(self) -> None:
        a, b, both = Distinct(), Distinct(), Distinct()
        for i in range(3000):
            (a if i % 2 else b).add(str(i % 2000))
            both.add(str(i % 2000))
        a.merge(b)
        assert a.count() == both.count()


_UNIQUE_PATHS = textwrap.dedent(
    """
    import json, logging, resource, sys, tempfile
    from pathlib import Path
    from hintline.scan import scan, write_html, write_jsonl

    log, state, n = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    logger = logging.getLogger("loader")
    handler = logging.FileHandler(log)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s [%(name)s] %(message)s"))
    logger.addHandler(handler)
    logger.propagate = False

    def load(i):
        return open(f"/nonexistent/in/{i:08d}/{i * 7919:x}.json").read()

    for i in range(n):
        try:
            load(i)
        except OSError:
            logger.exception("cannot load input %d", i)
    handler.close()
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = scan([log], jobs=1, state_dir=state, keep_state=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    rows = result.tally.rows()
    write_jsonl(result.tally, log.with_suffix(".jsonl"))
    write_html(result.tally, log.with_suffix(".html"))
    state_bytes = sum(p.stat().st_size for p in state.rglob("*") if p.is_file())
    print(json.dumps({
        "entries": result.tally.entries, "groups": len(rows), "distinct": rows[0].key_distinct.count(),
        "jsonl": log.with_suffix(".jsonl").stat().st_size, "html": log.with_suffix(".html").stat().st_size,
        "state": state_bytes, "rss_before_kb": base, "rss_peak_kb": peak,
    }))
    """
)


@pytest.mark.slow
@pytest.mark.timeout(1800)  # 100,000 distinct tracebacks: each is parsed and cleaned (about 1-2 min idle)
def test_unique_paths_grow_nothing(tmp_path: Path) -> None:
    """100,000 FileNotFoundErrors with unique paths: one group; report, checkpoint and memory
    stay small (before: 100,000 groups, 98 MB JSONL, 88 MB HTML, 103 MB checkpoints, 521 MB)."""
    script = tmp_path / "unique.py"
    script.write_text(_UNIQUE_PATHS)
    out = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "u.log"), str(tmp_path / "state"), "100000"],
        capture_output=True, text=True, timeout=1700, check=True,
    )
    m = json.loads(out.stdout.strip().splitlines()[-1])
    assert m["entries"] == 100_000
    assert m["groups"] == 1
    assert abs(m["distinct"] - 100_000) / 100_000 < 0.1
    assert m["jsonl"] < 10_000
    assert m["html"] < 40_000
    assert m["state"] < 20_000
    assert m["rss_peak_kb"] - m["rss_before_kb"] < 60_000, m  # the scan adds less than 60 MB
