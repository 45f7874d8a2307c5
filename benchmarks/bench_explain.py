"""hintline's own cost around a model call (the call itself is the model's): building what is
sent from a parsed real Python trace, the request, validating an answer, labelling it, and a
whole ``explain()`` with a provider that answers at once and a usage store in memory."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks._harness import Case
from hintline.explain import (
    ChatReply,
    ChatRequest,
    Configuration,
    TrustZone,
    UsageRecord,
    anchor,
    build_payload,
    build_request,
    explain,
    parse_answer,
)
from hintline.logs import Entry
from hintline.traces import parse_trace

FIX = Path(__file__).resolve().parents[1] / "tests" / "traces" / "fixtures" / "python"
ROOT = "/tmp/hintline-traces/python"
LOCAL = Configuration(name="local", zone=TrustZone.LOCAL)
PRIVATE = Configuration(name="team", zone=TrustZone.PRIVATE_HOSTED)
ANSWER = json.dumps({"cause": "the upstream refused the connection", "next_step": "start it",
                     "frame": 3})


class _Answering:
    def complete(self, request: ChatRequest) -> ChatReply:
        del request
        return ChatReply(content=ANSWER, finish_reason="stop", model="m", prompt_tokens=1,
                         completion_tokens=1)


class _MemoryStore:
    def __init__(self) -> None:
        self.rows: list[UsageRecord] = []

    def record(self, record: UsageRecord) -> None:
        self.rows.append(record)
        del self.rows[:-10]

    def recent(self, limit: int = 20) -> list[UsageRecord]:
        return self.rows[-limit:][::-1]

    def describe(self) -> str:
        return "memory"


def _entry() -> Entry:
    text = (FIX / "requests_connection_refused.txt").read_text(encoding="utf-8")
    trace = parse_trace(text, project_root=ROOT)
    return Entry(key="bench", timestamp=None, level="ERROR", component="shop.sync",
                 message="sync failed for postgresql://shop:Sup3rS3cret@db:5432/shop",
                 exception_type=trace.outermost.type if trace.outermost else None,
                 trace=trace, raw=text, source="app.log", format="python")


def cases() -> list[Case]:
    """Benchmark rows for ``python -m benchmarks explain``."""
    entry = _entry()
    payload = build_payload(entry, LOCAL, project_root=ROOT)
    reply = ChatReply(content=ANSWER, finish_reason="stop")
    store = _MemoryStore()
    provider = _Answering()
    return [
        Case("explain", "build_payload local (real trace)",
             lambda: build_payload(entry, LOCAL, project_root=ROOT), 1000),
        Case("explain", "build_payload private_hosted",
             lambda: build_payload(entry, PRIVATE, project_root=ROOT), 1000),
        Case("explain", "build_request", lambda: build_request(payload, max_tokens=512,
                                                                temperature=0), 200),
        Case("explain", "parse_answer", lambda: parse_answer(reply, max_tokens=512), 200),
        Case("explain", "anchor", lambda: anchor(3, payload, ROOT), 50),
        Case("explain", "explain() without the model",
             lambda: explain(entry, configuration=LOCAL, project_root=ROOT, provider=provider,
                             usage=store), 5000,
             "instant provider, usage in memory; target: a quarter of the fastest model answer "
             "(20 ms, the tests' tiny model)"),
    ]
