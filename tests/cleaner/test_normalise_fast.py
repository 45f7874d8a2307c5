"""normalise()'s fast paths answer exactly as the slow ones (differential tests).

* The prefix cut and the dedent run as whole-text regex passes; the oracle is their former
  line-by-line form (``_reference_normalise``).
* Plain text (nothing to normalise) is returned as the same object by a few character checks;
  the oracle is the full path, ``_normalise(text, 0)``, which must give back an equal text.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from hintline.cleaner import normalise as norm
from tests.cleaner import _reference_normalise as ref

# Line prefixes of every kind normalise cuts, and near misses of them.
_PREFIX_PIECES = [
    "2026-12-01T10:00:03.404Z ",
    "2026-12-01T10:00:03.404Z stdout F ",
    "2026-12-01T10:00:03.404Z stderr P ",
    "[2026-12-01 10:00:03] ",
    "2026-12-01 10:00:03,404: ",
    "2026-12-01 10:00:03\t",
    "<13>1 2026-12-01T10:00:03Z web01 app[42]: ",
    "<13>2026-12-01T10:00:03Z web01 app: ",
    "Dec  1 10:00:03 web01 sshd[812]: ",
    "Dec  1 10:00:03 web01 kernel: ",
    "2026-12-01T10:00:03Z web01 app[42]: ",
    "2026-12-01T10:00:03Z web01 kernel: ",
    "2026-12-01T10:00:03Z web02 kernel: ",
    "2026-12-01T10:00:03Z web01 ERROR: ",
    "web-1  | ",
    "web-1 |",
    "E   ",
    "E",
    "    ",
    "  ",
    "\t",
    "",
    "2026-12-01 ",
    "Dec 1 ",
    "| ",
    "\u0662\u0660\u0662\u0666-12-01 10:00:03 ",  # Arabic-Indic digits are \\d too
    "[2026-12-01 10:00:03 ",
    "Jan 1 10:00:03 h p: ",
]
_BODIES = [
    "Traceback (most recent call last):",
    '  File "app.py", line 3, in <module>',
    "psycopg.errors.UniqueViolation: duplicate key value violates unique constraint",
    "INFO app: started",
    "ERROR app: failed",
    "E",
    "Error: boom",
    "a | b",
    "",
    " ",
    "\x0c",
    "\x0b ",
    "\xa0",
    "\u2028x",
    "\x1c",
    "   indented",
    "\u0662 x",
    "[x",
    "<b>",
    "Jx",
    "web-2  | up",
]

_lines = st.tuples(st.sampled_from(_PREFIX_PIECES), st.sampled_from(_BODIES)).map("".join)
_texts = st.lists(_lines, min_size=1, max_size=8).map("\n".join)
_mixed = st.one_of(
    _texts,
    _texts.map(lambda t: t + "\n"),
    _texts.map(lambda t: "\n" + t),
    st.text(alphabet=st.sampled_from(list("E 2026-12-01T:0Z|\n\t\x0cwebk[]<>1.a")), max_size=80),
)


@settings(max_examples=3000, deadline=None)
@given(_mixed)
def test_prefix_cut_is_the_line_by_line_cut(text: str) -> None:
    assert norm._cut_prefixes(text) == ref.cut_prefixes(text)


@settings(max_examples=1500, deadline=None)
@given(_mixed)
def test_dedent_is_the_line_by_line_dedent(text: str) -> None:
    assert norm._dedent(text) == ref.dedent(text)


def test_prefix_cut_on_every_shape() -> None:
    """Each prefix on every line is cut, a prefix missing on one line (the 2nd, the last) is
    not, whitespace-only lines become empty."""
    body = ["Traceback (most recent call last):", '  File "a.py", line 1', "ValueError: x"]
    for piece in _PREFIX_PIECES:
        every = "\n".join(piece + line for line in body)
        assert norm._cut_prefixes(every) == ref.cut_prefixes(every), piece
        for missing in range(len(body)):
            some = "\n".join(line if n == missing else piece + line for n, line in enumerate(body))
            assert norm._cut_prefixes(some) == ref.cut_prefixes(some), (piece, missing)
        blanks = "\n".join([piece + body[0], " \t", "", piece + body[2], "\x0c"])
        assert norm._cut_prefixes(blanks) == ref.cut_prefixes(blanks), piece


_WRAPPED = [
    '{"levelname": "ERROR", "message": "psycopg.errors.UniqueViolation: duplicate key\\nDETAIL:  x"}',
    '{"level": "info", "msg": "row imported"}',
    '"a JSON string: \\"quoted\\""',
    "<html><head><title>502 Bad Gateway</title></head><body><pre>x &amp; y</pre></body></html>",
    "line one\r\nline two\r\n",
    "2026-12-01T10:00:03.404Z Traceback (most recent call last):\n2026-12-01T10:00:03.404Z ValueError: x",
    "E   assert 1 == 2\nE    +  where 1 = f()",
    "    indented\n    block",
    "{not json",
    "{",
    "[1, 2",
    "Dec  1 10:00:03 web01 sshd[812]: error: x",
    "web-1  | Error: boom",
    "plain &amp; text",
    "a \\n escaped \\n text \\\"q\\\"",
]


def test_memo_answers_as_the_full_path() -> None:
    """A text normalised again (the same object, or an equal copy) gives what the full path
    gives; a text the full path returns as is comes back as the caller's own object."""
    norm.clear_memo()
    for text in _WRAPPED:
        expected = norm._normalise(text, 0)
        for attempt in (text, "".join(list(text)), text):
            got = norm.normalise(attempt)
            assert got == expected, text
            assert (got is attempt) == (expected is text), text
    norm.clear_memo()
    assert norm._MEMO == {}


def test_memo_is_emptied_by_caches_clear() -> None:
    from hintline.cleaner import caches

    norm.normalise(_WRAPPED[0])
    assert norm._MEMO
    caches.clear()
    assert norm._MEMO == {}


_PLAIN_LINES = [
    "psycopg.errors.ForeignKeyViolation: insert or update on table \"orders\" violates",
    "DETAIL:  Key (user_id)=(999) is not present in table \"users\".",
    "Traceback (most recent call last):",
    '  File "/srv/app.py", line 199, in <module>',
    "\tat org.mariadb.jdbc.ClientPreparedStatement.executeInternal(ClientPreparedStatement.java:94)",
    "Exception in thread \"main\" java.sql.SQLIntegrityConstraintViolationException: x",
    "error: strconv.Atoi: parsing \"12a\": invalid syntax",
    "Error: ENOENT: no such file or directory, open '/etc/x.json'",
    "Caused by: java.lang.IllegalStateException: boom <init>",
    "x" * 600,
]
# Near misses: each is something normalise acts on, or almost; put anywhere in a plain text.
_NEAR = [
    "\r", "\r\n", "\x1b[31m", "\\n", '\\"', "\\", "&amp;", "&#x27;", "& ", "{", "[", '"', "<",
    "<pre>", "<br>", "</div>", "<!DOCTYPE html>", "<module>", "|", "web-1  | ", "E   ", "E",
    "2026-12-01T10:00:03Z ", "Dec  1 10:00:03 h p: ", "    ", "\t", "\ufeff", "\n", " ",
]


@st.composite
def _near_plain(draw: st.DrawFn) -> str:
    lines = draw(st.lists(st.sampled_from(_PLAIN_LINES), min_size=1, max_size=5))
    text = "\n".join(lines)
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(_NEAR)) + text[at:]
    return text


@settings(max_examples=4000, deadline=None)
@given(_near_plain())
def test_plain_fast_path_answers_as_the_full_path(text: str) -> None:
    """Text the character checks call plain is what the full path leaves as it is; a near miss
    (a lone CR late, an escape, an entity, a tag, a prefix on one line only, a brace not at
    the start) is normalised as the full path does."""
    norm.clear_memo()
    assert norm.normalise(text) == norm._normalise(text, 0)


def test_plain_inputs_take_the_fast_path() -> None:
    """The plain inputs of the speed rows (real captures) are returned as the same object by
    the character checks, and locate() reads them as one block: the pipeline's no-op."""
    from hintline.cleaner.locate import locate

    fixtures = Path(__file__).resolve().parent.parent / "rules" / "fixtures"
    short = (fixtures / "db" / "pg-psycopg-fk-insert.txt").read_text(encoding="utf-8")
    for text in (
        (fixtures / "native" / "go_atoi.txt").read_text(encoding="utf-8"),
        short[short.rindex("\npsycopg") + 1 :],
        short,
        (fixtures / "db" / "mariadb-jdbc-fk-insert.txt").read_text(encoding="utf-8"),
    ):
        assert norm.normalise(text) is text
        assert locate(text) is None
        assert norm.normalise_and_locate(text) is None


@settings(max_examples=2000, deadline=None)
@given(_mixed)
def test_first_line_is_the_first_non_blank_line(text: str) -> None:
    assert norm._first_line(text) == next((line for line in text.split("\n") if line.strip()), "")


# Starts of a log, a test report or a PHP error (what locate() reads), and near misses of them.
_OPENINGS = [
    "", "TRACE x", "Traceback (most recent call last):", "Tue, 01 Dec 2026 10:00:00 +0000 x",
    "Thu ", "ERROR app: boom", "Exception in thread", "E1202 02:16:48.123456 12345 f.cc:42] x",
    "E20261202 02:16:48.123456 12345 f.cc:42] x", "E ", "E", "Error: x", "EMERG x", "[error] x",
    "level=error msg=x", "time=2026-12-01T10:00:00Z level=info x", "ts=1 x", "PHP Warning:  x",
    "Fatal error: x", "Warning: x", "Notice: x", "= test session starts =", "=",
    "\nFatal error: x", "\n", "Dec  1 10:00:03 web01 sshd[812]: error: x", "Decimal x",
    "2026-12-01 10:00:00 INFO x", "12 ERROR x", "WARN x", "W", "Wx", "I1202", "INFO", "x",
    "<html><body>x</body></html>", "<module>", "  <br>", "\ufeff<pre>x</pre>", "{", "[x", '"x"',
]


@st.composite
def _fronts(draw: st.DrawFn) -> str:
    return draw(st.sampled_from(_OPENINGS)) + draw(st.one_of(st.just(""), _near_plain()))


@settings(max_examples=4000, deadline=None)
@given(_fronts())
def test_front_answers_as_normalise_then_locate(text: str) -> None:
    """clean()'s front, one call, answers as normalise() then locate() on what it gives; it
    says "nothing to do" (None) only for a text both leave as it is."""
    from hintline.cleaner.locate import locate

    def seen(located: object) -> object:
        if located is None:
            return None
        return (located.block, located.rest, located.message, located.failure, located.log)  # type: ignore[attr-defined]

    norm.clear_memo()
    expected_text = norm.normalise(text)
    expected = (expected_text, seen(locate(expected_text)))
    front = norm.normalise_and_locate(text)
    if front is None:
        assert expected_text is text
        assert expected[1] is None
    else:
        assert (front[0], seen(front[1])) == expected


def test_text_opening_with_words_is_not_a_page() -> None:
    """Markup quoted by an error that opens with words is read as it is (not stripped as a
    page's tags): a trace's <module>, a template error's '<b>', React's nesting warning."""
    from hintline.cleaner._html import is_html

    trace = (
        "Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n"
        "    render()\njinja2.exceptions.TemplateSyntaxError: unexpected '<b>' in template\n"
    )
    react = "Warning: validateDOMNesting(...): <div> cannot appear as a descendant of <p>."
    for text in (trace, react):
        assert not is_html(text)
        assert norm.normalise(text) == text
    for page in (
        "<html><body><p>Error<br>KeyError: &#x27;user_id&#x27;</p></body></html>",
        "  \n<!DOCTYPE html><html><title>502 Bad Gateway</title></html>",
        "\ufeff<pre>x</pre>",
        '<?xml version="1.0"?>\n<!DOCTYPE html>\n<html><body>x</body></html>',
    ):
        assert is_html(page), page
