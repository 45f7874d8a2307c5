"""A loopback HTTP server speaking the OpenAI chat-completions protocol with a fixed answer.

Only for controlling the answer (the anchored/guess label through the CLI); the request and
response path itself is proven against the real llama-server.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Stub:
    """The running stub: set ``content`` before a request; ``bodies`` holds the bytes received."""

    base_url: str
    content: str = '{"cause": "c", "next_step": "n", "frame": -1}'
    bodies: list[bytes] = field(default_factory=list)


@contextmanager
def openai_stub() -> Iterator[Stub]:
    """Serve ``POST /v1/chat/completions`` on a free loopback port."""
    stub = Stub(base_url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            stub.bodies.append(self.rfile.read(length))
            if self.path != "/v1/chat/completions":
                self.send_error(404)
                return
            body = json.dumps(
                {
                    "object": "chat.completion",
                    "model": "stub-model",
                    "choices": [
                        {"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": stub.content}}
                    ],
                    "usage": {"prompt_tokens": 120, "completion_tokens": 30},
                }
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            del format, args

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    stub.base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield stub
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
