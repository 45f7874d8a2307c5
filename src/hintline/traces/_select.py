"""The frame limit: keep the most useful frames of an exception for anything sent on."""

from __future__ import annotations

import dataclasses

from hintline.traces._model import ExceptionInfo, Frame

__all__ = ["DEFAULT_FRAME_LIMIT", "limit_exception", "select_frames"]

DEFAULT_FRAME_LIMIT = 20


def select_frames(exc: ExceptionInfo, limit: int = DEFAULT_FRAME_LIMIT) -> tuple[Frame, ...]:
    """Return at most ``limit`` frames of ``exc``, in their original order.

    Priority: the throw site (the first frame), then in-app frames from the throw site outwards,
    then the remaining frames from the throw site outwards.

    Args:
        exc: the exception whose frames are chosen.
        limit: the most frames to keep (``0`` or less keeps none).
    """
    frames = exc.frames
    if limit <= 0:
        return ()
    if len(frames) <= limit:
        return frames
    chosen = {0}
    for i, frame in enumerate(frames):
        if len(chosen) >= limit:
            break
        if frame.in_app:
            chosen.add(i)
    i = 1
    while len(chosen) < limit:
        chosen.add(i)
        i += 1
    return tuple(frames[i] for i in sorted(chosen))


def limit_exception(exc: ExceptionInfo, limit: int = DEFAULT_FRAME_LIMIT) -> ExceptionInfo:
    """A copy of ``exc`` with :func:`select_frames` applied and ``omitted`` counted."""
    kept = select_frames(exc, limit)
    if len(kept) == len(exc.frames):
        return exc
    return dataclasses.replace(exc, frames=kept, omitted=exc.omitted + len(exc.frames) - len(kept))
