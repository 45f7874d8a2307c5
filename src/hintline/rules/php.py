"""Rules: php. See rules/__init__.py for global precedence."""

from __future__ import annotations

from hintline.rules._model import Rule

RULES: tuple[Rule, ...] = ()
