"""The command line as a shell user meets it: help, errors, stdin, JSON, colour, completion."""

from __future__ import annotations

import argparse
import io
import json
import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hintline.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[1]
PY_LOG = ROOT / "tests" / "logs" / "fixtures" / "python" / "app.log"
ERROR = ROOT / "examples" / "errors" / "python-keyerror.txt"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")])
    return {**env, "TERM": "xterm", **extra}


def _parsers(parser: argparse.ArgumentParser, path: str = "hintline"):  # type: ignore[no-untyped-def]
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from _parsers(child, f"{path} {name}")


def test_every_subcommand_has_a_description() -> None:
    found = list(_parsers(build_parser()))
    assert len(found) > 12
    missing = [path for path, p in found if not (p.description or "").strip()]
    assert missing == []


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["clean", "no-such-file"], "clean"),
        (["scrub", "no-such-file"], "scrub"),
        (["rules", "--category", "nope"], "rules"),
        (["trace", "no-such-file"], "trace"),
        (["logs", "no-such-file"], "logs"),
        (["logs", str(PY_LOG), "--limit", "0"], "logs"),
        (["scan", "no-such-file", "--no-progress"], "scan"),
        (["scan", str(PY_LOG), "-o", "x.csv"], "scan"),
        (["explain", "no-such-file"], "explain"),
        (["usage", "--limit", "0"], "usage"),
    ],
)
def test_errors_are_one_line_with_the_commands_prefix(
    argv: list[str], command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) != 0
    err = capsys.readouterr().err
    assert err.startswith(f"hintline {command}: ")
    assert err.count("\n") == 1


def test_logs_and_scan_read_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = PY_LOG.read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["logs", "-", "--limit", "2", "--json"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(rows) == 2
    assert {r["source"] for r in rows} == {"<stdin>"}
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert main(["scan", "-", "--json", "--no-progress"]) == 0
    groups = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    expected = len(list(__import__("hintline").logs.iter_entries(PY_LOG)))
    assert sum(g["count"] for g in groups) == expected
    assert {g["example_source"] for g in groups} == {"<stdin>"}
    assert not (tmp_path / "cache").exists()  # standard input is not checkpointed


def test_scan_json_is_only_json_and_state_defaults_to_the_cache(tmp_path: Path) -> None:
    """`scan --json`: stdout is JSON lines only; the checkpoints go under the user's cache
    directory, never next to (or above) the current directory."""
    work = tmp_path / "home" / "project"
    work.mkdir(parents=True)
    report = work / "groups.jsonl"
    run = subprocess.run(
        [sys.executable, "-m", "hintline", "scan", str(PY_LOG.parent), "--json", "-o", str(report),
         "--keep-state"],
        capture_output=True, text=True, cwd=work, check=False,
        env=_env(XDG_CACHE_HOME=str(tmp_path / "cache")),
    )
    assert run.returncode == 0, run.stderr
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    assert rows
    assert rows == [json.loads(line) for line in report.read_text().splitlines()]
    assert "groups written to" in run.stderr
    assert any((tmp_path / "cache" / "hintline" / "scan").rglob("*.json"))  # --keep-state kept it
    assert sorted(p.name for p in (tmp_path / "home").iterdir()) == ["project"]
    assert sorted(p.name for p in work.iterdir()) == ["groups.jsonl"]


def _on_a_terminal(argv: list[str], **env: str) -> str:
    """Run hintline with stdout on a pseudo-terminal; return what it printed."""
    leader, follower = pty.openpty()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "hintline", *argv], stdout=follower, stderr=subprocess.PIPE,
            env=_env(**env), timeout=60, check=False,
        )
        os.close(follower)
        follower = -1
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        if follower >= 0:
            os.close(follower)
        os.close(leader)
    assert proc.returncode == 0, proc.stderr
    return b"".join(chunks).decode()


@pytest.mark.parametrize("argv", [["clean", str(ERROR)], ["logs", str(PY_LOG), "--limit", "2"]])
def test_colour_on_a_terminal_only_and_never_with_no_color(argv: list[str]) -> None:
    assert "\x1b[" in _on_a_terminal(argv)
    assert "\x1b[" not in _on_a_terminal(argv, NO_COLOR="1")
    assert "\x1b[" not in _on_a_terminal(argv, TERM="dumb")
    piped = subprocess.run(
        [sys.executable, "-m", "hintline", *argv], capture_output=True, text=True, env=_env(), check=True
    )
    assert "\x1b[" not in piped.stdout
    assert piped.stdout.strip()


def _script(shell: str) -> str:
    run = subprocess.run(
        [sys.executable, "-m", "hintline", "completion", shell], capture_output=True, text=True,
        env=_env(), check=True,
    )
    return run.stdout


def test_bash_completion(tmp_path: Path) -> None:
    """The script completes subcommands, their options and option values in a real bash."""
    script = tmp_path / "hintline.bash"
    script.write_text(_script("bash"))
    probe = (
        f"source {script}\n"
        't() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _hintline;'
        ' echo "${COMPREPLY[*]}"; }\n'
        't hintline ""\nt hintline sc\nt hintline logs --no\nt hintline users add --role ""\n'
        "t hintline completion f\n"
    )
    out = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert lines[0].split() == [
        "clean", "rules", "scrub", "trace", "logs", "explain", "usage", "serve", "users", "mcp",
        "scan", "completion",
    ]
    assert lines[1].split() == ["scrub", "scan"]
    assert lines[2].split() == ["--no-rotated", "--no-progress"]
    assert lines[3].split() == ["admin", "viewer"]
    assert lines[4].split() == ["fish"]


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is installed by scripts/setup.d/10-base.sh")
def test_fish_completion(tmp_path: Path) -> None:
    script = tmp_path / "hintline.fish"
    script.write_text(_script("fish"))
    probe = f"source {script}; complete -C 'hintline sc'; complete -C 'hintline logs --no'"
    out = subprocess.run(["fish", "-c", probe], capture_output=True, text=True, check=True).stdout
    words = [line.split("\t")[0] for line in out.splitlines()]
    assert {"scan", "scrub", "--no-rotated", "--no-progress"} <= set(words)


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is installed by scripts/setup.d/10-base.sh")
def test_zsh_completion_loads(tmp_path: Path) -> None:
    script = tmp_path / "_hintline"
    script.write_text(_script("zsh"))
    probe = f"autoload -U compinit && compinit -u -D; source {script}; whence -w _hintline"
    run = subprocess.run(["zsh", "-f", "-c", probe], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert "_hintline: function" in run.stdout
