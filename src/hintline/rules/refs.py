"""Rules: references a template or configuration could not resolve (Jinja2, Terraform, a ``${…}``
placeholder left in a value). The key is the name that did not resolve.

See rules/__init__.py for global precedence (after the agent-protocol rules, whose own
``${steps…}`` format comes first).
"""

from __future__ import annotations

from hintline.categories import Category
from hintline.rules._model import Example, Rule

_SG = "tests/rules/fixtures/signals/"

RULES: tuple[Rule, ...] = (
    Rule(
        code="RF001",
        name="refs.jinja-undefined",
        category=Category.UNRESOLVED_REFERENCE,
        pattern=r"UndefinedError: '(?P<key>[^'\n]+)' is undefined",
        hint="Template variable '{key}' is undefined; pass '{key}' to the template's render call or fix its name.",
        why="Jinja2 (StrictUndefined, Ansible, dbt) raises UndefinedError when a template names a variable the context lacks.",
        examples=(
            Example(
                "jinja2.exceptions.UndefinedError: 'customer' is undefined",
                "Hint: Template variable 'customer' is undefined; pass 'customer' to the template's render call or fix its name.",
                "customer",
                _SG + "py-jinja-undefined.txt",
            ),
        ),
        near_misses=("NameError: name 'customer' is not defined",),
    ),
    Rule(
        code="RF002",
        name="refs.jinja-no-attribute",
        category=Category.UNRESOLVED_REFERENCE,
        pattern=r"UndefinedError: '(?P<obj>[^'\n]+)' has no attribute '(?P<key>[^'\n]+)'",
        hint="The template reads '{key}' from a {obj} that has no such key or attribute; pass '{key}' in the template context or fix the name.",
        why="Jinja2 when a template reads a missing key of a dict or attribute of an object (Ansible's classic 'dict object' has no attribute).",
        examples=(
            Example(
                "jinja2.exceptions.UndefinedError: 'dict object' has no attribute 'email'",
                "Hint: The template reads 'email' from a dict object that has no such key or attribute; pass 'email' in the template context or fix the name.",
                "email",
                _SG + "py-jinja-dict-attr.txt",
            ),
        ),
        near_misses=("AttributeError: 'dict' object has no attribute 'email'",),
    ),
    Rule(
        code="RF003",
        name="refs.terraform-undeclared",
        category=Category.UNRESOLVED_REFERENCE,
        pattern=(
            r"(?s)Reference to undeclared (?P<what>input variable|local value|resource|module)"
            r".{0,800}?with the name \"(?P<key>[^\"\n]+)\""
        ),
        hint="Terraform {what} '{key}' is referenced but not declared; declare it (variable \"{key}\" {{}}) or fix the reference.",
        why="Terraform's diagnostic names the undeclared object on a later line of the error block.",
        examples=(
            Example(
                'Error: Reference to undeclared input variable\n\n  on main.tf line 12, in resource "aws_instance" "web":\n'
                "  12:   ami           = var.image_id\n\n"
                'An input variable with the name "image_id" has not been declared. This',
                "Hint: Terraform input variable 'image_id' is referenced but not declared; declare it (variable \"image_id\" {}) or fix the reference.",
                "image_id",
                _SG + "doc-terraform-undeclared-variable.txt",
            ),
        ),
        near_misses=("Error: Reference to undeclared input variable",),
    ),
    Rule(
        code="RF004",
        name="refs.unsubstituted-placeholder",
        category=Category.UNRESOLVED_REFERENCE,
        pattern=r"[\"'`]\$\{(?P<key>[A-Za-z_][\w.\-]{0,63})\}[\"'`]",
        hint="Placeholder '${{{key}}}' was never substituted: the value still holds the literal text; set '{key}' (environment or config) before it is used.",
        why="A config value whose ${VAR} was not expanded (docker-compose, shell quoting, CI templates) reaches a driver or client as literal text.",
        examples=(
            Example(
                "psycopg.OperationalError: failed to resolve host '${DB_HOST}': [Errno -2] Name or service not known",
                "Hint: Placeholder '${DB_HOST}' was never substituted: the value still holds the literal text; set 'DB_HOST' (environment or config) before it is used.",
                "DB_HOST",
                _SG + "py-unsubstituted-host.txt",
            ),
        ),
        near_misses=("resolved reference ${steps.fetch_user.output.id} to 42", "echo ${HOME}"),
    ),
)
