"""Text that is always valid Unicode: surrogate pairs joined, lone surrogates replaced.

JSON escapes a character outside the Basic Multilingual Plane as a surrogate pair
(``\\ud83d\\ude00``); unescaping the two halves one by one leaves two lone surrogates, which
cannot be encoded as UTF-8 (``print`` raises ``UnicodeEncodeError``). :func:`valid_text` joins
each pair into its character and replaces a lone half with U+FFFD.
"""

from __future__ import annotations

__all__ = ["valid_text"]


def valid_text(text: str) -> str:
    """``text`` with surrogate pairs joined and lone surrogates replaced by U+FFFD.

    Text that is already valid is returned as is (the same object); linear time.
    """
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # UTF-16 round trip: a high+low pair becomes one character, a lone half U+FFFD
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return text


_BOUNDARY_REACH = 1024
"""How far back from the limit :func:`cut_at_boundary` looks for whitespace."""


def cut_at_boundary(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, at whitespace when there is some near.

    For cuts made before text reaches the scrubber (a parser's bound on a message): a token,
    a DSN or a key=value pair holds no whitespace, so a cut at whitespace keeps such a secret
    whole or drops it whole instead of leaving a prefix the scrubber cannot recognise.
    """
    if len(text) <= limit:
        return text
    low = max(0, limit - _BOUNDARY_REACH)
    for pos in range(limit, low, -1):  # at most _BOUNDARY_REACH steps
        if text[pos].isspace():
            return text[:pos]
    return text[:limit]
