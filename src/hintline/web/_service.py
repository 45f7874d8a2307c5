"""What the page shows, built from hintline's public API. Every string here is scrubbed.

The page and ``hintline logs`` / ``hintline explain`` share the readers, configurations and
trust zones: this module only calls them and turns their results into view models.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from hintline.logs import Entry, entry_fingerprint, hint_for
from hintline.scrub import cut_scrubbed, scrub

__all__ = [
    "EntryView",
    "HintResult",
    "Listing",
    "explain_entry",
    "find_entry",
    "list_entries",
    "readable_paths",
    "recent_usage",
]

_WINDOW = 500
"""How many newest entries are read to count repeats and page through."""


@dataclass(frozen=True, slots=True)
class EntryView:
    """One row of the list (all text scrubbed)."""

    key: str
    timestamp: str
    level: str
    component: str
    exception_type: str
    message: str
    hint: str
    count: int


@dataclass(frozen=True, slots=True)
class Listing:
    """A page of the list."""

    entries: tuple[EntryView, ...]
    has_next: bool
    error: str | None = None
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HintResult:
    """The answer to one hint request (all text scrubbed)."""

    entry: EntryView | None
    label: str  # anchored | guess | refused | error
    cause: str = ""
    next_step: str = ""
    frame: str = ""
    note: str = ""
    reason: str = ""
    configuration: str = ""
    model: str = ""
    zone: str = ""
    duration_ms: int | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None

    @property
    def details(self) -> str:
        """``local · tiny-random · zone local · 2563 ms · 1106+447 tokens``, as the CLI prints."""
        parts = [p for p in (self.configuration, self.model) if p]
        if self.zone:
            parts.append(f"zone {self.zone}")
        if self.duration_ms is not None:
            parts.append(f"{self.duration_ms} ms")
        if self.prompt_tokens is not None and self.completion_tokens is not None:
            parts.append(f"{self.prompt_tokens}+{self.completion_tokens} tokens")
        return " · ".join(parts)


def _s(value: object) -> str:
    return scrub("" if value is None else str(value))


def _view(entry: Entry, count: int = 1) -> EntryView:
    ts = entry.timestamp
    return EntryView(
        key=_s(entry.key),
        timestamp=_s(ts.isoformat(sep=" ", timespec="seconds") if ts is not None else "—"),
        level=_s(entry.level),
        component=_s(entry.component or ""),
        exception_type=_s(entry.exception_type or ""),
        message=cut_scrubbed(_s(entry.message), 500),  # scrubbed whole, then cut
        hint=hint_for(entry).text,
        count=count,
    )


def readable_paths(paths: Sequence[str]) -> tuple[list[str], list[str]]:
    """The logs that can be read now, and a warning for each one that cannot.

    One missing or unreadable file (a log not yet created, rotated away, without permission) must
    not empty the page: the others are served and the page says what it could not read.
    """
    from hintline.logs._reader import log_files

    good: list[str] = []
    warnings: list[str] = []
    for path in paths:
        try:
            log_files([path])
        except OSError as exc:
            reason = exc.strerror.lower() if exc.strerror and exc.filename else str(exc)
            warnings.append(_s(f"cannot read {path}: {reason.removeprefix(f'{path}: ')}"))
        else:
            good.append(path)
    return good, warnings


def list_entries(
    paths: Sequence[str], *, search: str | None, page: int, page_size: int
) -> Listing:
    """The newest error entries, ``page_size`` per page, with repeat counts."""
    from hintline import logs
    from hintline.exceptions import HintlineError

    good, warnings = readable_paths(paths)
    limit = max(_WINDOW, (page + 1) * page_size + 1)
    try:
        entries = logs.read(good, limit=limit, search=search) if good else []
    except (OSError, ValueError, HintlineError):
        entries = []
        for path in good:  # read each alone: one bad file leaves the others on the page
            try:
                entries.extend(logs.read([path], limit=limit, search=search))
            except (OSError, ValueError, HintlineError) as exc:
                warnings.append(_s(f"cannot read {path}: {str(exc).removeprefix(f'{path}: ')}"))
        entries.sort(key=_newest_first)
        entries = entries[:limit]
    error = None
    if not good:
        error = "No log can be read: " + "; ".join(warnings)
        warnings = []
    prints = [entry_fingerprint(e) for e in entries]
    counts = Counter(prints)
    start = page * page_size
    chosen = list(zip(entries, prints, strict=True))[start : start + page_size]
    return Listing(
        entries=tuple(_view(e, counts[p]) for e, p in chosen),
        has_next=len(entries) > start + page_size,
        error=error,
        warnings=tuple(warnings),
    )


def _newest_first(entry: Entry) -> float:
    ts = entry.timestamp
    return -ts.timestamp() if ts is not None else float("inf")


def find_entry(paths: Sequence[str], key: str) -> Entry | None:
    """The entry with this key (never a position) in the logs that can be read."""
    from hintline import logs
    from hintline.exceptions import HintlineError

    good, _ = readable_paths(paths)
    for path in good:
        try:
            found = logs.find([path], key)
        except (OSError, ValueError, HintlineError):
            continue
        if found is not None:
            return found
    return None


def pending_view(entry: Entry) -> EntryView:
    """The entry as the "being made" page shows it."""
    return _view(entry)


def explain_entry(
    entry: Entry,
    *,
    configuration: str | None,
    config_path: str | None,
    project_root: str | None,
) -> HintResult:
    """Ask the model about ``entry`` (blocking: the page runs this on a worker thread)."""
    from hintline.exceptions import ExplainRefused, HintlineError
    from hintline.explain import explain

    view = _view(entry)
    try:
        answer = explain(
            entry,
            configuration=configuration,
            config_path=config_path,
            project_root=project_root,
        )
    except ExplainRefused as exc:
        return HintResult(entry=view, label="refused", note=_s(exc))
    except HintlineError as exc:
        return HintResult(entry=view, label="error", note=_s(exc))
    except Exception as exc:  # a worker thread must hand back an answer, never die silently
        return HintResult(entry=view, label="error", note=_s(f"{type(exc).__name__}: {exc}"))
    where = ""
    if answer.cited is not None:
        f = answer.cited
        where = f"{f.file or '?'}:{f.line if f.line is not None else '?'} in {f.function or '?'}"
    return HintResult(
        entry=view,
        label="anchored" if answer.anchored else "guess",
        cause=_s(answer.cause),
        next_step=_s(answer.next_step),
        frame=_s(where),
        note=_s(" ".join(n for n in (answer.withheld_note, answer.usage_note) if n)),
        reason=_s(answer.reason),
        configuration=_s(answer.configuration),
        model=_s(answer.model),
        zone=_s(answer.zone),
        duration_ms=answer.duration_ms,
        prompt_tokens=answer.prompt_tokens,
        completion_tokens=answer.completion_tokens,
    )


def recent_usage(*, config_path: str | None, limit: int = 20) -> list[dict[str, str]]:
    """The recent model calls attributed to ``exception_hint``, newest first."""
    from hintline.explain import FEATURE, load_settings, open_usage_store

    store = open_usage_store(load_settings(config_path).usage)
    rows = []
    for r in store.recent(limit):
        if r.feature != FEATURE:
            continue
        tokens = "/".join("—" if t is None else str(t) for t in (r.prompt_tokens, r.completion_tokens))
        rows.append(
            {
                "time": r.at.isoformat(sep=" ", timespec="seconds"),
                "configuration": r.configuration,
                "model": r.model,
                "zone": r.zone,
                "tokens in/out": tokens,
                "ms": str(r.duration_ms),
                "outcome": r.outcome,
                "entry": r.entry_key or "",
            }
        )
    return [{k: _s(v) for k, v in row.items()} for row in rows]
