"""Usage in PostgreSQL (needs ``pip install 'hintline[postgres]'``, which brings psycopg 3)."""

from __future__ import annotations

import re

from hintline.exceptions import ConfigError, MissingExtraError
from hintline.explain._usage import _COLUMNS, TABLE, UsageRecord, _record, _row
from hintline.scrub import scrub

try:
    import psycopg
except ImportError as exc:  # pragma: no cover - the extra is installed wherever tests run
    raise MissingExtraError("postgres", "psycopg") from exc

__all__ = ["PostgresUsageStore"]

_DDL = (
    f"CREATE TABLE IF NOT EXISTS {TABLE} ("
    "id BIGSERIAL PRIMARY KEY, at TIMESTAMPTZ NOT NULL, feature TEXT NOT NULL, "
    "configuration TEXT NOT NULL, model TEXT NOT NULL, zone TEXT NOT NULL, "
    "prompt_tokens INTEGER, completion_tokens INTEGER, duration_ms INTEGER NOT NULL, "
    "outcome TEXT NOT NULL, entry_key TEXT)"
)
_PASSWORD = re.compile(r"(password\s*=\s*)\S+", re.IGNORECASE)


class PostgresUsageStore:
    """Usage in a PostgreSQL table ``hintline_usage`` (created on first use).

    Args:
        dsn: a libpq connection string or URL.
    """

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self._ready = False

    def describe(self) -> str:
        """The DSN without its password."""
        return "postgresql:" + _PASSWORD.sub(r"\1***", scrub(self.dsn))

    def _connect(self) -> psycopg.Connection[tuple[object, ...]]:
        try:
            conn = psycopg.connect(self.dsn, connect_timeout=10)
            if not self._ready:
                with conn.cursor() as cur:
                    cur.execute(_DDL)
                conn.commit()
                self._ready = True
        except psycopg.Error as exc:
            detail = " ".join(scrub(str(exc)).split())
            raise ConfigError(f"usage database {self.describe()}: {detail}") from exc
        return conn

    def record(self, record: UsageRecord) -> None:
        """Insert one record."""
        with self._connect() as conn, conn.cursor() as cur:
            cur.execute(
                f"INSERT INTO {TABLE} ({', '.join(_COLUMNS)}) "
                f"VALUES ({', '.join(['%s'] * len(_COLUMNS))})",
                _row(record),
            )

    def recent(self, limit: int = 20) -> list[UsageRecord]:
        """The newest records first."""
        with self._connect() as conn, conn.cursor() as cur:
            cur.execute(
                f"SELECT {', '.join(_COLUMNS)} FROM {TABLE} ORDER BY id DESC LIMIT %s",
                (max(0, limit),),
            )
            return [_record(row) for row in cur.fetchall()]
