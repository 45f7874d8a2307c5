"""The fallback never echoes a progress or status line (issue 15, "a fallback that says
something"): real output of git and pip (``scripts/fixtures/gen_progress_output.py``), and the
class's shapes one by one, with the near misses that must stay pickable."""

from __future__ import annotations

from pathlib import Path

import pytest

import hintline
from hintline.cleaner.fallback import NO_ERROR_LINE, _is_progress, pick_line

FIXTURES = Path(__file__).parent / "fixtures" / "progress"


def _read(name: str) -> str:
    return (FIXTURES / name).read_bytes().decode("utf-8")  # carriage returns as printed


@pytest.mark.parametrize("name", ["git-clone-progress.txt", "pip-dry-run.txt"])
def test_progress_only_output_says_no_error_line(name: str) -> None:
    assert hintline.clean(_read(name)).text == "Hint: " + NO_ERROR_LINE


def test_failure_after_progress_is_the_hint() -> None:
    hint = hintline.clean(_read("git-clone-missing-branch.txt"))
    assert hint.text == "Hint: fatal: Remote branch release-9 not found in upstream origin"


@pytest.mark.parametrize(
    "line",
    [
        "[+] Pulling 1/1",  # docker compose
        "[+] Running 3/3",
        " ✔ Container reports-api-1  Started                                0.4s",
        "a3ed95caeb02: Pull complete",
        "1.4.2: Pulling from reports/api",
        "Digest: sha256:4c5ab0e8",
        "Status: Downloaded newer image for registry.acme.dev/reports/api:1.4.2",
        "#5 [2/4] RUN pip install -r requirements.txt",
        "Step 3/7 : COPY . /app",
        "Collecting requests==2.31.0",
        "  Downloading requests-2.31.0-py3-none-any.whl (62 kB)",
        "     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 62.6/62.6 kB 1.2 MB/s eta 0:00:00",
        "Installing collected packages: urllib3, requests",
        "⠙ reify:lodash: timing reifyNode:node_modules/lodash",
        "added 12 packages in 2s",
        "go: downloading example.com/lib v1.2.0",
        "   Compiling serde v1.0.193",
        "Get:1 http://deb.example/debian bookworm InRelease [151 kB]",
        "Reading package lists... Done",
        "Receiving objects:  33% (1/3)",
        "Loading checkpoint shards: 45%",
    ],
)
def test_progress_line_is_never_picked(line: str) -> None:
    assert _is_progress(line)
    assert pick_line(line) is None


@pytest.mark.parametrize(
    "line",
    [
        " ✘ api Error Head \"https://registry.acme.dev/v2/\": manifest unknown          0.4s",
        "Downloading model.bin failed: 404",
        "Building wheel for lxml did not run successfully: could not find libxml2",
        "Order 1/2 shipped to the wrong address",
        "Pulling the plug on worker 3: out of memory (exit 137) error",
    ],
)
def test_a_line_that_names_a_failure_stays_pickable(line: str) -> None:
    assert not _is_progress(line)
    assert pick_line(line) == line.strip()


def test_compose_banner_gives_way_to_the_failed_service() -> None:
    text = (
        "[+] Pulling 1/1\n"
        ' ✘ api Error manifest for registry.acme.dev/reports/api:9.9 not found: manifest unknown'
        "      0.4s\n"
    )
    assert pick_line(text) is not None
    assert pick_line(text).startswith("✘ api Error manifest")  # type: ignore[union-attr]
