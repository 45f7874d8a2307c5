"""The page end to end in a real headless Chromium, with hints from a real llama-server.

The model is a tiny random-weights GGUF: its diagnosis is noise, so the test asserts only what
hintline controls — the labelled heading, the cited frame when anchored, usage, logout.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import PASSWORDS, SECRET, Site, served

pytestmark = pytest.mark.live

SCREENSHOTS = Path(os.environ.get("HINTLINE_SCREENSHOTS", "")) if os.environ.get("HINTLINE_SCREENSHOTS") else None


def _config(tmp: Path, base_url: str, model: str, project_root: Path) -> Path:
    path = tmp / "hintline.toml"
    path.write_text(
        f"""
[explain]
default = "local"
project_root = "{project_root}"

[explain.configurations.local]
provider = "openai_compatible"
base_url = "{base_url}"
model = "{model}"
timeout = 30
max_tokens = 200

[usage]
path = "{tmp / "usage.sqlite3"}"
""",
        encoding="utf-8",
    )
    return path


def _shot(page: Any, name: str) -> None:
    if SCREENSHOTS is not None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / name), full_page=True)


def test_login_list_hint_usage_logout(site: Site, chromium: Any, llama_server: Any, tmp_path: Path) -> None:
    """An administrator logs in, sees the errors, asks for a hint, sees it labelled, logs out."""
    import dataclasses

    config = _config(tmp_path, llama_server.base_url, llama_server.model, Path(__file__).parents[2])
    settings = dataclasses.replace(site.settings, config_path=str(config))
    with served(settings) as base:
        context = chromium.new_context(viewport={"width": 1100, "height": 800})
        page = context.new_page()
        page.goto(base + "/")
        assert page.url.endswith("/login")
        page.fill("input[name=username]", "root")
        page.fill("input[name=password]", PASSWORDS["root"])
        page.click("button[type=submit]")
        page.wait_for_url(base + "/")
        assert page.locator("li.entry").count() == 3
        assert "Hint: " in page.inner_text("ol.entries")
        assert SECRET not in page.content()
        _shot(page, "web-list.png")

        entry = page.locator("li.entry", has_text="order lookup failed")
        entry.locator("button", has_text="Ask the model").click()
        page.wait_for_selector("#answer h2")
        heading = page.inner_text("#answer h2")
        assert heading in {"Anchored hint", "Guess — not anchored in your code"}
        if heading == "Anchored hint":
            assert "test" in page.inner_text("#answer .where")
        assert "order lookup failed" in page.inner_text("section.entry")
        assert SECRET not in page.content()
        _shot(page, "web-hint.png")

        page.goto(base + "/usage")
        assert page.locator("table.usage tbody tr").count() == 1
        outcome = "anchored" if heading == "Anchored hint" else "guess"
        assert outcome in page.inner_text("table.usage tbody tr")
        page.click("button:has-text('Log out')")
        page.wait_for_url(base + "/login")
        page.goto(base + "/")
        assert page.url.endswith("/login")
        context.close()


def test_viewer_sees_forbidden(site: Site, chromium: Any) -> None:
    """A viewer logs in and is told the page is for administrators."""
    with served(site.settings) as base:
        context = chromium.new_context()
        page = context.new_page()
        page.goto(base + "/login")
        page.fill("input[name=username]", "olga")
        page.fill("input[name=password]", PASSWORDS["olga"])
        page.click("button[type=submit]")
        page.wait_for_selector("h1")
        assert page.inner_text("h1") == "Administrators only"
        assert page.locator("form.ask").count() == 0
        context.close()
