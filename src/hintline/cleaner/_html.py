"""An HTML error page as the text a person would read: its ``<pre>`` blocks (a framework's
debug page: the error itself; the title would only add "500 Internal Server Error"), else its
title and body text; tags, scripts and styles dropped, ``<br>`` a line
break, entities decoded. Linear in the page. Part of :mod:`hintline.cleaner.normalise`.
"""

from __future__ import annotations

import re

__all__ = ["html_text", "is_html"]

_MAX_ELEMENTS = 64
_TAG = re.compile(
    r"<(?:!DOCTYPE|/?(?:html|head|body|pre|p|br|h[1-6]|title|div|span|code|hr|center|table|"
    r"tr|td|ul|li|b|i|a|em|strong|address|main|section|article)\b)[^>]{0,2000}>",
    re.IGNORECASE,
)
_TITLE = re.compile(r"<title[^>]{0,200}>(.{0,500}?)</title\s*>", re.IGNORECASE | re.DOTALL)
_BREAK = re.compile(r"<br\s*/?>|</(?:p|div|h[1-6]|li|tr|pre|title|address|center)\s*>|<hr\b[^>]{0,2000}>",
                    re.IGNORECASE)  # fmt: skip
_ANY_TAG = re.compile(r"</?[A-Za-z!][^<>]{0,2000}>")
_BLANKS = re.compile(r"\n[ \t]*(?:\n[ \t]*)+")


def html_text(text: str) -> str:
    """The text of an HTML page or fragment: its ``<pre>`` blocks, else its title and body text;
    tags dropped, entities decoded."""
    title_found = _TITLE.search(text)
    title = _tags_out(title_found[1]).strip() if title_found else ""
    lower = text.lower()
    pres = _elements(text, lower, "pre")
    if pres:
        body = "\n".join(_tags_out(text[start:end]) for start, end in pres)
    else:
        visible = []
        at = 0
        for start, end in sorted(
            span for name in ("script", "style", "head") for span in _elements(text, lower, name)
        ):
            if start >= at:
                visible.append(text[at : text.rfind("<", at, start) if start > at else at])
                at = lower.find(">", end) + 1 or len(text)
        visible.append(text[at:])
        body = _tags_out("".join(visible))
    body = _BLANKS.sub("\n", body).strip("\n")
    if pres and body:
        return body  # the error the page shows; its title only says that it failed (HTTP 500)
    if title and title not in body:
        return f"{title}\n{body}" if body else title
    return body or title


def _elements(text: str, lower: str, name: str) -> list[tuple[int, int]]:
    """The content spans of every ``<name …>…</name>`` element, found in one pass (an element
    left open runs to the end of the text)."""
    spans: list[tuple[int, int]] = []
    at = 0
    while len(spans) < _MAX_ELEMENTS:
        start = lower.find(f"<{name}", at)
        if start < 0:
            break
        after = lower[start + len(name) + 1 : start + len(name) + 2]
        opened = lower.find(">", start)
        if opened < 0:
            break
        if after not in (">", " ", "\t", "\n", "/"):
            at = opened + 1
            continue  # <prefix…>, not <pre>
        close = lower.find(f"</{name}", opened)
        end = len(text) if close < 0 else close
        spans.append((opened + 1, end))
        at = end + 1
    return spans


def _tags_out(fragment: str) -> str:
    if "<" in fragment:  # (both patterns open with it: a <pre>'s escaped text has none)
        fragment = _BREAK.sub("\n", fragment)
        fragment = _ANY_TAG.sub("", fragment)
    import html  # here, not at start-up: most errors are not pages

    return html.unescape(fragment)


# The letters a known tag's name starts with, after its ``<`` (``<module>``, ``<init>``,
# ``<lambda>`` in traces start with none of them, and are passed over without the regex).
_TAG_FIRST = frozenset("!/hHpPbBtTdDsScCaA")
# What may come before a page's first ``<``: the blanks normalise() reads as a text's start.
_LEADING = " \t\n\r\ufeff"


def is_html(text: str) -> bool:
    """Whether ``text`` is an HTML page or fragment: it opens with markup (after blanks: a
    doctype, ``<html>``, a fragment's first tag) and a known tag opens in its first 512
    characters (up to 8 ``<`` are tried: a ``<?xml …?>`` or a comment may come first).

    A text that opens with words is read as it is, whatever markup it quotes: a trace's
    ``<module>``, a template or parser error's ``unexpected '<b>'``, React's ``<div> cannot
    appear as a descendant of <p>``, a message before a response body (the rules read the
    body's words as they are).
    """
    if text[:1] != "<" and text.lstrip(_LEADING)[:1] != "<":
        return False
    at = text.find("<", 0, 512)
    tries = 0
    while at >= 0 and tries < 8:
        if text[at + 1 : at + 2] in _TAG_FIRST and _TAG.match(text, at):
            return True
        at = text.find("<", at + 1, 512)
        tries += 1
    return False
