"""Scrubbing a stream of any length in bounded memory: :func:`scrub_stream`.

The text is scrubbed in blocks of about a megabyte. A block ends only where no secret can go
on into the next one: after a line that is not inside a PEM private key block, does not end
with a separator (``"password":`` with its value on the next line, ``('password',``), a YAML
block indicator (``password: |``) or an open quote (a quoted value folded onto the next line),
and does not end with a long token (a token wrapped onto the next line). A text with no such place for
:data:`HARD_LIMIT` characters is cut there, at whitespace when there is some near.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

__all__ = ["BLOCK", "HARD_LIMIT", "scrub_stream"]

BLOCK = 1 << 20
"""About how many characters are scrubbed at a time."""
HARD_LIMIT = 8 << 20
"""A block is cut here even when no line break is a safe place."""

_OPEN_ENDS = frozenset(":=,([{\\")
_LONG_TOKEN = re.compile(r"[A-Za-z0-9._~+/=-]{20,}\Z")  # anchored at the end, on one line
# a YAML block scalar's indicator (`password: |-  # note`: the value is on the next line), and
# a value's quote left open at the line's end (a long line folded inside the value); bounded
# runs, searched from near the line's end only
_GOES_ON = re.compile(
    r"[:\s][|>][-+1-9]{0,2}(?:[ \t]+#[^\n]{0,200})?\Z|[:=,(\[{][ \t]{0,16}[\"'][^\"'\\\n]{0,200}\Z"
)
_NEAR = 1024


def _can_end_after(line: str) -> bool:
    """Whether a secret cannot go on from ``line`` into the next line."""
    line = line.rstrip()
    if not line:
        return True
    if line[-1] in _OPEN_ENDS:
        return False
    if _GOES_ON.search(line, max(0, len(line) - 256)):
        return False
    return _LONG_TOKEN.search(line, max(0, len(line) - 64)) is None


def _safe_end(text: str, low: int, high: int) -> int | None:
    """The first place after a line break, between ``low`` and ``high``, where a block may end."""
    begin = text.rfind("-----BEGIN", 0, low)
    end = text.rfind("-----END", 0, low)
    inside = begin > end and "PRIVATE KEY" in text[begin : begin + 80]
    start = text.rfind("\n", 0, low) + 1
    pos = text.find("\n", low)
    while 0 <= pos < high:
        line = text[start:pos]
        if "-----" in line:
            if "-----BEGIN" in line and "PRIVATE KEY" in line:
                inside = True
            elif "-----END" in line:
                inside = False
        if not inside and _can_end_after(line):
            return pos + 1
        start = pos + 1
        pos = text.find("\n", start)
    return None


def _forced_end(text: str, limit: int) -> int:
    for pos in range(limit, max(0, limit - _NEAR), -1):
        if text[pos - 1].isspace():
            return pos
    return limit


def scrub_stream(
    pieces: Iterable[str], *, scrubber: Callable[[str], str] | None = None
) -> Iterator[str]:
    """Scrub text that arrives in pieces (of any size); yield the scrubbed text in blocks.

    Memory stays at a few blocks however long the text is; the result is what scrubbing the
    whole text at once gives for every secret that fits in a block.

    Args:
        pieces: the text, in pieces (lines, blocks read from a file).
        scrubber: the scrub function (default :func:`hintline.scrub.scrub`).
    """
    if scrubber is None:
        from hintline.scrub import scrub

        scrubber = scrub
    pending = ""
    for piece in pieces:
        pending += piece
        while len(pending) > BLOCK:
            cut = _safe_end(pending, BLOCK, min(len(pending), HARD_LIMIT))
            if cut is None:
                if len(pending) < HARD_LIMIT:
                    break  # wait for more text: a safe end may come
                cut = _forced_end(pending, HARD_LIMIT)
            yield scrubber(pending[:cut])
            pending = pending[cut:]
    if pending:
        yield scrubber(pending)
