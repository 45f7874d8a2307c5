"""The matching engines: first-listed wins, engines agree, thread safety, the disk cache."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hintline import Category, Example, Rule, _linear, clean, rules
from hintline.cleaner import _vectorscan as _hyperscan
from hintline.cleaner import match as _engine
from hintline.cleaner._patterns import may_span_lines, required_literals, to_hyperscan

ENGINES = _engine.available_engines()
needs_hyperscan = pytest.mark.skipif(not _hyperscan.AVAILABLE, reason="hyperscan has no wheel here")

# Patterns in the style of the rule table, with every construct the translation handles.
PATTERNS = [
    r'(?s)violates foreign key constraint "(?P<constraint>[^"]+)".*?Key \((?P<key>[^)]*)\)',
    r"UNIQUE constraint failed: (?P<table>\w+)\.(?P<key>\w+)",
    r"Duplicate entry '(?P<value>[^']*)' for key '(?P<key>[^']+)'",
    r"(?i)deadlock (?:detected|found)",
    r"(?m)^(?:\w+\.)*KeyError: (?P<key>.+)$",
    r"(?P<func>\w+)\(\) missing \d+ required positional arguments?: '(?P<key>[^']+)'",
    r"invalid literal for int\(\) with base \d+: (?P<key>'.{0,40}')",
    r"\b429\b|Too Many Requests",
    r"(?i)status(?: code)?[:= ]+(?P<code>[45]\d\d)\b",
    r"(?i)connection refused|ECONNREFUSED",
    r"(?i)timed? ?out\b",
    r"(?<![\w-])ENOENT(?![\w-])",
    r"Permission denied: '(?P<key>[^']+)'",
    r"(?P<key>\w+)\n\s+Field required",
    r"(?m:^(?P<type>[A-Za-z_][\w.]*(?:Error|Exception)): (?P<msg>.*)$)",
    r"Caused by: (?P<type>[\w.$]+)(?:: (?P<msg>.*))?",
    r"(?P<a>x)(?P=a)yz",
    r"caf\w+ (?P<key>\w+)\b",
    r"\d{,3}-\d+ items",
]


def _table(patterns: list[str]) -> tuple[Rule, ...]:
    return tuple(
        Rule(
            code=f"TST{i:03d}",
            name=f"test.rule-{i}",
            category=Category.OTHER,
            pattern=p,
            hint="rule {i}".replace("{i}", str(i)),
            why="test",
            examples=(Example("x", "Hint: x"),),
            key_group=None,
        )
        for i, p in enumerate(patterns)
    )


TABLE = _table(PATTERNS)

FRAGMENTS = [
    'violates foreign key constraint "fk_a"',
    "Key (user_id)=(1)",
    "UNIQUE constraint failed: users.email",
    "UNIQUE constraint failed: café.clé",
    "Duplicate entry 'x' for key 'uq'",
    "DEADLOCK found",
    "KeyError: 'customer'",
    "app.KeyError: 'x'",
    "f() missing 1 required positional argument: 'y'",
    "invalid literal for int() with base 10: 'abc'",
    "429",
    "x429",
    "Too Many Requests",
    "status code: 503",
    "Status=404é",
    "Connection REFUSED",
    "timeout",
    "timed out",
    "timedout",
    "-ENOENT",
    "→ENOENT←",
    "ENOENT",
    "Permission denied: '/x'",
    "name\n  Field required",
    "名前\n\u3000Field required",
    "ValueError: bad",
    "Caused by: java.io.IOException: x",
    "xxyz",
    "café au lait",
    "12-3 items",
    "é",
    "\u212a",
    "\n",
    " ",
    ": ",
]


_COMPILED: dict[str, _engine.Matcher] = {}


def compiled(engine: str) -> _engine.Matcher:
    """TABLE compiled once per engine for the whole module."""
    if engine not in _COMPILED:
        _COMPILED[engine] = _engine.compile_rules(TABLE, engine=engine)
    return _COMPILED[engine]


@pytest.fixture(params=ENGINES)
def matcher(request: pytest.FixtureRequest) -> _engine.Matcher:
    return compiled(request.param)


class TestPrecedence:
    def test_first_listed_wins_over_earlier_text(self, matcher: _engine.Matcher) -> None:
        """A later-listed trigger earlier in the text loses to the first-listed rule."""
        table = _table([r"request timed out", r"Connection refused"])
        m = _engine.compile_rules(table, engine=matcher.name)
        found = m.match("Connection refused; retried; then the request timed out")
        assert found is not None
        assert found.index == 0

    def test_captures_come_from_the_winner(self, matcher: _engine.Matcher) -> None:
        """The winner's groups are its own first ``re`` match."""
        found = matcher.match("Permission denied: '/etc/x'\nDuplicate entry 'a' for key 'uq_email'")
        assert found is not None
        assert found.rule.name == "test.rule-2"
        assert found.groups == {"value": "a", "key": "uq_email"}

    def test_no_match(self, matcher: _engine.Matcher) -> None:
        """Text no rule matches gives None."""
        assert matcher.match("all good here") is None
        assert matcher.match("") is None


@needs_hyperscan
class TestEnginesAgree:
    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=8), max_size=12))
    def test_same_rule_and_groups(self, parts: list[str]) -> None:
        """Hyperscan and re pick the same rule and the same groups on arbitrary mixes."""
        text = "".join(parts)
        hs, ref = compiled("hyperscan"), compiled("re")
        a, b = hs.match(text), ref.match(text)
        assert (a and (a.index, dict(a.groups))) == (b and (b.index, dict(b.groups)))

    @pytest.mark.parametrize("text", FRAGMENTS)
    def test_each_fragment(self, text: str) -> None:
        """Each fragment alone, and surrounded by non-ASCII, gives the same answer."""
        hs, ref = compiled("hyperscan"), compiled("re")
        for t in (text, f"é{text}ü", f"line\n{text}\nend"):
            a, b = hs.match(t), ref.match(t)
            assert (a and (a.index, dict(a.groups))) == (b and (b.index, dict(b.groups))), t

    def test_captures_on_a_later_line_with_non_ascii_before(self) -> None:
        """Byte offsets from Hyperscan map to the right characters after non-ASCII text."""
        hs = compiled("hyperscan")
        text = "é" * 500 + "\n" + "日本" * 300 + "\nDuplicate entry 'ü' for key 'uq_é'\n"
        found = hs.match(text)
        assert found is not None
        assert found.groups == {"value": "ü", "key": "uq_é"}


class TestPatternAnalysis:
    def test_required_literals(self) -> None:
        """Literal guards come from the pattern; caseless ones are casefolded."""
        guard = required_literals(r"(?i)connection refused|ECONNREFUSED")
        assert guard is not None
        assert guard.caseless
        assert set(guard.literals) == {"connection refused", "econnrefused"}
        assert required_literals(r"\w+") is None

    @pytest.mark.skipif(not _linear.AVAILABLE, reason="google-re2 has no wheel here")
    def test_literal_set_lets_through_every_text_a_rule_matches(self) -> None:
        """The stdlib engine's one-pass guard (an RE2 set of every rule's required literals)
        reports a rule for every text its pattern matches: the examples, generated shapes and
        their non-ASCII variants, Python's (?i) folds (KELVIN SIGN, LONG S, dotted and
        dotless I) included."""
        import re

        from tests.linear.shapes import pattern_shapes

        guards = [required_literals(rule.pattern) for rule in rules.RULES]
        literal_set = _linear.LiteralSet.build(
            [None if g is None else (g.literals, g.caseless) for g in guards]
        )
        assert literal_set is not None
        swaps = (("k", "\u212a"), ("s", "\u017f"), ("i", "\u0130"), ("i", "\u0131"), ("e", "é"))
        checked = 0
        for number, rule in enumerate(rules.RULES):
            if guards[number] is None:
                continue
            texts = [e.input for e in rule.examples] + list(rule.near_misses)
            texts += [s.text for s in pattern_shapes(rule.name, rule.pattern, 120)]
            texts += [t.replace(a, b) for t in texts for a, b in swaps if a in t]
            texts += [t.upper() for t in texts]
            python = re.compile(_linear.python_form(rule.pattern))
            for text in texts:
                if python.search(text) is not None:
                    checked += 1
                    assert number in literal_set.groups(text.encode()), (rule.name, text)
        assert checked > len(rules.RULES)

    def test_may_span_lines(self) -> None:
        """Only patterns that can consume a newline span lines."""
        assert not may_span_lines(r"KeyError: (?P<key>.+)$")
        assert may_span_lines(r"(?s)a.*b")
        assert may_span_lines(r'"[^"]+"')
        assert may_span_lines(r"a\s+b")
        assert not may_span_lines(r"a[ \t]+b")

    def test_translation_widens_unicode_classes(self) -> None:
        """\\w, \\d, \\s accept non-ASCII; lookarounds are dropped; \\Z becomes \\z."""
        translated = to_hyperscan(r"(?<!x)\w+\d\s\Z")
        assert translated is not None
        assert (
            translated.expression
            == rb"[\w\x{80}-\x{10FFFF}]+[0-9\x{80}-\x{10FFFF}][\s\x1c-\x1f\x{80}-\x{10FFFF}]\z"
        )
        long = to_hyperscan(r"a{1,128}b{,3}c{200}d{2}")
        assert long is not None
        assert long.expression == b"a{1,}b{0,3}c{200,}d{2}"
        assert to_hyperscan(r"(?x) a b") is None
        assert to_hyperscan(r"(?P<a>x)(?P=a)") is None


@needs_hyperscan
class TestHyperscanRuntime:
    def test_threads_share_one_database(self) -> None:
        """Many threads matching at once never raise (each has its own scratch)."""
        hs = compiled("hyperscan")
        text = "x" * 60_000 + "\nPermission denied: '/x'\n"
        errors: list[BaseException] = []

        def work() -> None:
            try:
                for _ in range(200):
                    found = hs.match(text)
                    assert found is not None
                    assert found.index == 12
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []

    def test_disk_cache_roundtrip_and_corruption(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The compiled database is cached, reused, and rebuilt when the file is corrupt."""
        monkeypatch.setenv(_hyperscan.CACHE_ENV, str(tmp_path))
        first = _engine.compile_rules(TABLE, engine="hyperscan")
        files = list(tmp_path.glob("rules-*.hsdb"))
        assert len(files) == 1
        second = _engine.compile_rules(TABLE, engine="hyperscan")
        text = "Duplicate entry 'a' for key 'b'"
        assert first.match(text) == second.match(text)
        files[0].write_bytes(b'{"format": 1}\n' + b"garbage")
        third = _engine.compile_rules(TABLE, engine="hyperscan")
        assert third.match(text) == first.match(text)

    def test_cache_off(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """HINTLINE_CACHE_DIR=off writes nothing."""
        monkeypatch.setenv(_hyperscan.CACHE_ENV, "off")
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
        _engine.compile_rules(TABLE, engine="hyperscan")
        assert list(tmp_path.rglob("*.hsdb")) == []

    def test_auto_matcher_answers_while_compiling(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """On a cold cache the re engine answers until the database is ready; same answers."""
        monkeypatch.setenv(_hyperscan.CACHE_ENV, str(tmp_path / "cold"))
        auto = _engine.compile_rules(TABLE)
        assert isinstance(auto, _hyperscan.AutoMatcher)
        text = "UNIQUE constraint failed: users.email"
        before = auto.match(text)
        assert auto.wait(60)
        assert auto.match(text) == before


class TestGlobalTable:
    def test_rebuilt_when_rules_change(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Replacing RULES (a new tuple) rebuilds the matcher on the next call."""
        monkeypatch.setattr(rules, "RULES", _table([r"alpha-trigger"]))
        assert clean("alpha-trigger").rule == "test.rule-0"
        monkeypatch.setattr(rules, "RULES", _table([r"beta-trigger"]))
        assert clean("alpha-trigger").rule is None
        assert clean("beta-trigger").rule == "test.rule-0"

    @pytest.mark.parametrize("forced", ["re", *(["hyperscan"] if _hyperscan.AVAILABLE else [])])
    def test_env_var_selects_engine(self, forced: str) -> None:
        """HINTLINE_ENGINE picks the engine; --version names it."""
        env = {**os.environ, _engine.ENGINE_ENV: forced}
        out = subprocess.run(
            [sys.executable, "-m", "hintline", "--version"],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        ).stdout
        assert f"(engine: {forced}" in out
