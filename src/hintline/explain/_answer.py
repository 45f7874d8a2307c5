"""The request a model gets and the answer hintline accepts back.

The answer is a JSON object ``{"cause": str, "next_step": str, "frame": int}``: ``frame`` is the
number of the sent frame the cause sits in, or ``-1``. The schema bounds every string
(``maxLength``, scaled to ``max_tokens``), so a constrained model stops instead of running to
``max_tokens``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from hintline.exceptions import AnswerCutOff, InvalidAnswer
from hintline.explain._payload import Payload
from hintline.explain._provider import ChatMessage, ChatReply, ChatRequest
from hintline.scrub import scrub

__all__ = [
    "MAX_CAUSE_CHARS",
    "MAX_STEP_CHARS",
    "Answer",
    "answer_schema",
    "build_request",
    "cut_off_reason",
    "parse_answer",
    "string_limit",
]

MAX_CAUSE_CHARS = 200
MAX_STEP_CHARS = 200
SCHEMA_NAME = "exception_hint"
_JSON_OVERHEAD_TOKENS = 64  # keys, quotes, the frame number and the whitespace a grammar allows
_MIN_STRING_CHARS = 16

SYSTEM_PROMPT = (
    "You diagnose one logged error of a software project. You get the exception class, "
    "the log message (unless withheld), the component and numbered stack frames, #0 being "
    "where the exception was raised. Answer with one JSON object only: "
    '{"cause": the most likely cause in one sentence, "next_step": one concrete thing to '
    'check or change, "frame": the number of the frame the cause sits in, or -1 if none '
    "fits}. Prefer the project's own frames over library frames. Do not invent frames."
)
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Answer:
    """A validated answer (strings scrubbed and on one line)."""

    cause: str
    next_step: str
    frame: int


def string_limit(max_tokens: int) -> int:
    """The ``maxLength`` of each answer string so that a constrained answer always completes.

    Counted for the worst case, one token per character (byte-level vocabularies), after the
    JSON's own keys and whitespace: ``max_tokens = 512`` gives the full 200 characters,
    ``max_tokens = 200`` gives 68.
    """
    return max(_MIN_STRING_CHARS, min(MAX_CAUSE_CHARS, (max_tokens - _JSON_OVERHEAD_TOKENS) // 2))


def answer_schema(frame_count: int, *, max_tokens: int = 512) -> dict[str, object]:
    """The JSON schema of the answer, for a request that sent ``frame_count`` frames."""
    limit = string_limit(max_tokens)
    return {
        "type": "object",
        "properties": {
            "cause": {"type": "string", "minLength": 1, "maxLength": limit},
            "next_step": {"type": "string", "minLength": 1, "maxLength": limit},
            "frame": {"type": "integer", "enum": list(range(-1, frame_count))},
        },
        "required": ["cause", "next_step", "frame"],
        "additionalProperties": False,
    }


def build_request(payload: Payload, *, max_tokens: int, temperature: float) -> ChatRequest:
    """The chat request for ``payload``."""
    return ChatRequest(
        messages=(
            ChatMessage("system", SYSTEM_PROMPT),
            ChatMessage("user", payload.render()),
        ),
        schema=answer_schema(len(payload.frames), max_tokens=max_tokens),
        schema_name=SCHEMA_NAME,
        max_tokens=max_tokens,
        temperature=temperature,
    )


def parse_answer(reply: ChatReply, *, max_tokens: int) -> Answer:
    """Validate a reply against the answer's shape.

    A frame number outside the frames sent is not an error here: it makes the hint a guess.

    Raises:
        InvalidAnswer: cut off at ``max_tokens``, not JSON, or not the expected object.
    """
    text = reply.content.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    try:
        data = json.loads(text)
    except ValueError as exc:
        if reply.finish_reason == "length" and text.startswith(("{", "```")):
            raise AnswerCutOff(cut_off_reason(reply, max_tokens)) from exc
        raise InvalidAnswer(f"the answer is not JSON: {_preview(reply.content)}") from exc
    if not isinstance(data, dict):
        raise InvalidAnswer(f"the answer is not a JSON object: {_preview(reply.content)}")
    cause, step, frame = data.get("cause"), data.get("next_step"), data.get("frame")
    if not isinstance(cause, str) or not isinstance(step, str):
        raise InvalidAnswer("the answer lacks the strings 'cause' and 'next_step'")
    if isinstance(frame, bool) or not isinstance(frame, int):
        raise InvalidAnswer("the answer lacks the integer 'frame'")
    cause, step = _one_line(cause, MAX_CAUSE_CHARS), _one_line(step, MAX_STEP_CHARS)
    if not cause:
        raise InvalidAnswer("the answer's cause is empty")
    return Answer(cause=cause, next_step=step, frame=frame)


def cut_off_reason(reply: ChatReply, max_tokens: int) -> str:
    """Why a reply stopped early (``finish_reason = "length"``), from the server's token counts.

    A server stops for length either at ``max_tokens`` or when its context window is full
    (llama-server: ``-c`` divided among its slots). Only the first is cured by raising
    ``max_tokens``; the second needs a larger context or a shorter request, so they are told apart:
    an answer shorter than ``max_tokens`` was stopped by the window.
    """
    done = reply.completion_tokens
    if done is None:
        return (
            f"the answer was cut off before it was complete JSON, at max_tokens={max_tokens} or "
            "because the model server's context window was full (the server reported no token counts)"
        )
    if done < max_tokens:
        read = f"the {reply.prompt_tokens}-token request and " if reply.prompt_tokens is not None else ""
        return (
            f"the model server's context window is full: {read}{done} tokens of answer filled it, "
            f"so the answer stopped before max_tokens={max_tokens} and before it was complete JSON. "
            "Raising max_tokens will not help: give the server a larger context (llama-server -c, "
            "per slot) or use a model with a longer one"
        )
    return f"the answer was cut off at max_tokens={max_tokens} before it was complete JSON"


def _one_line(text: str, limit: int) -> str:
    line = " ".join(scrub(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _preview(text: str) -> str:
    line = " ".join(scrub(text).split())
    return repr(line[:80] + ("…" if len(line) > 80 else ""))
