"""Capture the evaluation corpus: tests/corpus/cases/<case>.txt, from clients and runtimes the rule
fixtures did NOT come from, captured after the rules and signals were written.

The corpus measures how hintline does on errors it was not written from; it is never a source of
rule examples (tests/rules/ does not read it). Each case states *before it runs* what failure it
provokes: the category and the key a demanding user expects (the request path for HTTP,
``host:port`` for connections, the path for files, every column of a key, the identifier for
schema errors). That expectation lives in ``tests/corpus/cases/<case>.expected.json`` and comes
from the case definition below, never from hintline's output; ``<case>.meta.json`` records the
command and the tool's version.

Clients and runtimes here, none of which produced a rule fixture: node ``got`` and
``node-fetch`` (npm), GNU wget, PHP's stream wrappers, the sqlite3 shell, GNU coreutils and bash
(English and German messages), node ``pg`` against PostgreSQL with ``lc_messages`` German and
French, and perl.

Run from the repository root (node packages in --node-dir: ``npm install got node-fetch pg``)::

    PYTHONPATH=$PWD/src:$PWD .venv/bin/python scripts/corpus/gen_corpus.py --node-dir DIR

``tests/corpus/holdout/`` is a second slice defined and captured after the key search had been
tuned on the first (``gen_holdout``), so it measures that tuning blind.

``scripts/corpus/evaluate.py`` computes the figures.
"""

from __future__ import annotations

import argparse
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT)]

from tests.rules.db_cases import case_spec  # noqa: E402
from tests.services.postgres import free_port, start_postgres  # noqa: E402

OUT = ROOT / "tests" / "corpus" / "cases"
GENERATOR = "scripts/corpus/gen_corpus.py"

_REASONS = {401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 409: "Conflict",
            422: "Unprocessable Entity", 429: "Too Many Requests", 500: "Internal Server Error",
            502: "Bad Gateway", 503: "Service Unavailable"}  # fmt: skip
_CATEGORY = {401: "http_unauthorized", 403: "http_forbidden", 404: "http_not_found",
             409: "http_client_error", 422: "http_client_error", 429: "rate_limited",
             500: "http_server_error", 502: "http_server_error", 503: "http_server_error"}  # fmt: skip
_NGINX = (
    "<html>\r\n<head><title>{code} {reason}</title></head>\r\n<body>\r\n<center><h1>{code} {reason}"
    "</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n"
)  # the page nginx's ngx_http_special_response.c writes


class _Status(http.server.BaseHTTPRequestHandler):
    """``?status=N``: answer N (``&html=1``: with nginx's error page)."""

    protocol_version = "HTTP/1.1"

    def _answer(self) -> None:
        query = dict(p.split("=", 1) for p in self.path.partition("?")[2].split("&") if "=" in p)
        code = int(query.get("status", "500"))
        body = (
            _NGINX.format(code=code, reason=_REASONS[code]).encode()
            if "html" in query
            else json.dumps({"error": _REASONS[code]}).encode()
        )
        self.send_response(code)
        self.send_header("Content-Type", "text/html" if "html" in query else "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer  # noqa: N815 (http.server names its handlers so)

    def log_message(self, format: str, *args: object) -> None:
        pass


def run(cmd: list[str], *, env: dict[str, str] | None = None, cwd: str | None = None,
        stdin: str | None = None) -> str:  # fmt: skip
    """Everything the failing program printed (stdout then stderr)."""
    proc = subprocess.run(
        cmd, capture_output=True, text=True, env=env, cwd=cwd, input=stdin, timeout=60, check=False
    )
    return (proc.stdout + proc.stderr).strip("\n") + "\n"


def write(name: str, text: str, expected: dict[str, str | None], command: str, version: str) -> None:
    """One case, its expectation (from the case definition) and its provenance."""
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{name}.txt").write_text(text, encoding="utf-8")
    (OUT / f"{name}.expected.json").write_text(json.dumps(expected, indent=2) + "\n")
    meta = {"generator": GENERATOR, "command": command, "version": version}
    (OUT / f"{name}.meta.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")


def version_of(cmd: list[str]) -> str:
    return run(cmd).splitlines()[0].strip()


_GOT = r"""
const got = require('got').default ?? require('got');
got.post(process.argv[2], {json: {}, retry: {limit: 0}}).then(() => process.exit(3));
"""
_FETCH = r"""
import fetch from 'node-fetch';
const res = await fetch(process.argv[2], {method: 'POST', body: '{}'});
if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`);
"""
_PHP = "echo file_get_contents($argv[1]);"


def gen_http(node_dir: Path, work: Path) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Status)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    (work / "got.cjs").write_text(_GOT)
    (work / "fetch.mjs").write_text(_FETCH)
    node = version_of(["node", "--version"])
    pkg = {p: json.loads((node_dir / "node_modules" / p / "package.json").read_text())["version"]
           for p in ("got", "node-fetch")}  # fmt: skip
    env = {**os.environ, "NODE_PATH": str(node_dir / "node_modules")}
    paths = {401: "/v1/reports", 403: "/v1/admin/users", 404: "/v1/customers/42", 409: "/v1/orders/7",
             422: "/v1/orders", 429: "/v1/search", 500: "/v1/invoices", 502: "/v1/health", 503: "/v1/health"}  # fmt: skip
    try:
        for code, path in paths.items():
            url = f"{base}{path}?status={code}&token=abc"
            expected = {"category": _CATEGORY[code], "key": path}
            shutil.copy(work / "got.cjs", node_dir / "got_case.cjs")
            write(f"got-{code}", run(["node", str(node_dir / "got_case.cjs"), url], env=env), expected,
                  f"node got_case.cjs {url}", f"got {pkg['got']} (node {node})")  # fmt: skip
            shutil.copy(work / "fetch.mjs", node_dir / "fetch_case.mjs")
            write(f"node-fetch-{code}", run(["node", str(node_dir / "fetch_case.mjs"), url], env=env), expected,
                  f"node fetch_case.mjs {url}", f"node-fetch {pkg['node-fetch']} (node {node})")  # fmt: skip
            write(f"wget-{code}", run(["wget", "-O", "/dev/null", url]), expected,
                  f"wget -O /dev/null {url}", version_of(["wget", "--version"]))  # fmt: skip
            write(f"php-{code}", run(["php", "-r", _PHP, url]), expected,
                  f"php -r '{_PHP}' {url}", version_of(["php", "-v"]))  # fmt: skip
        for code in (404, 502, 503):
            url = f"{base}/v1/health?status={code}&html=1"
            text = run(["wget", "-q", "-O", "-", "--content-on-error", url])
            write(f"nginx-page-{code}", text, {"category": _CATEGORY[code], "key": None},
                  f"wget -q -O - --content-on-error {url}  (loopback server answering with nginx's error page)",
                  version_of(["wget", "--version"]))  # fmt: skip
        closed = free_port()
        url = f"http://127.0.0.1:{closed}/v1/health"
        refused = {"category": "connection_refused", "key": f"127.0.0.1:{closed}"}
        write("node-fetch-refused", run(["node", str(node_dir / "fetch_case.mjs"), url], env=env), refused,
              f"node fetch_case.mjs {url}", f"node-fetch {pkg['node-fetch']} (node {node})")  # fmt: skip
        write("got-refused", run(["node", str(node_dir / "got_case.cjs"), url], env=env), refused,
              f"node got_case.cjs {url}", f"got {pkg['got']} (node {node})")  # fmt: skip
        write("wget-refused", run(["wget", "-O", "/dev/null", url]), refused,
              f"wget -O /dev/null {url}", version_of(["wget", "--version"]))  # fmt: skip
        write("php-refused", run(["php", "-r", _PHP, url]), refused,
              f"php -r '{_PHP}' {url}", version_of(["php", "-v"]))  # fmt: skip
        dns = {"category": "dns_failure", "key": "no-such-host.invalid"}
        url = "http://no-such-host.invalid/v1/health"
        write("got-dns", run(["node", str(node_dir / "got_case.cjs"), url], env=env), dns,
              f"node got_case.cjs {url}", f"got {pkg['got']} (node {node})")  # fmt: skip
        write("php-dns", run(["php", "-r", _PHP, url]), dns, f"php -r '{_PHP}' {url}", version_of(["php", "-v"]))
    finally:
        server.shutdown()
        for f in ("got_case.cjs", "fetch_case.mjs"):
            (node_dir / f).unlink(missing_ok=True)


_SHELL = {
    # name: (argv, expected category, expected key)
    "cp-missing": (["cp", "/srv/data/report.csv", "/tmp/"], "file_not_found", "/srv/data/report.csv"),
    "ls-missing": (["ls", "/srv/data/archive"], "file_not_found", "/srv/data/archive"),
    "cat-missing": (["cat", "/srv/data/notes.txt"], "file_not_found", "/srv/data/notes.txt"),
    "dd-full": (["dd", "if=/dev/zero", "of=/dev/full", "bs=1k", "count=1"], "disk_full", "/dev/full"),
    "bash-denied": (["bash", "-c", "/etc/shadow"], "permission_denied", "/etc/shadow"),
    "mkdir-denied": (["mkdir", "/proc/hintline-x"], "file_not_found", "/proc/hintline-x"),
    "tar-missing": (["tar", "-xf", "/srv/backups/db.tar"], "file_not_found", "/srv/backups/db.tar"),
}


def gen_shell() -> None:
    """GNU coreutils, tar and bash, in English and German (their messages are translated)."""
    for lang, locale in (("en", "C.UTF-8"), ("de", "de_DE.UTF-8")):
        env = {**os.environ, "LANG": locale, "LC_ALL": locale, "LANGUAGE": ""}
        for name, (argv, category, key) in _SHELL.items():
            cmd = argv
            if name == "bash-denied" and os.geteuid() == 0:
                cmd = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *argv]
            write(f"shell-{lang}-{name}", run(cmd, env=env), {"category": category, "key": key},
                  f"LC_ALL={locale} {' '.join(argv)}", version_of([argv[0], "--version"]) if argv[0] != "bash" else version_of(["bash", "--version"]))  # fmt: skip


def gen_sqlite_shell(work: Path) -> None:
    db = work / "app.db"
    run(["sqlite3", str(db), ("CREATE TABLE users (id integer primary key, email text not null unique);"
         "INSERT INTO users VALUES (1, 'ada@example.com');")])  # fmt: skip
    cases = {
        "no-column": ("SELECT emial FROM users;", "undefined_column", "emial"),
        "no-table": ("SELECT * FROM userz;", "undefined_table", "userz"),
        "unique": ("INSERT INTO users VALUES (2, 'ada@example.com');", "unique_violation", "email"),
        "not-null": ("INSERT INTO users (id) VALUES (3);", "not_null_violation", "email"),
    }
    for name, (sql, category, key) in cases.items():
        write(f"sqlite-shell-{name}", run(["sqlite3", str(db), sql]), {"category": category, "key": key},
              f"sqlite3 app.db {sql!r}", version_of(["sqlite3", "--version"]))  # fmt: skip


_PG_NODE = r"""
const {Client} = require('pg');
const spec = JSON.parse(process.env.HINTLINE_CASE);
(async () => {
  const c = new Client({connectionString: process.env.HINTLINE_TARGET});
  await c.connect();
  for (const s of spec.setup) await c.query(s);
  for (const s of spec.fail) await c.query(s);
  process.exit(3);
})();
"""
_PG_CASES = {
    "unique": ("unique_violation", "email"),
    "unique_composite": ("unique_violation", "sku, region"),
    "fk_insert": ("foreign_key_violation", "user_id"),
    "not_null": ("not_null_violation", "email"),
    "check": ("check_violation", "orders_quantity_check"),
    "undefined_column": ("undefined_column", "emial"),
    "undefined_table": ("undefined_table", "userz"),
    "division_by_zero": ("division_by_zero", None),
}


def gen_pg_node(node_dir: Path) -> None:
    """node-postgres against PostgreSQL in German and French."""
    (node_dir / "pg_case.js").write_text(_PG_NODE)
    pkg = json.loads((node_dir / "node_modules" / "pg" / "package.json").read_text())["version"]
    node = version_of(["node", "--version"])
    try:
        for short, locale in (("de", "de_DE.UTF-8"), ("fr", "fr_FR.UTF-8")):
            server = start_postgres(settings={"lc_messages": locale})
            try:
                for case, (category, key) in _PG_CASES.items():
                    env = {**os.environ, "HINTLINE_CASE": json.dumps(case_spec("pg", case)),
                           "HINTLINE_TARGET": server.dsn}  # fmt: skip
                    write(f"pg-node-{short}-{case}".replace("_", "-"), run(["node", str(node_dir / "pg_case.js")], env=env),
                          {"category": category, "key": key}, f"node pg_case.js (case {case}, lc_messages={locale})",
                          f"pg {pkg} (node {node}); {server.version}")  # fmt: skip
            finally:
                server.stop()
    finally:
        (node_dir / "pg_case.js").unlink(missing_ok=True)


_PERL = {
    "open-missing": ("open(my $f, '<', '/srv/data/input.csv') or die \"Cannot open /srv/data/input.csv: $!\";", "file_not_found", "/srv/data/input.csv"),
    "connect-refused": ("use IO::Socket::INET; IO::Socket::INET->new(PeerAddr => '127.0.0.1:PORT') or die \"connect 127.0.0.1:PORT: $!\";", "connection_refused", "127.0.0.1:PORT"),
}  # fmt: skip


def gen_perl() -> None:
    port = str(free_port())
    for name, (code, category, key) in _PERL.items():
        code, key = code.replace("PORT", port), key.replace("PORT", port)
        write(f"perl-{name}", run(["perl", "-e", code]), {"category": category, "key": key},
              f"perl -e {code!r}", version_of(["perl", "-e", "print \"perl $^V\\n\""]))  # fmt: skip


HOLDOUT = ROOT / "tests" / "corpus" / "holdout"


def gen_holdout() -> None:
    """A second slice, defined and captured after the key search was tuned on the first one
    (so it measures that tuning blind): ssh, scp, openssl s_client, unzip, gzip, gcc, sed, tclsh."""
    global OUT
    saved, OUT = OUT, HOLDOUT
    try:
        closed = str(free_port())
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Status)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        plain = str(server.server_address[1])
        ssh_v = run(["ssh", "-V"]).strip()
        cases = {
            "ssh-refused": (["ssh", "-o", "BatchMode=yes", "-p", closed, "deploy@127.0.0.1", "true"], "connection_refused", f"127.0.0.1:{closed}", ssh_v),
            "ssh-dns": (["ssh", "-o", "BatchMode=yes", "deploy@no-such-host.invalid", "true"], "dns_failure", "no-such-host.invalid", ssh_v),
            "scp-missing": (["scp", "/srv/exports/day.csv", "/tmp/"], "file_not_found", "/srv/exports/day.csv", ssh_v),
            "openssl-refused": (["openssl", "s_client", "-connect", f"127.0.0.1:{closed}"], "connection_refused", f"127.0.0.1:{closed}", version_of(["openssl", "version"])),
            "openssl-plain-port": (["openssl", "s_client", "-connect", f"127.0.0.1:{plain}"], "tls_error", f"127.0.0.1:{plain}", version_of(["openssl", "version"])),
            "unzip-missing": (["unzip", "/srv/uploads/batch.zip"], "file_not_found", "/srv/uploads/batch.zip", version_of(["unzip", "-v"])),
            "gzip-missing": (["gzip", "-d", "/srv/logs/app.log.gz"], "file_not_found", "/srv/logs/app.log.gz", version_of(["gzip", "--version"])),
            "gcc-missing": (["gcc", "-c", "/srv/src/main.c"], "file_not_found", "/srv/src/main.c", version_of(["gcc", "--version"])),
            "sed-missing": (["sed", "-n", "1p", "/srv/conf/app.ini"], "file_not_found", "/srv/conf/app.ini", version_of(["sed", "--version"])),
            "tclsh-missing": (["tclsh"], "file_not_found", "/srv/conf/app.tcl", "tclsh " + run(["tclsh"], stdin="puts [info patchlevel]").strip()),
        }  # fmt: skip
        for name, (argv, category, key, version) in cases.items():
            stdin = "open /srv/conf/app.tcl\n" if name == "tclsh-missing" else None
            text = run(argv, stdin=stdin)
            if name == "openssl-plain-port":
                text = run(argv, stdin="")
            write(name, text, {"category": category, "key": key}, " ".join(argv), version)
        server.shutdown()
    finally:
        OUT = saved


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--node-dir", type=Path, required=True, help="dir with got, node-fetch and pg installed")
    ap.add_argument("--only", default="http,shell,sqlite,pg,perl,holdout")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="hintline-corpus-"))
    only = set(args.only.split(","))
    if "http" in only:
        gen_http(args.node_dir.resolve(), work)
    if "shell" in only:
        gen_shell()
    if "sqlite" in only:
        gen_sqlite_shell(work)
    if "pg" in only:
        gen_pg_node(args.node_dir.resolve())
    if "perl" in only:
        gen_perl()
    if "holdout" in only:
        gen_holdout()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
