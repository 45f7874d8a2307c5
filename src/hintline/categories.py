"""The vocabulary of failures: categories, their kinds, and whether a retry can help.

Every hint carries one :class:`Category`. Its :class:`Kind` decides what the agent policy does with
the failure, and for system faults :class:`Retry` says whether retrying can help.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["KIND", "RETRY", "Category", "Kind", "Retry"]


class _StrEnum(StrEnum):
    """A ``str`` enum that prints as its value."""


class Kind(_StrEnum):
    """What kind of failure a category is, and so who handles it."""

    RECOVERABLE = "recoverable"
    """The model can fix its next call: the hint goes back as an error tool result."""
    POLICY = "policy"
    """An intentional restriction: say so plainly, never retry."""
    SYSTEM = "system"
    """An infrastructure fault: handled outside the model's context."""


class Retry(_StrEnum):
    """For system faults: can a retry help."""

    TRANSIENT = "transient"
    PERMANENT = "permanent"


class Category(_StrEnum):
    """The categories a hint can have (snake_case, stable: they appear in metrics and JSON)."""

    # recoverable
    FOREIGN_KEY_VIOLATION = "foreign_key_violation"
    UNIQUE_VIOLATION = "unique_violation"
    NOT_NULL_VIOLATION = "not_null_violation"
    CHECK_VIOLATION = "check_violation"
    UNDEFINED_COLUMN = "undefined_column"
    UNDEFINED_TABLE = "undefined_table"
    MISSING_FIELD = "missing_field"
    KEY_ERROR = "key_error"
    MISSING_ARGUMENT = "missing_argument"
    NONE_ATTRIBUTE = "none_attribute"
    UNDEFINED_PROPERTY = "undefined_property"
    NULL_POINTER = "null_pointer"
    INVALID_INTEGER = "invalid_integer"
    TYPE_MISMATCH = "type_mismatch"
    FILE_NOT_FOUND = "file_not_found"
    HTTP_NOT_FOUND = "http_not_found"
    HTTP_CLIENT_ERROR = "http_client_error"
    UNKNOWN_TOOL = "unknown_tool"
    UNRESOLVED_REFERENCE = "unresolved_reference"
    MALFORMED_JSON = "malformed_json"
    SYNTAX_ERROR = "syntax_error"
    IMPORT_ERROR = "import_error"
    DIVISION_BY_ZERO = "division_by_zero"
    INDEX_ERROR = "index_error"
    RECURSION = "recursion"
    OTHER = "other"
    # policy
    PERMISSION_DENIED = "permission_denied"
    SANDBOX_ESCAPE = "sandbox_escape"
    HTTP_UNAUTHORIZED = "http_unauthorized"
    HTTP_FORBIDDEN = "http_forbidden"
    # system, transient
    TIMEOUT = "timeout"
    CONNECTION_REFUSED = "connection_refused"
    HTTP_SERVER_ERROR = "http_server_error"
    RATE_LIMITED = "rate_limited"
    DEADLOCK = "deadlock"
    DNS_FAILURE = "dns_failure"
    # system, permanent
    DISK_FULL = "disk_full"
    OUT_OF_MEMORY = "out_of_memory"
    TLS_ERROR = "tls_error"

    @property
    def kind(self) -> Kind:
        """The kind of failure this category is."""
        return KIND[self]

    @property
    def retry(self) -> Retry | None:
        """For system categories, whether a retry can help; ``None`` otherwise."""
        return RETRY.get(self)


_POLICY = {
    Category.PERMISSION_DENIED,
    Category.SANDBOX_ESCAPE,
    Category.HTTP_UNAUTHORIZED,
    Category.HTTP_FORBIDDEN,
}

RETRY: dict[Category, Retry] = {
    Category.TIMEOUT: Retry.TRANSIENT,
    Category.CONNECTION_REFUSED: Retry.TRANSIENT,
    Category.HTTP_SERVER_ERROR: Retry.TRANSIENT,
    Category.RATE_LIMITED: Retry.TRANSIENT,
    Category.DEADLOCK: Retry.TRANSIENT,
    Category.DNS_FAILURE: Retry.TRANSIENT,
    Category.DISK_FULL: Retry.PERMANENT,
    Category.OUT_OF_MEMORY: Retry.PERMANENT,
    Category.TLS_ERROR: Retry.PERMANENT,
}
"""System categories and whether a retry can help."""

KIND: dict[Category, Kind] = {
    c: Kind.SYSTEM if c in RETRY else Kind.POLICY if c in _POLICY else Kind.RECOVERABLE
    for c in Category
}
"""Every category's kind."""
