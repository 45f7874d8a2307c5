"""Fuzz inputs for the scrubber's differential and idempotence checks (issue 14, section 3).

Texts are glued from the secret table's own examples, near misses and triggers, the rules'
examples, random text (non-ASCII and lone surrogates included), and the characters that sit
around secrets (quotes, backslashes, ``=``, ``:``, newlines, masks). The test command runs a
reduced count; ``python -m benchmarks fuzz`` runs 200,000 per function.
"""

from __future__ import annotations

from hypothesis import strategies as st

from hintline.rules import RULES
from hintline.scrub import MASK, SECRETS

__all__ = ["texts"]

_PIECES = sorted(
    {
        *(e for p in SECRETS for e in p.examples),
        *(n for p in SECRETS for n in p.near_misses),
        *(e.input[:400] for r in RULES[::7] for e in r.examples),
        "password", "token", "secret", "Authorization", "Bearer", "AWS secret", "aws_secret_access_key",
        "Set-Cookie", "Cookie", "jdbc:oracle:thin:", "-----BEGIN RSA PRIVATE KEY-----", "-----END",
        "postgresql://", "?api_key=", "&sig=", "eyJhbGciOiJIUzI1NiJ9", "AKIA", "ghp_", "sk-",
    }
)
_GLUE = st.sampled_from(
    ["", " ", "\n", "\t", "=", ":", ": ", "\\", "\\\\", '"', "'", "`", ",", ";", "&", "@", "/",
     MASK, "x", "é", "\u0130", "\ufffd", "\ud800", "  ", "\r\n", "{", "}", "[", "]"]
)
_WORD = st.text(
    alphabet=st.sampled_from(list("abcXYZ0189_-./+=:@ \"'\\é\u212a")), min_size=1, max_size=24
)


def texts() -> st.SearchStrategy[str]:
    """A text of pieces: table examples and near misses, words, glue."""
    piece = st.one_of(
        st.sampled_from(_PIECES),
        st.sampled_from(_PIECES).flatmap(lambda p: st.integers(0, len(p)).map(lambda k: p[:k])),
        _WORD,
        st.text(max_size=16),
    )
    part = st.tuples(piece, _GLUE).map("".join)
    return st.lists(part, min_size=1, max_size=8).map("".join)
