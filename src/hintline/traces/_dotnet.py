""".NET traces (CoreCLR and Mono): ``Outer: msg ---> Inner: msg``, ``at Ns.Type.Method(args)
in file:line N`` (Mono: ``at Ns.Type.Method (args) [0x0001c] in file:N``), and
``--- End of inner exception stack trace ---`` between the innermost and outer frames.

The header lists the chain outermost first; the frame blocks come innermost first. Mono
prints an unhandled exception twice (``[ERROR] FATAL UNHANDLED EXCEPTION:``): once is read.
"""

from __future__ import annotations

import re

from hintline.traces._detect import is_dotnet_frame
from hintline.traces._memo import MEMO_SIZE, shared_dict
from hintline.traces._raw import MAX_EXCEPTIONS, MAX_LINE, RawException, RawFrame, RawTrace

__all__ = ["parse_dotnet"]

_TYPE = re.compile(r"\s*(?:Unhandled [Ee]xception[.:]\s*|\[ERROR\] FATAL UNHANDLED EXCEPTION: )?([A-Za-z_][\w.`+]*(?:Exception|Error|Exception`\d+)\b|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?:: ?(.*))?$")
_END_INNER = "--- End of inner exception stack trace ---"


def dotnet_frame(rest: str) -> RawFrame:
    """Parse what follows ``at `` in a .NET frame line (arguments are cut)."""
    open_ = rest.find("(")
    sym = (rest[:open_] if open_ > 0 else rest).strip()
    close = rest.rfind(")")
    tail = rest[close + 1 :] if close >= 0 else ""
    file: str | None = None
    line: int | None = None
    pos = tail.find(" in ")
    if pos >= 0:
        loc = tail[pos + 4 :].strip()
        file, colon, num = loc.rpartition(":")
        num = num.removeprefix("line ").strip()
        if colon and num.isdecimal():
            line = int(num)
        else:
            file = loc
        if file.startswith("<") and file.endswith(">"):
            file, line = None, None  # Mono's assembly id: no source file
        elif line == 0:
            line = None
    module, _, function = sym.rpartition(".")
    return (file, line, function or None, module or None, None)


# The common frame line whole, read in one match: ``at Ns.Type.Method (args) [0x0001c] in
# /src/File.cs:12`` (Mono) or ``at Ns.Type.Method(args) in /src/File.cs:line 12`` (CoreCLR). On
# such a line :func:`dotnet_frame` splits at the same places: the first ``(``, the last ``)``
# (the location holds none), the first `` in `` after it and the last ``:``.
_COMMON = re.compile(r"at ([^(]+)\([^)]*\)(?: \[0x[0-9a-fA-F]+\])? in ([^\s)][^)]*):(?:line )?([0-9]+)")


def _at_frame(s: str) -> RawFrame | None:
    """The frame of a stripped line starting with ``at ``, or ``None`` when it is none."""
    common = _COMMON.fullmatch(s)
    if common is not None:  # (it holds `` in ``: a frame, read as dotnet_frame reads it)
        sym, file, num = common.groups()
        module, _, function = sym.strip().rpartition(".")
        line: int | None = int(num)
        if file.startswith("<") and file.endswith(">"):
            return (None, None, function or None, module or None, None)  # Mono's assembly id
        return (file, line or None, function or None, module or None, None)
    if is_dotnet_frame(s) or " in " in s or s.endswith(")"):
        return dotnet_frame(s[3:])
    return None


# Frame lines seen before (this trace or an earlier one), as printed, and their frames. Only
# frame lines enter it: other lines (an ``at …`` message line too) may hold secrets.
_FRAME_LINES: dict[str, RawFrame] = shared_dict()


def parse_dotnet(lines: list[str]) -> RawTrace:
    """Parse the first .NET exception (with its inner exceptions) in ``lines``.

    A frame line seen before costs one dict lookup on the line as printed (no strip, no
    Python call); a new one is read by :func:`dotnet_frame` and remembered.
    """
    trace = RawTrace("dotnet")
    chain: list[RawException] = []
    block = -1  # index into chain, counted from the innermost
    in_frames = False
    seen = _FRAME_LINES
    get = seen.get
    for line in lines:
        frame = get(line) if chain else None  # (only frame lines of at most MAX_LINE are in it)
        if frame is not None:
            in_frames = True
            chain[block].frames.append(frame)
            continue
        if len(line) > MAX_LINE:
            continue
        s = line.strip()
        if chain and s.startswith("at "):
            frame = _at_frame(s)
            if frame is not None:
                if len(seen) >= MEMO_SIZE:
                    seen.clear()
                seen[line] = frame
                in_frames = True
                chain[block].frames.append(frame)
            continue
        if s == _END_INNER:
            if block > 0:
                block -= 1
            continue
        if s.startswith("--- End of stack trace from previous location"):
            continue
        if in_frames:
            break  # the frames ended: a second copy or other text
        if s.startswith("---> ") and chain and len(chain) < MAX_EXCEPTIONS:
            part = s[5:]
            m = _TYPE.match(part)
            exc = RawException(m[1], m[2] or "") if m else RawException("Exception", part)
            chain.append(exc)
            block = len(chain) - 1
            continue
        if not chain:
            if s.startswith(("Unhandled exception", "Unhandled Exception")) and s.rstrip(".:") in ("Unhandled exception", "Unhandled Exception"):
                continue
            m = _TYPE.match(line)
            if not m:
                continue
            if " ---> " not in line:  # one exception: the match above is that of its only part
                chain.append(RawException(m[1], (m[2] or "").strip()))
            else:
                for part in line.split(" ---> ")[:MAX_EXCEPTIONS]:
                    pm = _TYPE.match(part)
                    chain.append(RawException(pm[1], (pm[2] or "").strip()) if pm else RawException("Exception", part.strip()))
            block = len(chain) - 1
            continue
        if s and chain and not in_frames:
            chain[-1].append_message(s)
    for i, exc in enumerate(chain):
        exc.relation = "cause" if i else None
        trace.exceptions.append(exc)
    trace.chain_parents()
    return trace
