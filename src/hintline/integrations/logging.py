"""Attach the deterministic hint to ``logging`` records as they are logged (no model call, ever).

>>> import logging
>>> from hintline.integrations.logging import HintFilter, HintFormatter
>>> handler = logging.StreamHandler()
>>> handler.addFilter(HintFilter())
>>> handler.setFormatter(HintFormatter("%(levelname)s %(name)s: %(message)s"))

:class:`HintFilter` sets ``record.hint`` (``"Hint: …"``), ``record.hint_category`` and
``record.hint_key`` on records with exception info or at ERROR and above, and empty values on
the others, so format strings may always name ``%(hint)s``. :class:`HintFormatter` appends the
hint as a last line and scrubs everything it emits: the formatted message, the traceback, any
extra field the format string names (``scrub=False`` opts out). Both only call
:func:`hintline.clean` and :func:`hintline.scrub.scrub`; neither ever raises into the
application's logging call.
"""

from __future__ import annotations

import logging
from typing import Any

from hintline.hint import Hint, clean
from hintline.scrub import scrub as _scrub

__all__ = ["HintFilter", "HintFormatter", "hint_for_record"]

_DONE = "_hintline_done"


def hint_for_record(record: logging.LogRecord) -> Hint | None:
    """The hint of a record: of its exception if it has one, else of its message. Never raises.

    .. versionadded:: 0.1
    """
    try:
        info: Any = record.exc_info  # logging also accepts exc_info=True before makeRecord
        exc = info[1] if isinstance(info, tuple) and len(info) == 3 else None
        if isinstance(exc, BaseException):
            return clean(exc)
        text = record.getMessage()
        if record.exc_text:
            text = f"{text}\n{record.exc_text}"
        return clean(text)
    except Exception:  # a hint must never break the logging call
        return None


def _annotate(record: logging.LogRecord, min_level: int) -> None:
    if getattr(record, _DONE, False):
        return
    hint = None
    if record.exc_info or record.exc_text or record.levelno >= min_level:
        hint = hint_for_record(record)
    record.hint = hint.text if hint else ""
    record.hint_category = str(hint.category) if hint else ""
    record.hint_key = (hint.key or "") if hint else ""
    setattr(record, _DONE, True)


class HintFilter(logging.Filter):
    """A filter that adds ``hint``, ``hint_category`` and ``hint_key`` to records; it drops none.

    Args:
        name: as for :class:`logging.Filter` (``""`` passes every logger).
        min_level: records at this level or above get a hint even without exception info.

    .. versionadded:: 0.1
    """

    def __init__(self, name: str = "", *, min_level: int = logging.ERROR) -> None:
        super().__init__(name)
        self.min_level = min_level

    def filter(self, record: logging.LogRecord) -> bool:
        """Annotate the record (once, however many handlers see it) and let it through."""
        if super().filter(record):
            _annotate(record, self.min_level)
        return True


class HintFormatter(logging.Formatter):
    """A formatter that appends the record's hint (``Hint: …``) as the last line, when it has one,
    and scrubs the whole text it returns.

    Works with or without :class:`HintFilter` (it computes the hint itself if needed). Any
    arguments of :class:`logging.Formatter` are accepted, plus ``min_level`` and ``scrub``.

    Args:
        min_level: records at this level or above get a hint even without exception info.
        scrub: scrub everything the formatter returns (message, arguments, traceback, stack,
            extra fields), the default; ``False`` scrubs only the hint line (it always is).

    .. versionadded:: 0.1
    .. versionchanged:: 0.1.0 the whole output is scrubbed unless ``scrub=False``
    """

    def __init__(
        self, *args: Any, min_level: int = logging.ERROR, scrub: bool = True, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.min_level = min_level
        self.scrub = scrub

    def format(self, record: logging.LogRecord) -> str:
        """Format as usual, scrub it whole, then add the hint line."""
        _annotate(record, self.min_level)
        text = super().format(record)
        if self.scrub:
            text = _scrub(text)
        hint = getattr(record, "hint", "")
        return f"{text}\n{_scrub(hint)}" if hint else text
