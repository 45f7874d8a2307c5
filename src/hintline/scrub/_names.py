"""Key names that announce a secret, and the regexes built from them.

A key name is written once, as lowercase words (``"api key"``); :func:`name_regex` spells it
the ways code and configs do (``api_key``, ``api-key``, ``apikey``, ``apiKey``, ``ApiKey``,
``API_KEY``, ``Api-Key``) and lets any separated or camel-case prefix come before it
(``x_api_key``, ``dbPassword``, ``AWS_SECRET_ACCESS_KEY``). A name must *end* with a secret
word, so ``max_tokens``, ``token_type`` and ``password_length`` are not secrets.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import re

__all__ = [
    "KEY_NAMES",
    "QUERY_NAMES",
    "STRICT_NAMES",
    "WEAK_QUERY_NAMES",
    "name_regex",
    "name_trigger",
    "query_name_regex",
    "query_trigger",
]

KEY_NAMES: tuple[str, ...] = (
    # sentry-python DEFAULT_DENYLIST and Relay's @password, extended
    "password", "passwd", "passphrase", "pwd", "secret", "token", "credential", "credentials",
    "api key", "apikey", "access key", "secret key", "private key", "account key",
    "auth key", "encryption key", "signing key", "master key", "client key", "session key",
    "shared key", "storage key", "subscription key", "app key", "access token",
    "auth token", "authtoken", "refresh token", "id token", "session token", "security token",
    "bearer token", "client secret", "app secret", "auth", "authorization", "session",
    "session id", "sessionid", "cookie", "csrf token", "xsrf token", "mysql pwd", "private token", "webhook secret", "signature",
    # short forms of configs and .env files (DB_PASS, db_pass, pw=); strict, see below
    "pass", "pw",
)
"""Names whose value is a secret in ``key=value``, ``key: value`` and JSON pairs."""

STRICT_NAMES: frozenset[str] = frozenset({"pwd", "dsn", "auth", "session", "signature", "pass", "pw"})
"""Short names allowed only on their own or after a separator (``db_pwd``), never glued to a
lowercase word: ``cwd``-like words and ``oauth`` must not count."""

QUERY_NAMES: tuple[str, ...] = (
    "api key", "apikey", "access token", "refresh token", "id token", "client secret",
    "auth token", "key", "secret", "token", "password", "passwd", "pwd", "credential",
    "signature", "sig", "security token", "session", "sessionid", "code verifier", "auth",
)
"""Names whose value is a secret in a URL query string, a fragment or a form body."""

WEAK_QUERY_NAMES: frozenset[str] = frozenset({"key", "session", "auth"})
"""Query names that also name ordinary values (``?key=color``, ``?auth=sso``): their value is
masked only when it looks generated (a digit or symbol in it, or 16 letters and more)."""


_SEP = "\x00"  # between the words of a name: `_`, `.`, `-` or nothing


_Trie = dict[str, "_Trie"]


def _build(keys: set[str]) -> _Trie:
    root: _Trie = {}
    for key in keys:
        node = root
        for ch in key:
            node = node.setdefault(ch, {})
        node[""] = {}
    return root


def _emit(node: _Trie) -> str:
    """Render a trie node's subtree; letters match in any case."""
    alts = []
    for ch in sorted(k for k in node if k):
        if ch == _SEP:
            head = "[_.-]?"
        elif ch.isalpha():
            head = f"[{ch.upper()}{ch}]"
        else:
            head = re.escape(ch)
        alts.append(head + _emit(node[ch]))
    if not alts:
        return ""
    body = "|".join(alts)
    if "" in node:
        return f"(?:{body})?"
    return body if len(alts) == 1 else f"(?:{body})"


def _trie(keys: set[str]) -> str:
    """Render ``keys`` as a factored regex (a trie), so ``re`` dispatches on the next char."""
    return _emit(_build(keys))


def _keys(names: tuple[str, ...]) -> set[str]:
    return {_SEP.join(name.lower().split()) for name in names}


def name_regex(names: tuple[str, ...]) -> str:
    """Return a regex (no groups) matching a key name that ends with one of ``names``.

    The match starts at the secret word itself: after a non-alphanumeric character (``x_``,
    ``self.``, ``--``) in any case, or glued to a word when the secret word starts upper case
    (``dbPassword``, ``PGPASSWORD``). Every branch starts with a literal character and checks
    its boundary after it, so ``re`` skips quickly over text that cannot start a name.
    """
    every = _build(_keys(names))
    loose = _build(_keys(tuple(n for n in names if n not in STRICT_NAMES)))
    alts = []
    for ch in sorted(k for k in every if k):
        alts.append(f"{ch}(?<![A-Za-z0-9]{ch}){_emit(every[ch])}")
        if ch.isalpha():
            up = ch.upper()
            free = f"(?<![A-Za-z0-9]{up}){_emit(every[ch])}"
            if ch in loose:
                free = f"(?:{free}|(?<=[A-Za-z0-9]{up}){_emit(loose[ch])})"
            alts.append(up + free)
    return f"(?:{'|'.join(alts)})(?![A-Za-z0-9])"


def query_name_regex(names: tuple[str, ...]) -> str:
    """Return a regex matching a query/form parameter name (any case) ending in ``names``."""
    return rf"(?:[A-Za-z0-9]*[_.-])*{_trie(_keys(names))}"


def _loose(names: tuple[str, ...]) -> str:
    alts = {r"[_.-]?".join(re.escape(w) for w in name.lower().split()) for name in names}
    return "|".join(sorted(alts, key=lambda s: (-len(s), s)))


def name_trigger(names: tuple[str, ...]) -> str:
    """Return the prefilter for :func:`name_regex` pairs: a secret name, then ``=`` or ``:``."""
    return rf"(?i)(?:{_loose(names)})\\?[\"']?\s*[:=]"


def query_trigger(names: tuple[str, ...]) -> str:
    """Return the prefilter for query parameters: ``?``/``&``, a name, then ``=``."""
    return rf"(?i)[?&;#][a-z0-9_.-]*(?:{_loose(names)})="
