"""HTTP-level tests of every guarantee of the page."""

from __future__ import annotations

import re
import socket
import subprocess
import sys

from starlette.testclient import TestClient

from tests.web.conftest import PASSWORDS, SECRET, Site, ask, csrf_of, login, write_error


def _keys(html: str) -> list[str]:
    return re.findall(r'name="key" value="([^"]+)"', html)


class TestAccess:
    def test_anonymous_is_sent_to_login(self, site: Site) -> None:
        """Without a session every page redirects to the login form."""
        with site.client() as c:
            for path in ("/", "/usage"):
                r = c.get(path)
                assert r.status_code == 303
                assert r.headers["location"] == "/login"

    def test_viewer_gets_403_on_page_and_post(self, site: Site) -> None:
        """A viewer may log in but sees neither the list nor the hint action."""
        with site.client() as c:
            token = login(c, "olga")
            assert c.get("/").status_code == 403
            assert c.get("/usage").status_code == 403
            r = c.post("/hint", data={"csrf": token, "key": "anything"})
            assert r.status_code == 403

    def test_wrong_password_is_refused(self, site: Site) -> None:
        """A wrong password gives 401 and no session."""
        with site.client() as c:
            token = csrf_of(c.get("/login").text)
            r = c.post("/login", data={"username": "root", "password": "nope", "csrf": token})
            assert r.status_code == 401
            assert c.get("/").status_code == 303

    def test_lockout_after_repeated_failures(self, site: Site) -> None:
        """After five failures even the right password is refused for a while."""
        with site.client() as c:
            token = csrf_of(c.get("/login").text)
            for _ in range(5):
                c.post("/login", data={"username": "root", "password": "bad", "csrf": token})
            r = c.post(
                "/login",
                data={"username": "root", "password": "admin-password-1", "csrf": token},
            )
            assert r.status_code == 429
            assert "Too many failed logins" in r.text

    def test_login_needs_csrf(self, site: Site) -> None:
        """A login post without the form's token is refused."""
        with site.client() as c:
            c.get("/login")
            r = c.post("/login", data={"username": "root", "password": "admin-password-1"})
            assert r.status_code == 403

    def test_logout_ends_the_session(self, admin: tuple[TestClient, str]) -> None:
        """Logout is a POST with the token; afterwards the page asks to log in again."""
        c, token = admin
        assert c.get("/").status_code == 200
        assert c.get("/logout").status_code == 405
        assert c.post("/logout", data={"csrf": "wrong"}).status_code == 403
        assert c.post("/logout", data={"csrf": token}).status_code == 303
        assert c.get("/").status_code == 303

    def test_proxy_header_ignored_by_default(self, site: Site) -> None:
        """An X-Remote-User header means nothing unless the operator turns it on."""
        with site.client() as c:
            assert c.get("/", headers={"X-Remote-User": "root"}).status_code == 303
        with site.client(trusted_user_header="X-Remote-User") as c:
            assert c.get("/", headers={"X-Remote-User": "root"}).status_code == 200
            assert c.get("/", headers={"X-Remote-User": "olga"}).status_code == 403
            assert c.get("/", headers={"X-Remote-User": "mallory"}).status_code == 303


class TestList:
    def test_lists_newest_errors_with_hints(self, admin: tuple[TestClient, str]) -> None:
        """The list shows the entries, newest first, each with its deterministic hint."""
        c, _ = admin
        html = c.get("/").text
        assert html.count('class="entry"') == 3
        assert html.index("bad template") < html.index("order lookup failed")
        assert "Hint: " in html
        assert "KeyError" in html

    def test_search(self, admin: tuple[TestClient, str]) -> None:
        """The search box narrows the list."""
        c, _ = admin
        html = c.get("/", params={"q": "order lookup"}).text
        assert html.count('class="entry"') == 1

    def test_paging(self, site: Site) -> None:
        """Ten entries a page, with a link to older ones."""
        for i in range(12):
            write_error(site.log, f"n{i}", f"failure number {i}", RuntimeError(f"boom {i}"))
        with site.client() as c:
            login(c, "root")
            first = c.get("/").text
            assert first.count('class="entry"') == 10
            assert 'rel="next"' in first
            second = c.get("/", params={"page": 1}).text
            assert second.count('class="entry"') == 5
            assert not set(_keys(first)) & set(_keys(second))

    def test_secret_never_in_a_response(self, admin: tuple[TestClient, str]) -> None:
        """A password logged in a message appears in no page."""
        c, token = admin
        pages = [c.get("/").text, c.get("/", params={"q": "connect"}).text]
        for key in _keys(pages[0]):
            pages.append(ask(c, token, key).text)
        for html in pages:
            assert SECRET not in html

    def test_html_is_escaped(self, admin: tuple[TestClient, str]) -> None:
        """Logged markup is shown as text."""
        c, _ = admin
        html = c.get("/").text
        assert "<script>alert(1)</script>" not in html
        assert "&lt;script&gt;" in html

    def test_page_view_never_asks_a_model(self, admin: tuple[TestClient, str], monkeypatch) -> None:
        """Listing and searching never call the model."""
        import hintline.explain

        def boom(*args: object, **kwargs: object) -> None:
            raise AssertionError("a page view asked the model")

        monkeypatch.setattr(hintline.explain, "explain", boom)
        c, _ = admin
        assert c.get("/").status_code == 200
        assert c.get("/", params={"q": "order", "page": 0}).status_code == 200


class TestHintAction:
    def test_get_is_refused(self, admin: tuple[TestClient, str]) -> None:
        """The hint action is POST only."""
        c, _ = admin
        assert c.get("/hint").status_code == 405

    def test_missing_or_wrong_csrf_is_403(self, admin: tuple[TestClient, str]) -> None:
        """No token or another token: 403, nothing sent."""
        c, _ = admin
        key = _keys(c.get("/").text)[0]
        assert c.post("/hint", data={"key": key}).status_code == 403
        assert c.post("/hint", data={"key": key, "csrf": "x" * 43}).status_code == 403

    def test_unknown_key_is_404(self, admin: tuple[TestClient, str]) -> None:
        """A key that matches no entry is not replaced by another entry."""
        c, token = admin
        r = c.post("/hint", data={"key": "0" * 16, "csrf": token})
        assert r.status_code == 404
        assert "No entry has this key" in r.text

    def test_key_survives_a_new_log_line(self, site: Site, admin: tuple[TestClient, str]) -> None:
        """An error logged between page load and click is never sent in place of the clicked one."""
        c, token = admin
        html = c.get("/").text
        keys = _keys(html)
        newest_key = keys[0]  # 'bad template …'
        write_error(site.log, "late", "a newer failure", RuntimeError("late"))
        assert _keys(c.get("/").text)[1] == newest_key
        r = ask(c, token, newest_key)
        assert "bad template" in r.text
        assert "a newer failure" not in r.text


class TestHeaders:
    def test_strict_headers(self, admin: tuple[TestClient, str]) -> None:
        """CSP without inline script, frame denial, no-sniff, no caching."""
        c, _ = admin
        for r in (c.get("/"), c.get("/login"), c.get("/static/app.css")):
            csp = r.headers["content-security-policy"]
            assert "unsafe-inline" not in csp
            assert "script-src" not in csp  # default-src 'none' forbids every script
            assert "default-src 'none'" in csp
            assert "frame-ancestors 'none'" in csp
            assert r.headers["x-frame-options"] == "DENY"
            assert r.headers["x-content-type-options"] == "nosniff"

    def test_no_inline_script_in_pages(self, admin: tuple[TestClient, str]) -> None:
        """The pages carry no script at all."""
        c, _ = admin
        for html in (c.get("/").text, c.get("/usage").text, c.get("/login").text):
            assert "<script" not in html.replace("&lt;script", "")

    def test_session_cookie_flags(self, site: Site) -> None:
        """HttpOnly and SameSite=strict always; Secure when served over TLS."""
        for https in (False, True):
            with site.client(https=https) as c:
                page = c.get("/login")
                token = csrf_of(page.text)
                cookies = [page.headers.get("set-cookie", "")]
                r = c.post(
                    "/login",
                    data={"username": "root", "password": PASSWORDS["root"], "csrf": token},
                    headers={"Cookie": page.headers["set-cookie"].split(";")[0]},
                )
                assert r.status_code == 303
                cookies += r.headers.get_list("set-cookie")
                assert any(c.startswith("hintline_session=") for c in cookies)
                for cookie in cookies:
                    assert "httponly" in cookie.lower()
                    assert "samesite=strict" in cookie.lower()
                    assert ("secure" in cookie.lower()) == https


class TestCommandLine:
    def test_users_add_and_list(self, tmp_path) -> None:
        """`hintline users add` stores an argon2 hash, never the password."""
        users = tmp_path / "u.toml"
        run = [sys.executable, "-m", "hintline", "users", "--users", str(users)]
        r = subprocess.run([*run, "add", "ann", "--role", "admin"], input="long-password-1\n",
                           capture_output=True, text=True, check=False)
        assert r.returncode == 0, r.stderr
        text = users.read_text()
        assert "$argon2id$" in text
        assert "long-password-1" not in text
        assert oct(users.stat().st_mode & 0o777) == "0o600"
        listing = subprocess.run([*run, "list"], capture_output=True, text=True, check=True)
        assert listing.stdout.strip() == "ann\tadmin"

    def test_serve_reports_a_taken_port(self, site: Site) -> None:
        """A clear one-line message and exit 2 when the port is taken."""
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            s.listen()
            port = s.getsockname()[1]
            r = subprocess.run(
                [sys.executable, "-m", "hintline", "serve", str(site.log), "--users",
                 str(site.users), "--port", str(port)],
                capture_output=True, text=True, timeout=60, check=False,
            )
        assert r.returncode == 2
        assert r.stderr.strip() == (
            f"hintline: port {port} on 127.0.0.1 is already in use: choose another with --port"
        )

    def test_serve_without_users_explains(self, tmp_path) -> None:
        """No users file: say how to add one."""
        r = subprocess.run(
            [sys.executable, "-m", "hintline", "serve", "x.log", "--users", str(tmp_path / "none.toml")],
            capture_output=True, text=True, timeout=60, check=False,
        )
        assert r.returncode == 2
        assert "hintline users add" in r.stderr
