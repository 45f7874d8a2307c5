"""Colour for the terminal only: ``NO_COLOR`` (any non-empty value) and ``TERM=dumb`` turn it
off, and so does a stream that is not a terminal (a pipe, a file). Colour is applied to text
that has already been scrubbed, so the escape codes never split a secret from its key.
"""

from __future__ import annotations

import os
from typing import TextIO

__all__ = ["Style", "colour_enabled"]

_CODES = {
    "bold": "1",
    "dim": "2",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "cyan": "36",
}


def colour_enabled(stream: TextIO) -> bool:
    """Whether to colour what goes to ``stream`` (https://no-color.org)."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


class Style:
    """Wraps text in SGR codes when ``on``; returns it unchanged otherwise."""

    def __init__(self, on: bool) -> None:
        self.on = on

    def __call__(self, text: str, *names: str) -> str:
        if not self.on or not text or not names:
            return text
        return f"\x1b[{';'.join(_CODES[n] for n in names)}m{text}\x1b[0m"

    def level(self, level: str) -> str:
        """A log level in the colour of its severity."""
        upper = level.upper()
        if upper in {"CRITICAL", "FATAL", "EMERGENCY", "ALERT", "ERROR", "ERR", "CRIT", "EMERG"}:
            return self(level, "red", "bold")
        if upper in {"WARNING", "WARN", "NOTICE"}:
            return self(level, "yellow")
        return level

    def hint(self, text: str) -> str:
        """A ``Hint: …`` line with its label highlighted."""
        if text.startswith("Hint: "):
            return self("Hint:", "green", "bold") + text[5:]
        return text
