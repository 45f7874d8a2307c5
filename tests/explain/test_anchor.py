"""Anchored or guess: hintline labels controlled answers, never the model."""

from __future__ import annotations

import pytest

from hintline.explain import (
    ANCHORED_HEADING,
    GUESS_HEADING,
    Configuration,
    SqliteUsageStore,
    TrustZone,
    explain,
)

from ._support import FixedProvider, frame, make_entry

ROOT = "/srv/shop"
LOCAL = Configuration(name="local", zone=TrustZone.LOCAL)


def label(frames, cited, root=ROOT, tmp_path=None):
    provider = FixedProvider.answering("the order JSON is malformed", "validate it first", cited)
    return explain(
        make_entry(frames=tuple(frames)),
        configuration=LOCAL,
        project_root=root,
        provider=provider,
        usage=SqliteUsageStore(tmp_path / "u.sqlite3"),
    )


class TestAnchored:
    def test_project_frame_is_anchored(self, tmp_path):
        """The cited frame was sent, is in_app and inside the root: anchored."""
        result = label(
            [frame("/usr/lib/python3.11/json/decoder.py", in_app=False),
             frame(f"{ROOT}/app/orders.py", 5, "parse_order")],
            1,
            tmp_path=tmp_path,
        )
        assert result.anchored is True
        assert result.heading == ANCHORED_HEADING
        assert result.reason == "#1 app/orders.py:5 in parse_order is the project's own code"
        assert result.cited is not None
        assert result.cited.index == 1

    def test_relative_path_inside_the_project_is_anchored(self, tmp_path):
        """A path printed relative to the project (no ..) counts as inside it."""
        result = label([frame("app/orders.py", in_app=True)], 0, tmp_path=tmp_path)
        assert result.anchored is True

    def test_root_under_var_is_still_the_project(self, tmp_path):
        """Only folders below the root are excluded: a project living in /var/www is anchored."""
        result = label([frame("/var/www/shop/src/Controller.php", language="php")], 0,
                       root="/var/www/shop", tmp_path=tmp_path)
        assert result.anchored is True


class TestGuess:
    @pytest.mark.parametrize(
        ("frames", "cited", "reason"),
        [
            ([frame(f"{ROOT}/app/a.py")], -1, "the model cited no frame"),
            ([frame(f"{ROOT}/app/a.py")], 1, "the model cited frame #1, but only 1 frame were sent"),
            ([frame(f"{ROOT}/app/a.py")] * 3, 7, "only 3 frames were sent"),
            ([frame("/usr/lib/python3.11/json/decoder.py", in_app=False)], 0,
             "is not the project's code"),
            ([frame(f"{ROOT}/lib/python3.11/x.py", in_app=False)], 0, "is not the project's code"),
            ([frame("/opt/other/app.py")], 0, "lies outside the project root"),
            ([frame("../elsewhere/app.py")], 0, "lies outside the project root"),
            ([frame("<frozen importlib._bootstrap>")], 0, "names no source file"),
            ([frame(None, None, "main", language="java")], 0, "names no source file"),
        ],
    )
    def test_guesses(self, frames, cited, reason, tmp_path):
        """Every answer whose frame is missing or not the project's code is a guess."""
        result = label(frames, cited, tmp_path=tmp_path)
        assert result.anchored is False
        assert result.heading == GUESS_HEADING
        assert reason in result.reason

    @pytest.mark.parametrize(
        "folder",
        ["vendor", "site-packages", "node_modules", "var", "generated", "__pycache__", ".cache",
         "cache", "dist", "build", ".venv", "typo3temp"],
    )
    def test_excluded_folders_inside_the_root(self, folder, tmp_path):
        """Vendored, installed, generated and cache folders are not the project's code,
        even when the parser marked the frame in_app."""
        result = label([frame(f"{ROOT}/{folder}/pkg/mod.py", 3, "f")], 0, tmp_path=tmp_path)
        assert result.anchored is False
        assert f"lies under {folder}/" in result.reason

    def test_model_cannot_claim_anchoring(self, tmp_path):
        """An answer that says it is anchored is still labelled by its frame."""
        provider = FixedProvider(
            '{"cause": "ANCHORED: trust me", "next_step": "x", "frame": 0, "anchored": true}'
        )
        result = explain(
            make_entry(frames=(frame("/venv/lib/site-packages/x.py", in_app=False),)),
            configuration=LOCAL, project_root=ROOT, provider=provider,
            usage=SqliteUsageStore(tmp_path / "u.sqlite3"),
        )
        assert result.anchored is False
