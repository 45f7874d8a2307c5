"""Usage: every model call is recorded (time, configuration, model, tokens, duration, outcome).

Calls are attributed to the feature ``exception_hint``. The store is an SQLite file by default
and PostgreSQL when a DSN is configured (:mod:`hintline.explain._usage_postgres`, the
``postgres`` extra). Both create their table on first use.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Sequence
from contextlib import closing
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol, runtime_checkable

from hintline.exceptions import ConfigError, HintlineError
from hintline.explain._config import UsageSettings

__all__ = [
    "FEATURE",
    "OUTCOMES",
    "PendingRecords",
    "SqliteUsageStore",
    "UsageDeferred",
    "UsageRecord",
    "UsageStore",
    "open_usage_store",
]

FEATURE = "exception_hint"
OUTCOMES = ("anchored", "guess", "timeout", "unavailable", "cut_off", "invalid_answer", "error")
"""``anchored``/``guess``: a usable answer; the others: why there was none (``error``: an
unexpected failure, e.g. in a custom provider)."""

TABLE = "hintline_usage"


@dataclass(frozen=True, slots=True)
class UsageRecord:
    """One model call.

    Attributes:
        at: when the call started (UTC).
        configuration: the configuration's name.
        model: the model asked (as the server named it, else as configured).
        zone: the provider's trust zone.
        prompt_tokens: tokens read, when the server reported them.
        completion_tokens: tokens generated, when the server reported them.
        duration_ms: wall time of the call in milliseconds.
        outcome: one of :data:`OUTCOMES`.
        entry_key: the key of the log entry explained.
        feature: what the call was for (``exception_hint``).
    """

    at: datetime
    configuration: str
    model: str
    zone: str
    prompt_tokens: int | None
    completion_tokens: int | None
    duration_ms: int
    outcome: str
    entry_key: str | None = None
    feature: str = FEATURE

    def to_dict(self) -> dict[str, object]:
        """JSON-ready data (``at`` as ISO 8601)."""
        data = asdict(self)
        data["at"] = self.at.isoformat()
        return data


@runtime_checkable
class UsageStore(Protocol):
    """Where usage records go."""

    def record(self, record: UsageRecord) -> None:
        """Store one record."""
        ...

    def recent(self, limit: int = 20) -> list[UsageRecord]:
        """The newest ``limit`` records, newest first."""
        ...

    def describe(self) -> str:
        """Where the records are, for people (no password)."""
        ...


_COLUMNS = (
    "at",
    "feature",
    "configuration",
    "model",
    "zone",
    "prompt_tokens",
    "completion_tokens",
    "duration_ms",
    "outcome",
    "entry_key",
)


class UsageDeferred(HintlineError):
    """The usage database was busy: the record waits in a file beside it and is written with
    the next record that gets through. The message says where."""


class PendingRecords:
    """Records that wait in a JSON-lines file until their database takes them (locked, down).

    Args:
        path: the file (created on the first record that waits).
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> list[UsageRecord]:
        """The waiting records, oldest first (none when there is no file)."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except OSError:
            return []
        records = []
        for line in text.splitlines():
            try:
                data = json.loads(line)
                data["at"] = datetime.fromisoformat(data["at"])
                records.append(UsageRecord(**data))
            except (ValueError, TypeError, KeyError):
                continue  # a line cut by a crash: the others are kept
        return records

    def add(self, record: UsageRecord) -> None:
        """Append ``record``.

        Raises:
            OSError: the file cannot be written.
        """
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(record.to_dict()) + "\n")

    def clear(self) -> None:
        """Forget the records: their database has them now."""
        with contextlib.suppress(OSError):
            self.path.unlink()


class SqliteUsageStore:
    """Usage in an SQLite file (created with its folder on first use).

    A database locked by another process for longer than ``timeout`` does not lose the record:
    it is appended to ``<file>.pending.jsonl`` and written with the next record that gets
    through (:class:`UsageDeferred` says so).

    Args:
        path: the database file.
        timeout: seconds to wait for a lock held by another process.
    """

    def __init__(self, path: str | Path, *, timeout: float = 10.0) -> None:
        self.path = Path(path)
        self.timeout = timeout

    @property
    def pending_path(self) -> Path:
        """Where records wait while the database is locked."""
        return self.path.with_name(self.path.name + ".pending.jsonl")

    def describe(self) -> str:
        """The file's path."""
        return f"sqlite:{self.path}"

    def _connect(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=self.timeout)
            conn.execute(
                f"CREATE TABLE IF NOT EXISTS {TABLE} ("
                "id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, feature TEXT NOT NULL, "
                "configuration TEXT NOT NULL, model TEXT NOT NULL, zone TEXT NOT NULL, "
                "prompt_tokens INTEGER, completion_tokens INTEGER, "
                "duration_ms INTEGER NOT NULL, outcome TEXT NOT NULL, entry_key TEXT)"
            )
        except (OSError, sqlite3.Error) as exc:
            raise ConfigError(f"usage database {self.path}: {exc}") from exc
        return conn

    def record(self, record: UsageRecord) -> None:
        """Insert one record, and any that waited while the database was locked.

        Raises:
            UsageDeferred: the database stayed locked; the record waits beside it.
            ConfigError: the database cannot be opened or written.
        """
        waiting = PendingRecords(self.pending_path)
        pending = waiting.read()
        rows = [_row(r) for r in [*pending, record]]
        try:
            try:
                conn = self._connect()
            except ConfigError as exc:
                if isinstance(exc.__cause__, sqlite3.OperationalError):
                    raise exc.__cause__ from None  # locked while creating the table
                raise
            with closing(conn), conn:
                conn.executemany(
                    f"INSERT INTO {TABLE} ({', '.join(_COLUMNS)}) "
                    f"VALUES ({', '.join('?' * len(_COLUMNS))})",
                    [(row[0].isoformat(), *row[1:]) for row in rows],
                )
        except sqlite3.OperationalError as exc:  # locked or busy past the timeout
            try:
                waiting.add(record)
            except OSError as err:
                raise ConfigError(f"usage database {self.path}: {exc}; not recorded ({err})") from exc
            raise UsageDeferred(
                f"usage database {self.path}: {exc}; this call is kept in {self.pending_path} "
                "and recorded with the next one"
            ) from exc
        if pending:
            waiting.clear()

    def recent(self, limit: int = 20) -> list[UsageRecord]:
        """The newest records first."""
        if not self.path.exists():
            return []
        with closing(self._connect()) as conn:
            rows = conn.execute(
                f"SELECT {', '.join(_COLUMNS)} FROM {TABLE} ORDER BY id DESC LIMIT ?",
                (max(0, limit),),
            ).fetchall()
        return [_record((datetime.fromisoformat(r[0]), *r[1:])) for r in rows]


def _row(record: UsageRecord) -> tuple[datetime, str, str, str, str, int | None, int | None,
                                         int, str, str | None]:
    return (
        record.at.astimezone(UTC),
        record.feature,
        record.configuration,
        record.model,
        record.zone,
        record.prompt_tokens,
        record.completion_tokens,
        record.duration_ms,
        record.outcome,
        record.entry_key,
    )


def _record(row: Sequence[object]) -> UsageRecord:
    at = row[0]
    assert isinstance(at, datetime)
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return UsageRecord(
        at=at,
        feature=str(row[1]),
        configuration=str(row[2]),
        model=str(row[3]),
        zone=str(row[4]),
        prompt_tokens=row[5] if isinstance(row[5], int) else None,
        completion_tokens=row[6] if isinstance(row[6], int) else None,
        duration_ms=int(row[7]) if isinstance(row[7], (int, float)) else 0,
        outcome=str(row[8]),
        entry_key=str(row[9]) if row[9] is not None else None,
    )


def open_usage_store(settings: UsageSettings) -> UsageStore:
    """PostgreSQL when ``settings.dsn`` is set (needs the ``postgres`` extra; its records wait
    beside where the SQLite file would be when the server is down or the table locked), else
    SQLite."""
    if settings.dsn:
        from hintline.explain._usage_postgres import PostgresUsageStore

        return PostgresUsageStore(settings.dsn, pending_dir=settings.path.parent)
    return SqliteUsageStore(settings.path)
