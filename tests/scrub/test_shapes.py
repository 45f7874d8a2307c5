"""Issue 14 §4: shapes that leaked, and false positives that made a hint worse.

Each shape is checked on both paths of the scrubber (the prefiltered fast path and the full
pass) and in a text it was not written from (inside a longer log line, next to other secrets).
"""

from __future__ import annotations

import subprocess

import pytest

from hintline.scrub import SECRETS, Scrubber, scrub

FULL = Scrubber()

# (text, the secret value that must not survive)
LEAKS = [
    ("mysql -uroot -pS3cretPw1 shop", "S3cretPw1"),
    ("ERROR 1045 after `mysqladmin --host=db -u app -pHunter2x status`", "Hunter2x"),
    ("subprocess.CalledProcessError: Command '['mariadb', '-uapp', '-pZq9xW2v', '-e', 'SELECT 1']'", "Zq9xW2v"),
    ('{\n  "user": "app",\n  "password":\n    "S3cretPw1"\n}', "S3cretPw1"),
    ("settings = {\n    'api_key':\n        'abc123def456ghi',\n}", "abc123def456ghi"),
    ("form=ImmutableMultiDict([('user', 'app'), ('password', 'S3cretPw1')])", "S3cretPw1"),
    ("parse_qsl -> [('grant_type', 'password'), ('client_secret', 'Zm9vYmFy42xx')]", "Zm9vYmFy42xx"),
    ('headers=[("Content-Type", "json"), ("X-Api-Key", "9f8e7d6c5b4a3")]', "9f8e7d6c5b4a3"),
    ("GET /login?next=postgresql%3A%2F%2Fapp%3AS3cretPw1%40db%3A5432%2Fshop HTTP/1.1", "S3cretPw1"),
    ("302 to /sso?return=https%3a%2f%2fbot%3ahunter2%2521%40hooks.example.com%2f", "hunter2%2521"),
    (
        (
            "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkw\n"
            "    IiwibmFtZSI6IkpvaG4gRG9lIn0.SflKxwRJSMeKKF2QT4fw"
        ),
        "IiwibmFtZSI6IkpvaG4gRG9lIn0",
    ),
    ("retry with bearer 4f9a8b7c6d5e4f3a2b1c9d8e7f\n6a5b4c3d2e1f0a9b8c7d\n", "6a5b4c3d2e1f0a9b8c7d"),
    ("postgressql://app:S3cretPw1@db:5432/shop", "S3cretPw1"),
    ("postgresql:/app:S3cretPw1@db:5432/shop", "S3cretPw1"),
    ("DATABASE_URL=postgres//app:S3cretPw1@db.internal/shop", "S3cretPw1"),
    ("could not connect to app:S3cretPw1@10.0.0.7:6432 (timeout)", "S3cretPw1"),
    # a YAML block scalar: the value on the next, indented line (the YAML spec's `|`, `>`,
    # chomping and indentation indicators, a comment after them); test_yaml_shapes_are_real
    # checks that a YAML parser reads the secret out of each
    ("db:\n  user: app\n  password: |\n    S3cretPw1\n  host: db\n", "S3cretPw1"),
    ("api_key: >-\n  Zm9vYmFyYmF6cXV4\nregion: eu\n", "Zm9vYmFyYmF6cXV4"),
    ("client_secret: |2  # rotated monthly\n    Zq9xW2vT7kL3\n", "Zq9xW2vT7kL3"),
    # ... and its later lines: every line indented at least as far as the first is the value
    # (a folded password, a token in fixed-width lines; a blank line inside ends the mask)
    ("db:\n  password: |\n    S3cretPw1\n    Tail9xQ2\n  host: db\n", "Tail9xQ2"),
    ("token: >-\n  Zm9vYmFyYmF6cXV4\n  MTIzNDU2Nzg5MGFi\n  Y2RlZmdoaWpr\nregion: eu\n", "Y2RlZmdoaWpr"),
    ("api_key: |\n  first-part\n    deeper-part-4711\nnext: 1\n", "deeper-part-4711"),
    # written for the second pass over the shapes (issue 14 §4, variants): a bytes or
    # str literal, short key names of .env files, a Kubernetes env entry in
    # YAML and JSON, the user glued to curl's -u
    ("{'password': b'Xq7vR2pLw9', 'user': 'app'}", "Xq7vR2pLw9"),
    ("settings: {\"token\": u\"Xq7vR2pLw9\"}", "Xq7vR2pLw9"),
    ("export DB_PASS=Xq7vR2pLw9", "Xq7vR2pLw9"),
    ("smtp:\n  smtp_pass: Xq7vR2pLw9\n", "Xq7vR2pLw9"),
    ("REDIS_PW=Xq7vR2pLw9 redis-cli ping", "Xq7vR2pLw9"),
    ("env:\n- name: DB_PASSWORD\n  value: \"Xq7vR2pLw9\"\n- name: DB_HOST\n  value: db\n", "Xq7vR2pLw9"),
    ('"environment": [{"name": "STRIPE_API_KEY", "value": "Xq7vR2pLw9"}]', "Xq7vR2pLw9"),
    ("curl -uapp:Xq7vR2pLw9 http://127.0.0.1/", "Xq7vR2pLw9"),
    ("curl --user=app:Xq7vR2pLw9 http://127.0.0.1/", "Xq7vR2pLw9"),
    # a long bare value wrapped, the rest alone on the next line (as a bearer token wrapped)
    ("refresh failed: token=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFi\n    Y2RlZmdoaWprbG1u0\n", "Y2RlZmdoaWprbG1u0"),
]

# texts that must come out unchanged
KEEP = [
    "Session: expired",
    "401 Unauthorized: token: invalid",
    "auth: required",
    "usage: deploy --password <PASSWORD> --user <USER>",
    "GET /items?key=color&page=2",
    "GET /items?sort=key&key=name",
    "mysql -uroot -p shop",
    "ssh -p2222 deploy@host",
    "fields=('password', 'username')",
    "git@github.com:org/repo.git",
    "mail admin@example.com at 10:30",
    "GET /login?next=https%3A%2F%2Fexample.com%2Fhome",
    # a YAML block indicator is no value; a shell pipe after a key is no block scalar
    "password: |\nnext: 1\n",
    "echo password: | grep -v secret",
    "session: closed",
    "pass: 3/5 tests",
    "- name: TOKEN_TTL\n  value: 300\n",
    "curl -u app http://127.0.0.1/",
]


YAML_SHAPES = [(text, secret) for text, secret in LEAKS if ": |" in text or ": >" in text]


@pytest.mark.parametrize(("text", "secret"), YAML_SHAPES)
def test_yaml_shapes_are_real(text: str, secret: str) -> None:
    """Each YAML shape above is YAML whose value holds the secret (PyYAML reads it)."""
    yaml = pytest.importorskip("yaml")

    def values(node: object) -> list[str]:
        if isinstance(node, dict):
            return [v for x in node.values() for v in values(x)]
        return [str(node)]

    assert any(secret in v for v in values(yaml.safe_load(text)))


@pytest.mark.parametrize(
    "line",
    [
        "2024-05-01 12:00:01 ERROR bad settings {{'user': 'app', 'password': '{v}', 'retries': 3}}",
        '2024-05-01 12:00:01 ERROR rejected {{"user": "app", "api_key": "{v}"}}',
    ],
)
@pytest.mark.parametrize("kept", [0, 1, 10, 30, 47])
def test_a_quoted_value_folded_onto_the_next_line_is_masked(line: str, kept: int) -> None:
    """A long log line broken at a fixed width (coreutils ``fold``, as a pager, a terminal copy or
    a line-length limit of a log shipper does) cuts the quoted value in two: neither half
    survives, wherever the cut falls (``kept`` characters of it on the first line)."""
    value = "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1u"
    text = line.format(v=value)
    width = text.index(value) + kept
    folded = subprocess.run(["fold", "-w", str(width)], input=text + "\n", capture_output=True,
                            text=True, check=True).stdout
    assert value[kept:] in folded.splitlines()[1]
    for fast in (True, False):
        out = FULL._report(folded, fast=fast).text
        for i in range(len(value) - 5):
            assert value[i : i + 6] not in out, (value[i : i + 6], out)


def test_a_short_value_does_not_take_the_next_line() -> None:
    """Only a long first part running to the line's end is taken as wrapped."""
    out = scrub("token=abc123\nnext line 123\n")
    assert out == "token=***\nnext line 123\n"
    out = scrub("password: Zm9vYmFyYmF6cXV4MTIzNDU2\n2024-05-01 12:00:01 INFO next request\n")
    assert out.endswith("\n2024-05-01 12:00:01 INFO next request\n")


@pytest.mark.parametrize(("text", "secret"), LEAKS)
@pytest.mark.parametrize("fast", [True, False], ids=["fast", "full"])
def test_shape_is_masked(text: str, secret: str, fast: bool) -> None:
    out = FULL._report(text, fast=fast).text
    assert secret not in out, out
    # no 6-character piece of the secret survives either
    for i in range(len(secret) - 5):
        assert secret[i : i + 6] not in out, (secret[i : i + 6], out)


@pytest.mark.parametrize(("text", "secret"), LEAKS)
def test_shape_is_masked_inside_a_log(text: str, secret: str) -> None:
    """The same shape in the middle of a log, after other lines and before others."""
    log = f"2024-05-01 12:00:00 INFO start\n2024-05-01 12:00:01 ERROR failed: {text}\n2024-05-01 12:00:02 INFO done\n"
    out = scrub(log)
    assert secret not in out
    assert out.endswith("INFO done\n")


@pytest.mark.parametrize("text", KEEP)
def test_false_positive_is_left_alone(text: str) -> None:
    assert scrub(text) == text
    assert FULL._report(text, fast=False).text == text


def test_a_wrapped_token_does_not_swallow_the_next_record() -> None:
    """A token at the end of a line followed by an ordinary log line: only the token goes."""
    text = (
        "2024-05-01 12:00:00 ERROR call failed Authorization: Bearer eyJhbGciOiJIUzI1NiJ9abcdefgh\n"
        "2024-05-01 12:00:01 INFO next request\n"
    )
    out = scrub(text)
    assert "eyJhbGciOiJIUzI1NiJ9abcdefgh" not in out
    assert "2024-05-01 12:00:01 INFO next request\n" in out


def test_status_words_mask_a_real_value() -> None:
    """Status words are skipped only as the whole value: `password: expired1` is a value."""
    assert "expired1" not in scrub("password: expired1")
    assert "okapi99" not in scrub("token=okapi99")


def test_weak_query_names_still_mask_generated_values() -> None:
    assert "AIzaSyD" not in scrub("GET /geo?key=AIzaSyD-example-value")
    assert "abcdefghijklmnopqrstuvwx" not in scrub("GET /feed?key=abcdefghijklmnopqrstuvwx")
    assert "hunter" not in scrub("GET /reset?password=hunter")  # a strong name: anything goes


NEW = {
    "key-value-pair",
    "query-key",
    "url-credentials-encoded",
    "host-credentials",
    "mysql-password",
}


def _constructs(pattern: str) -> set[str]:
    """The names of the regex constructs in ``pattern`` RE2 cannot run."""
    from re import _parser  # type: ignore[attr-defined]

    bad = {"ASSERT", "ASSERT_NOT", "GROUPREF", "GROUPREF_EXISTS", "POSSESSIVE_REPEAT", "ATOMIC_GROUP"}
    found: set[str] = set()

    def walk(items: object) -> None:
        for op, arg in items:  # type: ignore[attr-defined]
            if str(op) in bad:
                found.add(str(op))
            for sub in arg if isinstance(arg, (list, tuple)) else (arg,):
                if isinstance(sub, _parser.SubPattern):
                    walk(sub)
                elif isinstance(sub, (list, tuple)):
                    for x in sub:
                        if isinstance(x, _parser.SubPattern):
                            walk(x)

    walk(_parser.parse(pattern))
    return found


@pytest.mark.parametrize("pattern", [p for p in SECRETS if p.name in NEW], ids=lambda p: p.name)
def test_new_pattern_has_no_lookaround_of_its_own(pattern: object) -> None:
    """The new patterns add no look-around, backreference or possessive quantifier (RE2 takes
    them); the shared building blocks they reuse (key names, quoted values) are rewritten with
    the rest of the table."""
    from hintline.scrub._names import name_regex
    from hintline.scrub._patterns import _QUOTED_VALUE, KEY_NAMES

    text = pattern.pattern  # type: ignore[attr-defined]
    own = text.replace(_QUOTED_VALUE, "(?:x)").replace(name_regex(KEY_NAMES), "(?:y)")
    assert _constructs(own) == set(), own
    assert _constructs(text) <= {"ASSERT", "ASSERT_NOT"}  # the shared blocks' only
