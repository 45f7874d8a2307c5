"""Writing a scan's groups: JSON lines, Parquet (the ``scan`` extra) and a self-contained HTML page.

Every text in a report was scrubbed when the groups were built (hints by ``clean``, examples and
paths by ``scrub``); the HTML page also escapes it and carries no script.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from hintline.exceptions import MissingExtraError
from hintline.scan._groups import GroupRow, Tally

__all__ = ["write_html", "write_jsonl", "write_parquet"]


def write_jsonl(tally: Tally, path: str | os.PathLike[str]) -> int:
    """One JSON object per group, most frequent first; return the number of groups."""
    rows = tally.rows()
    with Path(path).open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row.to_dict(), ensure_ascii=False) + "\n")
    return len(rows)


def _ts_array(values: list[object]) -> object:
    from datetime import datetime

    import pyarrow as pa

    return pa.array(
        [datetime.fromisoformat(v) if isinstance(v, str) else None for v in values],
        type=pa.timestamp("us", tz="UTC"),
    )


def write_parquet(tally: Tally, path: str | os.PathLike[str]) -> int:
    """The groups as a Parquet table (times as UTC timestamps); return the number of groups."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise MissingExtraError("scan", "pyarrow") from exc
    rows = [r.to_dict() for r in tally.rows()]
    schema = pa.schema(
        [
            ("fingerprint", pa.string()), ("count", pa.int64()),
            ("first_seen", pa.timestamp("us", tz="UTC")), ("last_seen", pa.timestamp("us", tz="UTC")),
            ("category", pa.string()), ("kind", pa.string()),
            ("rule", pa.string()), ("key", pa.string()), ("hint", pa.string()),
            ("exception_type", pa.string()), ("outer_type", pa.string()), ("logger", pa.string()),
            ("key_template", pa.string()), ("key_examples", pa.list_(pa.string())),
            ("distinct_keys", pa.int64()), ("distinct_keys_exact", pa.bool_()),
            ("example", pa.string()), ("example_source", pa.string()),
        ]
    )
    columns = {name: [r[name] for r in rows] for name in schema.names}
    arrays = [
        _ts_array(columns[f.name]) if pa.types.is_timestamp(f.type) else pa.array(columns[f.name], type=f.type)
        for f in schema
    ]
    table = pa.Table.from_arrays(arrays, schema=schema)
    pq.write_table(table, str(path))
    return len(rows)


def _chart(hours: dict[str, int], width: int = 900, height: int = 180) -> str:
    """An inline SVG bar chart of errors per hour (no script, no external asset)."""
    if not hours:
        return "<p>No dated entries.</p>"
    keys = sorted(hours)
    peak = max(hours.values())
    bar = max(1.0, (width - 60) / len(keys))
    parts = [
        (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 40}" '
        f'role="img" aria-label="Errors per hour">')
    ]
    for i, key in enumerate(keys):
        h = hours[key] / peak * height
        x = 50 + i * bar
        parts.append(
            f'<rect x="{x:.1f}" y="{height - h + 10:.1f}" width="{max(bar - 1, 0.5):.1f}" '
            f'height="{h:.1f}" fill="#b3261e"><title>{html.escape(key)}:00 — {hours[key]}</title></rect>'
        )
    parts.append(f'<text x="0" y="20" font-size="12">{peak}</text>')
    parts.append(f'<text x="50" y="{height + 30}" font-size="12">{html.escape(keys[0])}:00</text>')
    parts.append(
        f'<text x="{width - 10}" y="{height + 30}" font-size="12" text-anchor="end">'
        f"{html.escape(keys[-1])}:00</text>"
    )
    parts.append("</svg>")
    return "".join(parts)


_STYLE = """
body{font:14px/1.45 system-ui,"DejaVu Sans",sans-serif;margin:1.5rem;color:#1d2228}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #d9dee3;padding:.3rem .5rem;
text-align:left;vertical-align:top}code,pre{font-family:ui-monospace,"DejaVu Sans Mono",monospace}
pre{white-space:pre-wrap;max-height:12rem;overflow:auto;margin:0;font-size:12px}
details summary{cursor:pointer}.n{text-align:right}h3{margin:.8rem 0 .3rem}
"""
TOP_GROUPS = 200
"""Groups shown in full in the HTML report; the rest are summarised (counts per category)."""


def _row(r: GroupRow, e: Callable[[str], str]) -> str:
    keys = ""
    if r.key_template:
        n = r.key_distinct.count()
        many = f"{n}" if r.key_distinct.exact else f"≈{n}"
        examples = ", ".join(f"<code>{e(k)}</code>" for k in r.key_examples)
        keys = f"<br>key <code>{e(r.key_template)}</code> ({many} distinct: {examples})"
    kind = e(r.exception_type or "—")
    if r.outer_type:
        kind = f"{e(r.outer_type)}<br>root cause {kind}"
    return (
        "<tr>"
        f"<td class=n>{r.count}</td><td>{e(r.first_seen or '—')}<br>{e(r.last_seen or '—')}</td>"
        f"<td>{kind}</td><td>{e(r.logger or '—')}</td><td>{e(r.category)}</td>"
        f"<td><code>{e(r.hint)}</code>{keys}"
        f"<details><summary>example ({e(r.example_source)})</summary><pre>{e(r.example)}</pre></details></td>"
        f"<td><code>{e(r.fingerprint)}</code></td></tr>"
    )


_HEAD = (
    "<tr><th>count</th><th>first / last seen (UTC)</th><th>exception</th><th>logger</th>"
    "<th>category</th><th>hint</th><th>fingerprint</th></tr>"
)


def write_html(
    tally: Tally, path: str | os.PathLike[str], *, title: str = "hintline scan", top: int = TOP_GROUPS
) -> int:
    """A self-contained HTML report (no script): a chart over time, the top categories, the
    ``top`` most frequent groups, the same groups newest first and per category (``<details>``
    sections: sorting and filtering without a script), and the rest summarised."""
    e = html.escape
    rows = tally.rows()
    shown = rows[:top]
    rest = rows[top:]
    made = datetime.now(timezone.utc).isoformat(timespec="seconds")
    cats = "".join(f"<tr><td>{e(c)}</td><td class=n>{n}</td></tr>" for c, n in tally.categories()[:10])
    by_count = "".join(_row(r, e) for r in shown)
    newest = sorted(shown, key=lambda r: r.last_seen or "", reverse=True)
    by_time = "".join(
        f"<tr><td>{e(r.last_seen or '—')}</td><td class=n>{r.count}</td><td>{e(r.exception_type or r.logger or '—')}</td>"
        f"<td><code>{e(r.hint)}</code></td><td><code>{e(r.fingerprint)}</code></td></tr>"
        for r in newest
    )
    per_cat: dict[str, list[GroupRow]] = {}
    for r in shown:
        per_cat.setdefault(r.category, []).append(r)
    cat_sections = "".join(
        f"<details><summary>{e(c)} — {len(rs)} groups, {sum(r.count for r in rs)} entries</summary>"
        f"<table>{_HEAD}{''.join(_row(r, e) for r in rs)}</table></details>"
        for c, rs in sorted(per_cat.items(), key=lambda kv: -sum(r.count for r in kv[1]))
    )
    summary = ""
    if rest:
        rest_cats: dict[str, tuple[int, int]] = {}
        for r in rest:
            g, n = rest_cats.get(r.category, (0, 0))
            rest_cats[r.category] = (g + 1, n + r.count)
        lines = "".join(
            f"<tr><td>{e(c)}</td><td class=n>{g}</td><td class=n>{n}</td></tr>"
            for c, (g, n) in sorted(rest_cats.items(), key=lambda kv: -kv[1][1])
        )
        summary = (
            f"<h2>The other {len(rest)} groups</h2><p>{sum(r.count for r in rest)} entries in groups "
            f"smaller than the top {top} (all of them are in the JSONL or Parquet output).</p>"
            f"<table><tr><th>category</th><th>groups</th><th>entries</th></tr>{lines}</table>"
        )
    skipped = ""
    if tally.skipped:
        skipped = "<h2>Skipped input</h2><ul>" + "".join(f"<li>{e(s)}</li>" for s in tally.skipped) + "</ul>"
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>{e(title)}</title><style>{_STYLE}</style></head><body>
<h1>{e(title)}</h1>
<p>{tally.entries} error entries in {len(rows)} groups, {tally.bytes / 1e6:.1f} MB read. Made {e(made)}.</p>
{skipped}
<h2>Errors over time</h2>{_chart(tally.hours)}
<h2>Top categories</h2><table><tr><th>category</th><th>entries</th></tr>{cats}</table>
<h2>Groups, most frequent first</h2>
<table>{_HEAD}
{by_count}</table>
<h2>Other views</h2>
<details><summary>the same groups, newest first</summary><table><tr><th>last seen (UTC)</th><th>count</th>
<th>exception / logger</th><th>hint</th><th>fingerprint</th></tr>{by_time}</table></details>
<h3>by category</h3>{cat_sections}
{summary}
</body></html>
"""
    Path(path).write_text(page, encoding="utf-8")
    return len(rows)
