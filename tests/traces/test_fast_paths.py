"""The JVM, Python and .NET parsers' fast paths read what their plain patterns read.

Each fast path (a pattern without backtracking, a check done after a cheaper match, a common
frame shape read in one match, two string compares for ``startswith``) is compared with the
plain form it replaced, on the lines of the real captured traces and on seeded mutations of
them (cut, spliced with the characters the patterns turn on).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from hintline.traces import _dotnet, _jvm, _node, _python
from hintline.traces._detect import is_dotnet_frame

FIXTURES = Path(__file__).parent / "fixtures"
PIECES = ["(", ")", " ", "\t", ".", ":", "/", '"', "at ", " in ", ":line ", "[0x1f]", " [0x0001c]", "<a1>",
          "File \"", ", line ", ", in ", "Caused by: ", "java.lang.", "Exception", "Error", "0", "12", "²",
          "\u0663", "\xa0", "\u2003", "\x00", "    ", "$", "`1[T]", ") ", " in )", " in  ", ""]

# the plain patterns the fast ones replaced
JVM_FRAME = re.compile(r"\s*at ([^\s(]+)\(([^()\n]*)\)")
JVM_HEADER = re.compile(
    r"(?:Exception in thread \"([^\"\n]*)\" )?"
    r"((?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*|[A-Z][\w$]*(?:Exception|Error|Throwable))"
    r"(?:: ?(.*))?$"
)
PY_FRAME = re.compile(r'\s*File "([^"]*)", line (\d+)(?:, in (.+))?$')
PY_EXC = re.compile(r"([A-Za-z_][\w.]*)(?:: ?(.*))?$")


def _samples(count: int = 4000, folder: str = "") -> list[str]:
    real = [line for path in sorted(FIXTURES.rglob(f"{folder}*.txt")) for line in path.read_text().split("\n")]
    rnd = random.Random(20261130)
    out = list(real)
    for _ in range(count):
        s = rnd.choice(real)
        for _ in range(rnd.randrange(1, 4)):
            p = rnd.randrange(len(s) + 1)
            q = min(len(s), p + rnd.randrange(0, 6))
            s = s[:p] + rnd.choice(PIECES) + s[q:]
        out.append(s)
    return out


def _groups(m: re.Match[str] | None) -> tuple[tuple[int, int], tuple[str | None, ...]] | None:
    return None if m is None else (m.span(), m.groups())


def test_patterns_without_backtracking_match_the_same() -> None:
    for s in _samples():
        for text in (s, s.strip()):
            assert _groups(_jvm._HEADER.match(text)) == _groups(JVM_HEADER.match(text)), text
            assert _groups(_python._FRAME.match(text)) == _groups(PY_FRAME.match(text)), text
            assert _groups(_python._EXC.match(text)) == _groups(PY_EXC.match(text)), text
            fast = _jvm._FRAME.match(text)
            read = None if fast is None or _jvm._has_space(fast[1]) else _groups(fast)
            assert read == _groups(JVM_FRAME.match(text)), text


def test_two_compares_are_startswith() -> None:
    for s in [*_samples(1000), "", " ", "   ", "    ", "   !", "   \t", "    x", "\t    "]:
        assert ("    " <= s < "   !") == s.startswith("    "), s


def test_common_dotnet_frame_is_read_as_dotnet_frame_reads_it() -> None:
    seen = 0
    for s in _samples(20000, "dotnet/"):
        s = s.strip()
        if not s.startswith("at "):
            s = "at " + s
        plain = _dotnet.dotnet_frame(s[3:]) if is_dotnet_frame(s) or " in " in s or s.endswith(")") else None
        if _dotnet._COMMON.fullmatch(s):
            seen += 1
        assert _dotnet._at_frame(s) == plain, s
    assert seen > 100  # the common shape was exercised


NODE_AS = re.compile(r" \[as [^\]]*\]$")  # what _node._drop_alias replaced (quadratic on `` [as `` runs)


def test_node_alias_is_dropped_as_the_pattern_dropped_it() -> None:
    pieces = [" [as ", "]", "[", " ", "a", "as", " [as x]", "\n"]
    rnd = random.Random(20261202)
    samples = list(_samples(2000, "node/"))
    for _ in range(20000):
        samples.append("".join(rnd.choice(pieces) for _ in range(rnd.randrange(1, 9))))
    seen = 0
    for s in samples:
        for func in (s, s + "]", s.replace("\n", "") + "]"):
            if func.endswith("]") and " [as " in func:
                if "\n" in func:
                    continue  # (a name read from a line holds no newline)
                expected = NODE_AS.sub("", func)
                seen += expected != func
                assert _node._drop_alias(func) == expected, func
    assert seen > 1000
