"""Where a long input's failure is: one Vectorscan pass, for :mod:`hintline.cleaner.bound`.

A failure is found two ways, the same two ways :mod:`hintline.cleaner.locate` reads a log:

* a **failure word** (``Traceback (most recent``, ``Exception``, ``rror``, ``panic``,
  ``FATAL`` …: :data:`FAILURE_MARKERS`), wherever it is;
* in a log whose records open with a timestamp or a bracket (its first line is a record
  header), a **stray line**: a line that opens neither a record nor indented under one, what
  another writer printed between the records (an uncaught trace, a crashed child's message,
  ``DETAIL:  Key (id)=(1) is still referenced``). Its words need not be failure words: that a
  line breaks the log's shape is the signal, as it is to a person scrolling the log.

Both are one Vectorscan database per log shape: the literals, and a line break followed by a
byte the shape's records do not open with (``\\n[^0-9.\\s]`` for timestamped logs, as
two-byte literals). ``last()`` scans pieces from the end, 4 KiB first then 4x larger up to
1 MiB, and stops at the first piece with a hit: its last hit is the last failure. Where
Hyperscan cannot run, ``str.rfind`` per literal and a ``re`` search per line start answer the
same (slower).
"""

from __future__ import annotations

import threading
from typing import Any

from hintline import _lazyre as re  # patterns compiled on first use

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

# A log's shape: what its record lines open with. A stray line opens with anything else that
# is not whitespace (a continuation line is indented) nor ``.`` (``...`` is the line a cut
# leaves, see bound). Vectorscan is given the line break and each byte a stray line may open
# with as two-byte literals: as fast as the failure words (a class after ``\n`` is 4x slower).
_OPENS = {"digit": "0123456789", "bracket": "[", "brace": "{"}
_NOT_STRAY = frozenset(b" \t\n\r\x0b\x0c.")
_SHAPES = {
    shape: tuple(
        b"\n" + bytes([byte])
        for byte in (*range(0x01, 0x80), *range(0xC2, 0xF5))  # ASCII, UTF-8 lead bytes
        if byte not in _NOT_STRAY and chr(byte) not in opens
    )
    for shape, opens in _OPENS.items()
}
_SHAPE_RE = {  # the same, where Hyperscan cannot run (a class of two characters: bounded)
    shape: re.compile(r"\n[^" + re.escape(opens) + r".\s]") for shape, opens in _OPENS.items()
}
# A record line's first character and the line break before it, in reversed text (bounded:
# two characters; searched in at most 64 KiB).
RECORD_LINE_REVERSED = {
    "digit": re.compile(r"[0-9]\n"),
    "bracket": re.compile(r"\[\n"),
    "brace": re.compile(r"\{\n"),
}
_FIRST_CHUNK = 4096  # last() scans the end first, then 4x larger pieces up to 1 MiB
_CHUNK = 1 << 20
_OVERLAP = max(len(m) for m in FAILURE_MARKERS) * 4
_MARKER_BYTES = tuple(len(m.encode()) for m in FAILURE_MARKERS)


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


def _on_first(_id: int, _from: int, _to: int, _flags: int, _context: object) -> bool:
    return True  # the first hit answers: stop the scan (the binding raises ScanTerminated)


class FailureScreen:
    """The failure words, with the stray-line pattern of one log shape or none: a forward and
    a reversed Vectorscan database per shape, each built on first use."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._local = threading.local()
        self._databases: dict[str | None, tuple[Any, Any]] = {}
        self._failed = False
        self._stopped: type[BaseException] = _Never

    def _compile(self, shape: str | None) -> tuple[Any, Any] | None:
        found = self._databases.get(shape)
        if found is not None or self._failed:
            return found
        with self._lock:
            if shape in self._databases or self._failed:
                return self._databases.get(shape)
            from hintline.cleaner import match as _engine

            if _engine._requested() == "re":
                self._failed = True
                return None
            try:
                import hyperscan as hs

                expressions = [re.escape(m).encode() for m in FAILURE_MARKERS]
                if shape is not None:
                    expressions += [re.escape(literal) for literal in _SHAPES[shape]]
                built = []
                for flags in (hs.HS_FLAG_SINGLEMATCH, 0):  # search(), last()
                    database = hs.Database(mode=hs.HS_MODE_BLOCK)
                    database.compile(
                        expressions=expressions,
                        ids=list(range(len(expressions))),
                        elements=len(expressions),
                        flags=flags,
                    )
                    built.append(database)
                self._stopped = hs.ScanTerminated
                self._databases[shape] = (built[0], built[1])
            except Exception:  # no wheel
                self._failed = True
                return None
        return self._databases[shape]

    def _scratch(self, key: str, database: Any) -> Any:
        scratches = getattr(self._local, "scratches", None)
        if scratches is None:
            scratches = self._local.scratches = {}
        scratch = scratches.get(key)
        if scratch is None:
            import hyperscan as hs

            scratch = scratches[key] = hs.Scratch(database)
        return scratch

    def search(self, text: str, shape: str | None = None) -> bool:
        """Whether ``text`` holds a failure word, or a stray line of a log of ``shape``."""
        databases = self._compile(shape)
        if databases is not None:
            try:
                scratch = self._scratch(f"f{shape}", databases[0])
                databases[0].scan(text.encode("utf-8"), _on_first, 0, None, scratch)
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
        character, a stray line's first character), or -1.

        Pieces from the end are scanned forward, the last hit of the first piece that has one
        answers; the pieces grow 4x from 4 KiB to 1 MiB, so that text dense with hits costs
        few callbacks and text without any costs one pass (no reversed copy: reversing bytes
        costs 4x the scan).
        """
        end = len(text) if end is None else end
        databases = self._compile(shape)
        stop = end
        size = _FIRST_CHUNK
        while stop > start and databases is not None:
            lo = max(start, stop - size)
            found = self._last_in(databases[1], text, lo, min(end, stop + _OVERLAP), shape)
            if found is None:
                break  # the slice does not encode, or a re-entrant call: the plain checks
            if found >= 0:
                return found
            stop = lo
            size = min(_CHUNK, size * 4)
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
        last = [-1]
        markers = len(FAILURE_MARKERS)

        def on_hit(ident: int, _from: int, to: int, _flags: int, _ctx: object) -> bool:
            # a failure word starts its length before its end, a stray line at its last byte
            at = to - _MARKER_BYTES[ident] if ident < markers else to - 1
            if at > last[0]:
                last[0] = at
            return False

        try:
            database.scan(data, on_hit, 0, None, self._scratch(f"l{shape}", database))
        except Exception:  # a re-entrant call: the plain checks decide
            return None
        offset = last[0]
        if offset < 0:
            return -1
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
