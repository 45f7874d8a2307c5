"""File-not-found suggestions."""

from __future__ import annotations

from pathlib import Path

from hintline.agent import perhaps_you_meant, suggest_paths


class TestSuggest:
    def test_close_names_in_the_same_directory(self, tmp_path: Path) -> None:
        """A misspelt file name gives the close names of its directory."""
        for name in ("report.txt", "reports.txt", "unrelated.bin"):
            (tmp_path / name).write_text("")
        got = suggest_paths(tmp_path / "reprot.txt")
        assert str(tmp_path / "report.txt") in got
        assert str(tmp_path / "unrelated.bin") not in got

    def test_missing_directory_component_is_corrected(self, tmp_path: Path) -> None:
        """The first missing component is matched and the rest of the path kept."""
        (tmp_path / "utils").mkdir()
        assert suggest_paths(tmp_path / "utlis" / "io.py") == [str(tmp_path / "utils" / "io.py")]

    def test_sentence(self, tmp_path: Path) -> None:
        """perhaps_you_meant phrases one or several names, or returns None."""
        (tmp_path / "a_config.yaml").write_text("")
        assert perhaps_you_meant(tmp_path / "a_confg.yaml") == (
            f"Perhaps you meant '{tmp_path / 'a_config.yaml'}'?"
        )
        assert perhaps_you_meant(tmp_path / "zzzzzz") is None

    def test_hostile_input_does_not_raise(self) -> None:
        """Empty, NUL-containing and unreadable paths give no suggestion."""
        assert suggest_paths("") == []
        assert suggest_paths("a\x00b") == []
        assert isinstance(suggest_paths("/proc/self/fd/999/x"), list)
