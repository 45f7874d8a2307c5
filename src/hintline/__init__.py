"""hintline: turn any failure into one actionable, secret-free line.

>>> import hintline
>>> hintline.clean("KeyError: 'customer'").text  # doctest: +SKIP
"Hint: Key 'customer' is missing ..."
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hintline.categories import Category, Kind, Retry
from hintline.exceptions import (
    ConfigError,
    ExplainerUnavailable,
    GuardTripped,
    HintlineError,
    LoopDetected,
    MissingExtraError,
    RetryBudgetExhausted,
    RuleError,
    TooManyConsecutiveErrors,
)
from hintline.hint import Hint, clean
from hintline.rules import RULES, Example, Rule
from hintline.scrub import scrub, scrub_report

if TYPE_CHECKING:
    from hintline.traces import ExceptionInfo, Frame, Trace, parse_trace

__all__ = [
    "RULES",
    "AgentGuard",
    "Category",
    "ConfigError",
    "Example",
    "ExceptionInfo",
    "ExplainerUnavailable",
    "Frame",
    "GuardTripped",
    "Hint",
    "HintlineError",
    "Kind",
    "LoopDetected",
    "MissingExtraError",
    "Retry",
    "RetryBudgetExhausted",
    "Rule",
    "RuleError",
    "TooManyConsecutiveErrors",
    "Trace",
    "__version__",
    "clean",
    "explain",
    "parse_trace",
    "scrub",
    "scrub_report",
]

# Names whose modules import more than clean() needs: loaded on first use, so that
# `import hintline` plus a first clean() stays fast.
_LAZY = {
    "AgentGuard": "hintline.guard",
    "ExceptionInfo": "hintline.traces",
    "Frame": "hintline.traces",
    "Trace": "hintline.traces",
    "explain": "hintline.explain",
    "parse_trace": "hintline.traces",
}


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("hintline")
        except PackageNotFoundError:  # running from a source tree
            return "0.0.0+unknown"
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'hintline' has no attribute {name!r}")
