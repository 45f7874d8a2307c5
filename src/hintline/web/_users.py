"""Users of the web page: a TOML file of names, roles and argon2 password hashes.

The file is looked up in this order: ``--users PATH``, ``$HINTLINE_USERS``,
``./hintline-users.toml``, ``$XDG_CONFIG_HOME/hintline/users.toml`` (``~/.config/…``).
``hintline users add NAME --role admin`` writes it (mode 0600).

.. code-block:: toml

    [users.alice]
    role = "admin"
    password_hash = "$argon2id$v=19$m=65536,t=3,p=4$…"
"""

from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from hintline.exceptions import ConfigError, MissingExtraError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

try:
    import tomli_w
    from argon2 import PasswordHasher
    from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
except ImportError as exc:  # pragma: no cover
    raise MissingExtraError("web", exc.name or "argon2-cffi") from exc

__all__ = ["ROLES", "User", "UserStore", "default_users_path", "verify_password"]

ROLES = ("admin", "viewer")
_HASHER = PasswordHasher()
# Verifying against this keeps the time of a login with an unknown name like a known one.
_DUMMY_HASH = _HASHER.hash("hintline-dummy-password")


@dataclass(frozen=True, slots=True)
class User:
    """A user of the page."""

    name: str
    role: str
    stamp: str = ""
    """A digest of the user's stored role and password hash: it changes when either changes
    (``hintline users add`` writes a new hash with a new salt), which ends the user's sessions."""

    @property
    def is_admin(self) -> bool:
        """Whether the user may see errors and ask for hints."""
        return self.role == "admin"


def default_users_path(explicit: str | None = None) -> Path:
    """The users file: explicit path, ``$HINTLINE_USERS``, ``./hintline-users.toml``, XDG."""
    if explicit:
        return Path(explicit)
    if os.environ.get("HINTLINE_USERS"):
        return Path(os.environ["HINTLINE_USERS"])
    local = Path("hintline-users.toml")
    if local.exists():
        return local
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "hintline" / "users.toml"


class UserStore:
    """Reads and writes the users file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _load(self) -> dict[str, dict[str, str]]:
        return {k: dict(v) for k, v in self._table().items() if isinstance(v, dict)}

    def _table(self) -> dict[str, object]:
        if not self.path.exists():
            return {}
        try:
            data = tomllib.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"cannot read users file {self.path}: {exc}") from exc
        users = data.get("users", {})
        if not isinstance(users, dict):
            raise ConfigError(f"users file {self.path}: [users] must be a table")
        return {str(k): v for k, v in users.items()}

    def check(self) -> list[str]:
        """The user names, after checking every entry; a file the page cannot use is an error.

        Raises:
            ConfigError: the file cannot be read or parsed, or an entry has no valid role or
                no argon2 ``password_hash`` (a malformed file is a start-up error, not a 500 later).
        """
        table = self._table()
        for name, entry in table.items():
            if not isinstance(entry, dict):
                raise ConfigError(f"users file {self.path}: [users.{name}] must be a table")
            if entry.get("role") not in ROLES:
                raise ConfigError(
                    f"users file {self.path}: user {name!r} has role {entry.get('role')!r}; "
                    f"use one of {', '.join(ROLES)}"
                )
            stored = entry.get("password_hash")
            if not isinstance(stored, str) or not stored.startswith("$argon2"):
                raise ConfigError(
                    f"users file {self.path}: user {name!r} has no argon2 password_hash; "
                    f"set it with `hintline users add {name}`"
                )
        return sorted(table)

    def names(self) -> list[str]:
        """The user names, sorted."""
        return sorted(self._load())

    def get(self, name: str) -> User | None:
        """The user with this name, or ``None``."""
        entry = self._load().get(name)
        if entry is None or entry.get("role") not in ROLES:
            return None
        role = str(entry["role"])
        stored = str(entry.get("password_hash", ""))
        stamp = hashlib.sha256(f"{role}\0{stored}".encode()).hexdigest()[:32]
        return User(name=name, role=role, stamp=stamp)

    def add(self, name: str, password: str, role: str) -> User:
        """Add or replace a user with an argon2id hash of ``password``."""
        if role not in ROLES:
            raise ConfigError(f"unknown role {role!r}: use one of {', '.join(ROLES)}")
        if not name or not name.replace("-", "").replace("_", "").replace(".", "").isalnum():
            raise ConfigError("a user name is letters, digits, '-', '_' or '.'")
        if len(password) < 8:
            raise ConfigError("a password has at least 8 characters")
        users = self._load()
        users[name] = {"role": role, "password_hash": _HASHER.hash(password)}
        self._write(users)
        return User(name=name, role=role)

    def remove(self, name: str) -> bool:
        """Remove a user; return whether it existed."""
        users = self._load()
        if users.pop(name, None) is None:
            return False
        self._write(users)
        return True

    def password_hash(self, name: str) -> str | None:
        """The stored hash of ``name``, or ``None`` (an unknown name)."""
        entry = self._load().get(name)
        stored = entry.get("password_hash") if entry else None
        return stored if isinstance(stored, str) else None

    def authenticate(self, name: str, password: str) -> User | None:
        """The user if the password is right, else ``None`` (constant work either way).

        This hashes (tens of milliseconds of CPU): a server calls it off its event loop.
        """
        if not verify_password(self.password_hash(name), password):
            return None
        return self.get(name)

    def _write(self, users: dict[str, dict[str, str]]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as fh:
            tomli_w.dump({"users": users}, fh)
        tmp.replace(self.path)


def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches ``stored``; an unknown user (``None``) costs the same work."""
    try:
        _HASHER.verify(stored or _DUMMY_HASH, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False
    return stored is not None
