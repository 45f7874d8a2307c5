"""An integration used without its framework says which extra to install."""

from __future__ import annotations

import importlib
import sys

import pytest

from hintline.exceptions import MissingExtraError

CASES = [
    ("langgraph", "langgraph", "langgraph"),
    ("langchain", "langchain", "langchain"),
    ("pydantic_ai", "pydantic_ai", "pydantic-ai"),
    ("mcp", "mcp", "mcp"),
    ("openai_agents", "agents", "openai-agents"),
    ("anthropic", "anthropic", "anthropic"),
]


@pytest.mark.parametrize(("module", "dependency", "extra"), CASES)
def test_missing_dependency_names_the_extra(
    module: str, dependency: str, extra: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Importing hintline.integrations.<x> without its dependency raises MissingExtraError."""
    for name in list(sys.modules):
        if name == dependency or name.startswith(dependency + "."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, dependency, None)  # makes `import dependency` fail
    monkeypatch.delitem(sys.modules, f"hintline.integrations.{module}", raising=False)
    with pytest.raises(MissingExtraError, match=rf"pip install 'hintline\[{extra}\]'"):
        importlib.import_module(f"hintline.integrations.{module}")
    monkeypatch.delitem(sys.modules, f"hintline.integrations.{module}", raising=False)


def test_core_does_not_import_integrations() -> None:
    """Importing hintline and its guard loads no framework."""
    import subprocess

    code = (
        "import sys, hintline; hintline.AgentGuard; import hintline.agent.compaction; "
        "bad = [m for m in ('langgraph', 'langchain', 'pydantic_ai', 'mcp', 'agents', 'anthropic') "
        "if m in sys.modules]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
