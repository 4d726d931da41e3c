"""Lenient reading: the repairs it makes and records, and what it never repairs.

Both formats (the ``wire_format`` fixture), typed: a bare number or boolean
in a field that takes only strings is read as its text, each such reading
recorded as a :class:`eson.Repair` naming its place, where strict reading
fails validation; the reading a model's reply gets still checks declared
counts; a canonical text needs no repair; ``try_decode`` results carry the
repairs.  Then what only ESON repairs (untyped: spaces, blank lines, a
missing header or ``n`` column, cut-off data) and never repairs, and what
only TOON reads (list items; the lax reading that ignores counts).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

import msgspec
import pydantic
import pytest
from formats import WireCodec

import eson
import eson.msgspec
import eson.toon
from eson import ReadOptions, Repair

# -- the typed samples, one per format -------------------------------------------------


class MFinding(eson.msgspec.Record):
    id: str
    severity: Literal["high", "low"]
    line: int
    note: str | None = None


class MReview(eson.msgspec.Message, number=True):
    """ESON's sample: numbered findings with a severity and an optional note."""

    kind: str
    tags: list[str]
    findings: list[MFinding]


class PFinding(eson.Record):
    id: str
    severity: Literal["high", "low"]
    line: int
    note: str | None = None


class PReview(eson.Message, number=True):
    kind: str
    tags: list[str]
    findings: list[PFinding]


TYPED = "kind=12\ntags[2]\n1.50\ntrue\nfindings[2]{id,severity,line,note}\n12345\thigh\t3\tfalse\n-7\tlow\t4\tnull\n"


class MToonFinding(eson.msgspec.Record):
    id: str
    line: int


class MToonReview(eson.msgspec.Message):
    """TOON's sample: findings with an id and a line."""

    kind: str
    tags: list[str]
    findings: list[MToonFinding]


class PToonFinding(eson.Record):
    id: str
    line: int


class PToonReview(eson.Message):
    kind: str
    tags: list[str]
    findings: list[PToonFinding]


TABLE = "kind: 1.50\ntags[2]: 1,true\nfindings[2]{id,line}:\n  007,3\n  1e3,4\n"


@dataclasses.dataclass(frozen=True)
class Sample:
    """A format's typed text whose string fields hold bare numbers and booleans: what
    lenient reading gives (dumped), each repair as (line, kind, section, row, field),
    one repair in full (index, repair), a text strict reading reads whose values
    validation rejects, and texts with a wrong count (or ESON's n), with the message."""

    models: dict[str, type]
    text: str
    value: dict[str, Any]
    repairs: list[tuple[int, str, str | None, int | None, str | None]]
    one: tuple[int, Repair]
    valid_text: str
    miscounted: list[tuple[str, str]]


SAMPLES = {
    "eson": Sample(
        models={"msgspec": MReview, "pydantic": PReview},
        text=TYPED,
        value={
            "kind": "12",
            "tags": ["1.50", "true"],
            "findings": [
                {"id": "12345", "severity": "high", "line": 3, "note": "false"},
                {"id": "-7", "severity": "low", "line": 4, "note": None},
            ],
        },
        repairs=[
            (1, "missing-header", None, None, None),
            (1, "number-as-text", "kind", None, None),
            (3, "number-as-text", "tags", 1, None),
            (4, "boolean-as-text", "tags", 2, None),
            (5, "missing-n", "findings", None, None),
            (6, "number-as-text", "findings", 1, "id"),
            (6, "boolean-as-text", "findings", 1, "note"),
            (7, "number-as-text", "findings", 2, "id"),
        ],
        one=(2, Repair(3, "number-as-text", "read the bare 1.50 as the text '1.50'", "tags", 1)),
        valid_text="!eson/1\n" + TYPED,
        miscounted=[
            (TYPED.replace("findings[2]", "findings[3]"), "declares 3 rows"),
            ("kind=x\ntags[0]\nfindings[3]{id,severity,line}\na\thigh\t1\n", "declares 3 rows"),
            (
                "kind=x\ntags[0]\nfindings[2]{n,id,severity,line}\n1\ta\thigh\t1\n1\tb\tlow\t2\n",
                "reserved n",
            ),
        ],
    ),
    "toon": Sample(
        models={"msgspec": MToonReview, "pydantic": PToonReview},
        text=TABLE,
        value={
            "kind": "1.50",  # the token, not str(1.5)
            "tags": ["1", "true"],
            "findings": [{"id": "007", "line": 3}, {"id": "1e3", "line": 4}],
        },
        repairs=[
            (1, "number-as-text", "kind", None, None),
            (2, "number-as-text", "tags", 1, None),
            (2, "boolean-as-text", "tags", 2, None),
            (5, "number-as-text", "findings", 2, "id"),
        ],
        one=(0, Repair(1, "number-as-text", "read the bare 1.50 as the text '1.50'", "kind")),
        valid_text=TABLE,
        miscounted=[(TABLE.replace("[2]{", "[3]{"), "declares 3 rows")],
    ),
}

LENIENT = ReadOptions(mode="lenient")


@pytest.fixture
def sample(wire_format: WireCodec) -> Sample:
    return SAMPLES[wire_format.name]


@pytest.fixture(params=["msgspec", "pydantic"])
def model(sample: Sample, request: pytest.FixtureRequest) -> type:
    return sample.models[request.param]


def dump(value: object) -> object:
    if isinstance(value, msgspec.Struct):
        return msgspec.to_builtins(value)
    return value.model_dump()  # type: ignore[attr-defined]


# -- both formats: the typed rule -------------------------------------------------------


def test_typed_repairs(wire_format: WireCodec, sample: Sample, model: type) -> None:
    """Bare numbers and booleans in string fields are read as their texts, each
    reading recorded where it was made; strict reading refuses the text."""
    log: list[Repair] = []
    value = wire_format.decode(sample.text, type=model, strict=False, repairs=log)
    assert dump(value) == sample.value
    assert [(r.line, r.kind, r.section, r.row, r.field) for r in log] == sample.repairs
    index, repair = sample.one
    assert log[index] == repair
    with pytest.raises(eson.DecodeError):
        wire_format.decode(sample.text, type=model)
    with pytest.raises(eson.ValidationError):
        wire_format.decode(sample.valid_text, type=model)


def test_typed_counts_stay_checked(wire_format: WireCodec, sample: Sample, model: type) -> None:
    """The reading a reply gets (the typed reader, lenient) repairs the text but
    refuses a wrong count (and ESON's broken n), called directly or by decode."""
    reader = wire_format.reader_for(model)
    log: list[Repair] = []
    value = reader.decode(sample.text, LENIENT, log)
    assert dump(value) == sample.value and len(log) == len(sample.repairs)
    for text, message in sample.miscounted:
        with pytest.raises(wire_format.error, match=message):
            reader.decode(text, LENIENT, [])
        with pytest.raises(wire_format.error, match=message):
            wire_format.decode(text, type=model, **wire_format.lenient)


def test_canonical_text_needs_no_repair(wire_format: WireCodec, sample: Sample, model: type) -> None:
    """What the encoder writes is read leniently as strictly, typed and untyped, with no repair."""
    value = wire_format.decode(sample.text, type=model, strict=False)
    text = wire_format.encode(value)
    log: list[Repair] = []
    assert wire_format.decode(text, type=model, strict=False, repairs=log) == value
    assert log == []
    assert wire_format.decode(text, strict=False, repairs=log) == wire_format.decode(text)
    assert log == []


def test_try_decode_results_carry_the_repairs(wire_format: WireCodec, sample: Sample, model: type) -> None:
    """An Ok holds the repairs of a typed lenient read (the caller's list gets them
    too); a strict read's result holds none."""
    log: list[Repair] = []
    result = wire_format.try_decode(sample.text, type=model, strict=False, repairs=log)
    assert result.ok
    assert result.value == wire_format.decode(sample.text, type=model, strict=False)
    assert result.repairs == tuple(log) and len(log) == len(sample.repairs)
    strict = wire_format.try_decode(sample.text, type=model)
    assert not strict.ok and strict.repairs == ()


# -- TOON only ------------------------------------------------------------------------------

LIST = "kind: x\ntags[0]:\nfindings[2]:\n  - id: 5\n    line: 3\n  - id: -0\n    line: 4\n"


@pytest.mark.parametrize("model", [MToonReview, PToonReview])
def test_toon_list_items_too(model: type) -> None:
    """Records written as list items get the rule too, each repair naming its row."""
    log: list[Repair] = []
    value = eson.toon.Decoder(model, strict=False).decode(LIST, repairs=log)
    assert dump(value)["findings"] == [{"id": "5", "line": 3}, {"id": "-0", "line": 4}]  # type: ignore[index]
    assert [(r.line, r.row) for r in log] == [(4, 1), (6, 2)]


@pytest.mark.parametrize("model", [MToonReview, PToonReview])
def test_toon_lax_reading_ignores_the_count(model: type) -> None:
    """TOON's strict=False is the spec's lax reading: unlike the lenient one, it
    reads a table whose declared count is wrong."""
    miscounted = TABLE.replace("[2]{", "[3]{")
    assert len(eson.toon.decode(miscounted, type=model, strict=False).findings) == 2


# -- ESON only: untyped text repairs --------------------------------------------------------


def lenient(text: str, **options: object) -> tuple[object, list[Repair]]:
    log: list[Repair] = []
    value = eson.decode(text, strict=False, repairs=log, **options)  # type: ignore[call-overload]
    return value, log


def kinds(log: list[Repair]) -> list[tuple[int, str]]:
    return [(repair.line, repair.kind) for repair in log]


CLEAN = "!eson/1\nkind=review\nfindings[2]{n,severity,file}\n1\thigh\ta.py\n2\tlow\tb.py\n"
CLEAN_VALUE = eson.decode(CLEAN)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "!eson/1  \nkind=review\nfindings[2]{n,severity,file}\n1\thigh\ta.py\n2\tlow\tb.py\n",
            [(1, "line-end-space")],
        ),
        (
            "!eson/1\nkind=review\nfindings[2]{n,severity,file} \t\n1\thigh\ta.py\n2\tlow\tb.py\n",
            [(3, "line-end-space")],
        ),
        (
            "!eson/1\nkind = review\nfindings[2]{n,severity,file}\n1\thigh\ta.py\n2\tlow\tb.py\n",
            [(2, "equals-space")],
        ),
        (
            "!eson/1\nkind =review\nfindings[2]{n,severity,file}\n1\thigh\ta.py\n2\tlow\tb.py\n",
            [(2, "equals-space")],
        ),
        (
            "!eson/1\n\nkind=review\n   \nfindings[2]{n,severity,file}\n1\thigh\ta.py\n2\tlow\tb.py\n\n",
            [(2, "blank-line"), (4, "blank-line"), (8, "blank-line")],
        ),
        (
            "!eson/1\nkind=review\nfindings[2]{n, severity,  file}\n1\thigh\ta.py\n2\tlow\tb.py\n",
            [(3, "field-list-space")],
        ),
        (
            # cells strict reading refuses: the reserved n, a JSON cell and white space
            # JSON does not allow (the NBSP)
            '!eson/1\nkind=review\nfindings[2]{n,severity,file}\n1 \t"high"\u00a0\ta.py\n 2\tlow\tb.py\n',
            [(4, "cell-space"), (4, "cell-space"), (5, "cell-space")],
        ),
        (
            "!eson/1\r\nkind = review \r\n\r\nfindings[2]{n, severity, file} \r\n1 \thigh\ta.py\r\n2\tlow\tb.py",
            [
                (2, "line-end-space"),
                (2, "equals-space"),
                (3, "blank-line"),
                (4, "line-end-space"),
                (4, "field-list-space"),
                (5, "cell-space"),
            ],
        ),
    ],
)
def test_each_text_repair_gives_the_clean_value(text: str, expected: list[tuple[int, str]]) -> None:
    value, log = lenient(text)
    assert value == CLEAN_VALUE
    assert sorted(kinds(log)) == sorted(expected)
    # strict reading is unchanged: it fails, or keeps the white space as data
    strict = eson.try_decode(text)
    assert not strict.ok or strict.value != CLEAN_VALUE


def test_repairs_name_the_place() -> None:
    _, log = lenient('!eson/1\nfindings[1]{file,line}\n"a.py"\u00a0\t3\n')
    assert log == [
        Repair(3, "cell-space", "removed white space around the cell", "findings", 1, "file")
    ]
    assert str(log[0]) == "line 3: findings row 1 (file): removed white space around the cell"


def test_a_canonical_untyped_text_needs_no_repair() -> None:
    """CLEAN is read leniently as strictly, with no repair."""
    value, log = lenient(CLEAN)
    assert value == CLEAN_VALUE and log == []


def test_an_empty_record_row_is_a_row_not_a_blank_line() -> None:
    text = "!eson/1\nmeta{}\n\nnext=1\n"
    assert lenient(text) == (eson.decode(text), [])
    value, log = lenient("!eson/1\nmeta{}\n  \nnext=1\n")
    assert value == {"meta": {}, "next": 1}
    assert kinds(log) == [(3, "cell-space")]


def test_untyped_lenient_reading_still_needs_the_header() -> None:
    with pytest.raises(eson.DecodeError, match="expected the header"):
        eson.decode("kind=review\n", strict=False)


def test_strict_must_be_a_bool() -> None:
    with pytest.raises(TypeError, match="strict"):
        eson.decode(CLEAN, strict="false")  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="partial"):
        eson.decode(CLEAN, strict=False, partial=1)  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="needs strict=False"):
        eson.decode(CLEAN, partial=True)


# -- ESON only: never repaired ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # a count that disagrees with the rows: a checksum, never repaired (W4)
        ("!eson/1\nrows[3]{a}\n1\n2\n", "declares 3 rows, but only 2 lines follow"),
        ("!eson/1\nrows[1]{a,b}\n1\t2\n3\t4\n", "declares 1 row, but 2 follow"),
        # a blank line inside rows is a row
            ("!eson/1\nrows[2]{a}\n1\n\n2\n", "declares 2 rows, but 3 follow"),
        # a broken n sequence
        ("!eson/1\nrows[2]{n,a}\n1\tx\n3\ty\n", "reserved n is '3', expected 2"),
        ("!eson/1\nrows[2]{n,a}\n2\tx\n1\ty\n", "reserved n is '2', expected 1"),
        # cell counts, and a TAB at a line end (TAB is structure, not slack)
        ("!eson/1\nrows[1]{a,b}\n1\t2\t3\n", "expected 2 cells, got 3"),
        ("!eson/1\nrows[1]{a,b}\n1\t2\t\n", "expected 2 cells, got 3"),
        ("!eson/1\nrows[1]{a,b}\n1 2\n", "expected 2 cells, got 1"),
        # spaces anywhere else in a head, quoting, names, versions
        ("!eson/1\nrows[1]{ a,b}\n1\t2\n", "invalid field name"),
        ("!eson/1\nrows [1]{a}\n1\n", "invalid entry"),
        ("!eson/1\nmy kind=x\n", "invalid entry"),
        ('!eson/1\nnote="unterminated\n', "in cell"),
        ("!eson/2\nkind=x\n", "unsupported version"),
        (" !eson/1\nkind=x\n", "expected the header"),
    ],
)
def test_never_repaired(text: str, message: str) -> None:
    with pytest.raises(eson.DecodeError, match=message):
        eson.decode(text, strict=False)


# -- ESON only: partial data, and try_decode untyped -----------------------------------


def test_partial_keeps_the_rows_present_and_records_it() -> None:
    text = "!eson/1\nkind=review\nfindings[4]{n,file}\n1\ta.py\n2\tb.py\n3\tc.p"
    with pytest.raises(eson.DecodeError, match="declares 4 rows"):
        eson.decode(text, strict=False)
    value, log = lenient(text, partial=True)
    # the unterminated last line may be cut ("c.p" for "c.py"): it is dropped
    assert value == {
        "kind": "review",
        "findings": [{"n": 1, "file": "a.py"}, {"n": 2, "file": "b.py"}],
    }
    assert kinds(log) == [(3, "rows-missing")]
    assert "2 of the 4 declared rows" in log[0].detail
    value, log = lenient(text + "y\n", partial=True)
    assert len(value["findings"]) == 3  # type: ignore[index]


def test_partial_never_accepts_a_wrong_count_inside_the_text() -> None:
    with pytest.raises(eson.DecodeError):
        eson.decode("!eson/1\nrows[3]{n,a}\n1\tx\n2\ty\nnext=1\n", strict=False, partial=True)
    with pytest.raises(eson.DecodeError, match="reserved n"):
        eson.decode("!eson/1\nrows[9]{n,a}\n1\tx\n3\ty\n", strict=False, partial=True)


def test_untyped_try_decode_results_carry_the_repairs() -> None:
    """Ok and Err hold the repairs of an untyped lenient read, an Err those made before
    the failure (and the caller's list gets them too)."""
    text = "!eson/1\nkind = review \nrows[1]{a, b}\n1\t2\n"
    log: list[eson.Repair] = []
    result = eson.try_decode(text, strict=False, repairs=log)
    assert result.ok and result.value == {"kind": "review", "rows": [{"a": 1, "b": 2}]}
    assert [repair.kind for repair in result.repairs] == [repair.kind for repair in log]
    assert {repair.line for repair in result.repairs} == {2, 3}
    canonical = "!eson/1\nkind=review\nrows[1]{a,b}\n1\t2\n"
    assert eson.try_decode(canonical, strict=False).repairs == ()
    failed = eson.try_decode(text + "rows2[2]{a}\n1\n", strict=False)
    assert not failed.ok and isinstance(failed.error, eson.CountError)
    assert [repair.line for repair in failed.repairs][:1] == [2]
    assert eson.try_decode("!eson/1\nkind=x\n").repairs == ()

# -- ESON only: typed -----------------------------------------------------------------------


@pytest.mark.parametrize("model", [MReview, PReview])
def test_typed_never_reads_null_or_numbers_elsewhere_as_text(model: type) -> None:
    # null in a required str field stays null (and fails validation)
    with pytest.raises(eson.ValidationError, match="kind"):
        eson.decode("kind=null\ntags[0]\nfindings[0]{id,severity,line}\n", type=model, strict=False)
    # a number in an int field, and a string in a str field, stay as they are
    log: list[Repair] = []
    value = eson.decode(
        "kind=x\ntags[1]\nabc\nfindings[1]{id,severity,line}\nq\thigh\t12\n",
        type=model,
        strict=False,
        repairs=log,
    )
    assert value.findings[0].line == 12 and value.tags == ["abc"]  # type: ignore[attr-defined]
    assert kinds(log) == [(1, "missing-header"), (4, "missing-n")]


def test_a_prose_first_line_is_not_taken_for_a_missing_header() -> None:
    with pytest.raises(eson.DecodeError, match="expected the header"):
        eson.decode("Here is the review:\nkind=x\n", type=MReview, strict=False)


def test_repairs_are_kept_per_call_under_threads() -> None:
    from concurrent.futures import ThreadPoolExecutor

    texts = [
        f"!eson/1\nkind=x\ntags[0]{'  ' * (index % 3)}\nfindings[0]{{id,severity,line}}\n"
        for index in range(60)
    ]

    def run(text: str) -> int:
        log: list[Repair] = []
        eson.decode(text, type=MReview, strict=False, repairs=log)
        return len(log)

    with ThreadPoolExecutor(4) as pool:
        counts = list(pool.map(run, texts))
    # each call sees its own repairs: the missing-n one, plus one when spaces end line 3
    assert counts == [1 + (index % 3 != 0) for index in range(60)]


def test_pydantic_field_rejects_numbers_strictly_without_the_repair() -> None:
    # the repair is ours, not Pydantic's coercion: strict reading rejects it
    with pytest.raises(eson.ValidationError, match="expected str"):
        eson.decode("!eson/1\nkind=12\ntags[0]\nfindings[0]{id,severity,line}\n", type=PReview)
    assert pydantic.VERSION


# -- ESON only: stripping never makes a cell malformed (fuzz seed 4004, case 1512) ---------


class _Cells(pydantic.BaseModel):
    e: str
    s: str


@pytest.mark.parametrize(
    "text",
    [
        '!eson/1\nr[1]{e,s}\n "\t 1e999\n',
        '!eson/1\nr[2]\n "\n [\n',
        '!eson/1\ne= "\ns=1e999 \n',
    ],
)
def test_lenient_keeps_a_cell_that_stripping_would_make_malformed(text: str) -> None:
    strict = eson.decode(text)
    log: list[Repair] = []
    assert eson.decode(text, strict=False, repairs=log) == strict
    assert log == []  # nothing was stripped, nothing is recorded
    stream = eson.StreamDecoder(None, format="eson", strict=False)
    stream.feed(text)
    assert stream.close() == strict
    assert stream.repairs == []


def test_lenient_strips_only_a_cell_strict_reading_refuses() -> None:
    # ' "x" ' is a bare string to strict reading: lenient reading keeps it
    # (issue 17 item 8); '"x"\u00a0' is malformed JSON strictly, "x" stripped.
    text = '!eson/1\nr[1]{e,s}\n "x" \t"x"\u00a0\n'
    log: list[Repair] = []
    assert eson.decode(text, strict=False, repairs=log) == {"r": [{"e": ' "x" ', "s": "x"}]}
    assert [(repair.kind, repair.field) for repair in log] == [("cell-space", "s")]
    typed: list[Repair] = []
    value = eson.decode(
        "!eson/1\ne= \"\ns= \"x\"\n", type=_Cells, strict=False, repairs=typed
    )
    assert value == _Cells(e=' "', s=' "x"')
    assert typed == []


class _Numbers(pydantic.BaseModel):
    a: int
    b: int = 0


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("!eson/1\na= 1\n", {"a": " 1"}),
        ("!eson/1\na=1 \n", {"a": "1 "}),
        ("!eson/1\na=\u00a01\n", {"a": "\u00a01"}),
        ("!eson/1\nr[1]{x,y}\n 1\t2 \n", {"r": [{"x": " 1", "y": "2 "}]}),
        ("!eson/1\nxs[2]\n 1\n true \n", {"xs": [" 1", " true "]}),
    ],
)
def test_a_cell_strict_reading_accepts_has_that_one_reading_leniently(
    text: str, value: object
) -> None:
    assert eson.decode(text) == value
    log: list[Repair] = []
    assert eson.decode(text, strict=False, repairs=log) == value
    assert log == []
    assert eson.parse_reply(text) == value
    stream = eson.StreamDecoder(None, strict=False)
    stream.feed(text)
    assert stream.close() == value
    assert stream.repairs == []


class _MNumbers(msgspec.Struct):
    a: int


@pytest.mark.parametrize("model", [_Numbers, _MNumbers])
def test_a_typed_field_validates_the_one_reading(model: type) -> None:
    # ' 1' is text to both readings: the framework validates that text alike
    # (Pydantic's lax mode takes it as 1, msgspec refuses it), no repair is
    # made, and only a line strict reading refuses ('a = 1') is repaired.
    text = "!eson/1\na= 1\n"
    try:
        expected: object = eson.decode(text, type=model)
    except eson.ValidationError as exc:
        expected = str(exc)
    log: list[Repair] = []
    try:
        got: object = eson.decode(text, type=model, strict=False, repairs=log)
    except eson.ValidationError as exc:
        got = str(exc)
    assert got == expected and log == []
    assert eson.decode("!eson/1\na = 1\n", type=model, strict=False) == model(a=1)
