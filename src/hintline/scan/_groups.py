"""Groups of the same error, built per chunk and merged: the same recipe as ``hintline logs``.

A :class:`Tally` is JSON-safe (it is checkpointed per chunk and sent between processes), and
merging tallies is associative and commutative, so the result does not depend on how the input
was cut or on how many workers read it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, replace
from typing import Any, cast

from hintline.logs import Entry, entry_fingerprint, hint_for
from hintline.scrub import cut_scrubbed, scrub

__all__ = ["GroupRow", "Tally", "tally_entries"]

_EXAMPLE_FIELDS = (
    "category", "kind", "rule", "key", "hint", "exception_type", "example", "example_source",
    "example_order",
)
_NO_TIME = "~"  # sorts after every ISO timestamp: undated entries are never "first"


@dataclass(slots=True)
class GroupRow:
    """One group: a fingerprint, its count, first and last seen, and one example (scrubbed)."""

    fingerprint: str
    count: int
    first_seen: str | None
    last_seen: str | None
    category: str
    kind: str
    rule: str | None
    key: str | None
    hint: str
    exception_type: str | None
    example: str
    example_source: str
    example_order: str

    def to_dict(self) -> dict[str, object]:
        """JSON-ready fields (without the internal ordering key)."""
        return {
            "fingerprint": self.fingerprint,
            "count": self.count,
            "first_seen": self.first_seen,
            "last_seen": self.last_seen,
            "category": self.category,
            "kind": self.kind,
            "rule": self.rule,
            "key": self.key,
            "hint": self.hint,
            "exception_type": self.exception_type,
            "example": self.example,
            "example_source": self.example_source,
        }

    def absorb(self, other: GroupRow) -> None:
        """Merge another partial row of the same fingerprint into this one."""
        self.count += other.count
        if other.first_seen is not None and (self.first_seen is None or other.first_seen < self.first_seen):
            self.first_seen = other.first_seen
        if other.last_seen is not None and (self.last_seen is None or other.last_seen > self.last_seen):
            self.last_seen = other.last_seen
        if other.example_order < self.example_order:  # the earliest entry speaks for the group
            for name in _EXAMPLE_FIELDS:
                setattr(self, name, getattr(other, name))


@dataclass(slots=True)
class Tally:
    """Partial results: groups by fingerprint, errors per hour, entries and bytes read."""

    groups: dict[str, GroupRow] = field(default_factory=dict)
    hours: dict[str, int] = field(default_factory=dict)
    entries: int = 0
    bytes: int = 0

    def merge(self, other: Tally) -> None:
        """Add ``other`` into this tally."""
        for fp, row in other.groups.items():
            mine = self.groups.get(fp)
            if mine is None:
                self.groups[fp] = replace(row)
            else:
                mine.absorb(row)
        for hour, n in other.hours.items():
            self.hours[hour] = self.hours.get(hour, 0) + n
        self.entries += other.entries
        self.bytes += other.bytes

    def to_json(self) -> dict[str, object]:
        """A JSON-safe form (checkpoints, process boundaries)."""
        return {
            "groups": {fp: asdict(r) for fp, r in self.groups.items()},
            "hours": self.hours,
            "entries": self.entries,
            "bytes": self.bytes,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Tally:
        """Rebuild from :meth:`to_json`."""
        groups = cast("dict[str, dict[str, Any]]", data["groups"])
        hours = cast("dict[str, int]", data["hours"])
        return cls(
            groups={fp: GroupRow(**row) for fp, row in groups.items()},
            hours={str(k): int(v) for k, v in hours.items()},
            entries=int(cast("int", data["entries"])),
            bytes=int(cast("int", data["bytes"])),
        )

    def rows(self) -> list[GroupRow]:
        """Groups, most frequent first (ties: newest last seen first, then fingerprint)."""
        return sorted(
            self.groups.values(),
            key=lambda r: (-r.count, _neg(r.last_seen or ""), r.fingerprint),
        )

    def categories(self) -> list[tuple[str, int]]:
        """Entries per category, most first."""
        counts: dict[str, int] = {}
        for row in self.groups.values():
            counts[row.category] = counts.get(row.category, 0) + row.count
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def _neg(text: str) -> tuple[int, ...]:
    return tuple(-ord(c) for c in text)


_EXAMPLE = 4000
"""A group's example keeps this many characters of the entry (scrubbed first)."""
_EXAMPLE_MARGIN = 4096
"""Read past the cut, so that a secret (a DSN, a PEM block) starting before it is seen whole."""


def tally_entries(entries: Iterable[Entry]) -> Tally:
    """Clean, fingerprint and count entries.

    Examples are scrubbed once per group at the end (not once per entry), and the few distinct
    sources and exception types once each: the result is the same, the cost per entry lower.
    """
    tally = Tally()
    scrubbed: dict[str, str] = {}

    def scrub_once(text: str) -> str:
        done = scrubbed.get(text)
        if done is None:
            done = scrubbed[text] = scrub(text)
        return done

    for entry in entries:
        hint = hint_for(entry)
        fp = entry_fingerprint(entry, hint)
        ts = entry.timestamp.isoformat() if entry.timestamp is not None else None
        tally.entries += 1
        if ts is not None:
            hour = ts[:13]
            tally.hours[hour] = tally.hours.get(hour, 0) + 1
        mine = tally.groups.get(fp)
        order = f"{ts or _NO_TIME}|{entry.key}"
        if mine is not None and order >= mine.example_order:  # not the group's example
            mine.count += 1
            if ts is not None:
                if mine.first_seen is None or ts < mine.first_seen:
                    mine.first_seen = ts
                if mine.last_seen is None or ts > mine.last_seen:
                    mine.last_seen = ts
            continue
        row = GroupRow(
            fingerprint=fp,
            count=1,
            first_seen=ts,
            last_seen=ts,
            category=str(hint.category),
            kind=str(hint.kind),
            rule=hint.rule,
            key=hint.key,
            hint=hint.text,
            exception_type=scrub_once(entry.exception_type) if entry.exception_type else None,
            # scrubbed whole below (once the group's example is known), then cut to _EXAMPLE:
            # the margin lets a secret that starts before the cut be recognised whole
            example=entry.raw[: _EXAMPLE + _EXAMPLE_MARGIN],
            example_source=scrub_once(entry.source),
            example_order=order,
        )
        if mine is None:
            tally.groups[fp] = row
        else:
            mine.absorb(row)
    for row in tally.groups.values():
        row.example = cut_scrubbed(scrub(row.example), _EXAMPLE, "")
    return tally
