"""``GuardPolicy``: the thresholds and texts the agent guard works with (a frozen value)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields

from hintline.exceptions import ConfigError

__all__ = ["GuardPolicy"]


@dataclass(frozen=True, slots=True)
class GuardPolicy:
    """What the guard tolerates and how it retries. JSON-safe through :meth:`to_dict`.

    Args:
        max_consecutive_errors: errors in a row (no success between) that stop the run and
            escalate to a human with :class:`~hintline.TooManyConsecutiveErrors`.
        repeat_threshold: the same call (tool and normalised arguments) this many times in a row
            injects the loop meta-message.
        detect_oscillation: also flag an A-B-A-B alternation between two calls.
        max_loop_warnings: meta-messages injected before a continuing loop raises
            :class:`~hintline.LoopDetected`; ``None`` never raises.
        backoff: seconds to wait before each retry of a transient system fault.
        jitter: each backoff delay is scaled by a random factor in ``[1 - jitter, 1 + jitter]``.
        immediate_retry_on_blip: a network blip (connection refused or reset, DNS) is retried
            once at once, before the backoff schedule.
        max_retry_after: the longest ``Retry-After`` honoured, in seconds; a longer one stops.
        max_result_chars: bound on the text a failure puts into the model's context.
        suggest_files: for a missing file, list close names from its directory
            ("Perhaps you meant …").
        history_size: calls remembered for loop detection.
        non_idempotent: tools whose call must not be repeated blindly (a payment, an email):
            after a fault they are retried only when it proves the call never reached the
            service (connection refused, DNS failure, 429). Tools not named here are retried
            as idempotent.

    .. versionadded:: 0.1.0
    """

    max_consecutive_errors: int = 3
    repeat_threshold: int = 2
    detect_oscillation: bool = True
    max_loop_warnings: int | None = 2
    backoff: tuple[float, ...] = (1.0, 2.0, 4.0)
    jitter: float = 0.1
    immediate_retry_on_blip: bool = True
    max_retry_after: float = 60.0
    max_result_chars: int = 1000
    suggest_files: bool = True
    history_size: int = 16
    non_idempotent: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if self.max_consecutive_errors < 1:
            raise ConfigError("max_consecutive_errors must be at least 1")
        if self.repeat_threshold < 2:
            raise ConfigError("repeat_threshold must be at least 2")
        if self.max_loop_warnings is not None and self.max_loop_warnings < 0:
            raise ConfigError("max_loop_warnings must be None or at least 0")
        if any(d < 0 for d in self.backoff):
            raise ConfigError("backoff delays must not be negative")
        if not 0 <= self.jitter < 1:
            raise ConfigError("jitter must be in [0, 1)")
        if self.max_retry_after < 0:
            raise ConfigError("max_retry_after must not be negative")
        if self.max_result_chars < 80:
            raise ConfigError("max_result_chars must be at least 80")
        if self.history_size < max(4, self.repeat_threshold):
            raise ConfigError("history_size must be at least 4 and at least repeat_threshold")
        object.__setattr__(self, "backoff", tuple(float(d) for d in self.backoff))
        if isinstance(self.non_idempotent, str):
            raise ConfigError("non_idempotent must be a collection of tool names")
        object.__setattr__(self, "non_idempotent", frozenset(self.non_idempotent))

    def to_dict(self) -> dict[str, object]:
        """The policy as a JSON-safe dict."""
        data = asdict(self)
        data["backoff"] = list(self.backoff)
        data["non_idempotent"] = sorted(self.non_idempotent)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> GuardPolicy:
        """Rebuild a policy from :meth:`to_dict` output. Unknown keys raise :class:`ConfigError`."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ConfigError(f"unknown guard policy keys: {sorted(unknown)}")
        values = dict(data)
        if "backoff" in values:
            backoff = values["backoff"]
            if not isinstance(backoff, (list, tuple)):
                raise ConfigError("backoff must be a list of seconds")
            values["backoff"] = tuple(float(d) for d in backoff)
        if "non_idempotent" in values:
            names = values["non_idempotent"]
            if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
                raise ConfigError("non_idempotent must be a list of tool names")
            values["non_idempotent"] = frozenset(names)
        try:
            return cls(**values)  # type: ignore[arg-type]
        except TypeError as exc:
            raise ConfigError(f"invalid guard policy: {exc}") from exc
