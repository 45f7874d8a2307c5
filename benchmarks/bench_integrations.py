"""What hintline adds to a logging call (``python -m benchmarks integrations``).

One ``logger.exception`` call and one structlog error event, each logging the same real failure
(a ``KeyError`` three frames deep, chained to a ``RuntimeError`` whose message carries a DSN with
its password), written to ``/dev/null``:

* ``plain``: the standard formatter or processor chain, nothing of hintline;
* ``hint only``: with hintline's hint, scrubbing only the hint (``HintFormatter(scrub=False)``,
  ``AddHint(scrub=False)``);
* ``hint + scrub``: the default, everything emitted scrubbed.

The cost per call is the row minus ``plain``. structlog rows are skipped without its extra.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from benchmarks._harness import Case
from hintline.integrations.logging import HintFilter, HintFormatter

DSN = "postgresql://app:S3cretPw@db.internal:5432/shop"
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def _lookup(order: dict[str, int]) -> int:
    return order["customer_id"]


def _load(order: dict[str, int]) -> int:
    return _lookup(order)


def _import_order() -> None:
    try:
        _load({"id": 1006})
    except KeyError as exc:
        raise RuntimeError(f"order 1006 failed on {DSN}") from exc


def _devnull_handler() -> logging.Handler:
    return logging.StreamHandler(open(os.devnull, "w", encoding="utf-8"))


def _logging_case(name: str, formatter: logging.Formatter, with_filter: bool) -> Case:
    logger = logging.getLogger(f"bench.integrations.{name}")
    logger.propagate = False
    handler = _devnull_handler()
    handler.setFormatter(formatter)
    if with_filter:
        handler.addFilter(HintFilter())
    logger.handlers[:] = [handler]
    logger.setLevel(logging.INFO)

    def call() -> None:
        try:
            _import_order()
        except RuntimeError:
            logger.exception("order import failed on %s", DSN)

    return Case("integrations", f"logger.exception: {name}", call)


def _structlog_cases() -> list[Case]:
    try:
        import structlog
    except ImportError:
        return []
    from hintline.integrations.structlog import AddHint

    sink = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    cases = []
    for name, extra in (
        ("plain", []),
        ("hint only", [AddHint(scrub=False)]),
        ("hint + scrub", [AddHint()]),
    ):
        processors: list[Any] = [
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
            structlog.processors.format_exc_info,
            *extra,
            structlog.processors.JSONRenderer(),
        ]
        log = structlog.wrap_logger(structlog.PrintLogger(sink), processors=processors)

        def call(log: Any = log) -> None:
            try:
                _import_order()
            except RuntimeError:
                log.exception("order import failed", dsn=DSN, order=1006)

        cases.append(Case("integrations", f"structlog event: {name}", call))
    return cases


def cases() -> list[Case]:
    """The rows: logging, then structlog."""
    return [
        _logging_case("plain", logging.Formatter(FORMAT), with_filter=False),
        _logging_case("hint only", HintFormatter(FORMAT, scrub=False), with_filter=True),
        _logging_case("hint + scrub", HintFormatter(FORMAT), with_filter=True),
        *_structlog_cases(),
    ]
