"""Usage in a real PostgreSQL (the session's ``postgres`` fixture), through the API and the CLI."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime

import psycopg
import pytest

from hintline.cli import main
from hintline.exceptions import ConfigError
from hintline.explain import Configuration, TrustZone, UsageRecord, UsageSettings, explain
from hintline.explain import open_usage_store as open_store
from hintline.explain._usage import PendingRecords, UsageDeferred
from hintline.explain._usage_postgres import PostgresUsageStore
from tests.services.llama import free_port

from ._support import FixedProvider, frame, make_entry

pytestmark = pytest.mark.live


@pytest.fixture
def usage_dsn(postgres: str) -> Iterator[str]:
    """A fresh database on the session's PostgreSQL, dropped afterwards."""
    name = f"usage_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    yield postgres.rsplit("/", 1)[0] + f"/{name}"
    with psycopg.connect(postgres, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE {name} WITH (FORCE)")


def test_store_round_trip_and_explain(usage_dsn):
    """A DSN selects PostgreSQL; explain() records there; rows come back newest first."""
    store = open_store(UsageSettings(dsn=usage_dsn))
    assert isinstance(store, PostgresUsageStore)
    assert store.recent() == []
    first = UsageRecord(at=datetime(2026, 11, 30, 6, 0, tzinfo=UTC), configuration="a",
                        model="m", zone="local", prompt_tokens=None, completion_tokens=None,
                        duration_ms=5, outcome="timeout", entry_key=None)
    store.record(first)
    explain(make_entry(frames=(frame("/srv/app/a.py"),)),
            configuration=Configuration(name="local", zone=TrustZone.LOCAL),
            project_root="/srv/app", provider=FixedProvider.answering("c", "n", 0), usage=store)
    newest, oldest = store.recent()
    assert oldest == first
    assert (newest.outcome, newest.model, newest.prompt_tokens, newest.completion_tokens,
            newest.feature, newest.entry_key) == ("anchored", "fixed-answer", 11, 7,
                                                   "exception_hint", "k-test")
    with psycopg.connect(usage_dsn) as conn:
        (count,) = conn.execute("SELECT count(*) FROM hintline_usage").fetchone()
    assert count == 2


def test_usage_command_reads_postgres(usage_dsn, tmp_path, capsys, monkeypatch):
    """`hintline usage` with [usage] dsn_env shows the PostgreSQL rows."""
    monkeypatch.setenv("HINTLINE_TEST_USAGE_DSN", usage_dsn)
    config = tmp_path / "hintline.toml"
    config.write_text('[usage]\ndsn_env = "HINTLINE_TEST_USAGE_DSN"\n')
    store = PostgresUsageStore(usage_dsn)
    store.record(UsageRecord(at=datetime(2026, 11, 30, 7, 1, tzinfo=UTC),
                             configuration="team", model="qwen", zone="private_hosted",
                             prompt_tokens=321, completion_tokens=45, duration_ms=900,
                             outcome="guess", entry_key="abc"))
    assert main(["usage", "--config", str(config), "--json"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert json.loads(line)["zone"] == "private_hosted"
    assert main(["usage", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "qwen" in out
    assert "(1 newest of postgresql:" in out


def test_unreachable_database_is_a_config_error():
    """A DSN nobody answers: one-line ConfigError without the password."""
    store = PostgresUsageStore(f"postgresql://u:hunter2secret@127.0.0.1:{free_port()}/db")
    with pytest.raises(ConfigError) as caught:
        store.recent()
    assert "hunter2secret" not in str(caught.value)
    assert "\n" not in str(caught.value)
    assert str(caught.value).startswith("usage database postgresql:")


def _record(minute: int, outcome: str = "guess") -> UsageRecord:
    return UsageRecord(at=datetime(2026, 11, 30, 8, minute, tzinfo=UTC), configuration="c",
                       model="m", zone="local", prompt_tokens=1, completion_tokens=2,
                       duration_ms=3, outcome=outcome, entry_key=None)


class TestRecordsWait:
    """Issue 14: a usage table locked (or a server down) past the timeout must not lose the
    call: the answer is shown, the record waits beside the default SQLite file and goes in with
    the next one, as on SQLite. Before: "usage not recorded", and a locked table was waited for
    for ever (PostgreSQL has no lock timeout by default)."""

    def test_locked_table_keeps_the_answer_and_the_record(self, usage_dsn, tmp_path):
        store = PostgresUsageStore(usage_dsn, pending_dir=tmp_path, timeout=0.5)
        store.record(_record(0))  # creates the table
        holder = psycopg.connect(usage_dsn)  # another session, in a migration
        holder.execute("LOCK TABLE hintline_usage IN ACCESS EXCLUSIVE MODE")
        try:
            result = explain(make_entry(frames=(frame("/srv/app/a.py"),)),
                             configuration=Configuration(name="local", zone=TrustZone.LOCAL),
                             project_root="/srv/app", provider=FixedProvider.answering("c", "n", 0),
                             usage=store)
        finally:
            holder.rollback()
            holder.close()
        assert result.cause == "c"
        assert result.usage_note is not None
        assert "lock timeout" in result.usage_note
        assert "recorded with the next one" in result.usage_note
        assert store.pending_path.parent == tmp_path
        assert store.pending_path.exists()
        store.record(_record(5))  # the lock has cleared: the waiting record goes in first
        assert not store.pending_path.exists()
        assert [r.outcome for r in store.recent()] == ["guess", "anchored", "guess"]

    def test_server_down_keeps_the_record(self, tmp_path):
        """A server nobody answers: the record waits, the note has no password."""
        dsn = f"postgresql://u:hunter2secret@127.0.0.1:{free_port()}/db"
        store = PostgresUsageStore(dsn, pending_dir=tmp_path, timeout=1)
        with pytest.raises(UsageDeferred) as caught:
            store.record(_record(1, "timeout"))
        note = str(caught.value)
        assert "hunter2secret" not in note
        assert "\n" not in note
        assert note.startswith("usage database postgresql:")
        assert str(store.pending_path) in note
        assert [r.outcome for r in PendingRecords(store.pending_path).read()] == ["timeout"]
        assert "hunter2secret" not in store.pending_path.name

    def test_open_usage_store_waits_beside_the_sqlite_file(self, usage_dsn, tmp_path):
        store = open_store(UsageSettings(dsn=usage_dsn, path=tmp_path / "state" / "usage.sqlite3"))
        assert isinstance(store, PostgresUsageStore)
        assert store.pending_path.parent == tmp_path / "state"
        other = open_store(UsageSettings(dsn=usage_dsn + "x", path=tmp_path / "state" / "usage.sqlite3"))
        assert isinstance(other, PostgresUsageStore)
        assert other.pending_path != store.pending_path  # one file per database
