"""Helpers for the explain tests: a provider with a controlled answer, entries, a real error."""

from __future__ import annotations

import importlib.util
import json
import logging
import sys
import traceback
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from hintline.explain import ChatReply, ChatRequest
from hintline.logs import Entry
from hintline.traces import ExceptionInfo, Frame, Trace

# Planted secrets: none of them may appear in any request.
DB_PASSWORD = "Sup3rS3cretPw"
DSN = f"postgresql://shop:{DB_PASSWORD}@db.internal:5432/shop"


@dataclass
class FixedProvider:
    """A :class:`hintline.explain.Provider` that answers with the given content (controlled
    answers for the anchored/guess label); it records every request it gets."""

    content: str
    finish_reason: str = "stop"
    model: str = "fixed-answer"
    requests: list[ChatRequest] = field(default_factory=list)

    @classmethod
    def answering(cls, cause: str, next_step: str, frame: int) -> FixedProvider:
        return cls(json.dumps({"cause": cause, "next_step": next_step, "frame": frame}))

    def complete(self, request: ChatRequest) -> ChatReply:
        self.requests.append(request)
        return ChatReply(
            content=self.content,
            finish_reason=self.finish_reason,
            model=self.model,
            prompt_tokens=11,
            completion_tokens=7,
        )


def frame(
    file: str | None,
    line: int | None = 10,
    function: str | None = "handle",
    *,
    in_app: bool = True,
    language: str = "python",
) -> Frame:
    """A frame as a trace parser yields it."""
    return Frame(file=file, line=line, function=function, module=None, language=language,
                 in_app=in_app)


def make_entry(
    *,
    message: str = "order import failed",
    exception_type: str | None = "ValueError",
    exception_message: str = "",
    frames: tuple[Frame, ...] = (),
    component: str | None = "shop.orders",
    key: str = "k-test",
) -> Entry:
    """An entry as a log reader returns it."""
    exceptions = (
        (ExceptionInfo(type=exception_type, message=exception_message, frames=frames,
                       language="python"),)
        if exception_type or frames
        else ()
    )
    return Entry(
        key=key,
        timestamp=datetime(2026, 11, 30, 6, 0, tzinfo=UTC),
        level="ERROR",
        component=component,
        message=message,
        exception_type=exception_type,
        trace=Trace(exceptions=exceptions, language="python"),
        raw=message,
        source="app.log",
        format="python",
    )


ORDERS_PY = '''\
import json


def parse_order(raw):
    return json.loads(raw)


def import_order(raw):
    order = parse_order(raw)
    return order["id"]
'''

SERVICE_PY = '''\
import logging

from app.orders import import_order

log = logging.getLogger("shop.orders")


def handle(raw, dsn):
    try:
        return import_order(raw)
    except ValueError:
        log.exception("order import failed for %s", dsn)
        raise
'''


@dataclass(frozen=True)
class RealError:
    """A real Python error, logged by the logging module into ``log``."""

    project: Path
    log: Path
    exception: BaseException
    entry: Entry


def real_python_error(tmp_path: Path) -> RealError:
    """Run a small real project whose JSON parsing fails; log it with ``logging.exception``.

    The project folder's name carries a token (it must never be sent: paths inside the project
    are sent relative to it) and the log message carries a DSN with a password. The entry is
    built from the live exception's traceback (frames throw site first; in_app = inside the
    project), as a trace parser would give it.
    """
    project = tmp_path / "ghp_R3alLookingTok3nInDirName0123456789ab" / "shop"
    (project / "app").mkdir(parents=True)
    (project / "app" / "__init__.py").write_text("")
    (project / "app" / "orders.py").write_text(ORDERS_PY)
    (project / "app" / "service.py").write_text(SERVICE_PY)
    log_path = tmp_path / "app.log"
    handler = logging.FileHandler(log_path)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger = logging.getLogger("shop.orders")
    logger.addHandler(handler)
    logger.propagate = False
    saved = {k: v for k, v in sys.modules.items() if k == "app" or k.startswith("app.")}
    for name in saved:
        del sys.modules[name]
    sys.path.insert(0, str(project))
    try:
        spec = importlib.util.spec_from_file_location("app.service", project / "app" / "service.py")
        assert spec
        assert spec.loader
        service = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(service)
        try:
            service.handle("{not json", DSN)
        except ValueError as exc:
            caught: BaseException = exc
        else:  # pragma: no cover
            raise AssertionError("the project did not fail")
    finally:
        sys.path.remove(str(project))
        for name in [k for k in sys.modules if k == "app" or k.startswith("app.")]:
            del sys.modules[name]
        sys.modules.update(saved)
        logger.removeHandler(handler)
        handler.close()
    frames = tuple(
        Frame(
            file=fs.filename,
            line=fs.lineno,
            function=fs.name,
            module=None,
            language="python",
            in_app=fs.filename.startswith(str(project) + "/"),
        )
        for fs in reversed(traceback.extract_tb(caught.__traceback__))
    )
    text = log_path.read_text()
    entry = Entry(
        key="real-1",
        timestamp=datetime.now(UTC),
        level="ERROR",
        component="shop.orders",
        message=f"order import failed for {DSN}",
        exception_type=type(caught).__module__ + "." + type(caught).__qualname__,
        trace=Trace(
            exceptions=(ExceptionInfo(type=type(caught).__qualname__, message=str(caught),
                                      frames=frames, language="python"),),
            language="python",
        ),
        raw=text,
        source=str(log_path),
        format="python",
    )
    return RealError(project=project, log=log_path, exception=caught, entry=entry)


def write_config(tmp_path: Path, base_url: str, **extra: str) -> Path:
    """A configuration file named `test` for ``base_url``, usage in tmp_path."""
    lines = [
        "[explain]",
        'default = "test"',
        "[explain.configurations.test]",
        f'base_url = "{base_url}"',
        'model = "test-model"',
        "timeout = 30",
        *(f'{k} = "{v}"' for k, v in extra.items()),
        "[usage]",
        'path = "usage.sqlite3"',
    ]
    path = tmp_path / "hintline.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def run(real: RealError, config: Path, *more: str) -> list[str]:
    """The `hintline explain` arguments for the real log."""
    return ["explain", str(real.log), "--config", str(config), "--project-root",
            str(real.project), *more]
