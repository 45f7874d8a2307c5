"""Where a long input's failure is: one Vectorscan pass, for :mod:`hintline.cleaner.bound`.

A failure is found two ways, the same two ways :mod:`hintline.cleaner.locate` reads a log:

* a **failure word** (``Traceback (most recent``, ``Exception``, ``rror``, ``panic``,
  ``FATAL`` …: :data:`FAILURE_MARKERS`), wherever it is;
* in a log whose records open with a timestamp or a bracket (its first line is a record
  header), a **stray line**: a line that opens neither a record nor indented under one, what
  another writer printed between the records (an uncaught trace, a crashed child's message,
  ``DETAIL:  Key (id)=(1) is still referenced``). Its words need not be failure words: that a
  line breaks the log's shape is the signal, as it is to a person scrolling the log.

Both are one database: literals and three one-class patterns (``\\n[^0-9.\\s]``,
``\\n[^\\[.\\s]``, ``\\n[^{.\\s]``), the pattern of the log's shape enabled by the caller. ``last()`` scans the text
reversed (the patterns reversed), 1 MiB at a time from the end, and stops at the first hit:
the last failure. Where Hyperscan cannot run, ``str.rfind`` per literal and a ``re`` search per
line start answer the same (slower).
"""

from __future__ import annotations

import re
import threading
from typing import Any

__all__ = ["FAILURE_MARKERS", "RECORD_LINE_REVERSED", "SCREEN", "FailureScreen", "record_shape"]

FAILURE_MARKERS = (
    "rror",  # Error, error, ERROR, TypeError, [error]
    "xception",
    "ailed",  # failed, Failed, FAILED is below
    "ailure",  # failure, Failure
    "FAIL",
    "anic",  # panic, panicked, PANIC
    "FATAL",
    "atal",  # Fatal error, fatal:
    "CRIT",
    "SEVERE",
    "Traceback (most recent",
    "Caused by: ",
    "Warning: ",  # PHP's warnings and notices are its runtime errors
    "Notice: ",
    "ould not",
    "denied",
    "refused",
    "not found",
    "No such",
    "timed out",
    "imeout",
    "bort",
    "Killed",
    "Segmentation fault",
    "Uncaught",
)
"""The words that open or name a failure in traces and logs."""

# A log's shape: what its record lines open with. A stray line opens with anything else
# that is not whitespace (a continuation line is indented).
# (A line that opens with ``.`` is not one: ``...`` is the line a cut leaves, see bound.)
_SHAPES = {"digit": r"\n[^0-9.\s]", "bracket": r"\n[^\[.\s]", "brace": r"\n[^{.\s]"}
_SHAPE_IDS = {name: len(FAILURE_MARKERS) + n for n, name in enumerate(_SHAPES)}
_SHAPE_RE = {name: re.compile(pattern) for name, pattern in _SHAPES.items()}  # bounded: 2 chars
# A record line's first character and the line break before it, in reversed text (bounded:
# two characters; searched in at most 64 KiB).
RECORD_LINE_REVERSED = {
    "digit": re.compile(r"[0-9]\n"),
    "bracket": re.compile(r"\[\n"),
    "brace": re.compile(r"\{\n"),
}
_CHUNK = 1 << 20
_OVERLAP = max(len(m) for m in FAILURE_MARKERS) * 4


def record_shape(text: str) -> str | None:
    """The shape of a log's records (``"digit"``, ``"bracket"``, ``"brace"``) when the first
    line of ``text`` is a record header that opens with a timestamp, a bracket or a JSON
    record, else ``None`` (not a log, or a log whose lines open with words)."""
    first = text[:1]
    if first.isdigit() and first.isascii():
        shape = "digit"
    elif first == "[":
        shape = "bracket"
    elif first == "{":
        return "brace" if text.startswith('{"') else None
    else:
        return None
    from hintline.cleaner.locate import is_record_header

    return shape if is_record_header(text[: text.find("\n", 0, 4096) % 4097]) else None


def _on_first(_id: int, _from: int, _to: int, _flags: int, context: Any) -> bool:
    # the first hit answers: stop (the binding raises ScanTerminated)
    return _id < len(FAILURE_MARKERS) or _id == context


class FailureScreen:
    """The failure words and the stray-line patterns, forward and reversed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._local = threading.local()
        self._databases: tuple[Any, Any] | None = None
        self._failed = False
        self._stopped: type[BaseException] = _Never

    def _compile(self) -> tuple[Any, Any] | None:
        if self._databases is None and not self._failed:
            with self._lock:
                if self._databases is None and not self._failed:
                    from hintline.cleaner import match as _engine

                    if _engine._requested() == "re":
                        self._failed = True
                        return None
                    try:
                        import hyperscan as hs

                        forward = [re.escape(m) for m in FAILURE_MARKERS] + list(_SHAPES.values())
                        backward = [re.escape(m[::-1]) for m in FAILURE_MARKERS] + [
                            pattern[2:] + r"\n" for pattern in _SHAPES.values()
                        ]
                        built = []
                        for expressions in (forward, backward):
                            database = hs.Database(mode=hs.HS_MODE_BLOCK)
                            database.compile(
                                expressions=[e.encode() for e in expressions],
                                ids=list(range(len(expressions))),
                                elements=len(expressions),
                                flags=hs.HS_FLAG_SINGLEMATCH,
                            )
                            built.append(database)
                        self._stopped = hs.ScanTerminated
                        self._databases = (built[0], built[1])
                    except Exception:  # no wheel
                        self._failed = True
        return self._databases

    def _scratch(self, index: int, database: Any) -> Any:
        scratch = getattr(self._local, f"s{index}", None)
        if scratch is None:
            import hyperscan as hs

            scratch = hs.Scratch(database)
            setattr(self._local, f"s{index}", scratch)
        return scratch

    def search(self, text: str, shape: str | None = None) -> bool:
        """Whether ``text`` holds a failure word, or a stray line of a log of ``shape``."""
        databases = self._compile()
        if databases is not None:
            try:
                data = text.encode("utf-8")
                databases[0].scan(
                    data,
                    _on_first,
                    0,
                    _SHAPE_IDS.get(shape or "", -1),
                    self._scratch(0, databases[0]),
                )
                return False
            except self._stopped:
                return True
            except Exception:  # lone surrogates, a re-entrant call: the plain checks decide
                pass
        if any(marker in text for marker in FAILURE_MARKERS):
            return True
        return shape is not None and _SHAPE_RE[shape].search(text) is not None

    def last(
        self, text: str, start: int = 0, end: int | None = None, shape: str | None = None
    ) -> int:
        """Where the last failure of ``text[start:end]`` starts (a failure word's first
        character, a stray line's first character), or -1."""
        end = len(text) if end is None else end
        databases = self._compile()
        stop = end
        while stop > start and databases is not None:
            lo = max(start, stop - _CHUNK)
            found = self._last_in(databases[1], text, lo, min(end, stop + _OVERLAP), shape)
            if found is None:
                break  # the slice does not encode, or a re-entrant call: the plain checks
            if found >= 0:
                return found
            stop = lo
        else:
            if databases is not None:
                return -1
        return self._last_plain(text, start, end, shape)

    def _last_in(
        self, database: Any, text: str, start: int, end: int, shape: str | None
    ) -> int | None:
        piece = text[start:end]
        try:
            data = piece.encode("utf-8")
        except UnicodeEncodeError:
            return None
        wanted = _SHAPE_IDS.get(shape or "", -1)
        hits: list[tuple[int, int]] = []

        def on_hit(ident: int, _from: int, to: int, _flags: int, _ctx: object) -> bool:
            if ident < len(FAILURE_MARKERS) or ident == wanted:
                hits.append((ident, to))
                return True
            return False

        try:
            database.scan(data[::-1], on_hit, 0, None, self._scratch(1, database))
        except self._stopped:
            pass
        except Exception:
            return None
        if not hits:
            return -1
        ident, to = hits[0]
        offset = len(data) - to + (1 if ident >= len(FAILURE_MARKERS) else 0)
        if not piece.isascii():
            offset = len(data[:offset].decode("utf-8", "ignore"))
        return start + offset

    @staticmethod
    def _last_plain(text: str, start: int, end: int, shape: str | None) -> int:
        at = max(text.rfind(marker, start, end) for marker in FAILURE_MARKERS)
        if shape is not None:
            for found in _SHAPE_RE[shape].finditer(text, max(start, at), end):
                at = max(at, found.start() + 1)
        return at


class _Never(Exception):
    """Stands for ``hyperscan.ScanTerminated`` until the database is built."""


SCREEN = FailureScreen()
