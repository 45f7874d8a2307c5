"""Usage in PostgreSQL (needs ``pip install 'hintline[postgres]'``, which brings psycopg 3)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from hintline.exceptions import ConfigError, MissingExtraError
from hintline.explain._config import UsageSettings
from hintline.explain._usage import (
    _COLUMNS,
    TABLE,
    PendingRecords,
    UsageDeferred,
    UsageRecord,
    _record,
    _row,
)
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

    A server that cannot be reached, or a table locked by another session for longer than
    ``timeout``, does not lose the record: it waits in a file of ``pending_dir`` (one per DSN)
    and is written with the next record that gets through (:class:`UsageDeferred` says so), as
    the SQLite store does.

    Args:
        dsn: a libpq connection string or URL.
        pending_dir: where records wait (default: the folder of the default SQLite file,
            ``$XDG_STATE_HOME/hintline``).
        timeout: seconds to wait for the connection, and for a lock held by another session.
    """

    def __init__(self, dsn: str, *, pending_dir: Path | None = None, timeout: float = 10.0) -> None:
        self.dsn = dsn
        self.timeout = timeout
        folder = pending_dir if pending_dir is not None else UsageSettings().path.parent
        digest = hashlib.sha256(dsn.encode()).hexdigest()[:16]  # one file per database
        self.pending_path = folder / f"usage-postgresql-{digest}.pending.jsonl"
        self._ready = False

    def describe(self) -> str:
        """The DSN without its password."""
        return "postgresql:" + _PASSWORD.sub(r"\1***", scrub(self.dsn))

    def _failure(self, exc: psycopg.Error) -> str:
        return f"usage database {self.describe()}: {' '.join(scrub(str(exc)).split())}"

    def _open(self) -> psycopg.Connection[tuple[object, ...]]:
        conn = psycopg.connect(self.dsn, connect_timeout=max(1, round(self.timeout)))
        try:
            with conn.cursor() as cur:
                # a lock held by another session (a migration, LOCK TABLE) is waited for this
                # long, not for ever
                cur.execute(f"SET lock_timeout = {max(1, int(self.timeout * 1000))}")
                if not self._ready:
                    cur.execute(_DDL)
            conn.commit()
        except BaseException:
            conn.close()
            raise
        self._ready = True
        return conn

    def _connect(self) -> psycopg.Connection[tuple[object, ...]]:
        try:
            return self._open()
        except psycopg.Error as exc:
            raise ConfigError(self._failure(exc)) from exc

    def record(self, record: UsageRecord) -> None:
        """Insert one record, and any that waited while the database could not take them.

        Raises:
            UsageDeferred: the server could not be reached or the table stayed locked; the
                record waits in :attr:`pending_path`.
            ConfigError: the DSN or the database is wrong in a way waiting will not cure.
        """
        waiting = PendingRecords(self.pending_path)
        pending = waiting.read()
        try:
            with self._open() as conn, conn.cursor() as cur:
                cur.executemany(
                    f"INSERT INTO {TABLE} ({', '.join(_COLUMNS)}) "
                    f"VALUES ({', '.join(['%s'] * len(_COLUMNS))})",
                    [_row(r) for r in [*pending, record]],
                )
        except psycopg.OperationalError as exc:  # down, unreachable, locked past the timeout
            try:
                waiting.add(record)
            except OSError as err:
                raise ConfigError(f"{self._failure(exc)}; not recorded ({err})") from exc
            raise UsageDeferred(
                f"{self._failure(exc)}; this call is kept in {self.pending_path} and recorded "
                "with the next one"
            ) from exc
        except psycopg.Error as exc:
            raise ConfigError(self._failure(exc)) from exc
        if pending:
            waiting.clear()

    def recent(self, limit: int = 20) -> list[UsageRecord]:
        """The newest records first."""
        with self._connect() as conn, conn.cursor() as cur:
            cur.execute(
                f"SELECT {', '.join(_COLUMNS)} FROM {TABLE} ORDER BY id DESC LIMIT %s",
                (max(0, limit),),
            )
            return [_record(row) for row in cur.fetchall()]
