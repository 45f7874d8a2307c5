"""The README's side-by-side scenario table is what the scenarios produce today."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.slow
def test_readme_table_is_current() -> None:
    spec = importlib.util.spec_from_file_location("agent_scenarios_table", ROOT / "scripts" / "agent_scenarios_table.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    readme = (ROOT / "README.md").read_text()
    assert module.splice(readme, module.render()) == readme, (
        "README agent scenarios table is stale: run scripts/agent_scenarios_table.py"
    )
