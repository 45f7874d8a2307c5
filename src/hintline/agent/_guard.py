"""``AgentGuard``: what to do with each tool failure of an agent run, and when to stop the run.

Each failure is cleaned (:func:`hintline.clean`) and handled by its kind:

* **recoverable**: returned to the model as an error tool result: the hint, plus short context
  (exception notes, "Perhaps you meant …" for a missing file), bounded in length.
* **policy**: a concise refusal that says the restriction is intentional, cannot be bypassed,
  and that the model should ask the user. Never retried; the same call again is refused
  without running the tool.
* **system**: never shown to the model. Transient faults are retried with backoff (a network
  blip first gets one immediate retry; ``Retry-After`` is honoured); permanent ones are not.
  When retries are spent the run stops with :class:`~hintline.RetryBudgetExhausted`.
* **logic**: the same call repeated, or two calls alternating, adds a meta-message to the
  result; a loop that continues past the warnings raises :class:`~hintline.LoopDetected`.

Consecutive failures (recoverable or policy) are counted; a success resets the count; at the
threshold the run stops with :class:`~hintline.TooManyConsecutiveErrors`, whose ``summary``
lists each call and its hint, in order, for a human.

The guard holds no state of its own: it lives in a :class:`~hintline.agent.GuardStore` under
the guard's ``run_id`` (in memory by default), and :meth:`AgentGuard.to_dict` /
:meth:`AgentGuard.from_dict` move a run elsewhere. One guard object serves many runs: each run,
thread or client session works on :meth:`AgentGuard.for_run` (the integrations do this with the
framework's own run hook), or inside ``with guard.run():``.

Decisions the taxonomy leaves open (README "Agents"):

* a tool named in ``GuardPolicy.non_idempotent`` (or called with ``idempotent=False``) is only
  retried when the fault proves the call never reached the service (connection refused, DNS,
  429); tools that declare nothing are retried as idempotent;
* a connection refused (or a name not resolved) for an address that is in the call's arguments
  is the model's to fix: after the one immediate retry it gets the hint, not five retries;
* failures of calls made in one model turn stop the run only once the model has seen a hint;
* a refusal is remembered for the run (the same call again is refused without running), except
  a credentials refusal (HTTP 401), which can succeed once the credentials are fixed.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import random
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from hintline.agent._classify import Classifier, classify, is_blip, retry_after
from hintline.agent._decide import (
    ADDRESS_FAULTS,
    CREDENTIALS_SUFFIX,
    NOT_REMEMBERED,
    causes,
    for_model,
    model_address,
    never_arrived,
    sentence,
)
from hintline.agent._outcome import Failure, Outcome, canonical_args
from hintline.agent._policy import GuardPolicy
from hintline.agent._runs import current_run, enter_run, leave_run
from hintline.agent._store import Attempt, GuardState, GuardStore, InMemoryStore, JSONDict
from hintline.agent.suggest import perhaps_you_meant
from hintline.categories import Category, Kind, Retry
from hintline.exceptions import (
    ConfigError,
    GuardTripped,
    LoopDetected,
    RetryBudgetExhausted,
    TooManyConsecutiveErrors,
)
from hintline.hint import Hint, clean
from hintline.scrub import scrub, scrub_cut

if TYPE_CHECKING:
    from hintline.agent.rootcause import Steps

__all__ = ["AgentGuard", "Failure", "Outcome", "canonical_args"]

T = TypeVar("T")
_FORMAT_VERSION = 1
_ARGS_SHOWN = 200

POLICY_SUFFIX = (
    "This restriction is intentional and cannot be bypassed: do not retry or work around it. "
    "Ask the user how to proceed."
)


class AgentGuard:
    """Classifies each tool failure, acts on its kind, and stops a run that cannot progress.

    Args:
        policy: thresholds and backoff (:class:`~hintline.agent.GuardPolicy`).
        run_id: the key of this run's state in ``store``; a fresh id by default.
        store: where state lives (:class:`~hintline.agent.InMemoryStore` by default).
        classify: turns an error into a hint (:func:`hintline.clean` by default).
        clock: wall-clock seconds, for ``Retry-After`` dates.
        sleep: blocking sleep used between retries by :meth:`call`.
        async_sleep: awaitable sleep used by :meth:`acall`.
        random: a float in ``[0, 1)`` for jitter.
        steps: the steps of the plan or graph with what each produces and consumes
            (:class:`~hintline.agent.rootcause.Steps`): a failure naming a key gets the step that
            should have produced it, in its result and in the escalation summary.

    Example::

        guard = AgentGuard()
        outcome = guard.call("read_file", {"path": p}, lambda: open(p).read())
        reply = outcome.text()   # the content, the hint, and any loop notice
        is_error = outcome.is_error

    .. versionadded:: 0.1.0
    """

    def __init__(
        self,
        policy: GuardPolicy | None = None,
        *,
        run_id: str | None = None,
        store: GuardStore | None = None,
        classify: Classifier = clean,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
        async_sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        random: Callable[[], float] = random.random,
        steps: Steps | None = None,
    ) -> None:
        self.policy = policy or GuardPolicy()
        self.run_id = run_id or uuid.uuid4().hex
        self.store: GuardStore = store if store is not None else InMemoryStore()
        self._classify = classify
        self._clock = clock
        self._sleep = sleep
        self._async_sleep = async_sleep
        self._random = random
        self.steps = steps

    # -- runs -----------------------------------------------------------------------------

    def for_run(self, run_id: str) -> AgentGuard:
        """The guard of one run, thread or session: this guard's policy, store, classifier,
        clock and steps, with its state under ``run_id`` (a run never sees another's state)."""
        guard = copy.copy(self)
        guard.run_id = run_id
        return guard

    def current(self) -> AgentGuard:
        """The guard of the run in progress in this context (see :meth:`run`), else ``self``."""
        key = current_run(self)
        return self if key is None else self.for_run(key)

    @contextmanager
    def run(self, run_id: str | None = None, *, keep: bool = False) -> Iterator[AgentGuard]:
        """Scope one agent run: tools guarded by this guard use a fresh state inside the block.

        Leaving the block forgets the run's state (unless ``keep``), and a guard decision that a
        framework had to carry out of its loop in another form is re-raised as itself.
        """
        key = run_id or uuid.uuid4().hex
        token = enter_run(self, key)
        guard = self.for_run(key)
        try:
            yield guard
        except BaseException as exc:
            tripped = getattr(exc, "tripped", None)
            if isinstance(tripped, GuardTripped) and not isinstance(exc, GuardTripped):
                raise tripped from None
            raise
        finally:
            leave_run(token)
            if not keep:
                guard.reset()

    def forget_refusals(self) -> None:
        """Forget this run's refused calls (a human granted what was refused)."""

        def change(state: GuardState) -> None:
            state.refused.clear()

        self._update(change)

    # -- state ----------------------------------------------------------------------------

    def _update(self, change: Callable[[GuardState], T]) -> T:
        def apply(raw: JSONDict | None) -> tuple[JSONDict, T]:
            state = GuardState.from_dict(raw)
            result = change(state)
            return state.to_dict(), result

        return self.store.update(self.run_id, apply)

    def state(self) -> JSONDict:
        """A JSON-safe snapshot of this run's state."""
        return GuardState.from_dict(self.store.get(self.run_id)).to_dict()

    @property
    def consecutive_errors(self) -> int:
        """Failures since the last success."""
        return GuardState.from_dict(self.store.get(self.run_id)).consecutive_errors

    @property
    def counts(self) -> dict[str, int]:
        """Counters: calls, successes, errors, retries, loops, refused."""
        return dict(GuardState.from_dict(self.store.get(self.run_id)).counts)

    def reset(self) -> None:
        """Forget this run's state (for example after a human has taken over)."""
        self.store.delete(self.run_id)

    def to_dict(self) -> JSONDict:
        """The guard as a JSON-safe dict (policy, run id, state), for :meth:`from_dict`."""
        return {
            "version": _FORMAT_VERSION,
            "run_id": self.run_id,
            "policy": self.policy.to_dict(),
            "state": self.state(),
        }

    @classmethod
    def from_dict(
        cls,
        data: Mapping[str, object],
        *,
        store: GuardStore | None = None,
        classify: Classifier = clean,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
        async_sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        random: Callable[[], float] = random.random,
    ) -> AgentGuard:
        """Resume a run from :meth:`to_dict` output, writing its state into ``store``."""
        if data.get("version") != _FORMAT_VERSION:
            raise ConfigError(f"unsupported guard format version: {data.get('version')!r}")
        policy_raw, state_raw, run_id = data.get("policy"), data.get("state"), data.get("run_id")
        if not isinstance(policy_raw, dict) or not isinstance(state_raw, dict):
            raise ConfigError("guard data needs 'policy' and 'state' objects")
        if not isinstance(run_id, str) or not run_id:
            raise ConfigError("guard data needs a 'run_id' string")
        guard = cls(
            GuardPolicy.from_dict(policy_raw),
            run_id=run_id,
            store=store,
            classify=classify,
            clock=clock,
            sleep=sleep,
            async_sleep=async_sleep,
            random=random,
        )
        state = GuardState.from_dict(state_raw).to_dict()
        guard.store.update(run_id, lambda _old: (state, None))
        return guard

    # -- the steps, for hooks that see only part of a call ----------------------------------

    def begin(self, tool: str, args: Mapping[str, object] | str | None) -> str | None:
        """Record that ``tool`` is being called; return the loop meta-message, if any.

        Raises:
            LoopDetected: the loop went on after ``max_loop_warnings`` meta-messages.
            TooManyConsecutiveErrors: the run was stopped earlier, by this guard or by another
                worker sharing its store (only :meth:`reset` lifts the stop).
        """
        return self._begin(tool, args)[0]

    def _begin(
        self, tool: str, args: Mapping[str, object] | str | None
    ) -> tuple[str | None, Failure | None]:
        """:meth:`begin`, and the earlier refusal of this exact call if there was one."""
        fingerprint = (tool, canonical_args(args))
        policy = self.policy

        def change(
            state: GuardState,
        ) -> tuple[str | None, str | None, tuple[str, str] | None, list[str]]:
            if state.stopped:  # another worker of this run was stopped: so is this one
                return None, None, None, list(state.stopped)
            refused = next(
                ((r[2], r[3]) for r in state.refused if (r[0], r[1]) == fingerprint), None
            )
            notice, stop = loop_check(state)
            return notice, stop, refused, []

        def loop_check(state: GuardState) -> tuple[str | None, str | None]:
            state.bump("calls")
            state.history.append(fingerprint)
            del state.history[: -policy.history_size]
            h = state.history
            k = policy.repeat_threshold
            repeated = len(h) >= k and all(x == fingerprint for x in h[-k:])
            alternating = (
                policy.detect_oscillation
                and len(h) >= 4
                and h[-1] == h[-3]
                and h[-2] == h[-4]
                and h[-1] != h[-2]
            )
            if not (repeated or alternating):
                state.loop_warnings = 0
                return None, None
            state.loop_warnings += 1
            state.bump("loops")
            if repeated:
                times = 0
                for past in reversed(h):
                    if past != fingerprint:
                        break
                    times += 1
                message = (
                    f"You appear to be stuck in a loop: you called {tool} with the same "
                    f"arguments {times} times in a row. Try a different approach or ask the user."
                )
            else:
                message = (
                    f"You appear to be stuck in a loop: you keep alternating between {h[-2][0]} "
                    f"and {tool} with the same arguments. Try a different approach or ask the user."
                )
            limit = policy.max_loop_warnings
            if limit is not None and state.loop_warnings > limit:
                recent = h[-max(4, k + limit) :]
                lines = [f"{message} Stopped after {limit} warnings.", "Recent calls, in order:"]
                lines += [
                    f"{i}. {t}({scrub_cut(a, _ARGS_SHOWN)})" for i, (t, a) in enumerate(recent, 1)
                ]
                return None, "\n".join(lines)
            return "[hintline] " + message, None

        notice, stop, refused, stopped = self._update(change)
        if stopped:
            raise TooManyConsecutiveErrors(stopped[0], summary=stopped[1])
        if stop is not None:
            raise LoopDetected(
                scrub(f"The agent kept repeating {tool} after being told it was stuck."),
                summary=scrub(stop),
            )
        earlier = None
        if refused is not None:
            category = Category.PERMISSION_DENIED
            hint = Hint(refused[0], category, None, None, category.kind, None)
            earlier = Failure(tool, hint, refused[1])
        return (None if notice is None else scrub(notice)), earlier

    def succeed(self, tool: str, args: Mapping[str, object] | str | None = None) -> None:
        """Record a success: the consecutive-error count and streak reset."""
        self._succeeded(tool, args)

    def refusal(self, tool: str, args: Mapping[str, object] | str | None) -> Failure | None:
        """If this exact call was refused by policy earlier in the run, that refusal again."""
        key = (tool, canonical_args(args))
        state = GuardState.from_dict(self.store.get(self.run_id))
        for refused_tool, refused_args, hint_text, content in state.refused:
            if (refused_tool, refused_args) == key:
                category = Category.PERMISSION_DENIED
                hint = Hint(hint_text, category, None, None, category.kind, None)
                return Failure(tool, hint, content)
        return None

    def fail(
        self,
        tool: str,
        args: Mapping[str, object] | str | None,
        error: BaseException | str,
        *,
        turn: str | None = None,
    ) -> Failure:
        """Classify a failure of ``tool``. Recoverable and policy failures are recorded.

        Returns the failure; for a *system* failure nothing is recorded and its ``content`` is
        the message for the user (the caller retries or stops, see :meth:`retry_delay`).
        ``turn`` names the model turn the call belongs to (calls made in parallel share it).

        Raises:
            TooManyConsecutiveErrors: this failure reached ``max_consecutive_errors``.
        """
        failure = self._describe(error, tool)
        if failure.kind is not Kind.SYSTEM:
            self._record(args, failure, turn)
        return failure

    def rejected(
        self,
        tool: str,
        args: Mapping[str, object] | str | None,
        error: BaseException | str,
        *,
        turn: str | None = None,
    ) -> Outcome[Any]:
        """A call the framework rejected before the tool ran (arguments that do not validate,
        an unknown tool): counted and loop-checked like any call, its hint returned.

        Raises:
            TooManyConsecutiveErrors: this failure reached ``max_consecutive_errors``.
            LoopDetected: the loop went on after the warnings.
        """
        notice, _refused = self._begin(tool, args)
        failure = self._describe(error, tool)
        if failure.kind is Kind.SYSTEM:  # a framework's rejection is the model's to fix
            hint = dataclasses.replace(failure.hint, kind=Kind.RECOVERABLE, retry=None)
            failure = Failure(tool, hint, failure.content)
        self._record(args, failure, turn)
        return Outcome(tool, None, failure, notice)

    def describe(self, error: BaseException | str, tool: str = "tool") -> Failure:
        """Classify ``error`` and build its content, recording nothing (for stateless hooks)."""
        return self._describe(error, tool)

    def _describe(
        self, error: BaseException | str, tool: str, ran: set[str] | None = None
    ) -> Failure:
        hint, error = self._classified(error)
        if hint.kind is Kind.SYSTEM:
            return Failure(tool, hint, scrub(hint.text))
        content = self._content(hint, error)
        cause = self._root_cause(tool, hint)
        if cause:
            content = scrub_cut(f"{content}\n{cause}", self.policy.max_result_chars)
        return Failure(tool, hint, scrub(content))

    def _classified(self, error: BaseException | str) -> tuple[Hint, BaseException | str]:
        """The hint, and the error it describes: a framework's wrapper ("Invalid arguments for
        function f", "Error executing tool f") raised from the real cause is read through to
        that cause, which says what to fix (and carries its ``Retry-After``, its errno)."""
        hint = classify(error, self._classify)
        if isinstance(error, BaseException):
            for cause in causes(error):
                inner = classify(cause, self._classify)
                if inner.category is Category.OTHER:
                    continue
                if hint.category is Category.OTHER or inner.category is hint.category:
                    # the cause is what failed (the cleaner may already read through to it)
                    hint, error = inner, cause
                break
        return for_model(hint, error), error

    def _root_cause(self, tool: str, hint: Hint) -> str | None:
        if self.steps is None or not hint.key:
            return None
        state = GuardState.from_dict(self.store.get(self.run_id))
        ran = {t for t, _ in state.history if t != tool} | set(state.succeeded)
        found = self.steps.root_cause(tool, hint.key, ran=ran)
        return None if found is None else found.text

    def _record(
        self, args: Mapping[str, object] | str | None, failure: Failure, turn: str | None = None
    ) -> None:
        tool, hint, content = failure.tool, failure.hint, failure.content
        fingerprint = canonical_args(args)
        shown_args = scrub_cut(fingerprint, _ARGS_SHOWN)  # scrubbed whole, then cut
        threshold = self.policy.max_consecutive_errors
        cause = self._root_cause(tool, hint)
        shown_hint = scrub(hint.text if cause is None else f"{hint.text} {cause}")

        def change(state: GuardState) -> list[str] | None:
            state.bump("errors")
            if hint.kind is Kind.POLICY:
                state.bump("refused")
                remembered = hint.category not in NOT_REMEMBERED
                if remembered and not any(r[:2] == (tool, fingerprint) for r in state.refused):
                    state.refused.append((tool, fingerprint, hint.text, content))
            state.consecutive_errors += 1
            state.streak.append(Attempt(tool, shown_args, shown_hint))
            # the summary shows the last attempts only: a run allowed thousands of failures
            # in a row must not store (and re-serialise on every call) all of them
            del state.streak[: -min(threshold, _MAX_STREAK)]
            if state.stopped:
                return list(state.stopped)
            if turn is not None and turn not in state.turns:
                state.turns.append(turn)
                del state.turns[:-2]
            # calls of one model turn run before the model has seen any of their hints: a
            # streak stops the run only once it spans a second turn (unless turns are unknown)
            seen = turn is None or threshold == 1 or len(state.turns) >= 2
            if state.consecutive_errors >= threshold and seen:
                summary = _summary(
                    state.streak,
                    f"{state.consecutive_errors} tool calls failed in a row; "
                    "stopping for a human to take over.",
                    state.consecutive_errors,
                )
                # kept in the run's state: every worker of the run stops, and a later success
                # in one of them does not clear it (only reset() does)
                state.stopped = [
                    scrub(
                        f"Stopped after {threshold} consecutive tool failures; a human should take "
                        f"over. Last: {shown_hint}"
                    ),
                    scrub(summary),
                ]
                return list(state.stopped)
            return None

        stopped = self._update(change)
        if stopped is not None:
            raise TooManyConsecutiveErrors(stopped[0], summary=stopped[1])

    def _content(self, hint: Hint, error: BaseException | str) -> str:
        if hint.kind is Kind.POLICY:
            text = sentence(hint.text)
            if hint.category in NOT_REMEMBERED:
                return scrub_cut(f"{text} {CREDENTIALS_SUFFIX}", self.policy.max_result_chars)
            return scrub_cut(f"{text} {POLICY_SUFFIX}", self.policy.max_result_chars)
        lines = [hint.text]
        if isinstance(error, BaseException):
            notes = getattr(error, "__notes__", None)
            if isinstance(notes, list):
                lines.extend(str(n).strip() for n in notes if str(n).strip())
            filename = getattr(error, "filename", None)
            if (
                self.policy.suggest_files
                and hint.category is Category.FILE_NOT_FOUND
                and isinstance(filename, str)
            ):
                suggestion = perhaps_you_meant(filename)
                if suggestion and suggestion not in lines:
                    lines.append(suggestion)
        return scrub_cut("\n".join(lines), self.policy.max_result_chars)  # notes are raw text

    def idempotent(self, tool: str) -> bool:
        """Whether ``tool`` may be retried after a fault that may have reached the service."""
        return tool not in self.policy.non_idempotent

    def retry_delay(
        self,
        failure: Failure,
        error: BaseException | str,
        attempt: int,
        *,
        idempotent: bool = True,
    ) -> float | None:
        """Seconds to wait before retry number ``attempt`` (0-based) of a system failure, or
        ``None`` when it must not be retried (not transient, budget spent, Retry-After too long,
        or a non-idempotent call that may already have taken effect)."""
        if failure.kind is not Kind.SYSTEM or failure.hint.retry is not Retry.TRANSIENT:
            return None
        if not idempotent and not never_arrived(failure.hint, error):
            return None
        policy = self.policy
        schedule = list(policy.backoff)
        if policy.immediate_retry_on_blip and is_blip(failure.hint, error):
            schedule.insert(0, 0.0)
        if attempt >= len(schedule):
            return None
        delay = schedule[attempt]
        if delay > 0 and policy.jitter:
            delay *= 1 + policy.jitter * (2 * self._random() - 1)
        asked = retry_after(error, self._clock)
        if asked is not None:
            if asked > policy.max_retry_after:
                return None
            delay = max(delay, asked)
        return delay

    def stopped(
        self,
        failure: Failure,
        error: BaseException | str,
        retries: int,
        *,
        idempotent: bool = True,
    ) -> RetryBudgetExhausted:
        """The exception that stops the run after a system failure (not raised here)."""
        asked = retry_after(error, self._clock)
        if failure.hint.retry is not Retry.TRANSIENT:
            why = f"a permanent system fault ({failure.hint.category}); retrying cannot help"
        elif not idempotent and not never_arrived(failure.hint, error):
            why = (
                f"{failure.tool} is not idempotent and this fault ({failure.hint.category}) may "
                "have come after the call took effect, so it was not retried; check before "
                "running it again"
            )
        elif asked is not None and asked > self.policy.max_retry_after:
            why = (
                f"the service asked to wait {asked:.0f} s (Retry-After), longer than the "
                f"{self.policy.max_retry_after:.0f} s allowed"
            )
        else:
            why = f"a system fault persisted after {retries} retries"
        message = scrub(f"Stopped: {why}. {failure.hint.text}")
        state = GuardState.from_dict(self.store.get(self.run_id))
        summary = _summary(state.streak, message, state.consecutive_errors)
        return RetryBudgetExhausted(message, summary=scrub(summary))

    # -- whole calls ------------------------------------------------------------------------

    def _count(self, name: str) -> None:
        self._update(lambda state: state.bump(name))

    def _succeeded(self, tool: str, args: Mapping[str, object] | str | None) -> None:
        def change(state: GuardState) -> None:
            state.bump("successes")
            state.consecutive_errors = 0
            state.streak.clear()
            state.turns.clear()
            if tool not in state.succeeded:
                state.succeeded.append(tool)
                del state.succeeded[: -self.policy.history_size]

        self._update(change)

    def call(
        self,
        tool: str,
        args: Mapping[str, object] | str | None,
        fn: Callable[[], T],
        *,
        passthrough: tuple[type[BaseException], ...] = (),
        idempotent: bool | None = None,
        turn: str | None = None,
    ) -> Outcome[T]:
        """Run ``fn`` (the tool) under the guard and return its :class:`Outcome`.

        Recoverable and policy failures come back as ``outcome.failure``; system faults are
        retried and never returned. Exceptions of the ``passthrough`` types (a framework's
        control flow, such as interrupts) propagate untouched and unrecorded.

        Args:
            idempotent: whether a retry may repeat the tool's effect; by default the policy's
                ``non_idempotent`` names decide (tools not named there are idempotent).
            turn: the model turn the call belongs to (calls made in parallel share it).

        Raises:
            RetryBudgetExhausted: a system fault that cannot or can no longer be retried.
            TooManyConsecutiveErrors: the consecutive-error threshold was reached.
            LoopDetected: the loop went on after the warnings.
        """
        notice, refused = self._begin(tool, args)
        if refused is not None:
            return Outcome(tool, None, self._refuse_again(tool, args, refused, turn), notice)
        safe = self.idempotent(tool) if idempotent is None else idempotent
        attempt = 0
        while True:
            try:
                value = fn()
            except GuardTripped:
                raise
            except passthrough:
                raise
            except Exception as exc:
                settled = self._after_failure(tool, args, exc, notice, attempt, safe, turn)
                if isinstance(settled, Outcome):
                    return settled
                self._sleep(settled)
                attempt += 1
            else:
                self._succeeded(tool, args)
                return Outcome(tool, value, None, notice, attempt)

    async def acall(
        self,
        tool: str,
        args: Mapping[str, object] | str | None,
        fn: Callable[[], Awaitable[T]],
        *,
        passthrough: tuple[type[BaseException], ...] = (),
        idempotent: bool | None = None,
        turn: str | None = None,
    ) -> Outcome[T]:
        """The async form of :meth:`call`: awaits ``fn()`` and sleeps with ``async_sleep``."""
        notice, refused = self._begin(tool, args)
        if refused is not None:
            return Outcome(tool, None, self._refuse_again(tool, args, refused, turn), notice)
        safe = self.idempotent(tool) if idempotent is None else idempotent
        attempt = 0
        while True:
            try:
                value = await fn()
            except GuardTripped:
                raise
            except passthrough:
                raise
            except Exception as exc:
                settled = self._after_failure(tool, args, exc, notice, attempt, safe, turn)
                if isinstance(settled, Outcome):
                    return settled
                await self._async_sleep(settled)
                attempt += 1
            else:
                self._succeeded(tool, args)
                return Outcome(tool, value, None, notice, attempt)

    def _after_failure(
        self,
        tool: str,
        args: Mapping[str, object] | str | None,
        exc: Exception,
        notice: str | None,
        attempt: int,
        idempotent: bool = True,
        turn: str | None = None,
    ) -> Outcome[Any] | float:
        """Record a failed attempt: the outcome for the model, or the delay before a retry.

        Raises:
            RetryBudgetExhausted: a system fault that cannot or can no longer be retried.
        """
        failure = self._describe(exc, tool)
        if failure.kind is not Kind.SYSTEM:
            self._record(args, failure, turn)
            return Outcome(tool, None, failure, notice, attempt)
        cause = self._classified(exc)[1]
        address = (
            model_address(args) if failure.hint.category in ADDRESS_FAULTS else None
        )
        if address is not None:
            # the model chose where to connect: one immediate retry for a blip, then its to fix
            if attempt == 0 and self.policy.immediate_retry_on_blip:
                self._count("retries")
                return 0.0
            failure = self._address_failure(failure, address)
            self._record(args, failure, turn)
            return Outcome(tool, None, failure, notice, attempt)
        delay = self.retry_delay(failure, cause, attempt, idempotent=idempotent)
        if delay is None:
            raise self.stopped(failure, cause, attempt, idempotent=idempotent) from exc
        self._count("retries")
        return delay

    def _address_failure(self, failure: Failure, address: tuple[str, str]) -> Failure:
        name, value = address
        hint = dataclasses.replace(failure.hint, kind=Kind.RECOVERABLE, retry=None)
        content = (
            f"{hint.text} The address comes from your arguments ({name}={value!r}): check the "
            "host and port, or ask the user for the right one."
        )
        return Failure(failure.tool, hint, scrub_cut(content, self.policy.max_result_chars))

    def _refuse_again(
        self,
        tool: str,
        args: Mapping[str, object] | str | None,
        refused: Failure,
        turn: str | None = None,
    ) -> Failure:
        """A refused call asked again: not run; counted as another failure."""
        self._record(args, refused, turn)
        return refused


_MAX_STREAK = 20
"""Failed attempts of the current streak kept for the escalation summary (the last ones)."""


def _summary(streak: list[Attempt], headline: str, failures: int = 0) -> str:
    lines = [headline]
    if streak:
        if failures > len(streak):
            lines.append(f"What was tried, in order (the last {len(streak)} of {failures}):")
        else:
            lines.append("What was tried, in order:")
        lines.extend(f"{i}. {a.tool}({a.args}) -> {a.hint}" for i, a in enumerate(streak, 1))
    return "\n".join(lines)
