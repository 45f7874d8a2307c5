"""One key convention per family (docs/rules.md, "Key conventions"), followed by every rule and
signal of the family: on every example and every captured fixture, and on targeted inputs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import hintline
from hintline import RULES
from hintline.categories import Category
from hintline.cleaner.signals import CONVENTIONS, KEY_SHAPES, SIGNALS, family_of

FIXTURES = Path(__file__).parent / "fixtures"
ALL_FIXTURES = sorted(FIXTURES.glob("*/*.txt"))
EXAMPLES = [
    pytest.param(entry, i, id=f"{entry.code}-{i}")
    for entry in (*RULES, *SIGNALS)
    for i in range(len(entry.examples))
]
_HOST_PORT = re.compile(r"(?:\[[0-9A-Fa-f:]+\]|[A-Za-z0-9.-]+):\d{1,5}")


def _check(category: Category, key: str | None, text: str, source: str) -> None:
    family = family_of(category)
    if key is None or family is None:
        return
    if family == "http":
        assert key.startswith("/"), (source, key)
        assert "?" not in key, (source, key)  # the query is dropped
        assert "#" not in key, (source, key)
    if family == "network":
        assert not key.isdigit(), (source, key)  # never the port alone
    if family in ("http", "network", "dns", "filesystem"):
        assert key in text.replace("\\\\", "\\"), (source, key)  # the hint names it
    if family == "filesystem":
        assert not key.endswith(":"), (source, key)


def test_every_family_with_a_key_shape_is_documented() -> None:
    assert set(KEY_SHAPES) <= set(CONVENTIONS)
    for family in ("http", "network", "dns", "filesystem", "constraint", "validation", "number"):
        assert CONVENTIONS[family].strip()


@pytest.mark.parametrize(("entry", "i"), EXAMPLES)
def test_example_follows_its_family_convention(entry: object, i: int) -> None:
    example = entry.examples[i]  # type: ignore[attr-defined]
    hint = hintline.clean(example.input)
    _check(hint.category, hint.key, hint.text, f"{entry.code}-{i}")  # type: ignore[attr-defined]


@pytest.mark.parametrize("path", ALL_FIXTURES, ids=[f"{p.parent.name}/{p.stem}" for p in ALL_FIXTURES])
def test_fixture_follows_its_family_convention(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    hint = hintline.clean(text)
    _check(hint.category, hint.key, hint.text, path.name)
    columns = re.search(r"Key \(([^()\n]+, [^()\n]+)\)=\(", text)
    if columns and hint.category in (Category.UNIQUE_VIOLATION, Category.FOREIGN_KEY_VIOLATION):
        assert hint.key == columns.group(1), path.name  # every column of a multi-column key
    if hint.category is Category.DNS_FAILURE and hint.key is not None:
        assert not hint.key.isdigit()


CASES = [
    # (input, category, key): the shapes each convention names
    ("cat: /srv/data/notes.txt: No such file or directory", Category.FILE_NOT_FOUND, "/srv/data/notes.txt"),
    ("tar: /srv/backups/db.tar: Cannot open: No such file or directory", Category.FILE_NOT_FOUND, "/srv/backups/db.tar"),
    ("bash: line 1: /etc/shadow: Permission denied", Category.PERMISSION_DENIED, "/etc/shadow"),
    ("dd: error writing '/dev/full': No space left on device", Category.DISK_FULL, "/dev/full"),
    ("cp: cannot stat 'x/report.csv': No such file or directory", Category.FILE_NOT_FOUND, "x/report.csv"),
    (
        "requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: http://api.test/v1/reports?token=abc",
        Category.HTTP_UNAUTHORIZED,
        "/v1/reports",
    ),
    (
        "Error: connect ECONNREFUSED 10.0.0.7:5432\n    at TCPConnectWrapper.afterConnect [as oncomplete] (node:net:1555:16)",
        Category.CONNECTION_REFUSED,
        "10.0.0.7:5432",
    ),
    ("ssh: Could not resolve hostname db.internal.test: Name or service not known", Category.DNS_FAILURE, "db.internal.test"),
]


@pytest.mark.parametrize(("text", "category", "key"), CASES, ids=[c[0][:30] for c in CASES])
def test_convention_shapes(text: str, category: Category, key: str) -> None:
    hint = hintline.clean(text)
    assert (hint.category, hint.key) == (category, key), hint.text
    assert key in hint.text


def test_a_frame_is_never_the_key() -> None:
    text = (
        'Traceback (most recent call last):\n  File "/srv/app/export.py", line 9, in <module>\n'
        "    f.write(data)\nOSError: [Errno 28] No space left on device"
    )
    assert hintline.clean(text).key is None
    java = "java.net.ConnectException: Connection refused\n\tat java.base/sun.nio.ch.Net.connect0(Net.java:672)"
    assert hintline.clean(java).key is None


def test_a_suggestion_is_never_the_key() -> None:
    text = (
        "error: Spalte »emial« existiert nicht\n  code: '42703',\n"
        "  hint: 'Vielleicht wurde beabsichtigt, auf die Spalte »users.email« zu verweisen.',"
    )
    assert hintline.clean(text).key == "emial"
