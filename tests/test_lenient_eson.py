"""ESON lenient reading (``strict=False``): each repair, what is never repaired, the log."""

from __future__ import annotations

from typing import Literal

import msgspec
import pydantic
import pytest

import eson
import eson.msgspec
from eson import Repair


def lenient(text: str, **options: object) -> tuple[object, list[Repair]]:
    log: list[Repair] = []
    value = eson.decode(text, strict=False, repairs=log, **options)  # type: ignore[call-overload]
    return value, log


def kinds(log: list[Repair]) -> list[tuple[int, str]]:
    return [(repair.line, repair.kind) for repair in log]


# -- text repairs, untyped ------------------------------------------------------------

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


def test_canonical_text_needs_no_repair() -> None:
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


# -- never repaired -------------------------------------------------------------------


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


# -- partial data ---------------------------------------------------------------------


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


# -- typed repairs --------------------------------------------------------------------


class MFinding(eson.msgspec.Record):
    id: str
    severity: Literal["high", "low"]
    line: int
    note: str | None = None


class MReview(eson.msgspec.Message, number=True):
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


@pytest.mark.parametrize("model", [MReview, PReview])
def test_typed_repairs(model: type) -> None:
    log: list[Repair] = []
    value = eson.decode(TYPED, type=model, strict=False, repairs=log)
    dumped = msgspec.to_builtins(value) if isinstance(value, msgspec.Struct) else value.model_dump()
    assert dumped == {
        "kind": "12",
        "tags": ["1.50", "true"],
        "findings": [
            {"id": "12345", "severity": "high", "line": 3, "note": "false"},
            {"id": "-7", "severity": "low", "line": 4, "note": None},
        ],
    }
    assert kinds(log) == [
        (1, "missing-header"),
        (1, "number-as-text"),
        (3, "number-as-text"),
        (4, "boolean-as-text"),
        (5, "missing-n"),
        (6, "number-as-text"),
        (6, "boolean-as-text"),
        (7, "number-as-text"),
    ]
    assert log[2] == Repair(3, "number-as-text", "read the bare 1.50 as the text '1.50'", "tags", 1)
    with pytest.raises(eson.DecodeError):
        eson.decode(TYPED, type=model)
    with pytest.raises(eson.ValidationError):
        eson.decode("!eson/1\n" + TYPED, type=model)


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


@pytest.mark.parametrize("model", [MReview, PReview])
def test_typed_counts_and_n_stay_checked(model: type) -> None:
    with pytest.raises(eson.DecodeError, match="declares 3 rows"):
        eson.decode(
            "kind=x\ntags[0]\nfindings[3]{id,severity,line}\na\thigh\t1\n", type=model, strict=False
        )
    with pytest.raises(eson.DecodeError, match="reserved n"):
        eson.decode(
            "kind=x\ntags[0]\nfindings[2]{n,id,severity,line}\n1\ta\thigh\t1\n1\tb\tlow\t2\n",
            type=model,
            strict=False,
        )


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


def test_try_decode_results_carry_the_repairs() -> None:
    """Ok and Err hold the repairs of a lenient read (and the caller's list gets them too)."""
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


# -- stripping never makes a cell malformed (fuzz seed 4004, case 1512) -------------------


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
