"""Grouping quality: hintline's fingerprint against Drain3 and the previous recipe.

    PYTHONPATH=$PWD/src:$PWD .venv/bin/python -m benchmarks.grouping [--records 20000] [--loghub DIR]

1. A log written by the real ``logging`` module with 13 known kinds of failure, each with
   variable parts (:func:`hintline.scan._sample.write_kinds_log`; the generator records the kind
   of every error record). For each grouping: groups, purity (share of entries in their group's
   majority kind) and kinds split over several groups.
2. With ``--loghub DIR``: the number of groups each method makes of the error entries of every
   ``*_2k.log`` there (no ground truth; read only, nothing is copied).
3. 100,000 FileNotFoundErrors with unique paths (``--unique N``): groups, report and checkpoint
   bytes, peak memory of the scan.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import re
import resource
import sys
import tempfile
import time
from pathlib import Path

from hintline import logs
from hintline.fingerprint import top_frame
from hintline.logs import Entry, entry_fingerprint, hint_for


def _v1(entry: Entry) -> str:
    """The recipe before this change (version 1): rule, key verbatim, top in-app frame."""
    hint = hint_for(entry)
    if hint.rule:
        rule = hint.rule
    else:
        root = entry.trace.root_cause
        masked = re.sub(r"'[^'\n]*'|\"[^\"\n]*\"|\b0x[0-9a-fA-F]+\b|\b[0-9a-fA-F]{8,}\b|\d+(?:\.\d+)*", "<*>", hint.text)
        rule = "-" + (root.type if root else "") + "|" + masked
    frame = top_frame(entry.trace)
    where = "-" if frame is None else f"{frame.module or frame.file}:{frame.function}"
    return hashlib.sha256("\n".join(("1", rule, hint.key or "-", where)).encode()).hexdigest()[:16]


def _drain(entries: list[Entry]) -> list[int]:
    from drain3 import TemplateMiner

    miner = TemplateMiner()
    return [miner.add_log_message(e.message.split("\n", 1)[0])["cluster_id"] for e in entries]


def _scores(labels: list[str], clusters: list[object]) -> tuple[int, float, int]:
    members: dict[object, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    spread: dict[str, set[object]] = collections.defaultdict(set)
    for kind, cluster in zip(labels, clusters, strict=True):
        members[cluster][kind] += 1
        spread[kind].add(cluster)
    purity = sum(c.most_common(1)[0][1] for c in members.values()) / max(1, len(labels))
    return len(members), purity, sum(1 for s in spread.values() if len(s) > 1)


def known_kinds(records: int) -> None:
    from hintline.scan._sample import KINDS, write_kinds_log

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "app.log"
        labels = write_kinds_log(path, records=records, seed=11)
        entries = list(logs.iter_entries(path))
        print(f"\n{len(entries)} error entries of {len(KINDS)} known kinds ({path.stat().st_size / 1e6:.1f} MB)\n")
        print("| grouping | groups | purity | kinds split |")
        print("|---|---|---|---|")
        for name, clusters in (
            ("hintline (recipe 2: exception + in-app frames, else logger + template)", [entry_fingerprint(e) for e in entries]),
            ("Drain3 0.9 (default config) on the message line", _drain(entries)),
            ("hintline before (recipe 1: rule + key + top frame)", [_v1(e) for e in entries]),
        ):
            groups, purity, split = _scores(labels, clusters)
            print(f"| {name} | {groups} | {purity:.3f} | {split} |")


def loghub(directory: Path) -> None:
    print("\n| log (loghub 2k sample) | format read as | error entries | hintline groups | Drain3 groups |")
    print("|---|---|---|---|---|")
    for path in sorted(directory.glob("*_2k.log")):
        entries = list(logs.iter_entries(path))
        ours = len({entry_fingerprint(e) for e in entries})
        drain = len(set(_drain(entries))) if entries else 0
        print(f"| {path.name} | {logs.detect_format(path)} | {len(entries)} | {ours} | {drain} |")


_UNIQUE = """
import logging
from pathlib import Path
import sys
log, n = Path(sys.argv[1]), int(sys.argv[2])
logger = logging.getLogger("loader")
h = logging.FileHandler(log)
h.setFormatter(logging.Formatter("%(asctime)s %(levelname)s [%(name)s] %(message)s"))
logger.addHandler(h)
logger.propagate = False
def load(i):
    return open(f"/nonexistent/in/{i:08d}/{i * 7919:x}.json").read()
for i in range(n):
    try:
        load(i)
    except OSError:
        logger.exception("cannot load input %d", i)
h.close()
"""


def unique(n: int) -> None:
    import subprocess

    from hintline.scan import scan, write_html, write_jsonl

    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "u.log"
        subprocess.run([sys.executable, "-c", _UNIQUE, str(log), str(n)], check=True)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        t0 = time.perf_counter()
        result = scan([log], jobs=1, state_dir=Path(tmp) / "state", keep_state=True)
        wall = time.perf_counter() - t0
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        write_jsonl(result.tally, Path(tmp) / "g.jsonl")
        write_html(result.tally, Path(tmp) / "r.html")
        state = sum(p.stat().st_size for p in (Path(tmp) / "state").rglob("*") if p.is_file())
        row = result.tally.rows()[0]
        print(json.dumps({
            "entries": result.tally.entries, "log_mb": round(log.stat().st_size / 1e6, 1),
            "groups": len(result.tally.groups), "distinct_keys": row.key_distinct.count(),
            "key_template": row.key_template, "jsonl_bytes": (Path(tmp) / "g.jsonl").stat().st_size,
            "html_bytes": (Path(tmp) / "r.html").stat().st_size, "state_bytes": state,
            "scan_rss_growth_mb": round((peak - before) / 1024, 1), "peak_rss_mb": round(peak / 1024, 1),
            "scan_wall_s": round(wall, 1),
        }, indent=1))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=20000)
    parser.add_argument("--loghub", type=Path)
    parser.add_argument("--unique", type=int, default=0)
    args = parser.parse_args(argv)
    known_kinds(args.records)
    if args.loghub:
        loghub(args.loghub)
    if args.unique:
        unique(args.unique)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
