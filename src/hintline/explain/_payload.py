"""What is sent to a model: the class, the scrubbed message, the component and up to 20 frames.

Each frame goes as file, line and function only: call arguments are cut and no source line is
sent. The file is made relative to the project root when it lies inside it (the path to the
checkout says nothing about the error, and often names a person). Every text goes through
:func:`hintline.scrub` first. The trust zone decides the rest (see :mod:`._zones`): below
``system_diagnostics`` nothing is sent; below ``secret_adjacent`` the message is withheld.
"""

from __future__ import annotations

import dataclasses
import os
import posixpath
import re
from dataclasses import dataclass

from hintline.exceptions import ExplainRefused
from hintline.explain._config import Configuration
from hintline.explain._zones import DataClass, TrustZone
from hintline.logs import Entry
from hintline.scrub import scrub
from hintline.traces import ExceptionInfo, Frame, select_frames
from hintline.traces._inapp import InAppPolicy

__all__ = [
    "MAX_FRAMES",
    "MAX_MESSAGE_CHARS",
    "Payload",
    "SentFrame",
    "build_payload",
    "refusal_message",
]

MAX_FRAMES = 20
MAX_MESSAGE_CHARS = 2000
_MAX_FIELD_CHARS = 300
# A function printed with its call: PHP `App\Foo->bar('secret', Array)`, JS `at f (…)`.
_CALL_ARGS = re.compile(r"\s*\(.*$", re.DOTALL)


@dataclass(frozen=True, slots=True)
class SentFrame:
    """One frame as the model sees it.

    Attributes:
        index: its number in the request; the model cites it (0 is where the error was raised).
        file: the scrubbed path, relative to the project root when inside it.
        line: the line number.
        function: the function name, call arguments cut, scrubbed.
    """

    index: int
    file: str | None
    line: int | None
    function: str | None

    def describe(self) -> str:
        """``#2 app/orders.py:42 in compute_total``."""
        where = self.file or "?"
        if self.line is not None:
            where += f":{self.line}"
        return f"#{self.index} {where}" + (f" in {self.function}" if self.function else "")


@dataclass(frozen=True, slots=True)
class Payload:
    """Exactly what a request carries, and the original frames it was made from.

    Attributes:
        exception_type: the exception class, or ``None``.
        chain: the other classes of the exception chain, outermost first (``()`` when single).
        component: the logger or component, scrubbed.
        message: the scrubbed log message, or ``None`` when withheld or empty.
        exception_message: the scrubbed exception message when it adds to ``message``.
        frames: the frames sent, numbered from 0.
        origin: the trace frame each sent frame came from (same order; never sent).
        message_withheld: the zone may not receive the message, so it was not sent.
        zone: the trust zone the payload was built for.
    """

    exception_type: str | None
    chain: tuple[str, ...]
    component: str | None
    message: str | None
    exception_message: str | None
    frames: tuple[SentFrame, ...]
    origin: tuple[Frame, ...]
    message_withheld: bool
    zone: TrustZone

    def to_dict(self) -> dict[str, object]:
        """The payload as JSON-ready data (what ``--json`` shows as ``sent``)."""
        return {
            "exception_type": self.exception_type,
            "chain": list(self.chain),
            "component": self.component,
            "message": self.message,
            "exception_message": self.exception_message,
            "message_withheld": self.message_withheld,
            "frames": [
                {"index": f.index, "file": f.file, "line": f.line, "function": f.function}
                for f in self.frames
            ],
        }

    def render(self) -> str:
        """The user message of the request: one fact per line."""
        lines = [f"Exception class: {self.exception_type or '(none logged)'}"]
        if self.chain:
            lines.append("Other exceptions in the chain: " + ", ".join(self.chain))
        if self.component:
            lines.append(f"Component: {self.component}")
        if self.message_withheld:
            lines.append("Message: (withheld: this provider may not receive log messages)")
        else:
            lines.append(f"Message: {self.message or '(empty)'}")
            if self.exception_message:
                lines.append(f"Exception message: {self.exception_message}")
        if self.frames:
            lines.append("Frames (#0 is where the exception was raised, then its callers):")
            lines.extend(f.describe() for f in self.frames)
        else:
            lines.append("Frames: (none logged)")
        return "\n".join(lines)


def build_payload(
    entry: Entry,
    configuration: Configuration,
    *,
    project_root: str | os.PathLike[str] | None = None,
    max_frames: int = MAX_FRAMES,
) -> Payload:
    """Build what may be sent about ``entry`` to ``configuration``'s provider.

    Raises:
        ExplainRefused: the zone may not receive system diagnostics, or nothing would be left
            to send (no class, no frame, and a message the provider may not receive).
    """
    zone = configuration.zone
    if not zone.permits(DataClass.SYSTEM_DIAGNOSTICS):
        raise ExplainRefused(refusal_message(configuration))
    withheld = not zone.permits(DataClass.SECRET_ADJACENT)
    exc = _main_exception(entry)
    exception_type = _clip(scrub(entry.exception_type or (exc.type if exc else "")))
    chain = tuple(
        _clip(scrub(e.type)) for e in entry.trace.exceptions if e is not exc and e.type
    )
    root = os.fspath(project_root) if project_root is not None else None
    frames = select_frames(_in_app_for_root(exc, root), max_frames) if exc is not None else ()
    prefix = posixpath.normpath(root).rstrip("/") + "/" if root else None
    printed = entry.trace_text or entry.message
    sent = tuple(
        SentFrame(
            index=i,
            file=_clip(scrub(_relative(f.file, prefix))) if f.file else None,
            line=f.line,
            function=_clip(scrub(_cut_args(_qualified(f, printed)))) if f.function else None,
        )
        for i, f in enumerate(frames)
    )
    message = None if withheld else _clip(scrub(entry.message.strip()), MAX_MESSAGE_CHARS)
    exception_message = None
    if not withheld and exc is not None and exc.message.strip():
        candidate = _clip(scrub(exc.message.strip()), MAX_MESSAGE_CHARS)
        if candidate not in (message or ""):
            exception_message = candidate
    if not exception_type and not sent and not message and not exception_message:
        why = (
            f"its message may not be sent to trust zone {zone}"
            if withheld and entry.message.strip()
            else "its message is empty"
        )
        raise ExplainRefused(
            f"nothing to send: the entry has no exception class and no frame, and {why}; "
            "no model was asked"
        )
    component = _clip(scrub(entry.component)) if entry.component else None
    return Payload(
        exception_type=exception_type or None,
        chain=chain,
        component=component or None,
        message=message or None,
        exception_message=exception_message,
        frames=sent,
        origin=frames,
        message_withheld=withheld,
        zone=zone,
    )


def refusal_message(configuration: Configuration) -> str:
    """Why no model is asked under this configuration, and what the operator can change."""
    zone = configuration.zone
    origin = {"configured": "as configured", "default": "the default for a non-loopback host"}
    why = origin.get(
        configuration.zone_source,
        f"the configured zone is {configuration.zone_source.removeprefix('unknown ')}, "
        "which is unknown and counts as external_global",
    )
    return (
        f"refused: configuration {configuration.name!r} is in trust zone {zone} ({why}), which "
        f"may receive at most {zone.ceiling}; an exception hint needs system_diagnostics (the "
        "class and the frames). No model was asked. If this provider runs on your own "
        "infrastructure, set zone = \"private_hosted\" (or \"local\") in its configuration, "
        "or choose a local configuration with --configuration."
    )


def _main_exception(entry: Entry) -> ExceptionInfo | None:
    """The exception whose frames are sent: the root cause, else the first that has frames."""
    chain = entry.trace.exceptions
    if not chain:
        return None
    root = entry.trace.root_cause
    if root is not None and root.frames:
        return root
    return next((e for e in chain if e.frames), root)


def _in_app_for_root(exc: ExceptionInfo, root: str | None) -> ExceptionInfo:
    """``exc`` with ``in_app`` decided again for ``root`` by the trace parser's own policy.

    A log reader parses traces without knowing the project, so their frames are in app only
    through include lists or known packages; the configured project root settles the rest.
    """
    if root is None or all(f.in_app for f in exc.frames):
        return exc
    policy = InAppPolicy(project_root=root)
    frames = tuple(
        f if f.in_app else dataclasses.replace(f, in_app=policy.decide(f.file, f.module, f.function))
        for f in exc.frames
    )
    return dataclasses.replace(exc, frames=frames)


def _relative(file: str, root_prefix: str | None) -> str:
    """``file`` relative to the root when it lies inside it (``root_prefix`` ends with ``/``)."""
    if not root_prefix or not file.startswith("/"):
        return file
    norm = posixpath.normpath(file) if ("/." in file or "//" in file) else file
    return norm[len(root_prefix) :] if norm.startswith(root_prefix) else file


_JOINERS = ("->", "::", ".", "\\")


def _qualified(frame: Frame, printed: str) -> str:
    """The frame's function with its class or module, as the trace printed it.

    A parsed frame keeps the class apart from the method (``TYPO3\\CMS\\Core\\Boot`` and
    ``start``) and drops the operator between them; the printed trace has the whole name
    (``TYPO3\\CMS\\Core\\Boot->start``, ``org.postgresql.Driver.connect``). When no such name
    is in the text, the bare function is sent: a name is never made up.
    """
    function = frame.function or ""
    module = frame.module
    if module and not function.startswith(module):
        for joiner in _JOINERS:
            name = f"{module}{joiner}{function}"
            if name in printed:
                return name
    return function


def _cut_args(function: str) -> str:
    return _CALL_ARGS.sub("", function).strip() or function.strip()


def _clip(text: str, limit: int = _MAX_FIELD_CHARS) -> str:
    """Cut ``text`` to ``limit`` characters; short fields (names, paths) also become one line."""
    if limit <= _MAX_FIELD_CHARS:
        text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"

