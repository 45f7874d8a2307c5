"""The parsed shape of a stack trace: an exception chain whose exceptions carry frames."""

from __future__ import annotations

from dataclasses import dataclass, field

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


@dataclass(frozen=True, slots=True)
class ExceptionInfo:
    """One exception of a chain.

    Attributes:
        type: the exception class as printed (``org.postgresql.util.PSQLException``).
        message: its message (not scrubbed: scrub before it leaves).
        frames: innermost-last as printed by the language is normalised to *throw site first*.
        language: the detected language.
        relation: how it is chained to the previous one: ``cause``, ``context``,
            ``suppressed``, ``group`` or ``None`` for the first.
    """

    type: str
    message: str
    frames: tuple[Frame, ...] = ()
    language: str = "unknown"
    relation: str | None = None


@dataclass(frozen=True, slots=True)
class Trace:
    """An exception chain. ``exceptions`` is ordered outermost first; the root cause is last.

    Empty when nothing could be parsed (parsing is total and never raises).
    """

    exceptions: tuple[ExceptionInfo, ...] = ()
    language: str = "unknown"
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def root_cause(self) -> ExceptionInfo | None:
        """The innermost exception (the last ``Caused by:``, the first Python traceback)."""
        return self.exceptions[-1] if self.exceptions else None

    @property
    def outermost(self) -> ExceptionInfo | None:
        """The exception that was finally raised or caught."""
        return self.exceptions[0] if self.exceptions else None
