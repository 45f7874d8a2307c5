"""Compact a thread's error events once the agent has recovered (12-factor agents, factor 9).

Raw errors (tracebacks, ``repr(e)``, validation dumps) help the model once, on the next turn.
After it has recovered (a later tool call succeeded) they only fill the context window. The
helpers here rewrite every error *before the last success* into its one-line hint and collapse
repeats; errors after the last success (the agent is still working on them) are left alone.
Input is never modified: a new thread is returned with the token counts before and after.

Two thread shapes:

* :func:`compact_events`: the factor-9 event list, ``{"type": "error", "data": …}`` events
  between ``{"type": "<intent>_result", …}`` events. Repeated errors are merged into the first
  one (``(×3)``), since events have no pairing to keep.
* :func:`compact_messages`: chat messages of the Anthropic Messages API (``tool_result``
  blocks with ``is_error``) and OpenAI Chat (``role: tool``) / Responses
  (``function_call_output``). Every result stays, paired with its call id; a repeat becomes a
  short back-reference.

Tokens are counted with :func:`count_tokens`, an *approximation* (words and punctuation marks),
not a model's tokenizer: real BPE tokenizers need downloaded vocabularies. It is close enough to
compare a thread before and after.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from hintline.agent.formats import ERROR_PREFIX
from hintline.hint import Hint, clean
from hintline.scrub import scrub

__all__ = ["Compaction", "compact_events", "compact_messages", "count_tokens"]

_TOKEN = re.compile(r"\w+|[^\w\s]", re.UNICODE)
REPEAT = "(same error as an earlier call)"

JSONDict = dict[str, object]


def count_tokens(text: str) -> int:
    """Approximate token count: runs of word characters plus single punctuation marks."""
    return len(_TOKEN.findall(text))


def _tokens_of(value: object) -> int:
    if isinstance(value, str):
        return count_tokens(value)
    if isinstance(value, Mapping):
        return sum(_tokens_of(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return sum(_tokens_of(v) for v in value)
    return 0


@dataclass(frozen=True, slots=True)
class Compaction:
    """A compacted thread and what it saved.

    Attributes:
        thread: the rewritten thread (new objects; the input is untouched).
        tokens_before: approximate tokens of the input (:func:`count_tokens`).
        tokens_after: approximate tokens of ``thread``.
        rewritten: error events replaced by their hint.
        collapsed: repeated errors merged or shortened.
    """

    thread: list[JSONDict]
    tokens_before: int
    tokens_after: int
    rewritten: int
    collapsed: int

    @property
    def saved(self) -> int:
        """Tokens saved."""
        return self.tokens_before - self.tokens_after


def _text_of(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            str(b.get("text", "")) for b in content if isinstance(b, Mapping) and b.get("type") == "text"
        ]
        return "\n".join(parts)
    return "" if content is None else str(content)


def _hint_line(text: str, classify: Callable[[str], Hint]) -> str:
    stripped = text.removeprefix(ERROR_PREFIX).strip()
    first = stripped.splitlines()[0] if stripped else ""
    if first.startswith("Hint: "):
        return scrub(first)
    return classify(stripped).text


def compact_events(
    events: Sequence[Mapping[str, object]],
    *,
    error_type: str = "error",
    classify: Callable[[str], Hint] = clean,
) -> Compaction:
    """Compact a factor-9 event thread: resolved errors become hints; repeats are merged.

    An event is a mapping with ``type`` and ``data``. Errors have ``type == error_type``; a
    success is any event whose type ends in ``_result``. Errors after the last success are kept.
    """
    thread = [dict(copy.deepcopy(e)) for e in events]
    last_success = max(
        (i for i, e in enumerate(thread) if str(e.get("type", "")).endswith("_result")), default=-1
    )
    out: list[JSONDict] = []
    first_of: dict[str, int] = {}
    counts: dict[str, int] = {}
    rewritten = collapsed = 0
    for i, event in enumerate(thread):
        if event.get("type") != error_type or i > last_success:
            out.append(event)
            continue
        hint = _hint_line(_text_of(event.get("data")), classify)
        rewritten += 1
        if hint in first_of:
            counts[hint] += 1
            collapsed += 1
            out[first_of[hint]]["data"] = f"{hint} (×{counts[hint]})"
            continue
        first_of[hint], counts[hint] = len(out), 1
        event["data"] = hint
        out.append(event)
    return Compaction(out, _tokens_of(list(events)), _tokens_of(out), rewritten, collapsed)


def _is_error_text(text: str) -> bool:
    return text.startswith(ERROR_PREFIX) or "Traceback (most recent call last)" in text


def _results(message: JSONDict) -> list[tuple[JSONDict, str, bool]]:
    """(holder, content key, is_error) of each tool result in a message."""
    found: list[tuple[JSONDict, str, bool]] = []
    if message.get("role") == "tool":
        found.append((message, "content", _is_error_text(_text_of(message.get("content")))))
    elif message.get("type") == "function_call_output":
        found.append((message, "output", _is_error_text(_text_of(message.get("output")))))
    else:
        content = message.get("content")
        for block in content if isinstance(content, list) else []:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                found.append((block, "content", block.get("is_error") is True))
    return found


def compact_messages(
    messages: Sequence[Mapping[str, object]],
    *,
    is_error: Callable[[str], bool] | None = None,
    classify: Callable[[str], Hint] = clean,
) -> Compaction:
    """Compact the error tool results of an Anthropic or OpenAI message list.

    Anthropic ``tool_result`` blocks are errors when ``is_error`` is true. OpenAI results carry
    no flag, so a result is an error when ``is_error(text)`` says so (by default: it starts
    with :data:`~hintline.agent.formats.ERROR_PREFIX` or holds a Python traceback).
    """
    thread = [dict(copy.deepcopy(m)) for m in messages]
    located = [(i, holder, key, flag) for i, m in enumerate(thread) for holder, key, flag in _results(m)]
    if is_error is not None:
        located = [
            (i, h, k, flag if "tool_use_id" in h else is_error(_text_of(h.get(k))))
            for i, h, k, flag in located
        ]
    last_success = max((i for i, _, _, flag in located if not flag), default=-1)
    seen: set[str] = set()
    rewritten = collapsed = 0
    for i, holder, key, flag in located:
        if not flag or i > last_success:
            continue
        hint = _hint_line(_text_of(holder.get(key)), classify)
        rewritten += 1
        text = hint
        if hint in seen:
            collapsed += 1
            text = REPEAT
        seen.add(hint)
        holder[key] = text if "tool_use_id" in holder else ERROR_PREFIX + text
    return Compaction(thread, _tokens_of(list(messages)), _tokens_of(thread), rewritten, collapsed)
