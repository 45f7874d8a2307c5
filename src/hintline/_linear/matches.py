"""Matches in character offsets, for a pattern RE2 runs on UTF-8 bytes.

:class:`Piece` is the part of a text one search looks at, encoded for RE2: ``text[pos:endpos]``
with one character of context before it (what ``\\b`` and ``^`` look at, as Python's
``search(text, pos)`` does) and nothing after it (Python's ``endpos`` ends the text there).
It turns RE2's byte offsets back into character offsets, moving forward through the piece, so
that a caller walking its matches in order pays for each byte once.

:class:`LinearMatch` is what a search gives: the subset of :class:`re.Match` that callers use
(``span``/``start``/``end``/``group``/``groupdict``, by group number or name), with the same
offsets and strings as Python's match.
"""

from __future__ import annotations

from collections.abc import Mapping

from hintline import _lazyre as re  # patterns compiled on first use

__all__ = ["LinearMatch", "Piece"]

_SURROGATE = re.compile("[\ud800-\udfff]")


class LinearMatch:
    """One match: the spans of its groups in characters of ``string`` (``(-1, -1)`` for a
    group that did not take part), as :class:`re.Match` gives them.

    Args:
        string: the text searched.
        spans: per group number (0: the whole match), its span; or RE2's byte spans, with the
            ``piece`` that turns them into character spans when first asked for.
        names: group name -> group number.
        piece: the :class:`Piece` RE2 searched, for byte spans.
    """

    __slots__ = ("_names", "_piece", "_spans", "string")

    def __init__(
        self,
        string: str,
        spans: tuple[tuple[int, int], ...] | list[tuple[int, int]],
        names: Mapping[str, int],
        piece: Piece | None = None,
    ) -> None:
        self.string = string
        self._spans = spans
        self._names = names
        self._piece = piece

    def _index(self, group: int | str) -> int:
        if isinstance(group, str):
            try:
                return self._names[group]
            except KeyError:
                raise IndexError(f"no such group: {group!r}") from None
        if not 0 <= group < len(self._spans):
            raise IndexError(f"no such group: {group}")
        return group

    def span(self, group: int | str = 0) -> tuple[int, int]:
        """``(start, end)`` of ``group``, ``(-1, -1)`` if it did not take part."""
        index = self._index(group)
        if self._piece is not None:
            self._spans = self._piece.chars(self._spans)
            self._piece = None
        return self._spans[index]

    def start(self, group: int | str = 0) -> int:
        """Where ``group`` starts (``-1`` if it did not take part)."""
        return self.span(group)[0]

    def end(self, group: int | str = 0) -> int:
        """Where ``group`` ends (``-1`` if it did not take part)."""
        return self.span(group)[1]

    def group(self, group: int | str = 0) -> str | None:
        """The text of ``group``, ``None`` if it did not take part."""
        start, end = self.span(group)
        return None if start < 0 else self.string[start:end]

    def groupdict(self) -> dict[str, str | None]:
        """Every named group's text (``None``: did not take part)."""
        return {name: self.group(index) for name, index in self._names.items()}

    def __repr__(self) -> str:
        start, end = self.span()
        return f"<LinearMatch span=({start}, {end}) match={self.string[start:end]!r}>"


class Piece:
    """``text[pos:endpos]`` as UTF-8 for RE2, with the character before ``pos`` as context.

    ``data`` holds the bytes, ``first`` the byte offset of ``pos`` in them; :meth:`chars` turns
    RE2's byte spans back into character spans. A lone surrogate
    (not encodable) is given to RE2 as U+FFFD: one character either way, and neither is a word,
    space or digit character, so the pattern means the same; groups are cut from ``text``.
    """

    __slots__ = ("_byte", "_char", "ascii", "data", "first", "lo", "text")

    def __init__(self, text: str, pos: int, endpos: int) -> None:
        lo = pos - 1 if pos > 0 else 0
        piece = text[lo:endpos]
        try:
            data = piece.encode("utf-8")
        except UnicodeEncodeError:
            piece = _SURROGATE.sub("\ufffd", piece)
            data = piece.encode("utf-8")
        self.text = text
        self.lo = lo
        self.data = data
        self.ascii = len(data) == len(piece)
        self.first = 0 if pos == lo else (1 if self.ascii else len(piece[0].encode("utf-8")))
        self._byte = 0
        self._char = lo

    def char(self, offset: int) -> int:
        """The character offset in ``text`` of byte ``offset`` of ``data`` (a character
        boundary, as RE2's offsets are); cheap when offsets come in increasing order."""
        if self.ascii:
            return self.lo + offset
        if offset < self._byte:  # going back: count from the start again
            self._byte, self._char = 0, self.lo
        self._char += len(self.data[self._byte : offset].decode("utf-8", "replace"))
        self._byte = offset
        return self._char

    def chars(self, spans: tuple[tuple[int, int], ...] | list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
        """RE2's byte spans (of one match) as character spans of ``text``."""
        if self.ascii:
            lo = self.lo
            return tuple((-1, -1) if s < 0 else (lo + s, lo + e) for s, e in spans)
        # in increasing order, so that the forward walk of char() never goes back
        offsets = sorted({o for span in spans if span[0] >= 0 for o in span})
        where = {o: self.char(o) for o in offsets}
        return tuple((-1, -1) if s < 0 else (where[s], where[e]) for s, e in spans)
