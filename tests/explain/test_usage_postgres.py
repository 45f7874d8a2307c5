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
