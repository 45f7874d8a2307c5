"""Golden files: every real captured trace parses to its inspected ``.json``.

Re-bless after an intended parser change (then read the diff!)::

    PYTHONPATH=$PWD/src:$PWD .venv/bin/python -m tests.traces.golden --bless [LANG ...]
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hintline.traces import _unescape, detect_language, parse_trace
from tests.traces.golden import FIXTURES, cases, expected_language, meta, parse_case

CASES = cases()
IDS = [f"{p.parent.name}/{p.stem}" for p in CASES]


def test_every_language_has_golden_files() -> None:
    """Each fixture folder holds at least one trace and every trace has its expected parse."""
    assert len(CASES) >= 20
    missing = [p for p in CASES if not p.with_suffix(".json").exists()]
    assert not missing


@pytest.mark.parametrize("txt", CASES, ids=IDS)
class TestGolden:
    def test_parse_matches_golden(self, txt: Path) -> None:
        """The parse equals the blessed JSON beside the real trace."""
        expected = json.loads(txt.with_suffix(".json").read_text())
        assert parse_case(txt) == expected

    def test_language_is_detected(self, txt: Path) -> None:
        """Detection alone finds the language the trace was produced by."""
        text = txt.read_text()
        if "\n" not in text.strip():  # one line with \\n escapes: detection runs on it unescaped
            text = _unescape(text)
        assert detect_language(text.split("\n")) == expected_language(txt.parent)
        assert parse_trace(txt.read_text()).language == expected_language(txt.parent)

    def test_hint_gives_same_parse(self, txt: Path) -> None:
        """The caller's language hint gives the same parse as detection."""
        text = txt.read_text()
        root = meta(txt.parent).get("project_root")
        lang = expected_language(txt.parent)
        assert parse_trace(text, language=lang, project_root=root) == parse_trace(text, project_root=root)

    def test_never_keeps_source_lines(self, txt: Path) -> None:
        """No frame field holds a source line the runtime echoed (they may hold secrets)."""
        trace = parse_trace(txt.read_text(), project_root=meta(txt.parent).get("project_root"))
        assert trace.exceptions
        for frame in trace.frames:
            for value in (frame.file, frame.function, frame.module):
                assert value is None or ("^" not in value and "~~" not in value and "\n" not in value)
                assert value is None or ("raise " not in value and "throw " not in value)


DEFECTS4J = sorted((FIXTURES / "defects4j").glob("*.txt"))


@pytest.mark.parametrize("txt", [p for p in DEFECTS4J if not p.name.startswith("LICENSE")], ids=lambda p: p.stem)
def test_defects4j_in_app_by_package(txt: Path) -> None:
    """JVM frames have no path: the project's own package is found from the outermost frames."""
    package = meta(txt.parent)["packages"][txt.stem]
    trace = parse_trace(txt.read_text())
    frames = trace.frames
    assert frames
    for frame in frames:
        module = frame.module or ""
        if module.startswith(package + "."):
            assert frame.in_app, module
        if frame.in_app:
            # near the project's package at most (JacksonDatabind-13's narrows to its
            # organisation's ``com.fasterxml.jackson``): never the JDK, the test runner, nor a
            # library such as Hamcrest (Mockito-29) that no list of known frameworks names
            assert module.startswith(".".join(package.split(".")[:2]) + "."), module
    assert any(f.in_app for f in frames)


@pytest.mark.parametrize("txt", [p for p in DEFECTS4J if not p.name.startswith("LICENSE")], ids=lambda p: p.stem)
def test_defects4j_project_root_does_not_place_jvm_frames(txt: Path) -> None:
    """A JVM frame names a file, not a path: a project root changes no in_app decision."""
    text = txt.read_text()
    plain = [f.in_app for f in parse_trace(text).frames]
    assert [f.in_app for f in parse_trace(text, project_root="/srv/app").frames] == plain
    assert [f.in_app for f in parse_trace(text, project_root="/srv/app/").frames] == plain
