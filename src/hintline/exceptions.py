"""hintline's exceptions.

::

    HintlineError
     +-- RuleError(HintlineError, ValueError)            a bad rule or secret-pattern declaration
     +-- ConfigError(HintlineError, ValueError)          a bad or missing configuration
     +-- MissingExtraError(HintlineError, ImportError)   an integration's extra is not installed
     +-- ExplainerUnavailable(HintlineError, ConnectionError)  the model provider cannot be reached
     |    +-- ExplainerTimeout(ExplainerUnavailable, TimeoutError)  no answer within the timeout
     |    +-- InvalidAnswer(ExplainerUnavailable)                   not JSON, not the schema
     |         +-- AnswerCutOff                                     stopped at max_tokens
     +-- ExplainRefused(HintlineError, PermissionError)  the trust zone forbids sending the entry
     +-- GuardTripped(HintlineError)                     the agent guard stopped the run
          +-- RetryBudgetExhausted
          +-- LoopDetected
          +-- TooManyConsecutiveErrors

``clean()``, ``scrub()`` and ``parse_trace()`` never raise: they are total. Exceptions are for
programmer or configuration errors and for guard decisions.
"""

from __future__ import annotations

__all__ = [
    "AnswerCutOff",
    "ConfigError",
    "ExplainRefused",
    "ExplainerTimeout",
    "ExplainerUnavailable",
    "GuardTripped",
    "HintlineError",
    "InvalidAnswer",
    "LoopDetected",
    "MissingExtraError",
    "RetryBudgetExhausted",
    "RuleError",
    "TooManyConsecutiveErrors",
]


class HintlineError(Exception):
    """Base class of every exception hintline raises."""


class RuleError(HintlineError, ValueError):
    """A rule or secret pattern is declared wrongly (no example, unknown group, bad pattern)."""


class ConfigError(HintlineError, ValueError):
    """A configuration is missing, unreadable or invalid."""


class MissingExtraError(HintlineError, ImportError):
    """An integration was used without its extra installed.

    The message says what to install, for example ``pip install 'hintline[web]'``.
    """

    def __init__(self, extra: str, package: str) -> None:
        super().__init__(f"{package} is not installed: pip install 'hintline[{extra}]'")
        self.extra = extra
        self.package = package


class ExplainerUnavailable(HintlineError, ConnectionError):
    """The model provider could not be reached or gave no usable answer."""


class ExplainerTimeout(ExplainerUnavailable, TimeoutError):
    """The model provider did not answer within the configured timeout."""


class InvalidAnswer(ExplainerUnavailable):
    """The model answered, but not usably: not JSON, or not the schema (or cut off)."""


class AnswerCutOff(InvalidAnswer):
    """The answer stopped at ``max_tokens`` before its JSON was complete."""


class ExplainRefused(HintlineError, PermissionError):
    """The configuration's trust zone may not receive what a hint needs; no model was asked.

    The message names the zone and what the operator can change.
    """


class GuardTripped(HintlineError):
    """The agent guard stopped the run. ``summary`` says what was tried, for a human."""

    def __init__(self, message: str, summary: str = "") -> None:
        super().__init__(message)
        self.summary = summary


class RetryBudgetExhausted(GuardTripped):
    """A system fault persisted after every retry."""


class LoopDetected(GuardTripped):
    """The agent kept repeating calls after being told it was stuck."""


class TooManyConsecutiveErrors(GuardTripped):
    """The consecutive-error threshold was reached: escalate to a human."""
