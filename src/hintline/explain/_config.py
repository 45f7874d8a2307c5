"""Configurations of model providers, read from a TOML file.

The first file found is used, whole (files are not merged):

1. the path given with ``--config`` (or ``load_settings(path=...)``): it must exist;
2. ``$HINTLINE_CONFIG``: it must exist;
3. ``./hintline.toml`` (the project's file);
4. ``$XDG_CONFIG_HOME/hintline/config.toml`` (``~/.config/hintline/config.toml``; the user's file).

With no file, one built-in configuration ``local`` points at ``http://127.0.0.1:8080/v1`` (a
llama.cpp ``llama-server``, Ollama or vLLM on this machine). A file's ``local`` overrides it.

.. code-block:: toml

    [explain]
    default = "local"           # used without --configuration
    project_root = "."          # anchoring: what counts as the project's code (relative to the file)

    [explain.configurations.local]
    provider = "openai_compatible"
    base_url = "http://127.0.0.1:8080/v1"
    model = "local"

    [explain.configurations.team-gpu]
    base_url = "https://llm.internal.example.com/v1"
    model = "qwen2.5-coder-32b-instruct"
    zone = "private_hosted"     # the documented switch: without it, a remote host is external_global
    api_key_env = "TEAM_LLM_KEY"
    timeout = 30
    max_tokens = 400

    [usage]
    dsn_env = "HINTLINE_USAGE_DSN"   # PostgreSQL when set; otherwise SQLite at `path`
"""

from __future__ import annotations

import math
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from hintline.exceptions import ConfigError
from hintline.explain._zones import TrustZone, default_zone

__all__ = [
    "DEFAULT_BASE_URL",
    "PROVIDER_KINDS",
    "RESPONSE_FORMATS",
    "Configuration",
    "Settings",
    "UsageSettings",
    "config_search_path",
    "load_settings",
]

DEFAULT_BASE_URL = "http://127.0.0.1:8080/v1"
PROVIDER_KINDS = ("openai_compatible",)
RESPONSE_FORMATS = ("json_schema", "json_object", "none")
_CONFIG_KEYS = frozenset(
    {
        "provider",
        "base_url",
        "model",
        "zone",
        "api_key_env",
        "timeout",
        "max_tokens",
        "temperature",
        "response_format",
    }
)


@dataclass(frozen=True, slots=True)
class Configuration:
    """One way to ask a model: a provider, its address, a model and the provider's trust zone.

    Attributes:
        name: how ``--configuration`` names it.
        provider: the provider kind; ``openai_compatible`` (chat completions).
        base_url: the API root, e.g. ``http://127.0.0.1:8080/v1``.
        model: the model name sent with each request.
        zone: the provider's trust zone, after defaults (see :mod:`hintline.explain._zones`).
        zone_source: why it has that zone: ``configured``, ``default`` or ``unknown 'value'``.
        api_key_env: the environment variable holding the API key, or ``None`` for no key.
        timeout: seconds to wait for the whole answer.
        max_tokens: the most tokens the model may generate.
        temperature: sampling temperature (0: repeatable answers).
        response_format: ``json_schema`` (OpenAI structured outputs; llama.cpp, vLLM, Ollama),
            ``json_object`` (the schema sent inside a JSON-object format, for llama-cpp-python's
            server) or ``none`` (the prompt alone asks for JSON).
    """

    name: str
    base_url: str = DEFAULT_BASE_URL
    model: str = "local"
    zone: TrustZone = TrustZone.LOCAL
    zone_source: str = "default"
    provider: str = "openai_compatible"
    api_key_env: str | None = None
    timeout: float = 60.0
    max_tokens: int = 512
    temperature: float = 0.0
    response_format: str = "json_schema"

    def api_key(self) -> str | None:
        """Read the API key from ``api_key_env``; ``ConfigError`` if that variable is unset."""
        if not self.api_key_env:
            return None
        value = os.environ.get(self.api_key_env, "")
        if not value:
            raise ConfigError(
                f"configuration {self.name!r}: environment variable {self.api_key_env} "
                "(api_key_env) is not set"
            )
        return value


@dataclass(frozen=True, slots=True)
class UsageSettings:
    """Where usage is recorded: PostgreSQL when a DSN is set, else an SQLite file.

    Attributes:
        dsn: a PostgreSQL connection string (from ``dsn`` or the variable named by ``dsn_env``).
        path: the SQLite file (default ``$XDG_STATE_HOME/hintline/usage.sqlite3``).
    """

    dsn: str | None = None
    path: Path = field(default_factory=lambda: _state_home() / "hintline" / "usage.sqlite3")


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything read from a configuration file (or the built-in defaults).

    Attributes:
        configurations: by name; always holds ``local`` unless the file redefines it.
        default: the name used when none is asked for.
        project_root: what counts as the project's own code when labelling a hint, or ``None``
            (then the current directory).
        usage: where usage is recorded.
        source: the file read, or ``None`` for the built-in defaults.
    """

    configurations: Mapping[str, Configuration]
    default: str = "local"
    project_root: Path | None = None
    usage: UsageSettings = field(default_factory=UsageSettings)
    source: Path | None = None

    def get(self, name: str | None = None) -> Configuration:
        """The configuration called ``name`` (the default when ``None``); ``ConfigError`` if none."""
        wanted = name or self.default
        try:
            return self.configurations[wanted]
        except KeyError:
            known = ", ".join(sorted(self.configurations)) or "none"
            where = f" in {self.source}" if self.source else ""
            raise ConfigError(
                f"unknown configuration {wanted!r}{where} (known: {known})"
            ) from None


def _state_home() -> Path:
    env = os.environ.get("XDG_STATE_HOME")
    return Path(env) if env else Path.home() / ".local" / "state"


def _config_home() -> Path:
    env = os.environ.get("XDG_CONFIG_HOME")
    return Path(env) if env else Path.home() / ".config"


def config_search_path(path: str | os.PathLike[str] | None = None) -> list[Path]:
    """The files looked at, in order (see the module docstring)."""
    found: list[Path] = []
    if path is not None:
        found.append(Path(path))
    env = os.environ.get("HINTLINE_CONFIG")
    if env:
        found.append(Path(env))
    found.append(Path.cwd() / "hintline.toml")
    found.append(_config_home() / "hintline" / "config.toml")
    return found


def load_settings(path: str | os.PathLike[str] | None = None) -> Settings:
    """Read the first configuration file of the search order, or return the built-in defaults.

    Raises:
        ConfigError: an explicitly named file (``path`` or ``$HINTLINE_CONFIG``) is missing, a
            file is not valid TOML, or a value is invalid.
    """
    explicit = [Path(path)] if path is not None else []
    env = os.environ.get("HINTLINE_CONFIG")
    if env:
        explicit.append(Path(env))
    if explicit:
        chosen = explicit[0]
        if not chosen.is_file():
            origin = "--config" if path is not None else "HINTLINE_CONFIG"
            raise ConfigError(f"configuration file not found: {chosen} ({origin})")
        return _read(chosen)
    for candidate in (Path.cwd() / "hintline.toml", _config_home() / "hintline" / "config.toml"):
        if candidate.is_file():
            return _read(candidate)
    return Settings(configurations={"local": Configuration(name="local")})


def _read(path: Path) -> Settings:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc
    return parse_settings(data, source=path)


def parse_settings(data: Mapping[str, object], *, source: Path | None = None) -> Settings:
    """Build :class:`Settings` from parsed TOML (``source`` resolves relative paths)."""
    where = str(source) if source else "configuration"
    base = source.parent if source else Path.cwd()
    explain = _table(data.get("explain", {}), f"{where}: [explain]")
    unknown = set(explain) - {"default", "project_root", "configurations"}
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) in [explain]: {', '.join(sorted(unknown))}")
    configurations: dict[str, Configuration] = {"local": Configuration(name="local")}
    tables = _table(explain.get("configurations", {}), f"{where}: [explain.configurations]")
    for name, table in tables.items():
        configurations[name] = parse_configuration(
            name, _table(table, f"{where}: [explain.configurations.{name}]"), where=where
        )
    default = explain.get("default", "local")
    if not isinstance(default, str) or default not in configurations:
        raise ConfigError(f"{where}: [explain] default {default!r} names no configuration")
    root = explain.get("project_root")
    project_root = None
    if root is not None:
        if not isinstance(root, str) or not root:
            raise ConfigError(f"{where}: [explain] project_root must be a path")
        project_root = (base / Path(root).expanduser()).resolve()
    return Settings(
        configurations=configurations,
        default=default,
        project_root=project_root,
        usage=_parse_usage(_table(data.get("usage", {}), f"{where}: [usage]"), where, base),
        source=source,
    )


def parse_configuration(
    name: str, table: Mapping[str, object], *, where: str = "configuration"
) -> Configuration:
    """Validate one ``[explain.configurations.NAME]`` table."""
    ctx = f"{where}: configuration {name!r}"
    unknown = set(table) - _CONFIG_KEYS
    if unknown:
        raise ConfigError(f"{ctx}: unknown key(s): {', '.join(sorted(unknown))}")
    provider = _str(table, "provider", ctx, "openai_compatible")
    if provider not in PROVIDER_KINDS:
        raise ConfigError(
            f"{ctx}: unknown provider {provider!r} (known: {', '.join(PROVIDER_KINDS)})"
        )
    base_url = _str(table, "base_url", ctx, DEFAULT_BASE_URL).rstrip("/")
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"{ctx}: base_url must be an http(s) URL, got {base_url!r}")
    if parts.username or parts.password:
        raise ConfigError(f"{ctx}: put credentials in api_key_env, not in base_url")
    raw_zone = table.get("zone")
    if raw_zone is None:
        zone, zone_source = default_zone(base_url), "default"
    else:
        zone = TrustZone.parse(raw_zone)
        known = isinstance(raw_zone, str) and zone.value == raw_zone
        zone_source = "configured" if known else f"unknown {raw_zone!r}"
    response_format = _str(table, "response_format", ctx, "json_schema")
    if response_format not in RESPONSE_FORMATS:
        raise ConfigError(
            f"{ctx}: response_format must be one of {', '.join(RESPONSE_FORMATS)}"
        )
    api_key_env = table.get("api_key_env")
    if api_key_env is not None and (not isinstance(api_key_env, str) or not api_key_env):
        raise ConfigError(f"{ctx}: api_key_env must name an environment variable")
    return Configuration(
        name=name,
        provider=provider,
        base_url=base_url,
        model=_str(table, "model", ctx, "local"),
        zone=zone,
        zone_source=zone_source,
        api_key_env=api_key_env,
        timeout=_number(table, "timeout", ctx, 60.0),
        max_tokens=int(_number(table, "max_tokens", ctx, 512, integer=True)),
        temperature=_number(table, "temperature", ctx, 0.0, allow_zero=True),
        response_format=response_format,
    )


def _parse_usage(table: Mapping[str, object], where: str, base: Path) -> UsageSettings:
    unknown = set(table) - {"dsn", "dsn_env", "path"}
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) in [usage]: {', '.join(sorted(unknown))}")
    dsn = table.get("dsn")
    dsn_env = table.get("dsn_env")
    if dsn is not None and not isinstance(dsn, str):
        raise ConfigError(f"{where}: [usage] dsn must be a string")
    if dsn_env is not None:
        if not isinstance(dsn_env, str) or not dsn_env:
            raise ConfigError(f"{where}: [usage] dsn_env must name an environment variable")
        dsn = os.environ.get(dsn_env) or dsn
    path = table.get("path")
    if path is None:
        return UsageSettings(dsn=dsn or None)
    if not isinstance(path, str) or not path:
        raise ConfigError(f"{where}: [usage] path must be a file path")
    return UsageSettings(dsn=dsn or None, path=base / Path(path).expanduser())


def _table(value: object, ctx: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise ConfigError(f"{ctx} must be a table")
    return value


def _str(table: Mapping[str, object], key: str, ctx: str, default: str) -> str:
    value = table.get(key, default)
    if not isinstance(value, str) or not value:
        raise ConfigError(f"{ctx}: {key} must be a non-empty string")
    return value


def _number(
    table: Mapping[str, object],
    key: str,
    ctx: str,
    default: float,
    *,
    integer: bool = False,
    allow_zero: bool = False,
) -> float:
    value = table.get(key, default)
    ok_type = isinstance(value, int) if integer else isinstance(value, (int, float))
    if isinstance(value, bool) or not ok_type:
        kind = "an integer" if integer else "a number"
        raise ConfigError(f"{ctx}: {key} must be {kind}")
    number = float(value)  # type: ignore[arg-type]
    if not math.isfinite(number) or number < 0 or (number == 0 and not allow_zero):
        raise ConfigError(f"{ctx}: {key} must be positive")
    return number
