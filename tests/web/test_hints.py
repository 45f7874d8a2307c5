"""Hints never freeze the server, the page says what the CLI says, one unreadable log does not
empty the list (issue 18, points 2, 11 and 12)."""

from __future__ import annotations

import dataclasses
import re
import threading
import time
from pathlib import Path

import httpx

from tests.web._fake_model import MODEL, held_model, model_config
from tests.web.conftest import PASSWORDS, Site, ask, csrf_of, login, served


def _keys(html: str) -> list[str]:
    return re.findall(r'name="key" value="([^"]+)"', html)


def _login(c: httpx.Client, name: str = "root") -> str:
    token = csrf_of(c.get("/login").text)
    r = c.post("/login", data={"username": name, "password": PASSWORDS[name], "csrf": token})
    assert r.status_code == 303, r.text
    return csrf_of(c.get("/").text)


class TestNeverFreezes:
    def test_health_answers_while_the_model_thinks(self, site: Site, tmp_path: Path) -> None:
        """A model call in progress leaves /healthz, the list and logins answering (real uvicorn)."""
        with held_model() as model:
            config = model_config(tmp_path, model.base_url, MODEL, project_root=Path(__file__).parents[2])
            settings = dataclasses.replace(site.settings, config_path=str(config))
            with served(settings) as base, httpx.Client(base_url=base, timeout=10) as c:
                token = _login(c)
                key = _keys(c.get("/").text)[-1]  # the oldest: "order lookup failed"
                r = c.post("/hint", data={"csrf": token, "key": key})
                assert r.status_code == 303
                job = r.headers["location"]
                assert model.received.wait(10), "the model was never asked"
                # the model holds its answer: everything else still answers at once
                assert httpx.get(base + "/healthz", timeout=3).text == "ok"
                assert c.get("/", timeout=3).status_code == 200
                with httpx.Client(base_url=base, timeout=5) as other:
                    _login(other, "olga")
                page = c.get(job)
                assert 'http-equiv="refresh"' in page.text
                assert "A hint is being made" in page.text
                assert "order lookup failed" in page.text
                assert "<script" not in page.text
                # the same entry asked again joins the running call
                again = c.post("/hint", data={"csrf": token, "key": key})
                assert again.headers["location"] == job
                model.release.set()
                deadline = time.monotonic() + 30
                while 'http-equiv="refresh"' in page.text and time.monotonic() < deadline:
                    time.sleep(0.1)
                    page = c.get(job)
                assert 'http-equiv="refresh"' not in page.text
                assert "cause" in page.text
                assert "the key is missing" in page.text
                assert len(model.calls) == 1

    def test_logins_hash_off_the_event_loop(self, site: Site) -> None:
        """Eight logins hashing at once leave /healthz answering before they all finish."""
        with served(site.settings) as base:
            clients = [httpx.Client(base_url=base, timeout=60) for _ in range(8)]
            tokens = [csrf_of(c.get("/login").text) for c in clients]
            results: list[int] = []
            started = threading.Barrier(9)

            def attempt(c: httpx.Client, token: str) -> None:
                started.wait()
                data = {"username": "olga", "password": PASSWORDS["olga"], "csrf": token}
                results.append(c.post("/login", data=data).status_code)

            threads = [threading.Thread(target=attempt, args=pair) for pair in zip(clients, tokens, strict=False)]
            for t in threads:
                t.start()
            started.wait()
            health = httpx.get(base + "/healthz", timeout=5)
            for t in threads:
                t.join()
            for c in clients:
                c.close()
            assert health.text == "ok"
            assert results == [303] * 8

    def test_a_burst_is_bounded(self, site: Site, tmp_path: Path) -> None:
        """Beyond the pending limit the page says it is busy (503) instead of queueing forever."""
        with held_model() as model:
            config = model_config(tmp_path, model.base_url, MODEL, project_root=tmp_path)
            with site.client(config_path=str(config), hint_workers=1, max_pending_hints=2) as c:
                token = login(c, "root")
                keys = _keys(c.get("/").text)
                assert c.post("/hint", data={"csrf": token, "key": keys[0]}).status_code == 303
                assert c.post("/hint", data={"csrf": token, "key": keys[1]}).status_code == 303
                busy = c.post("/hint", data={"csrf": token, "key": keys[2]})
                assert busy.status_code == 503
                assert "Too many hints are being made" in busy.text
                model.release.set()


class TestPageSaysWhatTheCliSays:
    def test_reason_model_zone_duration_tokens(self, site: Site, tmp_path: Path) -> None:
        """The answer shows the guess's reason, the model, the zone, the duration and the tokens."""
        with held_model() as model:
            model.release.set()
            model.answer = {"cause": "c", "next_step": "n", "frame": 7}
            config = model_config(tmp_path, model.base_url, MODEL, project_root=tmp_path)
            with site.client(config_path=str(config)) as c:
                token = login(c, "root")
                key = _keys(c.get("/", params={"q": "order lookup"}).text)[0]
                page = ask(c, token, key).text
        assert "Guess — not anchored in your code" in page
        assert re.search(r"cited frame #7, but only \d+ frames? (?:was|were) sent", page), page
        details = re.search(r'<p class="details">\((.*?)\)</p>', page)
        assert details is not None, page
        assert re.fullmatch(rf"local · {MODEL} · zone local · \d+ ms · 321\+45 tokens", details.group(1))

    def test_job_page_belongs_to_its_session(self, site: Site, tmp_path: Path) -> None:
        """Another administrator's session cannot read a hint it did not ask for."""
        with held_model() as model:
            model.release.set()
            config = model_config(tmp_path, model.base_url, MODEL, project_root=tmp_path)
            with site.client(config_path=str(config)) as c, site.client(config_path=str(config)) as other:
                token = login(c, "root")
                key = _keys(c.get("/").text)[0]
                where = c.post("/hint", data={"csrf": token, "key": key}).headers["location"]
                login(other, "root")
                assert other.get(where).status_code == 404
                assert c.get(where).status_code == 200


class TestUnreadableLog:
    def test_missing_log_is_a_warning_not_an_empty_page(self, site: Site, tmp_path: Path) -> None:
        """`serve app.log /missing.log`: the readable log is listed, the other named as a warning."""
        missing = tmp_path / "missing.log"
        with site.client(log_paths=(str(site.log), str(missing))) as c:
            login(c, "root")
            html = c.get("/").text
        assert html.count('class="entry"') == 3
        assert re.search(rf'class="warning"[^>]*>cannot read {re.escape(str(missing))}: no such file', html)

    def test_a_log_that_is_not_a_log(self, site: Site, tmp_path: Path) -> None:
        """A binary file among the logs: named as a warning, the others listed."""
        binary = tmp_path / "core.log"
        binary.write_bytes(bytes(range(256)) * 4)
        with site.client(log_paths=(str(binary), str(site.log))) as c:
            login(c, "root")
            html = c.get("/").text
        assert html.count('class="entry"') == 3
        assert f"cannot read {binary}: binary data, not a log" in html

    def test_only_unreadable_logs(self, site: Site, tmp_path: Path) -> None:
        """No log readable: the page says so instead of an empty list."""
        with site.client(log_paths=(str(tmp_path / "a.log"),)) as c:
            login(c, "root")
            html = c.get("/").text
        assert "No log can be read" in html
        assert "No error entries" not in html

    def test_serve_warns_at_start(self, site: Site, tmp_path: Path) -> None:
        """The command names the unreadable log at start-up and still serves the others."""
        import subprocess
        import sys

        from tests.services.llama import free_port

        missing = tmp_path / "missing.log"
        proc = subprocess.Popen(
            [sys.executable, "-m", "hintline", "serve", str(site.log), str(missing), "--users",
             str(site.users), "--port", str(free_port())],
            stderr=subprocess.PIPE, text=True,
        )
        try:
            assert proc.stderr is not None
            lines = []
            while True:
                line = proc.stderr.readline()
                lines.append(line)
                if not line or "serving error hints" in line:
                    break
        finally:
            proc.terminate()
            proc.wait(timeout=20)
        text = "".join(lines)
        assert f"hintline: warning: cannot read {missing}: no such file" in text
        assert "serving error hints" in text


class TestExplainOnThePage:
    """Points 8 to 10 seen through the page: what the model receives and what the page says."""

    TYPO3_LOG = Path(__file__).parents[1] / "explain" / "fixtures" / "typo3_handler.log"

    def _ask_about(self, site: Site, tmp_path: Path, log: Path, search: str, model: object) -> str:
        config = model_config(tmp_path, model.base_url, MODEL, project_root=tmp_path)  # type: ignore[attr-defined]
        with site.client(config_path=str(config), log_paths=(str(log),)) as c:
            token = login(c, "root")
            keys = _keys(c.get("/", params={"q": search}).text)
            assert keys, search
            return str(ask(c, token, keys[0]).text)

    def test_typo3_handler_entry_is_sent_with_its_class_and_throw_site(self, site: Site, tmp_path: Path) -> None:
        """The logged class (not the one the message quotes) and the throw site reach the model."""
        with held_model() as model:
            model.release.set()
            page = self._ask_about(site, tmp_path, self.TYPO3_LOG, "could not find driver", model)
        user = model.calls[0]["messages"][1]["content"]  # type: ignore[index]
        assert "Exception class: RuntimeException" in user
        assert "ConnectionException" not in user.split("\n")[0]
        assert "#0 /tmp/hintline-gen/typo3/typo3_exception_handler.php:104" in user
        assert '<code class="exc">RuntimeException</code>' in page

    def test_php_frames_reach_the_model_with_their_class(self, site: Site, tmp_path: Path) -> None:
        """A TYPO3 entry logged with its trace: frames go as ``Class->method``."""
        with held_model() as model:
            model.release.set()
            self._ask_about(site, tmp_path, self.TYPO3_LOG, "Page 43", model)
        user = model.calls[0]["messages"][1]["content"]  # type: ignore[index]
        assert "in Vendor\\Shop\\Controller\\PageController->show" in user

    def test_full_context_window_is_named(self, site: Site, tmp_path: Path) -> None:
        """A reply stopped for length before max_tokens: the page names the context window."""
        with held_model() as model:
            model.release.set()
            model.content, model.finish_reason = '{"cause": "the ke', "length"
            model.usage = {"prompt_tokens": 4049, "completion_tokens": 47, "total_tokens": 4096}
            page = self._ask_about(site, tmp_path, site.log, "order lookup", model)
        assert "context window is full" in page
        assert "Raising max_tokens will not help" in page
        assert "cut off at max_tokens" not in page
