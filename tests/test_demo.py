"""`make demo`, the README's first command, runs to the end from a clone: every step of
scripts/demo.sh exits 0 (a scan that skips an input exits 3 and would stop it)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("git") is None, reason="needs git to clone the checkout")
def test_demo_runs_to_the_end(tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    for path in ("scripts", "examples", "src", "tests/logs/fixtures", "pyproject.toml"):
        # the working tree as it is now (a test run may come before its commit)
        src, dst = ROOT / path, clone / path
        if src.is_dir():
            skip = shutil.ignore_patterns("__pycache__")
            shutil.copytree(src, dst, dirs_exist_ok=True, ignore=skip)
        else:
            shutil.copy2(src, dst)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PYTHON=sys.executable, HOME=str(tmp_path / "home"), TMPDIR=str(tmp_path))
    (tmp_path / "home").mkdir()
    done = subprocess.run(
        ["bash", "scripts/demo.sh"],
        check=False,
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    for step in ("== hintline clean", "== an agent run", "== hintline logs", "== hintline scan"):
        assert step in done.stdout
    assert "error entries in" in done.stdout
    assert "skipped" not in done.stderr
