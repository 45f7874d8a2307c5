"""A stand-in for the scrubber's Hyperscan prefilter while its database is still compiling."""

from __future__ import annotations


class Compiling:
    """Answers like ``_Prefilter`` on a cold cache: compiling, so no answer yet."""

    compiling = True

    def fired(self, text: str) -> frozenset[int] | None:
        """No answer until the database is ready: the scrubber screens triggers with re."""
        return None
