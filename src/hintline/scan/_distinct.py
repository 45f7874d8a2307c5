"""Counting distinct values in bounded memory: exact while small, HyperLogLog beyond.

A group of a scan counts the distinct keys (paths, ids…) of its errors without keeping them:
up to :data:`EXACT` values are kept as 64-bit hashes (exact count); past that the hashes are
folded into 1024 HyperLogLog registers (about 3% standard error, 1 KiB whatever the number of
values). Sketches merge (union) in any order with the same result, so chunked and parallel
scans agree with a single pass.
"""

from __future__ import annotations

import hashlib
import math

__all__ = ["EXACT", "Distinct"]

EXACT = 64
_P = 10
_M = 1 << _P
_ALPHA = 0.7213 / (1 + 1.079 / _M)


def _hash(value: str) -> int:
    return int.from_bytes(hashlib.blake2b(value.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "big")


class Distinct:
    """A mergeable distinct counter (see the module docstring)."""

    __slots__ = ("hashes", "registers")

    def __init__(self) -> None:
        self.hashes: set[int] | None = set()
        self.registers: bytearray | None = None

    def add(self, value: str) -> None:
        """Count ``value``."""
        self._add_hash(_hash(value))

    def _add_hash(self, h: int) -> None:
        if self.hashes is not None:
            self.hashes.add(h)
            if len(self.hashes) > EXACT:
                self._densify()
            return
        assert self.registers is not None
        index = h >> (64 - _P)
        rest = (h << _P) & ((1 << 64) - 1)
        rank = 64 - _P + 1 if rest == 0 else (64 - rest.bit_length()) + 1
        if rank > self.registers[index]:
            self.registers[index] = rank

    def _densify(self) -> None:
        hashes, self.hashes = self.hashes or set(), None
        self.registers = bytearray(_M)
        for h in hashes:
            self._add_hash(h)

    def merge(self, other: Distinct) -> None:
        """Add every value counted by ``other``."""
        if other.hashes is not None:
            for h in other.hashes:
                self._add_hash(h)
            return
        if self.registers is None:
            self._densify()
        assert self.registers is not None
        assert other.registers is not None
        for i, r in enumerate(other.registers):
            if r > self.registers[i]:
                self.registers[i] = r

    @property
    def exact(self) -> bool:
        """Whether :meth:`count` is exact (few values) or an estimate."""
        return self.hashes is not None

    def count(self) -> int:
        """The number of distinct values (an estimate once more than :data:`EXACT` were seen)."""
        if self.hashes is not None:
            return len(self.hashes)
        assert self.registers is not None
        estimate = _ALPHA * _M * _M / sum(2.0 ** -r for r in self.registers)
        zeros = self.registers.count(0)
        if estimate <= 2.5 * _M and zeros:
            estimate = _M * math.log(_M / zeros)  # linear counting for small sets
        return max(EXACT + 1, round(estimate))

    def to_json(self) -> object:
        """JSON-safe form: a list of hashes (hex) or the registers (hex)."""
        if self.hashes is not None:
            return sorted(f"{h:016x}" for h in self.hashes)
        assert self.registers is not None
        return self.registers.hex()

    @classmethod
    def from_json(cls, data: object) -> Distinct:
        """Rebuild from :meth:`to_json`."""
        d = cls()
        if isinstance(data, str):
            d.hashes, d.registers = None, bytearray.fromhex(data)
        elif isinstance(data, list):
            d.hashes = {int(x, 16) for x in data}
        return d
