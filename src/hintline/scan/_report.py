"""Writing a scan's groups: JSON lines, Parquet (the ``scan`` extra) and a self-contained HTML page.

Every text in a report was scrubbed when the groups were built (hints by ``clean``, examples and
paths by ``scrub``); the HTML page also escapes it and carries no script.
"""

from __future__ import annotations

import html
import json
import os
from datetime import UTC, datetime
from pathlib import Path

from hintline.exceptions import MissingExtraError
from hintline.scan._groups import Tally

__all__ = ["write_html", "write_jsonl", "write_parquet"]


def write_jsonl(tally: Tally, path: str | os.PathLike[str]) -> int:
    """One JSON object per group, most frequent first; return the number of groups."""
    rows = tally.rows()
    with Path(path).open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row.to_dict(), ensure_ascii=False) + "\n")
    return len(rows)


def write_parquet(tally: Tally, path: str | os.PathLike[str]) -> int:
    """The groups as a Parquet table; return the number of groups."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise MissingExtraError("scan", "pyarrow") from exc
    rows = [r.to_dict() for r in tally.rows()]
    schema = pa.schema(
        [
            ("fingerprint", pa.string()), ("count", pa.int64()), ("first_seen", pa.string()),
            ("last_seen", pa.string()), ("category", pa.string()), ("kind", pa.string()),
            ("rule", pa.string()), ("key", pa.string()), ("hint", pa.string()),
            ("exception_type", pa.string()), ("example", pa.string()), ("example_source", pa.string()),
        ]
    )
    table = pa.Table.from_pylist(rows, schema=schema)
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
details summary{cursor:pointer}.n{text-align:right}
"""


def write_html(tally: Tally, path: str | os.PathLike[str], *, title: str = "hintline scan") -> int:
    """A self-contained HTML report: top categories, a chart over time, the groups."""
    e = html.escape
    rows = tally.rows()
    made = datetime.now(UTC).isoformat(timespec="seconds")
    cats = "".join(f"<tr><td>{e(c)}</td><td class=n>{n}</td></tr>" for c, n in tally.categories()[:10])
    groups = []
    for r in rows:
        groups.append(
            "<tr>"
            f"<td class=n>{r.count}</td><td>{e(r.first_seen or '—')}<br>{e(r.last_seen or '—')}</td>"
            f"<td>{e(r.category)}</td><td><code>{e(r.hint)}</code>"
            f"<details><summary>example ({e(r.example_source)})</summary><pre>{e(r.example)}</pre></details></td>"
            f"<td><code>{e(r.fingerprint)}</code></td></tr>"
        )
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>{e(title)}</title><style>{_STYLE}</style></head><body>
<h1>{e(title)}</h1>
<p>{tally.entries} error entries in {len(rows)} groups, {tally.bytes / 1e6:.1f} MB read. Made {e(made)}.</p>
<h2>Errors over time</h2>{_chart(tally.hours)}
<h2>Top categories</h2><table><tr><th>category</th><th>entries</th></tr>{cats}</table>
<h2>Groups</h2>
<table><tr><th>count</th><th>first / last seen</th><th>category</th><th>hint</th><th>fingerprint</th></tr>
{"".join(groups)}</table>
</body></html>
"""
    Path(path).write_text(page, encoding="utf-8")
    return len(rows)
