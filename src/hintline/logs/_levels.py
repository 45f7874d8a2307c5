"""Log levels of every format, ranked, so that "ERROR and above" means the same everywhere."""

from __future__ import annotations

__all__ = [
    "LEVEL_RANKS", "PHP_ERROR_LEVELS", "level_rank", "normalise_level", "numeric_level", "words_at_least",
]  # fmt: skip

# Python logging, java.util.logging, logback/log4j, syslog/PSR-3 (Monolog, TYPO3), Go/Rust/pino.
LEVEL_RANKS: dict[str, int] = {
    "TRACE": 5, "FINEST": 5, "FINER": 5, "FINE": 10, "DEBUG": 10, "CONFIG": 15,
    "INFO": 20, "INFORMATION": 20, "NOTICE": 25,
    "WARN": 30, "WARNING": 30,
    "ERROR": 40, "ERR": 40, "SEVERE": 40, "EXCEPTION": 40,
    "CRITICAL": 50, "CRIT": 50, "FATAL": 50,
    "ALERT": 55,
    "EMERGENCY": 60, "EMERG": 60, "PANIC": 60,
}
_SPELLING = {"WARN": "WARNING", "ERR": "ERROR", "CRIT": "CRITICAL", "EMERG": "EMERGENCY",
             "INFORMATION": "INFO", "EXCEPTION": "ERROR"}
# syslog PRIORITY (journald), 0 = emerg … 7 = debug.
SYSLOG_PRIORITIES = ("EMERGENCY", "ALERT", "CRITICAL", "ERROR", "WARNING", "NOTICE", "INFO", "DEBUG")
# Monolog 2+ numeric levels; pino's numeric levels.
MONOLOG_LEVELS = {100: "DEBUG", 200: "INFO", 250: "NOTICE", 300: "WARNING", 400: "ERROR",
                  500: "CRITICAL", 550: "ALERT", 600: "EMERGENCY"}
PINO_LEVELS = {10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARNING", 50: "ERROR", 60: "FATAL"}

# PHP's error types as its error log and display print them (``PHP Warning:  …``), as levels.
PHP_ERROR_LEVELS = {
    "Fatal error": "FATAL", "Core error": "FATAL", "Compile error": "FATAL",
    "Parse error": "ERROR", "Recoverable fatal error": "ERROR", "Catchable fatal error": "ERROR",
    "User error": "ERROR", "Unknown error": "ERROR",
    "Warning": "WARNING", "Core warning": "WARNING", "Compile warning": "WARNING",
    "User warning": "WARNING",
    "Notice": "NOTICE", "User notice": "NOTICE", "Strict Standards": "NOTICE",
    "Deprecated": "INFO", "User deprecated": "INFO",
}  # fmt: skip
PHP_ERROR_TYPES = "|".join(sorted(PHP_ERROR_LEVELS, key=len, reverse=True))
"""The alternation of PHP's error types, longest first."""


def normalise_level(word: str) -> str:
    """Upper-case a level word and spell the short forms out (``WARN`` -> ``WARNING``)."""
    upper = word.strip().upper()
    return _SPELLING.get(upper, upper)


def level_rank(level: str | None) -> int:
    """The rank of a level word; unknown words rank as INFO (20), ``None`` as 0."""
    if not level:
        return 0
    return LEVEL_RANKS.get(level.strip().upper(), 20)


def numeric_level(value: int) -> str | None:
    """A numeric level (Monolog 100-600 or pino 10-60) as a word, or ``None``."""
    if value in MONOLOG_LEVELS:
        return MONOLOG_LEVELS[value]
    if value in PINO_LEVELS:
        return PINO_LEVELS[value]
    return None


def words_at_least(min_rank: int) -> tuple[str, ...]:
    """Every level word ranked at ``min_rank`` or above."""
    return tuple(sorted((w for w, r in LEVEL_RANKS.items() if r >= min_rank), key=len, reverse=True))


def numbers_at_least(min_rank: int) -> tuple[int, ...]:
    """Every numeric level (Monolog, pino) ranked at ``min_rank`` or above."""
    return tuple(
        n for table in (MONOLOG_LEVELS, PINO_LEVELS) for n, w in table.items()
        if LEVEL_RANKS[w] >= min_rank
    )
