"""The package's public surface."""

from __future__ import annotations

import subprocess
import sys

import hintline


def test_all_names_resolve() -> None:
    """Every name in ``__all__`` resolves."""
    for name in hintline.__all__:
        if name in {"AgentGuard", "explain"}:
            continue  # lazy; covered by their own tests
        assert getattr(hintline, name) is not None


def test_version_prints_engine() -> None:
    """``hintline --version`` names the active engine."""
    out = subprocess.run(
        [sys.executable, "-m", "hintline", "--version"], capture_output=True, text=True, check=True
    ).stdout
    assert out.startswith("hintline ")
    assert "engine:" in out
