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

__all__ = ["RedisStore", "StoreContention"]

T = TypeVar("T")


class StoreContention(HintlineError):  # a transient fault of the store, not of the agent
    """An update lost the race more than ``max_retries`` times in a row."""


class RedisStore:
    """Guard state in Redis (the ``redis`` extra).

    Args:
        client: a ``redis.Redis`` client, or a URL (``redis://host:6379/0``).
        prefix: prepended to every run id.
        ttl: seconds a run's state lives after its last update (``None``: forever).
        max_retries: optimistic-locking attempts before :class:`StoreContention`.
    """

    def __init__(
        self,
        client: redis.Redis | str,
        *,
        prefix: str = "hintline:guard:",
        ttl: int | None = 24 * 3600,
        max_retries: int = 100,
    ) -> None:
        self.client = redis.Redis.from_url(client) if isinstance(client, str) else client
        self.prefix = prefix
        self.ttl = ttl
        self.max_retries = max_retries

    def _key(self, key: str) -> str:
        return self.prefix + key

    def get(self, key: str) -> JSONDict | None:
        """The state under ``key``, or ``None``."""
        raw = self.client.get(self._key(key))
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
                return result
        raise StoreContention(f"guard state {key!r}: update lost the race {self.max_retries} times")

    def delete(self, key: str) -> None:
        """Forget ``key``."""
        self.client.delete(self._key(key))


def _loads(raw: bytes | str) -> JSONDict:
    value = json.loads(raw)
    if not isinstance(value, dict):
        raise HintlineError("guard state in Redis is not a JSON object")
    return value
