"""Every example in examples/agents/ runs offline and recovers from its failing tool."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "agents"
NEEDS = {
    "anthropic_files.py": "anthropic",
    "langchain_files.py": "langchain",
    "langgraph_files.py": "langgraph",
    "mcp_files.py": "mcp",
    "openai_agents_files.py": "agents",
    "pydantic_ai_files.py": "pydantic_ai",
}


def test_every_example_is_listed() -> None:
    """No example goes untested."""
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(NEEDS)


@pytest.mark.parametrize("name", sorted(NEEDS))
def test_example_runs(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The example's model sees the hint with a suggestion, follows it, and succeeds."""
    pytest.importorskip(NEEDS[name])
    runpy.run_path(str(EXAMPLES / name), run_name="__main__")
    out = capsys.readouterr().out
    assert "Hint: " in out
    assert "Perhaps you meant" in out
    assert "'buy milk'" in out
    assert "'errors': 1, 'successes': 1" in out
