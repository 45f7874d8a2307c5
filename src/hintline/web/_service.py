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

__all__ = ["EntryView", "HintResult", "Listing", "explain_key", "list_entries", "recent_usage"]

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


@dataclass(frozen=True, slots=True)
class HintResult:
    """The answer to one hint request (all text scrubbed)."""

    entry: EntryView | None
    label: str  # anchored | guess | refused | error
    cause: str = ""
    next_step: str = ""
    frame: str = ""
    note: str = ""


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


def list_entries(
    paths: Sequence[str], *, search: str | None, page: int, page_size: int
) -> Listing:
    """The newest error entries, ``page_size`` per page, with repeat counts."""
    from hintline import logs
    from hintline.exceptions import HintlineError

    try:
        entries = logs.read(list(paths), limit=max(_WINDOW, (page + 1) * page_size + 1), search=search)
    except (OSError, ValueError, HintlineError) as exc:
        return Listing(entries=(), has_next=False, error=_s(f"cannot read logs: {exc}"))
    prints = [entry_fingerprint(e) for e in entries]
    counts = Counter(prints)
    start = page * page_size
    chosen = list(zip(entries, prints, strict=True))[start : start + page_size]
    return Listing(
        entries=tuple(_view(e, counts[p]) for e, p in chosen),
        has_next=len(entries) > start + page_size,
    )


def explain_key(
    paths: Sequence[str],
    key: str,
    *,
    configuration: str | None,
    config_path: str | None,
    project_root: str | None,
) -> HintResult:
    """Find the entry by its key (never its position) and ask the model about it."""
    from hintline import logs
    from hintline.exceptions import ExplainRefused, HintlineError
    from hintline.explain import explain

    entry = logs.find(list(paths), key) if key else None
    if entry is None:
        return HintResult(entry=None, label="error", note="No entry has this key any more.")
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
