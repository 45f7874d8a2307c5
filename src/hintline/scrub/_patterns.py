"""The secret table: every pattern hintline masks, as data, with examples and near misses.

Order matters only where two patterns can match at the *same* position (a header before the
generic ``key: value`` pair, Anthropic's ``sk-ant-`` before OpenAI's ``sk-``): the combined regex
takes the leftmost match in the text, and among matches starting at one position the first
listed. Vendor token shapes are adapted from gitleaks (MIT, ``config/gitleaks.toml``; rule ids in
``source``); URL userinfo and bearer ideas from Sentry Relay's ``@urlauth``/``@bearer``; key names
from sentry-python's ``DEFAULT_DENYLIST``.
"""

from __future__ import annotations

import re

from hintline.scrub._model import SecretPattern
from hintline.scrub._names import (
    KEY_NAMES,
    QUERY_NAMES,
    WEAK_QUERY_NAMES,
    name_regex,
    name_trigger,
    query_name_regex,
    query_trigger,
)

__all__ = ["SECRETS", "build_secrets"]

# Masks other tools already put there (httpx's [secure], Sentry's [Filtered]) stay as they are.
_MASKED = r"(?!\[(?i:secure|redacted|filtered|masked|hidden)\])"
# A bare (unquoted) value ends at whitespace, a quote, a bracket or a list separator.
_BARE = r"[^\s\"'`,;&<>()\[\]{}]+"
_END = r"(?![^\s\"'`,;&<>()\[\]{}])"
# Values that say "no secret here"; masking them would only hide information: placeholders,
# None/null/booleans, `(using password: YES)`, `(auth:SIMPLE)`, a constant's name
# (`password=APP_PASSWORD`), a hex id (ZooKeeper's `sessionid: 0x14ede63a5a70002`), an object's
# repr (`Token{a64f992 …}`, `Token { kind: … }`, `a.b.BinderProxy@2bd79ce`), a YAML block
# indicator (`|`, `>-`: the value is on the next line).
# A status word is what an error says about a secret (`Session: expired`, `token: invalid`),
# never the secret itself; masking it hides the one useful word.
_STATUS = (
    r"(?i:expired|invalid|missing|required|empty|unset|revoked|unknown|rejected|incorrect|wrong"
    r"|denied|disabled|enabled|locked|mismatch|malformed|absent|present|provided|supplied|none"
    r"|closed|ended|terminated|active|inactive|timed[ _-]out"
    r"|not[ _-]set|n/a|ok|valid|too[ _-](?:short|long|weak))"
)
_QUOTED_VALUE = (
    r"(?:\\\"(?!-----BEGIN)(?P<eq>(?:[^\"\\\r\n]|\\(?!\")[^\r\n])+)"  # \"…\" inside an escaped JSON string
    r"|\"(?!-----BEGIN)(?!\[(?i:secure|redacted|filtered|masked|hidden)\]\")(?P<dq>(?:[^\"\\\r\n]|\\[^\r\n])+)"
    r"|'(?!-----BEGIN)(?!\[(?i:secure|redacted|filtered|masked|hidden)\]')(?P<sq>(?:[^'\\\r\n]|\\[^\r\n])+))"
)
# Characters of a token value: a header's (anything but space, quotes and closers) and
# base64url's.
_TOKEN = r"[^\s\"'`,;}\]\\]"
_B64URL = r"[A-Za-z0-9._~+/-]"
# 40 random characters; the value of an AWS secret access key.
_AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
_JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwi"
    "aWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)


# Python's `\s` but the line break: space that keeps a match on its line.
_HS = r"[\t\x0b\x0c\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
# Space holding at most one line break (a value on the line after its name), and the same with
# at least one character. A pattern's match spans at most ``lines`` lines on every path.
_S1 = rf"{_HS}*(?:\n{_HS}*)?"
_S1P = rf"(?:{_HS}+(?:\n{_HS}*)?|\n{_HS}*)"
# A line break inside a value (coreutils fold, textwrap, a terminal, a log shipper's line
# limit): a newline, or its escape inside a JSON string, then the next line's indentation and
# at most a short prefix a collector writes on every line (`web-1  | `, a quote's `> `).
_BR = r"(?:\r?\n|(?:\\r)?\\n)[ \t]*(?:(?:[A-Za-z0-9_.-]{1,40}[ \t]*)?[|>][ \t]*)?"
_BREAKS = 6
"""How many line breaks the last part of a wrapped value may hold (a 500-character token
folded at 80 columns)."""


def _minus(cls: str, chars: str) -> str:
    """The character class ``cls`` (``[…]`` or ``[^…]``) without ``chars`` (a class body)."""
    if cls.startswith("[^"):
        return cls[:-1] + chars + "]"
    body = cls[1:-1]
    for part in re.findall(r"[A-Za-z0-9]-[A-Za-z0-9]", chars):
        body = body.replace(part, "")
    return f"[{body}]"


def _generated(cls: str) -> str:
    """A run of ``cls`` (no backslash) that looks generated, not like a word: a letter and a
    digit in it, or a lower-case letter before an upper-case one (`Y2Rl`, `IiwibmF`; not
    `expired`, `Session`, `2024-05-01`, `INFO`). Each branch is deterministic (linear in re)."""
    c = _minus(cls, "\\\\")
    sym = _minus(c, "A-Za-z0-9")
    return (
        rf"(?:{sym}*[A-Za-z]{_minus(c, '0-9')}*[0-9]|{sym}*[0-9]{_minus(c, 'A-Za-z')}*[A-Za-z]"
        rf"|{_minus(c, 'a-z')}*[a-z]{_minus(c, 'A-Z')}*[A-Z]){c}*"
    )


def _run(cls: str, breaks: int) -> str:
    """A run of ``cls`` that line breaks (:data:`_BR`) cut at most ``breaks`` times."""
    return rf"{cls}+(?:{_BR}{cls}+){{0,{breaks}}}"


# A JSON Web Token, whose parts a line break may cut anywhere. Inside the header and the
# payload, at their `eyJ` and at the dots, a break is certain (the token is not over before its
# second dot); in the signature the next line's run continues it when it looks generated
# (:func:`_generated`). At most one break falls in a part's `eyJ` and the dot before it.
_J = r"[A-Za-z0-9_-]"
_JWT_BODY = (
    rf"(?:eyJ(?:{_BR})?|e{_BR}yJ|ey{_BR}J){_run(_J, 2)}"
    rf"(?:\.eyJ(?:{_BR})?|{_BR}\.eyJ|\.{_BR}eyJ|\.e{_BR}yJ|\.ey{_BR}J){_run(_J, _BREAKS)}"
    rf"(?:\.|{_BR}\.){_J}*(?:{_BR}{_generated(_J)}){{0,{_BREAKS}}}"
)
_JWT_LINES = 1 + 2 + 1 + _BREAKS + 1 + _BREAKS + 1
"""The most lines a JWT's match spans."""


def _wrapped(first: str, group: str) -> str:
    """A token of ``first`` characters in ``group``, or wrapped onto the next lines in
    ``{group}_wrapped``; a JWT, wrapped anywhere, in ``{group}_jwt``.

    A line break continues the value when the part before it runs to the end of its line, and
    the next line (after its indentation or prefix, see :data:`_BR`) starts with a run of the
    value's characters that looks generated (:func:`_generated`), and either the part before
    the break is long (20 characters or more), or that run is (16 characters or more), or it is
    the whole next line (a middle line of a value folded at a narrow width). Only the run is
    taken: words after it on its line stay
    (`…MTIzNDU2\\nNzg5MGFi (retrying)`). Up to :data:`_BREAKS` breaks. A next line that starts
    with a word, a date or a log level is not taken, so a value ending its line does not swallow
    the next record; a continuation that looks like a word (`abcdef`) is not masked.
    """
    # padding `=` only where ``first`` does not take it already: `[^\s]{20,}=*` before a line
    # break that is not there backtracks over every split of a run of `=` (quadratic in re)
    # the part before the break runs to its line's end: possessive, so that a long run not
    # followed by a break fails at once instead of trying every shorter run (re only: the
    # patterns using this keep look-arounds RE2 has not)
    pad = "" if re.fullmatch(first, "=") else "=*"
    run = _minus(first, "\\\\")  # a JSON string's escaped line break ends it
    return (
        rf"(?:(?P<{group}_jwt>{_JWT_BODY})"
        rf"|(?P<{group}_wrapped>{run}{{20,}}+{pad}(?:{_BR}{_generated(first)}{pad}){{1,{_BREAKS}}}"
        rf"|{run}++{pad}{_continued(first)}{pad}(?:{_BR}{_generated(first)}{pad}){{0,{_BREAKS - 1}}})"
        rf"|(?P<{group}>{first}+{pad}))"
    )


def _continued(first: str) -> str:
    """A line break and the run that continues a value on the next line when the part before
    the break is short: a generated run (:func:`_generated`) of 16 characters or more, or one
    that is the whole line."""
    g = _generated(first)
    return rf"{_BR}(?:(?={_minus(first, chr(92) * 2)}{{16}}){g}|{g}(?=[\r\n]|\\[rn]|$))"


# The end of a bare value: not one of its characters, nor a line break it continues across
# (`password=Z` cut by fold before the rest of its value is no placeholder `Z`).
_VALUE_END = rf"(?![^\s\"'`,;&<>()\[\]{{}}]|{_continued(_BARE[:-1])})"
_NOT_A_VALUE = (
    r"(?!-----BEGIN|\$\{|\$[A-Z_]|%\(|\{\{"
    r"|(?:None|null|NULL|nil|undefined|true|false|True|False|%s|[A-Z]+(?:_[A-Z]+)+|[A-Z]{1,10}"
    rf"|0x[0-9a-fA-F]+|[0-9]+/[0-9]+|{_STATUS}[.!:]?|[|>][-+1-9]{{0,2}})"
    + _VALUE_END
    + r"|[A-Za-z_][\w.$]*[{(\[]|[A-Z][A-Za-z]+ \{ |(?:[A-Za-z_]\w*\.)+[A-Za-z_]\w*@[0-9a-f]+"
    + _VALUE_END
    + ")"
)
# A YAML block scalar (`password: |`, `>-`, `|2`, a comment after it): the value is on the
# next, indented lines, every one indented at least as far as the first (a folded password, a
# token in 76-character lines), up to :data:`_BLOCK_LINES` of them; a line indented less (the
# next key) ends it.
_BLOCK_LINES = 16
_BLOCK_SCALAR = (
    r"[|>][-+1-9]{0,2}[ \t]*(?:#[^\r\n]*)?\r?\n(?P<block_indent>[ \t]+)"
    rf"(?P<block>[^\s#][^\r\n]*(?:\r?\n(?P=block_indent)[^\r\n]*){{0,{_BLOCK_LINES}}})"
)
_QUOTED_BREAKS = 16
"""A quoted value's closing quote makes a wrap certain: it may hold more breaks."""
# A quoted value broken in two at a fixed width (coreutils fold, a pager, a log shipper's line
# limit): the quote left open at the line's end, the rest and the closing quote on the next
# lines (a JSON or repr string never holds a raw line break). The parts are masked as one value.
_QUOTED_WRAPPED = (
    rf"\"(?P<dq_wrapped>[^\"\\\r\n]*(?:\r?\n[ \t]*[^\"\\\s]+){{1,{_QUOTED_BREAKS}}})(?:\r?\n[ \t]*)?\""
    rf"|'(?P<sq_wrapped>[^'\\\r\n]*(?:\r?\n[ \t]*[^'\\\s]+){{1,{_QUOTED_BREAKS}}})(?:\r?\n[ \t]*)?'"
)


def _key_value(names: tuple[str, ...]) -> SecretPattern:
    name = name_regex(names)
    # `: word word` is prose; `\n` escapes count as space (pretty JSON inside a JSON string)
    sep = (
        rf"(?:{_HS}{{0,16}}={{1,2}}>?{_S1}"
        rf"|{_HS}{{0,16}}:(?:{_HS}|\\[nrt])*(?:\n(?:{_HS}|\\[nrt])*)?(?![A-Za-z]+[ \t]+[a-z]))"
    )
    return SecretPattern(
        name="key-value",
        trigger=name_trigger(names),
        # the glue character, the name, a backslash and quote, up to 16 spaces, then `=`/`:`
        reach=1 + max(len(n) for n in names) + 2 + 16 + 1,
        # pretty-printed JSON and dict reprs put a long value on the next line, YAML a block
        # scalar's; a renderer wraps a long value onto the lines after it
        lines=2 + _JWT_LINES,
        pattern=(
            rf"{name}\\?[\"']?{sep}"
            # a bytes or str literal's prefix (`b'…'`, `u"…"`) before the quote
            rf"(?:{_BLOCK_SCALAR}|{_QUOTED_WRAPPED}|(?:[bBuUrR]{{1,2}}(?=[\"']))?{_QUOTED_VALUE}"
            rf"|{_NOT_A_VALUE}{_wrapped(_BARE[:-1], 'bare')})"
        ),
        groups=("block", "dq_wrapped", "sq_wrapped", "eq", "dq", "sq", "bare_jwt", "bare_wrapped", "bare"),
        why="A key named like a secret (password, token, api key, session, cookie…) in key=value, key: value, JSON, dict reprs, libpq conninfo, JDBC and .env lines.",
        examples=(
            'psycopg.OperationalError: connection to server failed (host=db port=5432 user=app password=S3cret dbname=shop)',
            '{"user": "app", "password": "S3cret!", "retries": 3}',
            "{'api_key': 'abc123def456', 'timeout': 30}",
            'jdbc:sqlserver://db:1433;databaseName=shop;user=app;password=S3cret;encrypt=true',
            '    conn = connect(host="db", password="hunter2")',
            "AWS_SECRET_ACCESS_KEY=" + _AWS_SECRET,
            "x-api-key: 9f8e7d6c5b4a",
            'log: {\\"token\\": \\"abc.def.123\\"}',
            "export PGPASSWORD=S3cret",
            "config: {clientSecret: 'Zm9vYmFy42'}",
            "//registry.npmjs.org/:_authToken=abc-123-def",
            "        if password == 'letmein1':",
            '{\n  "user": "app",\n  "password":\n    "S3cretPw1"\n}',
            '{"args": "{\\n  \\"user\\": \\"app\\",\\n  \\"api_key\\":\\n    \\"Cb7KUZU3Q7Wq\\"\\n}"}',
            "db:\n  user: app\n  password: |\n    S3cretPw1\n  host: db\n",
            "api_key: >-  # rotated monthly\n  Zm9vYmFyYmF6cXV4\n",
            "2024-05-01 12:00:01 ERROR refresh failed: token=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFi\nY2RlZmdoaWprbG1u0 (retrying)\n",
            "{'user': 'app', 'password': 'Zm9vYmFyYmF6cXV4MTIzNDU2\n    Nzg5MGFiY2RlZmdo', 'retries': 3}",
        ),
        near_misses=(
            "monkey=1",
            "tokenizer=bert",
            "keyboard: us",
            "primary key (id)",
            "max_tokens=100",
            "token count: 12",
            "token_type=bearer",
            'password authentication failed for user "app"',
            'Key (customer_id)=(42) is not present in table "customers".',
            "Invalid token: the token has expired",
            "password: must be at least 8 characters",
            "'password': None",
            "password=${DB_PASSWORD}",
            "session=<sqlalchemy.orm.session.Session object at 0x7f1c>",
            "oauth=enabled",
            "bypass=1",
            "Access denied for user 'app'@'localhost' (using password: YES)",
            '    Sync(client, user="app", password=APP_PASSWORD).run("SELECT 1")',
            "Skipping AppWindowToken{df0798e token=Token{78af589 ActivityRecord{3b04890 u0}}}",
            "Bad activity token: android.os.BinderProxy@2bd79ce",
            "Auth successful for job_1445144423722_0020 (auth:SIMPLE)",
            "Processed session termination for sessionid: 0x14ede63a5a70002",
            "Priority: 20, Token: Token { kind: ContainerToken, service: 172.22.149.145:2834 }",
            "Session: expired",
            "401: token: invalid. Log in again.",
            "password: too short",
            "password: | grep -v secret",
        ),
        source="sentry-python:DEFAULT_DENYLIST; sentry-relay:@password",
    )


_QUERY_VALUE = r"[^&;#\s\"'`<>()\[\]{}]"


def _key_value_tuple(names: tuple[str, ...]) -> SecretPattern:
    name = name_regex(names)
    return SecretPattern(
        name="key-value-pair",
        trigger=rf"(?i)(?:{'|'.join(sorted({n.replace(' ', '[_.-]?') for n in names}, key=lambda x: (-len(x), x)))})[\"']\s*,\s*[\"']",
        lines=2,
        # the first of a pair (a prefix such as `X-` of at most 32 characters before the
        # name: a bounded overlap), in a list: the pair's `)` followed by `,` or `]`
        pattern=(
            rf"\({_HS}*[\"'][A-Za-z0-9_.-]{{0,32}}{name}[\"']{_HS}*,{_S1}{_QUOTED_VALUE}"
            rf"\\?[\"']{_HS}*\){_HS}*[,\]]"
        ),
        groups=("eq", "dq", "sq"),
        why="A (key, value) tuple named like a secret, as reprs of form data, headers and settings print it (ImmutableMultiDict, parse_qsl, list(dict.items())).",
        examples=(
            "werkzeug: ImmutableMultiDict([('user', 'app'), ('password', 'S3cretPw1')])",
            "[('grant_type', 'password'), ('client_secret', 'Zm9vYmFy42')]",
            'headers=[("Authorization", "Basic YXBwOlMzY3JldA==")]',
        ),
        near_misses=(
            "[('password', None), ('user', 'app')]",
            "fields=('password', 'username')",
            "choices=[('password', 'Password', 'Log in with a password')]",
        ),
        source="hintline",
    )


def _query_weak(names: tuple[str, ...]) -> SecretPattern:
    return SecretPattern(
        name="query-key",
        trigger=query_trigger(names),
        pattern=(
            rf"[?&;#]{query_name_regex(names)}="
            # a value with a digit or a symbol, or a long run of letters: not `?key=color`
            rf"(?P<secret>[A-Za-z]*{_QUERY_VALUE.replace('[^', '[^A-Za-z')}{_QUERY_VALUE}*"
            r"|[A-Za-z]{16,})"
        ),
        why="A URL query parameter named key, session or auth whose value looks generated (a digit or symbol, or 16 letters and more); `?key=color` stays.",
        examples=(
            "https://maps.googleapis.com/maps/api/geocode/json?address=x&key=AIzaSyD-example-value",
            "GET /feed?key=abcdefghijklmnopqrstuvwx",
        ),
        near_misses=(
            "GET /items?key=color&page=2",
            "GET /items?max_tokens=100&sort=key",
            "https://example.com/?lang=en&key=primary",
        ),
        source="hintline",
    )


def _query(names: tuple[str, ...]) -> SecretPattern:
    return SecretPattern(
        name="query-param",
        trigger=query_trigger(names),
        pattern=(
            rf"[?&;#]{query_name_regex(names)}="
            rf"(?P<secret>{_QUERY_VALUE}+)"
        ),
        why="A URL query, fragment or form parameter named like a credential (api_key, access_token, sig, X-Amz-Signature…), bounded at &, quote, bracket or space.",
        examples=(
            "404 Client Error: Not Found for url: http://127.0.0.1:8000/v1/items?api_key=sk12345abcdef&page=2",
            "GET /callback#access_token=ya29.a0AfH6SM&token_type=Bearer",
            "https://bucket.s3.amazonaws.com/a.txt?X-Amz-Credential=AKIA%2F20240101&X-Amz-Signature=deadbeef1234",
            "jdbc:postgresql://db:5432/shop?user=app&password=S3cret",
            "GET /reset?password=hunter",
            "https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sig=abc%2Bdef%3D",
        ),
        near_misses=(
            "https://example.com/search?q=keyboard&page=2",
            "https://example.com/?monkey=1&tokens=5",
            "GET /items?max_tokens=100&sort=key",
        ),
        source="hintline; names from the issue and gitleaks:generic-api-key",
    )


_FIXED: tuple[SecretPattern, ...] = (
    SecretPattern(
        name="private-key",
        trigger=r"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY",
        pattern=(
            r"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:\\r|\\n|\s)*"
            r"(?P<secret>[A-Za-z0-9+/=:,.-][A-Za-z0-9+/=\s\\:,.-]*?)"
            r"(?=(?:\\r|\\n|\s)*-----END|[^A-Za-z0-9+/=\s\\:,.-]|\Z)"
        ),
        multiline=True,
        why="A PEM private key block (RSA, EC, OpenSSH, PKCS#8, PGP); the BEGIN/END lines stay so the reader sees what leaked.",
        examples=(
            "ValueError: could not load key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx7f3\nq2Z9lE0Kp4xB\n-----END RSA PRIVATE KEY-----\n",
            '{"key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0B\\n-----END PRIVATE KEY-----\\n"}',
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n",
        ),
        near_misses=(
            "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEF\n-----END PUBLIC KEY-----",
            "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIE\n-----END CERTIFICATE-----",
        ),
        source="gitleaks:private-key; sentry-relay:@pemkey",
    ),
    SecretPattern(
        name="url-credentials",
        trigger=r"://[^\s:/?#@\"'<>\[\]]*:[^\s/?#\"'<>]*@",
        pattern=(
            r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}://[^\s:/?#@\"'<>\[\]]*:"
            r"(?P<secret>[^\s/?#\"'<>]+)@(?=[^\s@/?#\"'<>]*[A-Za-z0-9\[])"
        ),
        why="The password in URL userinfo (scheme://user:password@host) of any scheme: DSNs, broker, proxy and git URLs; user, host and port stay.",
        examples=(
            "connect to postgresql://app:S3cret@db:5432/shop failed",
            "sqlalchemy.exc.OperationalError: (psycopg.OperationalError) mysql+pymysql://root:p@ss@localhost/db",
            "redis.exceptions.ConnectionError: redis://:hunter2@cache:6379/0",
            "fatal: unable to access 'https://oauth2:glpat-abcdefghij1234567890@gitlab.example.com/g/r.git/'",
            "amqp://worker:w0rk3r@rabbit:5672//",
        ),
        near_misses=(
            "http://host:8080 is down, mail admin@example.com",
            "ssh://git@github.com/org/repo.git",
            "https://host:8080/path?email=a@b.com",
            "see http://user@host/ for details",
        ),
        source="sentry-relay:@urlauth",
    ),
    SecretPattern(
        name="url-credentials-encoded",
        trigger=r"%3[Aa]%2[Ff]%2[Ff]",
        # percent-escapes spelled out so that no quantifier overlaps the next token: the user
        # part has no %3A (its end), the password no %40 (its end); both bounded, because an
        # encoded value runs on over the next encoded URL
        pattern=(
            r"%3[Aa]%2[Ff]%2[Ff]"  # the scheme before it is kept whatever it is
            r"(?:[^\s:/?#@\"'<>\[\]%&]|%[0-24-9A-Fa-f][0-9A-Fa-f]|%3[0-9B-Fb-f]){0,64}%3[Aa]"
            r"(?P<secret>(?:[^\s/?#@\"'<>&%]|%[0-35-9A-Fa-f][0-9A-Fa-f]|%4[1-9A-Fa-f]){1,128})%40"
        ),
        why="A URL with credentials, percent-encoded inside another URL's query (?next=postgresql%3A%2F%2Fapp%3Apw%40db); user and host stay.",
        examples=(
            "GET /login?next=postgresql%3A%2F%2Fapp%3AS3cretPw1%40db%3A5432%2Fshop HTTP/1.1",
            "redirect_uri=https%3a%2f%2fbot%3ahunter2%2521%40hooks.example.com%2fin",
        ),
        near_misses=(
            "GET /login?next=https%3A%2F%2Fexample.com%2Fhome",
            "?u=ssh%3A%2F%2Fgit%40github.com%2Forg",
        ),
        source="hintline",
    ),
    SecretPattern(
        name="host-credentials",
        trigger=r"[^\s:/?#@\"'<>\[\]]@[A-Za-z0-9][A-Za-z0-9.-]{0,252}(?::[0-9]|/[A-Za-z0-9_])",
        pattern=(
            # the user's last character is enough: the user stays whatever it is
            r"[A-Za-z0-9._~!$*+-]:(?P<secret>[^\s:/?#@\"'<>\[\]]{1,128})"
            r"@[A-Za-z0-9][A-Za-z0-9.-]{0,252}(?::[0-9]{1,5}|/[A-Za-z0-9_])"
        ),
        why="user:password@host:port or user:password@host/db without a (well-spelt) scheme: a DSN whose scheme was dropped or mistyped (postgresql:/…, postgres//…).",
        examples=(
            "could not connect app:S3cretPw1@db:5432",
            "bad DSN postgresql:/app:S3cretPw1@db:5432/shop",
            "DATABASE_URL=postgres//app:S3cretPw1@db.internal/shop",
        ),
        near_misses=(
            "mail admin@example.com or call 10:30",
            "git@github.com:org/repo.git",
            "user@db:5432 refused the connection",
        ),
        source="hintline",
    ),
    SecretPattern(
        name="oracle-jdbc-password",
        trigger=r"(?i)jdbc:oracle:[a-z]+:[^/\s@:\"']+/",
        pattern=r"(?i:jdbc:oracle:[a-z]+):[^/\s@:\"']+/(?P<secret>[^@\s\"']+)@",
        why="Oracle's thin JDBC URL carries user/password@ before the host.",
        examples=("java.sql.SQLException: jdbc:oracle:thin:scott/tiger@//db:1521/ORCL",),
        near_misses=("jdbc:oracle:thin:@//db:1521/ORCL",),
        source="hintline",
    ),
    SecretPattern(
        name="authorization-header",
        trigger=r"(?i)authorization\\?[\"']?\s*[:=]",
        pattern=(
            rf"(?<![A-Za-z0-9-])(?i:(?:proxy-)?authorization)\\?[\"']?{_HS}*[:=]{_S1}\\?[\"']?"
            rf"(?:(?i:bearer|basic|token|apikey|api-key|dpop|sso-key|key){_S1P}{_wrapped(_TOKEN, 'token')}"
            # Digest-like schemes quote their parameters (response="…"): every one goes, up to
            # the quote or brace that closes a repr'd value, else the line's end
            rf"|(?i:digest|hoba|mutual){_HS}+(?P<params>[^\s'`}}][^\r\n'`}}]*)"
            rf"|(?:(?i:negotiate|ntlm|aws4-hmac-sha256|scram-sha-\d+){_HS}+)?"
            rf"{_MASKED}(?P<secret>[^\s\"'`}}\\][^\r\n\"'`}}\\]*))"
        ),
        groups=("token_jwt", "token_wrapped", "token", "params", "secret"),
        lines=2 + _JWT_LINES,
        why="Authorization and Proxy-Authorization headers in dumped requests and dict reprs; the scheme (Bearer, Basic, Token, Digest) stays.",
        examples=(
            "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc.def",
            "{'User-Agent': 'python-requests/2.32', 'Authorization': 'Basic YXBwOlMzY3JldA=='}",
            "> Proxy-Authorization: Basic dXNlcjpwYXNz",
            'Authorization: Digest username="app", realm="api", nonce="abc", response="6629fae49393a05397450978507c4ef1"',
            "authorization: Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b",
            "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkw\n    IiwibmFtZSI6IkpvaG4gRG9lIn0.SflKxwRJSMeKKF2QT4fw",
        ),
        near_misses=(
            "Headers({'host': '127.0.0.1:8000', 'authorization': '[secure]'})",
            "Authorization header is missing",
            "authorization failed for user app",
        ),
        source="sentry-relay:@bearer; gitleaks:curl-auth-header",
    ),
    SecretPattern(
        name="set-cookie",
        trigger=r"(?i)set-cookie\\?[\"']?\s*:",
        pattern=(
            rf"(?<![A-Za-z0-9-])(?i:set-cookie)\\?[\"']?{_HS}*:{_S1}\\?[\"']?[^=\s;\"']+="
            r"(?P<secret>[^;\s\"',]+)"
        ),
        lines=2,
        why="Set-Cookie response headers carry a session value; the cookie name and attributes stay.",
        examples=("< Set-Cookie: sessionid=abc123xyz; Path=/; HttpOnly",),
        near_misses=("Set-Cookie header rejected",),
        source="sentry-relay:session cookies",
    ),
    SecretPattern(
        name="cookie",
        trigger=r"(?i)cookie\\?[\"']?\s*:",
        pattern=rf"(?<![A-Za-z0-9-])(?i:cookie)\\?[\"']?{_HS}*:{_S1}\\?[\"']?(?P<secret>[^\s\"'`}}\\][^\r\n\"'`}}\\]*)",
        lines=2,
        why="Cookie request headers carry session identifiers; the whole value is masked.",
        examples=(
            "> Cookie: sessionid=abc123; csrftoken=def456",
            "{'Cookie': 'session=eyJ1c2VyIjoxfQ'}",
        ),
        near_misses=("cookie consent banner", "Cookie header too large"),
        source="sentry-python:DEFAULT_DENYLIST",
    ),
    SecretPattern(
        name="azure-storage-key",
        trigger=r"(?i)(?:AccountKey|SharedAccessKey|SharedAccessSignature)=",
        pattern=r"(?i:AccountKey|SharedAccessKey|SharedAccessSignature)=(?P<secret>[^;\s\"']+)",
        why="Azure Storage / Service Bus connection strings (AccountKey=, SharedAccessKey=).",
        examples=(
            "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;EndpointSuffix=core.windows.net",
        ),
        near_misses=("AccountName=acct;EndpointSuffix=core.windows.net",),
        source="gitleaks:azure-storage-account-key (adapted)",
    ),
    SecretPattern(
        name="jwt",
        trigger=rf"(?:eyJ|e{_BR}yJ|ey{_BR}J)",
        pattern=rf"(?<![A-Za-z0-9_-])(?P<secret>{_JWT_BODY})",
        lines=_JWT_LINES,
        why="A JSON Web Token (header.payload.signature) anywhere in the text, also wrapped onto the next lines.",
        examples=(
            f"401 Unauthorized: token {_JWT} expired",
            f"401 Unauthorized: token {_JWT[:50]}\n{_JWT[50:130]}\n{_JWT[130:]} expired",
            f"{_JWT[:1]}\n  {_JWT[1:98]}\n  {_JWT[98:]}",
        ),
        near_misses=(
            "eyJhbGciOiJIUzI1NiJ9 alone",
            "header eyJhbGciOiJIUzI1NiJ9.\neyJ is not a payload",
        ),
        source="gitleaks:jwt",
    ),
    SecretPattern(
        name="aws-access-key",
        trigger=r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}",
        pattern=r"(?<![A-Za-z0-9])(?P<secret>(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})(?![A-Za-z0-9])",
        why="An AWS access key id (AKIA… long-term, ASIA… temporary).",
        examples=(
            "botocore.exceptions.ClientError: InvalidAccessKeyId for AKIAIOSFODNN7EXAMPLE",
            "aws_access_key_id ASIAY34FZKBOKMUTVV7A",
        ),
        near_misses=("AKIA is a prefix", "AKIAIOSFODNN7EXAMPLE1234"),
        source="gitleaks:aws-access-token",
    ),
    SecretPattern(
        name="aws-secret-key",
        trigger=r"(?i)aws[A-Za-z0-9_ .-]{0,20}secret",
        pattern=(
            rf"(?i:aws)[A-Za-z0-9_ .-]{{0,20}}?(?i:secret)[A-Za-z0-9_.-]{{0,20}}?\\?[\"']?{_HS}*[:=]?{_S1}\\?[\"']?"
            r"(?P<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
        ),
        lines=2,
        why="An AWS secret access key (40 base64 characters) next to a name that says so.",
        examples=(
            f"aws_secret_access_key {_AWS_SECRET}",
            f"AWS secret: {_AWS_SECRET}",
        ),
        near_misses=("aws secret manager is unavailable",),
        source="detect-secrets:AWSKeyDetector (adapted)",
    ),
    SecretPattern(
        name="github-token",
        trigger=r"gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{22}",
        pattern=(
            r"(?<![A-Za-z0-9_])(?P<secret>gh[pousr]_[A-Za-z0-9]{36,255}"
            r"|github_pat_[A-Za-z0-9_]{22,255})(?![A-Za-z0-9_])"
        ),
        why="GitHub personal, OAuth, user-to-server, server-to-server, refresh and fine-grained tokens.",
        examples=(
            "remote: Invalid username or token ghp_R2d2C3poBb8Ewok1234567890abcdefghIJK",
            "GITHUB_TOKEN=github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUV",
        ),
        near_misses=("ghp_short", "the ghs_ prefix"),
        source="gitleaks:github-pat, github-fine-grained-pat, github-oauth, github-app-token, github-refresh-token",
    ),
    SecretPattern(
        name="gitlab-token",
        trigger=r"gl(?:pat|dt|ptt|rt|cbt|soat|ft|imt|oas)-[A-Za-z0-9_-]{20}",
        pattern=r"(?<![A-Za-z0-9_-])(?P<secret>gl(?:pat|dt|ptt|rt|cbt|soat|ft|imt|oas)-[A-Za-z0-9_-]{20,})",
        why="GitLab personal, deploy, pipeline-trigger, runner and other tokens.",
        examples=("401 Unauthorized with PRIVATE-TOKEN glpat-xXyYzZ0123456789aBcD",),
        near_misses=("glpat- tokens expire",),
        source="gitleaks:gitlab-pat, gitlab-deploy-token, gitlab-ptt",
    ),
    SecretPattern(
        name="slack-token",
        trigger=r"xox[abposer]-[0-9A-Za-z-]{10}|xapp-\d-|hooks\.slack\.com/services/",
        pattern=(
            r"(?<![A-Za-z0-9])(?P<secret>xox[abposer]-[0-9A-Za-z-]{10,250}"
            r"|xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+"
            r"|hooks\.slack\.com/services/T[A-Z0-9]+/B[A-Z0-9]+/[A-Za-z0-9]{16,})"
        ),
        why="Slack bot, user, app-level tokens and incoming-webhook URLs.",
        examples=(
            "slack_sdk.errors.SlackApiError: invalid_auth for xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
            "POST https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX failed",
        ),
        near_misses=("xoxb- is a bot token prefix",),
        source="gitleaks:slack-bot-token, slack-user-token, slack-app-token, slack-webhook-url",
    ),
    SecretPattern(
        name="stripe-key",
        trigger=r"(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10}|whsec_[A-Za-z0-9]{20}",
        pattern=r"(?<![A-Za-z0-9])(?P<secret>(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,247}|whsec_[A-Za-z0-9]{20,})",
        why="Stripe secret and restricted keys (live and test) and webhook signing secrets.",
        examples=("stripe.error.AuthenticationError: Invalid API Key provided: sk_live_4eC39HqLyjWDarjtT1zdp7dc",),
        near_misses=("pk_live_4eC39HqLyjWDarjtT1zdp7dc", "sk_live_"),
        source="gitleaks:stripe-access-token",
    ),
    SecretPattern(
        name="anthropic-key",
        trigger=r"sk-ant-",
        pattern=r"(?<![A-Za-z0-9_-])(?P<secret>sk-ant-(?:api|admin|sid|oat)\d{2}-[A-Za-z0-9_-]{20,})",
        why="Anthropic API and admin keys.",
        examples=("anthropic.AuthenticationError: invalid x-api-key sk-ant-api03-AbCdEf0123456789_GhIjKlMnOpQrStUv-wxyz0123AA",),
        near_misses=("sk-ant- prefix",),
        source="gitleaks:anthropic-api-key, anthropic-admin-api-key",
    ),
    SecretPattern(
        name="openai-key",
        trigger=r"sk-[A-Za-z0-9_-]{20}",
        pattern=(
            r"(?<![A-Za-z0-9_-])(?P<secret>sk-(?:proj-|svcacct-|admin-|None-)?"
            r"(?=[A-Za-z0-9_-]{0,200}[0-9])[A-Za-z0-9_-]{20,})"
        ),
        why="OpenAI API keys (sk-, sk-proj-, sk-svcacct-) and compatible providers' sk- keys.",
        examples=(
            "openai.AuthenticationError: Incorrect API key provided: sk-proj-Ab12Cd34Ef56Gh78Ij90KlMnOpQrStUvWxYz",
            "Bad key 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",
        ),
        near_misses=("sk-learn-is-not-a-key-at-all", "task-0123456789012345678901"),
        source="gitleaks:openai-api-key (relaxed)",
    ),
    SecretPattern(
        name="google-api-key",
        trigger=r"AIza[0-9A-Za-z_-]{35}",
        pattern=r"(?<![A-Za-z0-9_-])(?P<secret>AIza[0-9A-Za-z_-]{35})(?![A-Za-z0-9_-])",
        why="Google Cloud / Firebase / Maps API keys.",
        examples=("google.api_core.exceptions.PermissionDenied: 403 API key AIzaSyA1B2C3D4E5F6G7H8I9J0KLMNOPQRSTUVW not valid",),
        near_misses=("AIza is the prefix",),
        source="gitleaks:gcp-api-key",
    ),
    SecretPattern(
        name="npm-token",
        trigger=r"npm_[A-Za-z0-9]{36}",
        pattern=r"(?<![A-Za-z0-9_])(?P<secret>npm_[A-Za-z0-9]{36})(?![A-Za-z0-9])",
        why="npm access tokens.",
        examples=("npm ERR! 401 Unauthorized - token npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",),
        near_misses=("npm_config_cache=/tmp",),
        source="gitleaks:npm-access-token",
    ),
    SecretPattern(
        name="pypi-token",
        trigger=r"pypi-AgE",
        pattern=r"(?<![A-Za-z0-9_-])(?P<secret>pypi-(?:AgEIcHlwaS5vcmc|AgENdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50,})",
        why="PyPI and TestPyPI upload tokens (macaroons).",
        examples=("HTTPError: 403 Forbidden with pypi-AgEIcHlwaS5vcmcCJDEyMzQ1Njc4LTEyMzQtMTIzNC0xMjM0LTEyMzQ1Njc4OTAxMgACKlsz",),
        near_misses=("pypi-simple index",),
        source="gitleaks:pypi-upload-token",
    ),
    SecretPattern(
        name="huggingface-token",
        trigger=r"hf_[A-Za-z]{34}",
        pattern=r"(?<![A-Za-z0-9_])(?P<secret>hf_[A-Za-z]{34})(?![A-Za-z0-9])",
        why="Hugging Face access tokens.",
        examples=("401 Client Error for hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh",),
        near_misses=("hf_hub_download failed",),
        source="gitleaks:huggingface-access-token",
    ),
    SecretPattern(
        name="sendgrid-key",
        trigger=r"SG\.[A-Za-z0-9_-]{22}\.",
        pattern=r"(?<![A-Za-z0-9_])(?P<secret>SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])",
        why="SendGrid API keys.",
        examples=("python_http_client.exceptions.UnauthorizedError with SG.abcdefghijklmnopqrstuv.ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopq",),
        near_misses=("SG.name is a field",),
        source="gitleaks:sendgrid-api-token",
    ),
    SecretPattern(
        name="sql-password",
        trigger=r"(?i)(?:identified\s+by|password)\s+'",
        pattern=rf"(?<![A-Za-z0-9_])(?i:identified{_HS}+by|password){_S1P}'(?P<secret>(?:[^'\r\n]|'')+)'",
        lines=2,
        why="Passwords in SQL statements echoed by errors (CREATE ROLE … PASSWORD '…', IDENTIFIED BY '…').",
        examples=(
            "ERROR:  role \"app\" already exists\nSTATEMENT:  CREATE ROLE app LOGIN PASSWORD 'S3cret'",
            "ALTER USER 'app'@'%' IDENTIFIED BY 'hunter2';",
        ),
        near_misses=('FATAL:  password authentication failed for user "app"',),
        source="hintline",
    ),
    SecretPattern(
        name="env-name-value",
        trigger=r"(?i)name[\"']?\s*:\s*[\"']?[a-z0-9_]*(?:password|passwd|token|secret|api_?key|pwd|pass)[\"']?\s*,?\s",
        pattern=(
            rf"(?i:name)[\"']?{_HS}*:{_HS}*[\"']?[A-Za-z0-9_]*"
            rf"(?i:password|passwd|token|secret|api_?key|pwd|pass)[\"']?{_HS}*,?{_S1}(?:-{_HS}*)?"
            rf"[\"']?(?i:value)[\"']?{_HS}*:{_HS}*"
            r"(?:\"(?P<dq>[^\"\r\n]+)\"|'(?P<sq>[^'\r\n]+)'|(?P<bare>[^\s\"',}\]]+))"
        ),
        groups=("dq", "sq", "bare"),
        lines=2,
        why="A Kubernetes or ECS environment entry (name: DB_PASSWORD, value: …) in YAML or JSON: the name says the value is a secret.",
        examples=(
            '- name: DB_PASSWORD\n  value: "S3cretPw1"',
            '"env": [{"name": "API_TOKEN", "value": "Zm9vYmFy42"}]',
        ),
        near_misses=("- name: TOKEN_TTL\n  value: 300", '- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef: {name: db}'),
        source="hintline",
    ),
    SecretPattern(
        name="cli-credentials",
        trigger=r"(?:-u|--user|--proxy-user)[\"',\s=]*[^\s:\"']+:|--(?:[a-z]+-)*(?:password|passwd|token|secret|api-key)[\"']?,?\s",
        pattern=(
            # the user glued to -u (curl -uapp:pw) or after --user=
            rf"(?<![^\s\"'\[])(?:(?:(?:-u|--user|--proxy-user)[\"']?,?{_S1P}[\"']?|-u|--(?:proxy-)?user=)"
            r"[^\s:\"'-][^\s:\"']*:(?P<userpass>[^\s\"']+)"
            rf"|--(?:[a-z]+-)*(?:password|passwd|token|secret|api-key)[\"']?,?{_S1P}[\"']?"
            r"(?![A-Z_]+(?:[\s\]]|$))(?P<secret>[^\s\"'<-][^\s\"']*))"
        ),
        groups=("userpass", "secret"),
        lines=2,
        why="Credentials passed on a command line that an error echoes (curl -u user:pass, --password value).",
        examples=(
            "curl: (22) The requested URL returned error: 401; cmd: curl -u app:S3cret http://127.0.0.1/",
            "subprocess.CalledProcessError: Command '['deploy', '--api-token', 'abc123']' returned non-zero exit status 1.",
        ),
        near_misses=(
            "usage: tool [--password PASSWORD]",
            "curl -u app http://host/",
            "usage: deploy --password <PASSWORD> --user <USER>",
        ),
        source="gitleaks:curl-auth-user",
    ),
    SecretPattern(
        name="mysql-password",
        trigger=r"[\s\"']-p[^\s\"'$<-]",
        pattern=(
            # the rest of the command line, not "within 200 characters": a counted repeat sends
            # RE2 to its slow NFA (0.4 s on 64 KiB of one line after "mysql")
            rf"(?i:\b(?:mysql|mariadb)[a-z_-]*)[^\n]*?(?:{_HS}|[\"'])-p"
            r"(?P<secret>[^\s\"'$<-][^\s\"']*)"
        ),
        why="The MySQL/MariaDB clients take the password glued to -p (mysql -uroot -pS3cret); a failed command echoes it. Other tools' -p (a port) are left alone.",
        examples=(
            "mysql -uroot -pS3cretPw1 shop",
            "Command '['mysqldump', '-uroot', '-pS3cretPw1', 'shop']' returned non-zero exit status 2.",
        ),
        near_misses=(
            "mysql -uroot -p shop",
            "ssh -p2222 app@host",
            "mysql -uroot -p$MYSQL_PWD shop",
        ),
        source="hintline",
    ),
    SecretPattern(
        name="bearer-token",
        trigger=r"(?i)bearer\s+[A-Za-z0-9._~+/-]",
        pattern=(
            rf"(?<![A-Za-z0-9])(?i:bearer){_S1P}"
            # a digit and 8 characters, counted across a line break (a token wrapped early)
            rf"(?=(?:{_B64URL}|{_BR})*[0-9])(?=(?:{_B64URL}|{_BR}){{8}}){_wrapped(_B64URL, 'secret')}"
        ),
        groups=("secret_jwt", "secret_wrapped", "secret"),
        lines=2 + _JWT_LINES,
        why="A bearer token quoted outside a header (in a log line or an exception message).",
        examples=(
            "request failed: sent bearer 4f9a8b7c6d5e4f3a2b1c",
            "refresh failed, sent bearer 4f9a8b7c6d5e4f3a2b1c9d8e7f\n  6a5b4c3d2e1f0a9b8c7d",
            '{"log": "sent bearer 4f9a8b7c6d5e4f3a2b1c9d8e7f\\n  6a5b4c3d2e1f0a9b8c7d\\n"}',
        ),
        near_misses=(
            "Bearer authentication failed",
            'WWW-Authenticate: Bearer realm="api"',
        ),
        source="sentry-relay:@bearer",
    ),
)


def build_secrets(
    key_names: tuple[str, ...] = KEY_NAMES, query_names: tuple[str, ...] = QUERY_NAMES
) -> tuple[SecretPattern, ...]:
    """Return the built-in table with the name-driven patterns built from the given names."""
    strong = tuple(n for n in query_names if n not in WEAK_QUERY_NAMES)
    weak = tuple(n for n in query_names if n in WEAK_QUERY_NAMES)
    return (
        *_FIXED[:2],
        _query(strong),
        *((_query_weak(weak),) if weak else ()),
        *_FIXED[2:],
        _key_value_tuple(key_names),
        _key_value(key_names),
    )


SECRETS: tuple[SecretPattern, ...] = build_secrets()
"""The built-in secret patterns, in precedence order for matches that start at one position."""
