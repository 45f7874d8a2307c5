"""``explain()``: ask a model for the cause of one logged error, safely, and label the answer."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from hintline.exceptions import (
    AnswerCutOff,
    ExplainerTimeout,
    ExplainerUnavailable,
    InvalidAnswer,
)
from hintline.explain._anchor import anchor
from hintline.explain._answer import Answer, build_request, parse_answer
from hintline.explain._config import Configuration, Settings, UsageSettings, load_settings
from hintline.explain._payload import Payload, SentFrame, build_payload
from hintline.explain._provider import ChatReply, Provider
from hintline.explain._usage import UsageDeferred, UsageRecord, UsageStore, open_usage_store
from hintline.explain._zones import TrustZone
from hintline.logs import Entry

__all__ = ["ANCHORED_HEADING", "GUESS_HEADING", "Explanation", "explain", "make_provider"]

ANCHORED_HEADING = "Hint (anchored in the project's code)"
GUESS_HEADING = "Guess (not anchored in the project's code)"


@dataclass(frozen=True, slots=True)
class Explanation:
    """A model's hint about one entry, labelled by hintline.

    Attributes:
        cause: the most likely cause, one scrubbed line.
        next_step: what to check or change, one scrubbed line.
        anchored: the cited frame was sent and is the project's own code; otherwise a guess.
        reason: why it is anchored or a guess.
        frame: the frame number the model cited (``-1`` for none).
        cited: the cited frame, when that number names one that was sent.
        message_withheld: the hint was made without the log message (the zone may not get it).
        configuration: the configuration's name.
        model: the model that answered.
        zone: the provider's trust zone.
        sent: exactly what the request carried.
        entry_key: the key of the entry explained.
        prompt_tokens: tokens read, when reported.
        completion_tokens: tokens generated, when reported.
        duration_ms: wall time of the call.
        usage_note: set when the call could not be recorded as usage right away (the usage
            database was locked or unwritable): what happened to the record.
    """

    cause: str
    next_step: str
    anchored: bool
    reason: str
    frame: int
    cited: SentFrame | None
    message_withheld: bool
    configuration: str
    model: str
    zone: TrustZone
    sent: Payload
    entry_key: str
    prompt_tokens: int | None
    completion_tokens: int | None
    duration_ms: int
    usage_note: str | None = None

    @property
    def heading(self) -> str:
        """The heading it is shown under: an anchored hint or a guess."""
        return ANCHORED_HEADING if self.anchored else GUESS_HEADING

    @property
    def withheld_note(self) -> str | None:
        """Says the hint was made without the message, when it was."""
        if not self.message_withheld:
            return None
        return (
            f"Made without the log message: trust zone {self.zone} may not receive it "
            f"(at most {self.zone.ceiling})."
        )

    def to_dict(self) -> dict[str, object]:
        """JSON-ready data, including what was sent."""
        return {
            "label": "anchored" if self.anchored else "guess",
            "heading": self.heading,
            "cause": self.cause,
            "next_step": self.next_step,
            "reason": self.reason,
            "frame": self.frame,
            "message_withheld": self.message_withheld,
            "configuration": self.configuration,
            "model": self.model,
            "zone": str(self.zone),
            "entry_key": self.entry_key,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "duration_ms": self.duration_ms,
            "usage_note": self.usage_note,
            "sent": self.sent.to_dict(),
        }


def make_provider(configuration: Configuration) -> Provider:
    """The provider for ``configuration``'s kind (``openai_compatible`` needs httpx)."""
    from hintline.explain.openai_compatible import OpenAICompatibleProvider

    return OpenAICompatibleProvider(configuration)


def explain(
    entry: Entry,
    *,
    configuration: str | Configuration | None = None,
    settings: Settings | None = None,
    config_path: str | os.PathLike[str] | None = None,
    project_root: str | os.PathLike[str] | None = None,
    provider: Provider | None = None,
    usage: UsageStore | None = None,
) -> Explanation:
    """Ask a model for the cause of ``entry``; hintline labels the answer anchored or guess.

    Only what the configuration's trust zone may receive is sent (see the README's zones
    table), after :func:`hintline.scrub`. The answer is never cached; the call is recorded as
    usage (feature ``exception_hint``) whatever its outcome.

    Args:
        entry: a logged error, from :func:`hintline.logs.read` or :func:`hintline.logs.find`.
        configuration: a configuration or its name (default: the settings' default).
        settings: the settings to use (default: read from the configuration search order).
        config_path: a configuration file to read instead of the search order.
        project_root: what counts as the project's code (default: the settings' project root,
            else the current directory).
        provider: the provider to use (default: made from the configuration).
        usage: where the call is recorded (default: the settings' usage store).

    Raises:
        ConfigError: unknown configuration, a bad configuration file, an unset API key variable.
        ExplainRefused: the zone may not receive what a hint needs; no model was asked.
        ExplainerTimeout: no answer within the configured timeout.
        ExplainerUnavailable: the provider cannot be reached or answers with an error.
        InvalidAnswer: the answer was cut off, not JSON, or not the expected shape.

    .. versionadded:: 0.1
    """
    given = isinstance(configuration, Configuration)
    if settings is None and not (given and usage is not None and project_root is not None):
        settings = load_settings(config_path)
    if isinstance(configuration, Configuration):
        cfg = configuration
    else:
        assert settings is not None
        cfg = settings.get(configuration)
    root = Path(project_root or (settings.project_root if settings else None) or Path.cwd())
    payload = build_payload(entry, cfg, project_root=root)
    request = build_request(payload, max_tokens=cfg.max_tokens, temperature=cfg.temperature)
    if provider is None:
        cfg.api_key()  # an unset key variable is a configuration error, not a failed call
        provider = make_provider(cfg)
    store = usage if usage is not None else open_usage_store(
        settings.usage if settings else UsageSettings()
    )
    started_at = datetime.now(UTC)
    start = time.perf_counter()
    reply: ChatReply | None = None
    outcome = "error"
    try:
        reply = provider.complete(request)
        answer: Answer = parse_answer(reply, max_tokens=cfg.max_tokens)
        label = anchor(answer.frame, payload, root)
        outcome = "anchored" if label.anchored else "guess"
    except ExplainerTimeout:
        outcome = "timeout"
        raise
    except AnswerCutOff:
        outcome = "cut_off"
        raise
    except InvalidAnswer:
        outcome = "invalid_answer"
        raise
    except ExplainerUnavailable:
        outcome = "unavailable"
        raise
    finally:
        duration_ms = round((time.perf_counter() - start) * 1000)
        usage_note = _record(
            store,
            UsageRecord(
                at=started_at,
                configuration=cfg.name,
                model=(reply.model if reply and reply.model else cfg.model),
                zone=str(cfg.zone),
                prompt_tokens=reply.prompt_tokens if reply else None,
                completion_tokens=reply.completion_tokens if reply else None,
                duration_ms=duration_ms,
                outcome=outcome,
                entry_key=entry.key,
            ),
        )
    return Explanation(
        cause=answer.cause,
        next_step=answer.next_step,
        anchored=label.anchored,
        reason=label.reason,
        frame=answer.frame,
        cited=label.frame,
        message_withheld=payload.message_withheld,
        configuration=cfg.name,
        model=reply.model or cfg.model,
        zone=cfg.zone,
        sent=payload,
        entry_key=entry.key,
        prompt_tokens=reply.prompt_tokens,
        completion_tokens=reply.completion_tokens,
        duration_ms=duration_ms,
        usage_note=usage_note,
    )


def _record(store: UsageStore, record: UsageRecord) -> str | None:
    """Record the call; a store that fails must not lose the model's answer (nor hide the
    error of a failed call). Returns what to tell the user when the record did not go in."""
    try:
        store.record(record)
    except UsageDeferred as exc:
        return str(exc)
    except Exception as exc:  # a locked or unwritable store, a custom store's fault
        return f"usage not recorded: {' '.join(str(exc).split()) or exc.__class__.__name__}"
    return None
