"""Run the capture tests under every matching engine available here."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hintline.cleaner import match as _engine


@pytest.fixture(params=_engine.available_engines())
def engine(request: pytest.FixtureRequest) -> Iterator[str]:
    """Force one engine for ``hintline.clean`` for the duration of a test."""
    name: str = request.param
    _engine.set_engine(name)
    try:
        yield name
    finally:
        _engine.set_engine(None)
