"""Reading entries: one file streamed either way, several files merged newest first."""

from __future__ import annotations

import contextlib
import heapq
import itertools
import os
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from hintline.logs._container import CONTAINER_FORMATS
from hintline.logs._container import records as container_records
from hintline.logs._formats import (
    LogFormatError,
    build_entry,
    check_format,
    detect_format,
    parse_record,
    start_pattern,
    wanted_pattern,
)
from hintline.logs._json import merge_journal
from hintline.logs._levels import level_rank
from hintline.logs._model import Entry
from hintline.logs._source import (
    forward_block_records,
    forward_lines,
    is_gzip,
    is_special,
    open_binary,
    reverse_records,
    rotated_siblings,
    spool,
)
from hintline.logs._time import parse_bound

__all__ = ["PathArg", "ProgressCallback", "find", "iter_entries", "iter_newest", "log_files", "read"]

PathArg = str | os.PathLike[str] | Iterable[str | os.PathLike[str]]
ProgressCallback = Callable[[int, int], None]
"""Called as ``progress(bytes_done, bytes_total)`` while files are read."""

_EPOCH = datetime.min.replace(tzinfo=UTC)
# Records of different threads reach a file slightly out of order: keep reading this far past
# ``since`` before giving up on older records.
_SINCE_SLACK = timedelta(minutes=5)


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", "replace").replace("\x00", "\ufffd")


def _reference(path: Path) -> date:
    """The day a time-only log line belongs to: the file's last modification."""
    try:
        return datetime.fromtimestamp(path.stat().st_mtime).date()
    except OSError:
        return date.today()


def _counted(lines: Iterator[bytes], progress: Callable[[int], None] | None) -> Iterator[bytes]:
    for line in lines:
        if progress is not None:
            progress(len(line))
        yield line


def _paths(paths: PathArg) -> list[Path]:
    if isinstance(paths, (str, os.PathLike)):
        return [Path(paths)]
    return [Path(p) for p in paths]


_LOG_NAME = re.compile(r"^(?P<base>.+\.(?:log|jsonl|ndjson|json|txt|out|err))(?P<rot>[.-].*)?$", re.IGNORECASE)


def directory_logs(directory: Path) -> list[Path]:
    """The logs of a directory: ``*.log``, ``*.jsonl``, ``*.ndjson``, ``*.json``, ``*.txt``,
    ``*.out``, ``*.err`` (their rotated and compressed files are found next to them), and a
    rotated or compressed file whose live log is gone (``app.log.1``, ``app.log.2.gz``,
    ``events.jsonl-20261130.gz``) on its own."""
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    bases: list[Path] = []
    orphans: list[Path] = []
    present = set(names)
    for name in names:
        m = _LOG_NAME.match(name)
        if not m or not (directory / name).is_file():
            continue
        if m["rot"] is None:
            bases.append(directory / name)
        elif m["base"] not in present:
            orphans.append(directory / name)
    return [*bases, *orphans]


def log_files(paths: PathArg, *, rotated: bool = True) -> list[list[Path]]:
    """The files to read, as one list per given log (the log, then its rotated files).

    A directory stands for the logs it holds (:func:`directory_logs`).

    Raises:
        FileNotFoundError: a path does not exist.
        PermissionError: a file cannot be read.
    """
    groups: list[list[Path]] = []
    seen: set[Path] = set()
    for path in _paths(paths):
        if path.is_dir():
            members = directory_logs(path)
            if not members:
                raise FileNotFoundError(f"{path}: directory holds no log file (*.log, *.jsonl, *.json, …)")
        elif path.exists():
            members = [path]
        else:
            raise FileNotFoundError(f"{path}: no such file")
        for member in members:
            files = rotated_siblings(member) if rotated else [member]
            fresh = [f for f in files if f.resolve() not in seen]
            seen.update(f.resolve() for f in fresh)
            for f in fresh:
                if not os.access(f, os.R_OK):
                    raise PermissionError(f"{f}: permission denied")
            if fresh:
                groups.append(fresh)
    return groups


def iter_entries(
    path: str | os.PathLike[str],
    *,
    format: str | None = None,
    min_level: str | None = "ERROR",
    reverse: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Iterator[Entry]:
    """Stream the entries of one log file, in file order (or newest first with ``reverse``).

    Memory stays bounded: records are read one at a time (``reverse`` reads blocks from the end
    of the file). Compressed (``.gz``) files and journald exports are read forward; with
    ``reverse`` their entries at ``min_level`` are collected and then yielded newest first.

    Args:
        path: the log file (``.gz`` is decompressed).
        format: one of :data:`~hintline.logs.FORMATS`; detected from the first lines if ``None``.
        min_level: the lowest level yielded (``"ERROR"``); ``None`` yields every record.
        reverse: newest first.
        progress: called with the number of bytes consumed, as they are.

    Raises:
        LogFormatError: the format is unknown or cannot be detected.
        OSError: the file cannot be read.

    .. versionadded:: 0.1
    """
    p = Path(path)
    fmt = check_format(format) if format else detect_format(p)
    min_rank = level_rank(min_level) if min_level else 0
    return _entries(p, fmt, min_rank, reverse, progress)


def _entries(
    path: Path,
    fmt: str,
    min_rank: int,
    reverse: bool,
    progress: Callable[[int], None] | None,
    source: str | None = None,
) -> Iterator[Entry]:
    source = source or str(path)
    reference = _reference(path)
    if fmt in CONTAINER_FORMATS:  # read forward, like journald: records span many lines
        with open_binary(path) as f:
            lines = (_decode(x) for x in _counted(forward_lines(f), progress))
            built = [
                build_entry(parsed, raw, source, fmt)
                for parsed, raw in container_records(lines, fmt, min_rank=min_rank, reference=reference)
            ]
        yield from (reversed(built) if reverse else built)
        return
    if fmt == "journald":
        with open_binary(path) as f:
            lines = (_decode(x) for x in _counted(forward_lines(f), progress))
            merged = (
                build_entry(parsed, raw, source, fmt)
                for parsed, raw in merge_journal(lines, reference=reference)
                if level_rank(parsed.level) >= min_rank
            )
            if not reverse:
                yield from merged
                return
            yield from reversed(list(merged))
        return
    start = start_pattern(fmt)
    wanted = wanted_pattern(fmt, min_rank) if min_rank else None

    def entries(records: Iterable[bytes]) -> Iterator[Entry]:
        for record in records:
            text = _decode(record)
            parsed = parse_record(text.strip("\r\n") if fmt == "jsonl" else text, fmt, reference=reference)
            if parsed is None or level_rank(parsed.level or "ERROR") < min_rank:
                continue
            if fmt != "jsonl" and parsed.level is None and not parsed.trace_text and min_rank > level_rank("INFO"):
                continue  # plain text without a level word and without a trace
            yield build_entry(parsed, text, source, fmt)

    if reverse and not is_gzip(path):
        with path.open("rb") as f:
            yield from entries(reverse_records(f, start, wanted=wanted, progress=progress))
        return
    with open_binary(path) as f:
        found = entries(forward_block_records(f, start, wanted=wanted, progress=progress))
        if not reverse:
            yield from found
            return
        yield from reversed(list(found))


def _plan(group: list[Path], format: str | None) -> list[tuple[Path, str]]:
    """Each file with its format; a rotated file that cannot be detected takes the log's own."""
    base = format or detect_format(group[0])
    plan = [(group[0], base)]
    for sibling in group[1:]:
        try:
            kind = format or detect_format(sibling)
            plan.append((sibling, base if kind == "text" else kind))  # a cut-off head: the log's own
        except LogFormatError:
            plan.append((sibling, base))
    return plan


def iter_newest(
    paths: PathArg,
    *,
    search: str | None = None,
    since: str | datetime | timedelta | None = None,
    until: str | datetime | timedelta | None = None,
    format: str | None = None,
    min_level: str | None = "ERROR",
    rotated: bool = True,
    progress: ProgressCallback | None = None,
    keep: int | None = None,
) -> Iterator[Entry]:
    """Entries of several logs (and their rotated files), newest first, filtered.

    The same arguments as :func:`read`, without the limit: a stream for counting or grouping.
    ``keep`` bounds what compressed files hold in memory when only the newest few are wanted.

    .. versionadded:: 0.1
    """
    low = parse_bound(since)
    high = parse_bound(until)
    needle = search.casefold() if search else None
    if format:
        check_format(format)
    min_rank = level_rank(min_level) if min_level else 0
    groups = log_files(paths, rotated=rotated)
    # a FIFO or a pipe can be read once only: it is copied first, then read like a file
    names: dict[Path, str] = {}
    try:
        groups = [[_spooled(f, names) for f in group] for group in groups]
    except BaseException:
        _unlink(names)
        raise
    try:
        yield from _newest(groups, names, low, high, needle, format, min_rank, progress, keep)
    finally:
        _unlink(names)


def _spooled(path: Path, names: dict[Path, str]) -> Path:
    if not is_special(path):
        return path
    copy = spool(path)
    names[copy] = str(path)
    return copy


def _unlink(names: dict[Path, str]) -> None:
    for copy in names:
        with contextlib.suppress(OSError):
            copy.unlink()


def _newest(
    groups: list[list[Path]],
    names: dict[Path, str],
    low: datetime | None,
    high: datetime | None,
    needle: str | None,
    format: str | None,
    min_rank: int,
    progress: ProgressCallback | None,
    keep: int | None,
) -> Iterator[Entry]:
    total = sum(f.stat().st_size for group in groups for f in group)
    done = [0]

    def tick(n: int) -> None:
        done[0] += n
        if progress is not None:
            progress(min(done[0], total), total)

    plans = [_plan(group, format) for group in groups]

    def accept(entry: Entry) -> bool:
        ts = entry.timestamp
        if low is not None and (ts is None or ts < low):
            return False
        if high is not None and (ts is None or ts > high):
            return False
        if needle is None:
            return True
        fields = (entry.message, entry.component or "", entry.exception_type or "", entry.trace_text)
        return any(needle in x.casefold() for x in fields)

    def newest_of(group: list[tuple[Path, str]]) -> Iterator[Entry]:
        for path, fmt in group:
            compressed = is_gzip(path) or fmt == "journald" or fmt in CONTAINER_FORMATS
            stream = _entries(
                path, fmt, min_rank, reverse=not compressed, progress=tick, source=names.get(path)
            )
            if compressed:
                window: deque[Entry] = deque(maxlen=keep)
                window.extend(e for e in stream if accept(e))
                yield from reversed(window)
                continue
            for entry in stream:
                if low is not None and entry.timestamp is not None and entry.timestamp < low - _SINCE_SLACK:
                    return  # older files hold older records still
                if accept(entry):
                    yield entry

    def order(entry: Entry) -> datetime:
        return entry.timestamp or _EPOCH

    streams = [newest_of(group) for group in plans]
    if len(streams) == 1:
        yield from streams[0]
    else:
        yield from heapq.merge(*streams, key=order, reverse=True)


def read(
    paths: PathArg,
    *,
    limit: int | None = 10,
    search: str | None = None,
    since: str | datetime | timedelta | None = None,
    until: str | datetime | timedelta | None = None,
    format: str | None = None,
    min_level: str | None = "ERROR",
    rotated: bool = True,
    progress: ProgressCallback | None = None,
) -> list[Entry]:
    """The newest error entries of one or more logs, newest first.

    Args:
        paths: a log file, a directory (the logs it holds) or several of them. Rotated files next to
            a log (``app.log.1``, ``app.log.2.gz``, ``app.log.2026-11-29``) are read too.
        limit: at most this many entries (``None``: all).
        search: keep entries whose message, component, exception class or trace contains this
            text (case-insensitive).
        since: keep entries at or after this time: a datetime, a timedelta (that long ago), ISO
            text or a relative span such as ``"2h"``.
        until: keep entries at or before this time (same forms).
        format: one of :data:`~hintline.logs.FORMATS` for every file; detected per file if ``None``.
        min_level: the lowest level kept; ``None`` keeps every record.
        rotated: also read the rotated files of each log.
        progress: called as ``progress(done_bytes, total_bytes)`` while reading.

    Returns:
        The entries, newest first (by timestamp; records without one come last).

    Raises:
        FileNotFoundError, PermissionError: a path is missing or unreadable.
        LogFormatError: a file's format is unknown (or ``format`` names none).
        ValueError: ``since``/``until`` is not a time.

    .. versionadded:: 0.1
    """
    if limit is not None and limit < 1:
        return []
    stream = iter_newest(
        paths, search=search, since=since, until=until, format=format, min_level=min_level,
        rotated=rotated, progress=progress, keep=limit,
    )
    entries = list(itertools.islice(stream, limit))
    entries.sort(key=lambda e: e.timestamp or _EPOCH, reverse=True)
    return entries


def find(
    paths: PathArg,
    key: str,
    *,
    format: str | None = None,
    min_level: str | None = "ERROR",
    rotated: bool = True,
) -> Entry | None:
    """The entry whose key is ``key`` (or starts with it, at least 6 characters), else ``None``.

    .. versionadded:: 0.1
    """
    key = key.strip().lower()
    if len(key) < 6:
        return None
    for entry in iter_newest(paths, format=format, min_level=min_level, rotated=rotated):
        if entry.key.startswith(key):
            return entry
    return None


__all__ += ["LogFormatError"]
