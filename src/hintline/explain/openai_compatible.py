"""The OpenAI-compatible chat-completions provider (needs ``pip install 'hintline[explain]'``).

llama.cpp's ``llama-server``, Ollama (``/v1``), vLLM and LM Studio all serve
``POST {base_url}/chat/completions``. The answer's shape is requested with
``response_format = {"type": "json_schema", ...}`` (OpenAI structured outputs, which these
servers turn into a grammar); ``json_object`` puts the schema inside a JSON-object format
(llama-cpp-python's server rejects ``json_schema``) and ``none`` relies on the prompt alone.

Ollama's native API (``/api/chat`` with ``format``) is not used: Ollama 0.5 and later honour the
same ``json_schema`` on ``/v1`` with the same grammar-constrained decoding, so the native API adds
nothing a hint needs.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from hintline.exceptions import (
    ExplainerTimeout,
    ExplainerUnavailable,
    InvalidAnswer,
    MissingExtraError,
)
from hintline.explain._config import Configuration
from hintline.explain._provider import ChatReply, ChatRequest
from hintline.scrub import scrub

try:
    import httpx
except ImportError as exc:  # pragma: no cover - the extra is installed wherever tests run
    raise MissingExtraError("explain", "httpx") from exc

__all__ = ["OpenAICompatibleProvider"]

_BODY_PREVIEW = 200


class OpenAICompatibleProvider:
    """Completes requests through an OpenAI-compatible ``/chat/completions`` endpoint.

    Args:
        configuration: the base URL, model, API key variable, timeout and response format.
        client: an ``httpx.Client`` to send with (for event hooks or a custom transport);
            by default one is made per request and closed after it.

    .. versionadded:: 0.1
    """

    def __init__(self, configuration: Configuration, *, client: httpx.Client | None = None):
        self.configuration = configuration
        self._client = client

    @property
    def url(self) -> str:
        """The endpoint requests go to."""
        return self.configuration.base_url.rstrip("/") + "/chat/completions"

    def body(self, request: ChatRequest) -> dict[str, object]:
        """The JSON body sent for ``request``."""
        cfg = self.configuration
        body: dict[str, object] = {
            "model": cfg.model,
            "messages": [{"role": m.role, "content": m.content} for m in request.messages],
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
            "stream": False,
        }
        if cfg.response_format == "json_schema":
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": request.schema_name,
                    "strict": True,
                    "schema": dict(request.schema),
                },
            }
        elif cfg.response_format == "json_object":
            body["response_format"] = {"type": "json_object", "schema": dict(request.schema)}
        return body

    def complete(self, request: ChatRequest) -> ChatReply:
        """POST the request and read the first choice.

        Raises:
            ExplainerTimeout: no answer within the configuration's timeout.
            ExplainerUnavailable: the server cannot be reached or answers with an HTTP error.
            InvalidAnswer: the server's body is not a chat completion.
        """
        cfg = self.configuration
        headers = {"Accept": "application/json"}
        key = cfg.api_key()
        if key:
            headers["Authorization"] = f"Bearer {key}"
        content = json.dumps(self.body(request), ensure_ascii=False).encode("utf-8")
        headers["Content-Type"] = "application/json"
        client = self._client or httpx.Client(timeout=httpx.Timeout(cfg.timeout))
        try:
            response = client.post(
                self.url, content=content, headers=headers, timeout=httpx.Timeout(cfg.timeout)
            )
        except httpx.TimeoutException as exc:
            raise ExplainerTimeout(
                f"configuration {cfg.name!r}: no answer from {cfg.base_url} "
                f"within {cfg.timeout:g} s"
            ) from exc
        except httpx.HTTPError as exc:
            raise ExplainerUnavailable(
                f"configuration {cfg.name!r}: cannot reach {cfg.base_url}: "
                f"{scrub(str(exc)) or type(exc).__name__}"
            ) from exc
        finally:
            if self._client is None:
                client.close()
        too_long = _context_exceeded(response)
        if too_long:
            raise ExplainerUnavailable(f"configuration {cfg.name!r}: {too_long}")
        if response.status_code >= 400:
            raise ExplainerUnavailable(
                f"configuration {cfg.name!r}: {cfg.base_url} answered HTTP "
                f"{response.status_code}: {_preview(response.text)}"
            )
        return _parse_completion(response, cfg)


def _parse_completion(response: httpx.Response, cfg: Configuration) -> ChatReply:
    try:
        data = response.json()
        choice = data["choices"][0]
        message = choice["message"]
        text = message.get("content")
        if text is None:
            text = message.get("reasoning_content") or ""
        if not isinstance(text, str):
            raise TypeError("content is not a string")
    except (ValueError, LookupError, TypeError, AttributeError) as exc:
        raise InvalidAnswer(
            f"configuration {cfg.name!r}: {cfg.base_url} did not answer with a chat completion: "
            f"{_preview(response.text)}"
        ) from exc
    usage = data.get("usage") if isinstance(data, Mapping) else None
    usage = usage if isinstance(usage, Mapping) else {}
    return ChatReply(
        content=text,
        finish_reason=_opt_str(choice.get("finish_reason")),
        model=_opt_str(data.get("model")),
        prompt_tokens=_opt_int(usage.get("prompt_tokens")),
        completion_tokens=_opt_int(usage.get("completion_tokens")),
    )


def _context_exceeded(response: httpx.Response) -> str | None:
    """The server refused the request as longer than its context window (llama-server answers
    400 with ``exceed_context_size_error``, ``n_prompt_tokens`` and ``n_ctx``), said plainly."""
    if response.status_code != 400:
        return None
    try:
        error = response.json().get("error")
    except (ValueError, AttributeError):
        return None
    if not isinstance(error, Mapping) or error.get("type") != "exceed_context_size_error":
        return None
    prompt, window = _opt_int(error.get("n_prompt_tokens")), _opt_int(error.get("n_ctx"))
    sizes = f" ({prompt} tokens, the window holds {window})" if prompt and window else ""
    return (
        f"the request does not fit the model server's context window{sizes}: give the server a "
        "larger context (llama-server -c, per slot); max_tokens does not change this"
    )


def _preview(text: str) -> str:
    one_line = " ".join(scrub(text).split())
    return one_line[:_BODY_PREVIEW] + ("…" if len(one_line) > _BODY_PREVIEW else "")


def _opt_str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _opt_int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
