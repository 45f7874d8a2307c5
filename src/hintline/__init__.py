"""hintline: turn any failure into one actionable, secret-free line.

>>> import hintline
>>> hintline.clean("KeyError: 'customer'").text  # doctest: +SKIP
"Hint: Key 'customer' is missing ..."
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hintline import scrub as scrub  # the package (callable: hintline.scrub(text) scrubs)
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
from hintline.scrub import scrub_report

if TYPE_CHECKING:  # what __getattr__ loads on first use, typed for type checkers
    from hintline import explain as explain
    from hintline.agent import AgentGuard as AgentGuard
    from hintline.traces import ExceptionInfo, Frame, Trace, parse_trace

    __version__: str

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
    "AgentGuard": "hintline.agent",
    "ExceptionInfo": "hintline.traces",
    "Frame": "hintline.traces",
    "Trace": "hintline.traces",
    "parse_trace": "hintline.traces",
}
# Subpackages named like their main function: the attribute is always the package (as
# `import hintline.explain` binds it), and the package is callable: hintline.explain(entry).
_LAZY_PACKAGES = frozenset({"explain"})


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("hintline")
        except PackageNotFoundError:  # running from a source tree
            return "0.0.0+unknown"
    if name in _LAZY_PACKAGES:
        import importlib

        return importlib.import_module(f"hintline.{name}")
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'hintline' has no attribute {name!r}")
