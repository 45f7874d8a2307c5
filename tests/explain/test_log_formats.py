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
# Where the generator ran the programs: the absolute paths in the logs' traces start with it.
RAN_IN = json.loads((FIXTURES / "VERSIONS.json").read_text())["ran_in"]
LOGS = sorted(
    p for p in FIXTURES.glob("*/*")
    if p.suffix in (".log", ".json") and not p.name.endswith(".expected.json") and p.name != "VERSIONS.json"
)


def test_every_format_is_covered():
    """The fixtures hold a log of each format the readers detect."""
    formats = {logs.detect_format(p) for p in LOGS}
    assert {"python", "jsonl", "logback", "log4j", "journald", "monolog", "typo3"} <= formats


def _relocated(log: Path, where: Path) -> tuple[Path, Path]:
    """A copy of ``log`` whose programs ran in a folder under ``where``: (the copy, that folder).

    The generator's folder exists only where the fixtures were generated, and a test may
    depend on nothing outside the clone: the paths in the traces move into ``where``.
    """
    project = where / "shop"
    project.mkdir(parents=True)
    copy = where / "logs" / log.name
    copy.parent.mkdir()
    copy.write_text(log.read_text(encoding="utf-8").replace(RAN_IN, str(project)), encoding="utf-8")
    return copy, project


def _explain(copy: Path, root: Path, where: Path) -> tuple[int, list[str]]:
    """``hintline explain`` on ``copy`` against a stub citing frame 0: (exit code, bodies)."""
    with openai_stub() as stub:
        stub.content = '{"cause": "c", "next_step": "n", "frame": 0}'
        config = where / "hintline.toml"
        config.write_text(
            f'[explain.configurations.local]\nbase_url = "{stub.base_url}"\n'
            '[usage]\npath = "usage.sqlite3"\n'
        )
        code = main(["explain", str(copy), "--config", str(config), "--project-root", str(root)])
    return code, list(stub.bodies)


@pytest.mark.parametrize("log", ["journald/journal.json", "plain/php-error.log"])
def test_a_frame_in_the_project_is_anchored(log, tmp_path, capsys, monkeypatch):
    """The relocation keeps what anchoring sees: the program's own frame (these two logs'
    newest entries carry a trace) is the project's code, and under another root it is not."""
    monkeypatch.delenv("HINTLINE_CONFIG", raising=False)
    copy, project = _relocated(FIXTURES / log, tmp_path)
    assert _explain(copy, project, tmp_path)[0] == 0
    assert "Hint (anchored in the project's code): " in capsys.readouterr().out
    (tmp_path / "elsewhere").mkdir()
    assert _explain(copy, tmp_path / "elsewhere", tmp_path)[0] == 0
    assert "Guess (not anchored in the project's code): " in capsys.readouterr().out


@pytest.mark.parametrize("log", LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_explain_each_format(log, tmp_path, capsys, monkeypatch):
    """The newest error is printed and sent; the request is scrubbed; the hint is labelled."""
    monkeypatch.delenv("HINTLINE_CONFIG", raising=False)
    copy, project = _relocated(log, tmp_path)
    entry = logs.read([str(copy)], limit=1)[0]
    code, bodies = _explain(copy, project, tmp_path)
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith(f"Entry 0 · key {entry.key} · ")
    assert ("Hint (anchored in the project's code): " in out) != (
        "Guess (not anchored in the project's code): " in out
    )
    (body,) = bodies
    user = json.loads(body)["messages"][1]["content"]
    assert scrub(user) == user
    if entry.exception_type:
        assert entry.exception_type.split(".")[-1] in user
    frames = entry.trace.root_cause.frames if entry.trace.root_cause else ()
    if frames:
        assert "\n#0 " in user
