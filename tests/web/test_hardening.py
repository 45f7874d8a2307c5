"""Login throttling behind and without a proxy, the Host check, binding beyond loopback,
headers on every response and the users file at start-up (issue 18, points 4 to 7)."""

from __future__ import annotations

import argparse
import dataclasses
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from hintline.cli._serve import startup_warnings
from hintline.web import create_app
from hintline.web._app import SESSION_COOKIE
from hintline.web._security import LoginThrottle
from tests.web.conftest import PASSWORDS, Site, csrf_of, login, served


def _login_token(client: httpx.Client) -> str:
    return csrf_of(client.get("/login").text)


def _try(client: httpx.Client, name: str, password: str, forwarded: str | None = None) -> httpx.Response:
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    data = {"username": name, "password": password, "csrf": _login_token(client)}
    return client.post("/login", data=data, headers=headers)


class TestForwardedHeaders:
    def test_forwarded_for_from_loopback_is_ignored_by_default(self, site: Site) -> None:
        """A client cannot pick a new address per attempt with X-Forwarded-For (real uvicorn)."""
        with served(site.settings) as base, httpx.Client(base_url=base) as c:
            for i in range(10):  # ten names, each "from" another address
                assert _try(c, f"user{i}", "wrong", f"10.0.0.{i}").status_code == 401
            r = _try(c, "root", PASSWORDS["root"], "10.0.0.99")
            assert r.status_code == 429
            assert "Too many failed logins" in r.text

    def test_forwarded_for_from_a_named_proxy_is_believed(self, site: Site) -> None:
        """With --trusted-proxy 127.0.0.1 each forwarded address has its own count."""
        settings = dataclasses.replace(site.settings, trusted_proxies=("127.0.0.1",))
        with served(settings) as base, httpx.Client(base_url=base) as c:
            for i in range(4):
                assert _try(c, f"nobody{i}", "wrong", "10.0.0.1").status_code == 401
            for i in range(6):  # another client behind the proxy: its own address count
                assert _try(c, f"other{i}", "wrong", "10.0.0.2").status_code == 401
            assert _try(c, "root", PASSWORDS["root"], "10.0.0.1").status_code == 303


class TestThrottle:
    def test_the_administrators_browser_is_not_kept_out(self, site: Site) -> None:
        """Failures as root from many addresses make strangers wait; the browser that logged in
        as root before (its device cookie) still gets in at once."""
        settings = dataclasses.replace(site.settings, trusted_proxies=("127.0.0.1",))
        frozen = LoginThrottle(clock=lambda: 1000.0)  # the backoff never runs out during the test
        with served(settings, throttle=frozen) as base, httpx.Client(base_url=base) as admin, \
                httpx.Client(base_url=base) as attacker, httpx.Client(base_url=base) as stranger:
            assert _try(admin, "root", PASSWORDS["root"], "10.0.0.1").status_code == 303
            token = csrf_of(admin.get("/").text)
            assert admin.post("/logout", data={"csrf": token}).status_code == 303
            for i in range(5):
                assert _try(attacker, "root", "guess", f"10.0.1.{i}").status_code == 401
            assert _try(attacker, "root", "guess", "10.0.1.9").status_code == 429
            r = _try(stranger, "root", PASSWORDS["root"], "10.0.2.1")
            assert r.status_code == 429
            assert "try again in" in r.text
            assert _try(admin, "root", PASSWORDS["root"], "10.0.0.1").status_code == 303


    def test_spraying_names_from_one_address_is_limited(self, site: Site) -> None:
        """Ten failures with ten names from one address lock the address, whatever the name."""
        with site.client() as c:
            for i in range(10):
                token = csrf_of(c.get("/login").text)
                r = c.post("/login", data={"username": f"user{i}", "password": "x", "csrf": token})
                assert r.status_code == 401
            token = csrf_of(c.get("/login").text)
            r = c.post("/login", data={"username": "root", "password": PASSWORDS["root"], "csrf": token})
            assert r.status_code == 429

    def test_failing_root_on_purpose_costs_seconds_not_minutes(self) -> None:
        """Failures for one name from many addresses make it wait a capped backoff, never a lock."""
        now = [1000.0]
        t = LoginThrottle(clock=lambda: now[0])
        for i in range(4):
            t.failed("root", f"10.0.0.{i}")
        assert t.wait("root", "192.0.2.1") == 0
        t.failed("root", "10.0.0.4")
        assert t.wait("root", "192.0.2.1") == pytest.approx(1.0)
        for i in range(5, 40):  # an attacker failing as often as the backoff allows
            now[0] += t.wait("root", f"10.0.1.{i}")
            t.failed("root", f"10.0.1.{i}")
        assert 0 < t.wait("root", "192.0.2.1") <= 30.0
        now[0] += 30.0
        assert t.wait("root", "192.0.2.1") == 0  # the administrator gets in within 30 s

    def test_one_address_and_name_is_locked_hard(self) -> None:
        """Five failures of one name from one address lock that pair for five minutes."""
        now = [0.0]
        t = LoginThrottle(clock=lambda: now[0])
        for _ in range(5):
            t.failed("root", "192.0.2.7")
        assert t.wait("root", "192.0.2.7") == pytest.approx(300.0)
        now[0] += 299
        assert t.wait("root", "192.0.2.7") > 0
        now[0] += 2
        assert t.wait("root", "192.0.2.7") == 0

    def test_the_page_says_how_long(self, site: Site) -> None:
        """The refusal names the wait."""
        with site.client() as c:
            for _ in range(5):
                token = csrf_of(c.get("/login").text)
                c.post("/login", data={"username": "root", "password": "bad", "csrf": token})
            token = csrf_of(c.get("/login").text)
            r = c.post("/login", data={"username": "root", "password": "bad", "csrf": token})
            assert r.status_code == 429
            assert "try again in 5 minutes" in r.text


class TestHostCheck:
    def test_foreign_host_is_refused(self, site: Site) -> None:
        """A DNS-rebinding page's Host gets 400, with the security headers."""
        with site.client(allowed_hosts=()) as c:
            for host in ("evil.example", "evil.example:8765", "127.0.0.1.evil.example"):
                r = c.get("/login", headers={"Host": host})
                assert r.status_code == 400, host
                assert r.headers["x-frame-options"] == "DENY"
                assert "csrf" not in r.text
            for host in ("127.0.0.1", "127.0.0.1:8765", "localhost:8765", "[::1]:8765", "LOCALHOST"):
                assert c.get("/login", headers={"Host": host}).status_code == 200, host

    def test_allowed_host_is_accepted(self, site: Site) -> None:
        """--allowed-host names another host the page answers to."""
        with site.client(allowed_hosts=("hints.example.org",)) as c:
            assert c.get("/login", headers={"Host": "hints.example.org"}).status_code == 200
            assert c.get("/login", headers={"Host": "evil.example"}).status_code == 400

    def test_real_server_refuses_a_foreign_host(self, site: Site) -> None:
        """Through uvicorn too, before any page is made."""
        with served(site.settings) as base:
            assert httpx.get(base + "/healthz", headers={"Host": "rebind.example"}).status_code == 400
            assert httpx.get(base + "/healthz").status_code == 200


def _args(**kw: object) -> argparse.Namespace:
    base: dict[str, object] = {
        "host": "127.0.0.1", "ssl_certfile": None, "secure_cookies": False, "allowed_host": [],
    }
    base.update(kw)
    return argparse.Namespace(**base)


class TestBinding:
    def test_warnings(self) -> None:
        """Beyond loopback over plain HTTP: warn about passwords; a wildcard needs --allowed-host."""
        assert startup_warnings(_args()) == []
        assert startup_warnings(_args(host="localhost")) == []
        lines = startup_warnings(_args(host="0.0.0.0"))
        assert any("over plain HTTP" in x for x in lines)
        assert any("--allowed-host" in x for x in lines)
        assert startup_warnings(_args(host="0.0.0.0", secure_cookies=True, allowed_host=["h.example"])) == []
        assert startup_warnings(_args(host="192.0.2.5", ssl_certfile="c.pem")) == []

    def test_serve_warns_when_binding_everywhere(self, site: Site) -> None:
        """`hintline serve --host 0.0.0.0` prints the warning before it serves."""
        from tests.services.llama import free_port

        port = free_port()
        proc = subprocess.Popen(
            [sys.executable, "-m", "hintline", "serve", str(site.log), "--users", str(site.users),
             "--host", "0.0.0.0", "--port", str(port)],
            stderr=subprocess.PIPE, text=True,
        )
        try:
            assert proc.stderr is not None
            lines = []
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                line = proc.stderr.readline()
                lines.append(line)
                if "serving error hints" in line or not line:
                    break
            text = "".join(lines)
            assert "over plain HTTP: passwords and session cookies cross the network" in text
            assert "serving error hints on http://0.0.0.0" in text
        finally:
            proc.terminate()
            proc.wait(timeout=20)

    def test_secure_cookies_behind_a_tls_proxy(self, site: Site) -> None:
        """--secure-cookies: every cookie is Secure and HSTS is sent, though the server speaks HTTP."""
        with site.client(secure_cookies=True) as c:
            r = c.get("/login")
            assert "secure" in r.headers["set-cookie"].lower()
            assert r.headers["strict-transport-security"].startswith("max-age=")
            token = csrf_of(r.text)
            # the test client talks plain HTTP, so it would not send a Secure cookie back: post by hand
            nonce = r.cookies.get("hintline_login") or re.search(r"hintline_login=([^;]+)", r.headers["set-cookie"]).group(1)  # type: ignore[union-attr]
            ok = c.post(
                "/login", data={"username": "root", "password": PASSWORDS["root"], "csrf": token},
                headers={"Cookie": f"hintline_login={nonce}"},
            )
            assert ok.status_code == 303
            assert "secure" in ok.headers["set-cookie"].lower()
            assert SESSION_COOKIE in ok.headers["set-cookie"]


class TestErrors:
    def test_a_500_carries_the_headers(self, site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
        """An unexpected error is a 500 with every security header."""
        from hintline.web import _service

        def broken(*args: object, **kwargs: object) -> None:
            raise RuntimeError("broken on purpose")

        with site.client(raise_server_exceptions=False) as c:
            login(c, "root")
            monkeypatch.setattr(_service, "list_entries", broken)
            r = c.get("/")
            assert r.status_code == 500
            assert "default-src 'none'" in r.headers["content-security-policy"]
            assert r.headers["x-frame-options"] == "DENY"
            assert r.headers["x-content-type-options"] == "nosniff"
            assert r.headers["cache-control"] == "no-store"

    def test_malformed_users_file_is_a_startup_error(self, site: Site, tmp_path: Path) -> None:
        """`hintline serve` with a broken users file: one line, exit 2, nothing served."""
        bad = tmp_path / "bad.toml"
        bad.write_text('[users.root\nrole = "admin"\n', encoding="utf-8")
        for content, needle in (
            ('[users.root\nrole = "admin"\n', "cannot read users file"),
            ('[users.root]\nrole = "boss"\npassword_hash = "$argon2id$x"\n', "has role 'boss'"),
            ('[users.root]\nrole = "admin"\n', "no argon2 password_hash"),
            ('users = "root"\n', "[users] must be a table"),
        ):
            bad.write_text(content, encoding="utf-8")
            r = subprocess.run(
                [sys.executable, "-m", "hintline", "serve", str(site.log), "--users", str(bad)],
                capture_output=True, text=True, timeout=60, check=False,
            )
            assert r.returncode == 2, content
            assert needle in r.stderr, r.stderr
            assert len(r.stderr.strip().splitlines()) == 1, r.stderr
            with pytest.raises(Exception, match=re.escape(needle)):
                create_app(dataclasses.replace(site.settings, users_path=bad))

    def test_users_file_broken_while_serving(self, site: Site) -> None:
        """A users file broken after start fails closed: 503 with the headers, no page."""
        with site.client(raise_server_exceptions=False) as c:
            login(c, "root")
            site.users.write_text("[users\n", encoding="utf-8")
            r = c.get("/")
            assert r.status_code == 503
            assert "users file cannot be read" in r.text
            assert r.headers["x-frame-options"] == "DENY"
