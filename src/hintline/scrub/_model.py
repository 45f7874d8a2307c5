"""A secret pattern is documented data: what it masks, why, and proof in both directions."""

from __future__ import annotations

import re
from dataclasses import dataclass

from hintline._deferred import checks_deferred
from hintline.exceptions import RuleError

__all__ = ["MASK", "ScrubResult", "SecretPattern"]

MASK = "***"
"""What every secret value is replaced with. Key names, schemes, hosts and ports stay."""

_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*\Z")
_GROUP_DEF = re.compile(r"\(\?P<([A-Za-z_]\w*)>")


@dataclass(frozen=True, slots=True)
class SecretPattern:
    """One entry of the secret table, checked when it is declared (the built-in table defers
    the checks that compile the pattern to :meth:`check`, which its tests run; see
    :mod:`hintline._deferred`).

    Args:
        name: the kind reported by :func:`~hintline.scrub.scrub_report` (``aws-access-key``),
            lowercase kebab-case.
        pattern: a Python ``re`` pattern. It must not use global inline flags (write
            ``(?i:…)``), because every pattern becomes one branch of a single combined regex.
        why: one line on what the secret is and where it shows up in errors.
        examples: real texts holding the secret; each must be changed by this pattern alone.
        near_misses: texts this pattern must leave untouched.
        groups: the named groups holding the secret value, tried in order; the first one that
            took part in the match is replaced by :data:`MASK`, everything else is kept.
        source: where the pattern comes from (``gitleaks:github-pat``, ``sentry-relay:@urlauth``),
            for credit.
        trigger: a short regex, for the multi-pattern prefilter, that matches near the start of
            every match (the key name and separator, the token prefix) and ends inside it. It
            must be a superset of the start of ``pattern``; empty means ``pattern`` itself. Without
            Hyperscan it is searched with Python ``re``, so it must mean the same in both. Tests
            check that both prefiltered paths mask exactly what a full scan masks.
        multiline: the match may span lines (PEM blocks); the fast path then looks past the
            line where the match starts.
        reach: at most how many characters before the end of its trigger a match starts
            (``None``: anywhere earlier on the line). A bound lets the fast path skip the start
            of long lines.
        lines: how many lines a match may span (a JSON value on the line after its key, a
            token wrapped onto the next line); the fast path looks that far past the line where
            the trigger fired. ``multiline`` lifts the bound.
    """

    name: str
    pattern: str
    why: str
    examples: tuple[str, ...]
    near_misses: tuple[str, ...] = ()
    groups: tuple[str, ...] = ("secret",)
    source: str = "hintline"
    trigger: str = ""
    multiline: bool = False
    reach: int | None = None
    lines: int = 1

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise RuleError(f"secret pattern {self.name!r}: name must be lowercase kebab-case")
        if not self.why.strip() or "\n" in self.why:
            raise RuleError(f"secret pattern {self.name}: why must be one non-empty line")
        if not self.examples:
            raise RuleError(f"secret pattern {self.name} has no example")
        if not self.groups:
            raise RuleError(f"secret pattern {self.name} names no secret group")
        if self.lines < 1:
            raise RuleError(f"secret pattern {self.name}: lines must be at least 1")
        if not checks_deferred():
            self.check()

    def check(self) -> None:
        """Run every declaration check: the pattern compiles, and finds a secret in each
        example and none in any near miss.

        Raises:
            RuleError: for the faults listed on the class, saying which pattern and why.
        """
        try:
            # wrapped, as in the combined regex: a global flag mid-pattern fails here
            compiled = re.compile(f"(?:{self.pattern})")
        except re.error as exc:
            raise RuleError(f"secret pattern {self.name}: pattern does not compile: {exc}") from exc
        missing = [g for g in self.groups if g not in compiled.groupindex]
        if missing:
            raise RuleError(f"secret pattern {self.name}: groups {missing} are not in the pattern")
        if compiled.match(""):
            raise RuleError(f"secret pattern {self.name}: pattern matches the empty string")
        try:
            trigger = re.compile(self.trigger) if self.trigger else compiled
        except re.error as exc:
            raise RuleError(f"secret pattern {self.name}: trigger does not compile: {exc}") from exc
        for example in self.examples:
            if not _finds_secret(compiled, self.groups, example):
                raise RuleError(f"secret pattern {self.name}: example not matched: {example!r}")
            if not trigger.search(example):
                raise RuleError(f"secret pattern {self.name}: trigger misses example {example!r}")
        for near in self.near_misses:
            if _finds_secret(compiled, self.groups, near):
                raise RuleError(f"secret pattern {self.name}: near miss matched: {near!r}")

    def renamed(self, index: int) -> str:
        """Return the pattern with every group name prefixed ``p{index}_``, for combining."""
        prefix = f"p{index}_"
        text = _GROUP_DEF.sub(lambda m: f"(?P<{prefix}{m.group(1)}>", self.pattern)
        return re.sub(r"\(\?P=([A-Za-z_]\w*)\)", lambda m: f"(?P={prefix}{m.group(1)})", text)


def _finds_secret(compiled: re.Pattern[str], groups: tuple[str, ...], text: str) -> bool:
    for match in compiled.finditer(text):
        for group in groups:
            value = match.group(group)
            if value and value.strip("*"):
                return True
    return False


@dataclass(frozen=True, slots=True)
class ScrubResult:
    """What :func:`~hintline.scrub.scrub_report` found.

    Attributes:
        text: the scrubbed text (the same string :func:`~hintline.scrub.scrub` returns).
        kinds: the names of the secret patterns that fired, in order of first appearance.
        count: how many secret values were replaced.
    """

    text: str
    kinds: tuple[str, ...]
    count: int

    @property
    def found(self) -> bool:
        """Whether anything was masked."""
        return self.count > 0
