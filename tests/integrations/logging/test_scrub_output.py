"""HintFormatter scrubs everything it emits: message, arguments, traceback, extra fields.

The failure is real (a refused connection to a closed loopback port); the DSN with its password
is what an application puts into its own message and exception, as psycopg's do.
"""

from __future__ import annotations

import io
import logging
import socket

import pytest

from hintline.integrations.logging import HintFilter, HintFormatter

SECRET = "S3cretPw"


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _log(formatter: logging.Formatter) -> str:
    port = _closed_port()
    dsn = f"postgresql://app:{SECRET}@127.0.0.1:{port}/shop"
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(HintFilter())
    handler.setFormatter(formatter)
    logger = logging.getLogger(f"test.scrub.{id(formatter)}")
    logger.propagate = False
    logger.addHandler(handler)
    try:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
        except ConnectionRefusedError as exc:
            raise RuntimeError(f"cannot connect to {dsn}") from exc
    except RuntimeError:
        logger.exception("order import failed on %s", dsn, extra={"dsn": dsn}, stack_info=True)
    finally:
        logger.removeHandler(handler)
    return out.getvalue()


FORMAT = "%(levelname)s %(name)s: %(message)s [dsn=%(dsn)s]"


def test_everything_emitted_is_scrubbed() -> None:
    """Message, its argument, the chained traceback, the stack and an extra field: no secret."""
    text = _log(HintFormatter(FORMAT))
    assert SECRET not in text
    assert "order import failed on postgresql://app:***@127.0.0.1:" in text
    assert "[dsn=postgresql://app:***@127.0.0.1:" in text
    assert "Traceback (most recent call last):" in text
    assert "ConnectionRefusedError" in text
    assert "RuntimeError: cannot connect to postgresql://app:***@" in text
    assert "Stack (most recent call last):" in text
    assert text.rstrip("\n").splitlines()[-1].startswith("Hint: ")


def test_opt_out_scrubs_only_the_hint() -> None:
    """scrub=False: the output is logging's own, but the hint line is still scrubbed."""
    text = _log(HintFormatter(FORMAT, scrub=False))
    assert f"order import failed on postgresql://app:{SECRET}@" in text
    hint = text.rstrip("\n").splitlines()[-1]
    assert hint.startswith("Hint: ")
    assert SECRET not in hint


@pytest.mark.parametrize("style", ["{", "$"])
def test_other_format_styles(style: str) -> None:
    """The scrubbing is of the formatted text, whatever the style."""
    fmt = {"{": "{levelname} {message} {dsn}", "$": "$levelname $message $dsn"}[style]
    text = _log(HintFormatter(fmt, style=style))  # type: ignore[arg-type]
    assert SECRET not in text
    assert "postgresql://app:***@" in text
