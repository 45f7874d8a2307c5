"""Rules: network and resource faults in any runtime — DNS, TLS, refused connections, timeouts,
memory. The most generic words live here, at the end of the table, so that every more specific
rule (a database driver's, an HTTP client's) gets the first chance. DNS comes before refused
connections because Java's HttpClient wraps a DNS failure in a ``ConnectException``.
See rules/__init__.py for global precedence.
"""

from __future__ import annotations

from hintline.categories import Category
from hintline.rules._model import Example, Rule

_HTTP = "tests/rules/fixtures/http/"
_FX = "tests/rules/fixtures/system/"
_SG = "tests/rules/fixtures/signals/"

_DNS_HOST = "Host '{key}' could not be resolved (DNS); check the host name, and retry later if name resolution is down."
_REFUSED = "Nothing is accepting connections at {host} port {key}; the service may be down or the host/port wrong, so retry later or fix the address."

RULES: tuple[Rule, ...] = (
    Rule(
        code="SY001",
        name="system.dns-host-not-found",
        category=Category.DNS_FAILURE,
        pattern=(
            r"(?:getaddrinfo (?:ENOTFOUND|EAI_AGAIN) |Could not resolve host: |dial tcp: lookup |"
            r"UnknownHostException: |Failed to resolve '|ClientConnectorDNSError: Cannot connect to host )"
            r"(?P<key>[A-Za-z0-9][A-Za-z0-9.-]*)"
        ),
        hint=_DNS_HOST,
        why="Name resolution failures that name the host: Node, curl, Go, Java, urllib3 (requests) and aiohttp.",
        examples=(
            Example(
                "TypeError: fetch failed\n  [cause]: Error: getaddrinfo ENOTFOUND api.hintline-fixture.invalid\n",
                "Hint: Host 'api.hintline-fixture.invalid' could not be resolved (DNS); check the host name, and retry later if name resolution is down.",
                "api.hintline-fixture.invalid",
                _HTTP + "fetch_dns.txt",
            ),
            Example(
                "curl: (6) Could not resolve host: api.hintline-fixture.invalid",
                "Hint: Host 'api.hintline-fixture.invalid' could not be resolved (DNS); check the host name, and retry later if name resolution is down.",
                "api.hintline-fixture.invalid",
                _HTTP + "curl_dns.txt",
            ),
            Example(
                "urllib3.exceptions.NameResolutionError: HTTPConnection(host='api.hintline-fixture.invalid', "
                "port=80): Failed to resolve 'api.hintline-fixture.invalid' ([Errno -2] Name or service not known)",
                "Hint: Host 'api.hintline-fixture.invalid' could not be resolved (DNS); check the host name, and retry later if name resolution is down.",
                "api.hintline-fixture.invalid",
                _HTTP + "requests_dns.txt",
            ),
        ),
    ),
    Rule(
        code="SY002",
        name="system.dns-failure",
        category=Category.DNS_FAILURE,
        pattern=(
            r"(?:Name or service not known|Temporary failure in name resolution|nodename nor servname provided|"
            r"No address associated with hostname|UnresolvedAddressException|no such host\b)"
        ),
        hint="A host name could not be resolved (DNS); check the host name in the URL or settings, and retry later if name resolution is down.",
        why="Resolver failures without the host in the text: httpx, urllib, Java HttpClient (UnresolvedAddressException).",
        key_group=None,
        examples=(
            Example(
                "httpcore.ConnectError: [Errno -2] Name or service not known\n",
                "Hint: A host name could not be resolved (DNS); check the host name in the URL or settings, and retry later if name resolution is down.",
                None,
                _HTTP + "httpx_dns.txt",
            ),
            Example(
                "Exception in thread \"main\" java.net.ConnectException\nCaused by: java.net.ConnectException\n"
                "Caused by: java.nio.channels.UnresolvedAddressException\n",
                "Hint: A host name could not be resolved (DNS); check the host name in the URL or settings, and retry later if name resolution is down.",
                None,
                _HTTP + "java_httpclient_dns.txt",
            ),
        ),
    ),
    Rule(
        code="SY012",
        name="system.tls-wrong-version",
        category=Category.TLS_ERROR,
        pattern=r"(?i:wrong version number|WRONG_VERSION_NUMBER|ERR_SSL_WRONG_VERSION_NUMBER)",
        hint="The server did not answer with TLS (wrong version number): it speaks plain HTTP on that port; use http:// or the server's TLS port.",
        why="OpenSSL's wrong version number: a TLS client hello answered by a plain-text server.",
        key_group=None,
        examples=(
            Example(
                "requests.exceptions.SSLError: HTTPSConnectionPool(host='127.0.0.1', port=45037): Max retries exceeded with url: /v1/health (Caused by SSLError(SSLError(1, '[SSL: WRONG_VERSION_NUMBER] wrong version number (_ssl.c:1006)')))",
                "Hint: [127.0.0.1:45037] The server did not answer with TLS (wrong version number): it speaks plain HTTP on that port; use http:// or the server's TLS port.",
                "127.0.0.1:45037",
                _SG + "py-tls-wrong-version.txt",
            ),
        ),
    ),
    Rule(
        code="SY013",
        name="system.tls-self-signed",
        category=Category.TLS_ERROR,
        pattern=r"(?:self[- ]signed certificate|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)",
        hint="The server's TLS certificate is self-signed (not from a trusted CA); trust that certificate or its CA explicitly, retrying will not help.",
        why="A self-signed certificate (OpenSSL, Node's DEPTH_ZERO_SELF_SIGNED_CERT): say which failure, not every possible one.",
        key_group=None,
        examples=(
            Example(
                "ssl.SSLCertVerificationError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: "
                "self-signed certificate (_ssl.c:1006)",
                "Hint: The server's TLS certificate is self-signed (not from a trusted CA); trust that certificate or its CA explicitly, retrying will not help.",
                None,
                _HTTP + "requests_tls.txt",
            ),
        ),
    ),
    Rule(
        code="SY014",
        name="system.tls-expired",
        category=Category.TLS_ERROR,
        pattern=r"(?:certificate has expired|CERT_HAS_EXPIRED|certificate expired)",
        hint="The server's TLS certificate has expired; it must be renewed on the server, retrying will not help.",
        why="An expired certificate (OpenSSL, Node CERT_HAS_EXPIRED, Go x509).",
        key_group=None,
        examples=(
            Example(
                "Error: certificate has expired\n  code: 'CERT_HAS_EXPIRED'",
                "Hint: The server's TLS certificate has expired; it must be renewed on the server, retrying will not help.",
                None,
                "https://nodejs.org/api/errors.html (X509_V_ERR codes: CERT_HAS_EXPIRED, message 'certificate has expired')",
            ),
        ),
    ),
    Rule(
        code="SY015",
        name="system.tls-hostname-mismatch",
        category=Category.TLS_ERROR,
        pattern=(
            r"(?:Hostname mismatch|ERR_TLS_CERT_ALTNAME_INVALID|certificate is not valid for|"
            r"x509: certificate is valid for|doesn't match (?:any of the )?(?:subject alternative|common name)|No subject alternative (?:DNS )?names? matching)"
        ),
        hint="The server's TLS certificate is for a different host name; call the host name the certificate names (or fix the certificate), retrying will not help.",
        why="A certificate valid but for another name (OpenSSL Hostname mismatch, Node ERR_TLS_CERT_ALTNAME_INVALID, Go x509, Java).",
        key_group=None,
        examples=(
            Example(
                "ssl.SSLCertVerificationError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: Hostname mismatch, certificate is not valid for 'localhost'. (_ssl.c:1006)",
                "Hint: The server's TLS certificate is for a different host name; call the host name the certificate names (or fix the certificate), retrying will not help.",
                None,
                "https://github.com/openssl/openssl/blob/master/crypto/x509/x509_txt.c (X509_V_ERR_HOSTNAME_MISMATCH: Hostname mismatch), CPython _ssl.c verify message",
            ),
        ),
    ),
    Rule(
        code="SY003",
        name="system.tls-certificate",
        category=Category.TLS_ERROR,
        pattern=(
            r"(?:CERTIFICATE_VERIFY_FAILED|certificate verify failed|SSL certificate problem|PKIX path building failed|"
            r"x509: |self[- ]signed certificate|unable to verify the first certificate|certificate has expired|"
            r"DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|CERT_HAS_EXPIRED|"
            r"ERR_TLS_CERT_ALTNAME_INVALID|SSLHandshakeException|SSLCertVerificationError)"
        ),
        hint="The TLS certificate is not issued by a CA this client trusts (unknown authority); fix the server's certificate chain or the client's trusted CA bundle, retrying will not help.",
        why="Certificate chain verification failures (unknown authority) from OpenSSL (Python, curl), Node, Java (PKIX) and Go (x509); self-signed, expired and host-name failures have their own rules above.",
        key_group=None,
        examples=(
            Example(
                "error: Get \"https://127.0.0.1:36473/v1/health\": x509: certificate signed by unknown authority",
                "Hint: [127.0.0.1:36473] The TLS certificate is not issued by a CA this client trusts (unknown authority); fix the server's certificate chain or the client's trusted CA bundle, retrying will not help.",
                "127.0.0.1:36473",
                _HTTP + "go_tls.txt",
            ),
            Example(
                "javax.net.ssl.SSLHandshakeException: PKIX path building failed: "
                "sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path",
                "Hint: The TLS certificate is not issued by a CA this client trusts (unknown authority); fix the server's certificate chain or the client's trusted CA bundle, retrying will not help.",
                None,
                _HTTP + "java_httpclient_tls.txt",
            ),
        ),
    ),
    Rule(
        code="SY004",
        name="system.econnrefused",
        category=Category.CONNECTION_REFUSED,
        pattern=r"connect ECONNREFUSED (?P<host>[\w.:\[\]-]+?):(?P<key>\d{1,5})\b",
        hint=_REFUSED,
        why="Node's net errors (fetch's cause, axios, drivers) print 'connect ECONNREFUSED host:port'.",
        examples=(
            Example(
                "TypeError: fetch failed\n  [cause]: Error: connect ECONNREFUSED 127.0.0.1:47\n    errno: -111,",
                "Hint: [127.0.0.1:47] Nothing is accepting connections at 127.0.0.1 port 47; the service may be down or the host/port wrong, so retry later or fix the address.",
                "127.0.0.1:47",
                _HTTP + "fetch_refused.txt",
            ),
        ),
    ),
    Rule(
        code="SY005",
        name="system.dial-refused",
        category=Category.CONNECTION_REFUSED,
        pattern=(
            r"(?:dial tcp|Cannot connect to host) (?P<host>[\w.\[\]:-]+?):(?P<key>\d{1,5})\b"
            r"[^\n]*?(?:connection refused|Connect call failed)"
        ),
        hint=_REFUSED,
        why="Go's net.OpError ('dial tcp host:port: connect: connection refused') and aiohttp's ClientConnectorError.",
        examples=(
            Example(
                "error: dial tcp 127.0.0.1:47: connect: connection refused\n",
                "Hint: [127.0.0.1:47] Nothing is accepting connections at 127.0.0.1 port 47; the service may be down or the host/port wrong, so retry later or fix the address.",
                "127.0.0.1:47",
                _FX + "go_dial_refused.txt",
            ),
            Example(
                "aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host 127.0.0.1:47 ssl:default "
                "[Connect call failed ('127.0.0.1', 47)]",
                "Hint: [127.0.0.1:47] Nothing is accepting connections at 127.0.0.1 port 47; the service may be down or the host/port wrong, so retry later or fix the address.",
                "127.0.0.1:47",
                _HTTP + "aiohttp_refused.txt",
            ),
        ),
    ),
    Rule(
        code="SY006",
        name="system.curl-connect-failed",
        category=Category.CONNECTION_REFUSED,
        pattern=r"curl: \(7\) Failed to connect to (?P<host>[\w.:\[\]-]+) port (?P<key>\d{1,5})",
        hint=_REFUSED,
        why="curl exit 7: the TCP connection could not be made (curl 7.88 prints 'Couldn't connect to server').",
        examples=(
            Example(
                "curl: (7) Failed to connect to 127.0.0.1 port 47 after 0 ms: Couldn't connect to server",
                "Hint: [127.0.0.1:47] Nothing is accepting connections at 127.0.0.1 port 47; the service may be down or the host/port wrong, so retry later or fix the address.",
                "127.0.0.1:47",
                _HTTP + "curl_refused.txt",
            ),
        ),
    ),
    Rule(
        code="SY007",
        name="system.urllib3-refused",
        category=Category.CONNECTION_REFUSED,
        pattern=(
            r"\(host='(?P<host>[^'\n]+)', port=(?P<key>\d{1,5})\): Failed to establish a new connection: "
            r"\[Errno \d+\] Connection refused"
        ),
        hint=_REFUSED,
        why="urllib3 (under requests) wraps ECONNREFUSED in NewConnectionError with the host and port.",
        examples=(
            Example(
                "urllib3.exceptions.NewConnectionError: HTTPConnection(host='127.0.0.1', port=47): Failed to "
                "establish a new connection: [Errno 111] Connection refused",
                "Hint: [127.0.0.1:47] Nothing is accepting connections at 127.0.0.1 port 47; the service may be down or the host/port wrong, so retry later or fix the address.",
                "127.0.0.1:47",
                _HTTP + "requests_refused.txt",
            ),
        ),
    ),
    Rule(
        code="SY008",
        name="system.connection-refused",
        category=Category.CONNECTION_REFUSED,
        pattern=r"(?:Connection refused|connection refused|ECONNREFUSED|kind: ConnectionRefused|java\.net\.ConnectException\b)",
        hint="The connection was refused: nothing is listening at the address; the service may be down or the host/port wrong, so retry later or fix the address.",
        why="ECONNREFUSED without host and port in the text: httpx, urllib, Java, Rust io::Error.",
        key_group=None,
        examples=(
            Example(
                "httpx.ConnectError: [Errno 111] Connection refused",
                "Hint: The connection was refused: nothing is listening at the address; the service may be down or the host/port wrong, so retry later or fix the address.",
                None,
                _HTTP + "httpx_refused.txt",
            ),
            Example(
                "Exception in thread \"main\" java.net.ConnectException\nCaused by: java.net.ConnectException\n"
                "Caused by: java.nio.channels.ClosedChannelException\n",
                "Hint: The connection was refused: nothing is listening at the address; the service may be down or the host/port wrong, so retry later or fix the address.",
                None,
                _HTTP + "java_httpclient_refused.txt",
            ),
        ),
    ),
    Rule(
        code="SY011",
        name="system.connection-reset",
        category=Category.CONNECTION_REFUSED,
        pattern=r"(?:[Cc]onnection reset by peer|ECONNRESET\b|ConnectionResetError)",
        hint="The connection was reset by the remote side before a response arrived; retry with backoff, and check the service's health if it keeps happening.",
        why="A TCP RST mid-request (a crashed or overloaded server, a proxy, an idle-timeout): Python, curl (56), Node, Go.",
        key_group=None,
        examples=(
            Example(
                "requests.exceptions.ConnectionError: ('Connection aborted.', ConnectionResetError(104, "
                "'Connection reset by peer'))",
                "Hint: The connection was reset by the remote side before a response arrived; retry with backoff, and check the service's health if it keeps happening.",
                None,
                _HTTP + "requests_reset.txt",
            ),
            Example(
                "TypeError: fetch failed\n  [cause]: Error: read ECONNRESET\n    errno: -104,\n    code: 'ECONNRESET',",
                "Hint: The connection was reset by the remote side before a response arrived; retry with backoff, and check the service's health if it keeps happening.",
                None,
                _HTTP + "fetch_reset.txt",
            ),
            Example(
                "curl: (56) Recv failure: Connection reset by peer",
                "Hint: The connection was reset by the remote side before a response arrived; retry with backoff, and check the service's health if it keeps happening.",
                None,
                _HTTP + "curl_reset.txt",
            ),
        ),
        near_misses=("connection reset requested by the operator",),
    ),
    Rule(
        code="SY009",
        name="system.timeout",
        category=Category.TIMEOUT,
        pattern=(
            r"(?:TimeoutError|[Tt]imed out|i/o timeout|deadline exceeded|ETIMEDOUT|SocketTimeoutException|"
            r"TimeoutException|ESOCKETTIMEDOUT|Operation timed out)"
        ),
        hint="The operation timed out; retry later with backoff, or ask for less per call (a smaller page or a narrower query).",
        why="Generic timeouts: Python TimeoutError, Go 'i/o timeout' and 'context deadline exceeded', Java SocketTimeoutException, ETIMEDOUT.",
        key_group=None,
        examples=(
            Example(
                "error: read tcp 127.0.0.1:59162->127.0.0.1:37849: i/o timeout\n",
                "Hint: [127.0.0.1:59162] The operation timed out; retry later with backoff, or ask for less per call (a smaller page or a narrower query).",
                "127.0.0.1:59162",
                _FX + "go_read_deadline.txt",
            ),
            Example(
                "error: Get \"http://127.0.0.1:37849/v1/slow\": context deadline exceeded\n",
                "Hint: [127.0.0.1:37849] The operation timed out; retry later with backoff, or ask for less per call (a smaller page or a narrower query).",
                "127.0.0.1:37849",
                _HTTP + "go_context_deadline.txt",
            ),
            Example(
                "Exception in thread \"main\" java.net.SocketTimeoutException: Read timed out",
                "Hint: The operation timed out; retry later with backoff, or ask for less per call (a smaller page or a narrower query).",
                None,
                _HTTP + "java_urlconnection_timeout.txt",
            ),
        ),
    ),
    Rule(
        code="SY010",
        name="system.out-of-memory",
        category=Category.OUT_OF_MEMORY,
        pattern=r"(?m)^(?:builtins\.)?MemoryError\b|Cannot allocate memory|std::bad_alloc|Out of memory: Killed process",
        hint="The process ran out of memory; process the data in smaller pieces (stream or paginate) or raise the memory limit.",
        why="Python MemoryError, ENOMEM ('Cannot allocate memory'), C++ std::bad_alloc, the kernel OOM killer.",
        key_group=None,
        examples=(
            Example(
                "    blocks = [bytearray(64 * 1024 * 1024) for _ in range(64)]\n              ^^^^^^^^^^^^^^^^^^^^^^^^\nMemoryError\n",
                "Hint: The process ran out of memory; process the data in smaller pieces (stream or paginate) or raise the memory limit.",
                None,
                _FX + "py_memory_error.txt",
            ),
        ),
    ),
)
