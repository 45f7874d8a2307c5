"""Groups of the same error, built per chunk and merged: the same recipe as ``hintline logs``.

A :class:`Tally` is JSON-safe (it is checkpointed per chunk and sent between processes), and
merging tallies is associative and commutative, so the result does not depend on how the input
was cut or on how many workers read it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

from hintline.fingerprint import first_variable, key_template
from hintline.logs import Entry, entry_fingerprint, hint_for
from hintline.scan._distinct import Distinct
from hintline.scrub import cut_scrubbed, scrub

__all__ = ["KEY_EXAMPLES", "GroupRow", "Tally", "instant", "tally_entries"]

_EXAMPLE_FIELDS = (
    "category", "kind", "rule", "key", "hint", "exception_type", "outer_type", "logger",
    "key_template", "example", "example_source", "example_order",
)
_NO_TIME = "~"  # sorts after every ISO timestamp: undated entries are never "first"
KEY_EXAMPLES = 3
"""Example keys kept per group (the smallest ones, so that any merge order keeps the same)."""


def instant(ts: datetime) -> str:
    """A time as UTC ISO text with microseconds: text order is then the order of instants.

    Files in different time zones (``+01:00`` and ``Z``) compare correctly as text, and the
    fixed width keeps ``.5`` seconds after whole ones.
    """
    return ts.astimezone(UTC).isoformat(timespec="microseconds")


@dataclass(slots=True)
class GroupRow:
    """One kind of error: a fingerprint, its count, first and last seen, one example (scrubbed).

    The hint's key varies inside a group (a path, an id): it is kept as data -- the example's
    key, its template (``banner-*.webp``), the :data:`KEY_EXAMPLES` smallest distinct keys and
    the number of distinct keys (exact up to 64, then estimated), never the keys themselves.
    """

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
    outer_type: str | None = None
    logger: str | None = None
    key_template: str | None = None
    key_examples: list[str] = field(default_factory=list)
    key_distinct: Distinct = field(default_factory=Distinct)

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
            "outer_type": self.outer_type,
            "logger": self.logger,
            "key_template": self.key_template,
            "key_examples": list(self.key_examples),
            "distinct_keys": self.key_distinct.count(),
            "distinct_keys_exact": self.key_distinct.exact,
            "example": self.example,
            "example_source": self.example_source,
        }

    def state(self) -> dict[str, Any]:
        """Every field, JSON-safe (checkpoints, process boundaries)."""
        data = {name: getattr(self, name) for name in self.__dataclass_fields__}
        data["key_examples"] = list(self.key_examples)
        data["key_distinct"] = self.key_distinct.to_json()
        return data

    @classmethod
    def from_state(cls, data: dict[str, Any]) -> GroupRow:
        """Rebuild from :meth:`state`."""
        fields = dict(data)
        fields["key_distinct"] = Distinct.from_json(fields.get("key_distinct"))
        fields["key_examples"] = list(fields.get("key_examples") or [])
        return cls(**fields)

    def copy(self) -> GroupRow:
        """An independent copy."""
        return GroupRow.from_state(self.state())

    def add_key(self, key: str | None) -> None:
        """Count one occurrence's key (bounded: a sketch and a few examples)."""
        if not key:
            return
        self.key_distinct.add(key)
        if key in self.key_examples:
            return
        if len(self.key_examples) < KEY_EXAMPLES or key < self.key_examples[-1]:
            self.key_examples = sorted([*self.key_examples, key])[:KEY_EXAMPLES]

    def absorb(self, other: GroupRow) -> None:
        """Merge another partial row of the same fingerprint into this one."""
        self.count += other.count
        self.key_distinct.merge(other.key_distinct)
        for key in other.key_examples:
            if key not in self.key_examples:
                self.key_examples = sorted([*self.key_examples, key])[:KEY_EXAMPLES]
        if other.first_seen is not None and (self.first_seen is None or other.first_seen < self.first_seen):
            self.first_seen = other.first_seen
        if other.last_seen is not None and (self.last_seen is None or other.last_seen > self.last_seen):
            self.last_seen = other.last_seen
        if other.example_order < self.example_order:  # the earliest entry speaks for the group
            for name in _EXAMPLE_FIELDS:
                setattr(self, name, getattr(other, name))


@dataclass(slots=True)
class Tally:
    """Partial results: groups by fingerprint, errors per hour, entries and bytes read.

    ``skipped`` lists the inputs that could not be read (``"path: why"``), each once.
    """

    groups: dict[str, GroupRow] = field(default_factory=dict)
    hours: dict[str, int] = field(default_factory=dict)
    entries: int = 0
    bytes: int = 0
    skipped: list[str] = field(default_factory=list)

    def merge(self, other: Tally) -> None:
        """Add ``other`` into this tally."""
        for fp, row in other.groups.items():
            mine = self.groups.get(fp)
            if mine is None:
                self.groups[fp] = row.copy()
            else:
                mine.absorb(row)
        for hour, n in other.hours.items():
            self.hours[hour] = self.hours.get(hour, 0) + n
        self.entries += other.entries
        self.bytes += other.bytes
        for why in other.skipped:
            if why not in self.skipped:
                self.skipped.append(why)

    def to_json(self) -> dict[str, object]:
        """A JSON-safe form (checkpoints, process boundaries)."""
        return {
            "groups": {fp: r.state() for fp, r in self.groups.items()},
            "hours": self.hours,
            "entries": self.entries,
            "bytes": self.bytes,
            "skipped": list(self.skipped),
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Tally:
        """Rebuild from :meth:`to_json`."""
        groups = cast("dict[str, dict[str, Any]]", data["groups"])
        hours = cast("dict[str, int]", data["hours"])
        return cls(
            groups={fp: GroupRow.from_state(row) for fp, row in groups.items()},
            hours={str(k): int(v) for k, v in hours.items()},
            entries=int(cast("int", data["entries"])),
            bytes=int(cast("int", data["bytes"])),
            skipped=[str(x) for x in cast("list[object]", data.get("skipped") or [])],
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
        key = hint.key or first_variable(entry.message)
        ts = instant(entry.timestamp) if entry.timestamp is not None else None
        tally.entries += 1
        if ts is not None:
            hour = ts[:13]
            tally.hours[hour] = tally.hours.get(hour, 0) + 1
        mine = tally.groups.get(fp)
        order = f"{ts or _NO_TIME}|{entry.key}"
        if mine is not None and order >= mine.example_order:  # not the group's example
            mine.count += 1
            mine.add_key(key)
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
            outer_type=_outer(entry, scrub_once),
            logger=scrub_once(entry.component) if entry.component else None,
            key_template=scrub_once(key_template(key)) if key else None,
        )
        row.add_key(key)
        if mine is None:
            tally.groups[fp] = row
        else:
            mine.absorb(row)
    for row in tally.groups.values():
        row.example = cut_scrubbed(scrub(row.example), _EXAMPLE, "")
        row.key_examples = [scrub_once(k) for k in row.key_examples]
    return tally


def _outer(entry: Entry, scrub_once: Any) -> str | None:
    """The logged (outermost) class of a chained exception, when it differs from the root cause."""
    outer = entry.trace.outermost
    if outer is None or not outer.type or outer.type == entry.exception_type:
        return None
    return str(scrub_once(outer.type))
