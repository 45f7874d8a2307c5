"""Every ``re`` call of the log readers and of clean()'s normalise/locate/bound stages is listed
in docs/log-patterns.md with the bound that keeps it linear (issue 14)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "hintline"
DOC = ROOT / "docs" / "log-patterns.md"
MODULES = [
    *sorted((SRC / "logs").rglob("*.py")),
    *(SRC / "cleaner" / name for name in (
        "normalise.py", "locate.py", "_json.py", "_html.py", "bound.py", "_failures.py",
    )),
]  # fmt: skip
_RE_CALLS = {"compile", "match", "search", "sub", "subn", "split", "finditer", "findall", "fullmatch"}
BOUNDS = ("line ≤ ", "window ≤ ", "anchored", "literal", "own run", "trusted")


def _sites(path: Path) -> set[str]:
    """``name`` per ``re.<call>`` of a module: the name it is assigned to, or ``function()``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = set()
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
            and node.func.attr in _RE_CALLS
        ):
            continue
        name = None
        at: ast.AST = node
        while at in parents:
            at = parents[at]
            if isinstance(at, ast.FunctionDef):
                name = f"{at.name}()"
                break
            if isinstance(at, (ast.Assign, ast.AnnAssign)) and name is None:
                target = at.targets[0] if isinstance(at, ast.Assign) else at.target
                name = target.id if isinstance(target, ast.Name) else ast.unparse(target)
        found.add(name or "<module>")
    return found


def _table() -> dict[tuple[str, str], str]:
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if len(cells) == 5 and cells[0].endswith(".py"):
            rows[(cells[0], cells[1])] = cells[3]
    return rows


def test_every_pattern_is_listed_with_its_bound() -> None:
    """The table and the code name the same patterns, and each row names a known bound."""
    table = _table()
    in_code = {
        (str(path.relative_to(SRC)), name) for path in MODULES for name in _sites(path)
    }
    assert in_code - table.keys() == set(), "patterns without a row in docs/log-patterns.md"
    assert table.keys() - in_code == set(), "rows of docs/log-patterns.md for no pattern"
    for key, bound in table.items():
        assert bound.startswith(BOUNDS), (key, bound)


def test_the_inventory_finds_patterns() -> None:
    """The walk finds the patterns it must (a walk that finds nothing would pass above)."""
    assert "_header()" in _sites(SRC / "cleaner" / "locate.py")
    assert "_HEADERS" in _sites(SRC / "logs" / "_text.py")
    assert len(_table()) > 50
