"""Running a scan: chunks to workers, partial tallies checkpointed, merged in the parent."""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from hintline.exceptions import HintlineError
from hintline.scan._chunks import Chunk, plan_chunks, read_chunk
from hintline.scan._groups import Tally, tally_entries

__all__ = ["DEFAULT_CHUNK_BYTES", "ScanInterrupted", "ScanResult", "scan"]

DEFAULT_CHUNK_BYTES = 32 << 20
_STATE_VERSION = "1"

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


def _work(chunk: Chunk) -> tuple[str, dict[str, object]]:
    tally = tally_entries(read_chunk(chunk))
    tally.bytes = chunk.length
    return chunk.ident, tally.to_json()


def _quiet_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    # and stops a worker with SIGTERM (a handler inherited from the parent's command line
    # would turn it into an exception the pool catches, and the worker would go on)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class _State:
    """Checkpoints: one JSON file per finished chunk (written atomically)."""

    def __init__(self, directory: Path | None) -> None:
        self.dir = directory
        if directory is not None:
            directory.mkdir(parents=True, exist_ok=True)

    def _file(self, ident: str) -> Path:
        assert self.dir is not None
        return self.dir / f"chunk-{_STATE_VERSION}-{ident}.json"

    def load(self, ident: str) -> Tally | None:
        if self.dir is None:
            return None
        try:
            return Tally.from_json(json.loads(self._file(ident).read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def save(self, ident: str, data: dict[str, object]) -> None:
        if self.dir is None:
            return
        tmp = self._file(ident).with_suffix(".tmp")
        tmp.write_text(json.dumps(data), encoding="utf-8")
        tmp.replace(self._file(ident))


def scan(
    paths: Iterable[str | os.PathLike[str]],
    *,
    jobs: int | None = None,
    format: str | None = None,
    chunk_bytes: int = DEFAULT_CHUNK_BYTES,
    state_dir: str | os.PathLike[str] | None = None,
    progress: Progress | None = None,
    stop_after: int | None = None,
) -> ScanResult:
    """Find, clean and group every error entry of the given logs (plain, ``.gz``, rotated).

    Args:
        paths: log files or directories (a directory stands for its ``*.log`` files).
        jobs: worker processes (default: the number of cores).
        format: the log format, else detected per file.
        chunk_bytes: about how much of a file one worker reads at a time.
        state_dir: where finished chunks are checkpointed; a rerun with the same directory
            skips the chunks of unchanged files that were finished (``None``: no checkpoints).
        progress: called with bytes done and bytes total.
        stop_after: stop (as if interrupted) after this many chunks of this run.

    Raises:
        ScanInterrupted: on Ctrl-C, SIGTERM or ``stop_after``; finished chunks are kept.
        FileNotFoundError, PermissionError, hintline.logs.LogFormatError: unreadable input.
    """
    chunks = plan_chunks([os.fspath(p) for p in paths], fmt=format, chunk_bytes=chunk_bytes)
    state = _State(Path(state_dir) if state_dir is not None else None)
    total_bytes = sum(c.length for c in chunks)
    tally = Tally()
    todo: list[Chunk] = []
    resumed = 0
    done_bytes = 0
    for chunk in chunks:
        saved = state.load(chunk.ident)
        if saved is None:
            todo.append(chunk)
        else:
            tally.merge(saved)
            resumed += 1
            done_bytes += chunk.length
    jobs = max(1, jobs or os.cpu_count() or 1)
    finished = 0

    def record(ident: str, data: dict[str, object], length: int) -> None:
        nonlocal finished, done_bytes
        state.save(ident, data)
        tally.merge(Tally.from_json(data))
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
    return ScanResult(tally=tally, chunks=len(chunks), resumed=resumed)


def _run_pool(
    todo: list[Chunk], jobs: int, record: Callable[[str, dict[str, object], int], None]
) -> None:
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_quiet_worker)
    pending: dict[Future[tuple[str, dict[str, object]]], Chunk] = {}
    queue = list(reversed(todo))
    try:
        while queue or pending:
            while queue and len(pending) < jobs * 2:
                chunk = queue.pop()
                pending[pool.submit(_work, chunk)] = chunk
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                chunk = pending.pop(future)
                ident, data = future.result()
                record(ident, data, chunk.length)
    finally:
        if pending:  # interrupted or failed: the chunks in flight are redone on resume
            _stop_workers(pool)
        pool.shutdown(wait=not pending, cancel_futures=True)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the workers now: each would otherwise finish its chunk (tens of seconds) before the
    interpreter may exit. The executor has no public way to do it before Python 3.14."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        with contextlib.suppress(Exception):
            process.terminate()
