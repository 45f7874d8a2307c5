"""Plant secrets across every cut point of every surface and collect what leaks.

Each planted secret is a text of one shape the scrubber knows (every pattern of
:data:`hintline.scrub.SECRETS` has at least one) holding a random value. It is placed so that
its value straddles each cut a surface makes (the 64-character hint value, the 240-character
hint, the 160-character message line of ``hintline logs``, the guard's 200-character
arguments, the web page's 500 characters, a scan example's 4,000, a trace message's 4,096
and 8,192) and just inside and outside of it. A leak is any 6-character piece of a value in
what the surface printed, returned or sent.

Only public surfaces are used, so the same harness measures an older hintline
(``python -m tests.leaks.plant`` with that version first on ``PYTHONPATH``).
"""

from __future__ import annotations

import contextlib
import html
import io
import json
import logging
import os
import random
import re
import string
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_RNG = random.Random(14)
_ALNUM = string.ascii_letters + string.digits
_B64 = _ALNUM + "+/"


def _r(n: int, alphabet: str = _ALNUM, digit: bool = True) -> str:
    while True:
        v = "".join(_RNG.choice(alphabet) for _ in range(n))
        if not digit or any(c.isdigit() for c in v):
            return v


@dataclass(frozen=True)
class Planted:
    """A secret as planted: the text that holds it, and the values that must not leak."""

    shape: str
    text: str
    values: tuple[str, ...]


def _one(shape: str, template: str, value: str) -> Planted:
    return Planted(shape, template.replace("{v}", value), (value,))


def secrets() -> list[Planted]:
    """At least one planted secret per shape the scrubber knows; 60 and more in all."""
    up = string.ascii_uppercase + "234567"
    out: list[Planted] = []
    for _ in range(2):
        out += [
            _one("url-credentials", "postgresql://app:{v}@db.internal:5432/shop", _r(16)),
            _one("url-credentials", "amqp://worker:{v}@rabbit:5672//", _r(14)),
            _one("url-credentials-encoded", "next=postgresql%3A%2F%2Fapp%3A{v}%40db%3A5432%2Fshop", _r(15)),
            _one("host-credentials", "connect app:{v}@db.internal:6432 failed", _r(15)),
            _one("host-credentials", "postgresql:/app:{v}@db:5432/shop", _r(15)),
            _one("query-param", "https://api.example.com/v1/items?access_token={v}&page=2", _r(24)),
            _one("query-key", "https://maps.example.com/geo?address=x&key={v}", _r(30)),
            _one("oracle-jdbc-password", "jdbc:oracle:thin:scott/{v}@//db:1521/ORCL", _r(12)),
            _one("authorization-header", "Authorization: Basic {v}", _r(28, _B64)),
            _one("authorization-header", "Authorization: Digest username=\"app\", response=\"{v}\"", _r(32)),
            _one("set-cookie", "Set-Cookie: sessionid={v}; Path=/; HttpOnly", _r(26)),
            _one("cookie", "Cookie: sessionid={v}; csrftoken=abc", _r(26)),
            _one("azure-storage-key", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={v};EndpointSuffix=core.windows.net", _r(86, _B64) + "=="),
            _one("aws-access-key", "InvalidAccessKeyId for {v}", "AKIA" + _r(16, up)),
            _one("aws-secret-key", "aws_secret_access_key = {v}", _r(40, _B64)),
            _one("github-token", "remote: invalid token {v}", "ghp_" + _r(36)),
            _one("gitlab-token", "PRIVATE-TOKEN {v} rejected", "glpat-" + _r(20)),
            _one("slack-token", "invalid_auth for {v}", "xoxb-" + _r(10, string.digits) + "-" + _r(24)),
            _one("stripe-key", "Invalid API Key provided: {v}", "sk_live_" + _r(24)),
            _one("anthropic-key", "invalid x-api-key {v}", "sk-ant-api03-" + _r(40)),
            _one("openai-key", "Incorrect API key provided: {v}", "sk-proj-" + _r(40)),
            _one("google-api-key", "API key {v} not valid", "AIza" + _r(35)),
            _one("npm-token", "401 Unauthorized - token {v}", "npm_" + _r(36)),
            _one("pypi-token", "403 Forbidden with {v}", "pypi-AgEIcHlwaS5vcmc" + _r(60)),
            _one("huggingface-token", "401 Client Error for {v}", "hf_" + _r(34, string.ascii_letters, digit=False)),
            _one("sendgrid-key", "UnauthorizedError with {v}", "SG." + _r(22) + "." + _r(43)),
            _one("sql-password", "STATEMENT:  CREATE ROLE app LOGIN PASSWORD '{v}'", _r(14)),
            _one("cli-credentials", "cmd: curl -u app:{v} http://127.0.0.1/", _r(14)),
            _one("cli-credentials", "Command '['deploy', '--api-token', '{v}']' returned 1", _r(18)),
            _one("mysql-password", "mysql -uroot -p{v} shop", _r(14)),
            _one("bearer-token", "request failed: sent bearer {v}", _r(32)),
            _one("bearer-token", "Authorization: Bearer {v}", _r(40)),
            _one("key-value", "password={v}", _r(14)),
            _one("key-value", '{"user": "app", "password": "{v}", "retries": 3}', _r(14)),
            _one("key-value", '{\n  "user": "app",\n  "api_key":\n    "{v}"\n}', _r(24)),
            _one("key-value", "export PGPASSWORD={v}", _r(14)),
            _one("key-value-pair", "ImmutableMultiDict([('user', 'app'), ('password', '{v}')])", _r(14)),
            _one("env-name-value", '- name: DB_PASSWORD\n  value: "{v}"', _r(14)),
        ]
    a, b, c = _r(20, _ALNUM + "_-"), _r(40, _ALNUM + "_-"), _r(43, _ALNUM + "_-")
    out.append(Planted("jwt", f"401: token eyJ{a}.eyJ{b}.{c} expired", (a, b, c)))
    body = [_r(64, _B64) for _ in range(3)]
    pem = "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(body) + "\n-----END RSA PRIVATE KEY-----"
    out.append(Planted("private-key", "could not load key:\n" + pem, tuple(body)))
    first, second = _r(30), _r(20)
    out.append(
        Planted("bearer-token", f"Authorization: Bearer {first}\n    {second}\n", (first, second))
    )
    return out


def leaks_in(output: str, planted: Planted) -> list[str]:
    """The 6-character pieces of the planted values found in ``output``."""
    found = []
    for value in planted.values:
        for i in range(len(value) - 5):
            piece = value[i : i + 6]
            if piece in output:
                found.append(piece)
                break
    return found


_WORDS = ["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit", "sed", "do", "eiusmod", "tempor"]


def pad(n: int) -> str:
    """``n`` characters of words ending with a space (a secret after it starts a token)."""
    text = ""
    i = 0
    while len(text) < n:
        text += _WORDS[i % len(_WORDS)] + " "
        i += 1
    text = text[: max(0, n - 1)]
    return text + " " if n else ""


def around(cut: int, planted: Planted) -> Iterator[int]:
    """Paddings that put the planted value across ``cut`` and just before and after it."""
    value = planted.values[0]
    at = planted.text.find(value)
    for offset in (len(value) // 2, 3, -1):
        n = cut - at - offset
        if n >= 0:
            yield n


@contextlib.contextmanager
def _captured() -> Iterator[io.StringIO]:
    out = io.StringIO()
    err = io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        yield out
    finally:
        sys.stdout, sys.stderr = old
        out.write(err.getvalue())


def _cli(argv: list[str]) -> str:
    from hintline.cli import main

    with _captured() as out, contextlib.suppress(SystemExit):
        main(argv)
    return out.getvalue()


Surface = Callable[[list[Planted], Path], dict[str, list[tuple[Planted, str]]]]
"""A surface plants the secrets and returns ``{label: [(planted, everything it output)]}``."""


def _python_log(path: Path, records: list[tuple[str, BaseException | None]]) -> None:
    """Write records through the real logging module (with real tracebacks)."""
    logger = logging.getLogger(f"hintline.leaks.{path.stem}")
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)
    logger.propagate = False
    try:
        for message, exc in records:
            if exc is None:
                logger.error("%s", message)
                continue
            try:
                raise exc
            except BaseException:
                logger.exception("%s", message)
    finally:
        logger.removeHandler(handler)
        handler.close()


def hint_surfaces(planted: list[Planted], tmp: Path) -> dict[str, list[tuple[Planted, str]]]:
    """``clean()``: the hint text and key, captured values (64), the hint (240) and the input
    bound (16 KiB); and the ``hintline clean`` command, text and JSON."""
    from hintline import clean

    out: dict[str, list[tuple[Planted, str]]] = {"clean": [], "cli clean": []}
    for p in planted:
        for n in around(64, p):
            for text in (f"KeyError: '{pad(n)}{p.text}'", f'column "{pad(n)}{p.text}" does not exist'):
                h = clean(text)
                out["clean"].append((p, f"{h.text}\n{h.key}"))
        # the input bound: the first 16 KiB are kept, so a line across 16,384 is cut there
        line = "RuntimeError: " + p.text.replace("\n", " ")
        for n in around(16 * 1024, Planted(p.shape, line, p.values)):
            fill = "INFO ok\n" * (n // 8)
            fill += "x" * (n - len(fill) - 1) + "\n" if n - len(fill) > 1 else ""
            h = clean(fill + line + "\n" + "INFO ok\n" * 8000)
            out["clean"].append((p, f"{h.text}\n{h.key}"))
        for n in around(240 - len("Hint: RuntimeError: "), p):
            text = f"RuntimeError: {pad(n)}{p.text}"
            h = clean(text)
            out["clean"].append((p, f"{h.text}\n{h.key}"))
            f = tmp / "err.txt"
            f.write_text(text, encoding="utf-8")
            out["cli clean"].append((p, _cli(["clean", str(f)]) + _cli(["clean", "--json", str(f)])))
    return out


def log_surfaces(planted: list[Planted], tmp: Path) -> dict[str, list[tuple[Planted, str]]]:
    """``hintline logs`` (text, --raw, --json, --group) and the ``explain`` payload of each
    entry."""
    out: dict[str, list[tuple[Planted, str]]] = {}
    for i, p in enumerate(planted):
        log = tmp / f"app{i}.log"
        records: list[tuple[str, BaseException | None]] = []
        for n in around(160 - 4, p):
            records.append((f"{pad(n)}{p.text}", None))
        for n in around(500, p):
            records.append((f"{pad(n)}{p.text}", RuntimeError(p.text)))
        _python_log(log, records)
        many = str(len(records) + 1)
        out.setdefault("logs", []).append((p, _cli(["logs", "-n", many, str(log)])))
        out.setdefault("logs --raw", []).append((p, _cli(["logs", "--raw", "-n", many, str(log)])))
        out.setdefault("logs --json", []).append(
            (p, _cli(["logs", "--json", "--raw", "-n", many, str(log)]))
        )
        out.setdefault("logs --group", []).append(
            (p, _cli(["logs", "--group", "--raw", str(log)]) + _cli(["logs", "--group", "--json", str(log)]))
        )
        out.setdefault("explain payload", []).append((p, _explain(log, tmp)))
    return out


def _explain(log: Path, root: Path) -> str:
    from hintline import logs
    from hintline.explain import Configuration, TrustZone, build_payload
    from hintline.explain._answer import build_request

    parts = []
    for zone in (TrustZone.LOCAL, TrustZone.PRIVATE_HOSTED, TrustZone.EXTERNAL_GLOBAL):
        for entry in logs.read([str(log)], limit=50):
            try:
                payload = build_payload(entry, Configuration(name="t", zone=zone), project_root=root)
            except Exception as exc:  # a refusal is no leak
                parts.append(type(exc).__name__)
                continue
            request = build_request(payload, max_tokens=200, temperature=0.0)
            parts.append(json.dumps(list(request.messages), default=str))
    return "\n".join(parts)



_KEY_FIELD = re.compile(r'name="key" value="([^"]+)"')


def web_surfaces(planted: list[Planted], tmp: Path) -> dict[str, list[tuple[Planted, str]]]:
    """The page as a browser gets it over HTTP from a real uvicorn: the listing page, each entry's
    hint page (the entry, and a model's answer whose cause and next step cross their 200-character
    cut, or an answer that is not JSON, previewed in 80 characters), the usage page; and every
    request the model server received. Empty without the ``web`` extra.

    The bodies are compared after HTML unescaping, so an escaped ``&`` hides nothing. The page has
    no JSON endpoint (``/healthz`` says ``ok``).
    """
    try:
        import httpx

        from hintline.web import Settings
        from hintline.web._users import UserStore
        from tests.web._fake_model import held_model, model_config
        from tests.web.conftest import csrf_of, served
    except Exception:  # MissingExtraError: the extra is not installed here
        return {}

    log = tmp / "app.log"
    users = tmp / "users.toml"
    UserStore(users).add("root", "admin-password-1", "admin")
    out: dict[str, list[tuple[Planted, str]]] = {"web pages": [], "web model request": []}
    with held_model() as model:
        model.release.set()  # every request answers at once
        config = model_config(tmp, model.base_url, "leak-model", project_root=tmp)
        settings = Settings(
            log_paths=(str(log),), users_path=users, config_path=str(config),
            page_size=50, allowed_hosts=("127.0.0.1",),
        )
        with served(settings) as base, httpx.Client(base_url=base, timeout=60) as c:
            token = csrf_of(c.get("/login").text)
            form = {"username": "root", "password": "admin-password-1", "csrf": token}
            assert c.post("/login", data=form).status_code == 303
            for p in planted:
                log.unlink(missing_ok=True)
                records: list[tuple[str, BaseException | None]] = []
                for n in around(160 - 4, p):
                    records.append((f"{pad(n)}{p.text}", None))
                for n in around(500, p):
                    records.append((f"{pad(n)}{p.text}", RuntimeError(p.text)))
                _python_log(log, records)
                model.calls.clear()
                index = c.get("/")
                bodies = [index.text]
                token = csrf_of(index.text)
                # the answers go to whichever entry's call comes first: the entries are asked at once
                model.replies[:] = [_json_answer(p, n) for n in around(200, p)]
                model.replies += [f"{pad(n)}{p.text}" for n in around(80 - 1, p)]
                asked = [_ask(c, token, html.unescape(k)) for k in _KEY_FIELD.findall(index.text)]
                bodies += [_answer_page(c, where) for where in asked]
                bodies.append(c.get("/usage").text)
                out["web pages"].append((p, html.unescape("\n".join(bodies))))
                out["web model request"].append((p, json.dumps(model.calls)))
    return out


def _json_answer(p: Planted, n: int) -> str:
    """A model's answer whose cause and next step hold the secret across their cut."""
    return json.dumps({"cause": f"{pad(n)}{p.text}", "next_step": f"{pad(n)}{p.text}", "frame": 0})


def _ask(c: Any, token: str, key: str) -> str:
    """Ask for the hint of ``key``: the answer page's address, or the refusal page itself."""
    r = c.post("/hint", data={"csrf": token, "key": key})
    return str(r.headers["location"]) if r.status_code == 303 else str(r.text)


def _answer_page(c: Any, where: str) -> str:
    """Follow the "being made" page at ``where`` to the answer."""
    if not where.startswith("/hint/"):
        return where
    deadline = time.monotonic() + 60
    while True:
        page = c.get(where)
        if 'http-equiv="refresh"' not in page.text or time.monotonic() > deadline:
            return str(page.text)
        time.sleep(0.02)


def mcp_surfaces(planted: list[Planted], tmp: Path) -> dict[str, list[tuple[Planted, str]]]:
    """What an MCP client receives: ``hintline mcp`` over real stdio (``clean_error`` across the
    64- and 240-character cuts, ``scrub``), and a server under ``guard_server`` whose tool fails
    with the secret in its message and arguments (hints, the escalation summary's 200-character
    arguments). Empty without the ``mcp`` extra."""
    try:
        import anyio
        from mcp import Client, StdioServerParameters
        from mcp.server.mcpserver import MCPServer
        from mcp_types import TextContent

        from hintline.integrations.mcp import guard_server
    except Exception:  # the extra is not installed here
        return {}
    import hintline

    src = str(Path(hintline.__file__).resolve().parents[1])
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "hintline", "mcp"],
        env={"PYTHONPATH": os.pathsep.join([src, *sys.path])},
    )

    def text_of(result: Any) -> str:
        texts = [c.text for c in result.content if isinstance(c, TextContent)]
        return "\n".join(texts) + "\n" + json.dumps(result.structured_content)

    def failing_server() -> Any:
        server = guard_server(MCPServer("leaks"))

        @server.tool()
        def search(q: str) -> str:
            """Search."""
            raise ValueError(q)

        return server

    out: dict[str, list[tuple[Planted, str]]] = {"mcp": [], "mcp guard": []}

    async def run() -> None:
        async with Client(params) as client:
            for p in planted:
                texts = []
                for cut in (64, 240 - len("Hint: RuntimeError: ")):
                    for n in around(cut, p):
                        for text in (f"RuntimeError: {pad(n)}{p.text}", f"KeyError: '{pad(n)}{p.text}'"):
                            texts.append(text_of(await client.call_tool("clean_error", {"text": text})))
                texts.append(text_of(await client.call_tool("scrub", {"text": p.text})))
                out["mcp"].append((p, "\n".join(texts)))
        for p in planted:
            for n in around(200 - len('{"q":"'), p):
                async with Client(failing_server(), mode="legacy") as client:
                    texts = []
                    for _ in range(4):
                        result = await client.call_tool("search", {"q": f"{pad(n)}{p.text}"})
                        texts.append(text_of(result))
                out["mcp guard"].append((p, "\n".join(texts)))

    anyio.run(run)
    return out

def trace_surfaces(planted: list[Planted], tmp: Path) -> dict[str, list[tuple[Planted, str]]]:
    """``hintline trace`` (text and JSON) with the secret in a message cut at 4,096 / 8,192."""
    out: dict[str, list[tuple[Planted, str]]] = {"trace": []}
    frames = 'Traceback (most recent call last):\n  File "/srv/app/main.py", line 3, in <module>\n    run()\n'
    for p in planted:
        for cut in (4096, 8192):
            for n in around(cut, p):
                long_line = f"{pad(n)}{p.text}".replace("\n", " ")
                text = f"{frames}RuntimeError: failed\n{pad(4000)}\n{long_line}\n"
                if cut == 4096:
                    text = f"{frames}RuntimeError: failed\n{long_line}\n"
                f = tmp / "trace.txt"
                f.write_text(text, encoding="utf-8")
                out["trace"].append((p, _cli(["trace", str(f)]) + _cli(["trace", "--json", str(f)])))
    return out


def scan_surfaces(planted: list[Planted], tmp: Path) -> dict[str, list[tuple[Planted, str]]]:
    """``hintline scan``: the printed groups, the JSON lines report and the HTML report, with
    each example cut at 4,000 characters."""
    folder = tmp / "scan"
    folder.mkdir()
    records: list[tuple[str, BaseException | None]] = []
    owner: list[Planted] = []
    for p in planted:
        for n in around(4000 - 60, p):
            records.append((f"{pad(n)}{p.text}", ValueError(f"{len(records)} {p.text}")))
            owner.append(p)
    _python_log(folder / "app.log", records)
    report = tmp / "groups.jsonl"
    html = tmp / "report.html"
    printed = _cli(["scan", str(folder), "-j", "1", "--top", "100000", "-o", str(report), "--html", str(html), "--state", str(tmp / "state")])
    whole = printed + report.read_text(encoding="utf-8") + html.read_text(encoding="utf-8")
    return {"scan": [(p, whole) for p in planted]}


def guard_surfaces(planted: list[Planted], tmp: Path) -> dict[str, list[tuple[Planted, str]]]:
    """The agent guard: failures given to the model, the escalation summary (arguments cut at
    200) and the loop summary."""
    from hintline import AgentGuard
    from hintline.agent import GuardPolicy
    from hintline.exceptions import GuardTripped

    out: dict[str, list[tuple[Planted, str]]] = {"guard": []}
    for p in planted:
        for n in around(200 - len('{"q":"'), p):
            texts: list[str] = []
            guard = AgentGuard(GuardPolicy(max_consecutive_errors=3))
            try:
                for k in range(4):
                    args = {"q": f"{pad(n)}{p.text}", "k": k}
                    outcome = guard.call("search", args, _failing(f"{pad(n)}{p.text}"))
                    if outcome.failure is not None:
                        texts.append(outcome.failure.content)
            except GuardTripped as exc:
                texts += [str(exc), str(getattr(exc, "summary", ""))]
            looped = AgentGuard(GuardPolicy(max_consecutive_errors=100, max_loop_warnings=1))
            try:
                for _ in range(10):
                    outcome = looped.call("search", {"q": f"{pad(n)}{p.text}"}, lambda: "ok")
                    texts.append(outcome.notice or "")
            except GuardTripped as exc:
                texts += [str(exc), str(getattr(exc, "summary", ""))]
            out["guard"].append((p, "\n".join(texts)))
        for n in around(80 - len("Value error, "), p):
            invalid = _validation_error(f"{pad(n)}{p.text}")
            if invalid is None:
                break
            guard = AgentGuard()
            outcome = guard.call("search", {"q": 1}, _raising(invalid))
            failure = outcome.failure
            out["guard"].append((p, "" if failure is None else f"{failure.content}\n{failure.hint.text}"))
    return out


def _validation_error(message: str) -> BaseException | None:
    """A real pydantic ValidationError whose message holds ``message`` (None without pydantic)."""
    try:
        import pydantic
    except ImportError:  # pragma: no cover - pydantic comes with the agent extras
        return None

    class Args(pydantic.BaseModel):
        q: int

        @pydantic.field_validator("q")
        @classmethod
        def check(cls, value: int) -> int:
            raise ValueError(message)

    try:
        Args(q=1)
    except pydantic.ValidationError as exc:
        return exc
    return None


def _raising(error: BaseException) -> Callable[[], object]:
    def fn() -> object:
        raise error

    return fn


def _failing(message: str) -> Callable[[], object]:
    def fn() -> object:
        raise ValueError(message)

    return fn


def logging_surfaces(planted: list[Planted], tmp: Path) -> dict[str, list[tuple[Planted, str]]]:
    """The logging formatter's hint line and the structlog processor's hint fields."""
    from hintline.integrations.logging import HintFormatter

    out: dict[str, list[tuple[Planted, str]]] = {"logging formatter": [], "structlog": []}
    formatter = HintFormatter("%(levelname)s %(message)s")
    for p in planted:
        for n in around(240 - len("Hint: ValueError: "), p):
            try:
                raise ValueError(f"{pad(n)}{p.text}")
            except ValueError:
                record = logging.LogRecord("app", logging.ERROR, __file__, 1, "failed", None, sys.exc_info())
            hint_line = formatter.format(record).rsplit("\n", 1)[-1]
            out["logging formatter"].append((p, f"{hint_line}\n{record.hint}\n{record.hint_key}"))  # type: ignore[attr-defined]
            try:
                from hintline.integrations.structlog import add_hint
            except ImportError:  # pragma: no cover - structlog is an extra
                continue
            try:
                raise ValueError(f"{pad(n)}{p.text}")
            except ValueError:
                event = add_hint(None, "error", {"event": "failed", "exc_info": sys.exc_info()})
            out["structlog"].append((p, f"{event.get('hint')}\n{event.get('hint_key')}"))
    return out


SURFACES: tuple[Surface, ...] = (
    hint_surfaces,
    log_surfaces,
    trace_surfaces,
    scan_surfaces,
    guard_surfaces,
    logging_surfaces,
    web_surfaces,
    mcp_surfaces,
)


def collect(tmp: Path) -> dict[str, tuple[int, list[tuple[str, str, str]]]]:
    """``{surface: (outputs checked, [(shape, piece, output excerpt)])}`` over every surface."""
    planted = secrets()
    result: dict[str, tuple[int, list[tuple[str, str, str]]]] = {}
    for i, surface in enumerate(SURFACES):
        where = tmp / f"s{i}"
        where.mkdir()
        for label, outputs in surface(planted, where).items():
            leaks = []
            for p, output in outputs:
                for piece in leaks_in(output, p):
                    at = output.find(piece)
                    leaks.append((p.shape, piece, output[max(0, at - 60) : at + 30]))
            result[label] = (len(outputs), leaks)
    return result


def main() -> None:  # pragma: no cover - the measuring command
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        result = collect(Path(tmp))
    total = sum(len(v[1]) for v in result.values())
    print(f"{len(secrets())} planted secrets; leaks by surface:")
    for label, (checked, leaks) in result.items():
        shapes = sorted({s for s, _, _ in leaks})
        print(f"  {label:18s} {len(leaks):5d} of {checked:5d} outputs  {', '.join(shapes)}")
    print(f"total leaks: {total}")


if __name__ == "__main__":  # pragma: no cover
    main()
