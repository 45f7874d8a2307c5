"""add_hint scrubs every event it passes on: event text, traceback, extra and nested fields.

The failure is real (a refused connection to a closed loopback port); the DSN with its password
is what an application puts into its own event and exception.
"""

from __future__ import annotations

import io
import json
import socket
from typing import Any

import structlog

from hintline.integrations.structlog import AddHint, add_hint, scrub_event

SECRET = "S3cretPw"


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _log(*processors: Any) -> dict[str, Any]:
    out = io.StringIO()
    log = structlog.wrap_logger(
        structlog.PrintLogger(out),
        processors=[structlog.processors.add_log_level, *processors, structlog.processors.JSONRenderer()],
    )
    port = _closed_port()
    dsn = f"postgresql://app:{SECRET}@127.0.0.1:{port}/shop"
    try:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
        except ConnectionRefusedError as exc:
            raise RuntimeError(f"cannot connect to {dsn}") from exc
    except RuntimeError:
        message = f"order import failed on {dsn}"  # structlog's event: the text as given
        log.exception(message, dsn=dsn, db={"urls": [dsn], "port": port})
    (line,) = out.getvalue().splitlines()
    assert isinstance(json.loads(line), dict)
    return json.loads(line)  # type: ignore[no-any-return]


def test_after_format_exc_info_everything_is_scrubbed() -> None:
    event = _log(structlog.processors.format_exc_info, add_hint)
    text = json.dumps(event)
    assert SECRET not in text
    assert event["event"].startswith("order import failed on postgresql://app:***@")
    assert event["dsn"].startswith("postgresql://app:***@")
    assert event["db"]["urls"][0].startswith("postgresql://app:***@")
    assert isinstance(event["db"]["port"], int)
    assert "RuntimeError: cannot connect to postgresql://app:***@" in event["exception"]
    assert "ConnectionRefusedError" in event["exception"]
    assert event["hint"].startswith("Hint: ")


def test_dict_tracebacks_are_scrubbed() -> None:
    event = _log(structlog.processors.dict_tracebacks, add_hint)
    assert SECRET not in json.dumps(event)
    assert any("postgresql://app:***@" in e["exc_value"] for e in event["exception"])


def test_scrub_event_alone_and_opt_out() -> None:
    assert SECRET not in json.dumps(_log(structlog.processors.format_exc_info, scrub_event))
    kept = _log(structlog.processors.format_exc_info, AddHint(scrub=False))
    assert kept["dsn"] == kept["db"]["urls"][0]
    assert SECRET in kept["dsn"]
    assert SECRET not in kept["hint"]
