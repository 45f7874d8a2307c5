"""The package's public names: one meaning each, whatever the import order, and typed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _python(code: str) -> str:
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
    )
    return run.stdout.strip()


@pytest.mark.parametrize(
    "imports",
    [
        "import hintline.scrub; import hintline",
        "import hintline; import hintline.scrub",
        "from hintline import scrub; import hintline",
        "import hintline.explain; import hintline",
        "import hintline; hintline.explain; import hintline.explain",
    ],
)
def test_scrub_and_explain_are_their_packages_in_any_import_order(imports: str) -> None:
    """`hintline.scrub.Scrubber` works (issue: AttributeError); both stay callable."""
    out = _python(
        f"{imports}\n"
        "import types, hintline\n"
        "print(isinstance(hintline.scrub, types.ModuleType), hintline.scrub.Scrubber.__name__,\n"
        "      hintline.scrub('postgresql://a:S3cret@h/d'), hintline.scrub.scrub('token=abc'),\n"
        "      isinstance(hintline.explain, types.ModuleType), callable(hintline.explain),\n"
        "      hintline.explain.explain.__module__)"
    )
    assert out == (
        "True Scrubber postgresql://a:***@h/d token=*** True True hintline.explain._service"
    )


def test_every_public_name_resolves() -> None:
    import hintline

    for name in hintline.__all__:
        assert getattr(hintline, name) is not None, name


def test_public_names_are_typed(tmp_path: Path) -> None:
    """mypy --strict sees real types, not Any, for every name of ``hintline.__all__``."""
    from mypy import api

    import hintline

    lines = ["import hintline", *(f"reveal_type(hintline.{n})" for n in hintline.__all__),
             "from hintline import AgentGuard", "reveal_type(AgentGuard)",
             "import hintline.scrub", "reveal_type(hintline.scrub.Scrubber)",
             "reveal_type(hintline.scrub.scrub)", "reveal_type(hintline.explain.explain)"]
    probe = tmp_path / "probe.py"
    probe.write_text("\n".join(lines) + "\n")
    out, err, _ = api.run([
        "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
        "--python-version", "3.11", str(probe),
    ])
    revealed = [line for line in out.splitlines() if "Revealed type is" in line]
    assert len(revealed) == len(lines) - 3, out + err
    untyped = [line for line in revealed if '"Any"' in line]
    assert untyped == []
    assert "AgentGuard" in revealed[-4]
