"""The seam between hintline and a model: a :class:`Provider` completes one chat request.

hintline builds the request (what may be sent, the JSON schema of the answer) and reads the
reply; a provider only carries it. :class:`~hintline.explain.openai_compatible.OpenAICompatibleProvider`
speaks the OpenAI chat-completions protocol (llama.cpp's ``llama-server``, Ollama, vLLM,
LM Studio). Another transport, or a test double returning a fixed answer, implements
:class:`Provider`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

__all__ = ["ChatMessage", "ChatReply", "ChatRequest", "Provider"]


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """One message of a chat request (``role`` is ``system`` or ``user``)."""

    role: str
    content: str


@dataclass(frozen=True, slots=True)
class ChatRequest:
    """One request for an answer that follows ``schema``.

    Attributes:
        messages: the system instruction and the entry, already limited to what may be sent.
        schema: the JSON schema the answer must follow.
        schema_name: a short name for the schema (OpenAI's ``json_schema.name``).
        max_tokens: the most tokens the model may generate.
        temperature: sampling temperature.
    """

    messages: tuple[ChatMessage, ...]
    schema: Mapping[str, object]
    schema_name: str
    max_tokens: int
    temperature: float = 0.0


@dataclass(frozen=True, slots=True)
class ChatReply:
    """What the provider answered.

    Attributes:
        content: the text of the answer (expected to be the JSON object).
        finish_reason: ``stop``, ``length`` (cut off at ``max_tokens``) or what the server said.
        model: the model that answered, as the server names it.
        prompt_tokens: tokens read, when the server reports them.
        completion_tokens: tokens generated, when the server reports them.
    """

    content: str
    finish_reason: str | None = None
    model: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


@runtime_checkable
class Provider(Protocol):
    """Anything that completes a :class:`ChatRequest`.

    ``complete`` raises :class:`~hintline.exceptions.ExplainerUnavailable` (or its subclass
    ``ExplainerTimeout``) when the model cannot be reached, and
    :class:`~hintline.exceptions.InvalidAnswer` when the server's reply is not a completion.
    """

    def complete(self, request: ChatRequest) -> ChatReply:
        """Send ``request`` and return the reply."""
        ...
