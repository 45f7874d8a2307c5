"""Anchored or guess: hintline, not the model, labels a hint.

A model asked for a cause always names one. The answer cites the number of the frame the cause
sits in; the hint is **anchored** only when that frame was sent, the trace parser marked it as
the project's own code (``in_app``), and its file lies inside the project root and not under a
vendored, installed, generated or cache folder. Every other answer is a **guess**.
"""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import dataclass

from hintline.explain._payload import Payload, SentFrame

__all__ = ["EXCLUDED_DIRS", "Anchor", "anchor"]

EXCLUDED_DIRS = frozenset(
    {
        # dependencies, vendored or installed
        "vendor",
        "site-packages",
        "dist-packages",
        "node_modules",
        "bower_components",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        # runtime data and generated files
        "var",
        "typo3temp",
        "generated",
        "__generated__",
        "build",
        "dist",
        # caches
        "cache",
        ".cache",
        "__pycache__",
        ".mypy_cache",
        ".pytest_cache",
    }
)
"""Folders whose files are never the project's own code, wherever they sit inside the root."""

_WINDOWS_ABS = re.compile(r"^[A-Za-z]:[\\/]")


@dataclass(frozen=True, slots=True)
class Anchor:
    """The label of one answer.

    Attributes:
        anchored: the cited frame exists and is the project's own code.
        frame: the cited frame, when the number names one that was sent.
        reason: one line saying why (shown next to the heading).
    """

    anchored: bool
    frame: SentFrame | None
    reason: str


def anchor(cited: int, payload: Payload, project_root: str | os.PathLike[str]) -> Anchor:
    """Label an answer that cites frame number ``cited`` of ``payload``."""
    sent = payload.frames
    if cited < 0:
        return Anchor(False, None, "the model cited no frame")
    if cited >= len(sent):
        count = f"only {len(sent)} frame{'s' if len(sent) != 1 else ''} were sent"
        return Anchor(False, None, f"the model cited frame #{cited}, but {count}")
    frame, origin = sent[cited], payload.origin[cited]
    where = frame.describe()
    if not origin.in_app:
        return Anchor(False, frame, f"{where} is not the project's code")
    if not origin.file or origin.file.startswith("<"):
        return Anchor(False, frame, f"{where} names no source file")
    inside = _inside_root(origin.file, os.fspath(project_root))
    if inside is None:
        return Anchor(False, frame, f"{where} lies outside the project root")
    excluded = next((part for part in inside if part in EXCLUDED_DIRS), None)
    if excluded is not None:
        return Anchor(False, frame, f"{where} lies under {excluded}/, which is not project code")
    return Anchor(True, frame, f"{where} is the project's own code")


def _inside_root(file: str, root: str) -> list[str] | None:
    """The folders of ``file`` below ``root`` (``None`` when it is outside the root).

    A relative path is taken as relative to the root, unless it climbs out with ``..``.
    """
    path = file.replace("\\", "/")
    if path.startswith("/") or _WINDOWS_ABS.match(path):
        norm_root = posixpath.normpath(root.replace("\\", "/"))
        candidates = {norm_root, posixpath.normpath(os.path.realpath(root).replace("\\", "/"))}
        norm = posixpath.normpath(path)
        for base in candidates:
            prefix = base.rstrip("/") + "/"
            if norm.startswith(prefix):
                return norm[len(prefix) :].split("/")[:-1]
        return None
    norm = posixpath.normpath(path)
    if norm == ".." or norm.startswith("../"):
        return None
    return norm.split("/")[:-1]
