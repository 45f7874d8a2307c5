"""Property tests: random secrets of every shape, in random error contexts, never survive."""

from __future__ import annotations

import base64
import json
import string

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from hintline import clean
from hintline.scrub import KEY_NAMES, QUERY_NAMES, Scrubber, scrub
from tests.scrub.compiling import Compiling

FULL = Scrubber()
if FULL._prefilter is not None:  # a cold cache compiles it in the background: test it
    assert FULL._prefilter.wait(600)
SCREENED = Scrubber()  # as while the database compiles: the triggers are searched with re
object.__setattr__(SCREENED, "_prefilter", Compiling())
ALNUM = string.ascii_letters + string.digits
UPPER32 = string.ascii_uppercase + "234567"
B64URL = ALNUM + "_-"
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def chars(alphabet: str, n: int, m: int | None = None) -> st.SearchStrategy[str]:
    return st.text(alphabet=alphabet, min_size=n, max_size=n if m is None else m)


def with_digit(s: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.tuples(s, st.sampled_from(string.digits)).map(lambda t: t[0] + t[1])


PASSWORD = with_digit(chars(ALNUM + "!$%*+,.:;=^_~-", 7, 24))  # URL userinfo-safe characters
VALUE = with_digit(chars(ALNUM + "._~-+/", 7, 40))


def spellings(name: str) -> st.SearchStrategy[str]:
    words = name.split()
    return st.sampled_from([
        "_".join(words), "-".join(words), "".join(words), "_".join(words).upper(),
        words[0] + "".join(w.capitalize() for w in words[1:]),
        "".join(w.capitalize() for w in words),
    ])


KEY_NAME = st.sampled_from(KEY_NAMES).flatmap(spellings)
KEY_PREFIX = st.sampled_from(["", "x_", "db_", "my.", "AWS_", "app-", "--"])
QUERY_NAME = st.sampled_from(QUERY_NAMES).flatmap(spellings)

# (secret, snippet that carries it)
TOKENS: list[st.SearchStrategy[tuple[str, str]]] = [
    chars(UPPER32, 16).map(lambda s: ("AKIA" + s, "AKIA" + s)),
    chars(UPPER32, 16).map(lambda s: ("ASIA" + s, "ASIA" + s)),
    st.tuples(st.sampled_from("pousr"), chars(ALNUM, 36)).map(lambda t: (f"gh{t[0]}_{t[1]}",) * 2),
    chars(ALNUM + "_", 82).map(lambda s: ("github_pat_" + s,) * 2),
    chars(ALNUM + "_-", 20, 30).map(lambda s: ("glpat-" + s,) * 2),
    st.tuples(chars(string.digits, 10, 13), chars(string.digits, 10, 13), chars(ALNUM, 24)).map(
        lambda t: (f"xoxb-{t[0]}-{t[1]}-{t[2]}",) * 2
    ),
    st.tuples(st.sampled_from(["sk_live_", "rk_live_", "sk_test_", "rk_test_"]), chars(ALNUM, 24, 99)).map(
        lambda t: (t[0] + t[1],) * 2
    ),
    st.tuples(st.sampled_from(["sk-", "sk-proj-", "sk-svcacct-"]), with_digit(chars(B64URL, 40, 120))).map(
        lambda t: (t[0] + t[1],) * 2
    ),
    chars(B64URL, 93).map(lambda s: (f"sk-ant-api03-{s}AA",) * 2),
    chars(B64URL, 35).map(lambda s: ("AIza" + s,) * 2),
    chars(ALNUM, 36).map(lambda s: ("npm_" + s,) * 2),
    chars(B64URL, 60, 150).map(lambda s: ("pypi-AgEIcHlwaS5vcmc" + s,) * 2),
    chars(string.ascii_letters, 34).map(lambda s: ("hf_" + s,) * 2),
    st.tuples(chars(B64URL, 22), chars(B64URL, 43)).map(lambda t: (f"SG.{t[0]}.{t[1]}",) * 2),
    st.tuples(st.dictionaries(st.sampled_from(["sub", "name", "iat", "role"]), st.integers(0, 10**9), min_size=1),
              chars(B64URL, 43)).map(
        lambda t: (
            jwt := "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
            + base64.urlsafe_b64encode(json.dumps(t[0]).encode()).decode().rstrip("=") + "." + t[1],
            jwt,
        )
    ),
    chars(ALNUM + "/+", 40).map(lambda s: (s, f"aws_secret_access_key = {s}")),
    chars(ALNUM + "/+", 86).map(lambda s: (s, f"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={s}==;EndpointSuffix=core.windows.net")),
    st.lists(chars(ALNUM + "/+", 64), min_size=2, max_size=6).map(
        lambda lines: (
            lines[0],
            "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(lines) + "\n-----END RSA PRIVATE KEY-----",
        )
    ),
]

PAIRS: list[st.SearchStrategy[tuple[str, str]]] = [
    st.tuples(st.sampled_from(["postgresql", "mysql+pymysql", "redis", "amqp", "https", "mongodb+srv"]),
              chars(string.ascii_lowercase, 3, 8), PASSWORD).map(
        lambda t: (t[2], f"{t[0]}://{t[1]}:{t[2]}@db.internal:5432/shop")
    ),
    st.tuples(QUERY_NAME, VALUE).map(lambda t: (t[1], f"https://api.example.com/v1/items?page=2&{t[0]}={t[1]}&sort=asc")),
    st.tuples(KEY_PREFIX, KEY_NAME, VALUE, st.sampled_from(["=", " = ", ": ", "="])).map(
        lambda t: (t[2], f"{t[0]}{t[1]}{t[3]}{t[2]}")
    ),
    st.tuples(KEY_NAME, VALUE).map(lambda t: (t[1], json.dumps({"user": "app", t[0]: t[1], "retries": 3}))),
    st.tuples(KEY_NAME, VALUE).map(lambda t: (t[1], repr({"user": "app", t[0]: t[1]}))),
    st.tuples(KEY_NAME, VALUE).map(lambda t: (t[1], f'    client = connect(host="db", {t[0]}="{t[1]}")')),
    VALUE.map(lambda v: (v, f"host=db port=5432 user=app password={v} dbname=shop")),
    VALUE.map(lambda v: (v, f"jdbc:sqlserver://db:1433;databaseName=shop;user=app;password={v};encrypt=true")),
    VALUE.map(lambda v: (v, f"Authorization: Bearer {v}")),
    VALUE.map(lambda v: (v, f"Authorization: Token {v}")),
    VALUE.map(lambda v: (v, f"Proxy-Authorization: Basic {v}")),
    VALUE.map(lambda v: (v, f"{{'Authorization': 'Bearer {v}', 'Accept': '*/*'}}")),
    VALUE.map(lambda v: (v, f"Cookie: sessionid={v}; theme=dark")),
    VALUE.map(lambda v: (v, f"Set-Cookie: sessionid={v}; Path=/; HttpOnly")),
    VALUE.map(lambda v: (v, f"CREATE ROLE app LOGIN PASSWORD '{v}'")),
]

SHAPES = st.one_of(*TOKENS, *PAIRS)

WORDS = st.lists(st.sampled_from(
    ["error", "failed", "connection", "to", "server", "at", "line", "42", "in", "module", "retry",
     "timeout", "user", "app", "GET", "/v1/items", "HTTP/1.1", "500", "null", "ok", "shop", "db"]
), max_size=8).map(" ".join)

CONTEXTS = st.sampled_from([
    "{pre} {s} {post}",
    "psycopg.OperationalError: {s}\n{post}",
    "Traceback (most recent call last):\n  File \"app.py\", line 12, in <module>\n    {s}\nRuntimeError: {pre}",
    "> GET /v1/items HTTP/1.1\n> Host: 127.0.0.1:8000\n> {s}\n> Accept: */*\n< HTTP/1.1 401 Unauthorized",
    '{{"level": "error", "msg": "{pre}", "detail": {q}}}',
    "2026-11-30 06:12:01,532 ERROR [main] app.db - {s} - {post}",
    "ERROR:  syntax error at or near \"{pre}\"\nSTATEMENT:  SELECT * FROM t WHERE x = 1; {s}",
    "requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: {s}",
    "{s}",
])


def embed(context: str, snippet: str, pre: str, post: str) -> str:
    return context.format(s=snippet, pre=pre, post=post, q=json.dumps(snippet))


@SETTINGS
@given(shape=SHAPES, context=CONTEXTS, pre=WORDS, post=WORDS)
def test_secret_never_survives_scrub(shape: tuple[str, str], context: str, pre: str, post: str) -> None:
    """Any supported secret, in any error context, is gone after scrub()."""
    secret, snippet = shape
    text = embed(context, snippet, pre, post)
    assume(secret not in embed(context, snippet.replace(secret, ""), pre, post))
    out = scrub(text)
    assert secret not in out, (text, out)
    assert scrub(out) == out


@SETTINGS
@given(shape=SHAPES, context=CONTEXTS, pre=WORDS, post=WORDS)
def test_secret_never_survives_clean(shape: tuple[str, str], context: str, pre: str, post: str) -> None:
    """The hint clean() makes of any such error holds no secret, nor does its key."""
    secret, snippet = shape
    text = embed(context, snippet, pre, post)
    hint = clean(text)
    assert secret not in hint.text
    assert hint.key is None or secret not in hint.key


@SETTINGS
@given(shape=SHAPES, context=CONTEXTS, pre=WORDS, post=WORDS)
def test_prefilter_matches_full_scan(shape: tuple[str, str], context: str, pre: str, post: str) -> None:
    """The Hyperscan fast path, the re trigger screen and the full re scan give the same."""
    text = embed(context, shape[1], pre, post)
    assert FULL._report(text, fast=True) == FULL._report(text, fast=False)
    assert SCREENED._report(text, fast=True) == FULL._report(text, fast=False)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_total_and_idempotent_on_any_text(text: str) -> None:
    """Any text: a str back, and scrubbing again changes nothing."""
    out = scrub(text)
    assert isinstance(out, str)
    assert scrub(out) == out
    assert FULL._report(text, fast=True) == FULL._report(text, fast=False)
    assert SCREENED._report(text, fast=True) == FULL._report(text, fast=False)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("password=:token\"' \n&?@/-_AKIAeyJ.*abc123")), max_size=80))
def test_idempotent_on_trigger_soup(text: str) -> None:
    """Text dense in trigger characters: still idempotent and identical on every path."""
    out = scrub(text)
    assert scrub(out) == out
    assert FULL._report(text, fast=True) == FULL._report(text, fast=False)
    assert SCREENED._report(text, fast=True) == FULL._report(text, fast=False)


@settings(max_examples=100, deadline=None)
@given(st.binary())
def test_total_on_bytes(data: bytes) -> None:
    """Any bytes: decoded and scrubbed, never an exception."""
    assert isinstance(scrub(data), str)
