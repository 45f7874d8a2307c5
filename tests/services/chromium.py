"""A real headless Chromium (Debian's package), driven by Playwright's Python package.

Playwright's own browser download is never used: ``executable_path`` points at the system
Chromium (``$HINTLINE_CHROMIUM``, else ``chromium`` on PATH).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

# Without the background-networking flags Chromium keeps trying hosts this machine cannot reach.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Names for other sites in tests (a second origin, a DNS-rebinding name): all on loopback.
    "--host-resolver-rules=MAP *.hintline.test 127.0.0.1",
]


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """A launched Chromium browser for the session."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    executable = os.environ.get("HINTLINE_CHROMIUM") or shutil.which("chromium")
    if executable is None:
        pytest.fail("Chromium is not installed: run scripts/setup.d/50-chromium.sh")
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
