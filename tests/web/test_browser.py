"""The page end to end in a real headless Chromium, with hints from a real llama-server.

The model is a tiny random-weights GGUF: its diagnosis is noise, so the test asserts only what
hintline controls — the labelled heading, the cited frame when anchored, usage, logout, the "being
made" page while the model is busy, and what pages of other sites can (not) do to a session.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
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
        page.wait_for_selector("#answer h2:not(:has-text('being made'))", timeout=60_000)
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


# --- cross-site requests and the "being made" page -------------------------------------------

_ATTACKS = {
    # a link the administrator follows
    "/link": '<a id="go" href="{target}/login">win a prize</a>',
    # a form that submits itself: log the administrator in as someone else
    "/login-as-olga": (
        '<form id="f" method="post" action="{target}/login">'
        '<input name="username" value="olga"><input name="password" value="{olga}"></form>'
        "<script>document.getElementById('f').submit()</script>"
    ),
    # a form that submits itself: log the administrator out
    "/logout": (
        '<form id="f" method="post" action="{target}/logout"><input name="csrf" value="x"></form>'
        "<script>document.getElementById('f').submit()</script>"
    ),
}


@contextlib.contextmanager
def attacker_site(target: str) -> Iterator[int]:
    """Another web site on its own loopback port, serving pages aimed at ``target``."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = _ATTACKS.get(self.path, "").format(target=target, olga=PASSWORDS["olga"]).encode()
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def _log_in(page: Any, base: str, name: str = "root") -> None:
    page.goto(base + "/login")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORDS[name])
    page.click("button[type=submit]")
    page.wait_for_url(base + "/")


def test_other_sites_cannot_log_the_administrator_out_or_in(site: Site, chromium: Any) -> None:
    """Pages on another port of this host and on another host name: a link to /login, a
    self-submitting login form and a self-submitting logout form leave the session as it was."""
    with served(site.settings) as base, attacker_site(base) as port:
        context = chromium.new_context()
        page = context.new_page()
        _log_in(page, base)
        for origin in (f"http://127.0.0.1:{port}", f"http://attacker.hintline.test:{port}"):
            page.goto(origin + "/link")
            with page.expect_navigation(url=lambda u: u.startswith(base)):
                page.click("#go")
            if origin.startswith("http://127.0.0.1"):
                # same site (another port): the cookie goes along, the live session shows the list
                assert page.url == base + "/", origin
            else:
                # cross-site: a SameSite=Strict cookie stays home; the form shows, nothing is replaced
                assert page.url == base + "/login", origin
            for attack in ("/login-as-olga", "/logout"):
                with page.expect_navigation(url=lambda u: u.startswith(base)):
                    page.goto(origin + attack)
                assert "Forbidden: missing or wrong CSRF token" in page.content(), (origin, attack)
            page.goto(base + "/")
            assert page.url == base + "/", origin
            assert "root (admin)" in page.inner_text("nav")
            assert page.locator("li.entry").count() == 3
        context.close()


def test_a_rebinding_host_name_is_refused(site: Site, chromium: Any) -> None:
    """A name that resolves to the server (DNS rebinding) gets 400, not the login form."""
    with served(site.settings) as base:
        port = base.rsplit(":", 1)[1]
        context = chromium.new_context()
        page = context.new_page()
        response = page.goto(f"http://rebind.hintline.test:{port}/login")
        assert response is not None
        assert response.status == 400
        assert page.locator("input[name=password]").count() == 0
        assert page.goto(base + "/login").status == 200
        context.close()


@contextlib.contextmanager
def busy(server: Any) -> Iterator[None]:
    """Keep the llama-server's only slot generating until the block ends (the stream is closed)."""
    started = threading.Event()
    stop = threading.Event()

    def generate() -> None:
        body = {"prompt": "busy", "n_predict": -1, "ignore_eos": True, "stream": True}
        with httpx.stream("POST", f"http://127.0.0.1:{server.port}/completion", json=body,
                          timeout=None) as response:
            for _ in response.iter_bytes():
                started.set()
                if stop.is_set():
                    break

    thread = threading.Thread(target=generate, daemon=True)
    thread.start()
    assert started.wait(30), "the llama-server never started generating"
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=30)


def test_hint_being_made_then_filled_in(site: Site, chromium: Any, tmp_path: Path) -> None:
    """With the real llama-server busy, the page says a hint is being made, the server keeps
    answering, and the page fills the hint in by itself (no script) once the model answers."""
    import dataclasses

    from tests.services.llama import start_llama_server

    workdir = tmp_path / "llama"
    workdir.mkdir()
    with start_llama_server(workdir, ["--context-shift"]) as llama:
        config = _config(tmp_path, llama.base_url, llama.model, Path(__file__).parents[2])
        settings = dataclasses.replace(site.settings, config_path=str(config))
        with served(settings) as base:
            context = chromium.new_context(java_script_enabled=False, viewport={"width": 1100, "height": 800})
            page = context.new_page()
            _log_in(page, base)
            with busy(llama):
                entry = page.locator("li.entry", has_text="order lookup failed")
                entry.locator("button", has_text="Ask the model").click()
                page.wait_for_url(lambda u: "/hint/" in u)
                assert page.inner_text("#answer h2") == "A hint is being made…"
                _shot(page, "web-hint-pending.png")
                assert httpx.get(base + "/healthz", timeout=3).text == "ok"
                assert httpx.get(base + "/login", timeout=3).status_code == 200
                page.wait_for_timeout(2500)  # one self-reload later: still being made
                assert page.inner_text("#answer h2") == "A hint is being made…"
            page.wait_for_selector("#answer h2:not(:has-text('being made'))", timeout=60_000)
            heading = page.inner_text("#answer h2")
            assert heading in {"Anchored hint", "Guess — not anchored in your code"}
            details = page.inner_text("#answer .details")
            assert f"local · {llama.model} · zone local · " in details
            assert " tokens)" in details
            context.close()
