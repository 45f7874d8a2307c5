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
TOUR = "policy_tour.py"  # make demo's agent run: its own test below


def test_every_example_is_listed() -> None:
    """No example goes untested."""
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted([*NEEDS, TOUR])


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


def test_policy_tour(capsys: pytest.CaptureFixture[str]) -> None:
    """The demo's run: the transient fault is retried unseen, the recoverable one answered with a
    hint the model follows, the refusal says it cannot be bypassed, and the third failure in a
    row stops the run with the summary of what was tried."""
    pytest.importorskip("pydantic_ai")
    with pytest.raises(SystemExit) as done:
        runpy.run_path(str(EXAMPLES / TOUR), run_name="__main__")
    assert done.value.code == 0
    out = capsys.readouterr().out
    seen = [line.strip() for line in out.splitlines() if "model sees:" in line]
    assert seen[0] == "model sees: EUR/USD 1.08"  # after the unseen retry
    assert "refused" not in seen[0].lower()
    assert seen[1].startswith("model sees: Hint: File or directory")
    assert "Perhaps you meant" in out
    assert seen[2] == "model sees: buy milk"  # it followed the suggestion
    assert "intentional and cannot be bypassed" in seen[3]
    assert "run stopped: Stopped after 3 consecutive tool failures" in out
    assert '1. delete_file({"path":"notes/todo.txt"})' in out
    assert out.count("(attempt 1: connection refused") == 1  # retried once, then it worked
