"""The scrubber's Hyperscan database is cached on disk, like the rule engine's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("hyperscan")

_SNIPPET = (
    "from hintline.scrub import scrub; "
    "print(scrub('connect to postgresql://app:S3cret@db:5432/shop failed'))"
)


def test_second_process_loads_the_cached_database(tmp_path: Path) -> None:
    """The first process writes the cache file; a second one loads it and scrubs the same."""
    env = {"HINTLINE_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join(sys.path)}
    first = subprocess.run([sys.executable, "-c", _SNIPPET], env=env, capture_output=True, text=True, check=True)
    files = sorted(tmp_path.glob("scrub-*.hsdb"))
    # the triggers reported once each; the unbounded ones alone; every trigger, every match
    assert len(files) == 3
    stamps = [path.stat().st_mtime_ns for path in files]
    second = subprocess.run([sys.executable, "-c", _SNIPPET], env=env, capture_output=True, text=True, check=True)
    assert first.stdout == second.stdout == "connect to postgresql://app:***@db:5432/shop failed\n"
    assert [path.stat().st_mtime_ns for path in files] == stamps  # loaded, not rewritten


def test_damaged_cache_file_is_recompiled(tmp_path: Path) -> None:
    """A corrupt cache file is ignored and replaced."""
    env = {"HINTLINE_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join(sys.path)}
    subprocess.run([sys.executable, "-c", _SNIPPET], env=env, check=True, capture_output=True)
    path = next(tmp_path.glob("scrub-*.hsdb"))
    path.write_bytes(path.read_bytes()[:-10] + b"garbage!!!")
    out = subprocess.run([sys.executable, "-c", _SNIPPET], env=env, capture_output=True, text=True, check=True)
    assert out.stdout == "connect to postgresql://app:***@db:5432/shop failed\n"
    assert path.read_bytes().endswith(b"garbage!!!") is False
