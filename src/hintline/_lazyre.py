"""``re`` for a module whose patterns are constants: ``compile`` defers each to its first use.

A module imports it in place of ``re`` (``from hintline import _lazyre as re``) when every
``re.compile`` in it declares a module-level constant. ``import hintline`` then compiles none of
them (compiling them was about a sixth of ``import hintline`` plus a first ``clean()``, and a
text a rule answers uses none of them); each is compiled by the first call that uses it, and
from then on its methods are the compiled pattern's own, bound once (no lookup per call).

A pattern's mistakes therefore show at its first use, not at import (the module's tests use
every constant): a module that compiles to *validate* (catching ``re.error``) keeps the real
``re``. Every other name is the standard module's.
"""

from __future__ import annotations

import re as _re
from re import ASCII as ASCII
from re import DOTALL as DOTALL
from re import IGNORECASE as IGNORECASE
from re import MULTILINE as MULTILINE
from re import NOFLAG as NOFLAG
from re import UNICODE as UNICODE
from re import VERBOSE as VERBOSE
from re import A as A
from re import I as I
from re import M as M
from re import Match as Match
from re import Pattern as Pattern
from re import RegexFlag as RegexFlag
from re import S as S
from re import U as U
from re import X as X
from re import error as error
from re import escape as escape
from re import findall as findall
from re import finditer as finditer
from re import fullmatch as fullmatch
from re import match as match
from re import search as search
from re import split as split
from re import sub as sub
from re import subn as subn
from typing import Any, cast

__all__ = [
    "ASCII",
    "DOTALL",
    "IGNORECASE",
    "MULTILINE",
    "NOFLAG",
    "UNICODE",
    "VERBOSE",
    "A",
    "I",
    "LazyPattern",
    "M",
    "Match",
    "Pattern",
    "RegexFlag",
    "S",
    "U",
    "X",
    "compile",
    "error",
    "escape",
    "findall",
    "finditer",
    "fullmatch",
    "match",
    "search",
    "split",
    "sub",
    "subn",
]

_FORWARDED = (
    "findall",
    "finditer",
    "flags",
    "fullmatch",
    "groupindex",
    "groups",
    "match",
    "scanner",
    "search",
    "split",
    "sub",
    "subn",
)
"""What a :class:`LazyPattern` takes from its compiled pattern on first use (``pattern`` it
has from the start)."""


class LazyPattern:
    """A pattern compiled when one of its methods (or ``flags``, ``groups``, ``groupindex``)
    is first read; ``pattern`` is the source, readable without compiling.

    Each forwarded name is a slot: unset, reading it falls through to :meth:`__getattr__`,
    which compiles and fills every slot with the compiled pattern's attribute (its methods
    bound), so later reads are plain slot reads. Two threads racing on the first use compile
    twice and store the same values.
    """

    __slots__ = ("_flags", "pattern", *_FORWARDED)

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str) -> Any:  # an unset slot: compile now
        if name not in _FORWARDED:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        compiled = _re.compile(self.pattern, self._flags)
        for forwarded in _FORWARDED:
            setattr(self, forwarded, getattr(compiled, forwarded))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy {_re.compile(self.pattern, self._flags)!r}"


def compile(pattern: str, flags: int = 0) -> Pattern[str]:
    """``re.compile(pattern, flags)``, compiled on first use (see :class:`LazyPattern`)."""
    return cast("Pattern[str]", LazyPattern(pattern, flags))
