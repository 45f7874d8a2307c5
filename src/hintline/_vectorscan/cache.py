"""The disk cache of compiled Hyperscan databases, shared by the rule engine and the scrubber.

Compiling a database costs hundreds of milliseconds; loading a cached one costs milliseconds, so
``import hintline`` plus a first ``clean()`` stays fast after the first run on a machine. A cache
file is keyed by what was compiled, the binding's version and the machine, carries a CRC-32 of
its blob, and is written atomically; any problem with it only means compiling again.

Key and check are zlib's checksums, not ``hashlib``'s: importing ``hashlib`` loads and
initialises OpenSSL (some 11 million instructions, 3% of ``import hintline`` plus a first
``clean()``), and a SHA-256 of the blobs (1 MB on a first call) costs more than their CRC-32. A cache key is no defence against someone who
can write the cache folder (they could write a database as well); it only has to tell apart
what was compiled from different patterns, which 64 bits of checksum and the length do.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
import zlib
from collections.abc import Callable
from typing import Any

__all__ = [
    "BACKGROUND_DELAY",
    "CACHE_ENV",
    "cache_dir",
    "cached_database",
    "database_path",
    "digest",
    "in_background",
    "load_database",
    "machine",
    "read_entry",
    "write_entry",
]

CACHE_ENV = "HINTLINE_CACHE_DIR"
"""Where compiled databases are cached (``off`` disables the cache)."""


def digest(data: bytes) -> str:
    """A cache key for ``data``: its CRC-32, Adler-32 and length, in hex (24 characters at most
    for data under 4 GiB)."""
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}{len(data):x}"


def machine() -> str:
    """The CPU architecture (a database compiled for one does not load on another)."""
    uname = getattr(os, "uname", None)
    if uname is not None:
        return str(uname().machine)
    import platform  # Windows

    return platform.machine()


BACKGROUND_DELAY = 0.05
"""Seconds a background compile waits before it starts. Its first part is Python (translating
patterns, hashing them) and holds the GIL for some 10 ms; the call that started it, answering
with ``re`` meanwhile, would wait for the GIL in 5 ms slices. The compile itself takes hundreds
of milliseconds, so starting it 50 ms later costs nothing noticeable."""


def in_background(target: Callable[[], None], name: str) -> threading.Thread:
    """Run ``target`` (a database compile) in a new thread, after :data:`BACKGROUND_DELAY`, at a
    lower CPU priority (so that it yields the CPU to the threads answering calls; Linux keeps a
    nice value per thread, elsewhere the priority is left alone).

    The thread is not a daemon when the result can be cached: a short-lived process (the CLI)
    finishes the compile and caches it before it exits, so that the next process starts warm.
    With caching off (or a cache folder it cannot write) there is nothing to keep, so the
    process does not wait for it at exit.
    """

    def run() -> None:
        if sys.platform.startswith("linux"):
            with contextlib.suppress(OSError):
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
        time.sleep(BACKGROUND_DELAY)
        target()

    thread = threading.Thread(target=run, name=name, daemon=not _writable_cache())
    thread.start()
    return thread


def _writable_cache() -> bool:
    """Whether compiled databases can be written to :func:`cache_dir`."""
    directory = cache_dir()
    if directory is None:
        return False
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError:
        return False
    return os.access(directory, os.W_OK)


def cache_dir() -> str | None:
    """The directory holding compiled databases, or ``None`` when caching is off."""
    configured = os.environ.get(CACHE_ENV)
    if configured is not None:
        if configured.strip().lower() in ("", "0", "off", "no", "false"):
            return None
        return configured
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "hintline")


def read_entry(path: str) -> tuple[dict[str, Any], bytes] | None:
    """``(header, blob)`` of a cache file, or ``None`` if missing or corrupt."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
        end = raw.index(b"\n")
        header = json.loads(raw[:end])
        blob = raw[end + 1 :]
        if not isinstance(header, dict) or zlib.crc32(blob) != header.get("crc32"):
            return None
    except (OSError, ValueError):
        return None
    return header, blob


def write_entry(path: str, header: dict[str, Any], blob: bytes) -> None:
    """Write a cache file atomically; any failure only means no cache."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
        with open(tmp, "wb") as fh:
            fh.write(json.dumps({**header, "crc32": zlib.crc32(blob)}).encode())
            fh.write(b"\n" + blob)
        os.replace(tmp, path)
    except OSError:
        return


def database_path(kind: str, material: str) -> str | None:
    """The cache file of a database compiled from ``material``, or ``None`` when caching is off.

    Args:
        kind: a file-name prefix (``scrub``).
        material: everything the database is compiled from (patterns, flags, format version).
    """
    directory = cache_dir()
    if directory is None:
        return None
    from hyperscan import _version

    version = str(getattr(_version, "__version__", ""))
    key = digest("\0".join((material, version, machine())).encode("utf-8", "surrogatepass"))
    return os.path.join(directory, f"{kind}-{key}.hsdb")


def load_database(hs: Any, path: str | None) -> Any:
    """The block-mode database cached at ``path``, or ``None`` if missing or unusable."""
    entry = None if path is None else read_entry(path)
    if entry is None:
        return None
    try:
        return hs.loadb(entry[1], hs.HS_MODE_BLOCK)
    except Exception:  # a foreign or damaged blob: compile instead
        return None


def cached_database(hs: Any, kind: str, material: str, build: Callable[[], Any]) -> Any:
    """A block-mode database from the cache, or ``build()`` and cache it.

    Args:
        hs: the ``hyperscan`` module.
        kind: a file-name prefix (``scrub``).
        material: everything the database is compiled from (patterns, flags, format version).
        build: compiles the database.
    """
    path = database_path(kind, material)
    database = load_database(hs, path)
    if database is not None:
        return database
    database = build()
    if path is None:
        return database
    try:
        blob = hs.dumpb(database)
    except Exception:
        return database
    write_entry(path, {"kind": kind}, blob)
    return database
