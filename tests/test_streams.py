"""Issue 14 §5: text and streams. Valid Unicode out, bounded memory and time on any input,
a one-line error when the output cannot be written, a prompt Ctrl-C, nothing lost or hidden.

Every command runs as a user runs it (``python -m hintline``), on real files, FIFOs, devices
and signals.
"""

from __future__ import annotations

import contextlib
import gzip
import importlib.util
import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hintline import clean
from hintline.scrub import _stream as scrub_stream_module
from hintline.scrub import scrub, scrub_stream
from hintline.traces import parse_trace

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}", "PYTHONIOENCODING": "utf-8"}
PYTHON_TRACE = (
    "Traceback (most recent call last):\n"
    '  File "/srv/app/main.py", line 3, in <module>\n'
    "    run()\n"
    "ValueError: bad input\n"
)


def _limit_memory(megabytes: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))


def hintline(*args: str, timeout: float = 120, memory_mb: int | None = None, **kw: object) -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m hintline ARGS`` (optionally with an address-space limit)."""
    preexec = (lambda: _limit_memory(memory_mb)) if memory_mb else None
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "hintline", *args],
        check=False, capture_output=True, env=ENV, timeout=timeout, preexec_fn=preexec, **kw,
    )


def _json_logged_trace() -> str:
    """A real traceback with an emoji, logged as JSON by ``json.dumps`` (ASCII escapes: the
    emoji becomes the surrogate pair ``\\ud83d\\ude00``)."""
    try:
        raise ValueError("bad name 😀 for user")
    except ValueError:
        text = traceback.format_exc()
    return json.dumps({"level": "error", "exc_info": text}) + "\n"


class TestSurrogates:
    def test_unescaping_pairs_surrogates_and_replaces_lone_ones(self) -> None:
        logged = json.dumps({"exc_info": PYTHON_TRACE.replace("bad input", "a 😀 b \udc00 c")})
        trace = parse_trace(logged)
        assert trace.root_cause is not None
        assert trace.root_cause.message.startswith("a 😀 b \ufffd c")

    def test_unescaping_a_nul_gives_u_fffd(self) -> None:
        """``\\u0000`` (``json.dumps`` of a NUL) becomes U+FFFD, as the log readers decode a NUL
        byte; escaped backslashes stay single backslashes. Before: a backslash."""
        message = "bad key 'a\x00b' in C:\\data\\users\\x.json"
        logged = json.dumps({"exc_info": PYTHON_TRACE.replace("bad input", message)})
        assert "\\u0000" in logged
        trace = parse_trace(logged)
        assert trace.root_cause is not None
        assert trace.root_cause.message.startswith("bad key 'a\ufffdb' in C:\\data\\users\\x.json")

    def test_trace_command_prints_a_json_logged_trace(self, tmp_path: Path) -> None:
        """Before: UnicodeEncodeError (two lone surrogates printed)."""
        path = tmp_path / "app.jsonl"
        path.write_text(_json_logged_trace(), encoding="utf-8")
        for args in (("trace", str(path)), ("trace", "--json", str(path))):
            r = hintline(*args)
            assert r.returncode == 0, r.stderr
            assert b"Traceback" not in r.stderr
            assert "😀" in r.stdout.decode("utf-8")

    def test_clean_of_a_json_logged_trace_is_valid_utf8(self) -> None:
        hint = clean(_json_logged_trace().replace("ValueError", "RuntimeError"))
        hint.text.encode("utf-8")
        assert "😀" in hint.text

    @settings(max_examples=300, deadline=None)
    @given(
        st.lists(
            st.sampled_from(["\\ud83d", "\\ude00", "\\u00e9", "\\n", "\\\\", "x", " ", "Error: ", "\\u"]),
            max_size=30,
        )
    )
    def test_clean_always_returns_valid_utf8(self, parts: list[str]) -> None:
        text = '{"exc_info": "Traceback (most recent call last):\\n  File \\"a.py\\", line 1, in f\\nValueError: ' + "".join(parts) + '"}'
        hint = clean(text)
        hint.text.encode("utf-8")
        if hint.key is not None:
            hint.key.encode("utf-8")


class TestScrubStream:
    @pytest.fixture
    def small_blocks(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(scrub_stream_module, "BLOCK", 64)
        monkeypatch.setattr(scrub_stream_module, "HARD_LIMIT", 4096)

    TEXTS = (
        "x" * 50 + "\nValueError: could not load key:\n-----BEGIN RSA PRIVATE KEY-----\n"
        + "\n".join(["MIIEowIBAAKCAQEAx7f3q2Z9lE0Kp4xBabcdefghijklmnopqrstuvwxyz0123"] * 6)
        + "\n-----END RSA PRIVATE KEY-----\nnext line\n",
        "a" * 60 + '\n{\n  "user": "app",\n  "password":\n    "S3cretPw1"\n}\n' + "tail\n" * 20,
        "b" * 60 + "\nAuthorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkw\n"
        "    IiwibmFtZSI6IkpvaG4gRG9lIn0.SflKxwRJSMeKKF2QT4fw\n" + "more\n" * 20,
        "c" * 60 + "\nform=ImmutableMultiDict([('user', 'app'), ('password',\n 'S3cretPw1')])\n" + "z\n" * 30,
        "d" * 60 + "\ndb:\n  password: |-  # rotated\n    S3cretPw1\n" + "y\n" * 30,
        "e" * 60 + "\n{'user': 'app', 'password': 'Zm9v\nYmFyYmF6cXV4', 'retries': 3}\n" + "w\n" * 30,
    )

    @pytest.mark.parametrize("text", TEXTS)
    def test_blocks_end_only_where_no_secret_goes_on(self, small_blocks: None, text: str) -> None:
        """A secret across a block boundary is masked as in one whole pass."""
        pieces = [text[i : i + 7] for i in range(0, len(text), 7)]
        assert "".join(scrub_stream(pieces)) == scrub(text)

    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.sampled_from((*TEXTS, "plain line\n", "\n", "token: abc\n", "q" * 90)), max_size=8))
    def test_stream_equals_whole(self, parts: list[str]) -> None:
        text = "".join(parts)
        old = scrub_stream_module.BLOCK, scrub_stream_module.HARD_LIMIT
        scrub_stream_module.BLOCK, scrub_stream_module.HARD_LIMIT = 64, 4096
        try:
            assert "".join(scrub_stream([text[i : i + 13] for i in range(0, len(text), 13)])) == scrub(text)
        finally:
            scrub_stream_module.BLOCK, scrub_stream_module.HARD_LIMIT = old

    def test_scrub_command_streams_dev_zero(self) -> None:
        """Before: the whole of /dev/zero read into memory (MemoryError). Now the output flows
        while memory stays bounded; the reader stops after 2 MB."""
        proc = subprocess.Popen(
            [sys.executable, "-m", "hintline", "scrub", "/dev/zero"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV,
            preexec_fn=lambda: _limit_memory(1500),  # noqa: PLW1509 - no threads here
        )
        assert proc.stdout is not None
        assert proc.stderr is not None
        got = 0
        while got < 2 << 20:
            block = proc.stdout.read(1 << 16)
            assert block, proc.stderr.read().decode()
            got += len(block)
        proc.stdout.close()
        assert proc.wait(timeout=60) == 0
        assert b"Traceback" not in proc.stderr.read()

    def test_scrub_command_masks_a_secret_across_blocks(self, tmp_path: Path) -> None:
        """A file larger than a block, with secrets everywhere, comes out as one whole pass."""
        line = "2024-05-01 12:00:00 INFO request served in 12 ms\n"
        secret = 'payload {\n  "password":\n    "S3cretPw1"\n}\n'
        text = (line * 20_000 + secret) * 3
        path = tmp_path / "big.log"
        path.write_text(text, encoding="utf-8")
        r = hintline("scrub", str(path))
        assert r.returncode == 0
        assert r.stdout.decode() == scrub(text)
        assert b"S3cretPw1" not in r.stdout


class TestEndlessInputs:
    def test_clean_dev_zero_returns_and_says_so(self) -> None:
        """Before: never returned."""
        r = hintline("clean", "/dev/zero", timeout=120, memory_mb=1500)
        assert r.returncode == 0
        assert r.stdout.startswith(b"Hint: ")
        assert b"stopped reading /dev/zero after 256 MiB" in r.stderr
        assert b"Traceback" not in r.stderr

    def test_trace_dev_zero_returns_in_bounded_memory(self) -> None:
        """Before: MemoryError."""
        r = hintline("trace", "/dev/zero", timeout=180, memory_mb=1500)
        assert r.returncode == 1
        assert b"stopped reading /dev/zero" in r.stderr
        assert b"Traceback" not in r.stderr

    def test_trace_finds_a_trace_past_the_first_window(self, tmp_path: Path) -> None:
        """A trace after 20 MB of other lines is found, in windows."""
        path = tmp_path / "long.log"
        with path.open("w", encoding="utf-8") as fh:
            fh.write("2024-05-01 12:00:00 INFO nothing happened here at all\n" * 400_000)
            fh.write(PYTHON_TRACE)
        r = hintline("trace", str(path), timeout=300)
        assert r.returncode == 0, r.stderr
        assert b"root cause: ValueError: bad input" in r.stdout

    def test_trace_across_a_window_edge_comes_out_whole(self, tmp_path: Path) -> None:
        """A real 2 MB traceback (a mutual recursion 24,000 calls deep, printed by the
        interpreter) that starts before the 1 MiB overlap of the first 8 MiB window and ends
        past the window: every frame and the exception line are there. Before: the frames up to
        the window's end, without the exception."""
        script = tmp_path / "deep.py"
        script.write_text(
            "import sys\n"
            "sys.setrecursionlimit(60000)\n"
            "sys.tracebacklimit = 100000  # the interpreter prints 1,000 frames by default\n"
            "def ping(n):\n    return pong(n - 1) if n else fail()\n"
            "def pong(n):\n    return ping(n - 1)\n"
            "def fail():\n    raise ValueError('deep failure at the bottom')\n"
            "ping(24000)\n"
        )
        trace = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                               timeout=120, check=False).stderr
        assert trace.startswith("Traceback"), trace[-300:]
        assert len(trace) > 2_000_000
        alone = parse_trace(trace)
        path = tmp_path / "app.log"
        pad = "2024-05-01 12:00:00 INFO nothing happened here at all\n"
        with path.open("w", encoding="utf-8") as fh:
            fh.write(pad * ((6 << 20) // len(pad)))  # the trace starts at 6 MiB, ends past 8
            fh.write(trace)
            fh.write(pad * 100_000)
        r = hintline("trace", "--json", "--limit", "0", str(path), timeout=300)
        assert r.returncode == 0, r.stderr
        out = json.loads(r.stdout)
        assert out["root_cause"] == {"type": "ValueError", "message": "deep failure at the bottom"}
        assert out["exceptions"] == alone.to_dict()["exceptions"]
        (exc,) = alone.exceptions
        assert len(exc.frames) + exc.omitted == 24003  # <module>, 24,001 calls, fail

    def test_clean_reads_a_large_file_at_its_ends(self, tmp_path: Path) -> None:
        """The hint of a large regular file is the same as reading all of it, from its ends."""
        from hintline.cleaner.bound import read_bounded
        from hintline.cli._stream import read_ends

        path = tmp_path / "big.log"
        with path.open("wb") as fh:
            fh.write("é start\n".encode() * 10_000)
            fh.write(b"x" * 3_000_001)
            fh.write(PYTHON_TRACE.encode() + "ü end\n".encode() * 5_000)
        with path.open("rb") as fh:
            whole = read_bounded(fh)
        with path.open("rb") as fh:
            assert read_ends(fh, str(path)) == whole

    def test_logs_reads_a_fifo_after_its_writer_closed(self, tmp_path: Path) -> None:
        """Before: a second open of the FIFO waited for a writer that had gone."""
        fifo = tmp_path / "app.log"
        os.mkfifo(fifo)
        record = (
            "2024-05-01 12:00:00,000 ERROR app: import failed\n" + PYTHON_TRACE
        ).encode()

        def write() -> None:
            with open(fifo, "wb") as fh:
                fh.write(record)

        writer = threading.Thread(target=write)
        writer.start()
        r = hintline("logs", "--json", str(fifo), timeout=60)
        writer.join(timeout=10)
        assert r.returncode == 0, r.stderr
        (entry,) = [json.loads(line) for line in r.stdout.splitlines()]
        assert entry["message"] == "import failed"
        assert entry["source"] == str(fifo)  # its own name, not the copy's

    def test_corrupt_rotated_gz_is_reported(self, tmp_path: Path) -> None:
        """Before: a truncated rotated file ended silently."""
        (tmp_path / "app.log").write_text("2024-05-02 12:00:00,000 ERROR app: newest\n")
        data = gzip.compress(b"2024-05-01 12:00:00,000 ERROR app: old\n" * 5000)
        (tmp_path / "app.log.2.gz").write_bytes(data[: len(data) // 2])
        r = hintline("logs", str(tmp_path / "app.log"))
        assert r.returncode == 0
        assert b"newest" in r.stdout
        assert b"app.log.2.gz: corrupt or truncated gzip data" in r.stderr
        assert r.stderr.count(b"\n") == 1


def _salvageable(data: bytes) -> bytes:
    """What a gzip stream decompresses to up to its first bad byte (fed one byte at a time)."""
    import zlib

    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    out = []
    for i in range(len(data)):
        try:
            out.append(d.decompress(data[i : i + 1]))
        except zlib.error:
            break
    return b"".join(out)


@pytest.mark.parametrize("damage", ["corrupt", "truncated"])
def test_gz_keeps_everything_before_the_break(tmp_path: Path, damage: str, caplog: pytest.LogCaptureFixture) -> None:
    """Every line decompressed before the corruption or the cut is read, one warning says the
    rest is skipped. Before: the block being decompressed and the reader's buffer were lost
    (here 53 lines of the corrupt file)."""
    from hintline import logs

    lines = [f"2024-05-01 12:00:00,000 ERROR app: failed order {i} {'%x' % (i * 7919 % 1000003) * 5}\n"
             for i in range(40_000)]
    data = bytearray(gzip.compress("".join(lines).encode()))
    at = int(len(data) * 0.6)
    if damage == "corrupt":
        for j in range(at, at + 64):
            data[j] ^= 0x5A
    else:
        del data[at:]
    (tmp_path / "app.log").write_text("2024-05-02 12:00:00,000 ERROR app: newest\n")
    (tmp_path / "app.log.1.gz").write_bytes(bytes(data))
    original = "".join(lines)
    kept = _salvageable(bytes(data)).decode(errors="replace")
    same = next((i for i, (a, b) in enumerate(zip(kept, original, strict=False)) if a != b), len(kept))
    genuine = original[: original.rfind("\n", 0, same) + 1].splitlines()  # before the first bad byte
    assert 1000 < len(genuine) < len(lines)
    with caplog.at_level("WARNING", logger="hintline.logs"):
        read = {e.message for e in logs.read([str(tmp_path / "app.log")], limit=10**6)}
    missing = {line.split("app: ", 1)[1] for line in genuine} - read
    assert not missing, f"{len(missing)} lines lost, e.g. {sorted(missing)[:2]}"
    warnings = [r.getMessage() for r in caplog.records if "gzip" in r.getMessage()]
    assert len(warnings) == 1
    assert warnings[0].startswith(f"hintline: {tmp_path / 'app.log.1.gz'}: corrupt or truncated gzip data (")
    assert warnings[0].endswith("); the rest is skipped")


def _commands(tmp: Path) -> dict[str, list[str]]:
    err = tmp / "err.txt"
    err.write_text(PYTHON_TRACE)
    log = tmp / "app.log"
    log.write_text("2024-05-01 12:00:00,000 ERROR app: import failed\n" + PYTHON_TRACE)
    config = tmp / "hintline.toml"
    config.write_text(f'[usage]\npath = "{tmp / "usage.sqlite3"}"\n')
    commands = {
        "clean": ["clean", str(err)],
        "rules": ["rules"],
        "scrub": ["scrub", str(err)],
        "trace": ["trace", str(err)],
        "logs": ["logs", str(log)],
        "explain": ["explain", "--config", str(config), str(log)],
        "usage": ["usage", "--config", str(config)],
        "scan": ["scan", str(log), "-j", "1", "--state", str(tmp / "state")],
        "--help": ["--help"],
        "--version": ["--version"],
    }
    if importlib.util.find_spec("argon2"):
        commands["users"] = ["users", "--users", str(tmp / "users.toml"), "add", "olga", "--password-stdin"]
    return commands


# serve and mcp are servers, tested in TestServers: serve's output is its page, so its standard
# output does not matter; mcp answers on standard output, so it cannot go on without it
COMMANDS = [
    "clean", "rules", "scrub", "trace", "logs", "explain", "usage", "scan", "users", "--help",
    "--version",
]


class TestOutputErrors:
    @pytest.mark.parametrize("name", COMMANDS)
    @pytest.mark.parametrize("target", ["closed", "full"])
    def test_one_line_and_non_zero(self, tmp_path: Path, name: str, target: str) -> None:
        """stdout closed (``>&-``) or a full disk (``>/dev/full``): one line on stderr,
        status 74, no traceback. Before: AttributeError or OSError tracebacks."""
        commands = _commands(tmp_path)
        if name not in commands:
            pytest.skip("the web extra (argon2) is not installed")
        argv = [sys.executable, "-m", "hintline", *commands[name]]
        if target == "full":
            with open("/dev/full", "w") as full:
                r = subprocess.run(argv, stdout=full, stderr=subprocess.PIPE, env=ENV, timeout=120,
                                   check=False, input=b"viewer-password-1\n")
        else:
            r = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV,
                               timeout=120, check=False, preexec_fn=lambda: os.close(1),
                               input=b"viewer-password-1\n")
        assert r.returncode == 74, r.stderr
        lines = r.stderr.decode().strip().splitlines()
        assert lines[-1].startswith("hintline: cannot write the output:"), r.stderr
        assert b"Traceback" not in r.stderr
        assert b"Exception ignored" not in r.stderr


@pytest.mark.parametrize("name", ["clean", "scrub", "trace", "logs"])
def test_closed_stdin_is_one_line(name: str) -> None:
    """``hintline CMD <&-`` reads standard input: one line and a non-zero status. Before: an
    AttributeError traceback."""
    argv = [sys.executable, "-m", "hintline", name, *(["-"] if name == "logs" else [])]
    r = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, env=ENV, timeout=60,
                       check=False, preexec_fn=lambda: os.close(0))
    assert r.returncode not in (0, 1), r.stderr
    lines = r.stderr.decode().strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith(f"hintline {name}: ")
    assert lines[0].endswith("standard input is closed")


_INITIALIZE = json.dumps({
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}) + "\n"


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _popen(argv: list[str], target: str, **kw: object) -> subprocess.Popen[bytes]:
    """``python -m hintline ARGV`` with standard output closed, a full disk, or a pipe."""
    if target == "closed":
        kw.update(stdout=subprocess.DEVNULL, preexec_fn=lambda: os.close(1))
    elif target == "full":
        kw.update(stdout=open("/dev/full", "w"))  # noqa: SIM115 - closed with the process
    else:
        kw.update(stdout=subprocess.PIPE)
    return subprocess.Popen(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "hintline", *argv], stderr=subprocess.PIPE, env=ENV, **kw
    )


@pytest.mark.skipif(not importlib.util.find_spec("mcp"), reason="the mcp extra is not installed")
class TestMcpOutput:
    @pytest.mark.parametrize("target", ["closed", "full"])
    def test_no_way_to_answer_is_one_line_and_74(self, target: str) -> None:
        """The client waits for an answer that cannot be written: the server stops with one line
        and status 74. Before: a full disk gave an exception group traceback and status 1."""
        proc = _popen(["mcp"], target, stdin=subprocess.PIPE)
        assert proc.stdin is not None
        with contextlib.suppress(BrokenPipeError):  # closed: it may have stopped already
            proc.stdin.write(_INITIALIZE.encode())
            proc.stdin.flush()
        try:
            _, err = proc.communicate(timeout=60)  # stdin stays open until it exits by itself
        finally:
            proc.kill()
        assert proc.returncode == 74, err
        assert err.decode().strip().splitlines() == [
            "hintline: cannot write the output: "
            + ("standard output is closed" if target == "closed" else "No space left on device")
        ]

    def test_client_gone_is_quiet(self) -> None:
        """The client closed its end of the server's standard output: that ends the session like
        closing standard input does, status 0. Before: a BrokenPipeError traceback, status 1."""
        read, write = os.pipe()
        os.close(read)
        try:
            proc = subprocess.Popen(
                [sys.executable, "-m", "hintline", "mcp"], stdin=subprocess.PIPE, stdout=write,
                stderr=subprocess.PIPE, env=ENV,
            )
        finally:
            os.close(write)
        assert proc.stdin is not None
        proc.stdin.write(_INITIALIZE.encode())
        proc.stdin.flush()
        try:
            _, err = proc.communicate(timeout=60)
        finally:
            proc.kill()
        assert proc.returncode == 0, err
        assert err == b""

    def test_closed_stdin_is_one_line(self) -> None:
        """Before: an AttributeError traceback."""
        r = subprocess.run([sys.executable, "-m", "hintline", "mcp"], stdin=subprocess.DEVNULL,
                           capture_output=True, env=ENV, timeout=60, check=False,
                           preexec_fn=lambda: os.close(0))
        assert r.returncode == 1
        assert r.stderr.decode().strip().splitlines() == [
            "hintline mcp: standard input is closed: an MCP client speaks to this server on it"
        ]


@pytest.mark.skipif(not importlib.util.find_spec("argon2"), reason="the web extra is not installed")
class TestServeOutput:
    @pytest.mark.parametrize("target", ["closed", "full"])
    def test_serves_without_standard_output(self, tmp_path: Path, target: str) -> None:
        """The page is serve's output; its messages go to standard error: without a standard
        output it serves as usual and stops cleanly. Before: stdout closed gave a traceback
        (uvicorn's formatter asks it ``isatty()``) and no server."""
        import httpx

        from hintline.web._users import UserStore

        users = tmp_path / "users.toml"
        UserStore(users).add("root", "admin-password-1", "admin")
        log = tmp_path / "app.log"
        log.write_text("2024-05-01 12:00:00,000 ERROR app: import failed\n" + PYTHON_TRACE)
        port = _free_port()
        proc = _popen(["serve", str(log), "--users", str(users), "--port", str(port)], target)
        try:
            deadline = time.monotonic() + 60
            health = None
            while time.monotonic() < deadline and proc.poll() is None:
                with contextlib.suppress(httpx.HTTPError):
                    health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
                    break
                time.sleep(0.1)
            assert health is not None, proc.poll()
            assert health.text == "ok"
            assert httpx.get(f"http://127.0.0.1:{port}/login", timeout=10).status_code == 200
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=60)
        finally:
            proc.kill()
        assert proc.returncode == 0, err
        assert err.decode().strip().splitlines() == [
            f"hintline serve: serving error hints on http://127.0.0.1:{port}/"
        ]


def _scan_corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "logs"
    corpus.mkdir()
    with (corpus / "app.log").open("w", encoding="utf-8") as fh:
        for i in range(300_000):
            fh.write(f"2024-05-01 12:{i % 60:02d}:{i % 60:02d},000 ERROR app.m{i % 97}: "
                     f"failed to load item {i * 7919 % 1000003} for order {i}\n")
    return corpus


class TestScanInterrupt:
    def test_ctrl_c_exits_promptly(self, tmp_path: Path) -> None:
        """Before: the parent waited for every worker to finish its chunk (42 s and more)."""
        corpus = _scan_corpus(tmp_path)
        proc = subprocess.Popen(
            [sys.executable, "-m", "hintline", "scan", str(corpus), "-j", "2", "--chunk-mb", "16",
             "--state", str(tmp_path / "state")],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(_children(proc.pid)) < 2:
            time.sleep(0.1)
        assert len(_children(proc.pid)) >= 2, "the workers did not start"
        time.sleep(1.0)  # both workers are inside a chunk now
        started = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
        took = time.monotonic() - started
        assert proc.returncode == 130
        assert b"run the same command again to resume" in err
        assert took < 10, f"{took:.1f} s"


    def test_a_killed_worker_ends_the_scan(self, tmp_path: Path) -> None:
        """A worker killed in the middle (the kernel's out-of-memory killer, an operator): one
        line that says so, status 2, the other worker ended too, nothing waits for an answer
        that cannot come. Before: a BrokenProcessPool traceback."""
        corpus = _scan_corpus(tmp_path)
        proc = subprocess.Popen(
            [sys.executable, "-m", "hintline", "scan", str(corpus), "-j", "2", "--chunk-mb", "4",
             "--state", str(tmp_path / "state")],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(_children(proc.pid)) < 2:
            time.sleep(0.1)
        workers = _children(proc.pid)
        assert len(workers) >= 2, "the workers did not start"
        os.kill(workers[0], signal.SIGKILL)
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 2, err
        lines = err.decode().strip().splitlines()
        assert lines[-1] == (
            "hintline scan: a scan worker ended unexpectedly (signal 9); the finished chunks are "
            "kept: run the same command again to resume"
        ), err
        assert b"Traceback" not in err
        for pid in workers[1:]:  # ended and reaped by the parent, not left running
            assert not Path(f"/proc/{pid}").exists()


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry.name))
    return found
