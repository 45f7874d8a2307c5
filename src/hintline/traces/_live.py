"""A trace from a live Python exception: its ``__cause__``/``__context__`` chain, exception
group members and ``__traceback__`` frames. No source line is read or formatted."""

from __future__ import annotations

import builtins
from types import TracebackType

from hintline.traces._raw import MAX_EXCEPTIONS, MAX_LINE, RawException, RawTrace

__all__ = ["trace_from_exception"]

# Python 3.10 has no exception groups.
_GROUP: tuple[type[BaseException], ...] = tuple(
    t for t in (getattr(builtins, "BaseExceptionGroup", None),) if isinstance(t, type)
)


def _type_name(exc: BaseException) -> str:
    cls = type(exc)
    module = getattr(cls, "__module__", None)
    name = getattr(cls, "__qualname__", cls.__name__)
    if module in (None, "builtins", "__main__"):
        return str(name)
    return f"{module}.{name}"


def _message(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:
        return "<exception str() failed>"
    if _GROUP and isinstance(exc, _GROUP):
        text = str(getattr(exc, "message", text))
    return text


def _frames(tb: TracebackType | None, exc: RawException) -> None:
    seen = 0
    while tb is not None and seen < 10_000:
        code = tb.tb_frame.f_code
        module = tb.tb_frame.f_globals.get("__name__")
        exc.add((code.co_filename, tb.tb_lineno, code.co_name, module if isinstance(module, str) else None, None))
        tb = tb.tb_next
        seen += 1
    exc.frames.reverse()  # throw site first


def trace_from_exception(root: BaseException) -> RawTrace:
    """Walk ``root``'s chain (outermost first) and its group members into a :class:`RawTrace`."""
    trace = RawTrace("python")
    out = trace.exceptions
    seen: set[int] = set()

    def walk(exc: BaseException, parent: int | None, relation: str | None) -> None:
        while exc is not None and id(exc) not in seen and len(out) < MAX_EXCEPTIONS:
            seen.add(id(exc))
            raw = RawException(_type_name(exc), _message(exc), relation)
            raw.parent = parent
            _frames(exc.__traceback__, raw)
            out.append(raw)
            here = len(out) - 1
            if _GROUP and isinstance(exc, _GROUP):
                for member in getattr(exc, "exceptions", ()):
                    walk(member, here, "group")
            nxt: BaseException | None
            if exc.__cause__ is not None:
                nxt, relation = exc.__cause__, "cause"
            elif exc.__context__ is not None and not exc.__suppress_context__:
                nxt, relation = exc.__context__, "context"
            else:
                nxt = None
            if nxt is None:
                return
            exc, parent = nxt, here

    walk(root, None, None)
    # a code object may carry any name: one longer than MAX_LINE keeps the memos out
    trace.long_lines = any(len(s) > MAX_LINE for exc in out for f in exc.frames for s in (f[0], f[2], f[3]) if s)
    return trace
