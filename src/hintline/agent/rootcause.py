"""The root-cause step, by key: which upstream step should have produced what a failed step missed.

A hint carries the offending ``key`` (``'user_id'`` for a foreign-key violation, a ``KeyError``,
a missing field). Given the steps of a plan or graph with what each produces and consumes, the
step that should have held the key is the nearest step before the failed one that produces it::

    from hintline.agent.rootcause import Step, Steps

    steps = Steps([
        Step("create_user", produces={"user_id"}),
        Step("create_order", consumes={"user_id", "item"}),
    ])
    steps.root_cause("create_order", "user_id", ran={"create_order"}).text
    # "create_order failed: no user 'user_id'; the step that produces it, create_user, did not run."

``Steps.from_langgraph(graph)`` reads a LangGraph ``StateGraph`` (compiled or not): each node is a
step, a ``ToolNode``'s tools are steps, ``produces`` comes from a node's or tool's return
annotation (a ``TypedDict``, dataclass or pydantic model) and ``consumes`` from its input schema
or arguments; ``produces=`` / ``consumes=`` mappings add what annotations cannot say. Give the
result to ``AgentGuard(steps=...)`` and every failure naming a key says which step to look at,
in the tool result and in the escalation summary.
"""

from __future__ import annotations

import dataclasses
import inspect
import typing
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hintline.hint import Hint

__all__ = ["RootCause", "Step", "Steps"]


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a plan or graph: its name, the keys it produces and the keys it consumes."""

    name: str
    produces: frozenset[str] = field(default_factory=frozenset)
    consumes: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        object.__setattr__(self, "produces", frozenset(self.produces))
        object.__setattr__(self, "consumes", frozenset(self.consumes))


@dataclass(frozen=True, slots=True)
class RootCause:
    """The step that should have produced ``key`` for ``failed``.

    Attributes:
        failed: the step that failed.
        key: the key it missed.
        producer: the step that produces the key.
        ran: whether the producer ran in this run (``None``: not known).
    """

    failed: str
    key: str
    producer: str
    ran: bool | None = None

    @property
    def text(self) -> str:
        """One sentence for the model and the summary."""
        head = f"{self.failed} failed: no {_entity(self.key)} '{self.key}'; the step that produces it, {self.producer},"
        if self.ran is None:
            return f"{head} did not run or returned nothing."
        if not self.ran:
            return f"{head} did not run."
        return f"{head} ran: check that its '{self.key}' was passed on, or that it returned one."


def _entity(key: str) -> str:
    base = key.rsplit(".", 1)[-1]
    for suffix in ("_id", "Id", "_ID", "_key", "_name"):
        if base.endswith(suffix) and len(base) > len(suffix):
            return base[: -len(suffix)].replace("_", " ")
    return "value for"


def _variants(key: str) -> set[str]:
    key = key.strip().lower()
    base = key.rsplit(".", 1)[-1]
    out = {key, base}
    for suffix in ("_id", "id"):
        if base.endswith(suffix) and len(base) > len(suffix):
            stem = base[: -len(suffix)].rstrip("_")
            out |= {stem, stem + "s"}
    return out


class Steps:
    """The steps of a plan or graph, in order, with what each produces and consumes.

    Args:
        steps: :class:`Step` values, or ``(name, produces, consumes)`` tuples, or mappings with
            ``name`` / ``produces`` / ``consumes``, in the order they are meant to run.
    """

    def __init__(self, steps: Iterable[Step | tuple[Any, ...] | Mapping[str, Any]]) -> None:
        self._steps: list[Step] = [_step(s) for s in steps]

    def __iter__(self) -> typing.Iterator[Step]:
        return iter(self._steps)

    def __len__(self) -> int:
        return len(self._steps)

    def __repr__(self) -> str:
        return f"Steps({self._steps!r})"

    def step(self, name: str) -> Step | None:
        """The step called ``name``."""
        return next((s for s in self._steps if s.name == name), None)

    def producers(self, key: str) -> list[Step]:
        """The steps that produce ``key`` (or the entity it identifies: ``user_id`` → ``user``)."""
        wanted = _variants(key)
        return [s for s in self._steps if {p.lower() for p in s.produces} & wanted]

    def root_cause(
        self, failed: str, key: str | Hint | None, *, ran: Iterable[str] | None = None
    ) -> RootCause | None:
        """The step that should have produced ``key`` for the failed step ``failed``.

        Args:
            failed: the name of the failed step (a tool or a node).
            key: the missing key, or a hint (its ``key``).
            ran: the steps that ran so far in this run, if known.
        """
        if isinstance(key, Hint):
            key = key.key
        if not key:
            return None
        candidates = [s for s in self.producers(key) if s.name != failed]
        if not candidates:
            return None
        names = [s.name for s in self._steps]
        position = names.index(failed) if failed in names else len(names)
        before = [s for s in candidates if names.index(s.name) < position]
        producer = (before or candidates)[-1 if before else 0]
        did_run = None if ran is None else producer.name in set(ran)
        return RootCause(failed, key, producer.name, did_run)

    @classmethod
    def from_langgraph(
        cls,
        graph: Any,
        *,
        produces: Mapping[str, Iterable[str]] | None = None,
        consumes: Mapping[str, Iterable[str]] | None = None,
    ) -> Steps:
        """The steps of a LangGraph ``StateGraph`` (or a compiled one), in graph order.

        Each node is a step; a ``ToolNode`` contributes one step per tool. ``produces`` and
        ``consumes`` (by step name) add to what the annotations say.
        """
        builder = getattr(graph, "builder", graph)
        nodes: Mapping[str, Any] = getattr(builder, "nodes", {})
        state_schema = getattr(builder, "state_schema", None)
        extra_p = {k: set(v) for k, v in (produces or {}).items()}
        extra_c = {k: set(v) for k, v in (consumes or {}).items()}
        steps: list[Step] = []
        for name in _graph_order(builder):
            spec = nodes.get(name)
            if spec is None:
                continue
            runnable = getattr(spec, "runnable", None)
            tools = getattr(runnable, "tools_by_name", None)
            if isinstance(tools, Mapping):
                for tool_name, tool in tools.items():
                    fn = getattr(tool, "func", None) or getattr(tool, "coroutine", None)
                    args = getattr(tool, "args", None)
                    produced = _return_keys(fn) | extra_p.get(str(tool_name), set())
                    consumed = {str(a) for a in (args if isinstance(args, Mapping) else ())}
                    consumed |= extra_c.get(str(tool_name), set())
                    steps.append(Step(str(tool_name), frozenset(produced), frozenset(consumed)))
                continue
            fn = getattr(runnable, "func", None) or getattr(runnable, "afunc", None)
            schema = getattr(spec, "input_schema", None)
            inputs = set() if schema is state_schema else _schema_keys(schema)
            steps.append(
                Step(
                    name,
                    frozenset(_return_keys(fn) | extra_p.get(name, set())),
                    frozenset(inputs | extra_c.get(name, set())),
                )
            )
        known = {s.name for s in steps}
        for name in (set(extra_p) | set(extra_c)) - known:
            steps.append(
                Step(name, frozenset(extra_p.get(name, set())), frozenset(extra_c.get(name, set())))
            )
        return cls(steps)


def _step(value: Step | tuple[Any, ...] | Mapping[str, Any]) -> Step:
    if isinstance(value, Step):
        return value
    if isinstance(value, Mapping):
        return Step(
            str(value["name"]),
            frozenset(value.get("produces") or ()),
            frozenset(value.get("consumes") or ()),
        )
    name, *rest = value
    produced = rest[0] if len(rest) > 0 else ()
    consumed = rest[1] if len(rest) > 1 else ()
    return Step(str(name), frozenset(produced or ()), frozenset(consumed or ()))


def _graph_order(builder: Any) -> list[str]:
    """Node names breadth-first from ``__start__`` along edges and branches, then the rest."""
    edges: dict[str, list[str]] = {}
    for start, end in sorted(getattr(builder, "edges", set())):
        edges.setdefault(start, []).append(end)
    for source, branches in getattr(builder, "branches", {}).items():
        for branch in branches.values():
            ends = getattr(branch, "ends", None)
            if isinstance(ends, Mapping):
                edges.setdefault(source, []).extend(str(e) for e in ends.values())
    for name, spec in getattr(builder, "nodes", {}).items():
        ends = getattr(spec, "ends", None)
        if isinstance(ends, Mapping):
            edges.setdefault(name, []).extend(str(e) for e in ends.values())
        elif isinstance(ends, tuple):
            edges.setdefault(name, []).extend(str(e) for e in ends)
    order: list[str] = []
    queue, seen = deque(["__start__"]), {"__start__"}
    while queue:
        node = queue.popleft()
        if node not in ("__start__", "__end__"):
            order.append(node)
        for nxt in edges.get(node, []):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    order += [n for n in getattr(builder, "nodes", {}) if n not in seen]
    return order


def _schema_keys(schema: Any) -> set[str]:
    if schema is None or schema is type(None):
        return set()
    fields = getattr(schema, "model_fields", None)
    if isinstance(fields, Mapping):
        return {str(k) for k in fields}
    if dataclasses.is_dataclass(schema):
        return {f.name for f in dataclasses.fields(schema)}
    if isinstance(schema, type) and issubclass(schema, dict):
        try:
            return {str(k) for k in typing.get_type_hints(schema)}
        except Exception:  # unresolvable forward references: nothing known
            return set(getattr(schema, "__annotations__", {}))
    return set()


def _return_keys(fn: Any) -> set[str]:
    """The keys a function's return annotation promises (a TypedDict, dataclass, model)."""
    if fn is None:
        return set()
    try:
        hints = typing.get_type_hints(fn)
    except Exception:  # unresolvable annotations: nothing known
        try:
            hints = {"return": inspect.signature(fn).return_annotation}
        except (TypeError, ValueError):
            return set()
    annotation = hints.get("return")
    found: set[str] = set()
    for candidate in (annotation, *typing.get_args(annotation)):
        if isinstance(candidate, type):
            found |= _schema_keys(candidate)
    return found
