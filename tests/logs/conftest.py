"""Helpers for the log-reader tests: logs written by the real ``logging`` module."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

LogWriter = Callable[..., logging.Logger]


@pytest.fixture
def python_log(tmp_path: Path) -> Iterator[tuple[Path, logging.Logger]]:
    """A real ``logging`` logger writing ``%(asctime)s %(levelname)s %(name)s: %(message)s`` to a file."""
    path = tmp_path / "app.log"
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger = logging.getLogger(f"shop.test.{tmp_path.name}")
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    logger.addHandler(handler)
    try:
        yield path, logger
    finally:
        logger.removeHandler(handler)
        handler.close()
