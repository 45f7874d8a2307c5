"""The model path end to end against a real llama.cpp ``llama-server`` (tiny random model).

The tiny model's diagnosis is never checked: only the request, the schema passthrough, the
parsing and the failure modes. Timeouts and a server that is down use loopback sockets.
"""

from __future__ import annotations

import json
import socket
import sqlite3
import threading
from collections.abc import Iterator

import httpx
import pytest

from hintline import logs
from hintline.cli import main
from hintline.exceptions import (
    AnswerCutOff,
    ExplainerTimeout,
    ExplainerUnavailable,
    InvalidAnswer,
)
from hintline.explain import (
    Configuration,
    SqliteUsageStore,
    TrustZone,
    explain,
    parse_settings,
)
from hintline.explain.openai_compatible import OpenAICompatibleProvider
from tests.services.llama import free_port

from ._support import DB_PASSWORD, real_python_error, run, write_config

pytestmark = pytest.mark.live


def configuration(server, **changes) -> Configuration:
    """A configuration for the test server, read the way a user's file is read."""
    table = {"base_url": server.base_url, "model": server.model, "timeout": 30, **changes}
    return parse_settings({"explain": {"configurations": {"tiny": table}}}).get("tiny")


class Recorder:
    """Captures the exact bytes of every request (an httpx event hook)."""

    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []
        self.client = httpx.Client(event_hooks={"request": [self.requests.append]})

    @property
    def bytes(self) -> bytes:
        return b"".join(r.read() for r in self.requests)


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    rec = Recorder()
    yield rec
    rec.client.close()


def rows(store: SqliteUsageStore) -> list[tuple]:
    with sqlite3.connect(store.path) as conn:
        return conn.execute(
            "SELECT feature, configuration, model, zone, prompt_tokens, completion_tokens, "
            "duration_ms, outcome, entry_key FROM hintline_usage ORDER BY id"
        ).fetchall()


class TestRealServer:
    def test_request_shape_schema_and_no_secret_in_the_bytes(self, llama_server, recorder,
                                                             tmp_path):
        """A real error goes out as one POST with the JSON schema; the password in the message
        and the token in the project's path are not in the bytes; the reply is parsed and
        labelled; the call is recorded."""
        real = real_python_error(tmp_path)
        cfg = configuration(llama_server)
        assert cfg.zone is TrustZone.LOCAL  # loopback: the default zone
        store = SqliteUsageStore(tmp_path / "usage.sqlite3")
        result = explain(real.entry, configuration=cfg, project_root=real.project,
                         provider=OpenAICompatibleProvider(cfg, client=recorder.client),
                         usage=store)

        (request,) = recorder.requests
        assert request.method == "POST"
        assert str(request.url) == f"{llama_server.base_url}/chat/completions"
        sent = recorder.bytes
        assert DB_PASSWORD.encode() not in sent
        assert b"ghp_R3alLookingTok3n" not in sent
        body = json.loads(sent)
        assert body["model"] == llama_server.model
        assert body["stream"] is False
        assert [m["role"] for m in body["messages"]] == ["system", "user"]
        user = body["messages"][1]["content"]
        assert "JSONDecodeError" in user
        assert "#3 app/orders.py:5 in parse_order" in user
        assert "order import failed for postgresql://" in user
        assert "return json.loads(raw)" not in user  # no source line
        fmt = body["response_format"]
        assert fmt["type"] == "json_schema"
        assert fmt["json_schema"]["name"] == "exception_hint"
        count = len(real.entry.trace.exceptions[0].frames)
        assert fmt["json_schema"]["schema"]["properties"]["frame"]["enum"] == list(
            range(-1, count)
        )

        # The server honoured the schema: a random model produced a conforming object.
        assert -1 <= result.frame < count
        assert 0 < len(result.cause) <= 200
        assert result.model == llama_server.model
        assert result.prompt_tokens
        assert result.completion_tokens
        expected = "anchored" if result.anchored else "guess"
        assert rows(store) == [(
            "exception_hint", "tiny", llama_server.model, "local", result.prompt_tokens,
            result.completion_tokens, result.duration_ms, expected, "real-1",
        )]

    def test_withheld_message_is_not_in_the_bytes(self, llama_server, recorder, tmp_path):
        """With the zone set to private_hosted, the message never reaches the server."""
        real = real_python_error(tmp_path)
        cfg = configuration(llama_server, zone="private_hosted")
        result = explain(real.entry, configuration=cfg, project_root=real.project,
                         provider=OpenAICompatibleProvider(cfg, client=recorder.client),
                         usage=SqliteUsageStore(tmp_path / "u.sqlite3"))
        assert b"order import failed" not in recorder.bytes
        assert b"postgresql" not in recorder.bytes
        assert result.message_withheld is True

    def test_small_budget_still_completes(self, llama_server, tmp_path):
        """With max_tokens = 200 the schema's string limits shrink, so the answer completes."""
        real = real_python_error(tmp_path)
        result = explain(real.entry, configuration=configuration(llama_server, max_tokens=200),
                         project_root=real.project,
                         usage=SqliteUsageStore(tmp_path / "usage.sqlite3"))
        assert result.completion_tokens is not None
        assert result.completion_tokens <= 200
        assert len(result.cause) <= 68

    def test_cut_off_reply(self, llama_server, tmp_path):
        """A small max_tokens stops the answer mid-JSON: a clear error, outcome cut_off."""
        real = real_python_error(tmp_path)
        store = SqliteUsageStore(tmp_path / "usage.sqlite3")
        with pytest.raises(AnswerCutOff, match="cut off at max_tokens=6"):
            explain(real.entry, configuration=configuration(llama_server, max_tokens=6),
                    project_root=real.project, usage=store)
        (row,) = rows(store)
        assert row[7] == "cut_off"
        assert row[5] == 6  # the server reported the tokens it generated

    def test_non_json_reply(self, llama_server, tmp_path):
        """Without a schema the random model writes garbage: reported as not JSON."""
        real = real_python_error(tmp_path)
        store = SqliteUsageStore(tmp_path / "usage.sqlite3")
        cfg = configuration(llama_server, response_format="none", max_tokens=40)
        with pytest.raises(InvalidAnswer, match="the answer is not JSON"):
            explain(real.entry, configuration=cfg, project_root=real.project, usage=store)
        assert rows(store)[0][7] == "invalid_answer"


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A loopback server that accepts connections and never answers."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        sock.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = sock.accept()
                held.append(conn)
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield sock.getsockname()[1]
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    sock.close()


class TestUnreachable:
    def test_timeout(self, silent_server, tmp_path):
        """A server that never answers: ExplainerTimeout (also a TimeoutError), outcome timeout."""
        real = real_python_error(tmp_path)
        cfg = Configuration(name="slow", base_url=f"http://127.0.0.1:{silent_server}/v1",
                            timeout=0.5)
        store = SqliteUsageStore(tmp_path / "usage.sqlite3")
        with pytest.raises(ExplainerTimeout, match=r"no answer from .* within 0.5 s") as caught:
            explain(real.entry, configuration=cfg, project_root=real.project, usage=store)
        assert isinstance(caught.value, TimeoutError)
        assert isinstance(caught.value.__cause__, httpx.TimeoutException)
        assert rows(store)[0][7] == "timeout"

    def test_server_down(self, tmp_path):
        """Nothing listens: ExplainerUnavailable raised from the httpx error, outcome unavailable."""
        real = real_python_error(tmp_path)
        port = free_port()
        cfg = Configuration(name="down", base_url=f"http://127.0.0.1:{port}/v1", timeout=5)
        store = SqliteUsageStore(tmp_path / "usage.sqlite3")
        with pytest.raises(ExplainerUnavailable, match=f"cannot reach http://127.0.0.1:{port}/v1")\
                as caught:
            explain(real.entry, configuration=cfg, project_root=real.project, usage=store)
        assert not isinstance(caught.value, TimeoutError)
        assert isinstance(caught.value.__cause__, httpx.ConnectError)
        assert rows(store)[0][7] == "unavailable"

    def test_http_error_is_unavailable(self, llama_server, tmp_path):
        """A wrong path on a real server (HTTP 404) is reported with its status."""
        real = real_python_error(tmp_path)
        cfg = Configuration(name="wrong", base_url=f"http://127.0.0.1:{llama_server.port}/nope")
        with pytest.raises(ExplainerUnavailable, match="answered HTTP 404"):
            explain(real.entry, configuration=cfg, project_root=real.project,
                    usage=SqliteUsageStore(tmp_path / "u.sqlite3"))


class TestCommandAgainstLlamaServer:
    def test_explain_prints_entry_and_labelled_hint(self, tmp_path, llama_server, capsys,
                                                    monkeypatch):
        """End to end: the real log, the real server; the entry is scrubbed, the hint labelled,
        the call recorded and shown by `hintline usage`."""
        monkeypatch.delenv("HINTLINE_CONFIG", raising=False)
        real = real_python_error(tmp_path)
        config = write_config(tmp_path, llama_server.base_url)
        assert main(run(real, config)) == 0
        out = capsys.readouterr().out
        key = logs.read([str(real.log)], limit=1)[0].key
        assert out.startswith(f"Entry 0 · key {key} · ")
        assert "ERROR shop.orders" in out
        assert "order import failed for postgresql://" in out
        assert DB_PASSWORD not in out
        assert ("Hint (anchored in the project's code): " in out) != (
            "Guess (not anchored in the project's code): " in out
        )
        assert "  Cause: " in out
        assert "  Next step: " in out
        assert f"(test · {llama_server.model} · zone local · " in out
        (row,) = SqliteUsageStore(tmp_path / "usage.sqlite3").recent()
        assert (row.configuration, row.model, row.feature, row.entry_key) == (
            "test", llama_server.model, "exception_hint", key
        )
        assert main(["usage", "--config", str(config)]) == 0
        assert "exception_hint" in capsys.readouterr().out


class TestContextWindow:
    """A full context window is told apart from max_tokens (issue 18, point 10), on the real
    server: llama-server stops with finish_reason "length" when prompt and answer fill its
    window, and reports the token counts that tell the two apart."""

    def test_window_full_is_not_called_max_tokens(self, llama_server, tmp_path):
        from tests.services.llama import start_llama_server

        real = real_python_error(tmp_path)
        store = SqliteUsageStore(tmp_path / "usage.sqlite3")
        sized = explain(real.entry, configuration=configuration(llama_server, max_tokens=200),
                        project_root=real.project, usage=store)
        assert sized.prompt_tokens is not None
        window = sized.prompt_tokens + 24  # room for a few tokens of answer, not a whole one
        workdir = tmp_path / "small"
        workdir.mkdir()
        with start_llama_server(workdir, ["-c", str(window)]) as small, \
                pytest.raises(AnswerCutOff) as caught:
            explain(real.entry, configuration=configuration(small, max_tokens=512),
                    project_root=real.project, usage=store)
        text = str(caught.value)
        assert "context window is full" in text
        assert f"the {sized.prompt_tokens}-token request" in text
        assert "Raising max_tokens will not help" in text
        assert "cut off at max_tokens" not in text
        assert rows(store)[-1][7] == "cut_off"

    def test_request_longer_than_the_window(self, llama_server, tmp_path):
        """A request the window cannot hold at all: the server's 400 is said plainly."""
        from tests.services.llama import start_llama_server

        real = real_python_error(tmp_path)
        workdir = tmp_path / "tiny-window"
        workdir.mkdir()
        fits = "does not fit the model server's context window"
        with start_llama_server(workdir, ["-c", "256"]) as small, \
                pytest.raises(ExplainerUnavailable, match=fits) as caught:  # 256: llama-server's least
            explain(real.entry, configuration=configuration(small, max_tokens=512),
                    project_root=real.project, usage=SqliteUsageStore(tmp_path / "usage.sqlite3"))
        assert "the window holds 256" in str(caught.value)
