"""The frame-run loops of the JVM and Node readers as they were before a run of lines seen
before was taken by one C-level ``map`` (commit 96b9f7a): one dict lookup per line in Python.
The oracle of ``test_frame_runs.py``. Not used by hintline."""

from __future__ import annotations

from hintline.traces import _jvm, _node
from hintline.traces._memo import MEMO_SIZE
from hintline.traces._raw import MAX_LINE, RawFrame, RawTrace


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
