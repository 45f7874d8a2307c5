"""`hintline explain` on the real logs of every format (the logs fixtures, from real programs).

The answer is controlled (a loopback OpenAI-protocol stub citing frame 0); what is checked is
that each format's newest error is selected, printed, sent scrubbed and labelled.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hintline import logs
from hintline.cli import main
from hintline.scrub import scrub

from ._stub import openai_stub

FIXTURES = Path(__file__).resolve().parents[1] / "logs" / "fixtures"
RAN_IN = json.loads((FIXTURES / "VERSIONS.json").read_text())["ran_in"]
LOGS = sorted(
    p for p in FIXTURES.glob("*/*")
    if p.suffix in (".log", ".json") and not p.name.endswith(".expected.json") and p.name != "VERSIONS.json"
)


def test_every_format_is_covered():
    """The fixtures hold a log of each format the readers detect."""
    formats = {logs.detect_format(p) for p in LOGS}
    assert {"python", "jsonl", "logback", "log4j", "journald", "monolog", "typo3"} <= formats


@pytest.mark.parametrize("log", LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_explain_each_format(log, tmp_path, capsys, monkeypatch):
    """The newest error is printed and sent; the request is scrubbed; the hint is labelled."""
    monkeypatch.delenv("HINTLINE_CONFIG", raising=False)
    entry = logs.read([str(log)], limit=1)[0]
    with openai_stub() as stub:
        stub.content = '{"cause": "c", "next_step": "n", "frame": 0}'
        config = tmp_path / "hintline.toml"
        config.write_text(
            f'[explain.configurations.local]\nbase_url = "{stub.base_url}"\n'
            '[usage]\npath = "usage.sqlite3"\n'
        )
        code = main(["explain", str(log), "--config", str(config), "--project-root", RAN_IN])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith(f"Entry 0 · key {entry.key} · ")
    assert ("Hint (anchored in the project's code): " in out) != (
        "Guess (not anchored in the project's code): " in out
    )
    (body,) = stub.bodies
    user = json.loads(body)["messages"][1]["content"]
    assert scrub(user) == user
    if entry.exception_type:
        assert entry.exception_type.split(".")[-1] in user
    frames = entry.trace.root_cause.frames if entry.trace.root_cause else ()
    if frames:
        assert "\n#0 " in user
