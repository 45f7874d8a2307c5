"""The README's examples run, and show what they print.

An example is tested when the line before its fenced block is a marker (so new sections, and
blocks that only sketch an idea, are left alone until someone marks them)::

    <!-- readme-test -->                       a Python block (>>> lines: doctest, compared)
    <!-- readme-test: setup=NAME -->           ... with the globals/files of a named setup
    <!-- readme-test: command="hintline …" --> the block is that command's exact output

A block of ``$ command`` lines is run line by line in a temporary folder (``hintline`` is this
checkout's); the lines up to the next ``$`` are its expected output, compared exactly. The
counts the README states (rules, secret patterns) must be the table's, unless they are followed
by "when measured" (a dated benchmark).
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
MARKED = re.compile(
    r"^<!--\s*readme-test(?::(?P<attrs>[^\n]*?))?\s*-->\n```(?P<lang>[\w-]*)\n(?P<body>.*?)^```$",
    re.MULTILINE | re.DOTALL,
)


@dataclass(frozen=True)
class Example:
    line: int
    lang: str
    body: str
    attrs: dict[str, str]

    def __str__(self) -> str:
        return f"README.md:{self.line}"


def examples() -> list[Example]:
    found = []
    for m in MARKED.finditer(README):
        attrs = dict(part.split("=", 1) for part in shlex.split(m.group("attrs") or ""))
        found.append(Example(README.count("\n", 0, m.start()) + 1, m.group("lang"), m.group("body"), attrs))
    return found


def _worker_log(tmp: Path, env: dict[str, Any]) -> None:
    """var/log/worker.log and its rotations: the Python logging fixture (a real program's)."""
    logs = tmp / "var" / "log"
    logs.mkdir(parents=True)
    fixtures = ROOT / "tests" / "logs" / "fixtures" / "python"
    for path in fixtures.glob("app.log*"):
        shutil.copy2(path, logs / path.name.replace("app.log", "worker.log"))


def _clean(tmp: Path, env: dict[str, Any]) -> None:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE users (email TEXT UNIQUE)")
    db.execute("INSERT INTO users VALUES ('a@example.com')")
    try:
        db.execute("INSERT INTO users VALUES ('a@example.com')")
    except sqlite3.IntegrityError as exc:
        env["error"] = exc


def _text(tmp: Path, env: dict[str, Any]) -> None:
    env["text"] = "license ACME-1A2B-3C4D rejected for licenseKey=ACME-1A2B-3C4D"


def _trace(tmp: Path, env: dict[str, Any]) -> None:
    from hintline import parse_trace

    env["text"] = (ROOT / "tests" / "traces" / "fixtures" / "python" / "chained_cause.txt").read_text()
    env["exc"] = parse_trace(env["text"]).root_cause


def _file(tmp: Path, env: dict[str, Any]) -> None:
    path = tmp / "notes.txt"
    path.write_text("buy milk\n")
    env["p"] = str(path)


SETUPS: dict[str, Callable[[Path, dict[str, Any]], None]] = {
    "worker-log": _worker_log,
    "clean": _clean,
    "text": _text,
    "trace": _trace,
    "file": _file,
}


def _hintline(args: str, cwd: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "NO_COLOR": "1", "COLUMNS": "200"}
    run = subprocess.run(
        [sys.executable, "-m", "hintline", *shlex.split(args)], cwd=cwd, env=env,
        capture_output=True, text=True, timeout=120, check=False,
    )
    return run.stdout


def test_the_examples_are_found() -> None:
    """Every marker is followed by its block (a marker that matches nothing is a typo)."""
    assert README.count("<!-- readme-test") == len(examples())
    assert len(examples()) >= 8


@pytest.mark.parametrize("example", examples(), ids=str)
def test_example(example: Example, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    env: dict[str, Any] = {"__name__": "readme"}
    if "setup" in example.attrs:
        SETUPS[example.attrs["setup"]](tmp_path, env)
    body = example.body
    if "command" in example.attrs:
        command = example.attrs["command"].removeprefix("hintline ")
        assert _hintline(command, ROOT).rstrip("\n") == body.rstrip("\n")
    elif example.lang == "python" and ">>>" in body:
        test = doctest.DocTestParser().get_doctest(body, env, str(example), "README.md", example.line)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test)
        assert runner.summarize(verbose=False).failed == 0
    elif example.lang == "python":
        exec(compile(body, str(example), "exec"), env)  # the README's own code
    else:
        commands = re.split(r"^\$ ", body, flags=re.MULTILINE)[1:]
        assert commands, f"{example}: no `$ ` command lines"
        for chunk in commands:
            command, _, expected = chunk.partition("\n")
            assert command.startswith("hintline "), command
            out = _hintline(command.removeprefix("hintline "), tmp_path)
            assert out.rstrip("\n") == expected.rstrip("\n"), f"{example}: $ {command}"


def test_counts_are_current() -> None:
    """The number of rules and of secret patterns the README states is the tables' own."""
    from hintline.rules import RULES
    from hintline.scrub import SECRETS

    for pattern, actual in ((r"(\d+)(?:-rule| rules)\b", len(RULES)), (r"(\d+) patterns\b", len(SECRETS))):
        for m in re.finditer(pattern, README):
            if README[m.end() : m.end() + 30].lstrip(" )").startswith(("when measured", "table when measured")):
                continue
            line = README.count("\n", 0, m.start()) + 1
            assert int(m.group(1)) == actual, f"README.md:{line}: {m.group(0)} (the table has {actual})"
