"""The line-by-line forms of normalise's prefix cut and dedent, as they were before the
whole-text regex passes replaced them (commit ead747f): the oracle of the differential tests
in ``test_normalise_fast.py``. Not used by hintline."""

from __future__ import annotations

from hintline.cleaner.normalise import _GATE, _PREFIXES, _may_be_prefixed

_TAG = "tag"


def cut_prefixes(text: str, rounds: int = 2) -> str:
    lines = text.split("\n")
    first = next((line for line in lines if line.strip()), "")
    for prefix in _PREFIXES:
        if prefix.match(first) is None:
            continue
        cut = []
        tags = set()
        for line in lines:
            if not line.strip():
                cut.append("")
                continue
            found = prefix.match(line)
            if found is None:
                break
            if _TAG in prefix.groupindex:
                tags.add(found[_TAG])
                if len(tags) > 1:
                    break
            cut.append(line[found.end() :])
        else:
            if tags and sum(1 for line in cut if line) < 2:
                continue
            if prefix.pattern.startswith("E"):
                return dedent("\n".join(cut))
            cut_text = "\n".join(cut)
            if rounds > 1 and _may_be_prefixed(cut_text) and _GATE.match(cut_text):
                return cut_prefixes(cut_text, rounds - 1)
            return cut_text
    return dedent(text)


def dedent(text: str) -> str:
    lines = text.split("\n")
    indent = None
    for line in lines:
        stripped = line.lstrip(" \t")
        if stripped:
            size = len(line) - len(stripped)
            if size == 0:
                return text
            if indent is None or size < indent:
                indent = size
    if not indent:
        return text
    return "\n".join(line[indent:] for line in lines)
