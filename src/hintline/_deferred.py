"""Deferred declaration checks for hintline's own tables.

A :class:`~hintline.Rule` or :class:`~hintline.scrub.SecretPattern` checks itself when it is
declared: its pattern compiles, its examples and near misses behave, its hint template fits its
groups. For a caller's own entries that is the right moment. For the built-in tables it would
compile some 200 regexes on every ``import hintline`` (about 70 ms, most of the start-up
budget), so they are declared inside :func:`deferred_checks`: only the cheap checks run then,
and the test suite runs the full ``check()`` on every built-in entry (``tests/rules`` and
``tests/scrub``), as does ``scripts/gen_rule_docs.py`` in CI.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["checks_deferred", "deferred_checks"]

_DEFERRED: ContextVar[bool] = ContextVar("hintline_deferred_checks", default=False)


@contextmanager
def deferred_checks() -> Iterator[None]:
    """Within this block (in this thread or task), declarations run only their cheap checks
    (a :class:`~hintline.Rule` none: its ``check()`` runs them all)."""
    token = _DEFERRED.set(True)
    try:
        yield
    finally:
        _DEFERRED.reset(token)


def checks_deferred() -> bool:
    """Whether the full declaration checks are deferred here (see :func:`deferred_checks`)."""
    return _DEFERRED.get()
