"""The rule table. Global precedence lives here, and only here: the first listed rule wins."""

from __future__ import annotations

from hintline.rules._model import Example, Rule

__all__ = ["RULES", "Example", "Rule"]

RULES: tuple[Rule, ...] = ()
"""Every rule, in priority order."""
