"""Compaction of error events (factor 9) on a thread with real raw errors."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hintline.agent.compaction import REPEAT, compact_events, compact_messages, count_tokens
from hintline.agent.formats import ERROR_PREFIX

FIXTURE = Path(__file__).parent / "fixtures" / "factor9_thread.json"


def events() -> list[dict[str, Any]]:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return list(data["events"])


def as_anthropic(evts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same run as Anthropic messages: tool_use / tool_result pairs."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": evts[0]["data"]}]
    for n, (call, result) in enumerate(zip(evts[1::2], evts[2::2], strict=False), 1):
        messages.append({"role": "assistant", "content": [
            {"type": "tool_use", "id": f"toolu_{n}", "name": call["type"], "input": {"args": call["data"]}},
        ]})
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": f"toolu_{n}",
                                 "content": result["data"] if isinstance(result["data"], str) else json.dumps(result["data"])}
        if result["type"] == "error":
            block["is_error"] = True
        messages.append({"role": "user", "content": [block]})
    return messages


def as_openai_chat(evts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [{"role": "user", "content": evts[0]["data"]}]
    for n, (call, result) in enumerate(zip(evts[1::2], evts[2::2], strict=False), 1):
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"call_{n}", "type": "function", "function": {"name": call["type"], "arguments": json.dumps({"args": call["data"]})}},
        ]})
        data = result["data"] if isinstance(result["data"], str) else json.dumps(result["data"])
        messages.append({"role": "tool", "tool_call_id": f"call_{n}", "content": data})
    return messages


class TestCountTokens:
    def test_counts_words_and_punctuation(self) -> None:
        """Words and punctuation marks each count once."""
        assert count_tokens("Hint: file 'a.txt' not found.") == 11
        assert count_tokens("") == 0


class TestCompactEvents:
    def test_real_thread_is_compacted(self) -> None:
        """Three real tracebacks become hints; the repeated one is merged; tokens drop."""
        original = events()
        snapshot = copy.deepcopy(original)
        result = compact_events(original)
        assert original == snapshot  # input untouched
        errors = [e for e in result.thread if e["type"] == "error"]
        assert result.rewritten == 3
        assert result.collapsed == 1
        assert len(errors) == 2
        assert all(str(e["data"]).startswith("Hint: ") for e in errors)
        assert str(errors[0]["data"]).endswith("(×2)")
        assert all("Traceback" not in str(e["data"]) for e in errors)
        raw_error_tokens = sum(count_tokens(e["data"]) for e in original if e["type"] == "error")
        assert result.saved > raw_error_tokens * 0.6
        non_errors = [e for e in original if e["type"] != "error"]
        assert [e for e in result.thread if e["type"] != "error"] == non_errors

    def test_unresolved_errors_are_kept(self) -> None:
        """Errors after the last success (still being worked on) stay raw."""
        head = events()[:5]  # user, read, error, read, error: no success yet
        result = compact_events(head)
        assert result.thread == head
        assert result.saved == 0


class TestCompactMessages:
    def test_anthropic_thread(self) -> None:
        """tool_result errors become hints, repeats a back-reference; ids and flags stay."""
        messages = as_anthropic(events())
        result = compact_messages(messages)
        blocks = [b for m in result.thread if isinstance(m["content"], list) for b in m["content"] if b.get("type") == "tool_result"]
        errors = [b for b in blocks if b.get("is_error")]
        assert [b["tool_use_id"] for b in blocks] == [f"toolu_{i}" for i in range(1, 7)]
        assert len(errors) == 3
        assert str(errors[0]["content"]).startswith("Hint: ")
        assert errors[1]["content"] == REPEAT
        assert result.saved > 0

    def test_openai_chat_thread(self) -> None:
        """role:tool errors (tracebacks, no flag) are found and rewritten with the prefix."""
        result = compact_messages(as_openai_chat(events()))
        tools = [m for m in result.thread if m["role"] == "tool"]
        rewritten = [m for m in tools if str(m["content"]).startswith(ERROR_PREFIX)]
        assert len(rewritten) == 3
        assert result.rewritten == 3
        assert "Traceback" not in json.dumps(result.thread)

    def test_secrets_do_not_survive(self) -> None:
        """A credential inside a raw error is not in the compacted thread."""
        messages = [
            {"role": "tool", "tool_call_id": "a", "content": ERROR_PREFIX + "could not connect to postgres://app:s3cretpw@db:5432/x"},
            {"role": "tool", "tool_call_id": "b", "content": "ok"},
        ]
        result = compact_messages(messages)
        assert "s3cretpw" not in json.dumps(result.thread)
