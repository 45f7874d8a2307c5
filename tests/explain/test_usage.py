"""Usage recording in SQLite and ``hintline usage``."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime

import pytest

from hintline.cli import main
from hintline.exceptions import InvalidAnswer
from hintline.explain import (
    FEATURE,
    Configuration,
    SqliteUsageStore,
    TrustZone,
    UsageRecord,
    UsageSettings,
    explain,
    open_usage_store,
)

from ._support import FixedProvider, frame, make_entry

LOCAL = Configuration(name="local", model="m-local", zone=TrustZone.LOCAL)


def record(i: int, outcome: str = "guess") -> UsageRecord:
    return UsageRecord(
        at=datetime(2026, 11, 30, 6, i, tzinfo=UTC),
        configuration="local",
        model="tiny",
        zone="local",
        prompt_tokens=100 + i,
        completion_tokens=None if i % 2 else 20,
        duration_ms=30 + i,
        outcome=outcome,
        entry_key=f"k{i}",
    )


class TestSqliteStore:
    def test_round_trip_newest_first(self, tmp_path):
        """Records come back newest first, with every field, from a file created on first use."""
        store = SqliteUsageStore(tmp_path / "deep" / "usage.sqlite3")
        assert store.recent() == []
        for i in range(5):
            store.record(record(i))
        assert store.recent(3) == [record(4), record(3), record(2)]
        assert all(r.feature == FEATURE == "exception_hint" for r in store.recent())

    def test_default_store_is_sqlite(self, tmp_path):
        """Without a DSN, usage goes to the SQLite file."""
        store = open_usage_store(UsageSettings(path=tmp_path / "u.db"))
        assert isinstance(store, SqliteUsageStore)
        assert store.describe() == f"sqlite:{tmp_path / 'u.db'}"

    def test_every_call_is_recorded_never_cached(self, tmp_path):
        """The same entry asked twice calls the model twice and records two rows."""
        store = SqliteUsageStore(tmp_path / "u.db")
        provider = FixedProvider.answering("c", "n", 0)
        entry = make_entry(frames=(frame("/srv/app/a.py"),))
        for _ in range(2):
            explain(entry, configuration=LOCAL, project_root="/srv/app", provider=provider,
                    usage=store)
        assert len(provider.requests) == 2
        rows = store.recent()
        assert [(r.outcome, r.model, r.prompt_tokens, r.completion_tokens, r.entry_key)
                for r in rows] == [("anchored", "fixed-answer", 11, 7, "k-test")] * 2

    def test_failed_call_is_recorded(self, tmp_path):
        """A non-JSON answer is recorded with its outcome."""
        store = SqliteUsageStore(tmp_path / "u.db")
        with pytest.raises(InvalidAnswer):
            explain(make_entry(), configuration=LOCAL, provider=FixedProvider("nope"),
                    usage=store)
        (row,) = store.recent()
        assert (row.outcome, row.configuration, row.zone) == ("invalid_answer", "local", "local")


class TestUsageCommand:
    @pytest.fixture
    def config(self, tmp_path, monkeypatch):
        monkeypatch.delenv("HINTLINE_CONFIG", raising=False)
        path = tmp_path / "hintline.toml"
        path.write_text('[usage]\npath = "usage.sqlite3"\n')
        return path

    def test_table(self, config, capsys):
        """`hintline usage` prints the newest rows as a table."""
        store = SqliteUsageStore(config.parent / "usage.sqlite3")
        for i in range(3):
            store.record(record(i, "anchored" if i else "timeout"))
        assert main(["usage", "--config", str(config), "--limit", "2"]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines[0].split() == ["time", "(UTC)", "configuration", "model", "zone", "prompt",
                                    "completion", "ms", "outcome", "feature"]
        assert lines[1].split() == ["2026-11-30", "06:02:00", "local", "tiny", "local", "102",
                                    "20", "32", "anchored", "exception_hint"]
        assert lines[2].split()[6:] == ["-", "31", "anchored", "exception_hint"]
        assert lines[3].startswith("(2 newest of sqlite:")

    def test_json(self, config, capsys):
        """--json prints one object per line."""
        SqliteUsageStore(config.parent / "usage.sqlite3").record(record(7))
        assert main(["usage", "--config", str(config), "--json"]) == 0
        (line,) = capsys.readouterr().out.splitlines()
        assert json.loads(line) == {
            "at": "2026-11-30T06:07:00+00:00", "configuration": "local", "model": "tiny",
            "zone": "local", "prompt_tokens": 107, "completion_tokens": None, "duration_ms": 37,
            "outcome": "guess", "entry_key": "k7", "feature": "exception_hint",
        }

    def test_empty(self, config, capsys):
        """No calls yet: says so, exit 0."""
        assert main(["usage", "--config", str(config)]) == 0
        assert capsys.readouterr().out.startswith("no model calls recorded")

    def test_bad_limit(self, config, capsys):
        """A limit below 1 is a one-line error."""
        assert main(["usage", "--config", str(config), "--limit", "0"]) == 1
        assert capsys.readouterr().err == "hintline usage: --limit must be 1 or more\n"

    def test_unreadable_database(self, tmp_path, capsys):
        """A usage path that is not a database is a one-line error, exit 1."""
        (tmp_path / "usage.sqlite3").write_text("not a database")
        cfg = tmp_path / "hintline.toml"
        cfg.write_text('[usage]\npath = "usage.sqlite3"\n')
        assert main(["usage", "--config", str(cfg)]) == 1
        err = capsys.readouterr().err
        assert err.startswith("hintline usage: usage database ")
        assert err.count("\n") == 1

    def test_schema_is_plain_sql(self, config):
        """The table is readable with the sqlite3 CLI's SQL (columns as documented)."""
        SqliteUsageStore(config.parent / "usage.sqlite3").record(record(1))
        with sqlite3.connect(config.parent / "usage.sqlite3") as conn:
            cols = [r[1] for r in conn.execute("PRAGMA table_info(hintline_usage)")]
        assert cols == ["id", "at", "feature", "configuration", "model", "zone", "prompt_tokens",
                        "completion_tokens", "duration_ms", "outcome", "entry_key"]


class TestLockedDatabase:
    """Issue 14: a usage database locked past the timeout must not lose the model's answer."""

    def _locked(self, path):
        """Another process's lock, as SQLite takes it (a real second connection)."""
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        return holder

    def test_answer_is_shown_and_the_record_waits(self, tmp_path):
        """Before: sqlite3.OperationalError replaced the answer."""
        store = SqliteUsageStore(tmp_path / "u.db", timeout=0.2)
        store.record(record(0))  # creates the table
        holder = self._locked(tmp_path / "u.db")
        try:
            result = explain(make_entry(frames=(frame("/srv/app/a.py"),)), configuration=LOCAL,
                             project_root="/srv/app", provider=FixedProvider.answering("c", "n", 0),
                             usage=store)
        finally:
            holder.rollback()
            holder.close()
        assert result.cause == "c"
        assert result.usage_note is not None
        assert "recorded with the next one" in result.usage_note
        assert result.to_dict()["usage_note"] == result.usage_note
        assert store.pending_path.exists()
        store.record(record(5))  # the lock has cleared: the waiting record goes in first
        assert not store.pending_path.exists()
        rows = store.recent()
        assert [r.outcome for r in rows] == ["guess", "anchored", "guess"]
        assert rows[1].entry_key == "k-test"

    def test_a_failed_call_keeps_its_own_error(self, tmp_path):
        """A model error is not replaced by the locked database's."""
        store = SqliteUsageStore(tmp_path / "u.db", timeout=0.2)
        store.record(record(0))
        holder = self._locked(tmp_path / "u.db")
        try:
            with pytest.raises(InvalidAnswer):
                explain(make_entry(), configuration=LOCAL, provider=FixedProvider("nope"),
                        usage=store)
        finally:
            holder.rollback()
            holder.close()
        store.record(record(1))
        assert [r.outcome for r in store.recent()] == ["guess", "invalid_answer", "guess"]

    def test_cli_shows_the_answer_and_says_so(self, tmp_path, monkeypatch, capsys):
        """``hintline explain`` prints the hint, then one line on stderr about the usage."""
        from hintline.explain import _service

        monkeypatch.delenv("HINTLINE_CONFIG", raising=False)
        db = tmp_path / "usage.sqlite3"
        SqliteUsageStore(db).record(record(0))
        config = tmp_path / "hintline.toml"
        config.write_text(f'[usage]\npath = "{db}"\n')
        log = tmp_path / "app.log"
        log.write_text("2026-11-30 06:00:00,000 ERROR shop: import failed\n")
        monkeypatch.setattr(_service, "make_provider", lambda cfg: FixedProvider.answering("c", "n", -1))
        monkeypatch.setattr(
            _service, "open_usage_store", lambda settings: SqliteUsageStore(db, timeout=0.2)
        )
        holder = self._locked(db)
        try:
            code = main(["explain", "--config", str(config), str(log)])
        finally:
            holder.rollback()
            holder.close()
        out, err = capsys.readouterr()
        assert code == 0, err
        assert "Cause: c" in out
        assert err.startswith("hintline explain: usage database")
        assert err.count("\n") == 1
