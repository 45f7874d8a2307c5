"""The parsed shape of a stack trace: an exception chain whose exceptions carry frames."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["ExceptionInfo", "Frame", "Trace"]


@dataclass(frozen=True, slots=True)
class Frame:
    """One stack frame. Never holds a source line or call arguments (they may hold secrets).

    Attributes:
        file: the path or file name as printed (``None`` for JVM frames without a file).
        line: the line number, if printed.
        function: the function or method name (arguments cut).
        module: the module, class or package path (``org.postgresql.core.v3.QueryExecutorImpl``).
        language: ``python``, ``java``, ``javascript``, ``php``, ``go``, ``rust``, ``dotnet``, ``ruby``.
        in_app: whether the frame is the project's own code.
        column: the column, where the trace prints one.
    """

    file: str | None
    line: int | None
    function: str | None
    module: str | None
    language: str
    in_app: bool
    column: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the frame (the golden files and ``hintline trace --json``)."""
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "function": self.function,
            "module": self.module,
            "in_app": self.in_app,
        }


@dataclass(frozen=True, slots=True)
class ExceptionInfo:
    """One exception of a chain.

    Attributes:
        type: the exception class as printed (``org.postgresql.util.PSQLException``); for
            languages without exception classes a fixed word (``panic`` for Go and Rust).
        message: its message (not scrubbed: scrub before it leaves).
        frames: normalised to *throw site first* whatever order the language prints.
        language: the detected language.
        relation: how it is chained to its ``parent``: ``cause`` (explicit cause, ``Caused by:``,
            ``[cause]:``, ``---> inner``), ``context`` (raised while handling it),
            ``suppressed``, ``group`` (a member of an exception group / AggregateError) or
            ``None`` for the outermost exception.
        parent: index in ``Trace.exceptions`` of the exception this one is chained to
            (``None`` for the outermost). In a plain chain it is the previous one.
        omitted: frames left out (by :meth:`Trace.limited` or a size cap), not counted in
            ``frames``.
    """

    type: str
    message: str
    frames: tuple[Frame, ...] = ()
    language: str = "unknown"
    relation: str | None = None
    parent: int | None = None
    omitted: int = 0

    @property
    def throw_site(self) -> Frame | None:
        """The frame where the exception was raised (the first frame), if any."""
        return self.frames[0] if self.frames else None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the exception and its frames."""
        return {
            "type": self.type,
            "message": self.message,
            "relation": self.relation,
            "parent": self.parent,
            "omitted": self.omitted,
            "frames": [f.to_dict() for f in self.frames],
        }


@dataclass(frozen=True, slots=True)
class Trace:
    """An exception chain. ``exceptions`` is ordered outermost first; the root cause is last.

    Empty when nothing could be parsed (parsing is total and never raises).

    Attributes:
        exceptions: outermost (the one finally raised or caught) first. Causes follow their
            effect; suppressed and group members follow the exception they belong to.
        language: the detected (or given) language, ``unknown`` when empty.
        extra: small facts the parser saw that have no field (``thread``, ``signal``,
            ``goroutine``).
    """

    exceptions: tuple[ExceptionInfo, ...] = ()
    language: str = "unknown"
    extra: dict[str, str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        """A trace is true when it holds at least one exception."""
        return bool(self.exceptions)

    @property
    def root_cause(self) -> ExceptionInfo | None:
        """The innermost exception: the last one that is not on a ``suppressed`` side branch.

        For a Java chain it is the last ``Caused by:``; for Python the first traceback printed;
        for an exception group or AggregateError without a cause, its last member.
        """
        excs = self.exceptions
        side = [False] * len(excs)
        for i, exc in enumerate(excs):
            parent = exc.parent
            side[i] = exc.relation == "suppressed" or (
                parent is not None and 0 <= parent < i and side[parent]
            )
        for i in range(len(excs) - 1, -1, -1):
            if not side[i]:
                return excs[i]
        return None

    @property
    def outermost(self) -> ExceptionInfo | None:
        """The exception that was finally raised or caught."""
        return self.exceptions[0] if self.exceptions else None

    @property
    def frames(self) -> tuple[Frame, ...]:
        """All frames of all exceptions, in order (handy for ``any(f.in_app ...)``)."""
        return tuple(f for exc in self.exceptions for f in exc.frames)

    def limited(self, n: int = 20) -> Trace:
        """A copy keeping at most ``n`` frames per exception: the most useful ones.

        The throw site first, then in-app frames, then the rest; kept frames stay in their
        original order and ``ExceptionInfo.omitted`` counts what was dropped. Use it for
        anything that is sent on (a model prompt, a log summary).
        """
        from hintline.traces._select import limit_exception

        return Trace(
            exceptions=tuple(limit_exception(exc, n) for exc in self.exceptions),
            language=self.language,
            extra=dict(self.extra),
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (``hintline trace --json`` and the golden files)."""
        return {
            "language": self.language,
            "extra": dict(sorted(self.extra.items())),
            "exceptions": [e.to_dict() for e in self.exceptions],
        }
