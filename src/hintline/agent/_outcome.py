"""Values a guarded call produces: :class:`Failure`, :class:`Outcome`, and the argument
fingerprint :func:`canonical_args` that loop detection compares."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from hintline.categories import Kind
from hintline.hint import Hint

__all__ = ["Failure", "Outcome", "canonical_args"]

T = TypeVar("T")


def _default(value: object) -> object:
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, tuple):
        return list(value)
    return f"<{type(value).__name__}>"


def canonical_args(args: Mapping[str, object] | str | None) -> str:
    """Arguments as canonical JSON (sorted keys, no spaces): the loop detector's fingerprint.

    A JSON string (as OpenAI tool calls carry) is parsed first; values JSON cannot hold are
    named by their type, so context objects do not make two calls look different.
    """
    if args is None:
        return "{}"
    value: object = args
    if isinstance(args, str):
        try:
            value = json.loads(args) if args.strip() else {}
        except ValueError:
            return json.dumps(args.strip(), ensure_ascii=False)
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_default
    )


def _bound(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


@dataclass(frozen=True, slots=True)
class Failure:
    """A classified tool failure.

    Attributes:
        tool: the tool that failed.
        hint: the cleaned hint.
        content: the text for the model (bounded, scrubbed). For a *system* failure it is the
            message for the user and must not be given to the model.
    """

    tool: str
    hint: Hint
    content: str

    @property
    def kind(self) -> Kind:
        """The hint's kind."""
        return self.hint.kind


@dataclass(frozen=True, slots=True)
class Outcome(Generic[T]):
    """What a guarded call gives back: a value, or a failure for the model; and maybe a notice.

    Attributes:
        tool: the tool called.
        value: the tool's return value (``None`` on failure).
        failure: the recoverable or policy failure to show the model, or ``None``.
        notice: the loop meta-message to show the model with this result, or ``None``.
        retries: how many times a system fault was retried before this outcome.
    """

    tool: str
    value: T | None
    failure: Failure | None
    notice: str | None
    retries: int = 0

    @property
    def is_error(self) -> bool:
        """The call failed; the result should carry the framework's error flag."""
        return self.failure is not None

    def text(self, render: Callable[[T], str] | None = None) -> str:
        """The text for the model: the error content or the rendered value, then the notice."""
        if self.failure is not None:
            body = self.failure.content
        elif render is not None and self.value is not None:
            body = render(self.value)
        else:
            body = _render(self.value)
        return body if self.notice is None else f"{body}\n\n{self.notice}"


def _render(value: object) -> str:
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(value)
