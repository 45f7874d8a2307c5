"""Timestamps as logs print them, and ``--since``/``--until`` bounds (ISO or relative like ``2h``)."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone

__all__ = ["parse_bound", "parse_timestamp"]

_MONTHS = {m: i for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), start=1)}

_ISO = re.compile(
    r"(?P<y>\d{4})-(?P<mo>\d\d)-(?P<d>\d\d)[T ](?P<h>\d\d):(?P<mi>\d\d)(?::(?P<s>\d\d))?"
    r"(?:[.,](?P<frac>\d{1,9}))?\s?(?P<tz>Z|z|UTC|[+-]\d\d:?\d\d)?"
)
_TIME_ONLY = re.compile(r"(?P<h>\d\d):(?P<mi>\d\d):(?P<s>\d\d)(?:[.,](?P<frac>\d{1,9}))?")
# RFC 2822 as PHP's date('r') writes it (TYPO3): "Mon, 30 Nov 2026 06:27:01 +0000".
_RFC2822 = re.compile(
    r"(?:[A-Z][a-z]{2}, )?(?P<d>\d{1,2}) (?P<mon>[A-Z][a-z]{2}) (?P<y>\d{4}) "
    r"(?P<h>\d\d):(?P<mi>\d\d):(?P<s>\d\d)(?: (?P<tz>[+-]\d{4}|GMT|UTC))?"
)
# syslog: "Nov 30 06:27:01" (no year).
_SYSLOG = re.compile(r"(?P<mon>[A-Z][a-z]{2}) +(?P<d>\d{1,2}) (?P<h>\d\d):(?P<mi>\d\d):(?P<s>\d\d)")
# PHP's error log: "30-Nov-2026 06:35:56 UTC"
_PHPLOG = re.compile(
    r"(?P<d>\d\d)-(?P<mon>[A-Z][a-z]{2})-(?P<y>\d{4}) (?P<h>\d\d):(?P<mi>\d\d):(?P<s>\d\d)(?: (?P<tz>UTC|GMT))?"
)
_RELATIVE = re.compile(r"^\s*(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>s|sec|m|min|h|d|w)\w*\s*(?:ago)?\s*$", re.I)
_UNITS = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86400, "w": 604800}


def _tz(text: str | None) -> timezone | None:
    if not text:
        return None
    if text in ("Z", "z", "UTC", "GMT"):
        return timezone.utc
    sign = -1 if text[0] == "-" else 1
    digits = text[1:].replace(":", "")
    return timezone(sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:4])))


def _micro(frac: str | None) -> int:
    return int((frac or "0")[:6].ljust(6, "0"))


def _aware(value: datetime) -> datetime:
    """Naive times are the host's local time (how ``logging`` writes ``asctime``)."""
    return value if value.tzinfo is not None else value.astimezone()


def parse_timestamp(text: str, *, reference: date | None = None) -> datetime | None:
    """Parse the timestamp at the start of ``text``; ``None`` if there is none. Never raises.

    Args:
        text: the header (or the bare timestamp) of a log record.
        reference: the date to use when the log prints only a time (logback's and log4j2's
            default ``HH:mm:ss.SSS``) or no year (syslog); defaults to today.

    Returns a timezone-aware datetime; naive log times are taken as the host's local time.
    """
    text = text.lstrip("[ ")
    try:
        m = _ISO.match(text)
        if m:
            return _aware(datetime(
                int(m["y"]), int(m["mo"]), int(m["d"]), int(m["h"]), int(m["mi"]),
                int(m["s"] or 0), _micro(m["frac"]), tzinfo=_tz(m["tz"]),
            ))
        m = _RFC2822.match(text)
        if m and m["mon"].lower() in _MONTHS:
            return _aware(datetime(
                int(m["y"]), _MONTHS[m["mon"].lower()], int(m["d"]), int(m["h"]), int(m["mi"]),
                int(m["s"]), tzinfo=_tz(m["tz"]),
            ))
        m = _PHPLOG.match(text)
        if m and m["mon"].lower() in _MONTHS:
            return _aware(datetime(
                int(m["y"]), _MONTHS[m["mon"].lower()], int(m["d"]), int(m["h"]), int(m["mi"]),
                int(m["s"]), tzinfo=_tz(m["tz"]),
            ))
        ref = reference or date.today()
        m = _SYSLOG.match(text)
        if m and m["mon"].lower() in _MONTHS:
            month, day = _MONTHS[m["mon"].lower()], int(m["d"])
            # no year printed: the most recent past one (read on 1 December, "Dec 10" is last year's)
            year = ref.year - 1 if (month, day) > (ref.month, ref.day) else ref.year
            return _aware(datetime(year, month, day, int(m["h"]), int(m["mi"]), int(m["s"])))
        m = _TIME_ONLY.match(text)
        if m:
            return _aware(datetime(
                ref.year, ref.month, ref.day, int(m["h"]), int(m["mi"]), int(m["s"]), _micro(m["frac"]),
            ))
    except (ValueError, OverflowError):
        return None
    return None


def from_epoch(value: float) -> datetime | None:
    """Seconds (or milli/microseconds, guessed from the magnitude) since the epoch, in UTC."""
    try:
        if value > 1e14:
            value /= 1e6
        elif value > 1e11:
            value /= 1e3
        return datetime.fromtimestamp(value, tz=timezone.utc)
    except (ValueError, OverflowError, OSError):
        return None


def parse_bound(text: str | datetime | timedelta | None, *, now: datetime | None = None) -> datetime | None:
    """Turn a ``--since``/``--until`` value into an aware datetime.

    Accepts a datetime, a timedelta (that long ago), ISO text (``2026-11-30``,
    ``2026-11-30T06:00``, with or without zone) or a relative span (``90s``, ``15m``, ``2h``,
    ``3d``, ``1w``, optionally followed by ``ago``).

    Raises:
        ValueError: the text is neither.
    """
    if text is None:
        return None
    now = now or datetime.now(timezone.utc)
    if isinstance(text, datetime):
        return _aware(text)
    if isinstance(text, timedelta):
        return now - text
    m = _RELATIVE.match(text)
    if m:
        unit = m["unit"].lower()
        return now - timedelta(seconds=float(m["n"]) * _UNITS[unit])
    stripped = text.strip()
    if re.fullmatch(r"\d{4}-\d\d-\d\d", stripped):
        try:
            return _aware(datetime.fromisoformat(stripped))
        except ValueError:
            pass
    else:
        parsed = parse_timestamp(stripped)
        if parsed is not None and _ISO.match(stripped):
            return parsed
    raise ValueError(f"not a time: {text!r} (use ISO like 2026-11-30T06:00 or relative like 2h)")
