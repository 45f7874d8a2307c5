"""The answer's schema and its validation."""

from __future__ import annotations

import pytest

from hintline.exceptions import AnswerCutOff, ExplainerUnavailable, InvalidAnswer
from hintline.explain import ChatReply, answer_schema, parse_answer

from ._support import DB_PASSWORD, DSN


def reply(content: str, finish: str = "stop") -> ChatReply:
    return ChatReply(content=content, finish_reason=finish)


class TestSchema:
    def test_bounded_strings_and_frame_numbers(self):
        """Strings have maxLength; frame is one of -1..n-1; no other keys."""
        schema = answer_schema(3)
        props = schema["properties"]
        assert props["cause"]["maxLength"] == 200
        assert props["next_step"]["maxLength"] == 200
        assert props["frame"]["enum"] == [-1, 0, 1, 2]
        assert schema["required"] == ["cause", "next_step", "frame"]
        assert schema["additionalProperties"] is False

    @pytest.mark.parametrize(("max_tokens", "limit"), [(512, 200), (4096, 200), (200, 68),
                                                       (100, 18), (6, 16)])
    def test_string_limits_fit_max_tokens(self, max_tokens, limit):
        """Two strings at their maxLength plus the JSON fit in max_tokens (one token per char)."""
        props = answer_schema(2, max_tokens=max_tokens)["properties"]
        assert props["cause"]["maxLength"] == props["next_step"]["maxLength"] == limit


class TestParse:
    def test_valid(self):
        """A conforming object is read."""
        answer = parse_answer(reply('{"cause": "c", "next_step": "n", "frame": 2}'), max_tokens=9)
        assert (answer.cause, answer.next_step, answer.frame) == ("c", "n", 2)

    def test_code_fence_is_accepted(self):
        """Models without a grammar often wrap JSON in a fence."""
        text = '```json\n{"cause": "c", "next_step": "n", "frame": -1}\n```'
        assert parse_answer(reply(text), max_tokens=9).frame == -1

    def test_answer_is_scrubbed_and_one_line(self):
        """Whatever the model says passes through scrub and becomes one line."""
        text = f'{{"cause": "login with\\n{DSN} failed", "next_step": "n", "frame": 0}}'
        answer = parse_answer(reply(text), max_tokens=9)
        assert DB_PASSWORD not in answer.cause
        assert "\n" not in answer.cause

    def test_garbage_stopped_at_max_tokens_is_not_json(self):
        """Text that never began a JSON object is not JSON, even when it hit max_tokens."""
        with pytest.raises(InvalidAnswer, match="not JSON"):
            parse_answer(reply("yyy>?y>", "length"), max_tokens=8)

    def test_cut_off(self):
        """A reply stopped at max_tokens is reported as cut off, with the limit."""
        stopped = ChatReply('{"cause": "abc', "length", prompt_tokens=300, completion_tokens=8)
        with pytest.raises(AnswerCutOff, match="cut off at max_tokens=8 before"):
            parse_answer(stopped, max_tokens=8)

    def test_context_window_full(self):
        """Stopped for length before max_tokens: the server's context window is full, not max_tokens."""
        stopped = ChatReply('{"cause": "abc', "length", prompt_tokens=4000, completion_tokens=96)
        with pytest.raises(AnswerCutOff, match="context window is full") as caught:
            parse_answer(stopped, max_tokens=512)
        text = str(caught.value)
        assert "4000-token request and 96 tokens of answer" in text
        assert "Raising max_tokens will not help" in text
        assert "cut off at max_tokens" not in text

    def test_cut_off_without_token_counts(self):
        """A server that reports no counts: both causes are named, neither is claimed."""
        with pytest.raises(AnswerCutOff, match="max_tokens=8 or because the model server's context"):
            parse_answer(reply('{"cause": "abc', "length"), max_tokens=8)

    @pytest.mark.parametrize(
        ("content", "message"),
        [
            ("The cause is a bad order.", "not JSON"),
            ("[1, 2]", "not a JSON object"),
            ('{"cause": "c", "frame": 0}', "'cause' and 'next_step'"),
            ('{"cause": "c", "next_step": "n", "frame": "2"}', "integer 'frame'"),
            ('{"cause": "c", "next_step": "n", "frame": true}', "integer 'frame'"),
            ('{"cause": "  ", "next_step": "n", "frame": 0}', "cause is empty"),
        ],
    )
    def test_invalid(self, content, message):
        """Anything else is an InvalidAnswer (an ExplainerUnavailable) saying what was wrong."""
        with pytest.raises(InvalidAnswer, match=message) as caught:
            parse_answer(reply(content), max_tokens=9)
        assert isinstance(caught.value, ExplainerUnavailable)
