"""Golden files: ``fixtures/<lang>/<name>.txt`` (a real captured trace) beside ``<name>.json``
(its expected parse). ``meta.json`` in each folder gives the project root and language.

Re-bless (rewrite every ``.json`` from the current parser) with::

    PYTHONPATH=$PWD/src:$PWD .venv/bin/python -m tests.traces.golden --bless [LANG ...]

then READ the diff of the ``.json`` files before committing: the golden files are only worth
something when a person has checked them against the ``.txt``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from hintline.traces import parse_trace

FIXTURES = Path(__file__).parent / "fixtures"


def meta(lang_dir: Path) -> dict[str, Any]:
    """The folder's ``meta.json`` (project root, language, per-case facts)."""
    path = lang_dir / "meta.json"
    return json.loads(path.read_text()) if path.exists() else {}


def expected_language(lang_dir: Path) -> str:
    """The language a folder's traces must be detected as."""
    return str(meta(lang_dir).get("language", lang_dir.name))


def cases() -> list[Path]:
    """Every fixture ``.txt`` (sorted), the golden pairs."""
    return sorted(p for p in FIXTURES.glob("*/*.txt") if not p.name.startswith("LICENSE"))


def parse_case(txt: Path) -> dict[str, Any]:
    """Parse one fixture as the tests do: detection on, the folder's project root."""
    root = meta(txt.parent).get("project_root")
    trace = parse_trace(txt.read_text(encoding="utf-8"), project_root=root)
    out = trace.to_dict()
    rc = trace.root_cause
    out["root_cause"] = None if rc is None else {"type": rc.type, "message": rc.message}
    return out


def bless(langs: list[str]) -> None:
    """Rewrite the ``.json`` beside every fixture (of ``langs``, or all)."""
    for txt in cases():
        if langs and txt.parent.name not in langs:
            continue
        data = parse_case(txt)
        txt.with_suffix(".json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        print(f"blessed {txt.relative_to(FIXTURES)}: {len(data['exceptions'])} exceptions")


if __name__ == "__main__":
    args = sys.argv[1:]
    if not args or args[0] != "--bless":
        sys.exit("usage: python -m tests.traces.golden --bless [LANG ...]")
    bless(args[1:])
