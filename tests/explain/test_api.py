"""The public entry point: ``hintline.explain(entry, ...)``."""

from __future__ import annotations

import importlib

import hintline
from hintline.explain import Configuration, SqliteUsageStore, TrustZone

from ._support import FixedProvider, frame, make_entry


def test_hintline_explain_is_callable_however_imported(tmp_path):
    """`hintline.explain` works as the function whether or not the package was imported first
    (importing the package binds the attribute to the package, which forwards the call)."""
    importlib.import_module("hintline.explain")
    entry = make_entry(frames=(frame("/srv/app/a.py"),))
    result = hintline.explain(
        entry,
        configuration=Configuration(name="local", zone=TrustZone.LOCAL),
        project_root="/srv/app",
        provider=FixedProvider.answering("cause", "step", 0),
        usage=SqliteUsageStore(tmp_path / "u.db"),
    )
    assert result.anchored is True
    assert result.cause == "cause"
    from hintline import explain

    assert callable(explain)


def test_explanation_to_dict_is_json_ready(tmp_path):
    """to_dict() carries the label, the reason and what was sent."""
    import json

    result = hintline.explain(
        make_entry(frames=(frame("/srv/app/a.py"),)),
        configuration=Configuration(name="local", zone=TrustZone.LOCAL),
        project_root="/srv/app",
        provider=FixedProvider.answering("cause", "step", -1),
        usage=SqliteUsageStore(tmp_path / "u.db"),
    )
    data = json.loads(json.dumps(result.to_dict()))
    assert data["label"] == "guess"
    assert data["sent"]["frames"] == [{"index": 0, "file": "a.py", "line": 10,
                                       "function": "handle"}]


def test_explicit_arguments_need_no_configuration_file(tmp_path, monkeypatch):
    """With a configuration, a usage store and a project root given, no file is read (a broken
    ./hintline.toml does not matter); without them it is, and its error is a ConfigError."""
    import pytest

    from hintline.exceptions import ConfigError

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("HINTLINE_CONFIG", raising=False)
    (tmp_path / "hintline.toml").write_text("[explain\n")
    entry = make_entry(frames=(frame("/srv/app/a.py"),))
    result = hintline.explain(
        entry,
        configuration=Configuration(name="local", zone=TrustZone.LOCAL),
        project_root="/srv/app",
        provider=FixedProvider.answering("cause", "step", 0),
        usage=SqliteUsageStore(tmp_path / "u.db"),
    )
    assert result.anchored is True
    with pytest.raises(ConfigError, match="not valid TOML"):
        hintline.explain(entry, provider=FixedProvider.answering("c", "n", 0))
