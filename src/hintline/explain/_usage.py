"""Usage: every model call is recorded (time, configuration, model, tokens, duration, outcome).

Calls are attributed to the feature ``exception_hint``. The store is an SQLite file by default
and PostgreSQL when a DSN is configured (:mod:`hintline.explain._usage_postgres`, the
``postgres`` extra). Both create their table on first use.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from contextlib import closing
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol, runtime_checkable

from hintline.exceptions import ConfigError
from hintline.explain._config import UsageSettings

__all__ = [
    "FEATURE",
    "OUTCOMES",
    "SqliteUsageStore",
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


class SqliteUsageStore:
    """Usage in an SQLite file (created with its folder on first use).

    Args:
        path: the database file.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def describe(self) -> str:
        """The file's path."""
        return f"sqlite:{self.path}"

    def _connect(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=10)
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
        """Insert one record."""
        row = _row(record)
        with closing(self._connect()) as conn, conn:
            conn.execute(
                f"INSERT INTO {TABLE} ({', '.join(_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(_COLUMNS))})",
                (row[0].isoformat(), *row[1:]),
            )

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
    """PostgreSQL when ``settings.dsn`` is set (needs the ``postgres`` extra), else SQLite."""
    if settings.dsn:
        from hintline.explain._usage_postgres import PostgresUsageStore

        return PostgresUsageStore(settings.dsn)
    return SqliteUsageStore(settings.path)
