"""Declared counts are checksums: a count the rows contradict is an error, never other data.

``name[N]`` says how many rows follow.  Too high, and a reader that trusted it
takes the next entry for a row; too low, and a row for an entry.  The error is
an :class:`eson.CountError` at the header line, naming the declared count and
the line that contradicts it, with ``declared``, ``actual`` and
``stray_line`` for code (a lenient reader or a repair prompt can use them).
"""

# No "from __future__ import annotations": msgspec resolves annotations at module scope.

import contextlib
import pickle
from typing import Any

import msgspec
import pytest
from pydantic import Field

import eson
import eson.msgspec as em

ROWS = "1\tread\ta.py\tx\ttrue\t1\n2\tedit\tb.py\ty\tfalse\t2\n3\ttest\tc.py\tz\ttrue\t3\n"
PLAN = "!eson/1\nfrom=planner\nto=worker\nkind=plan\nsteps[{n}]{{id,op,path,note,ok,score}}\n" + ROWS + "done=false\nretry=3\n"


def count_error(text: str, cls: Any = None) -> eson.CountError:
    with pytest.raises(eson.CountError) as info:
        eson.decode(text, type=cls)
    error = info.value
    assert isinstance(error, eson.DecodeError) and "\n" not in str(error)
    return error


def test_count_too_high_names_the_header_and_the_entry() -> None:
    """The issue's example: steps[4] over three rows; line 9 is the next entry."""
    error = count_error(PLAN.format(n=4))
    assert str(error) == "line 5: steps: declares 4 rows, but line 9 is the entry 'done=false'"
    assert (error.line, error.section, error.row, error.field) == (5, "steps", None, None)
    assert (error.declared, error.actual, error.stray_line) == (4, 3, 9)


def test_count_far_too_high_names_the_first_entry() -> None:
    error = count_error(PLAN.format(n=10))
    assert str(error) == "line 5: steps: declares 10 rows, but line 9 is the entry 'done=false'"
    assert (error.declared, error.actual, error.stray_line) == (10, 3, 9)


def test_count_too_low_names_the_first_row_left_over() -> None:
    error = count_error(PLAN.format(n=2))
    assert str(error) == (
        "line 5: steps: declares 2 rows, but 3 follow: line 8 is a row, not an entry "
        "('3\\ttest\\tc.py\\tz\\ttrue\\t3')"
    )
    assert (error.declared, error.actual, error.stray_line) == (2, 3, 8)


def test_count_higher_than_the_lines_left() -> None:
    error = count_error("!eson/1\nrows[5]{a,b}\n1\t2\n3\t4\n")
    assert str(error) == "line 2: rows: declares 5 rows, but only 2 lines follow"
    assert (error.declared, error.actual, error.stray_line) == (5, 2, None)
    huge = count_error("!eson/1\nrows[" + "9" * 5000 + "]{a}\n1\n")
    assert huge.declared is None and len(str(huge)) < 200
    assert "(5000 digits)" in str(huge)


def test_the_right_count_decodes() -> None:
    value = eson.decode(PLAN.format(n=3))
    assert len(value["steps"]) == 3 and value["done"] is False and value["retry"] == 3


@pytest.mark.parametrize(
    ("text", "message", "attributes"),
    [
        (
            "!eson/1\nxs[1]\n1\n2\n3\ny=1\n",
            "line 2: xs: declares 1 row, but 3 follow: line 4 is a row, not an entry ('2')",
            (1, 3, 4),
        ),
        (
            "!eson/1\nnotes[1]{text}\nhi\nthere\nretry=3\n",
            "line 2: notes: declares 1 row, but 2 follow: line 4 is a row, not an entry ('there')",
            (1, 2, 4),
        ),
        (
            "!eson/1\nr{a,b}\n1\t2\n3\t4\n",
            "line 2: r: is a single record, but line 4 is another row: '3\\t4'",
            (1, 2, 4),
        ),
        (
            "!eson/1\nrows[3]{a,b}\n1\t2\nnotes[1]\nhi\n",
            "line 2: rows: declares 3 rows, but line 4 is the entry 'notes[1]'",
            (3, 1, 4),
        ),
        (  # the swallowed entry's own rows run past the declared ones
            "!eson/1\nsteps[4]{a,b}\n1\t2\n3\t4\nxs[2]\n1\n2\n",
            "line 2: steps: declares 4 rows, but line 5 is the entry 'xs[2]'",
            (4, 2, 5),
        ),
        (
            "!eson/1\nnotes[3]{text}\nhi\ntags[2]\na\nb\n",
            "line 2: notes: declares 3 rows, but line 4 is the entry 'tags[2]'",
            (3, 1, 4),
        ),
        (
            "!eson/1\nempty[2]{}\n\nnext=1\n",
            "line 2: empty: declares 2 rows, but line 4 is the entry 'next=1'",
            (2, 1, 4),
        ),
    ],
)
def test_other_shapes(text: str, message: str, attributes: tuple[int, int, int]) -> None:
    error = count_error(text)
    assert str(error) == message
    assert (error.declared, error.actual, error.stray_line) == attributes


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # A malformed row that is no entry stays a row error.
        ("!eson/1\nrows[2]{a,b}\n1\t2\n3\n", "line 4: rows row 2: expected 2 cells, got 1"),
        # An entry-like row followed by rows is a malformed row, not a count.
        ("!eson/1\nrows[3]{a,b}\n1\t2\nx=1\n5\t6\n", "line 4: rows row 2: expected 2 cells, got 1"),
        # A blank line is not taken for a row.
        ("!eson/1\nrows[1]{a}\n1\n\n", "line 4: invalid entry ''"),
        # After a scalar there is no count to blame.
        ("!eson/1\na=1\nstray\n", "line 3: invalid entry 'stray'"),
        ("!eson/1\nr{a,b}\n", "line 2: r: is a single record, but no row follows its header"),
    ],
)
def test_what_is_not_a_count_error(text: str, message: str) -> None:
    with pytest.raises(eson.DecodeError) as info:
        eson.decode(text)
    assert type(info.value) is eson.DecodeError
    assert str(info.value) == message


def test_count_errors_pickle_with_their_attributes() -> None:
    error = count_error(PLAN.format(n=4))
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is eson.CountError and str(again) == str(error)
    assert (again.declared, again.actual, again.stray_line) == (4, 3, 9)


def test_typed_decoding_reports_the_same_count_errors() -> None:
    class Step(eson.Record):
        id: int
        op: str
        path: str
        note: str
        ok: bool
        score: float

    class Plan(eson.Message):
        from_: str = Field(alias="from")
        to: str
        kind: str
        steps: list[Step]
        done: bool
        retry: int

    for n in (2, 4, 10):
        typed = count_error(PLAN.format(n=n), Plan)
        assert str(typed) == str(count_error(PLAN.format(n=n)))
    assert len(eson.decode(PLAN.format(n=3), type=Plan).steps) == 3


# -- typed decoding: a one-column array that swallowed an entry of the schema ---------


class PNote(eson.Record):
    text: str


class PPlan(eson.Message):
    notes: list[PNote]
    tags: list[str] = []  # noqa: RUF012 (the framework copies defaults)
    retry: int | None = None


class MNote(em.Record):
    text: str


class MPlan(em.Message):
    notes: list[MNote]
    tags: list[str] = []  # noqa: RUF012
    retry: int | None = None


class MPlainNote(msgspec.Struct):
    text: str


class MPlainPlan(msgspec.Struct):
    notes: list[MPlainNote]
    tags: list[str] = []
    retry: int | None = None


PLANS = pytest.mark.parametrize("cls", [PPlan, MPlan, MPlainPlan], ids=["pydantic", "msgspec", "struct"])


@PLANS
def test_swallowed_entry_of_a_declared_field_is_a_count_error(cls: type) -> None:
    """The issue's example: notes[2] over one row, then retry=3."""
    text = "!eson/1\nnotes[2]{text}\nhi\nretry=3\n"
    # Untyped, the grammar allows the reading: the note 'retry=3' and no retry.
    assert eson.decode(text) == {"notes": [{"text": "hi"}, {"text": "retry=3"}]}
    error = count_error(text, cls)
    assert str(error) == (
        "line 2: notes: declares 2 rows, but line 4 is the entry 'retry=3' of the field "
        "'retry', which the document otherwise lacks"
    )
    assert (error.declared, error.actual, error.stray_line) == (2, 1, 4)
    result = eson.try_decode(text, type=cls)
    assert not result.ok and isinstance(result.error, eson.CountError)


@PLANS
@pytest.mark.parametrize(
    ("text", "stray"),
    [
        ("!eson/1\nnotes[1]{text}\nhi\ntags[3]\na\nb\nretry=3\n", 7),  # a scalar array
        ("!eson/1\nnotes[3]{text}\nhi\ntags[2]\na\nb\n", 4),  # an array head swallowed
        ("!eson/1\nnotes[3]{text}\nhi\nretry=3\ntags[0]\n", 4),  # two entries swallowed
        # Sections the schema does not declare count among the names seen, not
        # as the schema's (campaign seed 24001: the fast strict read skipped the check).
        ("!eson/1\nnotes[1]{text}\nhi\nx=1\ny[1]\nretry=3\n", 6),
        ("!eson/1\nnotes[1]{text}\nhi\nx[1]\n\ny[1]\nretry=3", 7),
    ],
)
def test_other_swallowed_entries(cls: type, text: str, stray: int) -> None:
    assert count_error(text, cls).stray_line == stray
    # Lenient reading and the stream say the same as strict reading.
    for read in (
        lambda: eson.decode(text, type=cls, strict=False),
        lambda: eson.StreamDecoder(cls, strict=True).feed(text, final=True),
        lambda: eson.StreamDecoder(cls).feed(text, final=True),
    ):
        with pytest.raises(eson.CountError) as caught:
            read()
        assert caught.value.stray_line == stray


@PLANS
@pytest.mark.parametrize(
    "text",
    [
        # The field is there: 'retry=3' is a note.
        "!eson/1\nnotes[2]{text}\nhi\nretry=3\nretry=4\n",
        # The rows after it are no entries: 'retry=3' is a note among notes.
        "!eson/1\nnotes[3]{text}\nhi\nretry=3\nbye\n",
        # A name the schema does not declare.
        "!eson/1\nnotes[2]{text}\nhi\nother=3\n",
    ],
)
def test_no_count_error_where_the_rows_are_rows(cls: type, text: str) -> None:
    plain = eson.decode(text)
    value = eson.decode(text, type=cls)
    assert [note.text for note in value.notes] == [row["text"] for row in plain["notes"]]


# -- issue 9: the stream and the reply reader say the same; feedback is bounded ----------


@PLANS
@pytest.mark.parametrize(
    "text",
    [
        "!eson/1\nnotes[2]{text}\nhi\nretry=3\n",
        "!eson/1\nnotes[1]{text}\nhi\ntags[3]\na\nb\nretry=3\n",
        "!eson/1\nnotes[3]{text}\nhi\ntags[2]\na\nb\n",
        "!eson/1\nnotes[3]{text}\nhi\nretry=3\ntags[0]\n",
    ],
)
def test_the_stream_and_parse_reply_report_the_same_count_error(cls: type, text: str) -> None:
    whole = count_error(text, cls)
    assert len(whole.feedback) <= 800 and "declares" in whole.feedback
    with pytest.raises(eson.CountError) as reply:
        eson.parse_reply(text, cls)
    assert str(reply.value) == str(whole)
    for strict in (True, False):
        decoder = eson.StreamDecoder(cls, strict=strict)
        with pytest.raises(eson.CountError) as streamed:
            for start in range(0, len(text), 3):
                decoder.feed(text[start : start + 3])
            decoder.close()
        assert str(streamed.value) == str(whole)
        assert streamed.value.stray_line == whole.stray_line


def test_a_record_array_changed_while_written_is_written_as_one_snapshot() -> None:
    """User code run while writing (here a key's __eq__) may empty the list being
    written: the declared count is still that of the rows written (it was 50 with
    2 rows before), so the text reads back, pure and accelerated alike."""
    from speedups_support import pure

    target: list[Any] = []

    class ClearingKey(str):
        __hash__ = str.__hash__

        def __eq__(self, other: object) -> bool:
            target.clear()
            return str.__eq__(self, other)

    class Row(eson.Record):
        a: int
        b: str

    class Doc(eson.Message):
        rows: list[Row]

    for context in (pure, contextlib.nullcontext):
        with context():
            doc = Doc(rows=[Row(a=i, b="x") for i in range(50)])
            target = doc.rows
            record = doc.rows[1]
            record.__dict__[ClearingKey("a")] = record.__dict__.pop("a")
            text = eson.encode(doc)
            back = eson.decode(text)
            assert text.startswith("!eson/1\nrows[50]{a,b}\n")
            assert len(back["rows"]) == 50
