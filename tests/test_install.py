"""The wheel and sdist built from this checkout: what they ship, and every subcommand in a bare
virtualenv with the core install only, then with the extras.

The wheel is built by hatchling (the project's build backend, a dev dependency) without network;
it is installed with --no-deps into a virtualenv created without pip, and the core dependencies
are linked in from the test environment, so the bare venv holds the core install and nothing
else. "With the extras" adds the test environment's site-packages behind it (every extra).
"""

from __future__ import annotations

import importlib.metadata
import os
import socket
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
LOG = ROOT / "tests" / "logs" / "fixtures" / "python" / "app.log"
ERROR = ROOT / "examples" / "errors" / "python-keyerror.txt"
TRACE = ROOT / "tests" / "traces" / "fixtures" / "python" / "chained_cause.txt"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-d", str(out)],
        cwd=ROOT, check=True, capture_output=True, timeout=300,
    )
    return {"wheel": next(out.glob("*.whl")), "sdist": next(out.glob("*.tar.gz"))}


def test_licences_ship_in_wheel_and_sdist(dist: dict[str, Path]) -> None:
    with zipfile.ZipFile(dist["wheel"]) as whl:
        names = whl.namelist()
        licences = {n.rsplit(".dist-info/licenses/", 1)[1] for n in names if ".dist-info/licenses/" in n}
        notice = whl.read(next(n for n in names if n.endswith("licenses/NOTICE"))).decode()
    assert {"LICENSE", "NOTICE", "LICENSES/Apache-2.0.txt"} <= licences
    assert "gitleaks" in notice
    assert "Copyright (c) 2019 Zachary Rice" in notice
    with tarfile.open(dist["sdist"]) as sdist:
        top = {m.name.split("/", 1)[1] for m in sdist.getmembers() if "/" in m.name}
    assert {"LICENSE", "NOTICE", "LICENSES/Apache-2.0.txt", "README.md", "pyproject.toml"} <= top
    assert not any(n.startswith("tests/") for n in top)


def _core_requirements(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as whl:
        meta = whl.read(next(n for n in whl.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    names = []
    for line in meta.splitlines():
        if line.startswith("Requires-Dist: "):
            req = Requirement(line.split(": ", 1)[1])
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                names.append(req.name)
    return names


def _link_distribution(name: str, into: Path) -> None:
    """Symlink an installed distribution's top-level files and metadata into ``into``."""
    dist = importlib.metadata.distribution(name)
    base = Path(str(dist.locate_file("")))
    for entry in {Path(str(f)).parts[0] for f in dist.files or ()}:
        target = into / entry
        if not target.exists() and (base / entry).exists() and not entry.endswith(".pth"):
            target.symlink_to(base / entry)


@pytest.fixture(scope="module")
def bare(dist: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtualenv with the wheel and its core dependencies only; returns its python."""
    venv = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
         "--no-index", str(dist["wheel"])],
        check=True, capture_output=True, timeout=300,
    )
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    core = venv / "core-deps"
    core.mkdir()
    for name in _core_requirements(dist["wheel"]):
        _link_distribution(name, core)
    (Path(purelib) / "_core_deps.pth").write_text(f"{core}\n")
    return python


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run(python: Path, argv: list[str], tmp: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean_env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "HINTLINE_", "VIRTUAL_ENV"))}
    clean_env.update(XDG_CACHE_HOME=str(tmp / "cache"), XDG_STATE_HOME=str(tmp / "state"),
                     XDG_CONFIG_HOME=str(tmp / "config"), NO_COLOR="1", **env)
    return subprocess.run(
        [str(python.parent / "hintline"), *argv], capture_output=True, text=True, cwd=tmp,
        env=clean_env, timeout=120, stdin=subprocess.DEVNULL, check=False,
    )


def _cases(tmp: Path) -> list[tuple[str, list[str], str | None, dict[str, str]]]:
    """(name, argv, the extra it needs or None, environment)."""
    port = _closed_port()
    model = tmp / "model.toml"
    model.write_text(f'[explain.configurations.local]\nbase_url = "http://127.0.0.1:{port}/v1"\n'
                     'timeout = 5\n[usage]\npath = "usage.sqlite3"\n')
    pg = tmp / "pg.toml"
    pg.write_text('[usage]\ndsn_env = "HINTLINE_TEST_USAGE_DSN"\n')
    dsn = {"HINTLINE_TEST_USAGE_DSN": f"postgresql://u@127.0.0.1:{port}/x?connect_timeout=3"}
    users = str(tmp / "users.toml")
    return [
        ("version", ["--version"], None, {}),
        ("clean", ["clean", str(ERROR)], None, {}),
        ("rules", ["rules", "--category", "unique_violation"], None, {}),
        ("scrub", ["scrub", str(ERROR)], None, {}),
        ("trace", ["trace", str(TRACE)], None, {}),
        ("logs", ["logs", str(LOG), "--limit", "2"], None, {}),
        ("scan", ["scan", str(LOG), "--json", "--no-progress"], None, {}),
        ("scan html", ["scan", str(LOG), "--html", str(tmp / "r.html"), "--no-progress"], None, {}),
        ("completion", ["completion", "bash"], None, {}),
        ("usage (SQLite)", ["usage", "--config", str(model)], None, {}),
        ("scan parquet", ["scan", str(LOG), "-o", str(tmp / "g.parquet"), "--no-progress"], "scan", {}),
        ("explain", ["explain", str(LOG), "--config", str(model)], "explain", {}),
        ("usage (PostgreSQL)", ["usage", "--config", str(pg)], "postgres", dsn),
        ("serve", ["serve", str(LOG), "--users", users, "--port", str(port)], "web", {}),
        ("users", ["users", "--users", users, "list"], "web", {}),
        ("mcp", ["mcp"], "mcp", {}),
    ]


def test_every_subcommand_with_the_core_install(bare: Path, tmp_path: Path) -> None:
    """Core subcommands work; one that needs an extra says which, in one line, exit 2."""
    problems = []
    for name, argv, extra, env in _cases(tmp_path):
        run = _run(bare, argv, tmp_path, **env)
        if extra is None:
            if run.returncode != 0 or "pip install" in run.stderr:
                problems.append(f"{name}: exit {run.returncode}: {run.stderr.strip()}")
        else:
            command = argv[0]
            want = f"hintline {command}: needs the '{extra}' extra"
            if (run.returncode, run.stderr.count("\n"), run.stdout) != (2, 1, "") or not (
                run.stderr.startswith(want) and f"pip install 'hintline[{extra}]'" in run.stderr
            ):
                problems.append(f"{name}: exit {run.returncode}: {run.stderr.strip()!r}")
    assert problems == []


def test_every_subcommand_with_the_extras(bare: Path, tmp_path: Path) -> None:
    """With the extras the same commands get past their imports: no message about an extra, and
    each does its job or fails on what the case sets up (a closed port, no users)."""
    purelib = sysconfig.get_paths()["purelib"]
    venv = bare.parent.parent
    site = next(venv.glob("lib/python*/site-packages"))
    (site / "_all_extras.pth").write_text(f"{purelib}\n")
    try:
        outcomes = {}
        for name, argv, extra, env in _cases(tmp_path):
            if extra is None:
                continue
            run = _run(bare, argv, tmp_path, **env)
            assert "pip install" not in run.stderr, (name, run.stderr)
            assert "Traceback" not in run.stderr, (name, run.stderr)
            outcomes[name] = (run.returncode, run.stderr.strip().splitlines()[:1])
        assert outcomes["scan parquet"][0] == 0
        assert (tmp_path / "g.parquet").stat().st_size > 0
        assert outcomes["explain"][0] == 4  # EXIT_MODEL: the closed port refused
        assert outcomes["usage (PostgreSQL)"][0] == 1
        no_users = f"hintline serve: no users in {tmp_path / 'users.toml'}: add one with `hintline users add NAME --role admin`"
        assert outcomes["serve"] == (2, [no_users])
        assert outcomes["users"][0] == 0
        assert outcomes["mcp"][0] == 0  # its client (stdin) closed at once
    finally:
        (site / "_all_extras.pth").unlink()
