"""Sessions end on the server (issue 18, points 1 and 3): logout, a new password, a removed user
or a new role end them at once; a link to /login or a forged login form never replaces one."""

from __future__ import annotations

import subprocess
import sys

import pytest
from starlette.testclient import TestClient

from hintline.web._app import LOGIN_COOKIE, SESSION_COOKIE
from hintline.web._users import UserStore
from tests.web.conftest import PASSWORDS, Site, csrf_of, login


def _browser(client: TestClient, cookie: str) -> TestClient:
    """Another browser of the same server, holding this session cookie."""
    other = TestClient(client.app, follow_redirects=False)
    other.headers["Cookie"] = f"{SESSION_COOKIE}={cookie}"
    return other


@pytest.fixture
def model_calls(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Counts model calls (the hint action calls ``hintline.explain.explain``)."""
    import hintline.explain

    calls: list[object] = []

    def counted(entry: object, **kwargs: object) -> object:
        calls.append(entry)
        raise hintline.explain.ExplainerUnavailable("counted only")

    monkeypatch.setattr(hintline.explain, "explain", counted)
    return calls


def _a_key(client: TestClient) -> str:
    import re

    return re.findall(r'name="key" value="([^"]+)"', client.get("/").text)[0]


class TestSessionsEnd:
    def test_cookie_copied_before_logout_is_dead(self, site: Site, model_calls: list[object]) -> None:
        """After logout a copy of the cookie lists nothing and asks no model."""
        with site.client() as c:
            token = login(c, "root")
            key = _a_key(c)
            thief = _browser(c, c.cookies[SESSION_COOKIE])
            assert thief.get("/").status_code == 200  # the copy works while the session lives
            assert c.post("/logout", data={"csrf": token}).status_code == 303
            assert thief.get("/").status_code == 303
            assert thief.get("/").headers["location"] == "/login"
            r = thief.post("/hint", data={"csrf": token, "key": key})
            assert r.status_code == 303
            assert r.headers["location"] == "/login"
            assert thief.get("/usage").status_code == 303
        assert model_calls == []

    def test_password_change_ends_sessions(self, site: Site) -> None:
        """`hintline users add root` with a new password ends root's open sessions."""
        with site.client() as c:
            login(c, "root")
            assert c.get("/").status_code == 200
            r = subprocess.run(
                [sys.executable, "-m", "hintline", "users", "--users", str(site.users), "add", "root",
                 "--role", "admin", "--password-stdin"],
                input="a-new-password-2\n", capture_output=True, text=True, check=False,
            )
            assert r.returncode == 0, r.stderr
            assert c.get("/").status_code == 303
            login(c, "root", "a-new-password-2")
            assert c.get("/").status_code == 200

    def test_users_remove_ends_sessions(self, site: Site) -> None:
        """`hintline users remove root` ends root's sessions on the next request."""
        with site.client() as c:
            token = login(c, "root")
            key = _a_key(c)
            r = subprocess.run(
                [sys.executable, "-m", "hintline", "users", "--users", str(site.users), "remove", "root"],
                capture_output=True, text=True, check=False,
            )
            assert r.returncode == 0, r.stderr
            assert c.get("/").status_code == 303
            assert c.post("/hint", data={"csrf": token, "key": key}).status_code == 303

    def test_readding_as_viewer_ends_the_admin_session(self, site: Site) -> None:
        """Re-adding an administrator as a viewer ends the session (not only its admin pages)."""
        with site.client() as c:
            login(c, "root")
            UserStore(site.users).add("root", PASSWORDS["root"], "viewer")
            assert c.get("/").status_code == 303

    def test_other_users_sessions_survive(self, site: Site) -> None:
        """Changing one user's password leaves the others logged in."""
        UserStore(site.users).add("ann", "ann-password-1", "admin")
        with site.client() as root, site.client() as ann:
            login(root, "root")
            login(ann, "ann", "ann-password-1")
            UserStore(site.users).add("ann", "ann-password-2", "admin")
            assert root.get("/").status_code == 200
            assert ann.get("/").status_code == 303

    def test_cookie_is_only_an_id(self, site: Site) -> None:
        """The cookie carries a random id, no signed user name to replay elsewhere."""
        with site.client() as c:
            login(c, "root")
            value = c.cookies[SESSION_COOKIE]
            assert "root" not in value
            assert "." not in value
            assert len(value) >= 43


class TestLoginCannotBeForced:
    def test_login_page_with_a_session_goes_to_the_list(self, admin: tuple[TestClient, str]) -> None:
        """A link to /login (from any site) keeps the session and shows the list."""
        c, _ = admin
        r = c.get("/login")
        assert r.status_code == 303
        assert r.headers["location"] == "/"
        assert SESSION_COOKIE not in r.headers.get("set-cookie", "")
        assert c.get("/").status_code == 200

    def test_forged_login_post_keeps_the_session(self, admin: tuple[TestClient, str]) -> None:
        """An auto-submitting form without the login token: 403 and the session is untouched."""
        c, _ = admin
        before = c.cookies[SESSION_COOKIE]
        r = c.post("/login", data={"username": "root", "password": "whatever"})
        assert r.status_code == 403
        assert "set-cookie" not in r.headers
        assert c.cookies[SESSION_COOKIE] == before
        assert c.get("/").status_code == 200

    def test_failed_login_keeps_the_session(self, site: Site) -> None:
        """Only a successful POST replaces a session: a wrong password leaves it alone."""
        with site.client() as c:
            login_page = c.get("/login")  # a login form left open in another tab
            nonce = c.cookies[LOGIN_COOKIE]
            login(c, "root")
            both = f"{SESSION_COOKIE}={c.cookies[SESSION_COOKIE]}; {LOGIN_COOKIE}={nonce}"
            r = c.post(
                "/login", data={"username": "olga", "password": "nope", "csrf": csrf_of(login_page.text)},
                headers={"Cookie": both},
            )
            assert r.status_code == 401
            assert SESSION_COOKIE not in r.headers.get("set-cookie", "")
            assert c.get("/").status_code == 200

    def test_session_token_is_not_a_login_token(self, admin: tuple[TestClient, str]) -> None:
        """The page's CSRF token does not log anyone in: the login form has its own."""
        c, token = admin
        r = c.post("/login", data={"username": "olga", "password": PASSWORDS["olga"], "csrf": token})
        assert r.status_code == 403

    def test_tossed_login_cookie_is_useless(self, site: Site) -> None:
        """A page on another port may set the login cookie, but cannot make its token."""
        with site.client() as c:
            nonce = "A" * 43
            c.cookies.set(LOGIN_COOKIE, nonce, path="/login")
            for guess in (nonce, "B" * 64):
                r = c.post("/login", data={"username": "olga", "password": PASSWORDS["olga"], "csrf": guess})
                assert r.status_code == 403
            assert c.get("/").status_code == 303

    def test_login_replaces_the_session_id(self, site: Site) -> None:
        """A successful login makes a new session id (no fixation) and ends the old one."""
        with site.client() as c:
            login_page = c.get("/login")
            nonce = c.cookies[LOGIN_COOKIE]
            login(c, "olga")
            old = c.cookies[SESSION_COOKIE]
            data = {"username": "root", "password": PASSWORDS["root"], "csrf": csrf_of(login_page.text)}
            r = c.post("/login", data=data, headers={"Cookie": f"{SESSION_COOKIE}={old}; {LOGIN_COOKIE}={nonce}"})
            assert r.status_code == 303
            new = r.cookies[SESSION_COOKIE]
            assert new != old
            assert _browser(c, new).get("/").status_code == 200
            assert _browser(c, old).get("/").status_code == 303
