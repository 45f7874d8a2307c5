"""Turn a parser's :class:`RawTrace` into the frozen :class:`Trace`, deciding ``in_app``."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from operator import itemgetter

from hintline.traces._inapp import InAppPolicy, app_packages, policy_for
from hintline.traces._memo import MEMO_SIZE, settings_memo, shared_dict
from hintline.traces._model import ExceptionInfo, Frame, Trace
from hintline.traces._raw import MAX_FRAMES, RawFrame, RawTrace

__all__ = ["build_trace"]

_PACKAGE_LANGUAGES = frozenset({"java", "dotnet"})


class _FrameFill:
    """:class:`Frame`'s slot layout without its frozen ``__setattr__``.

    A frozen dataclass sets each field through ``object.__setattr__``; a hundred frames a trace
    made that the largest cost of a parse. This twin is filled with plain attribute stores and
    then turned into a real ``Frame`` by assigning ``__class__`` (allowed because both classes
    have exactly the same slots; a test checks they stay in step).
    """

    __slots__ = Frame.__slots__
    file: str | None
    line: int | None
    function: str | None
    module: str | None
    language: str
    in_app: bool
    column: int | None


class _ExceptionFill:
    """:class:`ExceptionInfo`'s slot layout, filled the same way as :class:`_FrameFill`."""

    __slots__ = ExceptionInfo.__slots__
    type: str
    message: str
    frames: tuple[Frame, ...]
    language: str
    relation: str | None
    parent: int | None
    omitted: int


class _TraceFill:
    """:class:`Trace`'s slot layout, filled the same way as :class:`_FrameFill`."""

    __slots__ = Trace.__slots__
    exceptions: tuple[ExceptionInfo, ...]
    language: str
    extra: dict[str, str]


class _FrameTable(dict[RawFrame, Frame]):
    """The Frames made for one language under one in_app policy, by raw frame.

    A missing raw frame is built on lookup (its in_app decision from the policy's decisions by
    file and module, the policy asked once per new pair), so ``map(table.__getitem__,
    raw_frames)`` runs at C speed for every frame seen before: frames repeat within a trace
    ("... N more", causes, recursion) and across the traces of one service, and a Frame is an
    immutable value.
    """

    __slots__ = ("decisions", "language", "policy")

    def __init__(self, language: str, policy: InAppPolicy) -> None:
        super().__init__()
        self.language = language
        self.policy = policy
        self.decisions = policy.decisions

    def __missing__(self, raw: RawFrame) -> Frame:
        file, line, function, module, column = raw
        name = module if module is not None else function
        in_app = self.decisions.get((file, name))
        if in_app is None:
            in_app = self.policy.learn(file, name)
        f = _FrameFill()
        f.file = file
        f.line = line
        f.function = function
        f.module = module
        f.column = column
        f.language = self.language
        f.in_app = in_app
        f.__class__ = Frame  # type: ignore[assignment]
        self[raw] = f  # type: ignore[assignment]
        return f  # type: ignore[return-value]


_table_for = settings_memo(_FrameTable)  # shared between calls; emptied past MEMO_SIZE entries

# The application's packages by the modules of a trace's frames, outermost first: the same code
# throwing again (from other lines, as after a release) has the same modules. The key is the
# modules as the frames give them, repeats and all (no pass to drop them on a hit); a longer one
# is first cut to its distinct modules.
_PACKAGES: dict[tuple[str | None, ...], tuple[str, ...]] = shared_dict()
_PACKAGES_SIZE = 256  # entries (each a tuple of at most _PACKAGES_KEY module names)
_PACKAGES_KEY = 256


def _packages(modules: tuple[str | None, ...], memo: bool) -> tuple[str, ...]:
    if len(modules) > _PACKAGES_KEY:
        modules = tuple(dict.fromkeys(modules))
    if not memo or len(modules) > _PACKAGES_KEY:
        return app_packages(modules)
    packages = _PACKAGES.get(modules)
    if packages is None:
        packages = app_packages(tuple(dict.fromkeys(modules)))
        if len(_PACKAGES) >= _PACKAGES_SIZE:
            _PACKAGES.clear()
        _PACKAGES[modules] = packages
    return packages


def build_trace(
    raw: RawTrace,
    *,
    project_root: str | None,
    include: Sequence[str],
    exclude: Sequence[str],
    memo: bool = True,
) -> Trace:
    """Freeze ``raw`` into a :class:`Trace` with ``in_app`` decided for every frame.

    ``memo=False`` keeps the frames out of the shared memo: the caller passes it when a frame
    may hold a string longer than ``MAX_LINE`` (the memo's entries must stay small).
    """
    excs = [e for e in raw.exceptions if e.type or e.frames]
    if not excs:
        return Trace(language=raw.language, extra=dict(raw.extra))
    language = raw.language
    packages: tuple[str, ...] = ()
    if language in _PACKAGE_LANGUAGES and not include:
        count = 0
        for exc in excs:
            count += len(exc.frames)
        columns = map(itemgetter(3), chain.from_iterable([reversed(exc.frames) for exc in excs]))
        # a longer key is cut to its distinct modules: then no tuple of them all is made
        modules = tuple(dict.fromkeys(columns) if count > _PACKAGES_KEY else columns)
        packages = _packages(modules, memo)
    if language == "java":
        project_root = None  # a JVM frame names a file, never a path: the packages decide
    policy = (policy_for if memo else InAppPolicy)(project_root, tuple(include), tuple(exclude), packages)
    keep: dict[int, int] | None = None  # old index -> new, when exceptions were dropped
    if len(excs) != len(raw.exceptions):
        index = {id(e): i for i, e in enumerate(raw.exceptions)}
        keep = {index[id(e)]: i for i, e in enumerate(excs)}
    out: list[ExceptionInfo] = []
    table = _table_for(language, policy) if memo else _FrameTable(language, policy)
    get = table.__getitem__
    for exc in excs:
        raw_frames = exc.frames
        omitted = exc.omitted
        if len(raw_frames) > MAX_FRAMES:
            omitted += len(raw_frames) - MAX_FRAMES
            raw_frames = raw_frames[:MAX_FRAMES]
        frames = tuple(map(get, raw_frames))
        parent = exc.parent
        if parent is not None and keep is not None:
            parent = keep.get(parent)
        e = _ExceptionFill()
        e.type = exc.type or "Error"
        e.message = exc.message
        e.frames = frames
        e.language = language
        e.relation = exc.relation if parent is not None else None
        e.parent = parent
        e.omitted = omitted
        e.__class__ = ExceptionInfo  # type: ignore[assignment]
        out.append(e)  # type: ignore[arg-type]
    if len(table) > MEMO_SIZE:
        table.clear()
    trace = _TraceFill()
    trace.exceptions = tuple(out)
    trace.language = language
    trace.extra = dict(raw.extra)
    trace.__class__ = Trace  # type: ignore[assignment]
    return trace  # type: ignore[return-value]
