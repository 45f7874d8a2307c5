"""The guard's judgement calls, apart from its bookkeeping: what a model may read of a failure,
which failures are the model's to fix although they look like system faults, and which faults
prove a call never reached the service (so that even a non-idempotent tool may be retried).

See the module docstring of :mod:`hintline.agent._guard` for the decisions themselves.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Mapping
from urllib.parse import urlsplit

from hintline.agent._classify import ToolRefused
from hintline.categories import Category
from hintline.hint import Hint

__all__ = [
    "ADDRESS_FAULTS",
    "CREDENTIALS_SUFFIX",
    "NOT_REMEMBERED",
    "causes",
    "for_model",
    "model_address",
    "never_arrived",
    "sentence",
]


CREDENTIALS_SUFFIX = (
    "The credentials were rejected: ask the user to fix them; the same call can succeed "
    "afterwards."
)

NOT_REMEMBERED = frozenset({Category.HTTP_UNAUTHORIZED})
"""Refusals a human can lift without ending the run (credentials): not remembered."""

ADDRESS_FAULTS = frozenset({Category.CONNECTION_REFUSED, Category.DNS_FAILURE})

_ADDRESS_ARGS = frozenset(
    {"url", "uri", "host", "hostname", "server", "address", "endpoint", "base_url", "dsn", "addr"}
)
_HOST_PORT = re.compile(r"^\[?[\w.:-]+\]?:\d{1,5}$")


def model_address(args: Mapping[str, object] | str | None) -> tuple[str, str] | None:
    """The network address among the call's arguments (a URL, ``host:port`` or a host/url
    argument), if the model chose one."""
    if not isinstance(args, Mapping):
        return None
    for name, value in list(args.items())[:32]:
        if not isinstance(value, str) or not value or len(value) > 2048:
            continue
        if str(name).lower() in _ADDRESS_ARGS:
            return str(name), value
        if "://" in value:
            try:
                if urlsplit(value).netloc:
                    return str(name), value
            except ValueError:
                continue
        if _HOST_PORT.match(value):
            return str(name), value
    return None


def never_arrived(hint: Hint, error: BaseException | str) -> bool:
    """The fault proves the call never reached the service: safe to retry any tool."""
    if hint.category is Category.RATE_LIMITED or hint.category is Category.DNS_FAILURE:
        return True
    if isinstance(error, (ConnectionResetError, ConnectionAbortedError, BrokenPipeError)):
        return False
    return hint.category is Category.CONNECTION_REFUSED


_QUALIFIED = re.compile(r"(?<![\w.])(?:[a-z_][a-z0-9_]*\.)+([A-Z]\w*):\s*")


def for_model(hint: Hint, error: BaseException | str) -> Hint:
    """The hint without internal class paths: ``hintline.agent._classify.ToolRefused: x`` reads
    ``x``; ``pkg.mod.SomeError: x`` reads ``SomeError: x``."""
    text = hint.text
    if isinstance(error, ToolRefused) or type(error).__module__.startswith("hintline."):
        qualified = f"{type(error).__module__}.{type(error).__qualname__}: "
        text = text.replace(qualified, "", 1).replace(f"{type(error).__qualname__}: ", "", 1)
    text = _QUALIFIED.sub(lambda m: f"{m.group(1)}: ", text)
    if text == hint.text:
        return hint
    if not text.startswith("Hint: "):
        text = "Hint: " + text.removeprefix("Hint:").lstrip()
    return dataclasses.replace(hint, text=text)


def causes(error: BaseException) -> Iterator[BaseException]:
    """The explicit causes of ``error`` (``raise … from``, a ``source`` attribute), nearest first."""
    seen = {id(error)}
    current: BaseException | None = error
    for _ in range(6):
        source = getattr(current, "source", None)
        nxt = source if isinstance(source, BaseException) else getattr(current, "__cause__", None)
        if nxt is None or id(nxt) in seen:
            return
        seen.add(id(nxt))
        yield nxt
        current = nxt


def sentence(text: str) -> str:
    text = text.rstrip()
    return text if text.endswith((".", "!", "?", "…")) else text + "."
