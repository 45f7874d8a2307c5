"""The fallback's scrubbed window answers as the whole scrubbed block (issue 20).

:func:`hintline.cleaner.fallback.fallback_block` picks the line of a long block first and
scrubs only a window from a few lines above it to the end; the reference is the old path,
``fallback(scrub(block))``. Held to it on every captured fixture (forced through the window,
alone and below 64 KiB of real JVM traces) and on generated blocks with multi-line secrets (PEM
keys, YAML block scalars, folded and wrapped values) planted at every distance from the picked
line, each of whose values must never reach the hint. A window too small to hold a secret's
key line is shown to leak, so the property test is able to fail.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hintline.cleaner import fallback as fb
from hintline.scrub import scrub

TESTS = Path(__file__).resolve().parents[1]
FIXTURES = sorted(
    p
    for folder in ("rules/fixtures", "traces/fixtures", "cleaner/fixtures")
    for p in (TESTS / folder).rglob("*.txt")
)
_D4J = sorted((TESTS / "traces" / "fixtures" / "java").glob("*.txt"))


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8", "replace")


def _filler(size: int) -> str:
    """About ``size`` characters of real JVM traces (no secret, no chain marker, no ``Caused
    by:``, so the picked line is the one a test appends)."""
    parts: list[str] = []
    total = 0
    for path in _D4J:
        text = _read(path)
        if "-----BEGIN" in text or fb._CHAINED.search(text) or "Caused by:" in text:
            continue
        parts.append(text)
        total += len(text)
        if total >= size:
            break
    return "\n".join(parts)


FILLER = _filler(48 * 1024)


def _reference(block: str) -> fb.Hint:
    return fb.fallback(scrub(block))


def _check(block: str) -> None:
    assert fb.fallback_block(block) == _reference(block)


@pytest.fixture
def always_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every block goes through the window, however short."""
    monkeypatch.setattr(fb, "_WINDOW_MIN", 0)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: str(p.relative_to(TESTS)))
def test_fixture_through_the_window(always_window: None, path: Path) -> None:
    text = _read(path)
    _check(text)
    _check(FILLER + "\n" + text)


def test_the_window_is_taken() -> None:
    """The long fixtures do go through the window (not only the whole-block path)."""
    block = FILLER + "\njava.lang.IllegalStateException: pool exhausted\n\tat a.B.c(B.java:1)\n"
    assert fb._fallback_window(block) is not None
    _check(block)


# --- generated multi-line secrets -------------------------------------------------------------

_SECRET = "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFi"
_PLANTS = (
    # PEM private key (its trigger may sit any number of lines above)
    (
        f"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA{_SECRET}\n{_SECRET}Q2xp\n"
        "-----END RSA PRIVATE KEY-----\n"
    ),
    # a PEM whose END line is lost (a cut log)
    f"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEA{_SECRET}\n",
    # YAML block scalars, the value on the next line, even one reading like an exception line
    f"db:\n  user: app\n  password: |\n    {_SECRET}\n  host: db\n",
    f"api_key: >-  # rotated monthly\n  {_SECRET}\n",
    f"config:\n  password: |\n    ValueError: {_SECRET}\n",
    "config:\n  password: |\n    ValueError: tr0ub4dor-and-3\n",
    # a JSON value on the line after its key, a quoted value folded at a fixed width
    f'{{\n  "user": "app",\n  "password":\n    "{_SECRET}"\n}}\n',
    f"{{'user': 'app', 'password': '{_SECRET[:16]}\n    {_SECRET[16:]}', 'retries': 3}}\n",
    # a bearer token and a key=value wrapped onto the next line
    f"refresh failed, sent bearer {_SECRET[:20]}\n  {_SECRET[20:]}\n",
    f"RuntimeError: refresh failed: token={_SECRET[:20]}\n{_SECRET[20:]}0 (retrying)\n",
    f"Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.{_SECRET}\n    IiwibmFtZSI6IkpvaG4gRG9lIn0\n",
)
_LAST = (
    "java.lang.IllegalStateException: pool exhausted\n\tat a.B.c(B.java:1)\n",
    "Caused by: java.io.IOException: broken pipe\n\t... 3 more\n",
    f"ValueError: refresh failed: token={_SECRET}\n",
    "  Caused by: java.net.SocketException: reset\n",
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    plant=st.sampled_from(_PLANTS),
    last=st.sampled_from(_LAST),
    above=st.integers(min_value=0, max_value=40),
    below=st.integers(min_value=0, max_value=6),
    filler_lines=st.integers(min_value=60, max_value=900),
)
def test_planted_secret_never_leaks_and_answers_as_whole_block(
    plant: str, last: str, above: int, below: int, filler_lines: int
) -> None:
    """A multi-line secret ``above`` lines above the picked line (or right after it)."""
    lines = FILLER.split("\n")[:filler_lines]
    gap = "\tat org.example.Loop.run(Loop.java:42)\n" * above
    tail = "\tat org.example.Main.main(Main.java:7)\n" * below
    block = "\n".join(lines) + "\n" + plant + gap + last + tail
    _check(block)
    block = "\n".join(lines) + "\n" + last + plant + tail  # the secret after the picked line
    _check(block)
    for candidate in (block, "\n".join(lines) + "\n" + plant + gap + last + tail):
        text = fb.fallback_block(candidate).text
        assert _SECRET not in text
        assert _SECRET[:16] not in text
        assert _SECRET[20:] not in text
        assert "tr0ub4dor" not in text


def test_a_window_without_the_key_line_leaks(
    always_window: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check can fail: with no line of margin above the picked line, a YAML block scalar's
    value that reads like an exception line loses its key line and leaks."""
    password = "tr0ub4dor-and-3"  # masked only as the value of its key line above
    assert scrub(f"    ValueError: {password}") == f"    ValueError: {password}"
    block = FILLER + f"\nconfig:\n  password: |\n    ValueError: {password}\n"
    _check(block)
    assert password not in fb.fallback_block(block).text
    monkeypatch.setattr(fb, "_WINDOW_LINES", 0)
    assert password in fb.fallback_block(block).text
    assert fb.fallback_block(block) != _reference(block)
