"""Rules: HTTP status failures and client timeouts, as the common clients print them.

One prefix covers the status wording of requests (``HTTPError: 404 Client Error``), httpx
(``Client error '404 Not Found'``), aiohttp (``ClientResponseError: 404,``), urllib
(``HTTP Error 404:``), curl ``--fail`` (``returned error: 404``), axios (``status code 404``),
Java's HttpURLConnection (``HTTP response code: 404``) and raw status lines (``HTTP/1.1 404``).
Network-level failures (refused, DNS, TLS, generic timeouts) are in the system family.
See rules/__init__.py for global precedence.
"""

from __future__ import annotations

from hintline.categories import Category
from hintline.rules._model import Example, Rule

_FX = "tests/rules/fixtures/http/"
_STATUS = (
    r"(?:HTTPError: |HTTP Error |ClientResponseError: |returned error: |status code |"
    r"HTTP response code: |Client error '|Server error '|HTTP/[12](?:\.[01])? )"
)

RULES: tuple[Rule, ...] = (
    Rule(
        code="HT001",
        name="http.unauthorized",
        category=Category.HTTP_UNAUTHORIZED,
        pattern=_STATUS + r"401\b",
        hint="The request was not authenticated (HTTP 401); valid credentials are required, so do not repeat the same call without them.",
        why="HTTP 401 from any client: missing, expired or wrong credentials; a policy matter, not the payload.",
        key_group=None,
        examples=(
            Example(
                "requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: http://127.0.0.1:37849/v1/reports",
                "Hint: [/v1/reports] The request was not authenticated (HTTP 401); valid credentials are required, so do not repeat the same call without them.",
                "/v1/reports",
                _FX + "requests_401.txt",
            ),
            Example(
                "curl: (22) The requested URL returned error: 401",
                "Hint: The request was not authenticated (HTTP 401); valid credentials are required, so do not repeat the same call without them.",
                None,
                _FX + "curl_401.txt",
            ),
        ),
        near_misses=("Order 401 shipped", "HTTP Error 4010: custom"),
    ),
    Rule(
        code="HT002",
        name="http.forbidden",
        category=Category.HTTP_FORBIDDEN,
        pattern=_STATUS + r"403\b",
        hint="Access is forbidden (HTTP 403); these credentials may not do this, so do not retry: use an allowed resource or ask for access.",
        why="HTTP 403 from any client: authenticated but not permitted; retrying cannot help.",
        key_group=None,
        examples=(
            Example(
                "httpx.HTTPStatusError: Client error '403 Forbidden' for url 'http://127.0.0.1:37849/v1/admin/users'",
                "Hint: [/v1/admin/users] Access is forbidden (HTTP 403); these credentials may not do this, so do not retry: use an allowed resource or ask for access.",
                "/v1/admin/users",
                _FX + "httpx_403.txt",
            ),
        ),
    ),
    Rule(
        code="HT003",
        name="http.not-found-url",
        category=Category.HTTP_NOT_FOUND,
        pattern=(
            r"(?:404 Client Error: [^\n]*? for url: |'404 Not Found' for url '|"
            r"ClientResponseError: 404, message='[^'\n]*', url='|java\.io\.FileNotFoundException: )"
            r"https?://[^/\s'\"]+(?P<key>/[^\s?#'\"]*)"
        ),
        hint="Resource '{key}' was not found (HTTP 404); check the id and path, or create the resource before using it.",
        why="HTTP 404 where the client prints the URL (requests, httpx, aiohttp, Java HttpURLConnection's FileNotFoundException); only the path is echoed, never the query.",
        examples=(
            Example(
                "requests.exceptions.HTTPError: 404 Client Error: Not Found for url: http://127.0.0.1:37849/v1/customers/42",
                "Hint: Resource '/v1/customers/42' was not found (HTTP 404); check the id and path, or create the resource before using it.",
                "/v1/customers/42",
                _FX + "requests_404.txt",
            ),
            Example(
                "Exception in thread \"main\" java.io.FileNotFoundException: http://127.0.0.1:37849/v1/customers/42\n"
                "\tat java.base/sun.net.www.protocol.http.HttpURLConnection.getInputStream0(HttpURLConnection.java:2000)",
                "Hint: Resource '/v1/customers/42' was not found (HTTP 404); check the id and path, or create the resource before using it.",
                "/v1/customers/42",
                _FX + "java_urlconnection_404.txt",
            ),
        ),
    ),
    Rule(
        code="HT004",
        name="http.not-found",
        category=Category.HTTP_NOT_FOUND,
        pattern=_STATUS + r"404\b",
        hint="The requested resource was not found (HTTP 404); check the id and path, or create the resource before using it.",
        why="HTTP 404 from clients that do not print the URL (urllib, curl, axios).",
        key_group=None,
        examples=(
            Example(
                "urllib.error.HTTPError: HTTP Error 404: Not Found",
                "Hint: The requested resource was not found (HTTP 404); check the id and path, or create the resource before using it.",
                None,
                _FX + "urllib_404.txt",
            ),
            Example(
                "AxiosError: Request failed with status code 404\n  isAxiosError: true,\n  code: 'ERR_BAD_REQUEST',",
                "Hint: The requested resource was not found (HTTP 404); check the id and path, or create the resource before using it.",
                None,
                _FX + "axios_404.txt",
            ),
        ),
    ),
    Rule(
        code="HT005",
        name="http.rate-limited-retry-after",
        category=Category.RATE_LIMITED,
        pattern=r"(?s)" + _STATUS + r"429\b.*?(?i:retry-after): ?(?P<wait>\d{1,6})\b",
        hint="Rate limited (HTTP 429); wait {wait} seconds (Retry-After) before calling again, and slow down.",
        why="HTTP 429 with its Retry-After header in the text (curl -i, raw responses, logged headers); the wait is in the hint, the key is the request path (none in a bare header dump).",
        key_group=None,
        examples=(
            Example(
                "HTTP/1.0 429 Too Many Requests\r\nServer: fixture-api/1.0 Python/3.11.7\r\nRetry-After: 7\r\n"
                "Content-Type: application/json\r\n\r\ncurl: (22) The requested URL returned error: 429",
                "Hint: Rate limited (HTTP 429); wait 7 seconds (Retry-After) before calling again, and slow down.",
                None,
                _FX + "curl_429_headers.txt",
            ),
        ),
    ),
    Rule(
        code="HT006",
        name="http.rate-limited",
        category=Category.RATE_LIMITED,
        pattern=_STATUS + r"429\b",
        hint="Rate limited (HTTP 429); wait before calling again (honour Retry-After if the response has it) and slow down.",
        why="HTTP 429 from any client; the wait time is not in the exception text.",
        key_group=None,
        examples=(
            Example(
                "aiohttp.client_exceptions.ClientResponseError: 429, message='Too Many Requests', url='http://127.0.0.1:37849/v1/search'",
                "Hint: [/v1/search] Rate limited (HTTP 429); wait before calling again (honour Retry-After if the response has it) and slow down.",
                "/v1/search",
                _FX + "aiohttp_429.txt",
            ),
        ),
    ),
    Rule(
        code="HT007",
        name="http.conflict",
        category=Category.HTTP_CLIENT_ERROR,
        pattern=_STATUS + r"409\b",
        hint="The request conflicts with the current state of the resource (HTTP 409); fetch the current state (it may already exist or have changed) and adjust the call.",
        why="HTTP 409: a duplicate create or a stale update; the fix is in the request, not a retry.",
        key_group=None,
        examples=(
            Example(
                "java.io.IOException: Server returned HTTP response code: 409 for URL: http://127.0.0.1:37849/v1/orders/7",
                "Hint: [/v1/orders/7] The request conflicts with the current state of the resource (HTTP 409); fetch the current state (it may already exist or have changed) and adjust the call.",
                "/v1/orders/7",
                _FX + "java_urlconnection_409.txt",
            ),
        ),
    ),
    Rule(
        code="HT008",
        name="http.unprocessable",
        category=Category.HTTP_CLIENT_ERROR,
        pattern=_STATUS + r"422\b",
        hint="The server rejected the request body as invalid (HTTP 422); check required fields, types and allowed values against the API schema.",
        why="HTTP 422: the payload parsed but failed validation.",
        key_group=None,
        examples=(
            Example(
                "requests.exceptions.HTTPError: 422 Client Error: Unprocessable Entity for url: http://127.0.0.1:37849/v1/orders",
                "Hint: [/v1/orders] The server rejected the request body as invalid (HTTP 422); check required fields, types and allowed values against the API schema.",
                "/v1/orders",
                _FX + "requests_422.txt",
            ),
        ),
    ),
    Rule(
        code="HT009",
        name="http.client-error",
        category=Category.HTTP_CLIENT_ERROR,
        pattern=_STATUS + r"(?P<status>4\d\d)\b",
        hint="The server rejected the request (HTTP {status}); fix the request (method, parameters or body) before calling again.",
        why="Any other HTTP 4xx: the request itself is wrong.",
        key_group=None,
        examples=(
            Example(
                "curl: (22) The requested URL returned error: 405",
                "Hint: The server rejected the request (HTTP 405); fix the request (method, parameters or body) before calling again.",
                None,
                _FX + "curl_405.txt",
            ),
        ),
    ),
    Rule(
        code="HT010",
        name="http.server-error",
        category=Category.HTTP_SERVER_ERROR,
        pattern=_STATUS + r"(?P<status>5\d\d)\b",
        hint="The server failed (HTTP {status}); this is not caused by the request, so retry later with backoff.",
        why="HTTP 5xx from any client: a server-side fault, usually transient.",
        key_group=None,
        examples=(
            Example(
                "requests.exceptions.HTTPError: 500 Server Error: Internal Server Error for url: http://127.0.0.1:37849/v1/invoices",
                "Hint: [/v1/invoices] The server failed (HTTP 500); this is not caused by the request, so retry later with backoff.",
                "/v1/invoices",
                _FX + "requests_500.txt",
            ),
            Example(
                "httpx.HTTPStatusError: Server error '503 Service Unavailable' for url 'http://127.0.0.1:37849/v1/health'",
                "Hint: [/v1/health] The server failed (HTTP 503); this is not caused by the request, so retry later with backoff.",
                "/v1/health",
                _FX + "httpx_503.txt",
            ),
        ),
    ),
    Rule(
        code="HT011",
        name="http.client-timeout",
        category=Category.TIMEOUT,
        pattern=(
            r"(?:requests\.exceptions\.(?:ReadTimeout|ConnectTimeout)|httpx\.(?:ReadTimeout|ConnectTimeout|"
            r"WriteTimeout|PoolTimeout)|java\.net\.http\.Http(?:Connect)?TimeoutException|curl: \(28\)|"
            r"AxiosError: timeout of \d+ms exceeded|Client\.Timeout exceeded|aborted due to timeout|"
            r"aiohttp\.\w*\.?(?:ServerTimeoutError|ConnectionTimeoutError|SocketTimeoutError))"
        ),
        hint="The HTTP request timed out; retry later with backoff, or ask for less per call (a smaller page or a narrower query).",
        why="Client-side HTTP timeouts (requests, httpx, Java HttpClient, curl, axios, fetch, Go net/http).",
        key_group=None,
        examples=(
            Example(
                "requests.exceptions.ReadTimeout: HTTPConnectionPool(host='127.0.0.1', port=37849): Read timed out. (read timeout=1.0)",
                "Hint: [127.0.0.1:37849] The HTTP request timed out; retry later with backoff, or ask for less per call (a smaller page or a narrower query).",
                "127.0.0.1:37849",
                _FX + "requests_timeout.txt",
            ),
            Example(
                "DOMException [TimeoutError]: The operation was aborted due to timeout",
                "Hint: The HTTP request timed out; retry later with backoff, or ask for less per call (a smaller page or a narrower query).",
                None,
                _FX + "fetch_timeout.txt",
            ),
        ),
    ),
    Rule(
        code="HT012",
        name="http.credentials-required",
        category=Category.HTTP_UNAUTHORIZED,
        pattern=(
            r"(?:You must be logged in to the server|fatal: Authentication failed for '|"
            r"could not read (?:Username|Password) for '[^'\n]*': terminal prompts disabled)"
        ),
        hint="The request was not authenticated (HTTP 401); valid credentials are required, so do not repeat the same call without them.",
        why="Clients that print their own words for an HTTP 401 instead of the status: kubectl (You must be logged in to the server), git over HTTP (Authentication failed for, or no terminal to ask for a user name).",
        key_group=None,
        examples=(
            Example(
                "error: You must be logged in to the server (the server has asked for the client to provide credentials)",
                "Hint: The request was not authenticated (HTTP 401); valid credentials are required, so do not repeat the same call without them.",
                None,
                "tests/rules/fixtures/signals/http401-kubectl.txt",
            ),
            Example(
                "Cloning into '/tmp/hintline-401-a71f4_57/clone2'...\nfatal: Authentication failed for 'http://127.0.0.1:42633/acme/reports.git/'",
                "Hint: The request was not authenticated (HTTP 401); valid credentials are required, so do not repeat the same call without them.",
                None,
                "tests/rules/fixtures/signals/http401-git-credentials.txt",
            ),
            Example(
                "Cloning into '/tmp/hintline-401-a71f4_57/clone'...\nfatal: could not read Username for 'http://127.0.0.1:42633': terminal prompts disabled",
                "Hint: The request was not authenticated (HTTP 401); valid credentials are required, so do not repeat the same call without them.",
                None,
                "tests/rules/fixtures/signals/http401-git.txt",
            ),
        ),
        near_misses=("You must be logged in to comment", "Authentication failed for user \"app\""),
    ),
)
