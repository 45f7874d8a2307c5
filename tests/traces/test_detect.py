"""The language vote: a frame line's shape (its ASCII digits 1-9 made ``1``) votes as the line.

The vote is memoised by shape, so a frame line never seen but of a known shape (the same code
throwing from other lines) costs no signature test. That is only right if no test of the vote
tells two digits 1-9 apart; these tests check it on the real fixtures' lines with their digits
changed, and on lines made of every signature's pieces.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from hintline.traces._detect import _SHAPE_DIGITS, _vote, detect_language
from hintline.traces._memo import clear_memos

FIXTURES = Path(__file__).parent / "fixtures"
LINES = sorted(
    {line for path in FIXTURES.glob("*/*.txt") for line in path.read_text(encoding="utf-8").split("\n") if line}
)
PIECES = [
    "at ", "\t", "  ", "#0 /a.php(3): f()", "#12 {main}", "\t/app/main.go:12 +0x1d", " +2x3", " +0x", "0x",
    " [0x0001c] in ", " <0x1> ", ":line 12", "(X.java:12)", "(Native Method)", "x:1:2)", "index 3",
    "from a.rb:9:in `f'", 'File "a.py", line 3, in f', "goroutine 7 [running]:", "Node.js v20.1.0",
    "\u00b2", "\u0663", "9", "0", "1", ")", "(", " ",
]


def _shape(line: str) -> str:
    return line.encode("utf-8", "surrogatepass").translate(_SHAPE_DIGITS).decode("utf-8", "surrogatepass")


def test_real_lines_vote_as_their_shape() -> None:
    """Every line of every real trace votes as its shape, and as itself with other digits."""
    table = str.maketrans("0123456789", "1234567890")
    for line in LINES:
        assert _vote(line) == _vote(_shape(line)), line
        other = line.translate(table)  # every digit another, 0 among them
        assert _vote(other) == _vote(_shape(other)), other


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(PIECES) | st.sampled_from(LINES[:400]), min_size=1, max_size=5))
def test_made_up_lines_vote_as_their_shape(parts: list[str]) -> None:
    """Lines made of signature pieces and digits (``0x`` against ``2x``) vote as their shape."""
    line = "".join(parts)
    assert _vote(line) == _vote(_shape(line))


def test_same_language_cold_warm_and_by_shape() -> None:
    """Detection of each real trace is the same with empty memos, warm ones, and memos holding
    only its lines' shapes (its line numbers shifted)."""
    for path in sorted(FIXTURES.glob("*/*.txt")):
        if path.name.startswith("LICENSE"):
            continue
        lines = path.read_text(encoding="utf-8").split("\n")
        clear_memos()
        cold = detect_language(lines)
        assert detect_language(lines) == cold, path
        shifted = [line.replace("1", "7").replace("2", "9") for line in lines]
        clear_memos()
        fresh = detect_language(shifted)
        detect_language(lines)  # the shapes of the original lines now known
        assert detect_language(shifted) == fresh, path
