"""A real PostgreSQL for the session: ``postgres`` yields a DSN on 127.0.0.1.

The server is a throwaway cluster: ``initdb`` in a temporary directory, a free loopback port, trust
authentication for the ``postgres`` superuser, stopped and deleted at session end. PostgreSQL refuses
to run as root, so when the tests run as root the cluster belongs to an unprivileged account
(``$HINTLINE_PG_USER``, else ``postgres``, else ``nobody``).

Binaries are looked up on ``PATH`` first, then under ``/usr/lib/postgresql/*/bin`` (Debian's
``postgresql`` package, installed by ``scripts/setup.d/20-postgres.sh``).
``scripts/fixtures/gen_db_errors.py`` uses :func:`start_postgres` as well.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

__all__ = ["PostgresServer", "find_pg_binary", "free_port", "reap_orphans", "start_postgres"]


def find_pg_binary(name: str) -> str:
    """Return the path of a PostgreSQL server binary (``initdb``, ``pg_ctl``, ``postgres``).

    Raises:
        FileNotFoundError: when neither ``PATH`` nor ``/usr/lib/postgresql/*/bin`` has it.
    """
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    if candidates:
        return candidates[-1]
    raise FileNotFoundError(
        f"PostgreSQL binary {name!r} not found on PATH or under /usr/lib/postgresql/*/bin; "
        "run scripts/setup.d/20-postgres.sh"
    )


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _server_user() -> pwd.struct_passwd | None:
    """The unprivileged account to run the server as (``None`` when not root)."""
    if os.geteuid() != 0:
        return None
    for name in (os.environ.get("HINTLINE_PG_USER"), "postgres", "nobody"):
        if not name:
            continue
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise RuntimeError("running as root and no unprivileged user (postgres, nobody) exists")


@dataclass(frozen=True, slots=True)
class PostgresServer:
    """A running throwaway PostgreSQL cluster."""

    root: Path
    port: int
    version: str
    _user: pwd.struct_passwd | None

    @property
    def dsn(self) -> str:
        """libpq URI for the ``postgres`` superuser and database."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        """Stop the server (fast) and delete its directory."""
        subprocess.run(
            [
                find_pg_binary("pg_ctl"),
                "stop",
                "-D",
                str(self.root / "data"),
                "-m",
                "immediate",
                "-w",
            ],
            check=False,
            capture_output=True,
            timeout=60,
            **_as_user(self._user),
        )
        shutil.rmtree(self.root, ignore_errors=True)


def _as_user(user: pwd.struct_passwd | None) -> dict[str, object]:
    if user is None:
        return {}
    return {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}


_PREFIX = "hintline-pg-"
_OWNER = "owner.pid"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def reap_orphans() -> None:
    """Stop and delete clusters this module started for a process that is gone (a test run
    killed before its teardown), recognised by their ``owner.pid`` file."""
    for owner in Path(tempfile.gettempdir()).glob(f"{_PREFIX}*/{_OWNER}"):
        try:
            pid = int(owner.read_text().strip())
        except (OSError, ValueError):
            continue
        if _alive(pid):
            continue
        root = owner.parent
        subprocess.run(
            [find_pg_binary("pg_ctl"), "stop", "-D", str(root / "data"), "-m", "immediate", "-w"],
            check=False, capture_output=True, timeout=60, **_as_user(_server_user()),
        )  # fmt: skip
        shutil.rmtree(root, ignore_errors=True)


def start_postgres(*, settings: dict[str, str] | None = None) -> PostgresServer:
    """initdb a cluster in a temporary directory and start it on a free 127.0.0.1 port.

    The directory records the calling process in ``owner.pid`` so that a later run can
    :func:`reap_orphans` if this one is killed before it stops the server.

    Args:
        settings: extra ``postgresql.conf`` settings (``{"deadlock_timeout": "100ms"}``).
    """
    reap_orphans()
    user = _server_user()
    root = Path(tempfile.mkdtemp(prefix=_PREFIX))
    (root / _OWNER).write_text(f"{os.getpid()}\n")
    if user is not None:
        os.chown(root, user.pw_uid, user.pw_gid)
    env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
    if user is not None:
        env["HOME"] = str(root)
    run_as = _as_user(user)
    try:
        subprocess.run(
            [find_pg_binary("initdb"), "-D", str(root / "data"), "-U", "postgres",
             "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"],
            check=True, capture_output=True, timeout=120, cwd=root, env=env, **run_as,
        )  # fmt: skip
        conf = {
            "listen_addresses": "'127.0.0.1'",
            "unix_socket_directories": f"'{root}'",
            "fsync": "off",
            "synchronous_commit": "off",
            "full_page_writes": "off",
            "shared_buffers": "16MB",
            "max_connections": "30",
            "deadlock_timeout": "100ms",
            **(settings or {}),
        }
        with (root / "data" / "postgresql.conf").open("a") as fh:
            fh.writelines(f"{k} = {v}\n" for k, v in conf.items())
        last_error = ""
        for _ in range(3):
            port = free_port()
            proc = subprocess.run(
                [find_pg_binary("pg_ctl"), "start", "-w", "-t", "60", "-D", str(root / "data"),
                 "-l", str(root / "server.log"), "-o", f"-p {port}"],
                check=False, capture_output=True, text=True, timeout=90, cwd=root, env=env,
                **run_as,
            )  # fmt: skip
            if proc.returncode == 0:
                version = subprocess.run(
                    [find_pg_binary("postgres"), "--version"],
                    check=True, capture_output=True, text=True, timeout=30,
                ).stdout.strip()  # fmt: skip
                return PostgresServer(root=root, port=port, version=version, _user=user)
            log = root / "server.log"
            last_error = proc.stderr + (
                log.read_text(errors="replace")[-2000:] if log.exists() else ""
            )
        raise RuntimeError(f"PostgreSQL did not start: {last_error.strip()}")
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise


@pytest.fixture(scope="session")
def postgres() -> Iterator[str]:
    """A DSN (``postgresql://postgres@127.0.0.1:PORT/postgres``) of a real, throwaway PostgreSQL."""
    try:
        server = start_postgres()
    except (FileNotFoundError, RuntimeError, subprocess.CalledProcessError) as exc:
        pytest.fail(f"cannot start PostgreSQL: {exc}", pytrace=False)
    previous = signal.getsignal(signal.SIGTERM)

    def interrupt(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt  # pytest then tears down, stopping the server

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, interrupt)
    try:
        yield server.dsn
    finally:
        server.stop()
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, previous)
