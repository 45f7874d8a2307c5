"""The match API of :mod:`hintline._linear` (``search``/``finditer`` giving spans and groups in
characters, with ``pos``/``endpos``) and the key search of :mod:`hintline.cleaner.signals` that
runs on it (issue 14, section 1): the same matches as Python's ``re``, and the same keys as the
key search gave when it ran Python's ``re`` over the whole text."""

from __future__ import annotations

import re

import pytest

from hintline import _linear
from hintline._linear import LinearPattern, python_form
from hintline.categories import Category
from hintline.cleaner import signals
from hintline.rules import RULES
from tests.linear.shapes import pattern_shapes

pytest.importorskip("re2")

_SHAPES = sorted({s.pattern for family in signals.KEY_SHAPES.values() for s in family})
_SWAPS = (("e", "é"), ("a", "\u0430"), ("1", "\u0661"), (" ", "\u00a0"), ("o", "\ud800"), ("/", "/é"))


def _keyed_texts() -> list[str]:
    """Texts that hold keys: every signal's and every keyed rule's examples, the key shapes' own
    generated shapes (short), and non-ASCII variants of them all (a lone surrogate included)."""
    texts = [e.input for s in signals.SIGNALS for e in s.examples]
    texts += [e.input for r in RULES if signals.family_of(r.category) for e in r.examples]
    for pattern in _SHAPES:
        texts += [s.text for s in pattern_shapes("key", pattern, 160)]
    texts += [t.replace(a, b, 3) for t in texts[:400] for a, b in _SWAPS if a in t]
    return texts


TEXTS = _keyed_texts()


def _spans(found: re.Match[str] | _linear.LinearMatch, groups: int) -> tuple[object, ...]:
    return tuple((found.span(i), found.group(i)) for i in range(groups + 1))


@pytest.mark.parametrize("pattern", _SHAPES)
def test_finditer_gives_python_matches(pattern: str) -> None:
    """Every match, span and group of every key shape, from several ``pos``/``endpos``, on RE2
    and on the ``re`` path, as Python's ``finditer`` gives them."""
    python = re.compile(python_form(pattern))
    engines = [LinearPattern(pattern, use_re2=True), LinearPattern(pattern, use_re2=False)]
    assert engines[0].engine == "re2"
    for text in TEXTS:
        n = len(text)
        for pos, endpos in ((0, n), (1, n), (n // 3, n), (0, n - 2), (n // 4, 3 * n // 4), (n, n)):
            expected = [_spans(m, python.groups) for m in python.finditer(text, pos, endpos)]
            for linear in engines:
                got = [_spans(m, python.groups) for m in linear.finditer(text, pos, endpos)]
                assert got == expected, (linear.engine, text, pos, endpos)
                first = linear.search(text, pos, endpos)
                assert (None if first is None else _spans(first, python.groups)) == (expected[0] if expected else None)


def test_match_api() -> None:
    linear = LinearPattern(r"(?P<key>[\w.~-]{0,100}/[^\s:'\"]{1,200}): (x)?")
    text = "é cat: /tmp/ä_b: No such file\n"
    found = linear.search(text)
    assert found is not None
    assert found.span() == (7, 17)
    assert found.start("key") == 7
    assert found.end(1) == 15
    assert found.group() == "/tmp/ä_b: "
    assert found.group("key") == "/tmp/ä_b"
    assert found.group(2) is None
    assert found.span(2) == (-1, -1)
    assert found.end(2) == -1
    assert found.groupdict() == {"key": "/tmp/ä_b"}
    with pytest.raises(IndexError):
        found.group("nope")
    with pytest.raises(IndexError):
        found.span(3)
    assert linear.search(text, 8) is not None
    assert linear.search(text, 0, 16) is None
    assert list(linear.finditer(text, 5, 3)) == []


def _reference_key(category: Category, text: str, start: int = 0) -> str | None:
    """The key search as it was on Python's ``re`` (whole text, no window), with ``\\b`` as an
    ASCII word boundary as every engine now reads it."""
    family = signals.family_of(category)
    if family is None or not signals.HINTS[category][0]:
        return None
    shapes = signals.KEY_SHAPES[family]

    def first(lo: int, hi: int) -> str | None:
        for shape in shapes:
            for found in re.compile(python_form(shape.pattern)).finditer(text, lo, hi):
                at = found.start()
                if text.endswith("File ", 0, at) or text.endswith('File "', 0, at):
                    continue
                line = text[text.rfind("\n", 0, at) + 1 : at].lstrip().lower()
                if line.startswith(("hint", "tipp", "astuce", "tip:", "did you mean")):
                    continue
                key = found.group("key")
                if "\\" in key and "/" not in key and not re.match(r"[A-Za-z]:\\|\\\\", key):
                    continue
                port = found.groupdict().get("port")
                if port:
                    if key.rpartition(".")[2].lower() in signals._SOURCE_FILES:
                        continue
                    key = f"{key}:{port}"
                return key
        return None

    found = first(start, len(text))
    end = start if family in signals._LOOK_ABOVE else 0
    while found is None and end > 0:
        line_start = text.rfind("\n", 0, end - 1) + 1
        found = first(line_start, end)
        end = line_start
    return found


_CATEGORIES = [
    next(c for c in Category if signals.family_of(c) == family and signals.HINTS.get(c, ("",))[0])
    for family in signals.KEY_SHAPES
]


@pytest.mark.parametrize("category", _CATEGORIES, ids=lambda c: c.name)
def test_key_search_gives_the_keys_re_gave(category: Category) -> None:
    """On every text that holds keys, from its start and from each line, the key search on RE2
    finds the key the search on Python's ``re`` over the whole text found; so does the ``re``
    path (RE2 off) on texts within its window."""
    for text in TEXTS:
        starts = {0} | {m.end() for m in re.finditer("\n", text)}
        for start in sorted(starts)[:6]:
            expected = _reference_key(category, text, start)
            assert signals._find_key(category, text, start) == expected, (text, start)
            _linear.set_re2(False)
            try:
                assert signals._find_key(category, text, start) == expected, ("re path", text, start)
            finally:
                _linear.set_re2(None)


def test_key_window_bounds_the_re_path() -> None:
    """Without RE2 a key shape sees :data:`~hintline.cleaner.signals.KEY_WINDOW` characters
    below and above the failure's line (its backtracking is what the window bounds); RE2 sees
    the whole text."""
    far = "x" * (signals.KEY_WINDOW + 10)
    below = f"ENOENT: no such file\n{far}\ncat: /srv/data.csv: No such file or directory\n"
    above = f'relation "orders" does not exist\n{far}\nERROR: 42P01\n'
    at = above.index("ERROR")
    assert signals._find_key(Category.FILE_NOT_FOUND, below) == "/srv/data.csv"
    assert signals._find_key(Category.UNDEFINED_TABLE, above, at) == "orders"
    _linear.set_re2(False)
    try:
        assert signals._find_key(Category.FILE_NOT_FOUND, below) is None
        assert signals._find_key(Category.UNDEFINED_TABLE, above, at) is None
        assert signals._find_key(Category.FILE_NOT_FOUND, below[-60:]) == "/srv/data.csv"
    finally:
        _linear.set_re2(None)


def test_many_matches_on_one_line_are_placed_once() -> None:
    """A long line of skipped matches (stack frames' files) finds the key after them: each match
    is placed on its line without rescanning the line (the search stays linear)."""
    text = 'File "/a/b.py": ' * 4000 + "cat: /srv/x.csv: No such file\n"
    assert signals._find_key(Category.FILE_NOT_FOUND, text) == "/srv/x.csv"
    assert signals._find_key(Category.FILE_NOT_FOUND, "HINT: " + text) is None


@pytest.mark.parametrize("pattern", _SHAPES)
def test_every_key_shape_runs_on_re2(pattern: str) -> None:
    """No key shape needs the bounded ``re`` window where RE2 is installed: each translates
    (a new shape that does not gets the window, and fails here until it is rewritten)."""
    assert _linear.why_not(pattern) == ""
    assert signals._shape_pattern(pattern).engine == "re2"


def test_look_above_shapes_stay_on_their_line() -> None:
    """The lines above a failure are searched a chunk of lines at a time: right only because no
    key shape of a family that looks above can match across a newline."""
    from hintline.cleaner._patterns import may_span_lines

    for family in signals._LOOK_ABOVE:
        for shape in signals.KEY_SHAPES[family]:
            assert not may_span_lines(shape.pattern), shape.pattern


def test_look_above_takes_the_nearest_line() -> None:
    """Above the failure, the nearest line with a key wins, whatever the chunk it is in; on that
    line the first shape in order; empty lines by the thousand cost a search per chunk."""
    failure = "psql: error: connection to server failed: Connection refused\n"
    far = "could not connect to db.internal:5432\n"
    near = "host='10.0.0.7', port=6432 and cache.local:6379\n"
    for gap in (0, 1, 5, signals.ABOVE_CHUNK, 3 * signals.ABOVE_CHUNK + 7):
        text = far + near + "\n" * gap + failure
        assert signals._find_key(Category.CONNECTION_REFUSED, text, len(text) - len(failure)) == "10.0.0.7:6432"
        assert _reference_key(Category.CONNECTION_REFUSED, text, len(text) - len(failure)) == "10.0.0.7:6432"
    text = far + "x\n" * 30000 + failure
    assert signals._find_key(Category.CONNECTION_REFUSED, text, len(text) - len(failure)) == "db.internal:5432"
