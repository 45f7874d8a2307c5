"""The frame-run loops of the JVM and Node readers as they were before a run of lines seen
before was taken by one C-level ``map`` (commits 96b9f7a and the next): one dict lookup per line in Python.
The same for the .NET and Ruby readers, whose
whole loop is the frame run. The oracles of ``test_frame_runs.py``. Not used by hintline."""

from __future__ import annotations

from hintline.traces import _dotnet, _jvm, _node, _ruby
from hintline.traces._memo import MEMO_SIZE
from hintline.traces._raw import MAX_EXCEPTIONS, MAX_LINE, RawException, RawFrame, RawTrace


def jvm_frame_run(lines: list[str], i: int, frames: list[RawFrame], trace: RawTrace) -> int:
    seen = _jvm._FRAME_LINES
    get = seen.get
    match = _jvm._FAST.match
    append = frames.append
    n = len(lines)
    other = False
    while i < n:
        line = lines[i]
        frame = get(line)
        if frame is None:
            if len(line) > MAX_LINE:
                if other:
                    break
                frame = _jvm._fast_frame(line)
                if frame is None:
                    break
                trace.long_lines = True
                append(frame)
                i += 1
                continue
            m = match(line)
            if m is not None:
                sym, file, num = m.groups()
                module, dot, function = sym.rpartition(".")
                if dot and function and " " not in sym and ")" not in file:
                    if "/" in module:
                        module = module[module.rfind("/") + 1 :]
                    frame = (file, int(num), function, module or None, None)
                    if len(seen) >= MEMO_SIZE:
                        seen.clear()
                    seen[line] = frame
            if frame is None:
                frame = _jvm._at_frame(line) if "at " in line else None
                if frame is None:
                    break
                other = True
                append(frame)
                i += 1
                continue
        other = False
        append(frame)
        i += 1
    return i


def node_frame_run(lines: list[str], i: int, frames: list[RawFrame]) -> int:
    seen = _node._FRAME_LINES
    get = seen.get
    append = frames.append
    n = len(lines)
    while i < n:
        line = lines[i]
        frame = get(line)
        if frame is None:
            if len(line) > MAX_LINE:
                i += 1
                continue
            m = _node._COMMON.match(line)
            if m is not None:
                frame = _node._common_frame(m)
            elif line.endswith(" {"):
                break
            else:
                s = line.strip()
                at_frame = _node._at_line(s) if s.startswith("at ") else None
                if at_frame is None or at_frame[1]:
                    break
                frame = at_frame[0]
            if len(seen) >= MEMO_SIZE:
                seen.clear()
            seen[line] = frame
        append(frame)
        i += 1
    return i


def parse_dotnet(lines: list[str]) -> RawTrace:
    """Parse the first .NET exception (with its inner exceptions) in ``lines``.

    A frame line seen before costs one dict lookup on the line as printed (no strip, no
    Python call); a new one is read by :func:`dotnet_frame` and remembered.
    """
    trace = RawTrace("dotnet")
    chain: list[RawException] = []
    block = -1  # index into chain, counted from the innermost
    in_frames = False
    seen = _dotnet._FRAME_LINES
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
            frame = _dotnet._at_frame(s)
            if frame is not None:
                if len(seen) >= MEMO_SIZE:
                    seen.clear()
                seen[line] = frame
                in_frames = True
                chain[block].frames.append(frame)
            continue
        if s == _dotnet._END_INNER:
            if block > 0:
                block -= 1
            continue
        if s.startswith("--- End of stack trace from previous location"):
            continue
        if in_frames:
            break  # the frames ended: a second copy or other text
        if s.startswith("---> ") and chain and len(chain) < MAX_EXCEPTIONS:
            part = s[5:]
            m = _dotnet._TYPE.match(part)
            exc = RawException(m[1], m[2] or "") if m else RawException("Exception", part)
            chain.append(exc)
            block = len(chain) - 1
            continue
        if not chain:
            if s.startswith(("Unhandled exception", "Unhandled Exception")) and s.rstrip(".:") in ("Unhandled exception", "Unhandled Exception"):
                continue
            m = _dotnet._TYPE.match(line)
            if not m:
                continue
            if " ---> " not in line:  # one exception: the match above is that of its only part
                chain.append(RawException(m[1], (m[2] or "").strip()))
            else:
                for part in line.split(" ---> ")[:MAX_EXCEPTIONS]:
                    pm = _dotnet._TYPE.match(part)
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


def parse_ruby(lines: list[str]) -> RawTrace:
    """Parse the first Ruby error (and its printed causes) in ``lines``.

    One tight loop: a ``from`` line seen before costs one dict lookup and an append; only a
    line that misses is asked whether it is a new frame (``from `` in it) or a header (``:in ``
    in it), and any other line is skipped.
    """
    trace = RawTrace("ruby")
    out = trace.exceptions
    seen = _ruby._FROM_LINES
    get = seen.get
    frames: list[RawFrame] = []  # the current exception's (before any header: dropped ones)
    for line in lines:
        frame = get(line)
        if frame is None:
            if len(line) > MAX_LINE:
                continue
            if "from " in line and line.lstrip().startswith("from "):
                f = _ruby._FROM.match(line)
                if f is not None:
                    frame = _ruby._frame(f[1], f[2], f[3])
                    if len(seen) >= MEMO_SIZE:
                        seen.clear()
                    seen[line] = frame
            if frame is None:
                h = _ruby._HEAD.match(line) if ":in " in line else None
                if h is not None:
                    if len(out) >= MAX_EXCEPTIONS:
                        break
                    rest = h[4]
                    cls = _ruby._CLASS.search(rest)
                    if cls:
                        cur = RawException(cls[1], rest[: cls.start()])
                    else:
                        cur = RawException("RuntimeError" if rest == "unhandled exception" else "Exception", rest)
                    cur.add(_ruby._frame(h[1], h[2], h[3]))
                    out.append(cur)
                    frames = cur.frames
                continue
        frames.append(frame)
    trace.chain_parents()
    return trace
