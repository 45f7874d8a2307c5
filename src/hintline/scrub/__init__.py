"""``scrub()``: replace secret values, keep everything around them.

>>> from hintline.scrub import scrub
>>> scrub("connect to postgresql://app:S3cret@db:5432/shop failed")
'connect to postgresql://app:***@db:5432/shop failed'

Every secret *value* becomes ``***``; key names, schemes, users, hosts, ports, header schemes
(``Bearer``), PEM BEGIN/END lines and the rest of the message stay, so the error remains
readable. :func:`scrub_report` also says which kinds were masked. Both are total (any ``str``
or ``bytes`` in, a result out, never an exception) and idempotent.

The table of patterns is :data:`SECRETS` (data, each with examples and near misses); add your
own with :class:`Scrubber`. Text that must be shortened is scrubbed whole, then cut
(:func:`scrub_cut`), so no prefix of a secret survives a cut.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

from hintline._deferred import deferred_checks
from hintline.scrub._cut import cut_scrubbed, scrub_cut
from hintline.scrub._model import MASK, ScrubResult, SecretPattern
from hintline.scrub._names import KEY_NAMES, QUERY_NAMES

with deferred_checks():  # the built-in table; tests/scrub/test_table.py runs check() on each
    from hintline.scrub._patterns import SECRETS
from hintline.scrub._scrubber import Scrubber

if TYPE_CHECKING:  # loaded on first use by __getattr__: clean() never streams
    from hintline.scrub._stream import scrub_stream

__all__ = [
    "KEY_NAMES",
    "MASK",
    "QUERY_NAMES",
    "SECRETS",
    "ScrubResult",
    "Scrubber",
    "SecretPattern",
    "cut_scrubbed",
    "scrub",
    "scrub_cut",
    "scrub_report",
    "scrub_stream",
]

_DEFAULT = Scrubber()


def scrub(text: str | bytes) -> str:
    """Return ``text`` with every secret value replaced by ``***``. Never raises.

    Args:
        text: any text; ``bytes`` are decoded as UTF-8 with replacement characters.

    Returns:
        The text with secret values masked and everything else unchanged.
    """
    return _DEFAULT.scrub(text)


def scrub_report(text: str | bytes) -> ScrubResult:
    """Scrub ``text`` and report what was masked: ``ScrubResult(text, kinds, count)``.

    A log reader can use ``result.kinds`` (``('url-credentials', 'jwt')``) to tell an operator
    that something was masked and what. Never raises.
    """
    return _DEFAULT.report(text)


def __getattr__(name: str) -> Any:
    if name == "scrub_stream":  # its module is not needed by scrub() or clean()
        from hintline.scrub._stream import scrub_stream

        return scrub_stream
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _CallablePackage(types.ModuleType):
    """``hintline.scrub`` is this package (``hintline.scrub.Scrubber``, ``hintline.scrub.SECRETS``)
    however it was imported; calling the package calls :func:`scrub`, so code written as
    ``hintline.scrub(text)`` keeps working. Typed code calls ``hintline.scrub.scrub(text)`` or
    ``from hintline.scrub import scrub``: a type checker sees a package, which it cannot call.
    """

    def __call__(self, text: str | bytes) -> str:
        return _DEFAULT.scrub(text)


sys.modules[__name__].__class__ = _CallablePackage
