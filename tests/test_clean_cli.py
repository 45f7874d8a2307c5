"""The ``hintline clean``, ``rules`` and ``scrub`` commands, run as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hintline import RULES

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}"}
KEYERROR = (
    "Traceback (most recent call last):\n"
    '  File "app.py", line 3, in <module>\n'
    "    print(order['customer'])\n"
    "KeyError: 'customer'\n"
)


def hintline(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m hintline ARGS`` with ``stdin``."""
    return subprocess.run(
        [sys.executable, "-m", "hintline", *args],
        check=False,
        input=stdin,
        capture_output=True,
        env=ENV,
        timeout=120,
    )


class TestClean:
    def test_file_and_stdin_give_the_same_line(self, tmp_path: Path) -> None:
        """FILE, '-' and no argument read the same text and print one hint line."""
        path = tmp_path / "err.txt"
        path.write_text(KEYERROR)
        outs = {
            hintline("clean", str(path)).stdout,
            hintline("clean", "-", stdin=KEYERROR.encode()).stdout,
            hintline("clean", stdin=KEYERROR.encode()).stdout,
        }
        assert len(outs) == 1
        (out,) = outs
        text = out.decode()
        assert text.startswith("Hint: ")
        assert text.count("\n") == 1

    def test_json_has_every_field(self) -> None:
        """--json prints one object with text, category, rule, key, kind and retry."""
        proc = hintline("clean", "--json", stdin=KEYERROR.encode())
        assert proc.returncode == 0
        fields = json.loads(proc.stdout)
        assert set(fields) == {"text", "category", "rule", "key", "kind", "retry"}
        assert fields["text"].startswith("Hint: ")
        assert fields["kind"] in {"recoverable", "policy", "system"}

    def test_rule_example_through_cli(self) -> None:
        """A rule's first example gives its exact hint on the command line."""
        if not RULES:
            pytest.skip("no rules in the table yet")
        example = RULES[0].examples[0]
        proc = hintline("clean", "--json", stdin=example.input.encode())
        fields = json.loads(proc.stdout)
        assert fields["text"] == example.hint
        assert fields["rule"] == RULES[0].name
        assert fields["key"] == example.key

    @pytest.mark.parametrize("target", ["missing.txt", "."])
    def test_unreadable_file_one_line_exit_2(self, tmp_path: Path, target: str) -> None:
        """A missing file or a directory: one line on stderr, exit code 2, nothing on stdout."""
        proc = hintline("clean", str(tmp_path / target))
        assert proc.returncode == 2
        assert proc.stdout == b""
        err = proc.stderr.decode()
        assert err.startswith(f"hintline clean: cannot read {tmp_path / target}: ")
        assert err.count("\n") == 1

    def test_binary_and_huge_stdin(self) -> None:
        """Binary garbage and 20 MB on stdin still give one hint line."""
        blob = bytes(range(256)) * 4 + b"\x00" * 100
        assert hintline("clean", stdin=blob).stdout.decode().startswith("Hint: ")
        huge = b"x" * 20_000_000 + KEYERROR.encode()
        proc = hintline("clean", stdin=huge)
        assert proc.returncode == 0
        assert "customer" in proc.stdout.decode()

    def test_secret_never_printed(self) -> None:
        """A password in the input never reaches the printed hint (text or JSON)."""
        secret = "Hunter2Secret!"
        text = f"psycopg.OperationalError: could not connect to postgresql://app:{secret}@db:5432/app\n"
        for args in (("clean",), ("clean", "--json")):
            proc = hintline(*args, stdin=text.encode())
            assert secret not in proc.stdout.decode()


class TestRules:
    def test_lists_every_rule(self) -> None:
        """The listing has a header, one row per rule in order, and a count."""
        proc = hintline("rules")
        assert proc.returncode == 0
        lines = proc.stdout.decode().splitlines()
        assert lines[0].split()[:4] == ["NAME", "CODE", "CATEGORY", "KIND"]
        assert lines[-1] == f"{len(RULES)} rules"
        assert [line.split()[0] for line in lines[1:-1]] == [r.name for r in RULES]

    def test_json_and_category_filter(self) -> None:
        """--json gives the rule objects; --category filters; an unknown category exits 2."""
        rules = json.loads(hintline("rules", "--json").stdout)
        assert [r["code"] for r in rules] == [r.code for r in RULES]
        for r in rules:
            assert {"code", "name", "category", "kind", "why", "pattern", "example"} <= set(r)
        subset = json.loads(hintline("rules", "--json", "--category", "timeout").stdout)
        assert all(r["category"] == "timeout" for r in subset)
        bad = hintline("rules", "--category", "nope")
        assert bad.returncode == 2
        assert bad.stderr.decode().count("\n") == 1


class TestScrub:
    def test_scrubs_file_and_keeps_the_rest(self, tmp_path: Path) -> None:
        """scrub prints the whole text with the password replaced."""
        path = tmp_path / "log.txt"
        path.write_text("line one\nurl=postgresql://app:S3cretPassw0rd@db:5432/x\nline three\n")
        out = hintline("scrub", str(path)).stdout.decode()
        assert "S3cretPassw0rd" not in out
        assert out.startswith("line one\n")
        assert out.endswith("line three\n")

    def test_unreadable(self, tmp_path: Path) -> None:
        """A missing file: one line on stderr, exit 2."""
        proc = hintline("scrub", str(tmp_path / "nope"))
        assert proc.returncode == 2
        assert proc.stderr.decode().startswith("hintline scrub: cannot read ")


def test_version_names_engine() -> None:
    """--version prints the version and the active engine."""
    out = hintline("--version").stdout.decode()
    assert out.startswith("hintline ")
    assert "(engine: " in out
