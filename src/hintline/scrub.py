"""``scrub()``: replace secret values, keep everything around them.

PLACEHOLDER: replaced by the real scrubber (issue 3).
"""

from __future__ import annotations

import re

__all__ = ["scrub"]

_URL_CREDS = re.compile(r"(?P<pre>[a-zA-Z][\w+.-]*://[^\s:/@]+:)[^\s@/]+@")


def scrub(text: str) -> str:
    """Return ``text`` with secret values replaced by ``***``. Never raises."""
    return _URL_CREDS.sub(r"\g<pre>***@", text)
