"""Shared test configuration. Every module in tests/services/ is loaded as a plugin: each
starts one real service (PostgreSQL, llama-server, Chromium, Redis, Spark) for the session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hintline.cleaner import match as _engine

pytest_plugins = sorted(
    f"tests.services.{p.stem}"
    for p in (Path(__file__).parent / "services").glob("*.py")
    if not p.stem.startswith("_")
)


@pytest.fixture(params=_engine.available_engines())
def engine(request: pytest.FixtureRequest) -> Iterator[str]:
    """Force one matching engine for ``hintline.clean`` for the duration of a test (every engine
    available here, one after the other)."""
    name: str = request.param
    _engine.set_engine(name)
    try:
        yield name
    finally:
        _engine.set_engine(None)
