"""The fallback scrubs no more than it must, and answers as when it scrubbed everything (issue 20).

* The picked line's hint: one prefilter scan of ``Hint: `` + the line, when it finds no
  trigger, stands for the two scrubs of the long way, ``finish(PREFIX +
  keep_chain_root(scrub(line)))``; a line with a trigger goes the long way. A printable line
  skips the control-character pass (it holds none of those characters).
* A located ERROR record's message is scrubbed only when the hint names it.

The reference is the old code, copied here: the hint of a line scrubbed twice, and
``fallback(scrub(block), message=scrub(message))``. Held to it on every line of every fixture,
on generated lines (secrets, control characters, long wrapped-error chains, lone surrogates)
and on blocks with secrets planted at every position around the picked line, with and without
a located message; no planted value may reach a hint. The shortcut is shown to be taken, and a
shortcut that skipped the scrub of a line with a trigger is shown to fail the check.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hintline.categories import Category
from hintline.cleaner import fallback as fb
from hintline.cleaner.render import _CONTROL, MAX_HINT_CHARS, PREFIX, Hint, finish, make
from hintline.scrub import scrub

TESTS = Path(__file__).resolve().parents[1]
_TEXTS = sorted(
    p
    for folder in ("rules/fixtures", "traces/fixtures", "cleaner/fixtures", "scrub")
    for p in (TESTS / folder).rglob("*.txt")
)


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8", "replace")


def _old_hint(line: str | None) -> Hint:
    """The fallback hint of ``line`` as it was built before the shortcut."""
    if line:
        line = fb.keep_chain_root(scrub(_CONTROL.sub("", line)), MAX_HINT_CHARS - len(PREFIX))
    text = finish(PREFIX + (line or "Empty error message: nothing to act on."))
    return make(Category.OTHER, text, None, None)


@contextmanager
def _old_hints() -> Iterator[None]:
    with (
        mock.patch.object(fb, "_fallback_hint", _old_hint),
        mock.patch.object(fb, "_fallback_hint_uncached", _old_hint),
    ):
        yield


def _old_block(block: str, message: str | None = None, failure: bool = True) -> Hint:
    """``fallback_block`` as it was: the whole block and the message scrubbed up front."""
    with _old_hints():
        return fb.fallback(
            scrub(block), message=None if message is None else scrub(message), failure=failure
        )


def _new_block(block: str, message: str | None = None, failure: bool = True) -> Hint:
    fb._fallback_hint.cache_clear()
    return fb.fallback_block(block, message=message, failure=failure)


# --- the hint of a line ----------------------------------------------------------------------


def test_every_fixture_line() -> None:
    """Every line of every fixture (real captures, the scrubber's own examples among them)."""
    lines = {line for path in _TEXTS for line in _read(path).split("\n")}
    assert len(lines) > 5_000
    differ = [line for line in lines if fb._fallback_hint_uncached(line) != _old_hint(line)]
    assert differ == []


_SECRET = "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFi"
_JWT = (
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
)
_PIECES = [
    # secrets and what makes a trigger fire
    f"postgresql://app:{_SECRET}@db:5432/shop", "postgresql://app:***@db:5432/shop",
    f"password={_SECRET}", "password: ", f"token: {_SECRET}", f"Bearer {_JWT}", _JWT,
    "AKIAIOSFODNN7EXAMPLE", "-----BEGIN RSA PRIVATE KEY-----", f"api_key: {_SECRET}",
    "user@db.example.com:5432", "://", "@", "***", "Hint: ",
    # what the line is made of: exception types, chain links, words
    "ValueError", "java.io.IOException", ": ", "dial tcp 10.0.0.5:443", "connect", "x", " ",
    "connection reset by peer", "é", "日本",
    # what the control pass and the collapsing remove
    "\x1b[31m", "\x1b[0m", "\u200b", "\ufeff", "\x00", "\x7f", "\t", "  ", "\r", "\ud800",
]  # fmt: skip


@settings(max_examples=2000, deadline=None)
@given(
    st.lists(st.sampled_from(_PIECES), min_size=1, max_size=12),
    st.sampled_from(("", " ")),
    st.integers(0, 12),
)
def test_generated_lines(pieces: list[str], glue: str, links: int) -> None:
    """Lines from the pieces above, glued or apart, some long wrapped-error chains
    (``keep_chain_root`` cuts them: their hint is scrubbed whole). What is masked in such a
    jumble is the scrubber's call (``password: token: X`` masks ``token:``): the same hint."""
    line = glue.join(pieces)
    if links:
        line = ": ".join(["sync orders", *(["upstream call failed"] * links), line])
    assert fb._fallback_hint_uncached(line) == _old_hint(line)


@pytest.mark.parametrize("piece", [p for p in _PIECES if _SECRET in p or _JWT in p])
def test_a_secret_on_the_line_never_leaks(piece: str) -> None:
    for line in (piece, f"ValueError: {piece}", f"\x1b[31mRuntimeError\x1b[0m: {piece} (retry)"):
        hint = fb._fallback_hint_uncached(line)
        assert hint == _old_hint(line)
        assert _SECRET not in hint.text
        assert _JWT[20:] not in hint.text


def test_the_shortcut_is_taken() -> None:
    """A line with no trigger costs one scan: ``scrub`` is not called."""
    line = "java.lang.IllegalArgumentException: Minutes out of range: -15"
    with mock.patch.object(fb, "scrub", side_effect=AssertionError("scrubbed")):
        assert fb._fallback_hint_uncached(line) == _old_hint(line)
    chain = ": ".join(["sync orders", *(["upstream call failed"] * 12), "connection reset"])
    assert fb.keep_chain_root(chain, MAX_HINT_CHARS - len(PREFIX)) != chain
    with mock.patch.object(fb, "scrub", side_effect=AssertionError("scrubbed")):
        assert fb._fallback_hint_uncached(chain) == _old_hint(chain)


def test_a_line_with_a_trigger_goes_the_long_way() -> None:
    """The check can fail: a shortcut taken whatever the scan says lets a secret through."""
    line = f"ConnectionError: could not connect to postgresql://app:{_SECRET}@db:5432/shop"
    assert _SECRET not in fb._fallback_hint_uncached(line).text
    with mock.patch.object(fb, "_quiet", return_value=True):
        hint = fb._fallback_hint_uncached(line)
    assert _SECRET in hint.text
    assert hint != _old_hint(line)


def test_printable_text_holds_no_control_character() -> None:
    """What lets a printable line skip the control pass: every character ``_CONTROL`` removes,
    and the ESC opening its escape sequences, is not printable."""
    opening = [
        chr(c)
        for c in range(sys.maxunicode + 1)
        if not 0xD800 <= c <= 0xDFFF and _CONTROL.match(chr(c) + "[0m")
    ]
    assert "\x1b" in opening
    assert "\u200b" in opening
    assert [c for c in opening if c.isprintable()] == []


# --- blocks: secrets planted around the picked line, a located message -------------------------

_PLANTS = (
    f"connect(postgresql://app:{_SECRET}@db:5432/shop)\n",
    f"Authorization: Bearer {_JWT}\n",
    f"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA{_SECRET}\n-----END RSA PRIVATE KEY-----\n",
    f"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEA{_SECRET}\n",
    f"db:\n  password: |\n    {_SECRET}\n  host: db\n",
    "config:\n  password: |\n    ValueError: tr0ub4dor-and-3\n",
    f'{{\n  "password":\n    "{_SECRET}"\n}}\n',
    f"refresh failed: token={_SECRET[:20]}\n{_SECRET[20:]}0 (retrying)\n",
    f"\x1b[31mpassword={_SECRET}\x1b[0m\n",
)
_PICKED = (
    f"ConnectionError: could not connect to postgresql://app:{_SECRET}@db:5432/shop: closed\n",
    "java.lang.IllegalStateException: pool exhausted\n",
    "Caused by: java.io.IOException: broken pipe\n",
    f"RuntimeError: refresh failed: token={_SECRET}\n",
    "sync orders: upstream call failed: dial tcp 10.0.0.5:443: connect: connection reset\n",
    "the import stopped half way\n",  # no exception line: the message, or the first line
    "\x1b[1mValueError\x1b[0m: \u200bbad input\n",
)
_FRAMES = '  File "/srv/app/sync.py", line 40, in run\n'
_MESSAGES = (None, "", f"sync failed for postgresql://app:{_SECRET}@db/shop", "quota mismatch")


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    plant=st.sampled_from(_PLANTS),
    picked=st.sampled_from(_PICKED),
    above=st.integers(0, 6),
    below=st.integers(0, 3),
    where=st.sampled_from(("above", "below", "instead")),
    message=st.sampled_from(_MESSAGES),
    failure=st.booleans(),
    long_block=st.booleans(),
)
def test_planted_secrets_around_the_picked_line(
    plant: str,
    picked: str,
    above: int,
    below: int,
    where: str,
    message: str | None,
    failure: bool,
    long_block: bool,
) -> None:
    """A secret ``above`` frames above the picked line, right below it, or as the line itself
    (the plant's last line is then the last line of the block), in a short block and below 5 KB
    of frames (the window path); with and without a located message."""
    head = "Traceback (most recent call last):\n" + (_FRAMES * 120 if long_block else "")
    gap = _FRAMES * above
    tail = _FRAMES * below
    if where == "above":
        block = head + plant + gap + picked + tail
    elif where == "below":
        block = head + picked + gap + plant + tail
    else:
        block = head + gap + plant
    new = _new_block(block, message, failure)
    assert new == _old_block(block, message, failure)
    for value in (_SECRET, _SECRET[:16], _SECRET[20:], _JWT[20:], "tr0ub4dor"):
        assert value not in new.text


@pytest.mark.parametrize("path", _TEXTS[::3], ids=lambda p: str(p.relative_to(TESTS)))
def test_fixture_blocks_with_a_message(path: Path) -> None:
    """Fixtures as blocks, with a located message that holds a secret or none."""
    text = _read(path)
    for message in _MESSAGES:
        assert _new_block(text, message) == _old_block(text, message)


def test_the_message_is_scrubbed_only_when_named() -> None:
    """A message the hint does not name is not scrubbed; one it names is, as before."""
    message = f"sync failed for postgresql://app:{_SECRET}@db/shop"
    block = "Traceback (most recent call last):\n" + _FRAMES + "ValueError: bad row 7\n"
    with mock.patch.object(fb, "scrub", wraps=scrub) as spy:
        assert _new_block(block, message) == _old_block(block, message)
    assert message not in [call.args[0] for call in spy.call_args_list]
    plain = "the import stopped half way\n"
    hint = _new_block(plain, message)
    assert hint == _old_block(plain, message)
    assert "postgresql://app:***@db/shop" in hint.text
