"""The committed real-program logs (scripts/fixtures/gen_logs.py) and what each program logged."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"


@dataclass(frozen=True)
class Case:
    """One log file and the error records its program says it wrote (oldest first)."""

    log: str
    format: str
    expected: str
    # The class the log itself can show: "exception" (root cause) or "raised" (ECS keeps only
    # the raised exception's frames, not its cause chain).
    class_field: str = "exception"
    timed: bool = True  # logging.BASIC_FORMAT prints no time

    @property
    def path(self) -> Path:
        return FIXTURES / self.log

    def records(self) -> list[dict[str, str | None]]:
        data: list[dict[str, str | None]] = json.loads((FIXTURES / self.expected).read_text())
        return data


CASES = (
    Case("python/app.log", "python", "python/app.expected.json"),
    Case("python/basic.log", "python", "python/basic.expected.json", timed=False),
    Case("jsonl/json-logger.log", "jsonl", "jsonl/json-logger.expected.json"),
    Case("jsonl/structlog.log", "jsonl", "jsonl/structlog.expected.json"),
    Case("jsonl/structlog-dict.log", "jsonl", "jsonl/structlog-dict.expected.json"),
    Case("jsonl/ecs.log", "jsonl", "jsonl/ecs.expected.json", class_field="raised"),
    Case("jsonl/monolog.json.log", "jsonl", "jsonl/monolog.json.expected.json"),
    Case("logback/app.log", "logback", "logback/app.expected.json"),
    Case("logback/console.log", "logback", "logback/console.expected.json"),
    Case("log4j/app.log", "log4j", "log4j/app.expected.json"),
    Case("monolog/monolog.log", "monolog", "monolog/monolog.expected.json"),
    Case("monolog/monolog-multiline.log", "monolog", "monolog/monolog-multiline.expected.json"),
    Case("typo3/typo3.log", "typo3", "typo3/typo3.expected.json"),
)


def short(name: str | None) -> str | None:
    """``json.decoder.JSONDecodeError`` -> ``JSONDecodeError`` (libraries print either)."""
    return name.replace("\\", ".").rsplit(".", 1)[-1] if name else None
