"""The agent guard's own cost per tool call (the tool's cost is the tool's): a successful call,
a recoverable failure (clean + context + record), the argument fingerprint, a loop check, a
guard round trip through JSON, and compacting a real 13-event thread (factor 9)."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks._harness import Case
from hintline.agent import AgentGuard, GuardPolicy, canonical_args
from hintline.agent.compaction import compact_events

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "agent" / "fixtures" / "factor9_thread.json"
ARGS = {"path": "reports/customers_report.csv", "encoding": "utf-8", "limit": 100}


def _missing() -> str:
    raise KeyError("customer_id")


def cases() -> list[Case]:
    """Rows for ``python -m benchmarks agent``."""
    policy = GuardPolicy(max_consecutive_errors=10**9, max_loop_warnings=None)
    ok_guard = AgentGuard(policy)
    fail_guard = AgentGuard(policy)
    counter = iter(range(10**12))
    events = json.loads(FIXTURE.read_text(encoding="utf-8"))["events"]
    snapshot = ok_guard.to_dict()
    return [
        Case("agent", "call: success (record + loop check)",
             lambda: ok_guard.call("read_file", {"n": next(counter)}, lambda: "ok")),
        Case("agent", "call: recoverable failure (clean + record)",
             lambda: fail_guard.call("lookup", {"n": next(counter)}, _missing)),
        Case("agent", "canonical_args (3 keys)", lambda: canonical_args(ARGS)),
        Case("agent", "to_dict + from_dict (JSON round trip)",
             lambda: AgentGuard.from_dict(json.loads(json.dumps(snapshot)))),
        Case("agent", "compact_events (13 real events)", lambda: compact_events(events)),
    ]
