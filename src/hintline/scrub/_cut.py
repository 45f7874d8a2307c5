"""Scrub, then cut: the one way text is shortened before it leaves hintline.

A cut made before scrubbing can leave the first characters of a secret whose remainder the
scrubber would have needed to recognise it (``postgresql://app:S3c`` has lost the ``@host`` that
makes it a URL with credentials). :func:`scrub_cut` scrubs the whole value first and only then
cuts, never inside a mask, so a shortened text shows no more of a secret than the full one.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

from collections.abc import Callable

from hintline.scrub._model import MASK

__all__ = ["ELLIPSIS", "cut_scrubbed", "scrub_cut"]

ELLIPSIS = "…"


def cut_scrubbed(text: str, limit: int, ellipsis: str = ELLIPSIS) -> str:
    """Cut already scrubbed ``text`` to at most ``limit`` characters (``ellipsis`` included).

    The cut never splits a mask (``***`` stays whole or goes), so what is left still shows
    where a secret was. Text that fits is returned unchanged.
    """
    if len(text) <= limit:
        return text
    keep = max(0, limit - len(ellipsis))
    # a mask straddling the cut goes whole: `…pass=**` would look like a value
    start = text.rfind(MASK, max(0, keep - len(MASK) + 1), keep + len(MASK) - 1)
    if start >= 0 and start < keep < start + len(MASK):
        keep = start
    return text[:keep].rstrip() + ellipsis if keep else ellipsis[:limit]


def scrub_cut(
    text: str,
    limit: int,
    ellipsis: str = ELLIPSIS,
    *,
    scrubber: Callable[[str], str] | None = None,
) -> str:
    """Scrub the whole of ``text``, then cut it to at most ``limit`` characters.

    Args:
        text: the text to shorten.
        limit: the longest result, ``ellipsis`` included.
        ellipsis: what marks a cut.
        scrubber: the scrub function (default :func:`hintline.scrub.scrub`).
    """
    if scrubber is None:
        from hintline.scrub import scrub

        scrubber = scrub
    return cut_scrubbed(scrubber(text), limit, ellipsis)
