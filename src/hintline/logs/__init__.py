"""Read application logs: error entries, newest first. PLACEHOLDER: the readers land with issue 6."""

from __future__ import annotations

from hintline.logs._model import Entry

__all__ = ["Entry"]
