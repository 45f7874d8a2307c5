"""Running a scan: chunks to workers, partial tallies checkpointed, merged in the parent."""

from __future__ import annotations

import contextlib
import hashlib
import json
import multiprocessing
import os
import pickle
import queue
import shutil
import signal
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hintline.exceptions import HintlineError
from hintline.logs._source import is_gzip
from hintline.scan._chunks import Chunk, plan_chunks, read_chunk
from hintline.scan._groups import Tally, tally_entries

__all__ = [
    "DEFAULT_CHUNK_BYTES",
    "ScanInterrupted",
    "ScanResult",
    "ScanWorkerLost",
    "default_state_dir",
    "scan",
    "state_namespace",
]

DEFAULT_CHUNK_BYTES = 32 << 20
_STATE_VERSION = "2"
_EDGE = 1 << 16  # bytes hashed at both ends of a scanned prefix (appended-log resume)

Progress = Callable[[int, int], None]
"""Called as ``progress(bytes_done, bytes_total)`` after each chunk."""


class ScanInterrupted(HintlineError):
    """The scan was stopped; the chunks finished so far are kept in the state directory."""

    def __init__(self, done: int, total: int, state_dir: Path) -> None:
        super().__init__(
            f"stopped after {done} of {total} chunks; run the same command again to resume "
            f"(state in {state_dir})"
        )
        self.done = done
        self.total = total


@dataclass(frozen=True, slots=True)
class ScanResult:
    """What a scan found."""

    tally: Tally
    chunks: int
    resumed: int
    """Chunks taken from an earlier, stopped run."""
    appended: int = 0
    """Files of which only the bytes appended since an earlier (kept) scan were read."""
    skipped: list[str] = field(default_factory=list)
    """Inputs that could not be read, ``"path: why"`` (also in ``tally.skipped``)."""


def state_namespace() -> str:
    """What checkpoints depend on: the state format, hintline's version, the rule table and the
    fingerprint recipe. A checkpoint of another namespace is never reused."""
    from hintline import __version__
    from hintline.fingerprint import VERSION
    from hintline.rules import RULES

    table = hashlib.sha256()
    for rule in RULES:
        table.update(f"{rule.code}\0{rule.name}\0{rule.pattern}\0{rule.hint}\0{rule.key_group}\n".encode())
    return f"s{_STATE_VERSION}-v{__version__}-f{VERSION}-r{table.hexdigest()[:12]}"


def default_state_dir(paths: Iterable[str | os.PathLike[str]]) -> Path:
    """Where ``hintline scan`` keeps checkpoints by default: the user's cache directory
    (``$XDG_CACHE_HOME/hintline/scan``, else ``~/.cache/hintline/scan``), one directory per set
    of input paths."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "hintline" / "scan"
    ident = "\0".join(sorted(os.path.abspath(os.fspath(p)) for p in paths))
    return base / hashlib.sha256(ident.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _work(chunk: Chunk) -> tuple[str, dict[str, object]]:
    problems: list[str] = []
    tally = tally_entries(read_chunk(chunk, problems=problems))
    tally.bytes = chunk.length
    tally.skipped = problems
    return chunk.ident, tally.to_json()


def _orphan_watch(parent: int) -> None:
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:  # the parent died (even by SIGKILL): stop, leave nothing behind
            os._exit(1)


def _quiet_worker(parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    # and stops a worker with SIGTERM (a handler inherited from the parent's command line
    # would turn it into an exception the pool catches, and the worker would go on)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=_orphan_watch, args=(parent,), daemon=True).start()


def _digest(path: Path, start: int, end: int) -> str:
    with path.open("rb") as f:
        f.seek(start)
        return hashlib.sha256(f.read(max(0, end - start))).hexdigest()[:32]


class _State:
    """Checkpoints: one JSON file per finished chunk (written atomically), under a namespace
    (:func:`state_namespace`); with ``keep``, one record per fully scanned file too."""

    def __init__(self, directory: Path | None) -> None:
        self.root = directory
        self.dir = directory / state_namespace() if directory is not None else None
        if self.dir is not None:
            self.dir.mkdir(parents=True, exist_ok=True)

    def _file(self, ident: str) -> Path:
        assert self.dir is not None
        return self.dir / f"chunk-{ident}.json"

    def _read(self, path: Path) -> dict[str, object] | None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def load(self, ident: str) -> Tally | None:
        if self.dir is None:
            return None
        data = self._read(self._file(ident))
        try:
            return None if data is None else Tally.from_json(data)
        except (ValueError, KeyError, TypeError):
            return None

    def _write(self, target: Path, data: dict[str, object]) -> None:
        tmp = target.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
        tmp.replace(target)

    def save(self, ident: str, data: dict[str, object]) -> None:
        if self.dir is not None:
            self._write(self._file(ident), data)

    def _record(self, path: str) -> Path:
        assert self.dir is not None
        return self.dir / f"file-{hashlib.sha256(os.path.abspath(path).encode()).hexdigest()[:24]}.json"

    def appended(self, path: str) -> tuple[int, Tally] | None:
        """``(offset, tally)`` when ``path`` is an earlier scanned file with data appended since."""
        if self.dir is None:
            return None
        data = self._read(self._record(path))
        if data is None:
            return None
        try:
            end = int(data["end"])  # type: ignore[call-overload]
            size = Path(path).stat().st_size
            p = Path(path)
            if size < end or _digest(p, 0, min(end, _EDGE)) != data["head"] or (
                _digest(p, max(0, end - _EDGE), end) != data["tail"]
            ):
                return None
            return end, Tally.from_json(data["tally"])  # type: ignore[arg-type]
        except (OSError, KeyError, ValueError, TypeError):
            return None

    def finish(self, keep: bool, files: dict[str, tuple[int, Tally]]) -> None:
        """The scan completed: drop the chunk checkpoints; with ``keep``, record each plain file."""
        if self.dir is None:
            return
        if not keep:
            shutil.rmtree(self.dir, ignore_errors=True)
            if self.root is not None:
                with contextlib.suppress(OSError):
                    self.root.rmdir()  # only when nothing else lives there
            return
        for old in self.dir.glob("chunk-*.json"):
            old.unlink(missing_ok=True)
        for path, (end, tally) in files.items():
            p = Path(path)
            try:
                record = {
                    "end": end, "head": _digest(p, 0, min(end, _EDGE)),
                    "tail": _digest(p, max(0, end - _EDGE), end), "tally": tally.to_json(),
                }
            except OSError:
                continue
            self._write(self._record(path), record)


def scan(
    paths: Iterable[str | os.PathLike[str]],
    *,
    jobs: int | None = None,
    format: str | None = None,
    chunk_bytes: int = DEFAULT_CHUNK_BYTES,
    state_dir: str | os.PathLike[str] | None = None,
    keep_state: bool = False,
    progress: Progress | None = None,
    stop_after: int | None = None,
) -> ScanResult:
    """Find, clean and group every error entry of the given logs (plain, ``.gz``, rotated).

    Args:
        paths: log files or directories (a directory stands for the logs it holds:
            ``*.log``, ``*.jsonl``, ``*.json``… and their rotated and compressed files).
        jobs: worker processes (default: the number of cores).
        format: the log format, else detected per file.
        chunk_bytes: about how much of a file one worker reads at a time.
        state_dir: where finished chunks are checkpointed; a rerun with the same directory
            skips the chunks of unchanged files that were finished (``None``: no checkpoints).
            Checkpoints belong to one hintline version and rule table (:func:`state_namespace`).
        keep_state: keep a record of every scanned plain file when the scan completes, so that
            the next scan of an appended log reads only the new bytes. Without it the
            checkpoints are removed once the scan completes.
        progress: called with bytes done and bytes total.
        stop_after: stop (as if interrupted) after this many chunks of this run.

    A file that cannot be read as a log (binary data, a corrupt ``.gz``) is skipped and named
    in ``ScanResult.skipped``; a compressed file that breaks part-way keeps the entries before
    the break and is named there too.

    Raises:
        ScanInterrupted: on Ctrl-C, SIGTERM or ``stop_after``; finished chunks are kept.
        FileNotFoundError, PermissionError: a path given does not exist or cannot be read.
        hintline.logs.LogFormatError: ``format`` names no format.
    """
    from hintline.logs._formats import check_format
    from hintline.logs._reader import log_files

    if format:
        check_format(format)
    names = [os.fspath(p) for p in paths]
    state = _State(Path(state_dir) if state_dir is not None else None)
    tally = Tally()
    skipped: list[str] = []
    starts: dict[str, int] = {}
    files: dict[str, tuple[int, Tally]] = {}  # per plain file: its end and its own tally
    appended = 0
    for group in log_files(names):
        for p in group:
            earlier = state.appended(str(p))
            if earlier is not None:
                starts[os.path.abspath(p)] = earlier[0]
                files[str(p)] = (earlier[0], earlier[1])
                tally.merge(earlier[1])
                appended += 1
    chunks = plan_chunks(names, fmt=format, chunk_bytes=chunk_bytes, skipped=skipped, starts=starts)
    tally.skipped.extend(skipped)
    total_bytes = sum(c.length for c in chunks)
    todo: list[Chunk] = []
    resumed = 0
    done_bytes = 0

    def per_file(chunk: Chunk, part: Tally) -> None:
        if chunk.end < 0 and (chunk.fmt == "journald" or is_gzip(Path(chunk.path))):
            return  # read whole every time: no appended-log record
        held = files.get(chunk.path)
        mine = held[1] if held is not None else Tally()
        mine.merge(part)
        files[chunk.path] = (chunk.size, mine)

    for chunk in chunks:
        saved = state.load(chunk.ident)
        if saved is None:
            todo.append(chunk)
        else:
            tally.merge(saved)
            per_file(chunk, saved)
            resumed += 1
            done_bytes += chunk.length
    jobs = max(1, jobs or os.cpu_count() or 1)
    finished = 0
    by_ident = {c.ident: c for c in todo}

    def record(ident: str, data: dict[str, object], length: int) -> None:
        nonlocal finished, done_bytes
        state.save(ident, data)
        part = Tally.from_json(data)
        tally.merge(part)
        per_file(by_ident[ident], part)
        finished += 1
        done_bytes += length
        if progress is not None:
            progress(done_bytes, total_bytes)
        if stop_after is not None and finished >= stop_after and finished < len(todo):
            raise ScanInterrupted(finished + resumed, len(chunks), state.dir or Path("."))

    try:
        if jobs == 1 or len(todo) <= 1:
            for chunk in todo:
                ident, data = _work(chunk)
                record(ident, data, chunk.length)
        else:
            _run_pool(todo, jobs, record)
    except KeyboardInterrupt:
        raise ScanInterrupted(finished + resumed, len(chunks), state.dir or Path(".")) from None
    state.finish(keep_state, files)
    return ScanResult(
        tally=tally, chunks=len(chunks), resumed=resumed, appended=appended, skipped=list(tally.skipped)
    )


class ScanWorkerLost(HintlineError):
    """A worker process ended in the middle of the scan (killed, out of memory); the chunks
    finished before it are kept, and the same command resumes."""


def _worker(tasks: Any, results: Any, parent: int) -> None:
    """A worker: scan the chunks from ``tasks`` until ``None``; every answer, an exception
    included, goes to ``results``."""
    _quiet_worker(parent)
    while True:
        chunk = tasks.get()
        if chunk is None:
            return
        try:
            answer: tuple[bool, object] = (True, _work(chunk))
        except Exception as exc:  # raised again in the parent, as the scan's own error
            try:
                pickle.dumps(exc)
            except Exception:
                exc = RuntimeError(f"{type(exc).__name__}: {exc}")
            answer = (False, exc)
        results.put(answer)


def _run_pool(
    todo: list[Chunk], jobs: int, record: Callable[[str, dict[str, object], int], None]
) -> None:
    """Scan ``todo`` on ``jobs`` worker processes of our own.

    Owning them (not an executor's) lets an interrupted or failed scan end every worker at
    once with :meth:`multiprocessing.Process.terminate`: each would otherwise finish its chunk
    (tens of seconds) before the interpreter may exit. A worker that dies (killed, out of
    memory) ends the scan with :class:`ScanWorkerLost`, never a wait for an answer that cannot
    come.
    """
    context = (
        multiprocessing.get_context("fork") if os.name == "posix" else multiprocessing.get_context("spawn")
    )
    tasks = context.Queue()
    results = context.Queue()
    workers = [
        context.Process(target=_worker, args=(tasks, results, os.getpid()), daemon=True)
        for _ in range(min(jobs, len(todo)))
    ]
    lengths = {c.ident: c.length for c in todo}
    for chunk in todo:
        tasks.put(chunk)
    for _ in workers:
        tasks.put(None)
    done = False
    try:
        for w in workers:
            w.start()
        left = len(todo)
        while left:
            try:
                ok, answer = results.get(timeout=0.5)
            except queue.Empty:
                lost = [w for w in workers if w.exitcode not in (None, 0)]
                if lost:
                    code = lost[0].exitcode or 0
                    how = f"signal {-code}" if code < 0 else f"exit status {code}"
                    raise ScanWorkerLost(
                        f"a scan worker ended unexpectedly ({how}); the finished chunks are "
                        "kept: run the same command again to resume"
                    ) from None
                continue
            if not ok:
                assert isinstance(answer, BaseException)
                raise answer
            ident, data = answer  # type: ignore[misc]
            left -= 1
            record(ident, data, lengths[ident])
        done = True
    finally:
        if not done:  # interrupted or failed: the chunks in flight are redone on resume
            for w in workers:
                with contextlib.suppress(Exception):
                    w.terminate()
        tasks.cancel_join_thread()  # chunks never taken must not hold up the exit
        for w in workers:
            with contextlib.suppress(Exception):
                w.join(timeout=5)
        for q in (tasks, results):
            q.close()
