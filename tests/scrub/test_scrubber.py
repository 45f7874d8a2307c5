"""The Scrubber object: extensions, totality, threads, bytes."""

from __future__ import annotations

import threading

import pytest

from hintline.exceptions import RuleError
from hintline.scrub import MASK, SECRETS, Scrubber, ScrubResult, SecretPattern, scrub, scrub_report

LICENSE = SecretPattern(
    name="acme-license",
    pattern=r"(?<![A-Za-z0-9])(?P<secret>ACME-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4})",
    trigger=r"ACME-[0-9A-F]{4}-",
    why="ACME's product license keys.",
    examples=("license ACME-1A2B-3C4D-5E6F rejected",),
    near_misses=("ACME-corp",),
)


class TestExtensions:
    def test_extra_pattern(self) -> None:
        """A caller's own pattern is masked and reported under its own kind."""
        scrubber = Scrubber(extra_patterns=(LICENSE,))
        result = scrubber.report("license ACME-1A2B-3C4D-5E6F rejected; token=abc123")
        assert result.text == "license *** rejected; token=***"
        assert result.kinds == ("acme-license", "key-value")
        assert scrub("license ACME-1A2B-3C4D-5E6F rejected") == "license ACME-1A2B-3C4D-5E6F rejected"

    def test_extra_key_names(self) -> None:
        """An extra key name is matched in every spelling, in pairs and query strings."""
        scrubber = Scrubber(extra_key_names=("license key",))
        text = 'licenseKey=L1 LICENSE_KEY: L2 {"license-key": "L 3"} https://h/p?license_key=L4&x=1'
        out = scrubber.scrub(text)
        assert out == 'licenseKey=*** LICENSE_KEY: *** {"license-key": "***"} https://h/p?license_key=***&x=1'
        assert scrub("licenseKey=L1") == "licenseKey=L1"  # the default scrubber does not know it

    def test_builtin_off(self) -> None:
        """builtin=False keeps only the caller's patterns."""
        scrubber = Scrubber(extra_patterns=(LICENSE,), builtin=False)
        assert scrubber.patterns == (LICENSE,)
        assert scrubber.scrub("password=x ACME-1A2B-3C4D-5E6F") == "password=x ***"

    def test_empty_scrubber(self) -> None:
        """No patterns at all: text passes through."""
        assert Scrubber(builtin=False).scrub("password=x") == "password=x"

    def test_config_is_frozen(self) -> None:
        """A Scrubber is a frozen value: its configuration cannot change under its users."""
        scrubber = Scrubber()
        with pytest.raises(AttributeError):
            scrubber.builtin = False  # type: ignore[misc]

    def test_default_table(self) -> None:
        """Scrubber() uses the built-in table in its order."""
        assert Scrubber().patterns == SECRETS

    def test_bad_extra_pattern_is_refused_at_declaration(self) -> None:
        """A caller's broken pattern fails when declared, not while scrubbing."""
        with pytest.raises(RuleError):
            SecretPattern(name="x", pattern="(", why="w", examples=("x",))


class TestTotality:
    @pytest.mark.parametrize(
        "text",
        ["", "\x00\x01\x02", "\ud800 lone surrogate password=abc", "é" * 10_000, "=" * 100_000,
         "password=" * 5000, "://:@" * 5000, "-----BEGIN RSA PRIVATE KEY-----" * 100,
         "a_" * 20_000 + "?", "?a_" * 20_000],
    )
    def test_never_raises_on_text(self, text: str) -> None:
        """Any str gives a str, idempotently."""
        out = scrub(text)
        assert isinstance(out, str)
        assert scrub(out) == out

    def test_lone_surrogate_still_masks(self) -> None:
        """Text Hyperscan cannot take (lone surrogates) is scrubbed by the full pass."""
        assert scrub("\ud800 password=abc") == "\ud800 password=***"

    def test_bytes_are_decoded(self) -> None:
        """bytes are decoded as UTF-8 with replacement, then scrubbed."""
        assert scrub(b"token=abc\xff def") == "token=*** def"
        assert scrub(bytearray(b"password=x")) == "password=***"

    def test_other_objects_use_str(self) -> None:
        """Anything else is scrubbed as its str()."""
        assert scrub(ValueError("password=x")) == "password=***"  # type: ignore[arg-type]
        assert scrub(None) == "None"  # type: ignore[arg-type]

    def test_hostile_str_fails_closed(self) -> None:
        """An object whose str() raises gives a mask, not an exception or raw text."""

        class Hostile:
            def __str__(self) -> str:
                raise RuntimeError("no")

        assert scrub(Hostile()) == MASK  # type: ignore[arg-type]
        assert scrub_report(Hostile()) == ScrubResult(MASK, ("unreadable",), 1)  # type: ignore[arg-type]

    def test_result_is_a_value(self) -> None:
        """ScrubResult is a frozen dataclass."""
        result = scrub_report("token=abc")
        with pytest.raises(AttributeError):
            result.count = 0  # type: ignore[misc]

    def test_large_text_is_scrubbed_everywhere(self) -> None:
        """Secrets at the start, middle and end of a 1 MiB text are all masked."""
        filler = "INFO worker processed job in 12ms\n" * 30_000
        text = "token=first1\n" + filler + "token=middle2\n" + filler + "token=last3"
        out = scrub(text)
        assert "first1" not in out
        assert "middle2" not in out
        assert "last3" not in out
        assert out.count("token=***") == 3


class TestThreads:
    def test_concurrent_use(self) -> None:
        """One Scrubber serves many threads (per-thread Hyperscan scratch)."""
        text = "GET /x?api_key=abc123&q=1 Authorization: Bearer tok123 " + "filler " * 500
        expected = scrub(text)
        errors: list[str] = []

        def work() -> None:
            for _ in range(200):
                if scrub(text) != expected:
                    errors.append("mismatch")

        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []


class TestLongLines:
    @pytest.mark.parametrize("spaces", [0, 1, 16])
    def test_pair_at_the_end_of_a_long_line(self, spaces: int) -> None:
        """A pair after 20 000 characters of one line is masked, on both paths alike."""
        text = "x" * 20_000 + f" db_password{' ' * spaces}= S3cret!9 tail"
        scrubber = Scrubber()
        assert scrubber.scrub(text).endswith(f"db_password{' ' * spaces}= *** tail")
        assert scrubber._report(text, fast=True) == scrubber._report(text, fast=False)
