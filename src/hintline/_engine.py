"""The one-pass multi-pattern matcher. PLACEHOLDER: replaced by the real engine (issue 2)."""

from __future__ import annotations

__all__ = ["engine_name"]


def engine_name() -> str:
    """Name the active matching engine."""
    return "re"
