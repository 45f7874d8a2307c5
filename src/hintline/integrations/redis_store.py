"""A :class:`~hintline.agent.GuardStore` in Redis, for agent runs served by many workers.

.. code-block:: python

    from hintline.agent import AgentGuard
    from hintline.integrations.redis_store import RedisStore

    guard = AgentGuard(run_id=run_id, store=RedisStore("redis://127.0.0.1:6379/0"))

Updates are atomic across processes and hosts: ``update`` reads the state under ``WATCH``,
computes the new state, and writes it in ``MULTI``/``EXEC``; when another worker changed the key
in between, Redis aborts the transaction and the change is computed again from the new state
(the store contract allows it: ``change`` is pure). Every write refreshes the key's expiry, so
the state of a run nobody touches any more disappears after ``ttl`` seconds; ``delete`` (called
by ``AgentGuard.reset``) removes a finished run at once.

While Redis is away the guard **fails closed**: every call to Redis is bounded by ``timeout``
seconds (connect and each reply), and a failure raises :class:`GuardStoreUnavailable`, which
says what happened. A guarded tool call therefore raises before the tool runs (the guard cannot
know whether the run was stopped by another worker, so it does not let the call through); a call
that already ran raises when its result is recorded. Once Redis answers again the run goes on
with the state Redis kept.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TypeVar

from hintline.agent._store import JSONDict
from hintline.exceptions import HintlineError, MissingExtraError

try:
    import redis
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise MissingExtraError("redis", "redis") from exc

__all__ = ["DEFAULT_TIMEOUT", "GuardStoreUnavailable", "RedisStore", "StoreContention"]

DEFAULT_TIMEOUT = 2.0
"""Seconds a Redis call may take (connecting, and waiting for each reply)."""

T = TypeVar("T")


class StoreContention(HintlineError):  # a transient fault of the store, not of the agent
    """An update lost the race more than ``max_retries`` times in a row."""


class GuardStoreUnavailable(HintlineError):
    """Redis could not be reached or did not answer in time: the guard fails closed."""


class RedisStore:
    """Guard state in Redis (the ``redis`` extra).

    Args:
        client: a ``redis.Redis`` client, or a URL (``redis://host:6379/0``). A client you
            build keeps its own timeouts: give it ``socket_timeout`` and
            ``socket_connect_timeout``, or every call may wait as long as the outage.
        prefix: prepended to every run id.
        ttl: seconds a run's state lives after its last update (``None``: forever).
        max_retries: optimistic-locking attempts before :class:`StoreContention`.
        timeout: seconds each Redis call may take when ``client`` is a URL (connect and reply);
            no retry after a timeout, so a guarded call fails within a few ``timeout``.

    Raises (from every method):
        GuardStoreUnavailable: Redis refused the connection, timed out or failed.
    """

    def __init__(
        self,
        client: redis.Redis | str,
        *,
        prefix: str = "hintline:guard:",
        ttl: int | None = 24 * 3600,
        max_retries: int = 100,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        if isinstance(client, str):
            from redis.backoff import NoBackoff
            from redis.retry import Retry

            client = redis.Redis.from_url(
                client, socket_timeout=timeout, socket_connect_timeout=timeout,
                retry_on_timeout=False, retry=Retry(NoBackoff(), 0),
            )
        self.client = client
        self.timeout = timeout
        self.prefix = prefix
        self.ttl = ttl
        self.max_retries = max_retries

    def _key(self, key: str) -> str:
        return self.prefix + key

    def _unavailable(self, what: str, key: str, exc: Exception) -> GuardStoreUnavailable:
        kind = "timed out" if isinstance(exc, redis.TimeoutError) else (
            "refused or lost the connection" if isinstance(exc, redis.ConnectionError) else "failed"
        )
        where = self.client.connection_pool.connection_kwargs
        host = f"{where.get('host', '?')}:{where.get('port', '?')}" if "host" in where else where.get("path", "?")
        return GuardStoreUnavailable(
            f"guard state of run {key!r}: Redis at {host} {kind} during {what} ({type(exc).__name__}: {exc}); "
            "the guard fails closed until Redis answers again"
        )

    def get(self, key: str) -> JSONDict | None:
        """The state under ``key``, or ``None``."""
        try:
            raw = self.client.get(self._key(key))
        except redis.RedisError as exc:
            raise self._unavailable("a read", key, exc) from exc
        return None if raw is None else _loads(raw)

    def update(self, key: str, change: Callable[[JSONDict | None], tuple[JSONDict, T]]) -> T:
        """Atomically replace the state under ``key`` by ``change(state)[0]``; return ``[1]``."""
        name = self._key(key)
        with self.client.pipeline() as pipe:
            for _ in range(self.max_retries):
                try:
                    pipe.watch(name)  # type: ignore[no-untyped-call]
                    raw = pipe.get(name)
                    new, result = change(None if raw is None else _loads(raw))
                    text = json.dumps(new, sort_keys=True, allow_nan=False)
                    pipe.multi()
                    pipe.set(name, text, ex=self.ttl)
                    pipe.execute()
                except redis.WatchError:
                    continue
                except redis.RedisError as exc:
                    raise self._unavailable("an update", key, exc) from exc
                return result
        raise StoreContention(f"guard state {key!r}: update lost the race {self.max_retries} times")

    def delete(self, key: str) -> None:
        """Forget ``key``."""
        try:
            self.client.delete(self._key(key))
        except redis.RedisError as exc:
            raise self._unavailable("a delete", key, exc) from exc


def _loads(raw: bytes | str) -> JSONDict:
    value = json.loads(raw)
    if not isinstance(value, dict):
        raise HintlineError("guard state in Redis is not a JSON object")
    return value
