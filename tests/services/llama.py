"""Session fixture ``llama_server``: a real llama.cpp ``llama-server`` on 127.0.0.1.

It loads a tiny random-weights GGUF that the fixture writes at test time with the ``gguf``
package (``_make_tiny_gguf.py``, from the team's local-LLM research notes). The binary is built by
``scripts/setup.d/40-llama-server.sh`` into ``/opt/hintline/llama-server-0.3.36/``; set
``HINTLINE_LLAMA_SERVER`` to use another one. The server runs with one thread (two OpenMP
threads spin-wait on a busy machine) and one slot, on a free loopback port.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

LLAMA_CPP_PYTHON_VERSION = "0.3.36"
DEFAULT_BINARY = Path(f"/opt/hintline/llama-server-{LLAMA_CPP_PYTHON_VERSION}/bin/llama-server")
MODEL_ALIAS = "tiny-random"
_START_TIMEOUT = 60.0


@dataclass(frozen=True)
class LlamaServer:
    """A running llama-server.

    Attributes:
        base_url: the OpenAI-compatible API root (``http://127.0.0.1:PORT/v1``).
        port: its port.
        model: the alias it serves the model under.
        model_path: the GGUF file it loaded.
        log: its stdout/stderr.
    """

    base_url: str
    port: int
    model: str
    model_path: Path
    log: Path


def free_port() -> int:
    """A loopback port nothing listens on (at the time of the call)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def llama_server_binary() -> Path:
    """The llama-server binary: ``$HINTLINE_LLAMA_SERVER`` or the cached build."""
    return Path(os.environ.get("HINTLINE_LLAMA_SERVER") or DEFAULT_BINARY)


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    """Start llama-server with a freshly generated tiny model; stop it after the session."""
    with start_llama_server(tmp_path_factory.mktemp("llama")) as server:
        yield server


@contextlib.contextmanager
def start_llama_server(workdir: Path, extra_args: Sequence[str] = ()) -> Iterator[LlamaServer]:
    """A llama-server of its own (``extra_args`` added to the fixture's command line)."""
    binary = llama_server_binary()
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        pytest.fail(
            f"llama-server not found at {binary}: run `bash scripts/setup.d/40-llama-server.sh` "
            "(or set HINTLINE_LLAMA_SERVER)"
        )
    from tests.services._make_tiny_gguf import main as make_tiny_gguf

    model = workdir / "tiny.gguf"
    make_tiny_gguf(str(model), 0)
    port = free_port()
    log = workdir / "llama-server.log"
    env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE"}
    command = [
        str(binary), "-m", str(model), "--alias", MODEL_ALIAS,
        "--host", "127.0.0.1", "--port", str(port),
        "-t", "1", "-c", "4096", "-np", "1", *extra_args,
    ]
    with log.open("wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        _wait_healthy(proc, port, log)
        yield LlamaServer(
            base_url=f"http://127.0.0.1:{port}/v1",
            port=port,
            model=MODEL_ALIAS,
            model_path=model,
            log=log,
        )
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _wait_healthy(proc: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + _START_TIMEOUT
    url = f"http://127.0.0.1:{port}/health"
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            tail = log.read_text(errors="replace")[-2000:]
            pytest.fail(f"llama-server exited with {proc.returncode}:\n{tail}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.1)
    proc.kill()
    pytest.fail(f"llama-server did not become healthy within {_START_TIMEOUT:g} s")
