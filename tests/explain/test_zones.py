"""Data classes, trust zones and their defaults."""

from __future__ import annotations

import pytest

from hintline.explain import DataClass, TrustZone, default_zone

ORDER = (
    "public_content",
    "editor_content",
    "source_code",
    "internal_configuration",
    "system_diagnostics",
    "secret_adjacent",
)


class TestDataClass:
    def test_ranks_least_to_most_sensitive(self):
        """The classes rank public_content < … < secret_adjacent."""
        assert [c.label for c in sorted(DataClass)] == list(ORDER)


class TestTrustZone:
    @pytest.mark.parametrize(
        ("zone", "ceiling"),
        [
            (TrustZone.LOCAL, DataClass.SECRET_ADJACENT),
            (TrustZone.PRIVATE_HOSTED, DataClass.SYSTEM_DIAGNOSTICS),
            (TrustZone.EXTERNAL_EU, DataClass.INTERNAL_CONFIGURATION),
            (TrustZone.EXTERNAL_GLOBAL, DataClass.EDITOR_CONTENT),
        ],
    )
    def test_ceiling_and_permits(self, zone, ceiling):
        """Each zone permits exactly the classes up to its ceiling."""
        assert zone.ceiling is ceiling
        for data_class in DataClass:
            assert zone.permits(data_class) is (data_class <= ceiling)

    @pytest.mark.parametrize("value", ["Local", "LOCAL", " local", "", "eu", None, 3, "private"])
    def test_unknown_or_missing_zone_is_external_global(self, value):
        """A typo makes the zone stricter, never looser."""
        assert TrustZone.parse(value) is TrustZone.EXTERNAL_GLOBAL

    @pytest.mark.parametrize("zone", list(TrustZone))
    def test_parses_its_own_names(self, zone):
        """Every zone reads back from its name."""
        assert TrustZone.parse(zone.value) is zone


class TestDefaultZone:
    @pytest.mark.parametrize(
        "url",
        [
            "http://127.0.0.1:8080/v1",
            "http://127.8.9.10/v1",
            "http://localhost:11434/v1",
            "http://[::1]:8000/v1",
        ],
    )
    def test_loopback_is_local(self, url):
        """A provider on a loopback address defaults to local."""
        assert default_zone(url) is TrustZone.LOCAL

    @pytest.mark.parametrize(
        "url",
        [
            "https://api.openai.com/v1",
            "http://10.0.0.5:8080/v1",
            "http://0.0.0.0:8080/v1",
            "http://127.0.0.1.nip.io/v1",
            "http://gpu.internal/v1",
            "not a url",
        ],
    )
    def test_everything_else_is_external_global(self, url):
        """Every non-loopback provider defaults to external_global, private addresses too."""
        assert default_zone(url) is TrustZone.EXTERNAL_GLOBAL
