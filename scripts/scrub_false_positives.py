#!/usr/bin/env python3
"""How much does scrub() change in ordinary error text that holds no secret?

Corpus (every line is an ordinary error/log line):

* the repository's fixtures (``tests/**/fixtures/**``), except ``tests/scrub/fixtures`` (which
  hold secrets on purpose) and lines a fixture declares as secret-bearing;
* logs GENERATED here by running real programs: Python's logging with tracebacks, pip, git,
  PostgreSQL's own server log (when its binaries are present), curl against closed ports;
* optionally ``--extra DIR``: more text files to measure locally (for example
  /work/shared/loghub/ — read in place, never copied into the repository).

Each line is scrubbed on its own; a changed character is one that ``difflib`` does not keep.
A removed run of characters is a *secret* when it lies inside one of the secrets the fixture
generators planted on purpose (``PLANTED``); every other removed character is a false positive.

    PYTHONPATH=$PWD/src:$PWD .venv/bin/python scripts/scrub_false_positives.py [--show N] [--extra DIR]
"""

from __future__ import annotations

import argparse
import difflib
import logging
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from hintline.scrub import scrub_report  # noqa: E402

# Secrets the fixture generators plant in their runs (a DSN, a key, a wrong password), so the
# fixtures prove scrubbing; masking them is a true positive.
PLANTED: tuple[str, ...] = (
    "S3cretPassw0rd",  # scripts/fixtures/gen_logs.py
    "sk-live-0123456789abcdefABCDEF",  # scripts/fixtures/gen_logs.py (structlog api_token)
    "wrong-password",  # scripts/fixtures/gen_db_errors.py
    "Tr0ub4dor-s3cret",  # scripts/fixtures/gen_traces.py
)


def _repo_lines() -> list[tuple[str, str]]:
    out = []
    for path in sorted(ROOT.glob("tests/**/fixtures/**/*")):
        if not path.is_file() or "tests/scrub/fixtures" in str(path) or path.suffix in {".gz", ".bin"}:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        rel = str(path.relative_to(ROOT))
        out.extend((rel, line) for line in text.splitlines() if line.strip())
    return out


def _generated_lines() -> list[tuple[str, str]]:
    tmp = Path(tempfile.mkdtemp(prefix="hintline-fp-"))
    out: list[tuple[str, str]] = []
    try:
        log = tmp / "app.log"
        logger = logging.getLogger("fp.app")
        handler = logging.FileHandler(log)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        logger.addHandler(handler)
        for i in range(300):
            try:
                {"orders": 1}[f"order-{i}"]
            except KeyError:
                logger.exception("lookup failed for order %d (session %s, key %s)", i, i * 7, f"k{i}")
            try:
                int(f"x{i}")
            except ValueError:
                logger.exception("bad token count in request %d", i)
            logger.warning("retrying job %d after 500 ms; max_tokens=%d; tokenizer=bpe", i, 100 + i)
        handler.close()
        out += [("generated:python-logging", ln) for ln in log.read_text().splitlines() if ln.strip()]
        runs = [
            [sys.executable, "-m", "pip", "install", "--no-index", "hintline-no-such-package"],
            [sys.executable, "-c", "import json; json.loads('{\"password\": }')"],
            [sys.executable, "-c", "open('/nonexistent/secret/token.txt')"],
            ["git", "-C", str(tmp), "log"],
            ["git", "-C", str(tmp), "rev-parse", "HEAD"],
            ["curl", "-sS", "--max-time", "2", "http://127.0.0.1:9/v1/items?page=2"],
        ]
        for cmd in runs:
            if shutil.which(cmd[0]) is None and not Path(cmd[0]).exists():
                continue
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
            name = "generated:" + " ".join(Path(cmd[0]).name for _ in [0]) + " " + cmd[1]
            out += [(name, ln) for ln in (proc.stdout + proc.stderr).splitlines() if ln.strip()]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out


def _extra_lines(directory: Path) -> list[tuple[str, str]]:
    out = []
    for path in sorted(directory.rglob("*")):
        if path.is_file() and path.suffix in {".log", ".txt", ""}:
            text = path.read_text(encoding="utf-8", errors="replace")
            out += [(str(path), ln) for ln in text.splitlines() if ln.strip()]
    return out


def _removed(before: str, after: str) -> list[str]:
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return [before[i1:i2] for op, i1, i2, _, _ in matcher.get_opcodes() if op in {"replace", "delete"}]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", type=int, default=20, help="list this many changed lines")
    parser.add_argument("--extra", type=Path, action="append", default=[], help="more text to read")
    args = parser.parse_args(argv)
    lines = _repo_lines() + _generated_lines()
    for directory in args.extra:
        lines += _extra_lines(directory)
    total_chars = sum(len(line) for _, line in lines)
    changed = []
    secret_chars = false_chars = 0
    for source, line in lines:
        result = scrub_report(line)
        if not result.count:
            continue
        false = [r for r in _removed(line, result.text) if not any(r in p for p in PLANTED)]
        secret_chars += sum(len(r) for r in _removed(line, result.text)) - sum(map(len, false))
        false_chars += sum(map(len, false))
        changed.append((source, line, result.text, result.kinds, false))
    print(f"lines: {len(lines)}  characters: {total_chars}")
    print(f"lines changed: {len(changed)}  planted-secret characters masked: {secret_chars}")
    print(f"FALSE POSITIVES: {false_chars} characters changed that were not secrets "
          f"({false_chars / max(total_chars, 1):.5%}) on "
          f"{sum(1 for c in changed if c[4])} lines")  # fmt: skip
    shown = sorted(changed, key=lambda c: -len(c[4]))[: args.show]
    for source, before, after, kinds, false in shown:
        tag = "FALSE POSITIVE " + repr(false) if false else "planted secret"
        print(f"--- {source} [{', '.join(kinds)}] {tag}\n  - {before[:200]}\n  + {after[:200]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
