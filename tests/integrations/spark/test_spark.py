"""The Spark integration on a real Spark in local mode: same hints, same groups as hintline scan."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
import traceback
from pathlib import Path

import pytest

import hintline
from hintline.fingerprint import fingerprint
from hintline.scan import scan
from hintline.scan._sample import write_sample_log

pytestmark = [pytest.mark.live, pytest.mark.slow]

SECRET = "Spk-secret-4411"


@pytest.fixture(scope="module")
def log_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A log directory with a rotated and a gzipped file, written by the real logging module."""
    d = tmp_path_factory.mktemp("spark-logs")
    write_sample_log(d / "app.log.2", records=800, error_share=0.05, seed=11, secret=SECRET)
    with (d / "app.log.2").open("rb") as src, gzip.open(d / "app.log.2.gz", "wb") as dst:
        shutil.copyfileobj(src, dst)
    (d / "app.log.2").unlink()
    write_sample_log(d / "app.log.1", records=800, error_share=0.05, seed=12)
    write_sample_log(d / "app.log", records=1200, error_share=0.05, seed=13, secret=SECRET)
    return d


def _real_errors() -> list[str]:
    texts = []
    for fail in (lambda: {}["customer_id"], lambda: 1 / 0, lambda: Path("/nope/x.toml").read_text(),
                 lambda: int("twelve"), lambda: json.loads("{bad")):
        try:
            fail()
        except Exception:
            texts.append(traceback.format_exc())
    return texts


def test_add_hints_matches_clean(spark) -> None:
    """Each row gets exactly the hint, category, rule, key and fingerprint hintline gives locally."""
    from hintline.integrations.spark import add_hints

    texts = _real_errors()
    df = spark.createDataFrame([(i, t) for i, t in enumerate(texts)], "id INT, value STRING")
    rows = sorted(add_hints(df).collect(), key=lambda r: r["id"])
    assert len(rows) == len(texts)
    for row, text in zip(rows, texts, strict=True):
        hint = hintline.clean(text)
        assert row["hint_text"] == hint.text
        assert row["hint_category"] == str(hint.category)
        assert row["hint_rule"] == hint.rule
        assert row["hint_key"] == hint.key
        assert row["fingerprint"] == fingerprint(hint, hintline.parse_trace(text), message=text)


def test_add_hints_needs_the_column(spark) -> None:
    """A missing column is a clear error, before any job runs."""
    from hintline.integrations.spark import add_hints

    with pytest.raises(ValueError, match="no column 'text'"):
        add_hints(spark.createDataFrame([("x",)], "value STRING"), column="text")


def test_scan_files_equals_hintline_scan(spark, log_dir: Path) -> None:
    """The distributed scan gives the same groups as `hintline scan` on the same input."""
    from hintline.integrations.spark import scan_files

    local = {(r.fingerprint, r.count, r.first_seen, r.last_seen, r.hint)
             for r in scan([log_dir], jobs=1).tally.rows()}
    rows = scan_files(spark, str(log_dir)).collect()
    assert {(r["fingerprint"], r["count"], r["first_seen"], r["last_seen"], r["hint"]) for r in rows} == local
    assert all(SECRET not in (r["example"] or "") for r in rows)


def test_big_files_are_split_into_ranges(spark, log_dir: Path) -> None:
    """Files cut into byte ranges on record boundaries (many tasks per file): the same groups."""
    from hintline.integrations.spark import scan_files
    from hintline.scan import plan_chunks

    ranges = plan_chunks([str(p) for p in sorted(log_dir.iterdir())], fmt=None, chunk_bytes=16 << 10, rotated=False)
    assert len(ranges) > 2 * len(list(log_dir.iterdir()))  # the plain files are split, the .gz is not
    assert sum(1 for c in ranges if c.path.endswith(".gz")) == 1
    rows = scan_files(spark, str(log_dir), chunk_bytes=16 << 10).collect()
    local = scan([log_dir], jobs=1)
    assert {(r["fingerprint"], r["count"], r["first_seen"], r["last_seen"]) for r in rows} == {
        (g.fingerprint, g.count, g.first_seen, g.last_seen) for g in local.tally.rows()
    }
    assert {r["distinct_keys"] for r in rows} == {g.key_distinct.count() for g in local.tally.rows()}


def test_spark_submit_job(log_dir: Path, tmp_path: Path) -> None:
    """The job runs under spark-submit and writes the same groups as JSON lines."""
    import pyspark

    import hintline.jobs.spark_scan as job

    submit = Path(pyspark.__file__).parent / "bin" / "spark-submit"
    out = tmp_path / "groups"
    env = {
        "PATH": "/usr/bin:/bin", "PYSPARK_PYTHON": sys.executable, "SPARK_LOCAL_IP": "127.0.0.1",
        "PYTHONPATH": ":".join(sys.path), "HOME": str(tmp_path),
    }
    r = subprocess.run(
        [str(submit), "--master", "local[2]", "--conf", "spark.ui.enabled=false",
         "--conf", "spark.driver.host=127.0.0.1", job.__file__,
         "--input", str(log_dir), "--output", str(out)],
        capture_output=True, text=True, timeout=600, check=False, env=env,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    written = [json.loads(line) for part in sorted(out.glob("part-*.json")) for line in part.read_text().splitlines()]
    local = scan([log_dir], jobs=2)
    assert {(g["fingerprint"], g["count"]) for g in written} == {
        (g.fingerprint, g.count) for g in local.tally.rows()
    }
    assert f"{local.tally.entries} error entries in {len(local.tally.groups)} groups" in r.stdout
    assert SECRET not in r.stdout
