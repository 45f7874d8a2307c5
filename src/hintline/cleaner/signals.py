"""The second layer of :func:`hintline.clean`: what the runtime *says*, when no wording rule matched.

A wording rule needs one sentence in one language. The same failure printed by PostgreSQL in
German, by a driver that names only its exception class, by an SDK that prints ``Error code: 429``
or by a client that prints only a status line falls through every rule, yet the text still holds
a token that says exactly what happened, in no particular language:

* an **exception class** (``UniqueViolation``, ``NumberFormatException``, ``RateLimitError``,
  ``ThrottlingException``, ``UnauthorizedAccessException``),
* a **code**: a SQLSTATE wherever it is printed (``(SQLSTATE 23505)``, ``SQLState: 23505``,
  ``pgcode``, node pg's ``code: '23505'``), an errno by name or number (``ENOENT``,
  ``[Errno 2]``, ``(os error 2)``), a Windows error (``[WinError 5]``, ``10061``), a gRPC status
  (``StatusCode.UNAVAILABLE``, ``code = DeadlineExceeded``), an LLM API error type
  (``'type': 'rate_limit_error'``),
* an **HTTP status** next to a reason phrase (``404 Not Found``, ``503 (Service Unavailable)``),
  next to ``HTTP``/``status``/``statusCode``/``code``/``Error code:``, or in an HTML error page's
  title (nginx, Apache, Tomcat).

Each :class:`Signal` is documented data like a :class:`~hintline.Rule`: a pattern with one named
group whose *vocabulary* (:data:`VOCABULARIES`, by group name) maps the captured token to a
:class:`~hintline.Category`; real examples with the exact hint and key the whole of ``clean()``
must give; near misses. The patterns are matched in one pass by the same engines as the rule
table (first listed signal wins); every pattern is RE2-compatible (no look-arounds, no
backreferences) and has no nested or adjacent overlapping quantifiers.

The **key** does not come from the signal but from the family of the category it decided
(:data:`KEY_SHAPES`): the same convention as the rule table documents per family (the request
path for HTTP, ``host:port`` for connections, the path for files, all columns of a key for
constraints, the quoted identifier for schema errors in any locale's quotes). The hint is the
category's template (:data:`HINTS`), naming the key and the token the runtime printed.

:func:`classify` is the one entry point, called by :func:`hintline.clean` once, after the rule
table found nothing and before the fallback.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hintline._linear import LinearPattern, re2_enabled
from hintline._text import valid_text
from hintline.categories import Category
from hintline.cleaner import match as _engine
from hintline.cleaner import render as _render
from hintline.rules._model import Example
from hintline.scrub import scrub

if TYPE_CHECKING:
    from hintline.cleaner.match import Matcher
    from hintline.hint import Hint
    from hintline.rules._model import Rule

__all__ = [
    "CONVENTIONS",
    "HINTS",
    "KEY_SHAPES",
    "SIGNALS",
    "VOCABULARIES",
    "KeyShape",
    "Signal",
    "classify",
    "family_of",
]

C = Category

# --- vocabularies: a captured token -> the category it means ---------------------------------

CLASSES: Mapping[str, Category] = {
    # PostgreSQL error classes, as psycopg (psycopg.errors.X), psycopg2 and asyncpg (XError) name them
    "UniqueViolation": C.UNIQUE_VIOLATION,
    "ForeignKeyViolation": C.FOREIGN_KEY_VIOLATION,
    "NotNullViolation": C.NOT_NULL_VIOLATION,
    "CheckViolation": C.CHECK_VIOLATION,
    "UndefinedColumn": C.UNDEFINED_COLUMN,
    "UndefinedTable": C.UNDEFINED_TABLE,
    "InvalidTextRepresentation": C.TYPE_MISMATCH,
    "NumericValueOutOfRange": C.INVALID_INTEGER,
    "StringDataRightTruncation": C.TYPE_MISMATCH,
    "DatatypeMismatch": C.TYPE_MISMATCH,
    "DivisionByZero": C.DIVISION_BY_ZERO,
    "DeadlockDetected": C.DEADLOCK,
    "SerializationFailure": C.DEADLOCK,
    "QueryCanceled": C.TIMEOUT,
    "LockNotAvailable": C.TIMEOUT,
    "InsufficientPrivilege": C.PERMISSION_DENIED,
    "InvalidPassword": C.PERMISSION_DENIED,
    "DiskFull": C.DISK_FULL,
    "SyntaxError": C.SYNTAX_ERROR,  # psycopg.errors.SyntaxError (Python's own: rules first)
    # JDK
    "IndexOutOfBoundsException": C.INDEX_ERROR,
    "ArrayIndexOutOfBoundsException": C.INDEX_ERROR,
    "StringIndexOutOfBoundsException": C.INDEX_ERROR,
    "NumberFormatException": C.INVALID_INTEGER,
    "NoSuchFileException": C.FILE_NOT_FOUND,
    "AccessDeniedException": C.PERMISSION_DENIED,
    "UnknownHostException": C.DNS_FAILURE,
    "SocketTimeoutException": C.TIMEOUT,
    "SSLHandshakeException": C.TLS_ERROR,
    # .NET
    "FileNotFoundException": C.FILE_NOT_FOUND,
    "DirectoryNotFoundException": C.FILE_NOT_FOUND,
    "UnauthorizedAccessException": C.PERMISSION_DENIED,
    "SocketException": C.CONNECTION_REFUSED,
    "ArgumentOutOfRangeException": C.INDEX_ERROR,
    "KeyNotFoundException": C.KEY_ERROR,
    "FormatException": C.INVALID_INTEGER,
    "TaskCanceledException": C.TIMEOUT,
    # LLM SDKs (openai, anthropic and their many OpenAI-compatible clones)
    "RateLimitError": C.RATE_LIMITED,
    "AuthenticationError": C.HTTP_UNAUTHORIZED,
    "PermissionDeniedError": C.HTTP_FORBIDDEN,
    "NotFoundError": C.HTTP_NOT_FOUND,
    "UnprocessableEntityError": C.HTTP_CLIENT_ERROR,
    "ConflictError": C.HTTP_CLIENT_ERROR,
    "BadRequestError": C.HTTP_CLIENT_ERROR,
    "InternalServerError": C.HTTP_SERVER_ERROR,
    "OverloadedError": C.HTTP_SERVER_ERROR,
    "ServiceUnavailableError": C.HTTP_SERVER_ERROR,
    "APIConnectionError": C.CONNECTION_REFUSED,
    "APITimeoutError": C.TIMEOUT,
    # AWS (botocore error codes, printed as the class of errorfactory exceptions)
    "ThrottlingException": C.RATE_LIMITED,
    "TooManyRequestsException": C.RATE_LIMITED,
    "ProvisionedThroughputExceededException": C.RATE_LIMITED,
    "RequestLimitExceeded": C.RATE_LIMITED,
    "SlowDown": C.RATE_LIMITED,
}

API_ERROR_TYPES: Mapping[str, Category] = {
    # the "type" of the JSON error body of the Anthropic and OpenAI APIs
    "rate_limit_error": C.RATE_LIMITED,
    "rate_limit_exceeded": C.RATE_LIMITED,
    "overloaded_error": C.HTTP_SERVER_ERROR,
    "authentication_error": C.HTTP_UNAUTHORIZED,
    "invalid_api_key": C.HTTP_UNAUTHORIZED,
    "permission_error": C.HTTP_FORBIDDEN,
    "not_found_error": C.HTTP_NOT_FOUND,
    "model_not_found": C.HTTP_NOT_FOUND,
    "request_too_large": C.HTTP_CLIENT_ERROR,
    "api_error": C.HTTP_SERVER_ERROR,
    "server_error": C.HTTP_SERVER_ERROR,
}

SQLSTATES: Mapping[str, Category] = {
    "23505": C.UNIQUE_VIOLATION,
    "23503": C.FOREIGN_KEY_VIOLATION,
    "23502": C.NOT_NULL_VIOLATION,
    "23514": C.CHECK_VIOLATION,
    "42703": C.UNDEFINED_COLUMN,
    "42P01": C.UNDEFINED_TABLE,
    "42601": C.SYNTAX_ERROR,
    "22P02": C.TYPE_MISMATCH,
    "22003": C.INVALID_INTEGER,
    "22001": C.TYPE_MISMATCH,
    "42804": C.TYPE_MISMATCH,
    "42883": C.TYPE_MISMATCH,
    "22012": C.DIVISION_BY_ZERO,
    "40P01": C.DEADLOCK,
    "40001": C.DEADLOCK,
    "57014": C.TIMEOUT,
    "55P03": C.TIMEOUT,
    "42501": C.PERMISSION_DENIED,
    "28P01": C.PERMISSION_DENIED,
    "53100": C.DISK_FULL,
    "53200": C.OUT_OF_MEMORY,
    "08001": C.CONNECTION_REFUSED,
    "08006": C.CONNECTION_REFUSED,
}

ERRNO_NAMES: Mapping[str, Category] = {
    "ENOENT": C.FILE_NOT_FOUND,
    "ENOTDIR": C.FILE_NOT_FOUND,
    "EACCES": C.PERMISSION_DENIED,
    "EPERM": C.PERMISSION_DENIED,
    "EROFS": C.PERMISSION_DENIED,
    "ENOSPC": C.DISK_FULL,
    "EDQUOT": C.DISK_FULL,
    "ENOMEM": C.OUT_OF_MEMORY,
    "ECONNREFUSED": C.CONNECTION_REFUSED,
    "ECONNRESET": C.CONNECTION_REFUSED,
    "ECONNABORTED": C.CONNECTION_REFUSED,
    "EPIPE": C.CONNECTION_REFUSED,
    "EHOSTUNREACH": C.CONNECTION_REFUSED,
    "ENETUNREACH": C.CONNECTION_REFUSED,
    "ETIMEDOUT": C.TIMEOUT,
    "ESOCKETTIMEDOUT": C.TIMEOUT,
    "ENOTFOUND": C.DNS_FAILURE,
    "EAI_AGAIN": C.DNS_FAILURE,
    "EAI_NONAME": C.DNS_FAILURE,
}

ERRNO_NUMBERS: Mapping[str, Category] = {
    # Linux numbers, as Python ([Errno N]) and Rust ((os error N)) print them; the negative
    # ones are getaddrinfo's (socket.gaierror)
    "1": C.PERMISSION_DENIED,
    "2": C.FILE_NOT_FOUND,
    "12": C.OUT_OF_MEMORY,
    "13": C.PERMISSION_DENIED,
    "20": C.FILE_NOT_FOUND,
    "28": C.DISK_FULL,
    "30": C.PERMISSION_DENIED,
    "32": C.CONNECTION_REFUSED,
    "101": C.CONNECTION_REFUSED,
    "104": C.CONNECTION_REFUSED,
    "110": C.TIMEOUT,
    "111": C.CONNECTION_REFUSED,
    "113": C.CONNECTION_REFUSED,
    "122": C.DISK_FULL,
    "-2": C.DNS_FAILURE,
    "-3": C.DNS_FAILURE,
    "-5": C.DNS_FAILURE,
}

WIN_ERRORS: Mapping[str, Category] = {
    # Windows system error codes and Winsock codes (learn.microsoft.com, "System Error Codes"
    # and "Windows Sockets Error Codes")
    "2": C.FILE_NOT_FOUND,  # ERROR_FILE_NOT_FOUND
    "3": C.FILE_NOT_FOUND,  # ERROR_PATH_NOT_FOUND
    "5": C.PERMISSION_DENIED,  # ERROR_ACCESS_DENIED
    "8": C.OUT_OF_MEMORY,  # ERROR_NOT_ENOUGH_MEMORY
    "112": C.DISK_FULL,  # ERROR_DISK_FULL
    "1225": C.CONNECTION_REFUSED,  # ERROR_CONNECTION_REFUSED
    "10054": C.CONNECTION_REFUSED,  # WSAECONNRESET
    "10060": C.TIMEOUT,  # WSAETIMEDOUT
    "10061": C.CONNECTION_REFUSED,  # WSAECONNREFUSED
    "10065": C.CONNECTION_REFUSED,  # WSAEHOSTUNREACH
    "11001": C.DNS_FAILURE,  # WSAHOST_NOT_FOUND
    "11002": C.DNS_FAILURE,  # WSATRY_AGAIN
}

GRPC_CODES: Mapping[str, Category] = {
    # grpc-python prints StatusCode.NAME, grpc-go "code = Name"
    "DEADLINE_EXCEEDED": C.TIMEOUT,
    "DeadlineExceeded": C.TIMEOUT,
    "RESOURCE_EXHAUSTED": C.RATE_LIMITED,
    "ResourceExhausted": C.RATE_LIMITED,
    "UNAVAILABLE": C.CONNECTION_REFUSED,
    "Unavailable": C.CONNECTION_REFUSED,
    "PERMISSION_DENIED": C.PERMISSION_DENIED,
    "PermissionDenied": C.PERMISSION_DENIED,
    "UNAUTHENTICATED": C.HTTP_UNAUTHORIZED,
    "Unauthenticated": C.HTTP_UNAUTHORIZED,
    "NOT_FOUND": C.HTTP_NOT_FOUND,
    "NotFound": C.HTTP_NOT_FOUND,
    "INVALID_ARGUMENT": C.HTTP_CLIENT_ERROR,
    "InvalidArgument": C.HTTP_CLIENT_ERROR,
    "INTERNAL": C.HTTP_SERVER_ERROR,
    "Internal": C.HTTP_SERVER_ERROR,
}

_STATUS: Mapping[str, Category] = {
    "401": C.HTTP_UNAUTHORIZED,
    "403": C.HTTP_FORBIDDEN,
    "404": C.HTTP_NOT_FOUND,
    "408": C.TIMEOUT,
    "429": C.RATE_LIMITED,
}


def _http_status(token: str) -> Category | None:
    """An HTTP status's category: the specific ones, else any 4xx or 5xx (529 included)."""
    if token in _STATUS:
        return _STATUS[token]
    if token[:1] == "4":
        return C.HTTP_CLIENT_ERROR
    if token[:1] == "5":
        return C.HTTP_SERVER_ERROR
    return None


# A status named instead of numbered, where a client prints the server's name for it as the
# error itself: the Kubernetes API's ``Status.reason`` (kubectl ``Error from server (NotFound)``,
# ``You must be logged in to the server (Unauthorized)``) and the OCI distribution spec's error
# codes as the Docker and containerd clients print them (``unauthorized: authentication
# required``, ``toomanyrequests: ...``). Only names that are HTTP statuses and nothing else.
_STATUS_REASONS: Mapping[str, str] = {
    "Unauthorized": "401",
    "Forbidden": "403",
    "NotFound": "404",
    "MethodNotAllowed": "405",
    "Conflict": "409",
    "Gone": "410",
    "RequestEntityTooLarge": "413",
    "UnsupportedMediaType": "415",
    "TooManyRequests": "429",
    "InternalError": "500",
    "ServiceUnavailable": "503",
}
_REGISTRY_CODES: Mapping[str, str] = {"unauthorized": "401", "toomanyrequests": "429"}
_STATUS_NAMES: Mapping[str, str] = {**_STATUS_REASONS, **_REGISTRY_CODES}


def _status_name(token: str) -> Category | None:
    """The category of a status printed by its name (:data:`_STATUS_NAMES`)."""
    status = _STATUS_NAMES.get(token)
    return None if status is None else _http_status(status)


VOCABULARIES: Mapping[str, Callable[[str], Category | None]] = {
    "cls": CLASSES.get,
    "apitype": API_ERROR_TYPES.get,
    "sqlstate": SQLSTATES.get,
    "errname": ERRNO_NAMES.get,
    "errno": ERRNO_NUMBERS.get,
    "winerror": WIN_ERRORS.get,
    "grpc": GRPC_CODES.get,
    "status": _http_status,
    "statusname": _status_name,
}
"""By the name of a signal's token group: what decides the category of the captured token."""

_TOKEN_LABEL: Mapping[str, str] = {
    "cls": "{}",
    "apitype": "{}",
    "sqlstate": "SQLSTATE {}",
    "errname": "{}",
    "errno": "errno {}",
    "winerror": "WinError {}",
    "grpc": "gRPC {}",
    "status": "HTTP {}",
    "statusname": "HTTP {}",
}
"""How the hint names the token the runtime printed."""


def _alternation(words: Mapping[str, object]) -> str:
    """The keys as one alternation, longest first (so a prefix never shadows a longer word)."""
    return "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w)))


_REASONS = (
    r"Bad Request|Unauthorized|Payment Required|Forbidden|Not Found|Method Not Allowed|"
    r"Not Acceptable|Request Time-?out|Conflict|Gone|Length Required|Precondition Failed|"
    r"Payload Too Large|Request Entity Too Large|URI Too Long|Unsupported Media Type|"
    r"Unprocessable (?:Entity|Content)|Too Many Requests|Internal Server Error|Not Implemented|"
    r"Bad Gateway|Service Unavailable|Gateway Time-?out|Insufficient Storage|Site is overloaded"
)


@dataclass(frozen=True, slots=True)
class Signal:
    """One locale- and wording-free signal.

    Args:
        code: stable identifier (``SG001``), never reused.
        name: ``signal.kebab-name``.
        pattern: RE2-compatible; exactly one named group whose name is a key of
            :data:`VOCABULARIES` (the token), optionally ``path`` (an HTTP request path printed
            next to the status).
        why: what prints it and why it decides the category.
        examples: real inputs with the exact hint and key that :func:`hintline.clean` gives.
        near_misses: inputs this signal must not claim.
    """

    code: str
    name: str
    pattern: str
    why: str
    examples: tuple[Example, ...]
    near_misses: tuple[str, ...] = ()

    @property
    def token_group(self) -> str:
        """The name of the group holding the token."""
        for name in re.compile(self.pattern).groupindex:
            if name in VOCABULARIES:
                return name
        raise ValueError(f"signal {self.code} has no token group")


_FX = "tests/rules/fixtures/signals/"

SIGNALS: tuple[Signal, ...] = (
    Signal(
        code="SG001",
        name="signal.exception-class",
        pattern=(
            r"\b(?P<cls>" + _alternation(CLASSES) + r")(?:Error)?\b"
        ),
        why="The exception class names the failure in every locale and wording (psycopg/asyncpg error classes, JDK, .NET, LLM SDKs, botocore).",
        examples=(
            Example(
                'psycopg.errors.UniqueViolation: doppelter Schlüsselwert verletzt Unique-Constraint »orders_sku_region_key«\nDETAIL:  Schlüssel »(sku, region)=(SKU-1, eu)« existiert bereits.',
                "Hint: Unique constraint failed for 'sku, region' (UniqueViolation): a row with that value already exists. Use another value or update the existing row.",
                'sku, region',
                _FX + 'pg-de-psycopg-unique-composite.txt',
            ),
            Example(
                'psycopg.errors.NotNullViolation: une valeur NULL viole la contrainte NOT NULL de la colonne « email » dans la relation « users »\nDETAIL:  La ligne en échec contient (3, null, null).',
                "Hint: Column 'email' may not be null (NotNullViolation); pass a value for it.",
                'email',
                _FX + 'pg-fr-psycopg-not-null.txt',
            ),
            Example(
                'psycopg.errors.CheckViolation: neue Zeile für Relation »orders« verletzt Check-Constraint »orders_quantity_check«\nDETAIL:  Fehlgeschlagene Zeile enthält (11, 1, 0, null, null).',
                "Hint: Check constraint 'orders_quantity_check' failed (CheckViolation); pass a value the constraint allows.",
                'orders_quantity_check',
                _FX + 'pg-de-psycopg-check.txt',
            ),
            Example(
                "anthropic.OverloadedError: Error code: 529 - {'type': 'error', 'error': {'type': 'overloaded_error', 'message': 'Overloaded'}}",
                'Hint: The server failed or is overloaded (OverloadedError); this is not caused by the request, so retry later with backoff.',
                None,
                _FX + 'llm-anthropic-529.txt',
            ),
            Example(
                'openai.RateLimitError: Error code: 429 - Rate limit reached for gpt-4o-mini in organization org-x on requests per min (RPM): Limit 3, Used 3, Requested 1.',
                'Hint: Rate limited (RateLimitError); wait before calling again (honour Retry-After if given) and slow down.',
                None,
                _FX + 'llm-openai-429.txt',
            ),
            Example(
                'Exception in thread "main" java.lang.StringIndexOutOfBoundsException: begin 5, end 3, length 3\n\tat java.base/java.lang.String.checkBoundsBeginEnd(String.java:4606)\n\tat java.base/java.lang.String.substring(String.java:2709)\n\tat java.base/java.lang.String.substring(String.java:2682)\n\tat Main.main(Main.java:1)\n',
                'Hint: An index is out of range (StringIndexOutOfBoundsException); check the length before indexing.',
                None,
                _FX + 'jvm-substring.txt',
            ),
            Example(
                "Unhandled exception. System.UnauthorizedAccessException: Access to the path 'C:\\Windows\\System32\\drivers\\etc\\hosts' is denied.",
                "Hint: Permission denied for 'C:\\Windows\\System32\\drivers\\etc\\hosts' (UnauthorizedAccessException); this is not allowed, so do not retry: use a permitted path or ask for access.",
                'C:\\Windows\\System32\\drivers\\etc\\hosts',
                _FX + 'doc-dotnet-unauthorized-access.txt',
            ),
            Example(
                'Unhandled exception. System.Net.Http.HttpRequestException: No connection could be made because the target machine actively refused it. (localhost:5000)\n ---> System.Net.Sockets.SocketException (10061): No connection could be made because the target machine actively refused it.',
                "Hint: Could not connect to 'localhost:5000' (SocketException); the service is down or unreachable, so retry later with backoff.",
                'localhost:5000',
                _FX + 'doc-dotnet-socket-refused.txt',
            ),
        ),
        near_misses=(
            "see docs/UniqueViolationHandling.md",
            "class RateLimitErrors(list): pass",
        ),
    ),
    Signal(
        code="SG002",
        name="signal.api-error-type",
        pattern=r"""["'](?:type|code)["']: ?["'](?P<apitype>""" + _alternation(API_ERROR_TYPES) + r""")["']""",
        why="The JSON error body of the Anthropic and OpenAI APIs names its type (rate_limit_error, overloaded_error …) whatever client printed it.",
        examples=(
            Example(
                "{'type': 'error', 'error': {'type': 'overloaded_error', 'message': 'Overloaded'}}",
                'Hint: The server failed or is overloaded (overloaded_error); this is not caused by the request, so retry later with backoff.',
                None,
                _FX + 'llm-anthropic-529.txt',
            ),
        ),
        near_misses=("{'type': 'message', 'text': 'rate_limit_error'}",),
    ),
    Signal(
        code="SG003",
        name="signal.sqlstate",
        pattern=(
            r"(?:(?i:sqlstate|sql state|pgcode|sqlcode)\b[\"']?(?: is| =|=|:|\[)? ?[\"'\[(]?|"
            r"\b(?i:code|error code)[\"']?(?::|=) ?[\"']|\b[A-Z]{4,8}: {1,2})(?P<sqlstate>" + _alternation(SQLSTATES) + r"):?\b"
        ),
        why="A SQLSTATE is the same in every locale and driver: pgx (SQLSTATE 23505), JDBC SQLState, psycopg2 pgcode, node pg code: '23505', psql's verbose FEHLER:  23505: in any language.",
        examples=(
            Example(
                'FEHLER:  23505: doppelter Schlüsselwert verletzt Unique-Constraint »users_email_key«\nDETAIL:  Schlüssel »(email)=(ada@example.com)« existiert bereits.\nSCHEMA NAME:  public\nTABLE NAME:  users\nCONSTRAINT NAME:  users_email_key\nLOCATION:  _bt_check_unique, nbtinsert.c:664',
                "Hint: Unique constraint failed for 'email' (SQLSTATE 23505): a row with that value already exists. Use another value or update the existing row.",
                'email',
                _FX + 'pg-de-psql-unique.txt',
            ),
            Example(
                "ERREUR:  23503: une instruction insert ou update sur la table « orders » viole la contrainte de clé\nétrangère « orders_user_id_fkey »\nDETAIL:  La clé (user_id)=(999) n'est pas présente dans la table « users ».\nSCHEMA NAME:  public\nTABLE NAME:  orders\nCONSTRAINT NAME:  orders_user_id_fkey\nLOCATION:  ri_ReportViolation, ri_triggers.c:2596",
                "Hint: Foreign key constraint failed for 'user_id' (SQLSTATE 23503): the referenced row is missing, or rows still reference this one. Create the parent row first, or remove the referencing rows first.",
                'user_id',
                _FX + 'pg-fr-psql-fk-insert.txt',
            ),
            Example(
                "NOTICE:  00000: la table « metrics » n'existe pas, poursuite du traitement\nLOCATION:  DropErrorMsgNonExistent, tablecmds.c:1310\nERREUR:  42703: la colonne « emial » n'existe pas\nLINE 6: SELECT emial FROM users;\n               ^\nHINT:  Peut-être que vous souhaitiez référencer la colonne « users.email ».\nLOCATION:  errorMissingColumn, parse_relation.c:3665\n",
                "Hint: Column 'emial' does not exist (SQLSTATE 42703); check the column name against the table's schema.",
                'emial',
                _FX + 'pg-fr-psql-undefined-column.txt',
            ),
        ),
        near_misses=("order 23505 shipped", "zip code 23505"),
    ),
    Signal(
        code="SG004",
        name="signal.errno-name",
        pattern=r"\b(?P<errname>" + _alternation(ERRNO_NAMES) + r")\b",
        why="An errno name (node's code: 'ENOENT', Rust/Go/C messages) is the same in every locale.",
        examples=(
            Example(
                "  code: 'ENOTFOUND',\n  syscall: 'getaddrinfo',\n  hostname: 'no-such-host.invalid'\n}",
                "Hint: The host 'no-such-host.invalid' could not be resolved (ENOTFOUND); check the host name, or retry if DNS is flaky.",
                'no-such-host.invalid',
                _FX + 'node-app-dns.txt',
            ),
        ),
        near_misses=("ENOENTRY is a label",),
    ),
    Signal(
        code="SG005",
        name="signal.errno-number",
        pattern=r"(?:\[Errno |\(os error |errno[ =:]{1,3})(?P<errno>" + _alternation(ERRNO_NUMBERS) + r")\b",
        why="Python's [Errno N] and Rust's (os error N) carry the errno whatever the message's locale.",
        examples=(
            Example(
                'OSError: [Errno 28] Auf dem Gerät ist kein Speicherplatz mehr verfügbar',
                'Hint: The disk is full (errno 28); free disk space, retrying will not help.',
                None,
                _FX + 'py-de-errno-enospc.txt',
            ),
        ),
        near_misses=("[Errno 17] File exists: 'out'",),
    ),
    Signal(
        code="SG006",
        name="signal.windows-error",
        pattern=(
            r"(?:\[WinError |WinError\(|Win32Exception \(0x[0-9A-Fa-f]{1,8}\)|SocketException \(|"
            r"ErrorCode[ =:]{1,3}|error code[ =:]{1,3})(?P<winerror>" + _alternation(WIN_ERRORS) + r")\b"
        ),
        why="Windows system and Winsock error numbers ([WinError 2], SocketException (10061)) are the same in every Windows locale.",
        examples=(
            Example(
                "FileNotFoundError: [WinError 2] The system cannot find the file specified: 'C:\\\\data\\\\in.csv'",
                "Hint: File 'C:\\data\\in.csv' does not exist (WinError 2); check the path, or create the file first.",
                'C:\\data\\in.csv',
                _FX + 'doc-win-python-winerror-2.txt',
            ),
            Example(
                'ConnectionRefusedError: [WinError 10061] No connection could be made because the target machine actively refused it',
                'Hint: Could not reach the service (WinError 10061); it is down or unreachable, so retry later with backoff.',
                None,
                _FX + 'doc-win-python-winerror-10061.txt',
            ),
        ),
        near_misses=("[WinError 87] The parameter is incorrect",),
    ),
    Signal(
        code="SG007",
        name="signal.grpc-status",
        pattern=r"(?:StatusCode\.|code = |grpc-status: |\bstatus: )(?P<grpc>" + _alternation(GRPC_CODES) + r")\b",
        why="gRPC status codes (grpc-python StatusCode.X, grpc-go code = X) say what failed for every gRPC service.",
        examples=(
            Example(
                'grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.RESOURCE_EXHAUSTED\n\tdetails = "quota for project p-1 exceeded"\n\tdebug_error_string = "RESOURCE_EXHAUSTED:quota for project p-1 exceeded"\n>',
                'Hint: Rate limited (gRPC RESOURCE_EXHAUSTED); wait before calling again (honour Retry-After if given) and slow down.',
                None,
                _FX + 'grpc-py-resource-exhausted.txt',
            ),
            Example(
                'grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.DEADLINE_EXCEEDED\n\tdetails = "Deadline Exceeded"\n\tdebug_error_string = "DEADLINE_EXCEEDED:Deadline Exceeded"\n>',
                'Hint: The operation timed out (gRPC DEADLINE_EXCEEDED); retry later with backoff, or ask for less per call.',
                None,
                _FX + 'grpc-py-slow.txt',
            ),
        ),
        near_misses=("StatusCode.OK",),
    ),
    Signal(
        code="SG008",
        name="signal.http-status-reason",
        pattern=r"\b(?P<status>[45]\d\d)(?: | - |: | \(|\) )(?:" + _REASONS + r")\b",
        why="An HTTP status next to its reason phrase (404 Not Found, 503 (Service Unavailable), nginx and Apache page titles) is a status whatever library printed it.",
        examples=(
            Example(
                "/tmp/hintline-nodehttp-iu1ar2kj/app.js:14\n  if (!res.ok && kind === 'message') throw new Error(`POST ${path} failed: ${res.status} ${res.statusText}`);\n                                           ^\n\nError: POST /v2/invoices failed: 503 Service Unavailable\n    at main (/tmp/hintline-nodehttp-iu1ar2kj/app.js:14:44)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)\n\nNode.js v20.20.2\n",
                "Hint: The server failed on '/v2/invoices' (HTTP 503); this is not caused by the request, so retry later with backoff.",
                '/v2/invoices',
                _FX + 'node-app-message-503.txt',
            ),
            Example(
                'Unhandled exception. System.Net.Http.HttpRequestException: Response status code does not indicate success: 404 (Not Found).',
                'Hint: The requested resource was not found (HTTP 404); check the id, name or path, or create it before using it.',
                None,
                _FX + 'doc-dotnet-httpclient-404.txt',
            ),
        ),
        near_misses=("Found 404 Not matching rows", "room 404 Notfound"),
    ),
    Signal(
        code="SG009",
        name="signal.http-status-field",
        pattern=(
            r"(?i:\bHTTP(?:/[0-9.]{1,3})?|\bHTTP status|\bstatus|\bstatusCode|\bstatus_code|"
            r"\bstatus code|\bresponse code|\bError code|\bhttp_code|\bcode)[\"']?(?: |: |=|:|\[)"
            r"E?(?P<status>[45]\d\d)\b"
        ),
        why="A status next to HTTP, status, statusCode, code or Error code: (app-thrown errors, error properties, SDKs, Tomcat's HTTP Status page) is a status.",
        examples=(
            Example(
                "/tmp/hintline-nodehttp-iu1ar2kj/app.js:15\n  if (!res.ok && kind === 'property') throw Object.assign(new Error('upstream call failed'), {status: res.status, path});\n                                                          ^\n\nError: upstream call failed\n    at main (/tmp/hintline-nodehttp-iu1ar2kj/app.js:15:59)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5) {\n  status: 404,\n  path: '/v1/customers/42'\n}\n\nNode.js v20.20.2\n",
                "Hint: Resource '/v1/customers/42' was not found (HTTP 404); check the id and path, or create the resource before using it.",
                '/v1/customers/42',
                _FX + 'node-app-property-404.txt',
            ),
            Example(
                "/tmp/hintline-nodehttp-iu1ar2kj/app.js:15\n  if (!res.ok && kind === 'property') throw Object.assign(new Error('upstream call failed'), {status: res.status, path});\n                                                          ^\n\nError: upstream call failed\n    at main (/tmp/hintline-nodehttp-iu1ar2kj/app.js:15:59)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5) {\n  status: 429,\n  path: '/v1/search'\n}\n\nNode.js v20.20.2\n",
                "Hint: Rate limited on '/v1/search' (HTTP 429); wait before calling again (honour Retry-After if given) and slow down.",
                '/v1/search',
                _FX + 'node-app-property-429.txt',
            ),
            Example(
                "npm error code E401\nnpm error Incorrect or missing password.\n",
                "Hint: The request was not authenticated (HTTP 401); valid credentials are required, so do not repeat the same call without them.",
                None,
                _FX + "http401-npm.txt",
            ),
        ),
        near_misses=("order status 4001 pending", "code 4040", "line 404 of app.py", "error[E0401]"),
    ),
    Signal(
        code="SG010",
        name="signal.http-status-name",
        pattern=r"\((?P<statusname>" + _alternation(_STATUS_REASONS) + r")\)",
        why="A status printed by its name in parentheses as the error itself: the Kubernetes API's Status reason as kubectl prints it (Error from server (NotFound), You must be logged in to the server (Unauthorized)).",
        examples=(
            Example(
                'Error from server (NotFound): pods "web" not found\n',
                "Hint: The requested resource was not found (HTTP 404 NotFound); check the id, name or path, or create it before using it.",
                None,
                _FX + "kubectl-notfound.txt",
            ),
            Example(
                'Error from server (Forbidden): secrets is forbidden: User "dev" cannot list resource "secrets" in API group "" in the namespace "default"\n',
                "Hint: Access is forbidden (HTTP 403 Forbidden); these credentials may not do this, so do not retry: use an allowed resource or ask for access.",
                None,
                _FX + "kubectl-forbidden.txt",
            ),
        ),
        near_misses=(
            "Permission denied (publickey).",
            "the (unauthorized) flag is off",
            "(NotFoundException)",
        ),
    ),
    Signal(
        code="SG011",
        name="signal.registry-error-code",
        pattern=r"(?:^|\n|: )(?P<statusname>" + _alternation(_REGISTRY_CODES) + r"): ",
        why="The OCI distribution spec's error codes, printed by the Docker and containerd clients as `code: message` (unauthorized: authentication required, toomanyrequests: ...), are HTTP statuses by name.",
        examples=(
            Example(
                'Error response from daemon: Head "https://registry.acme.dev/v2/reports/api/manifests/1.4.2": unauthorized: authentication required\n',
                "Hint: The request was not authenticated (HTTP 401 unauthorized); valid credentials are required, so do not repeat the same call without them.",
                None,
                _FX + "doc-docker-pull-401.txt",
            ),
        ),
        near_misses=(
            "unauthorized access attempt was logged",
            "the unauthorized: flag",
        ),
    ),
)
"""Every signal, in priority order (the first listed that matches wins)."""


# --- keys: one convention per family ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KeyShape:
    """Where a family's key is printed. ``key`` is the key; with ``port``, ``key:port``.

    ``pattern`` is searched in linear time (:class:`hintline._linear.LinearPattern`), so it
    must mean the same on RE2 (:func:`hintline._linear.to_re2` tells); ``\\b`` is an ASCII
    word boundary, as in the rule table's patterns."""

    pattern: str
    why: str


_ID = r"[\w$.\-]{1,128}"
_ID_SPACED = r"[\w$.\-][\w$.\- ]{0,127}"
_LOCALE_QUOTED = (
    # the quoted identifier of a schema error in any locale's quotes: »x« (de), « x » (fr),
    # „x“, "x"; an identifier never starts with a space, so » dans la relation « is no key
    KeyShape(r"»(?P<key>" + _ID_SPACED + r")«", "German quotes (PostgreSQL de)"),
    KeyShape(r"« ?(?P<key>" + _ID + r") ?»", "French quotes (PostgreSQL fr)"),
    KeyShape(r"[„“](?P<key>" + _ID_SPACED + r")[“”]", "typographic quotes"),
    KeyShape(r"\"(?P<key>" + _ID_SPACED + r")\"", "double quotes"),
)
_LAST_QUOTED = (
    # a check constraint's name is the last quoted identifier of its line (the relation comes first)
    KeyShape(r"(?m)»(?P<key>" + _ID_SPACED + r")«[^«»\n]*$", "German quotes, last on the line"),
    KeyShape(r"(?m)« ?(?P<key>" + _ID + r") ?»[^«»\n]*$", "French quotes, last on the line"),
    KeyShape(r"(?m)\"(?P<key>" + _ID_SPACED + r")\"[^\"\n]*$", "double quotes, last on the line"),
)
_COLUMNS = KeyShape(
    r"\((?P<key>[^()=\n]{1,200})\)=\(", "PostgreSQL DETAIL (cols)=(vals), in every locale: all columns"
)
_HOST_PORT = (
    KeyShape(
        r"host='(?P<key>[^'\s]{1,128})', port=(?P<port>\d{1,5})", "urllib3 (host='h', port=p)"
    ),
    KeyShape(
        r"\b(?P<key>(?:\d{1,3}\.){3}\d{1,3}|\[[0-9A-Fa-f:]{2,45}\]|localhost|[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8}):(?P<port>\d{1,5})\b",
        "host:port anywhere (a URL's authority included)",
    ),
    KeyShape(
        r"(?P<key>(?:\d{1,3}\.){3}\d{1,3}|localhost|[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8})[\"']?,? port (?P<port>\d{1,5})\b",
        "host … port N (libpq's at \"h\", port p; curl and ssh's h port p)",
    ),
    KeyShape(r"\(host=(?P<key>[^)\s]{1,253})\)\(port=(?P<port>\d{1,5})\)", "JDBC's address=(host=h)(port=p)"),
    KeyShape(r"\bhost[:=] ?(?P<key>[^\s,'\"]{1,253}), ?port[:=] ?(?P<port>\d{1,5})", "host:h, port:p (MariaDB Connector/J)"),
    KeyShape(r"\bhost(?:name)?['\"]?: ?['\"](?P<key>[A-Za-z0-9.-]{1,253})['\"]", "a host property of the error object"),
)
_DNS = (
    KeyShape(
        r"(?:getaddrinfo (?:for |ENOTFOUND |EAI_AGAIN )|resolve host(?:name)?:? |[Uu]nknown host:? |lookup |host name )['\"]?(?P<key>[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8})",
        "the host name a resolver error names (getaddrinfo, could not resolve host, lookup)",
    ),
    KeyShape(r"\bhost(?:name)?['\"]?: ?['\"](?P<key>[A-Za-z0-9.-]{1,253})['\"]", "a host property of the error object"),
)
_REQUEST_PATH = (
    KeyShape(
        r"\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (?:https?://[^/\s'\"<>]{1,253})?(?P<key>/[^\s?#'\"<>]{0,200})",
        "the method and path of the request",
    ),
    KeyShape(r"\bpath['\"]?: ?['\"](?P<key>/[^\s?#'\"<>]{0,200})", "a path property of the error object"),
    KeyShape(
        r"(?m)^--[0-9: -]{19}--  https?://[^/\s]{1,253}(?P<key>/[^\s?#]{0,200})",
        "the request line GNU wget prints before the answer",
    ),
    KeyShape(
        r"(?:url|URL|Url|uri|URI|request to|calling)['\"]?[:=]? ?['\"]?https?://[^/\s'\"<>]{1,253}(?P<key>/[^\s?#'\"<>]{0,200})",
        "the path of the URL a client names as the request's (for url, url=, URL:), the query dropped",
    ),
    KeyShape(
        r"(?:\(|\bfor |\bto |\bfrom )https?://[^/\s'\"<>()]{1,253}(?P<key>/[^\s?#'\"<>()]{0,200})",
        "a URL the failure line names as its object (file_get_contents(URL), for URL, to URL)",
    ),
)
_PATH = (
    KeyShape(r"""[:,] ['"](?P<key>[^'"\n]{0,200}[/\\][^'"\n]{0,200})['"]""", "a quoted path after the message ([Errno 2] …: 'x')"),
    KeyShape(r"""['"](?P<key>[^'"\n]{0,200}[/\\][^'"\n]{0,200})['"]""", "a quoted path (Could not find file 'C:\\x')"),
    KeyShape(r"""['"](?P<key>[\w.\-]{1,128}\.[A-Za-z0-9]{1,8})['"]""", "a quoted file name"),
    KeyShape(r"‘(?P<key>[^’\n]{1,200})’", "GNU's typographic quotes (mkdir: cannot create directory ‘x’)"),
    KeyShape(r"(?P<key>[\w.~-]{0,100}/[^\s:'\"‘’]{1,200}): ", "prog: PATH: strerror (cat, tar, bash, perl's die, Go's op PATH:)"),
)

_FAMILIES: Mapping[str, frozenset[Category]] = {
    "constraint": frozenset({C.UNIQUE_VIOLATION, C.FOREIGN_KEY_VIOLATION}),
    "schema": frozenset({C.NOT_NULL_VIOLATION, C.UNDEFINED_COLUMN, C.UNDEFINED_TABLE}),
    "check": frozenset({C.CHECK_VIOLATION}),
    "http": frozenset(
        {C.HTTP_UNAUTHORIZED, C.HTTP_FORBIDDEN, C.HTTP_NOT_FOUND, C.HTTP_CLIENT_ERROR,
         C.HTTP_SERVER_ERROR, C.RATE_LIMITED}
    ),
    "network": frozenset({C.CONNECTION_REFUSED, C.TIMEOUT, C.TLS_ERROR}),
    "dns": frozenset({C.DNS_FAILURE}),
    "filesystem": frozenset({C.FILE_NOT_FOUND, C.PERMISSION_DENIED, C.DISK_FULL}),
}


def family_of(category: Category) -> str | None:
    """The key family of a category (``constraint``, ``schema``, ``check``, ``http``,
    ``network``, ``dns``, ``filesystem``), or ``None`` for a category without a key convention."""
    for family, members in _FAMILIES.items():
        if category in members:
            return family
    return None


CONVENTIONS: Mapping[str, str] = {
    "http": "the request path, query dropped (scrubbed like every key), named in the hint: `/v1/orders/7`",
    "network": "`host:port`, else the host; never the port alone (a rule that captured only a port gets the host:port the text holds)",
    "dns": "the host name that did not resolve",
    "filesystem": "the path, quoted or in `prog: PATH: strerror` shape (`cat: /x: No such file`), never a stack frame's file",
    "constraint": "every column of the key, in order (`sku, region`); values never",
    "schema": "the column or table named, in any locale's quotes (`\"x\"`, `»x«`, `« x »`)",
    "check": "the constraint's name (the last quoted identifier of its line)",
    "validation": "the field: `loc[-1]` of a pydantic/FastAPI `detail` item, the JSON Schema property, the serde/Jackson field",
    "number": "the field or flag when the message names one; the rejected literal itself is never a key (it is a value, and values may be secrets)",
}
"""One key convention per family, as docs/rules.md states it; the key is what the next call must change."""


KEY_SHAPES: Mapping[str, tuple[KeyShape, ...]] = {
    "constraint": (_COLUMNS, *_LOCALE_QUOTED),
    "schema": _LOCALE_QUOTED,
    "check": _LAST_QUOTED,
    "http": _REQUEST_PATH,
    "network": _HOST_PORT,
    "dns": _DNS,
    "filesystem": _PATH,
}
"""Per key family: where its key is printed, tried in order (the first shape that matches wins)."""


# --- hints: one template per category; {key} and {token} ---------------------------------------

HINTS: Mapping[Category, tuple[str, str]] = {
    C.UNIQUE_VIOLATION: (
        "Unique constraint failed for '{key}' ({token}): a row with that value already exists. Use another value or update the existing row.",
        "Unique constraint failed ({token}): a row with that value already exists. Use another value or update the existing row.",
    ),
    C.FOREIGN_KEY_VIOLATION: (
        "Foreign key constraint failed for '{key}' ({token}): the referenced row is missing, or rows still reference this one. Create the parent row first, or remove the referencing rows first.",
        "Foreign key constraint failed ({token}): the referenced row is missing, or rows still reference this one. Create the parent row first, or remove the referencing rows first.",
    ),
    C.NOT_NULL_VIOLATION: (
        "Column '{key}' may not be null ({token}); pass a value for it.",
        "A required column was null ({token}); pass a value for every NOT NULL column.",
    ),
    C.CHECK_VIOLATION: (
        "Check constraint '{key}' failed ({token}); pass a value the constraint allows.",
        "A check constraint failed ({token}); pass a value the constraint allows.",
    ),
    C.UNDEFINED_COLUMN: (
        "Column '{key}' does not exist ({token}); check the column name against the table's schema.",
        "A column does not exist ({token}); check the column names against the table's schema.",
    ),
    C.UNDEFINED_TABLE: (
        "Table '{key}' does not exist ({token}); check the table name and schema, or create it first.",
        "A table does not exist ({token}); check the table name and schema, or create it first.",
    ),
    C.SYNTAX_ERROR: ("", "The statement or code has a syntax error ({token}); fix it where the error points."),
    C.TYPE_MISMATCH: ("", "A value has the wrong type or format ({token}); pass a value of the type the target expects."),
    C.INVALID_INTEGER: ("", "A value is not a valid number or is out of range ({token}); pass a number in the expected format and range."),
    C.DIVISION_BY_ZERO: ("", "Division by zero ({token}); guard the divisor."),
    C.INDEX_ERROR: ("", "An index is out of range ({token}); check the length before indexing."),
    C.KEY_ERROR: ("", "A key is missing ({token}); check that the key exists before reading it."),
    C.DEADLOCK: ("", "The transaction hit a deadlock or serialization conflict ({token}); retry the whole transaction."),
    C.TIMEOUT: (
        "The operation on '{key}' timed out ({token}); retry later with backoff, or ask for less per call.",
        "The operation timed out ({token}); retry later with backoff, or ask for less per call.",
    ),
    C.CONNECTION_REFUSED: (
        "Could not connect to '{key}' ({token}); the service is down or unreachable, so retry later with backoff.",
        "Could not reach the service ({token}); it is down or unreachable, so retry later with backoff.",
    ),
    C.DNS_FAILURE: (
        "The host '{key}' could not be resolved ({token}); check the host name, or retry if DNS is flaky.",
        "A host name could not be resolved ({token}); check the host name, or retry if DNS is flaky.",
    ),
    C.TLS_ERROR: (
        "The TLS handshake with '{key}' failed ({token}); check the certificate and the URL's scheme.",
        "The TLS handshake failed ({token}); check the certificate and the URL's scheme.",
    ),
    C.PERMISSION_DENIED: (
        "Permission denied for '{key}' ({token}); this is not allowed, so do not retry: use a permitted path or ask for access.",
        "Permission denied ({token}); this is not allowed, so do not retry: use a permitted resource or ask for access.",
    ),
    C.FILE_NOT_FOUND: (
        "File '{key}' does not exist ({token}); check the path, or create the file first.",
        "A file or directory does not exist ({token}); check the path, or create it first.",
    ),
    C.DISK_FULL: (
        "No space left writing '{key}' ({token}); free disk space, retrying will not help.",
        "The disk is full ({token}); free disk space, retrying will not help.",
    ),
    C.OUT_OF_MEMORY: ("", "Out of memory ({token}); process less data per call, retrying will not help."),
    C.HTTP_UNAUTHORIZED: (
        "The request to '{key}' was not authenticated ({token}); valid credentials are required, so do not repeat the same call without them.",
        "The request was not authenticated ({token}); valid credentials are required, so do not repeat the same call without them.",
    ),
    C.HTTP_FORBIDDEN: (
        "Access to '{key}' is forbidden ({token}); these credentials may not do this, so do not retry: use an allowed resource or ask for access.",
        "Access is forbidden ({token}); these credentials may not do this, so do not retry: use an allowed resource or ask for access.",
    ),
    C.HTTP_NOT_FOUND: (
        "Resource '{key}' was not found ({token}); check the id and path, or create the resource before using it.",
        "The requested resource was not found ({token}); check the id, name or path, or create it before using it.",
    ),
    C.HTTP_CLIENT_ERROR: (
        "The server rejected the request to '{key}' ({token}); fix the request (method, parameters or body) before calling again.",
        "The server rejected the request ({token}); fix the request (method, parameters or body) before calling again.",
    ),
    C.HTTP_SERVER_ERROR: (
        "The server failed on '{key}' ({token}); this is not caused by the request, so retry later with backoff.",
        "The server failed or is overloaded ({token}); this is not caused by the request, so retry later with backoff.",
    ),
    C.RATE_LIMITED: (
        "Rate limited on '{key}' ({token}); wait before calling again (honour Retry-After if given) and slow down.",
        "Rate limited ({token}); wait before calling again (honour Retry-After if given) and slow down.",
    ),
}
"""Per category decided by a signal: the hint with a key and without one."""


KEYED_FAMILIES = ("http", "network", "dns", "filesystem")
"""Families whose key a rule without a key group still gets, from the text (see :func:`complete_key`)."""


def complete_key(hint: Hint, text: str, pattern: str | None = None) -> Hint:
    """A rule's hint without a key, in a family whose key convention the text can satisfy
    (the request path, ``host:port``, the path), gets that key, named at the hint's start:
    ``Hint: [/v1/reports] The request was not authenticated …``."""
    if hint.key is not None and not hint.key.isdigit():  # a port alone is not the key
        return hint
    if hint.category not in _KEYED_CATEGORIES or hint.rule is None:
        return hint
    start = 0 if pattern is None else _match_line(pattern, text)
    raw = _find_key(hint.category, text, start)
    if raw is None:
        return hint
    cache_key = (hint.text, hint.rule, raw)
    done = _completed.get(cache_key)
    if done is None:
        done = _complete(hint, raw)
        if len(_completed) >= 1024:
            _completed.clear()
        _completed[cache_key] = done
    return done


_completed: dict[tuple[str, str | None, str], Hint] = {}
_KEYED_CATEGORIES = frozenset(c for c in Category if family_of(c) in KEYED_FAMILIES)


def _complete(hint: Hint, raw: str) -> Hint:
    """``hint`` with ``raw`` (normalised, scrubbed) as its key, named at its text's start."""
    render = _render
    key = render.normalise(raw.replace("\\\\", "\\"), split=False)
    rest = hint.text.removeprefix(render.PREFIX)
    text = valid_text(f"{render.PREFIX}[{key}] {rest}")
    if key in text and render._quiet(text):
        # one prefilter scan finds nothing in the new text: scrub returns it, and the key (a
        # part of it), as they are (see render._quiet)
        if not key or key == "/":
            return hint
        if not (
            text.isprintable()
            and "  " not in text
            and text[-1:] != " "
            and len(text) <= render.MAX_HINT_CHARS
        ):  # (else _finish has nothing to do: one line, collapsed, starts with PREFIX, fits)
            text = render._finish(text, text)
    else:
        key = scrub(key)
        if not key or key == "/":
            return hint
        text = render.finish(f"{render.PREFIX}[{key}] {rest}")
    # the hint's own kind and retry, as dataclasses.replace(hint-made-anew, kind=, retry=) gave
    return render._new_hint(text, hint.category, hint.rule, key, hint.kind, hint.retry)


def _match_line(pattern: str, text: str) -> int:
    """Where the line of a rule's match starts, found cheaply: the first of its required
    literals in the text (the engine found the match; this only places it)."""
    from hintline.cleaner._patterns import required_literals

    guard = _guards.get(pattern)
    if guard is None:
        found = required_literals(pattern)
        guard = _guards[pattern] = ((), False) if found is None else (found.literals, found.caseless)
    literals, caseless = guard
    haystack = text.casefold() if caseless else text
    if len(haystack) != len(text):  # casefolding changed lengths: positions would not map
        return 0
    positions = [at for at in (haystack.find(literal) for literal in literals) if at >= 0]
    if not positions:
        return 0
    return text.rfind("\n", 0, min(positions)) + 1


_guards: dict[str, tuple[tuple[str, ...], bool]] = {}


def _find_key(category: Category, text: str, start: int = 0) -> str | None:
    """The key of ``category``'s family in ``text``, for a failure located at ``start`` (the
    start of its line): the first key shape that matches from that line on; else, except for
    file paths, the nearest line above it that holds one (node's error dumps print the message
    before the code). A
    suggestion (a ``HINT:`` line) and a stack frame's file are never the key.

    The shapes run on RE2 (:class:`~hintline._linear.LinearPattern`: linear in the text, so the
    whole text is searched). A shape on Python's ``re`` instead (google-re2 not installed, RE2
    turned off, a shape RE2 cannot take) only sees :data:`KEY_WINDOW` characters from the
    failure's line on and as many above it: a shape's bounded quantifiers make it backtrack up
    to a few hundred steps per character (``[\\w.~-]{0,100}/…``), so the window is what bounds
    its time."""
    family = family_of(category)
    if family is None or not HINTS[category][0]:
        return None
    shapes = KEY_SHAPES[family]
    found = _first_key(shapes, text, start, len(text))
    if found is None and family in _LOOK_ABOVE:
        found = _nearest_above(shapes, text, start)
    return found


ABOVE_CHUNK = 1024
"""The lines above a failure are searched this many characters (whole lines) at a time, nearest
first: one search per shape and chunk rather than per line (64 KiB of empty lines above a
failure cost 65,000 searches per shape, 0.7 s, when each line was searched alone)."""


def _nearest_above(shapes: tuple[KeyShape, ...], text: str, start: int) -> str | None:
    """The key on the nearest line above ``start`` (a line start) that holds one: on that line,
    the first shape in order that matches there, its first acceptable match.

    No key shape of a family that looks above matches a newline (a test holds them to it), so a
    match found in a chunk of lines lies on one line, and is the match a search of that line
    alone finds."""
    end = start
    while end > 0:
        lo = text.rfind("\n", 0, max(end - ABOVE_CHUNK, 0)) + 1  # whole lines
        best_line = -1
        best: str | None = None
        for shape in shapes:
            pattern = _shape_pattern(shape.pattern)
            first = lo
            if pattern.engine != "re2":  # backtracking: only lines near the failure's
                first = max(lo, _line_at_or_after(text, start - KEY_WINDOW))
                if first >= end:
                    continue
            if not _guard_passes(shape.pattern, text[first:end]):
                continue
            for line_start, key in _keys(pattern, text, first, end, limit=MAX_CANDIDATES):
                if line_start > best_line:  # the nearest line; on it, the first shape's
                    best_line, best = line_start, key
        if best is not None:
            return best
        end = lo
    return None


def _line_at_or_after(text: str, at: int) -> int:
    """The start of the first line that starts at or after ``at``."""
    if at <= 0:
        return 0
    if text[at - 1] == "\n":
        return at
    newline = text.find("\n", at)
    return len(text) if newline < 0 else newline + 1


_LOOK_ABOVE = frozenset({"constraint", "schema", "check", "http", "network", "dns"})
"""Families whose key may be printed above the located line (node's error dumps); a file's
path is not looked for there (the lines above are frames and source)."""

KEY_WINDOW = 1024
"""Characters a key shape on Python's ``re`` looks at below the failure's line start, and
above it (see :func:`_find_key`); its worst text costs the network family (six shapes) about 2 ms."""

MAX_CANDIDATES = 1024
"""Matches of one shape looked at per search (below the failure, or in one chunk of lines
above it), after which the shape gives up: a text built of matches that are no key (a stack
frame's file, ``Net.java:672``) costs a search per match; real traces skip at most a few dozen
(42 in a 4.7 KB JVM trace, the most in the golden corpus), a 64 KiB trace of them about 500."""

_WINDOWS_PATH = re.compile(r"[A-Za-z]:\\|\\\\")
_SUGGESTION_LABELS = ("hint", "tipp", "astuce", "tip:", "did you mean")
_LABEL_WIDTH = max(len(label) for label in _SUGGESTION_LABELS)
_NOT_SPACE = re.compile(r"\S")


def _shape_guard(pattern: str) -> tuple[tuple[str, ...], bool]:
    """The literals one of which a shape's match must contain (empty: no guard), and whether
    they are casefolded: the engine's own screen, so most shapes cost a ``in`` test."""
    from hintline.cleaner._patterns import required_literals

    guard = _shape_guards.get(pattern)
    if guard is None:
        found = required_literals(pattern)
        guard = _shape_guards[pattern] = ((), False) if found is None else (found.literals, found.caseless)
    return guard


_shape_guards: dict[str, tuple[tuple[str, ...], bool]] = {}


def _guard_passes(pattern: str, window: str) -> bool:
    """Whether ``window`` holds one of the shape's guard literals (or it has none)."""
    literals, caseless = _shape_guard(pattern)
    if not literals:
        return True
    haystack = window.casefold() if caseless else window
    return any(literal in haystack for literal in literals)


def _first_key(shapes: tuple[KeyShape, ...], text: str, start: int, end: int) -> str | None:
    """The key of the first shape with an acceptable match in ``text[start:end]``."""
    # the guards look in the window only (a match lies in it, and so does its literal)
    window: str | None = None
    folded: str | None = None
    for shape in shapes:
        pattern = _shape_pattern(shape.pattern)
        stop = end
        if pattern.engine != "re2":  # backtracking: only a bounded window (see _find_key)
            stop = min(end, start + KEY_WINDOW)
        literals, caseless = _shape_guard(shape.pattern)
        if literals:
            if window is None:
                window = text[start:end]
            if caseless:
                folded = window.casefold() if folded is None else folded
                haystack = folded
            else:
                haystack = window
            if not any(literal in haystack for literal in literals):
                continue
        for _line, key in _keys(pattern, text, start, stop, limit=MAX_CANDIDATES):
            return key
    return None


def _keys(
    pattern: LinearPattern, text: str, start: int, end: int, *, limit: int | None = None
) -> Iterator[tuple[int, str]]:
    """``(line start, key)`` of each match of ``pattern`` in ``text[start:end]`` that is a key
    (not a stack frame's file, not in a suggestion, not an escape, not ``file.java:672``), in
    order; ``limit``: the matches looked at, at most."""
    seen = -1  # the last match's start
    line_start = 0
    first_word = 0  # where the text of that match's line starts
    for number, found in enumerate(pattern.finditer(text, start, end)):
        if number == limit:
            return
        at = found.start()
        if text.endswith("File ", 0, at) or text.endswith("File \"", 0, at):
            continue  # File "/srv/app.py", line 3: a stack frame's file, not the key
        # matches come left to right: each character is looked at once to place them on their
        # lines, however many matches a long line holds
        newline = text.rfind("\n", 0 if seen < 0 else seen, at)
        if newline >= 0 or seen < 0:
            line_start = newline + 1
            word = _NOT_SPACE.search(text, line_start)  # stops at the match's text at the latest
            first_word = len(text) if word is None else word.start()
        seen = at
        if first_word < at:
            label = text[first_word : min(at, first_word + _LABEL_WIDTH)].lower()
            if label.startswith(_SUGGESTION_LABELS):
                continue  # HINT: Perhaps you meant "users.email": a suggestion, not the key
        key = found.group("key") or ""
        if "\\" in key and "/" not in key and not _WINDOWS_PATH.match(key):
            continue  # "\0" in a source line is an escape, not a Windows path
        port = found.group("port") if "port" in pattern.names else None
        if port:
            if key.rpartition(".")[2].lower() in _SOURCE_FILES:
                continue  # Net.java:672 is a stack frame, not host:port
            key = f"{key}:{port}"
        yield line_start, key


_SOURCE_FILES = frozenset(
    ["java", "kt", "scala", "groovy", "py", "pyx", "js", "cjs", "mjs", "ts", "tsx", "jsx", "rs", "go", "rb", "php", "cs", "fs", "vb", "c", "cc", "cpp", "h", "hpp", "swift", "m", "ex", "exs", "erl", "clj", "lua", "pl", "sh"]
)
"""Extensions that make ``name.ext:123`` a source location rather than ``host:port``."""


_shapes: dict[tuple[str, bool], LinearPattern] = {}


def _shape_pattern(pattern: str) -> LinearPattern:
    """A key shape's linear-time pattern (one per pattern and RE2 switch, see ``set_re2``)."""
    enabled = re2_enabled()
    compiled = _shapes.get((pattern, enabled))
    if compiled is None:
        compiled = _shapes[(pattern, enabled)] = LinearPattern(pattern, use_re2=enabled)
    return compiled


# --- matching ----------------------------------------------------------------------------------

_lock = threading.Lock()
_matchers: dict[tuple[str, int], Matcher] = {}
def as_rules(signals: tuple[Signal, ...] | None = None) -> tuple[Rule, ...]:
    """The signals as rules of the matching engines (category and hint are decided later)."""
    from hintline._deferred import deferred_checks
    from hintline.rules._model import Rule

    placeholder = (Example("signal", "Hint: signal"),)
    signals = SIGNALS if signals is None else signals
    with deferred_checks():
        return tuple(
            Rule(
                code=s.code,
                name=s.name,
                category=Category.OTHER,
                pattern=s.pattern,
                hint="signal",
                why=s.why,
                examples=s.examples or placeholder,
                key_group=None,
            )
            for s in signals
        )


_bound: tuple[object, tuple[Signal, ...], Matcher] | None = None
"""(the rule table's matcher, the signal table, its matcher) of the last call: while the rule
table's matcher is the same object, the engine in force has not changed (``set_engine`` and a
new rule table replace it), so a call costs two identity checks, not an import and a read of
the environment."""


def _matcher() -> Matcher | None:
    """The compiled :data:`SIGNALS` for the engine in force (``None`` for an empty table)."""
    global _bound
    table = SIGNALS
    if not table:
        return None
    rules = _engine._default()
    bound = _bound
    if bound is not None and bound[0] is rules and bound[1] is table:
        return bound[2]
    requested = _engine._requested() or ""
    cache_key = (requested, id(table))
    matcher = _matchers.get(cache_key)
    if matcher is None:
        with _lock:
            matcher = _matchers.get(cache_key)
            if matcher is None:
                matcher = _engine.compile_rules(as_rules(table), engine=requested or None)
                _matchers.clear()
                _matchers[cache_key] = matcher
    _bound = (rules, table, matcher)
    return matcher


def _reset_after_fork() -> None:
    global _lock, _bound
    _lock = threading.Lock()
    _bound = None
    _matchers.clear()  # a background compile does not survive fork: build again in the child


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_after_fork)


def decide(text: str) -> tuple[Signal, str, str, Category, int] | None:
    """The first signal in ``text``: (signal, token group, token, category, start of the
    signal's line), or ``None``."""
    matcher = _matcher()
    found = None if matcher is None else matcher.match(text)
    if found is None:
        return None
    signal = SIGNALS[found.index]
    for group, token in found.groups.items():
        if token is not None and group in VOCABULARIES:
            category = VOCABULARIES[group](token)
            if category is not None:
                at = text.find(token)  # the token's line: where the failure is
                start = 0 if at < 0 else text.rfind("\n", 0, at) + 1
                return signal, group, token, category, start
    return None


def classify(text: str) -> Hint | None:
    """The hint a signal in ``text`` gives, or ``None`` when the text holds none.

    ``text`` is the bounded text :func:`hintline.clean` matched the rule table against. The
    hint's ``rule`` is the signal's name; its key follows the category's family convention
    (:data:`KEY_SHAPES`), scrubbed like every rule's.
    """
    decided = decide(text)
    if decided is None:
        return None
    signal, group, token, category, start = decided
    from hintline.hint import make_hint, normalise
    from hintline.scrub import scrub

    # the key is looked for from the signal's line on: an earlier notice is not the failure
    raw = _find_key(category, text, start)
    if raw is not None and "\\\\" in raw:
        raw = raw.replace("\\\\", "\\")  # a Python repr's doubled backslashes
    key = None if raw is None else normalise(raw, split=False)
    with_key, without_key = HINTS.get(category, ("", "The runtime reported {token}."))
    shown = f"{_STATUS_NAMES[token]} {token}" if group == "statusname" else token
    label = _TOKEN_LABEL[group].format(shown)
    template = with_key if key is not None and with_key else without_key
    text_out = template.format(key=key, token=label)
    return make_hint(category, text_out, signal.name, None if key is None else scrub(key))

