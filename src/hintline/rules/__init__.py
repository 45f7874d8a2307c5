"""The rule table. Global precedence lives here, and only here: the first listed rule wins.

Specific before generic: database constraint and schema errors first (they are often wrapped in a
runtime's exception line), payload validation and agent-protocol errors, then runtime errors per
language, then HTTP, filesystem and system faults, whose words are the most generic.

The rules are declared with their pattern checks deferred, so that ``import hintline`` compiles
no pattern; ``tests/rules/test_table.py`` runs :meth:`Rule.check` on every rule.
"""

from __future__ import annotations

from hintline._deferred import deferred_checks
from hintline.rules._model import Example, Rule

with deferred_checks():
    from hintline.rules import (
        db,
        fs,
        http,
        jvm,
        native,
        node,
        payload,
        php,
        python,
        refs,
        system,
        tools,
    )

__all__ = ["RULES", "Example", "Rule"]

RULES: tuple[Rule, ...] = (
    *db.RULES,
    *payload.RULES,
    *tools.RULES,
    *refs.RULES,
    *python.RULES,
    *node.RULES,
    *jvm.RULES,
    *native.RULES,
    *php.RULES,
    *http.RULES,
    *fs.RULES,
    *system.RULES,
)
"""Every rule, in priority order."""
