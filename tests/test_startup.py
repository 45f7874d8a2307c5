"""Start-up: what `import hintline` and the first clean() do (and do not do) before answering.

The speed itself is measured in benchmarks/bench_clean.py; these tests pin the behaviour that
makes it: nothing compiled at import, a lazy stand-in engine that answers like the full one,
background compiles that still fill the disk cache before a short-lived process exits.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hintline import RULES
from hintline.cleaner import _vectorscan as _hyperscan
from hintline.cleaner import match as _engine
from hintline.scrub import Scrubber, scrub

needs_hyperscan = pytest.mark.skipif(not _hyperscan.AVAILABLE, reason="hyperscan has no wheel here")

TEXTS = [example.input for rule in RULES for example in rule.examples]


def _child(code: str, cache: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HINTLINE_CACHE_DIR": str(cache), "PYTHONPATH": os.pathsep.join(sys.path)}
    env.pop(_engine.ENGINE_ENV, None)
    return subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        check=True,
    )


def test_import_compiles_no_rule_or_secret_pattern(tmp_path: Path) -> None:
    """`import hintline` declares the tables without compiling their patterns (the tests and
    gen_rule_docs run the checks), and does not load the trace parser."""
    code = (
        "import re, sys\n"
        "compiled = []\n"
        "real = re._compile\n"
        "re._compile = lambda p, f: (compiled.append(p), real(p, f))[1]\n"
        "import hintline\n"
        "from hintline.scrub import SECRETS\n"
        "patterns = {r.pattern for r in hintline.RULES} | {s.pattern for s in SECRETS}\n"
        "print(len(patterns & set(compiled)), 'hintline.traces' in sys.modules)\n"
    )
    assert _child(code, tmp_path).stdout.split() == ["0", "False"]


def test_cli_clean_imports_only_what_it_needs(tmp_path: Path) -> None:
    """`hintline clean` does not look up the version (importlib.metadata costs 25 ms) nor load
    what other subcommands need (socket, pathlib, the trace parser for a matched rule);
    `--version` still prints the version."""
    heavy = ["importlib.metadata", "socket", "pathlib", "hintline.traces"]
    code = (
        "import sys\n"
        "from hintline.cli import main\n"
        "code = main(['clean'])\n"
        f"print([m for m in {heavy!r} if m in sys.modules], code)\n"
    )
    out = _child(code, tmp_path, stdin="KeyError: 'customer_id'\n").stdout.splitlines()
    assert out[0].startswith("Hint: Key 'customer_id'")
    assert out[1] == "[] 0"
    version = _child("from hintline.cli import main; main(['--version'])", tmp_path, "")
    assert version.stdout.startswith("hintline ")


def test_matched_first_call_loads_only_what_it_needs(tmp_path: Path) -> None:
    """`import hintline` and a first clean() that a rule answers with its key do not load the
    signal layer, the fallback's line picker, the HTML reader, scrub_stream nor the trace
    parser; each is loaded by the first text that needs it, and answers as the eagerly
    imported module does."""
    lazy = [
        "hintline.cleaner.fallback",
        "hintline.cleaner._html",
        "hintline.scrub._stream",
        "hintline.traces",
        "hintline.cleaner.signals",
    ]
    code = (
        "import sys, hintline\n"
        f"lazy = {lazy!r}\n"
        "def loaded(): return [m for m in lazy if m in sys.modules]\n"
        "print(hintline.clean(\"KeyError: 'customer_id'\").rule, loaded())\n"
        "print(hintline.clean('<html><title>Oops</title><pre>KeyError: \"sku\"</pre></html>').rule, loaded())\n"
        "print(hintline.clean('nothing claims this line').text, loaded())\n"
        "from hintline.scrub import scrub_stream\n"
        "from hintline.hint import _CHAIN_MARKERS, fallback\n"
        "print(list(scrub_stream(['password=hunter2\\n'])), loaded())\n"
        "from hintline.cleaner import fallback as module, signals\n"
        "print(fallback is module.fallback, _CHAIN_MARKERS is module._CHAIN_MARKERS)\n"
        "import hintline.hint as h\n"
        "print(h.classify is signals.classify, h.complete_key is signals.complete_key)\n"
    )
    out = _child(code, tmp_path).stdout.splitlines()
    assert out[0] == "python.key-error []"
    assert out[1] == "python.key-error ['hintline.cleaner._html']"
    assert out[2] == f"Hint: nothing claims this line {[lazy[0], lazy[1], lazy[3], lazy[4]]!r}"
    assert out[3] == f"['password=***\\n'] {lazy!r}"
    assert out[4] == out[5] == "True True"


def test_lazy_re_engine_answers_like_the_full_one() -> None:
    """The stand-in used while Hyperscan compiles builds each rule when a text first reaches it;
    its answers (rule, captures) are the full re engine's, in any order of texts."""
    eager = _engine.ReMatcher(RULES)
    lazy = _engine.ReMatcher(RULES, lazy=True)
    for text in [*reversed(TEXTS[:40]), "no rule matches this line", *TEXTS]:
        got, want = lazy.match(text), eager.match(text)
        assert (got and (got.index, dict(got.groups))) == (want and (want.index, dict(want.groups)))


_SCRUB_DATABASES = 3
"""The scrubber's trigger screen: each trigger reported once; the unbounded triggers alone;
every match of every trigger (a long text)."""


@needs_hyperscan
def test_short_lived_process_fills_both_caches(tmp_path: Path) -> None:
    """On a cold cache the first call answers with re while the Vectorscan databases compile in
    the background; the process still writes both to the cache before it exits, so the next
    process starts warm (and answers the same)."""
    code = "import hintline; print(hintline.clean(\"KeyError: 'customer_id'\").text)"
    first = _child(code, tmp_path)
    assert len(list(tmp_path.glob("rules-*.hsdb"))) == 1
    assert len(list(tmp_path.glob("scrub-*.hsdb"))) == _SCRUB_DATABASES
    second = _child(code, tmp_path)
    assert first.stdout == second.stdout
    assert first.stdout.startswith("Hint: Key 'customer_id'")


@needs_hyperscan
def test_scrubber_answers_while_its_database_compiles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cold cache: the scrubber masks at once (triggers searched with re), then with the
    Vectorscan database once compiled, the same text both times; the database is cached."""
    monkeypatch.setenv("HINTLINE_CACHE_DIR", str(tmp_path))
    cold = Scrubber()
    text = "connect to postgresql://app:S3cret@db:5432/shop failed, token=abc123"
    before = cold.scrub(text)
    assert cold._prefilter is not None
    assert cold._prefilter.wait(600)
    assert cold.scrub(text) == before == scrub(text)
    assert len(list(tmp_path.glob("scrub-*.hsdb"))) == _SCRUB_DATABASES


@pytest.mark.parametrize(("setting", "daemon"), [("off", True), ("/proc/hintline", True), ("", False)])
def test_background_compile_holds_the_exit_only_when_it_can_cache(
    setting: str, daemon: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A compile whose result cannot be cached (caching off, a folder that cannot be made)
    runs as a daemon: the process does not wait for it at exit."""
    from hintline._vectorscan import cache as _hscache
    monkeypatch.setenv("HINTLINE_CACHE_DIR", setting or str(tmp_path / "cache"))
    thread = _hscache.in_background(lambda: None, "hintline-test")
    thread.join(5)
    assert thread.daemon is daemon


@needs_hyperscan
def test_warm_first_call_loads_no_openssl_nor_pattern_analysis_and_parses_no_trigger(
    tmp_path: Path,
) -> None:
    """On a warm cache, ``import hintline`` and a first clean() that a rule answers load neither
    ``hashlib`` (OpenSSL: the cache is keyed and checked with zlib's checksums) nor the pattern
    analysis of a cold build, parse no secret trigger (the renderer's shortcut recognises them
    unparsed, and is on) and leave the long triggers' database to the first long text."""
    code = "import hintline; print(hintline.clean(\"KeyError: 'customer_id'\").text)"
    cold = _child(code, tmp_path)  # compiles and caches every database before it exits
    probe = (
        "import sys, hintline\n"
        "print(hintline.clean(\"KeyError: 'customer_id'\").text)\n"
        "from hintline.cleaner import render\n"
        "from hintline.scrub import _DEFAULT\n"
        "from hintline.scrub._scrubber import _LATER, parsed_trigger\n"
        "heavy = ['hashlib', '_hashlib', 'hintline.cleaner._patterns']\n"
        "print([m for m in heavy if m in sys.modules])\n"
        "print(parsed_trigger.cache_info().currsize, _DEFAULT._prefilter._db[1] is _LATER)\n"
        "print(render._scan[1] == _DEFAULT._prefilter.fired)\n"
        "long = 'AIza' * 3000 + ' password=S3cret'\n"
        "print(_DEFAULT.scrub(long) == 'AIza' * 3000 + ' password=***', _DEFAULT._prefilter._db[1])\n"
    )
    warm = _child(probe, tmp_path).stdout.splitlines()
    assert warm[0] == cold.stdout.strip()
    assert warm[1:4] == ["[]", "0 True", "True"]
    assert warm[4].startswith("True <hyperscan.Database")  # loaded for the long text


def test_lazy_pattern_compiles_on_first_use_and_answers_as_re() -> None:
    """A constant declared through hintline._lazyre is compiled by its first use (not before:
    its mistakes show there) and from then on answers exactly as the compiled pattern."""
    import re

    from hintline import _lazyre

    source = r"(?P<key>\w+)=(\d+)"
    lazy = _lazyre.compile(source, _lazyre.IGNORECASE)
    unset = _lazyre.LazyPattern.__dict__["search"]
    with pytest.raises(AttributeError):
        unset.__get__(lazy)  # nothing compiled yet
    assert lazy.pattern == source
    with pytest.raises(AttributeError):
        lazy.no_such_attribute  # noqa: B018 - an unknown name compiles nothing
    with pytest.raises(AttributeError):
        unset.__get__(lazy)
    real = re.compile(source, re.IGNORECASE)
    text = "a=1, B=22; c=x"
    assert lazy.search(text)[0] == real.search(text)[0]  # type: ignore[index]
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in real.finditer(text)]
    assert lazy.findall(text) == real.findall(text)
    assert lazy.sub("*", text) == real.sub("*", text)
    assert lazy.subn("*", text) == real.subn("*", text)
    assert lazy.split(text) == real.split(text)
    assert lazy.match(text) is not None
    assert lazy.fullmatch("a=1") is not None
    assert (lazy.flags, lazy.groups, lazy.groupindex) == (real.flags, real.groups, real.groupindex)
    broken = _lazyre.compile("(unclosed")
    with pytest.raises(re.error):
        broken.search("x")


def _asserts(pattern: str) -> bool:
    """Whether re's parse tree of ``pattern`` holds an anchor, boundary, look-around or
    back-reference (the renderer's check without its shortcut)."""
    from re import _constants as constants  # type: ignore[attr-defined]
    from re import _parser as parser  # type: ignore[attr-defined]

    banned = {
        constants.AT,
        constants.ASSERT,
        constants.ASSERT_NOT,
        constants.GROUPREF,
        constants.GROUPREF_EXISTS,
        constants.GROUPREF_IGNORE,
        constants.GROUPREF_LOC_IGNORE,
        constants.GROUPREF_UNI_IGNORE,
    }
    stack: list[object] = [parser.parse(pattern)]
    while stack:
        item = stack.pop()
        if isinstance(item, parser.SubPattern):
            for op, av in item.data:
                if op in banned:
                    return True
                stack.append(av)
        elif isinstance(item, (tuple, list)):
            stack.extend(item)
    return False


_PIECES = [
    "a", "-", " ", "#", "\n", "|", "*", "+", "?", "{2}", ")", "(", "(?:", "(?=", "(?!", "(?<=a)",
    "(?<!a)", "(?P<g>", "(?P=g)", "(?(1)a|b)", "(?#c)", "(?i)", "(?x)", "(?i:", "(?s-i:", "(?>",
    "^", "$", r"\b", r"\B", r"\A", r"\Z", r"\1", r"\d", r"\w", r"\\", r"\(", r"\[", r"\^", r"\$",
    r"\x41", r"\u00e9", r"\N{BULLET}", "[a-z]", "[^]$]", "[]^]", r"[\]^]", "[$^(]", "[^^]", "[",
    "]", r"[\b]", "[[]",
]  # fmt: skip


def test_unparsed_assertion_check_never_misses_an_assertion() -> None:
    """The renderer's shortcut check says "no assertion" without parsing only when re's parser
    agrees: on every rule, secret and trigger pattern and on 20,000 generated patterns built
    from assertions, classes that hold ``^``, ``$`` or ``]``, escapes, groups, comments and
    verbose mode; and it recognises every trigger (so a first clean() parses none)."""
    import random
    import re
    import warnings

    from hintline.cleaner import render
    from hintline.scrub import SECRETS

    plainly = render._PLAINLY_NO_ASSERTION.fullmatch
    triggers = [p.trigger or p.pattern for p in SECRETS]
    assert all(plainly(t) for t in triggers)
    patterns = [*triggers, *(p.pattern for p in SECRETS), *(r.pattern for r in RULES)]
    rng = random.Random(20)
    for _ in range(20_000):
        patterns.append("".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 7))))
    checked = recognised = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "possible nested set": generated on purpose
        for pattern in patterns:
            try:
                re.compile(pattern)
            except re.error:
                continue
            checked += 1
            if plainly(pattern):
                recognised += 1
                assert not _asserts(pattern), pattern
            else:
                assert render._no_assertion(pattern) is not _asserts(pattern), pattern
    assert checked > 5_000
    assert recognised > 1_000
