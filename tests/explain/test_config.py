"""Configurations: the TOML file, its search order, validation and defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from hintline.exceptions import ConfigError
from hintline.explain import DEFAULT_BASE_URL, TrustZone, load_settings, parse_settings


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def one(name: str, model: str) -> str:
    return f'[explain.configurations.{name}]\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "{model}"\n'


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    """No configuration file anywhere: a fresh cwd and XDG_CONFIG_HOME, no HINTLINE_CONFIG."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("HINTLINE_CONFIG", raising=False)
    return tmp_path


class TestSearchOrder:
    def test_builtin_default_points_at_local_server(self, isolated):
        """Without a file the default configuration is a local server on 127.0.0.1:8080."""
        settings = load_settings()
        assert settings.source is None
        cfg = settings.get()
        assert (cfg.name, cfg.base_url, cfg.zone) == ("local", DEFAULT_BASE_URL, TrustZone.LOCAL)
        assert DEFAULT_BASE_URL == "http://127.0.0.1:8080/v1"

    def test_order_is_option_env_project_user(self, isolated, monkeypatch):
        """--config beats $HINTLINE_CONFIG beats ./hintline.toml beats the XDG user file."""
        user = write(isolated / "xdg" / "hintline" / "config.toml", one("x", "user"))
        assert load_settings().get("x").model == "user"
        assert load_settings().source == user
        write(isolated / "hintline.toml", one("x", "project"))
        assert load_settings().get("x").model == "project"
        monkeypatch.setenv("HINTLINE_CONFIG", str(write(isolated / "env.toml", one("x", "env"))))
        assert load_settings().get("x").model == "env"
        option = write(isolated / "option.toml", one("x", "option"))
        assert load_settings(option).get("x").model == "option"

    def test_named_file_must_exist(self, isolated, monkeypatch):
        """A file named by --config or HINTLINE_CONFIG that is missing is an error, not a fallback."""
        with pytest.raises(ConfigError, match=r"not found: .*nope.toml \(--config\)"):
            load_settings(isolated / "nope.toml")
        monkeypatch.setenv("HINTLINE_CONFIG", str(isolated / "gone.toml"))
        with pytest.raises(ConfigError, match="HINTLINE_CONFIG"):
            load_settings()

    def test_invalid_toml_is_a_config_error(self, isolated):
        """A broken file gives a one-line ConfigError naming it."""
        bad = write(isolated / "bad.toml", "[explain\n")
        with pytest.raises(ConfigError, match="not valid TOML"):
            load_settings(bad)


class TestConfiguration:
    def test_full_configuration(self, tmp_path):
        """Every documented key is read."""
        settings = parse_settings(
            {
                "explain": {
                    "default": "team",
                    "project_root": "src/..",
                    "configurations": {
                        "team": {
                            "provider": "openai_compatible",
                            "base_url": "https://llm.example.com/v1/",
                            "model": "qwen",
                            "zone": "private_hosted",
                            "api_key_env": "TEAM_KEY",
                            "timeout": 12.5,
                            "max_tokens": 300,
                            "response_format": "json_object",
                        }
                    },
                },
                "usage": {"path": "usage.db"},
            },
            source=tmp_path / "hintline.toml",
        )
        cfg = settings.get()
        assert cfg.name == "team"
        assert cfg.base_url == "https://llm.example.com/v1"
        assert (cfg.zone, cfg.zone_source) == (TrustZone.PRIVATE_HOSTED, "configured")
        assert (cfg.timeout, cfg.max_tokens, cfg.response_format) == (12.5, 300, "json_object")
        assert settings.project_root == tmp_path.resolve()
        assert settings.usage.path == tmp_path / "usage.db"
        assert "local" in settings.configurations

    def test_remote_provider_defaults_to_external_global(self):
        """Until the operator sets a zone, a remote provider is external_global."""
        cfg = parse_settings(
            {"explain": {"configurations": {"r": {"base_url": "https://llm.example.com/v1"}}}}
        ).get("r")
        assert (cfg.zone, cfg.zone_source) == (TrustZone.EXTERNAL_GLOBAL, "default")

    def test_unknown_zone_counts_as_external_global(self):
        """A misspelt zone fails closed and says so."""
        cfg = parse_settings(
            {"explain": {"configurations": {"r": {"base_url": "http://127.0.0.1/v1", "zone": "locl"}}}}
        ).get("r")
        assert cfg.zone is TrustZone.EXTERNAL_GLOBAL
        assert cfg.zone_source == "unknown 'locl'"

    @pytest.mark.parametrize(
        ("table", "message"),
        [
            ({"provider": "ollama"}, "unknown provider 'ollama'"),
            ({"base_url": "ftp://x/v1"}, "base_url must be an http"),
            ({"base_url": "http://u:p@x/v1"}, "credentials in api_key_env"),
            ({"timeout": 0}, "timeout must be positive"),
            ({"timeout": "5"}, "timeout must be a number"),
            ({"max_tokens": 1.5}, "max_tokens must be an integer"),
            ({"response_format": "xml"}, "response_format must be one of"),
            ({"api_key": "sk-123"}, r"unknown key\(s\): api_key"),
        ],
    )
    def test_invalid_values(self, table, message):
        """Bad values give a ConfigError that names the configuration and the key."""
        with pytest.raises(ConfigError, match=message):
            parse_settings({"explain": {"configurations": {"bad": table}}})

    def test_unknown_configuration_lists_the_known_ones(self):
        """Asking for a missing name says which exist."""
        settings = parse_settings({"explain": {"configurations": {"a": {}, "b": {}}}})
        with pytest.raises(ConfigError, match=r"unknown configuration 'c' \(known: a, b, local\)"):
            settings.get("c")

    def test_default_must_exist(self):
        """[explain] default must name a configuration."""
        with pytest.raises(ConfigError, match="names no configuration"):
            parse_settings({"explain": {"default": "nope"}})

    def test_api_key_from_environment(self, monkeypatch):
        """The key is read from the named variable at call time; unset is a ConfigError."""
        cfg = parse_settings(
            {"explain": {"configurations": {"k": {"api_key_env": "HINTLINE_TEST_KEY"}}}}
        ).get("k")
        monkeypatch.delenv("HINTLINE_TEST_KEY", raising=False)
        with pytest.raises(ConfigError, match="HINTLINE_TEST_KEY"):
            cfg.api_key()
        monkeypatch.setenv("HINTLINE_TEST_KEY", "abc")
        assert cfg.api_key() == "abc"

    def test_usage_dsn_from_environment(self, monkeypatch):
        """[usage] dsn_env names the variable holding a PostgreSQL DSN."""
        monkeypatch.setenv("HINTLINE_TEST_DSN", "postgresql://u@127.0.0.1/db")
        settings = parse_settings({"usage": {"dsn_env": "HINTLINE_TEST_DSN"}})
        assert settings.usage.dsn == "postgresql://u@127.0.0.1/db"
        monkeypatch.delenv("HINTLINE_TEST_DSN")
        assert parse_settings({"usage": {"dsn_env": "HINTLINE_TEST_DSN"}}).usage.dsn is None
