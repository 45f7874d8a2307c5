"""Ask a model for the cause of a logged error, sending only what it may receive.

>>> from hintline.logs import read
>>> from hintline.explain import explain
>>> entry = read(["app.log"], limit=1)[0]          # doctest: +SKIP
>>> hint = explain(entry)                          # doctest: +SKIP
>>> print(hint.heading, hint.cause, hint.next_step, sep="\\n")  # doctest: +SKIP

What is sent is limited by the configuration's trust zone (:mod:`hintline.explain._zones`);
hintline, not the model, labels the answer anchored or a guess (:mod:`._anchor`). Every call is
recorded as usage and nothing is cached. The model is asked only when a person asks: there is no
hook in exception handlers and no scheduled mode.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from hintline.explain._anchor import EXCLUDED_DIRS, Anchor, anchor
from hintline.explain._answer import Answer, answer_schema, build_request, parse_answer
from hintline.explain._config import (
    DEFAULT_BASE_URL,
    Configuration,
    Settings,
    UsageSettings,
    config_search_path,
    load_settings,
    parse_settings,
)
from hintline.explain._payload import MAX_FRAMES, Payload, SentFrame, build_payload
from hintline.explain._provider import ChatMessage, ChatReply, ChatRequest, Provider
from hintline.explain._service import (
    ANCHORED_HEADING,
    GUESS_HEADING,
    Explanation,
    explain,
    make_provider,
)
from hintline.explain._usage import (
    FEATURE,
    SqliteUsageStore,
    UsageRecord,
    UsageStore,
    open_usage_store,
)
from hintline.explain._zones import DataClass, TrustZone, default_zone
from hintline.logs import Entry

__all__ = [
    "ANCHORED_HEADING",
    "DEFAULT_BASE_URL",
    "EXCLUDED_DIRS",
    "FEATURE",
    "GUESS_HEADING",
    "MAX_FRAMES",
    "Anchor",
    "Answer",
    "ChatMessage",
    "ChatReply",
    "ChatRequest",
    "Configuration",
    "DataClass",
    "Explanation",
    "Payload",
    "Provider",
    "SentFrame",
    "Settings",
    "SqliteUsageStore",
    "TrustZone",
    "UsageRecord",
    "UsageSettings",
    "UsageStore",
    "anchor",
    "answer_schema",
    "build_payload",
    "build_request",
    "config_search_path",
    "default_zone",
    "explain",
    "load_settings",
    "make_provider",
    "open_usage_store",
    "parse_answer",
    "parse_settings",
]


class _CallablePackage(types.ModuleType):
    """Lets ``hintline.explain(entry)`` work however the package was imported.

    ``hintline.explain`` is a lazy export of the function :func:`explain`, but once this package
    is imported Python binds the attribute ``explain`` of ``hintline`` to the package itself.
    Calling the package therefore calls the function.
    """

    def __call__(self, entry: Entry, **options: Any) -> Explanation:
        return explain(entry, **options)


sys.modules[__name__].__class__ = _CallablePackage
