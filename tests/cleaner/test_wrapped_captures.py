"""Real wrapped errors (scripts/fixtures/gen_wrapped_errors.py) through clean().

Each ``fixtures/<case>.txt`` is what a real program wrote: JSON logs of python-json-logger,
structlog and pino, the JSON-RPC answers of a real MCP server whose tool failed, nginx's and
Apache's error pages, pytest's reports, a 200 KB log with one traceback in its middle.
``<case>.meta.json`` records the command and versions; ``<case>.expected.json`` was written by
hand after reading the capture (a ``null`` hint is not pinned).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._expected import assert_expected_hint

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures"
CASES = sorted(FIXTURES.glob("*.txt"))


def _id(path: Path) -> str:
    return path.stem


def test_every_wrapping_is_captured() -> None:
    """The generator's captures cover every wrapping the issue names."""
    names = {path.stem for path in CASES}
    for prefix in ("python_json_logger", "structlog", "pino", "mcp_", "nginx", "apache",
                   "pytest", "long_log"):  # fmt: skip
        assert any(name.startswith(prefix) for name in names), prefix


@pytest.mark.parametrize("path", CASES, ids=_id)
def test_capture_gives_expected_hint(engine: str, path: Path) -> None:
    """The whole capture cleans to the hand-written rule, category, key (and fallback hint)."""
    assert_expected_hint(path)


@pytest.mark.parametrize("path", CASES, ids=_id)
def test_capture_has_provenance(path: Path) -> None:
    """Every capture records its generator, command and tool versions."""
    meta = json.loads(path.with_suffix(".meta.json").read_text(encoding="utf-8"))
    assert meta["generator"] == "scripts/fixtures/gen_wrapped_errors.py"
    assert (ROOT / meta["generator"]).is_file()
    assert meta["command"].strip()
    assert meta["versions"]
    assert all(v.strip() for v in meta["versions"].values())
    assert path.read_text(encoding="utf-8").strip()


def test_long_log_is_long_with_its_error_in_the_middle() -> None:
    """The long capture is over 200 KB and its traceback lies outside the old head and tail."""
    text = (FIXTURES / "long_log_key_error.txt").read_text(encoding="utf-8")
    at = text.index("Traceback (most recent call last)")
    assert len(text) > 200_000
    assert 16 * 1024 < at < len(text) - 48 * 1024
