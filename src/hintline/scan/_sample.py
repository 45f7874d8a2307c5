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

__all__ = ["write_sample_log"]


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
