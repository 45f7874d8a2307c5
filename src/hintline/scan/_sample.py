"""Write a realistic application log with the real ``logging`` module (tests and benchmarks).

About ``error_share`` of the records are errors logged with ``logger.exception`` while a real
exception is being handled: a KeyError, a ZeroDivisionError, a FileNotFoundError from ``open``,
a ConnectionRefusedError from connecting to a closed loopback port, a JSONDecodeError.
"""

from __future__ import annotations

import json
import logging
import random
import socket
from collections.abc import Callable
from pathlib import Path

__all__ = ["KINDS", "write_kinds_log", "write_sample_log"]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _failures(tmp: Path) -> list[Callable[[], object]]:
    port = _closed_port()

    def lookup() -> object:
        return {"id": 7}["customer_id"]

    def ratio() -> object:
        return 1 / 0

    def config() -> object:
        return (tmp / "missing" / "worker.toml").read_text()

    def connect() -> object:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return None

    def payload() -> object:
        return json.loads("{customer: 1}")

    return [lookup, ratio, config, connect, payload]


def write_sample_log(
    path: Path, *, records: int, error_share: float = 0.02, seed: int = 7, secret: str | None = None
) -> int:
    """Append ``records`` records to ``path``; return the number of error records."""
    rng = random.Random(seed)
    logger = logging.getLogger(f"hintline.sample.{path.name}.{seed}")
    logger.setLevel(logging.INFO)
    logger.propagate = False
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s [%(name)s] %(message)s"))
    logger.addHandler(handler)
    failures = _failures(path.parent)
    errors = 0
    try:
        for i in range(records):
            if rng.random() < error_share:
                fail = rng.choice(failures)
                try:
                    fail()
                except Exception:
                    where = f" dsn=postgresql://app:{secret}@db/shop" if secret else ""
                    logger.exception("request %d failed in %s%s", i, fail.__name__, where)
                    errors += 1
            else:
                logger.info("request %d served in %d ms path=/api/orders/%d", i, rng.randint(1, 900), i)
    finally:
        logger.removeHandler(handler)
        handler.close()
    return errors


KINDS = (
    "asset-missing", "input-not-found", "user-key", "connection-refused", "bad-payload", "ratio",
    "timeout", "bad-quantity", "order-chained", "card-declined", "is-a-directory", "worker-exit",
    "undecodable",
)
"""The kinds of failure :func:`write_kinds_log` writes (the ground truth of grouping tests)."""


def write_kinds_log(path: Path, *, records: int, seed: int = 11, error_share: float = 0.2) -> list[str]:
    """Append records with the real ``logging`` module; about ``error_share`` are errors of the
    13 :data:`KINDS`, each raised (or logged) by one line of code with variable parts: paths,
    ids, hosts, ports, durations, numbers. Return the kind of every error record, in file order.

    Every exception is real: a missing file opened, a dict key missing, a closed loopback port
    connected to, bad JSON parsed, a division by zero, ``int()`` of a word, a chained
    ``raise … from``, a directory opened as a file, bytes that are not UTF-8.
    """
    rng = random.Random(seed)
    tag = f"{path.name}.{seed}"
    app, billing, ops = (logging.getLogger(f"hintline.kinds.{tag}.{n}") for n in ("app", "billing", "ops"))
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s [%(name)s] %(message)s"))
    for lg in (app, billing, ops):
        lg.setLevel(logging.INFO)
        lg.propagate = False
        lg.addHandler(handler)
    port = _closed_port()
    base = path.parent / f"kinds-{seed}"
    base.mkdir(exist_ok=True)
    kinds: list[str] = []

    def load_input(n: int) -> object:
        return (base / "in" / f"{rng.getrandbits(64):016x}-{n}.json").read_text()

    def lookup_user(n: int) -> object:
        return {"user-0": 1}[f"user-{n}"]

    def connect(n: int) -> object:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return n

    def parse_payload(n: int) -> object:
        return json.loads("{customer: " + str(n) + "}")

    def ratio(n: int) -> object:
        return n / (n - n)

    def quantity(n: int) -> object:
        return int(f"{n}x")

    def order(n: int) -> object:
        try:
            return {"id": n}["customer_id"]
        except KeyError as exc:
            raise RuntimeError(f"order {n} cannot be billed") from exc

    def open_dir(n: int) -> object:
        d = base / f"spool-{n % 50}"
        d.mkdir(exist_ok=True)
        return d.read_text()

    def decode(n: int) -> object:
        return bytes([0xFF, n % 256]).decode("utf-8")

    raising: dict[str, tuple[Callable[[int], object], str]] = {
        "input-not-found": (load_input, "cannot load input %d"),
        "user-key": (lookup_user, "lookup of user %d failed"),
        "connection-refused": (connect, "cannot reach the ledger (attempt %d)"),
        "bad-payload": (parse_payload, "payload %d rejected"),
        "ratio": (ratio, "ratio for shard %d failed"),
        "bad-quantity": (quantity, "line %d has a bad quantity"),
        "order-chained": (order, "billing run %d failed"),
        "is-a-directory": (open_dir, "spool %d unreadable"),
        "undecodable": (decode, "blob %d undecodable"),
    }
    try:
        for i in range(records):
            if rng.random() >= error_share:
                app.info("request %d served in %d ms path=/api/orders/%d", i, rng.randint(1, 900), i)
                continue
            kind = rng.choice(KINDS)
            n = rng.randint(1, 10**6)
            if kind in raising:
                fn, msg = raising[kind]
                try:
                    fn(n)
                except Exception:
                    (billing if kind == "order-chained" else app).exception(msg, n)
            elif kind == "asset-missing":
                app.error("asset /srv/app/static/img/banner-%d.webp missing", n % 400)
            elif kind == "timeout":
                ops.error("request req-%08x to 10.0.%d.%d:8443 timed out after %dms",
                          rng.getrandbits(32), n % 256, n % 199, rng.randint(500, 30000))
            elif kind == "card-declined":
                billing.error("payment %d declined for card ending %04d", n, n % 10000)
            else:  # worker-exit
                ops.error("worker %d exited with code %d", n % 64, rng.choice((1, 2, 137, 139)))
            kinds.append(kind)
    finally:
        for lg in (app, billing, ops):
            lg.removeHandler(handler)
        handler.close()
    return kinds
