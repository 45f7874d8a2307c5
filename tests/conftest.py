"""Shared test configuration. Every module in tests/services/ is loaded as a plugin: each
starts one real service (PostgreSQL, llama-server, Chromium, Redis, Spark) for the session."""

from __future__ import annotations

from pathlib import Path

pytest_plugins = sorted(
    f"tests.services.{p.stem}"
    for p in (Path(__file__).parent / "services").glob("*.py")
    if not p.stem.startswith("_")
)
