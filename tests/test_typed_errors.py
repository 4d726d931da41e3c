"""Typed errors: where they point (line, section, row, field) and what they are."""

# No "from __future__ import annotations": msgspec resolves annotations at module scope.

import contextlib
import math
import pickle
from typing import Annotated, Any, Literal

import msgspec
import pydantic
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ConfigDict, Field, field_validator

import eson
import eson.msgspec as em


class PFinding(eson.Record):
    id: int
    severity: Literal["high", "medium", "low"]
    file: str
    line: int
    message: str
    score: float
    ok: bool


class PReview(eson.Message):
    model_config = ConfigDict(extra="forbid")

    from_: str = Field(alias="from")
    to: str
    kind: str
    id: str
    note: str = ""
    summary: str = ""
    findings: list[PFinding] = []  # noqa: RUF012 (the framework copies defaults)


class MFinding(em.Record):
    id: int
    severity: Literal["high", "medium", "low"]
    file: str
    line: int
    message: str
    score: float
    ok: bool


class MReview(em.Message, rename={"from_": "from"}, forbid_unknown_fields=True):
    from_: str
    to: str
    kind: str
    id: str
    note: str = ""
    summary: str = ""
    findings: list[MFinding] = []  # noqa: RUF012 (the framework copies defaults)


ROWS = "\n".join(f"{i}\thigh\tsrc/a.py\t{10 * i}\tbad thing\t0.5\ttrue" for i in range(1, 6))
TEXT = (
    "!eson/1\nfrom=reviewer\nto=fixer\nkind=code_review\nid=r-1\nnote=x\nsummary=y\n"
    f"findings[5]{{id,severity,file,line,message,score,ok}}\n{ROWS}\n"
)
BOTH = pytest.mark.parametrize("cls", [PReview, MReview], ids=["pydantic", "msgspec"])


def error_of(cls: type[Any], text: str) -> eson.ESONError:
    with pytest.raises(eson.ESONError) as info:
        eson.decode(text, type=cls)
    return info.value


@BOTH
def test_the_text_decodes(cls: type[Any]) -> None:
    review = eson.decode(TEXT, type=cls)
    assert review.findings[3].line == 40
    assert eson.encode(review) == TEXT


@BOTH
def test_bad_cell_names_line_section_row_and_field(cls: type[Any]) -> None:
    error = error_of(cls, TEXT.replace("src/a.py\t40", "src/a.py\tabc"))
    assert isinstance(error, eson.ValidationError)
    assert str(error) == 'line 12: findings row 4 (line): expected int, got "abc"'
    assert (error.line, error.section, error.row, error.field) == (12, "findings", 4, "line")
    assert error.reason == 'expected int, got "abc"'
    [detail] = error.errors
    assert detail["loc"] == ("findings", 3, "line")
    assert (detail["line"], detail["row"], detail["field"]) == (12, 4, "line")


def test_literal_message_pydantic() -> None:
    error = error_of(PReview, TEXT.replace("\thigh\t", "\turgent\t", 1))
    assert str(error) == "line 9: findings row 1 (severity): expected 'high', 'medium' or 'low', got \"urgent\""


def test_literal_message_msgspec() -> None:
    error = error_of(MReview, TEXT.replace("\thigh\t", "\turgent\t", 1))
    assert str(error) == "line 9: findings row 1 (severity): invalid enum value 'urgent'"


@BOTH
def test_several_problems_are_all_listed(cls: type[Any]) -> None:
    text = TEXT.replace("\thigh\t", "\turgent\t", 1).replace("src/a.py\t40", "src/a.py\tabc")
    error = error_of(cls, text)
    assert isinstance(error, eson.ValidationError)
    assert error.line == 9
    if cls is PReview:  # pydantic reports every problem; msgspec stops at the first
        assert str(error).endswith("(and 1 more)")
        assert [(item["line"], item["field"]) for item in error.errors] == [(9, "severity"), (12, "line")]


@BOTH
def test_missing_top_level_field(cls: type[Any]) -> None:
    error = error_of(cls, TEXT.replace("kind=code_review\n", ""))
    assert str(error) == "kind: missing required field"
    assert (error.line, error.section, error.row) == (None, "kind", None)


@BOTH
def test_unknown_top_level_field_is_forbidden(cls: type[Any]) -> None:
    error = error_of(cls, TEXT.replace("note=x", "bogus=1"))
    assert str(error) == "line 6: bogus: unknown field (extra fields are forbidden)"


@BOTH
def test_missing_column(cls: type[Any]) -> None:
    text = TEXT.replace("{id,severity,file,line,message,score,ok}", "{id,severity,file,message,score,ok}")
    for number in range(1, 6):
        text = text.replace(f"\t{10 * number}\t", "\t")
    error = error_of(cls, text)
    assert str(error).startswith("line 9: findings row 1 (line): missing required field")


@BOTH
def test_unknown_column_is_forbidden_in_records(cls: type[Any]) -> None:
    class_name = "PStrictRows" if cls is PReview else "MStrictRows"
    strict = {"PStrictRows": PStrictRows, "MStrictRows": MStrictRows}[class_name]
    error = error_of(strict, "!eson/1\nrows[2]{a,extra}\n1\tx\n2\ty\n")
    assert str(error).startswith("line 3: rows row 1 (extra): unknown field")


class PStrictRow(pydantic.BaseModel):
    model_config = ConfigDict(extra="forbid")
    a: int


class PStrictRows(pydantic.BaseModel):
    rows: list[PStrictRow]


class MStrictRow(msgspec.Struct, forbid_unknown_fields=True):
    a: int


class MStrictRows(msgspec.Struct):
    rows: list[MStrictRow]


@BOTH
def test_wire_errors_are_decode_errors_with_lines(cls: type[Any]) -> None:
    cases = {
        TEXT.replace("findings[5]", "findings[6]"): "line 8: findings: declares 6 rows, but only 5 lines follow",
        TEXT.replace("1\thigh", "1\thigh\textra"): "line 9: findings row 1: expected 7 cells, got 8",
        TEXT.replace("\t0.5\t", "\t[1,\t", 1): "line 9: findings row 1 (score): malformed JSON (Expecting value at column 4) in cell '[1,'",
        TEXT.replace("\t0.5\t", "\t1e999\t", 1): "line 9: findings row 1 (score): number 1e999 is not finite",
        TEXT.replace("!eson/1", "!eson/2"): "line 1: unsupported version header '!eson/2'; this decoder reads !eson/1",
    }
    for text, message in cases.items():
        error = error_of(cls, text)
        assert type(error) is (eson.CountError if "declares" in message else eson.DecodeError)
        assert str(error) == message
        assert str(error) == str(_untyped_error(text))


def _untyped_error(text: str) -> eson.ESONError:
    with pytest.raises(eson.ESONError) as info:
        eson.decode(text)
    return info.value


@BOTH
def test_reserved_n_is_checked(cls: type[Any]) -> None:
    numbered = TEXT.replace("{id,", "{n,id,")
    rows = TEXT.split("\n")[8:13]
    for index, row in enumerate(rows):
        numbered = numbered.replace(row + "\n", f"{index + 1}\t{row}\n", 1)
    review = eson.decode(numbered, type=cls)
    assert [finding.line for finding in review.findings] == [10, 20, 30, 40, 50]
    swapped = numbered.replace("\n2\t2\t", "\n9\t2\t")
    error = error_of(cls, swapped)
    assert type(error) is eson.DecodeError
    assert (error.line, error.row, error.field) == (10, 2, "n")
    assert "rows were dropped, duplicated or reordered" in str(error)


def test_validator_messages_are_located() -> None:
    error = error_of(PChecked, "!eson/1\nitems[2]{name,size}\nok\t1\nhas space\t2\n")
    assert str(error) == 'line 4: items row 2 (name): value error, no spaces allowed, got "has space"'
    error = error_of(PChecked, "!eson/1\nitems[1]{name,size}\nok\t0\n")
    assert str(error) == "line 3: items row 1 (size): input should be greater than 0, got 0"


def test_post_init_and_meta_messages_are_located() -> None:
    error = error_of(MChecked, "!eson/1\nitems[2]{low,high}\n1\t2\n3\t2\n")
    assert str(error) == "line 4: items row 2: low must not exceed high"
    error = error_of(MChecked, "!eson/1\nitems[1]{low,high}\n-1\t2\n")
    assert str(error) == "line 3: items row 1 (low): expected int >= 0, got -1"


class PCheckedRow(pydantic.BaseModel):
    name: str
    size: Annotated[int, Field(gt=0)]

    @field_validator("name")
    @classmethod
    def no_spaces(cls, value: str) -> str:
        if " " in value:
            raise ValueError("no spaces allowed")
        return value


class PChecked(pydantic.BaseModel):
    items: list[PCheckedRow]


class MCheckedRow(msgspec.Struct):
    low: Annotated[int, msgspec.Meta(ge=0)]
    high: int

    def __post_init__(self) -> None:
        if self.low > self.high:
            raise ValueError("low must not exceed high")


class MChecked(msgspec.Struct):
    items: list[MCheckedRow]


@BOTH
def test_scalar_and_single_record_locations(cls: type[Any]) -> None:
    error = error_of(cls, TEXT.replace("id=r-1", "id=42"))
    assert (error.line, error.section, error.row, error.field) == (5, "id", None, None)
    assert str(error).startswith("line 5: id: expected str")


def test_single_record_location() -> None:
    error = error_of(PMetaDoc, "!eson/1\nmeta{a,b}\n1\tx\n")
    assert str(error) == 'line 3: meta (b): expected int, got "x"'
    error = error_of(MMetaDoc, "!eson/1\nmeta{a,b}\n1\tx\n")
    assert str(error) == 'line 3: meta (b): expected int, got "x"'


class PMeta(pydantic.BaseModel):
    a: int
    b: int


class PMetaDoc(pydantic.BaseModel):
    meta: PMeta


class MMeta(msgspec.Struct):
    a: int
    b: int


class MMetaDoc(msgspec.Struct):
    meta: MMeta


def test_error_hierarchy() -> None:
    assert issubclass(eson.ValidationError, eson.DecodeError)
    assert issubclass(eson.DecodeError, eson.ESONError)
    assert issubclass(eson.EncodeError, eson.ESONError)
    assert issubclass(eson.ESONError, ValueError)


def test_validation_error_keeps_the_framework_error_as_cause() -> None:
    error = error_of(PReview, TEXT.replace("src/a.py\t40", "src/a.py\tabc"))
    assert isinstance(error.__cause__, pydantic.ValidationError)
    error = error_of(MReview, TEXT.replace("src/a.py\t40", "src/a.py\tabc"))
    assert isinstance(error.__cause__, msgspec.ValidationError)


def test_errors_pickle() -> None:
    error = error_of(PReview, TEXT.replace("src/a.py\t40", "src/a.py\tabc"))
    again = pickle.loads(pickle.dumps(error))
    assert str(again) == str(error)
    assert again.line == 12


@BOTH
def test_bytes_input_and_bad_utf8(cls: type[Any]) -> None:
    assert eson.decode(TEXT.encode(), type=cls) == eson.decode(TEXT, type=cls)
    error = error_of(cls, TEXT.encode().replace(b"bad thing", b"bad \xff thing"))
    assert type(error) is eson.DecodeError
    assert error.line == 9


@BOTH
def test_try_decode_reports_instead_of_raising(cls: type[Any]) -> None:
    result = eson.try_decode(TEXT.replace("src/a.py\t40", "src/a.py\tabc"), type=cls)
    assert not result.ok and result.value is None
    assert isinstance(result.error, eson.ValidationError)
    good = eson.try_decode(TEXT, type=cls)
    assert good.ok and isinstance(good.value, cls) and good.error is None


# -- encode errors ------------------------------------------------------------------------------


@BOTH
def test_non_finite_float_names_row_and_field(cls: type[Any]) -> None:
    review = eson.decode(TEXT, type=cls)
    review.findings[1].score = math.inf
    with pytest.raises(eson.EncodeError) as info:
        eson.encode(review)
    assert str(info.value) == "findings row 2 (score): non-finite number inf cannot be encoded"


def test_big_integer_inside_a_json_cell() -> None:
    class Holder(eson.Record):
        data: list[int]

    class Doc(eson.Message):
        rows: list[Holder]

    with pytest.raises(eson.EncodeError, match=r"rows row 2 \(data\): integer 9007199254740993"):
        eson.encode(Doc(rows=[Holder(data=[1]), Holder(data=[2**53 + 1])]))


def test_framework_conversion_failures_become_encode_errors() -> None:
    class Blob(eson.Message):
        raw: bytes
        rows: list[PBlobRow] = []  # noqa: RUF012 (the framework copies defaults)

    with pytest.raises(eson.EncodeError, match="raw: cannot convert value: UnicodeDecodeError") as info:
        eson.encode(Blob(raw=b"\xff"))
    assert isinstance(info.value.__cause__, UnicodeDecodeError)
    with pytest.raises(eson.EncodeError, match=r"rows \(raw\): cannot convert value"):
        eson.encode(Blob(raw=b"x", rows=[PBlobRow(raw=b"\xfe")]))


class PBlobRow(pydantic.BaseModel):
    raw: bytes


# -- hostile text never escapes the hierarchy ----------------------------------------------------

TOKENS = [
    "!eson/1",
    "\n",
    "\t",
    "findings",
    "[2]",
    "[0]",
    "{id,severity,file,line,message,score,ok}",
    "{n,id}",
    "{}",
    "=",
    "1",
    "-1",
    "1.5",
    "1e999",
    "high",
    "null",
    "true",
    '"x"',
    "[1,2]",
    '{"a":',
    "from",
    "kind",
    "id",
    "\r\n",
    "\ufeff",
    "\u2028",
    "9" * 30,
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TOKENS), max_size=40), st.sampled_from([PReview, MReview, PChecked, MChecked, PMetaDoc, MMetaDoc]))
def test_hostile_text_raises_only_eson_errors(tokens: list[str], cls: type[Any]) -> None:
    text = "".join(tokens)
    for data in (text, "!eson/1\n" + text):
        with contextlib.suppress(eson.ESONError):  # anything else fails the test
            eson.decode(data, type=cls)


class PInner(pydantic.BaseModel):
    a: list[int]


class PNestedRow(pydantic.BaseModel):
    x: int
    nested: PInner


class PNestedDoc(pydantic.BaseModel):
    rows: list[PNestedRow]


class MInner(msgspec.Struct):
    a: list[int]


class MNestedRow(msgspec.Struct):
    x: int
    nested: MInner


class MNestedDoc(msgspec.Struct):
    rows: list[MNestedRow]


@pytest.mark.parametrize("cls", [PNestedDoc, MNestedDoc], ids=["pydantic", "msgspec"])
def test_errors_inside_json_cells_show_the_inner_path(cls: type[Any]) -> None:
    error = error_of(cls, '!eson/1\nrows[2]{x,nested}\n1\t{"a":[]}\n2\t{"a":[1,"q"]}\n')
    assert str(error) == 'line 4: rows row 2 (nested): at a[1]: expected int, got "q"'
    error = error_of(cls, '!eson/1\nrows[1]{x,nested}\n1\t{"b":1}\n')
    assert str(error) == "line 3: rows row 1 (nested): missing required field 'a'"
