"""TYPO3 exception handler entries and PHP frames with their class (issue 18, points 8 and 9).

``fixtures/typo3_handler.log`` holds real PHP exceptions written the way TYPO3 v12/v13's
``AbstractExceptionHandler::writeLogEntries()`` and ``FileWriter`` write them; TYPO3 itself cannot
be installed here, so the two are reproduced from their source (see
``scripts/fixtures/logs/typo3_exception_handler.php`` and ``fixtures/typo3_handler.versions``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hintline import logs
from hintline.exceptions import ExplainRefused
from hintline.explain import Configuration, TrustZone, build_payload

LOG = Path(__file__).parent / "fixtures" / "typo3_handler.log"
RAN_IN = "/tmp/hintline-gen/typo3"
SCRIPT = f"{RAN_IN}/typo3_exception_handler.php"


def _entries() -> list[logs.Entry]:
    return list(reversed(logs.read([str(LOG)], limit=10)))  # oldest first, as written


def _config(zone: TrustZone) -> Configuration:
    return Configuration(name="team", base_url="https://llm.internal.example/v1", zone=zone)


def test_the_logged_class_is_read() -> None:
    """Each entry gets the class from ``exception_class``, not one its message quotes."""
    found = [e.exception_type for e in _entries()]
    assert found == ["OutOfBoundsException", "RuntimeException", "Error", "OutOfBoundsException"]
    wrapped = _entries()[1]
    assert "Doctrine\\DBAL\\Exception\\ConnectionException:" in wrapped.message  # quoted, and loses


def test_throw_site_from_file_and_line() -> None:
    """Without a logged trace, ``file`` and ``line`` give the throw site as frame #0."""
    payload = build_payload(_entries()[0], _config(TrustZone.LOCAL), project_root=RAN_IN)
    assert payload.exception_type == "OutOfBoundsException"
    assert [f.describe() for f in payload.frames] == ["#0 typo3_exception_handler.php:93"]
    assert "Exception class: OutOfBoundsException" in payload.render()


def test_private_hosted_sends_class_and_throw_site() -> None:
    """Under private_hosted the message is withheld, but class and frame still go: no refusal."""
    for entry in _entries():
        payload = build_payload(entry, _config(TrustZone.PRIVATE_HOSTED), project_root=RAN_IN)
        assert payload.message_withheld
        assert payload.exception_type == entry.exception_type
        assert payload.frames
        assert "Page 4" not in payload.render()


def test_without_the_keys_it_is_refused(tmp_path: Path) -> None:
    """The same line with the keys taken out has nothing to send under private_hosted."""
    line = LOG.read_text(encoding="utf-8").splitlines()[0]
    head, _, _ = line.rpartition(" - {")
    bare = tmp_path / "typo3.log"
    bare.write_text(head + ' - {"mode":"WEB"}\n', encoding="utf-8")
    (entry,) = logs.read([str(bare)], limit=5)
    with pytest.raises(ExplainRefused, match="nothing to send"):
        build_payload(entry, _config(TrustZone.PRIVATE_HOSTED), project_root=RAN_IN)


def test_php_frames_keep_their_class() -> None:
    """PHP frames are sent as the trace printed them: ``Class->method``, not ``method``."""
    traced = _entries()[3]  # logged with $logExceptionStackTrace on
    payload = build_payload(traced, _config(TrustZone.LOCAL), project_root=RAN_IN)
    functions = [f.function for f in payload.frames]
    assert functions[0] == "Vendor\\Shop\\Controller\\PageController->show"
    assert "Vendor\\Shop\\Controller\\{closure}" in functions


def test_other_languages_keep_their_qualified_names() -> None:
    """The same mechanism on traces it was not written from: Java and Monolog's PHP."""
    fixtures = Path(__file__).parents[1] / "logs" / "fixtures"
    java = next(
        e for e in logs.read([str(fixtures / "logback" / "app.log")], limit=10)
        if e.trace.root_cause and e.trace.root_cause.frames
    )
    sent = build_payload(java, _config(TrustZone.LOCAL)).frames
    assert any(f.function and "." in f.function for f in sent), [f.describe() for f in sent]
    for f in sent:
        assert f.function is None or f.function in java.trace_text
    monolog = logs.read([str(fixtures / "monolog" / "monolog.log")], limit=5)
    php = [f for e in monolog for f in build_payload(e, _config(TrustZone.LOCAL)).frames]
    qualified = [f.function for f in php if f.function and ("->" in f.function or "::" in f.function)]
    assert qualified, [f.describe() for f in php]
