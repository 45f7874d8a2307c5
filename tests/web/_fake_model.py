"""A loopback OpenAI-compatible server that holds each request until the test releases it.

The HTTP tests use it to keep a model call running for as long as they need (the browser test
uses the real llama-server); it answers like llama-server does: a chat completion with usage.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

MODEL = "fake-slow-model"


@dataclass
class HeldModel:
    """The running server: ``received`` is set when a request arrived, ``release`` lets it answer."""

    base_url: str
    received: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    calls: list[dict[str, object]] = field(default_factory=list)
    answer: dict[str, object] = field(
        default_factory=lambda: {"cause": "the key is missing", "next_step": "check the dict", "frame": 0}
    )
    content: str | None = None  # sent as is instead of ``answer`` (a cut-off reply)
    replies: list[str] = field(default_factory=list)  # sent as is, one per request, before ``content``
    finish_reason: str = "stop"
    usage: dict[str, int] = field(
        default_factory=lambda: {"prompt_tokens": 321, "completion_tokens": 45, "total_tokens": 366}
    )


@contextlib.contextmanager
def held_model() -> Iterator[HeldModel]:
    """Serve on a free loopback port; every request waits for ``release`` (at most 60 s)."""
    state: HeldModel

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            state.calls.append(body)
            state.received.set()
            state.release.wait(60)
            content = state.content if state.content is not None else json.dumps(state.answer)
            with contextlib.suppress(IndexError):
                content = state.replies.pop(0)
            reply = {
                "object": "chat.completion",
                "model": MODEL,
                "choices": [{
                    "index": 0,
                    "finish_reason": state.finish_reason,
                    "message": {
                        "role": "assistant",
                        "content": content,
                    },
                }],
                "usage": state.usage,
            }
            data = json.dumps(reply).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state = HeldModel(base_url=f"http://127.0.0.1:{server.server_address[1]}/v1")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        state.release.set()
        server.shutdown()
        server.server_close()


def model_config(tmp: Path, base_url: str, model: str, *, project_root: Path, timeout: int = 60,
                 max_tokens: int = 200) -> Path:
    """A configuration file naming one local model."""
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
timeout = {timeout}
max_tokens = {max_tokens}

[usage]
path = "{tmp / "usage.sqlite3"}"
""",
        encoding="utf-8",
    )
    return path
