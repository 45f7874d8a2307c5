"""Data classes and trust zones: who may receive what.

Data classes are ranked least to most sensitive; a provider's trust zone has a ceiling, the most
sensitive class it may receive. The exception class and the frames of an entry are
:attr:`DataClass.SYSTEM_DIAGNOSTICS`; its message is :attr:`DataClass.SECRET_ADJACENT` (a message
sits next to connection strings and tokens even after scrubbing).

=================  =========================
zone               most sensitive class sent
=================  =========================
local              secret_adjacent
private_hosted     system_diagnostics
external_eu        internal_configuration
external_global    editor_content
=================  =========================

A provider on a loopback address defaults to ``local``; every other provider defaults to
``external_global`` until the operator sets its zone in the configuration. An unknown or missing
zone counts as ``external_global``: the ladder fails closed.
"""

from __future__ import annotations

import ipaddress
from enum import Enum
from urllib.parse import urlsplit

__all__ = ["DataClass", "TrustZone", "default_zone", "is_loopback_url"]


class DataClass(int, Enum):
    """How sensitive a piece of data is, least (0) to most (5) sensitive."""

    PUBLIC_CONTENT = 0
    EDITOR_CONTENT = 1
    SOURCE_CODE = 2
    INTERNAL_CONFIGURATION = 3
    SYSTEM_DIAGNOSTICS = 4
    """Environment, logs, exception classes and stack frames."""
    SECRET_ADJACENT = 5
    """Exception messages, vault references, account data."""

    @property
    def label(self) -> str:
        """The snake_case name used in configurations and output (``system_diagnostics``)."""
        return self.name.lower()

    def __str__(self) -> str:
        return self.label


class TrustZone(str, Enum):  # noqa: UP042 - its str() and format() stay what callers print
    """Where a provider runs, and so the most sensitive :class:`DataClass` it may receive."""

    LOCAL = "local"
    """On this machine or a loopback address."""
    PRIVATE_HOSTED = "private_hosted"
    """Hosted by the organisation itself (its own GPU server, a private endpoint)."""
    EXTERNAL_EU = "external_eu"
    """A third party bound by EU data protection law."""
    EXTERNAL_GLOBAL = "external_global"
    """Any other third party; also every unknown or missing zone."""

    def __str__(self) -> str:
        return str(self.value)

    @property
    def ceiling(self) -> DataClass:
        """The most sensitive data class this zone may receive."""
        return _CEILING[self]

    def permits(self, data_class: DataClass) -> bool:
        """Whether data of ``data_class`` may be sent to a provider in this zone."""
        return data_class <= self.ceiling

    @classmethod
    def parse(cls, value: object) -> TrustZone:
        """Read a zone name; anything unknown, empty or not a string is ``external_global``.

        Matching is exact (``local``, not ``Local``), as a zone is a security decision: a typo
        must make the zone stricter, never looser.
        """
        if isinstance(value, TrustZone):
            return value
        if isinstance(value, str):
            for zone in cls:
                if zone.value == value:
                    return zone
        return cls.EXTERNAL_GLOBAL


_CEILING = {
    TrustZone.LOCAL: DataClass.SECRET_ADJACENT,
    TrustZone.PRIVATE_HOSTED: DataClass.SYSTEM_DIAGNOSTICS,
    TrustZone.EXTERNAL_EU: DataClass.INTERNAL_CONFIGURATION,
    TrustZone.EXTERNAL_GLOBAL: DataClass.EDITOR_CONTENT,
}


def is_loopback_url(url: str) -> bool:
    """Whether ``url``'s host is a loopback address (``127.0.0.0/8``, ``::1``, ``localhost``).

    Host names other than ``localhost`` are not resolved: a name could point anywhere later.
    """
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return False
    if not host:
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def default_zone(base_url: str) -> TrustZone:
    """The zone of a provider whose configuration names none: ``local`` on loopback, else
    ``external_global``."""
    return TrustZone.LOCAL if is_loopback_url(base_url) else TrustZone.EXTERNAL_GLOBAL
