"""normalise()'s fast paths answer exactly as the slow ones (differential tests).

* The prefix cut and the dedent run as whole-text regex passes; the oracle is their former
  line-by-line form (``_reference_normalise``).
* Plain text (nothing to normalise) is returned as the same object by a few character checks;
  the oracle is the full path, ``_normalise(text, 0)``, which must give back an equal text.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hintline.cleaner import normalise as norm
from tests.cleaner import _reference_normalise as ref

# Line prefixes of every kind normalise cuts, and near misses of them.
_PREFIX_PIECES = [
    "2026-12-01T10:00:03.404Z ",
    "2026-12-01T10:00:03.404Z stdout F ",
    "2026-12-01T10:00:03.404Z stderr P ",
    "[2026-12-01 10:00:03] ",
    "2026-12-01 10:00:03,404: ",
    "2026-12-01 10:00:03\t",
    "<13>1 2026-12-01T10:00:03Z web01 app[42]: ",
    "<13>2026-12-01T10:00:03Z web01 app: ",
    "Dec  1 10:00:03 web01 sshd[812]: ",
    "Dec  1 10:00:03 web01 kernel: ",
    "2026-12-01T10:00:03Z web01 app[42]: ",
    "2026-12-01T10:00:03Z web01 kernel: ",
    "2026-12-01T10:00:03Z web02 kernel: ",
    "2026-12-01T10:00:03Z web01 ERROR: ",
    "web-1  | ",
    "web-1 |",
    "E   ",
    "E",
    "    ",
    "  ",
    "\t",
    "",
    "2026-12-01 ",
    "Dec 1 ",
    "| ",
    "\u0662\u0660\u0662\u0666-12-01 10:00:03 ",  # Arabic-Indic digits are \\d too
    "[2026-12-01 10:00:03 ",
    "Jan 1 10:00:03 h p: ",
]
_BODIES = [
    "Traceback (most recent call last):",
    '  File "app.py", line 3, in <module>',
    "psycopg.errors.UniqueViolation: duplicate key value violates unique constraint",
    "INFO app: started",
    "ERROR app: failed",
    "E",
    "Error: boom",
    "a | b",
    "",
    " ",
    "\x0c",
    "\x0b ",
    "\xa0",
    "\u2028x",
    "\x1c",
    "   indented",
    "\u0662 x",
    "[x",
    "<b>",
    "Jx",
    "web-2  | up",
]

_lines = st.tuples(st.sampled_from(_PREFIX_PIECES), st.sampled_from(_BODIES)).map("".join)
_texts = st.lists(_lines, min_size=1, max_size=8).map("\n".join)
_mixed = st.one_of(
    _texts,
    _texts.map(lambda t: t + "\n"),
    _texts.map(lambda t: "\n" + t),
    st.text(alphabet=st.sampled_from(list("E 2026-12-01T:0Z|\n\t\x0cwebk[]<>1.a")), max_size=80),
)


@settings(max_examples=3000, deadline=None)
@given(_mixed)
def test_prefix_cut_is_the_line_by_line_cut(text: str) -> None:
    assert norm._cut_prefixes(text) == ref.cut_prefixes(text)


@settings(max_examples=1500, deadline=None)
@given(_mixed)
def test_dedent_is_the_line_by_line_dedent(text: str) -> None:
    assert norm._dedent(text) == ref.dedent(text)


def test_prefix_cut_on_every_shape() -> None:
    """Each prefix on every line is cut, a prefix missing on one line (the 2nd, the last) is
    not, whitespace-only lines become empty."""
    body = ["Traceback (most recent call last):", '  File "a.py", line 1', "ValueError: x"]
    for piece in _PREFIX_PIECES:
        every = "\n".join(piece + line for line in body)
        assert norm._cut_prefixes(every) == ref.cut_prefixes(every), piece
        for missing in range(len(body)):
            some = "\n".join(line if n == missing else piece + line for n, line in enumerate(body))
            assert norm._cut_prefixes(some) == ref.cut_prefixes(some), (piece, missing)
        blanks = "\n".join([piece + body[0], " \t", "", piece + body[2], "\x0c"])
        assert norm._cut_prefixes(blanks) == ref.cut_prefixes(blanks), piece
