"""``hintline explain`` on a real log written by Python's logging module."""

from __future__ import annotations

import json

import pytest

from hintline import logs
from hintline.cli import main
from hintline.explain import SqliteUsageStore
from tests.services.llama import free_port

from ._stub import openai_stub
from ._support import DB_PASSWORD, RealError, real_python_error, run, write_config

TOKEN_IN_PATH = "ghp_R3alLookingTok3n"


@pytest.fixture
def real(tmp_path, monkeypatch) -> RealError:
    monkeypatch.delenv("HINTLINE_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return real_python_error(tmp_path)


class TestLabelsAndZones:
    def test_guess_heading_and_json(self, real, tmp_path, capsys):
        """--json carries the entry, the label and exactly what was sent; no secret anywhere."""
        with openai_stub() as stub:
            config = write_config(tmp_path, stub.base_url)
            stub.content = '{"cause": "malformed order JSON", "next_step": "validate", "frame": -1}'
            assert main([*run(real, config), "--json"]) == 0
        out = capsys.readouterr().out
        data = json.loads(out)
        assert data["hint"]["label"] == "guess"
        assert data["hint"]["heading"] == "Guess (not anchored in the project's code)"
        assert data["hint"]["reason"] == "the model cited no frame"
        assert data["hint"]["cause"] == "malformed order JSON"
        assert data["hint"]["model"] == "stub-model"
        assert data["entry"]["component"] == "shop.orders"
        assert data["hint"]["sent"]["message"].startswith("order import failed for postgresql")
        (body,) = stub.bodies
        for text in (out.encode(), body):
            assert DB_PASSWORD.encode() not in text
            assert TOKEN_IN_PATH.encode() not in text

    def test_anchored_heading_from_a_real_trace(self, real, tmp_path, capsys):
        """The log reader's trace, in_app settled by the project root: citing the project's
        frame #3 (parse_order) is anchored; citing the stdlib throw site #0 is a guess."""
        with openai_stub() as stub:
            config = write_config(tmp_path, stub.base_url)
            stub.content = '{"cause": "malformed order JSON", "next_step": "validate", "frame": 3}'
            assert main(run(real, config)) == 0
            out = capsys.readouterr().out
            assert "  #3 app/orders.py:5 in parse_order\n" in out
            assert ("Hint (anchored in the project's code): #3 app/orders.py:5 in parse_order "
                    "is the project's own code") in out
            stub.content = '{"cause": "decoder bug", "next_step": "none", "frame": 0}'
            assert main(run(real, config)) == 0
            out = capsys.readouterr().out
            assert "Guess (not anchored in the project's code): #0 " in out
            assert "json/decoder.py:353 in raw_decode is not the project's code" in out

    def test_guess_is_printed_under_its_heading(self, real, tmp_path, capsys):
        """The text output shows the guess heading with its reason."""
        with openai_stub() as stub:
            stub.content = '{"cause": "bad input", "next_step": "check it", "frame": 9}'
            assert main(run(real, write_config(tmp_path, stub.base_url))) == 0
        out = capsys.readouterr().out
        assert "Guess (not anchored in the project's code): the model cited frame #9" in out
        assert "  Cause: bad input\n  Next step: check it\n" in out

    def test_private_hosted_withholds_the_message(self, real, tmp_path, capsys):
        """The switch: zone = private_hosted sends no message and says so."""
        with openai_stub() as stub:
            config = write_config(tmp_path, stub.base_url, zone="private_hosted")
            assert main(run(real, config)) == 0
        out = capsys.readouterr().out
        assert "Made without the log message: trust zone private_hosted may not receive it" in out
        (body,) = stub.bodies
        assert b"order import failed" not in body
        assert b"postgresql" not in body

    @pytest.mark.parametrize("zone", ["external_eu", "external_global", "typo"])
    def test_refused_zone(self, real, tmp_path, capsys, zone):
        """Below system_diagnostics: exit 3, one line naming the zone, nothing sent."""
        with openai_stub() as stub:
            config = write_config(tmp_path, stub.base_url, zone=zone)
            assert main(run(real, config)) == 3
        err = capsys.readouterr().err
        shown = "external_global" if zone == "typo" else zone
        assert err.startswith(f"hintline explain: refused: configuration 'test' is in trust zone {shown}")
        assert err.count("\n") == 1
        assert stub.bodies == []
        assert not (tmp_path / "usage.sqlite3").exists()


class TestErrors:
    def err(self, capsys) -> str:
        err = capsys.readouterr().err
        assert err.count("\n") == 1, err
        return err.removeprefix("hintline explain: ").rstrip("\n")

    def test_no_entries(self, tmp_path, capsys, monkeypatch):
        """A log with no error entries: exit 1."""
        monkeypatch.chdir(tmp_path)
        log = tmp_path / "quiet.log"
        log.write_text("2026-11-30 06:00:00,000 INFO shop: started\n")
        assert main(["explain", str(log)]) == 1
        assert self.err(capsys) == f"no error entries in {log}"

    def test_index_out_of_range(self, real, tmp_path, capsys):
        """--index past the end says how many entries matched."""
        config = write_config(tmp_path, "http://127.0.0.1:9/v1")
        assert main([*run(real, config), "--index", "3"]) == 1
        assert self.err(capsys) == (
            "index 3 is out of range: only 1 matching entry (--index 0 is the newest)"
        )

    def test_search_without_match(self, real, tmp_path, capsys):
        """--search that matches nothing: exit 1."""
        config = write_config(tmp_path, "http://127.0.0.1:9/v1")
        assert main([*run(real, config), "--search", "no-such-text"]) == 1
        assert self.err(capsys) == f"no error entries matching 'no-such-text' in {real.log}"

    def test_unknown_configuration(self, real, tmp_path, capsys):
        """An unknown --configuration names the known ones: exit 1."""
        config = write_config(tmp_path, "http://127.0.0.1:9/v1")
        assert main([*run(real, config), "--configuration", "nope"]) == 1
        assert self.err(capsys).startswith("unknown configuration 'nope' in ")

    def test_provider_unreachable(self, real, tmp_path, capsys):
        """Nothing listens at the configured address: exit 4 and the call is recorded."""
        port = free_port()
        config = write_config(tmp_path, f"http://127.0.0.1:{port}/v1")
        assert main(run(real, config)) == 4
        assert capsys.readouterr().err.splitlines()[-1].startswith(
            f"hintline explain: no hint: configuration 'test': cannot reach http://127.0.0.1:{port}/v1"
        )
        assert SqliteUsageStore(tmp_path / "usage.sqlite3").recent()[0].outcome == "unavailable"

    def test_missing_file(self, tmp_path, capsys):
        """A path that does not exist: exit 1."""
        assert main(["explain", str(tmp_path / "nope.log")]) == 1
        assert self.err(capsys) == f"no such file: {tmp_path / 'nope.log'}"

    def test_key_selects_and_excludes_index(self, real, tmp_path, capsys):
        """--key picks the entry by key; an unknown key and --key with --index are errors."""
        key = logs.read([str(real.log)], limit=1)[0].key
        with openai_stub() as stub:
            config = write_config(tmp_path, stub.base_url)
            assert main([*run(real, config), "--key", key]) == 0
            assert capsys.readouterr().out.startswith(f"Entry · key {key}")
            assert main([*run(real, config), "--key", "ffffffffffff"]) == 1
            assert self.err(capsys) == f"no entry with key ffffffffffff in {real.log}"
            assert main([*run(real, config), "--key", key, "--index", "1"]) == 1
            assert "do not combine" in self.err(capsys)
