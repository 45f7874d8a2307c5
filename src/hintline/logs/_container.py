"""Container logs: the application's lines wrapped by the container runtime.

* ``docker``: Docker's json-file driver, ``{"log": "<line>\\n", "stream": …, "time": …}`` per line;
* ``cri``: the Kubernetes CRI layout of containerd and CRI-O, ``<time> <stream> <P|F> <line>``;
* ``timestamped``: ``docker logs --timestamps`` / ``kubectl logs --timestamps``, ``<time> <line>``.

Each physical line of the application arrives on its own (a traceback is many lines, each
stamped), lines over 16 KiB in parts (no ``\\n`` / tag ``P``). The reader unwraps the lines,
joins the parts, and merges the lines of one stream back into records: with the application's
own record starts where its format is known (a ``logging`` header, logback…), else where a line
is not a traceback continuation (as for journald). The application's format is detected from
the unwrapped lines; a record without its own time takes the runtime's.

``docker logs`` / ``kubectl logs`` without ``--timestamps`` print the application's lines as
they are: those are read by the application's own format.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime

from hintline.logs._json import _CHAINED, _CONTINUES, _EXCEPTION_LINE, parse_json_record
from hintline.logs._levels import level_rank
from hintline.logs._text import START, Parsed, parse_text_record, split_trace
from hintline.logs._time import parse_timestamp

__all__ = ["CONTAINER_FORMATS", "records", "sniff"]

CONTAINER_FORMATS = ("docker", "cri", "timestamped")

_TIME = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:\d\d)"
_CRI = re.compile(rf"^({_TIME}) (stdout|stderr) ([PF])(?: (.*))?$", re.DOTALL)
_STAMPED = re.compile(rf"^({_TIME}) (.*)$", re.DOTALL)
_MAX_LINE = 1 << 20  # a line's parts are joined up to 1 MiB, like the file readers' cap
_MAX_RECORD_LINES = 5000
_GAP_S = 2.0
_TRACEBACK = "Traceback (most recent call last):"


@dataclass(slots=True)
class _Line:
    when: datetime | None
    stream: str
    text: str
    raw: str
    seq: int = 0


def _docker_fields(line: str) -> tuple[str, str, str] | None:
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(obj, dict) or not isinstance(obj.get("log"), str):
        return None
    return obj["log"], str(obj.get("stream") or "stdout"), str(obj.get("time") or "")


def sniff(lines: list[str]) -> str | None:
    """``docker``, ``cri`` or ``timestamped`` when the first lines are wrapped so, else ``None``."""
    lines = [ln for ln in lines if ln.strip()]
    if not lines:
        return None
    need = max(1, int(len(lines) * 0.9))
    if sum(1 for ln in lines if _CRI.match(ln)) >= need:
        return "cri"
    if lines[0].lstrip().startswith("{"):
        docker = sum(1 for ln in lines[:50] if (f := _docker_fields(ln)) is not None and f[2])
        return "docker" if docker >= max(1, int(min(len(lines), 50) * 0.9)) else None
    stamped = [m.group(2) for ln in lines if (m := _STAMPED.match(ln))]
    # only when the stamps wrap multi-line records: else the plain reader reads it as it is
    if len(stamped) >= need and any(_CONTINUES.match(t) and t.strip() for t in stamped):
        return "timestamped"
    return None


def _unwrapped(raw_lines: Iterator[str], fmt: str, reference: date | None) -> Iterator[_Line]:
    """The application's lines, parts joined, in file order."""
    parts: dict[str, tuple[list[str], list[str], datetime | None, int]] = {}
    seq = 0
    for raw in raw_lines:
        raw = raw.rstrip("\r\n")
        if fmt == "docker":
            fields = _docker_fields(raw)
            if fields is None:
                continue
            text, stream, stamp = fields
            complete = text.endswith("\n")
            text = text[:-1] if complete else text
        else:
            m = (_CRI if fmt == "cri" else _STAMPED).match(raw)
            if m is None:
                continue
            if fmt == "cri":
                stamp, stream, complete, text = m.group(1), m.group(2), m.group(3) == "F", m.group(4) or ""
            else:
                stamp, stream, complete, text = m.group(1), "output", True, m.group(2)
        text = text.rstrip("\r")
        held = parts.pop(stream, None)
        if held is not None:
            texts, raws, when, size = held
            texts.append(text)
            raws.append(raw)
            size += len(text)
        else:
            texts, raws, when, size = [text], [raw], parse_timestamp(stamp, reference=reference), len(text)
        if not complete and size < _MAX_LINE:
            parts[stream] = (texts, raws, when, size)
            continue
        seq += 1
        yield _Line(when, stream, "".join(texts), "\n".join(raws), seq)
    for stream, (texts, raws, when, _) in parts.items():
        seq += 1
        yield _Line(when, stream, "".join(texts), "\n".join(raws), seq)


def _inner_format(lines: list[_Line]) -> str | None:
    """The application's own format, from its first lines (``None``: none of the readers')."""
    from hintline.logs._formats import _sniff

    texts = [ln.text for ln in lines[:200]]
    try:
        fmt = _sniff(texts)
    except Exception:
        return None
    return fmt if fmt in START or fmt == "jsonl" else None


def _continues(held: list[_Line], line: _Line, start: re.Pattern[str] | None) -> bool:
    text = line.text
    if len(held) >= _MAX_RECORD_LINES:
        return False
    last = held[-1].when
    if last is not None and line.when is not None and abs((line.when - last).total_seconds()) > _GAP_S:
        return False
    if text.startswith(_TRACEBACK) and any(h.text.startswith(_TRACEBACK) for h in held):
        # a second traceback: chained to the first ("The above exception…", a blank line), or
        # a new one (the interpreter's uncaught exception after a logged record)
        return bool(_CHAINED.match(held[-1].text))
    if start is not None:
        return start.match(text) is None
    in_trace = any(h.text.startswith((_TRACEBACK[:9], "  File ")) for h in held[-3:])
    return bool(_CONTINUES.match(text) or (in_trace and _EXCEPTION_LINE.match(text)))


def _grouped(lines: Iterator[_Line], inner: str | None) -> Iterator[list[_Line]]:
    start = re.compile(f"(?:{START[inner]})") if inner in START else None
    pending: dict[str, list[_Line]] = {}
    for line in lines:
        held = pending.get(line.stream)
        if held is not None and inner != "jsonl" and _continues(held, line, start):
            held.append(line)
            continue
        if held is not None:
            yield pending.pop(line.stream)
        pending[line.stream] = [line]
    yield from pending.values()


def _parsed(group: list[_Line], inner: str | None, reference: date | None) -> Parsed:
    texts = [ln.text for ln in group]
    text = "\n".join(texts)
    parsed: Parsed | None = None
    if inner == "jsonl":
        parsed = parse_json_record(text, reference=reference)
    elif inner is not None:
        parsed = parse_text_record(text, inner, reference=reference)
    if parsed is None or (parsed.level is None and not parsed.trace_text):
        own = parse_text_record(text, "python", reference=reference)
        if own.level:
            parsed = own
        else:
            parsed = Parsed()
            parsed.message, parsed.trace_text = split_trace(texts)
            if not parsed.message and parsed.trace_text:
                parsed.message = texts[-1]
    if parsed.level is None:
        # a stream has no level; an uncaught traceback is an error
        parsed.level = "ERROR" if parsed.trace_text else "INFO"
    if parsed.timestamp is None:
        parsed.timestamp = group[0].when
    parsed.extra = {**parsed.extra, "stream": group[0].stream}
    return parsed


def records(
    raw_lines: Iterator[str], fmt: str, *, min_rank: int, reference: date | None = None
) -> Iterator[tuple[Parsed, str]]:
    """The records of a container log at ``min_rank`` or above, oldest first, with their raw
    lines (the runtime's, so an entry's key is stable)."""
    lines = _unwrapped(raw_lines, fmt, reference)
    head: list[_Line] = []
    for line in lines:
        head.append(line)
        if len(head) >= 200:
            break
    inner = _inner_format(head)

    def every() -> Iterator[_Line]:
        yield from head
        yield from lines

    found = []  # the streams' records interleave: put them back in the order they began
    for group in _grouped(every(), inner):
        parsed = _parsed(group, inner, reference)
        if level_rank(parsed.level or "ERROR") >= min_rank:
            found.append((group[0].seq, parsed, "\n".join(ln.raw for ln in group)))
    found.sort(key=lambda item: item[0])
    for _, parsed, raw in found:
        yield parsed, raw
