"""What is sent: the trust-zone matrix, the withheld message, the refusal, frame selection."""

from __future__ import annotations

import pytest

from hintline.exceptions import ExplainRefused
from hintline.explain import (
    MAX_FRAMES,
    Configuration,
    SqliteUsageStore,
    TrustZone,
    build_payload,
    explain,
)

from ._support import DB_PASSWORD, DSN, FixedProvider, frame, make_entry

ROOT = "/srv/shop"
FRAMES = (
    frame("/usr/lib/python3.11/json/decoder.py", 355, "raw_decode", in_app=False),
    frame(f"{ROOT}/app/orders.py", 5, "parse_order"),
    frame(f"{ROOT}/app/service.py", 11, "handle"),
)


def config(zone: TrustZone, source: str = "configured") -> Configuration:
    return Configuration(name=f"cfg-{zone}", base_url="https://llm.example.com/v1", zone=zone,
                         zone_source=source)


def entry_with_secret():
    return make_entry(
        message=f"order import failed for {DSN}",
        exception_type="JSONDecodeError",
        exception_message="Expecting property name enclosed in double quotes",
        frames=FRAMES,
    )


def ask(zone: TrustZone, entry=None, tmp_path=None):
    provider = FixedProvider.answering("bad JSON", "validate input", 1)
    store = SqliteUsageStore(tmp_path / "usage.sqlite3")
    result = explain(entry or entry_with_secret(), configuration=config(zone),
                     project_root=ROOT, provider=provider, usage=store)
    return result, provider, store


class TestTrustZoneMatrix:
    def test_local_gets_class_frames_and_scrubbed_message(self, tmp_path):
        """local: everything is sent; the message is scrubbed; the hint is not marked withheld."""
        result, provider, _ = ask(TrustZone.LOCAL, tmp_path=tmp_path)
        (request,) = provider.requests
        text = request.messages[1].content
        assert "JSONDecodeError" in text
        assert "order import failed for postgresql://" in text
        assert "Expecting property name" in text
        assert "#1 app/orders.py:5 in parse_order" in text
        assert DB_PASSWORD not in text
        assert result.message_withheld is False
        assert result.withheld_note is None

    def test_private_hosted_gets_frames_without_message(self, tmp_path):
        """private_hosted: class and frames are sent, the message is withheld and the hint says so."""
        result, provider, _ = ask(TrustZone.PRIVATE_HOSTED, tmp_path=tmp_path)
        (request,) = provider.requests
        text = request.messages[1].content
        assert "JSONDecodeError" in text
        assert "#2 app/service.py:11 in handle" in text
        assert "order import failed" not in text
        assert "Expecting property name" not in text
        assert "postgresql" not in text
        assert "withheld" in text
        assert result.message_withheld is True
        assert result.withheld_note == (
            "Made without the log message: trust zone private_hosted may not receive it "
            "(at most system_diagnostics)."
        )
        assert result.sent.message is None
        assert result.sent.exception_message is None

    @pytest.mark.parametrize("zone", [TrustZone.EXTERNAL_EU, TrustZone.EXTERNAL_GLOBAL])
    def test_external_zones_are_refused_without_asking(self, zone, tmp_path):
        """external_eu and external_global: no model is asked, no usage recorded, the zone is named."""
        with pytest.raises(ExplainRefused) as refused:
            ask(zone, tmp_path=tmp_path)
        message = str(refused.value)
        assert f"trust zone {zone}" in message
        assert f"may receive at most {zone.ceiling}" in message
        assert 'set zone = "private_hosted"' in message
        assert "\n" not in message
        assert not (tmp_path / "usage.sqlite3").exists()

    def test_refusal_explains_a_default_zone(self):
        """A remote provider without a zone is refused, and the message says it was the default."""
        with pytest.raises(ExplainRefused, match="the default for a non-loopback host"):
            build_payload(entry_with_secret(), config(TrustZone.EXTERNAL_GLOBAL, "default"))

    def test_refusal_explains_an_unknown_zone(self):
        """A misspelt zone is named in the refusal."""
        with pytest.raises(ExplainRefused, match="configured zone is 'locl', which is unknown"):
            build_payload(entry_with_secret(), config(TrustZone.EXTERNAL_GLOBAL, "unknown 'locl'"))


class TestNothingToSend:
    def test_message_only_entry_is_not_sent_to_private_hosted(self, tmp_path):
        """No class, no frame and a message the zone may not receive: nothing is sent at all."""
        entry = make_entry(message=f"cannot reach {DSN}", exception_type=None)
        with pytest.raises(ExplainRefused, match="nothing to send"):
            ask(TrustZone.PRIVATE_HOSTED, entry=entry, tmp_path=tmp_path)

    def test_message_only_entry_is_sent_to_local(self, tmp_path):
        """The same entry goes to a local provider, scrubbed."""
        entry = make_entry(message=f"cannot reach {DSN}", exception_type=None)
        result, provider, _ = ask(TrustZone.LOCAL, entry=entry, tmp_path=tmp_path)
        text = provider.requests[0].messages[1].content
        assert "cannot reach postgresql://" in text
        assert DB_PASSWORD not in text
        assert result.anchored is False  # frame 1 does not exist: a guess

    def test_empty_entry_is_never_sent(self):
        """An entry with nothing in it is refused even for local."""
        entry = make_entry(message="  ", exception_type=None)
        with pytest.raises(ExplainRefused, match="its message is empty"):
            build_payload(entry, config(TrustZone.LOCAL))


class TestFrames:
    def test_at_most_twenty_frames_throw_site_and_project_first(self):
        """A deep trace is cut to 20 frames: the throw site, the project's frames, then others."""
        deep = (
            frame("/venv/lib/site-packages/lib.py", 1, "inner", in_app=False),
            *(frame(f"/venv/lib/site-packages/lib{i}.py", i, "f", in_app=False) for i in range(30)),
            *(frame(f"{ROOT}/app/m{i}.py", i, "g") for i in range(5)),
        )
        payload = build_payload(make_entry(frames=deep), config(TrustZone.LOCAL), project_root=ROOT)
        assert len(payload.frames) == MAX_FRAMES
        assert payload.origin[0] == deep[0]
        assert sum(f.in_app for f in payload.origin) == 5
        assert [f.index for f in payload.frames] == list(range(MAX_FRAMES))
        order = [deep.index(f) for f in payload.origin]
        assert order == sorted(order)

    def test_call_arguments_are_cut_and_no_source_line_is_sent(self):
        """A PHP frame's call with arguments keeps only the function."""
        php = frame("/var/www/src/Repo.php", 42, "App\\Repo->find('hunter2', Array)",
                    language="php")
        payload = build_payload(make_entry(frames=(php,)), config(TrustZone.LOCAL))
        assert payload.frames[0].function == "App\\Repo->find"
        assert "hunter2" not in payload.render()

    def test_paths_inside_the_project_are_relative(self):
        """A path inside the project root is sent relative to it; others as printed."""
        payload = build_payload(make_entry(frames=FRAMES), config(TrustZone.LOCAL),
                                project_root=ROOT)
        assert [f.file for f in payload.frames] == [
            "/usr/lib/python3.11/json/decoder.py",
            "app/orders.py",
            "app/service.py",
        ]

    def test_secret_in_a_path_is_scrubbed(self):
        """A credential in a frame's path outside the project is scrubbed before it is sent."""
        odd = frame(f"/mnt/{DSN}/job.py", 3, "run", in_app=False)
        payload = build_payload(make_entry(frames=(odd,)), config(TrustZone.LOCAL),
                                project_root=ROOT)
        assert DB_PASSWORD not in payload.render()
