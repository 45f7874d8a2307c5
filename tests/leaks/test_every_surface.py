"""Issue 14 §2: no piece of a secret leaves hintline, whatever cut a surface makes.

77 secrets of every shape the scrubber knows (see :mod:`tests.leaks.plant`) are planted across
each cut point of each surface: the hint's text and key, ``hintline clean``, ``logs`` (text,
``--raw``, ``--json``, ``--group``), ``trace``, ``scan`` (printed, JSON lines, HTML), the
``explain`` payload, the agent guard's failures and summaries, the logging formatter and the
structlog processor, and the web page's listing. Any 6-character piece of a value in their
output is a leak.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from hintline.scrub import SECRETS
from tests.leaks.plant import collect, secrets

Result = dict[str, tuple[int, list[tuple[str, str, str]]]]

SURFACES = [
    "clean", "cli clean", "logs", "logs --raw", "logs --json", "logs --group", "explain payload",
    "trace", "scan", "guard", "logging formatter",
]
if all(importlib.util.find_spec(m) for m in ("starlette", "jinja2", "uvicorn", "httpx")):
    SURFACES += ["web pages", "web model request"]
if importlib.util.find_spec("mcp"):
    SURFACES += ["mcp", "mcp guard"]
if importlib.util.find_spec("structlog"):
    SURFACES.append("structlog")


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory) -> Result:
    return collect(Path(tmp_path_factory.mktemp("leaks")))


def test_every_shape_is_planted() -> None:
    planted = secrets()
    assert len(planted) >= 50
    assert {p.name for p in SECRETS} <= {p.shape for p in planted}


@pytest.mark.parametrize("surface", SURFACES)
def test_no_secret_leaves(result: Result, surface: str) -> None:
    checked, leaks = result[surface]
    assert checked > 0
    assert leaks == [], f"{len(leaks)} leaks: {leaks[:5]}"
