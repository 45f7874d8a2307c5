"""Run the agent-policy scenarios through each framework with hintline and alone, and write the
side-by-side table into the README (between its agent-scenarios markers).

    .venv/bin/python scripts/agent_scenarios_table.py          # regenerate
    .venv/bin/python scripts/agent_scenarios_table.py --check  # exit 1 if the README is stale

Each cell says what the model saw at the first failure (``hint``; ``masked`` for a fixed text
that hides the cause; ``raw`` for the exception's own text, ``repr`` or validation JSON), whether
the run stopped and how (``stop: <decision>``, or ``crash: <exception>`` when an exception ended
the run), how often the failing tool ran and the waits on the injected clock.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

START = "<!-- agent-scenarios:start -->"
END = "<!-- agent-scenarios:end -->"
GUARD_STOPS = {"TooManyConsecutiveErrors", "RetryBudgetExhausted", "LoopDetected", "stop-result"}
FRAMEWORK_TITLES = {
    "langgraph": "LangGraph",
    "langchain": "LangChain",
    "pydantic_ai": "PydanticAI",
    "openai_agents": "OpenAI Agents",
    "anthropic": "Anthropic runner",
    "mcp": "MCP",
}


def cell(obs: object) -> str:
    """A short description of one run."""
    from tests.integrations.scenarios.harness import SECRET, Observation

    assert isinstance(obs, Observation)
    parts: list[str] = []
    failures = [
        r for r in obs.results()
        if (r.is_error or r.text.startswith(("Error", "Hint:", "An error occurred")) or "error" in r.text[:80].lower())
        and "Stop calling tools" not in r.text  # an MCP stop result is the stop, below
    ]
    if failures:
        text = failures[0].text
        if "Hint: " in text:
            parts.append("hint")
        elif "An error occurred while running the tool" in text or text.startswith("Error executing tool"):
            parts.append("masked")
        else:
            parts.append("raw")
    if any("You appear to be stuck in a loop" in r.text for r in obs.results()):
        parts.append("loop notice")
    if obs.stop in GUARD_STOPS:
        parts.append("stop: " + ("result" if obs.stop == "stop-result" else obs.stop))
    elif obs.stop:
        parts.append(f"crash: {obs.stop}")
    most = max(obs.runs.values(), default=0)
    crashed = bool(obs.stop) and obs.stop not in GUARD_STOPS
    if most > 1 and not crashed:  # parallel calls racing a crash ran a varying number of times
        parts.append(f"ran {most}×")
    if obs.sleeps:
        parts.append("waits " + ", ".join(f"{s:g} s" for s in obs.sleeps))
    if any(SECRET in r.text for r in obs.results()):
        parts.append("**secret shown to the model**")
    return ", ".join(parts) or "ok"


def render() -> str:
    """The markdown table."""
    from tests.integrations.scenarios.drivers import DRIVERS
    from tests.integrations.scenarios.harness import SCENARIOS
    from tests.integrations.scenarios.test_scenarios import play

    head = "| scenario | " + " | ".join(FRAMEWORK_TITLES[f] for f in DRIVERS) + " |"
    rows = [head, "|---" * (len(DRIVERS) + 1) + "|"]
    for scenario in SCENARIOS:
        cells = []
        for framework in DRIVERS:
            with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
                hinted = cell(play(framework, scenario, Path(a), hinted=True))
                alone = cell(play(framework, scenario, Path(b), hinted=False))
            cells.append(f"{hinted}<br>*alone:* {alone}")
        rows.append(f"| {scenario.title} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def splice(readme: str, table: str) -> str:
    start, end = readme.index(START) + len(START), readme.index(END)
    return readme[:start] + "\n" + table + "\n" + readme[end:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the README table is stale")
    args = parser.parse_args(argv)
    readme_path = ROOT / "README.md"
    readme = readme_path.read_text()
    if START not in readme or END not in readme:
        print(f"README.md has no {START} … {END} markers", file=sys.stderr)
        return 1
    updated = splice(readme, render())
    if args.check:
        if updated != readme:
            print("README.md agent scenarios table is stale: run scripts/agent_scenarios_table.py", file=sys.stderr)
            return 1
        return 0
    readme_path.write_text(updated)
    return 0


if __name__ == "__main__":
    sys.exit(main())
