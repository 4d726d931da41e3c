"""Pydantic rows built straight from their columns give exactly what validating their dicts gives.

A typed Pydantic decode may make the instances of a record array itself
(:mod:`eson._internal.schema.pydantic_rows`, the accelerator's ``build_models``) where
the core schemas show that validating the rows' dicts could give nothing
else.  Checked here, with hypothesis, against a zoo of record and document
models -- every kind of validator, aliases, ``extra``, ``strict``,
``context``, constraints, ``__init__``, ``model_post_init``, private
attributes, revalidation -- for valid and damaged rows, in ESON and TOON:

- the value equals ``model_validate`` of the untyped reading (with the same
  ``strict`` and ``context``), down to each row's ``__dict__`` (and its
  order), ``__pydantic_fields_set__``, ``__pydantic_extra__`` and
  ``__pydantic_private__``;
- a failure is the same :class:`eson.ValidationError`, every error's
  location and message included, as the dict path's (the same reader with
  no record builder), and its errors are Pydantic's (``loc`` and ``type``);
- the models the analysis accepts are exactly the expected ones, and for
  them the rows really are built (so the checks above test the new path).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from functools import partial
from typing import Annotated, Any, Literal
from unittest import mock

import pydantic
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from pydantic import (
    AfterValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationInfo,
    field_validator,
    model_validator,
)
from speedups_support import require_accelerator

import eson
import eson.toon
from eson._internal import accelerator
from eson._internal.codecs import eson_decode, toon_decode
from eson._internal.schema import document_schema
from eson._internal.schema.pydantic_binding import PydanticBinding
from eson._internal.schema.pydantic_rows import row_plan

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

Severity = Literal["high", "medium", "low"]

# -- records the rows may be built for ---------------------------------------------------


class Row(pydantic.BaseModel):
    id: int
    severity: Severity
    file: str
    line: int
    message: str
    score: float
    ok: bool


class RowAliased(pydantic.BaseModel):
    from_: str = Field(alias="from")
    count: int = Field(default=0, alias="n-items")
    size: float = 1.0


class RowForbid(pydantic.BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: int
    name: str


class RowAllow(pydantic.BaseModel):
    model_config = ConfigDict(extra="allow")
    id: int
    name: str


class RowStrict(pydantic.BaseModel):
    model_config = ConfigDict(strict=True, frozen=True)
    id: int
    name: str
    score: float
    ok: bool


class RowByName(pydantic.BaseModel):
    model_config = ConfigDict(validate_by_name=True)
    id: int = Field(alias="ident")
    name: str


class RowEson(eson.Record):
    id: int
    name: str


# -- records that keep the dict path ---------------------------------------------------


class RowFieldBefore(pydantic.BaseModel):
    id: int
    name: str

    @field_validator("name", mode="before")
    @classmethod
    def upper(cls, value: Any) -> Any:
        return value.upper() if isinstance(value, str) else value


class RowFieldAfter(pydantic.BaseModel):
    id: int
    name: str

    @field_validator("id")
    @classmethod
    def small(cls, value: int, info: ValidationInfo) -> int:
        limit = (info.context or {}).get("limit")
        if limit is not None and value > limit:
            raise ValueError(f"id above {limit}")
        return value


class RowFieldWrap(pydantic.BaseModel):
    id: int
    name: str

    @field_validator("name", mode="wrap")
    @classmethod
    def wrapped(cls, value: Any, handler: Callable[[Any], str]) -> str:
        return handler(value) + "!"


class RowModelBefore(pydantic.BaseModel):
    id: int
    name: str

    @model_validator(mode="before")
    @classmethod
    def seen(cls, data: Any) -> Any:
        if isinstance(data, dict):
            return {**data, "name": f"{type(data).__name__}:{data.get('name')}"}
        return data


class RowModelAfter(pydantic.BaseModel):
    id: int
    name: str

    @model_validator(mode="after")
    def positive(self) -> RowModelAfter:
        if self.id < 0:
            raise ValueError("negative id")
        return self


class RowModelWrap(pydantic.BaseModel):
    id: int
    name: str

    @model_validator(mode="wrap")
    @classmethod
    def wrapped(cls, data: Any, handler: Callable[[Any], RowModelWrap]) -> RowModelWrap:
        result = handler(data)
        result.name = result.name.strip()
        return result


class RowAnnotated(pydantic.BaseModel):
    id: Annotated[int, AfterValidator(lambda value: value * 2)]
    name: str


class RowConstrained(pydantic.BaseModel):
    id: Annotated[int, Field(ge=0)]
    name: Annotated[str, Field(max_length=5)]


class RowInit(pydantic.BaseModel):
    id: int
    name: str

    def __init__(self, **data: Any) -> None:
        data.setdefault("name", "")
        super().__init__(**data)


class RowPostInit(pydantic.BaseModel):
    id: int
    name: str

    def model_post_init(self, context: Any) -> None:
        self.name = self.name + "?"


class RowPrivate(pydantic.BaseModel):
    id: int
    name: str
    _seen: int = PrivateAttr(default=7)


class RowStrip(pydantic.BaseModel):
    model_config = ConfigDict(str_strip_whitespace=True)
    id: int
    name: str


class RowNoInf(pydantic.BaseModel):
    model_config = ConfigDict(allow_inf_nan=False)
    id: int
    score: float


class RowRevalidate(pydantic.BaseModel):
    model_config = ConfigDict(revalidate_instances="always")
    id: int
    name: str


class RowValidationAlias(pydantic.BaseModel):
    id: int = Field(validation_alias="ident", serialization_alias="id")
    name: str


class RowOptional(pydantic.BaseModel):
    id: int
    name: str | None


class RowNew(pydantic.BaseModel):
    id: int
    name: str

    def __new__(cls, *args: Any, **kwargs: Any) -> RowNew:
        return super().__new__(cls)


# -- documents -------------------------------------------------------------------------


def envelope(row: type[pydantic.BaseModel], name: str) -> type[pydantic.BaseModel]:
    """A plain document of one record array of ``row`` (and a scalar beside it)."""
    return pydantic.create_model(name, kind=(str, ...), rows=(list[row], []))  # type: ignore[call-overload, no-any-return]


class DocAfter(pydantic.BaseModel):
    kind: str
    rows: list[Row] = []

    @model_validator(mode="after")
    def limited(self, info: ValidationInfo) -> DocAfter:
        limit = (info.context or {}).get("max_rows")
        if limit is not None and len(self.rows) > limit:
            raise ValueError(f"more than {limit} rows")
        return self

    @field_validator("kind")
    @classmethod
    def known(cls, value: str, info: ValidationInfo) -> str:
        kinds = (info.context or {}).get("kinds")
        if kinds is not None and value not in kinds:
            raise ValueError("unknown kind")
        return value


class DocBefore(pydantic.BaseModel):
    kind: str
    rows: list[RowForbid] = []

    @model_validator(mode="before")
    @classmethod
    def seen(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("rows"):
            data = {**data, "kind": type(data["rows"][0]).__name__}
        return data


class DocWrap(pydantic.BaseModel):
    kind: str
    rows: list[RowForbid] = []

    @model_validator(mode="wrap")
    @classmethod
    def seen(cls, data: Any, handler: Callable[[Any], DocWrap]) -> DocWrap:
        kinds = [type(row).__name__ for row in data.get("rows", [])] if isinstance(data, dict) else []
        result = handler(data)
        result.kind = ",".join(sorted(set(kinds))) or result.kind
        return result


class DocFieldBefore(pydantic.BaseModel):
    kind: str
    rows: list[RowForbid] = []

    @field_validator("rows", mode="before")
    @classmethod
    def seen(cls, value: Any) -> Any:
        if isinstance(value, list):
            return [
                {**row, "name": f"{row.get('name')}+"} if isinstance(row, dict) else row
                for row in value
            ]
        return value


class DocInit(pydantic.BaseModel):
    kind: str
    rows: list[RowForbid] = []

    def __init__(self, **data: Any) -> None:
        rows = data.get("rows") or []
        data["kind"] = f"{data.get('kind')}/{len([row for row in rows if isinstance(row, dict)])}"
        super().__init__(**data)


class DocTuple(pydantic.BaseModel):
    kind: str
    rows: tuple[RowForbid, ...] = ()


class DocLimited(pydantic.BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    kind: str
    rows: Annotated[list[RowForbid], Field(max_length=3)] = []


class DocSingle(pydantic.BaseModel):
    kind: str
    one: RowForbid


#: (document, field, whether the analysis lets the rows be built)
CASES: list[tuple[type[pydantic.BaseModel], str, bool]] = [
    (envelope(Row, "DocRow"), "rows", True),
    (envelope(RowAliased, "DocAliased"), "rows", True),
    (envelope(RowForbid, "DocForbid"), "rows", True),
    (envelope(RowAllow, "DocAllow"), "rows", True),
    (envelope(RowStrict, "DocStrict"), "rows", True),
    (envelope(RowByName, "DocByName"), "rows", True),
    (envelope(RowEson, "DocEson"), "rows", True),
    (DocAfter, "rows", True),
    (DocLimited, "rows", True),
    (DocSingle, "one", True),
    (envelope(RowFieldBefore, "DocFieldBeforeRow"), "rows", False),
    (envelope(RowFieldAfter, "DocFieldAfterRow"), "rows", False),
    (envelope(RowFieldWrap, "DocFieldWrapRow"), "rows", False),
    (envelope(RowModelBefore, "DocModelBeforeRow"), "rows", False),
    (envelope(RowModelAfter, "DocModelAfterRow"), "rows", False),
    (envelope(RowModelWrap, "DocModelWrapRow"), "rows", False),
    (envelope(RowAnnotated, "DocAnnotated"), "rows", False),
    (envelope(RowConstrained, "DocConstrained"), "rows", False),
    (envelope(RowInit, "DocInitRow"), "rows", False),
    (envelope(RowPostInit, "DocPostInit"), "rows", False),
    (envelope(RowPrivate, "DocPrivate"), "rows", False),
    (envelope(RowStrip, "DocStrip"), "rows", False),
    (envelope(RowNoInf, "DocNoInf"), "rows", False),
    (envelope(RowRevalidate, "DocRevalidate"), "rows", False),
    (envelope(RowValidationAlias, "DocValidationAlias"), "rows", False),
    (envelope(RowOptional, "DocOptional"), "rows", False),
    (envelope(RowNew, "DocNew"), "rows", False),
    (DocBefore, "rows", False),
    (DocWrap, "rows", False),
    (DocFieldBefore, "rows", False),
    (DocInit, "rows", False),
    (DocTuple, "rows", False),
]
DOCUMENTS = [document for document, _, _ in CASES]


def _record_class(document: type[pydantic.BaseModel], attr: str) -> Any:
    schema = document_schema(document)
    item = next(item for item in schema.fields if item.attr == attr)
    assert item.record is not None
    return item.record


@pytest.mark.parametrize(("document", "attr", "built"), CASES, ids=lambda case: getattr(case, "__name__", str(case)))
def test_the_analysis_accepts_exactly_the_expected_models(
    document: type[pydantic.BaseModel], attr: str, built: bool
) -> None:
    record = _record_class(document, attr)
    plan = row_plan(document, attr, record.cls, [item.wire for item in record.fields])
    assert (plan is not None) is built
    if plan is not None:
        assert plan.names == tuple(record.cls.model_fields)
        assert plan.extra is (record.cls.model_config.get("extra") == "allow")


# -- values ----------------------------------------------------------------------------

TRICKY = ["", " padded ", "null", "true", "1", "-0", "a,b", 'q"uote', "tab\there", "caf\u00e9", "\U0001f600", "x: y"]
texts = st.sampled_from(TRICKY) | st.text(max_size=8)
floats = st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from([0.0, -0.0, 1.0, 2.5, 1e300])
integers = st.integers(-(2**70), 2**70)

#: Wrong or borderline values for any cell: each must behave as Pydantic says.
ODD = [None, "abc", "1", "", 1, 0, -3, 1.0, 1.5, True, False, [1], {"a": 1}, 2**80, "high", "HIGH"]


def _value(annotation: Any) -> st.SearchStrategy[Any]:
    origin = getattr(annotation, "__origin__", None)
    if annotation is bool:
        return st.booleans()
    if annotation is int:
        return integers
    if annotation is float:
        return floats | integers.filter(lambda value: abs(value) < 2**60)
    if annotation is str:
        return texts
    if origin is Annotated:
        return _value(annotation.__origin__)
    literal = getattr(annotation, "__args__", None)
    if literal and all(isinstance(value, str) for value in literal):
        return st.sampled_from(literal)
    return st.one_of(texts, st.none())


def _rows(record: Any) -> st.SearchStrategy[list[dict[str, Any]]]:
    fields = [item for item in record.fields if not item.output_only]
    wires = [item.wire for item in fields]
    # Keys in field order, as a dump writes them (another order is another layout).
    row = st.tuples(*(_value(item.annotation) for item in fields)).map(
        lambda values: dict(zip(wires, values))
    )
    return st.lists(row, min_size=1, max_size=6) | st.just([])


@st.composite
def document_data(
    draw: st.DrawFn, document: type[pydantic.BaseModel], attr: str
) -> dict[str, Any]:
    """Plain data for a document class whose record field is ``attr``, possibly damaged."""
    record = _record_class(document, attr)
    wire = document_schema(document).by_wire
    field_wire = next(name for name, item in wire.items() if item.attr == attr)
    rows = draw(_rows(record))
    single = attr == "one"
    if single:
        rows = rows[:1] or [draw(_rows(record).filter(bool))[0]]
    damage = draw(st.sampled_from(["none", "none", "none", "cell", "cell", "drop", "extra", "kind"]))
    if rows and damage == "cell":
        index = draw(st.integers(0, len(rows) - 1))
        key = draw(st.sampled_from(sorted(rows[index])))
        rows[index][key] = draw(st.sampled_from(ODD))
    elif rows and damage == "drop":
        key = draw(st.sampled_from(sorted(rows[0])))
        for row in rows:
            row.pop(key, None)
    elif rows and damage == "extra":
        for row in rows:
            row["surplus"] = draw(st.sampled_from([1, "x"]))
    data: dict[str, Any] = {"kind": draw(st.sampled_from(["review", 3])) if damage == "kind" else "review"}
    if single:
        data[field_wire] = rows[0]
    else:
        data[field_wire] = rows
    return data


options = st.tuples(
    st.sampled_from([None, True, False]),
    st.sampled_from([None, {"limit": 5}, {"max_rows": 2}, {"kinds": ["fix"]}]),
)

# -- the checks -------------------------------------------------------------------------


_BUILT_ROWS: list[int] = []  # the row count of each build_models call of the readers below


def _counting_build_models(
    cls: type, names: tuple[str, ...], columns: list[list[Any]], extra: bool
) -> list[Any]:
    assert accelerator.native is not None
    built = accelerator.native.build_models(cls, names, columns, extra)
    _BUILT_ROWS.append(len(built))
    return built


def _compiled(reader: Any) -> Any:
    if isinstance(reader, toon_decode.DocumentReader):
        reader._compile()  # a TOON reader compiles on first use
    return reader


@functools.cache
def readers(document: type[pydantic.BaseModel]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Readers of ``document`` with built rows (counted), and the dict path's (no builder)."""
    schema = document_schema(document)
    assert accelerator.native is not None
    with mock.patch.object(accelerator.native, "build_models", _counting_build_models):
        fast = {
            "eson": _compiled(eson_decode.DocumentReader(schema)),
            "toon": _compiled(toon_decode.DocumentReader(schema)),
        }
    with mock.patch.object(PydanticBinding, "record_builder", lambda self, *args, **kwargs: None):
        slow = {
            "eson": _compiled(eson_decode.DocumentReader(schema)),
            "toon": _compiled(toon_decode.DocumentReader(schema)),
        }
    return fast, slow


def _state(value: Any) -> Any:
    """An instance as data: its class, __dict__ items in order, fields set, extra and private."""
    if isinstance(value, pydantic.BaseModel):
        return (
            type(value),
            [(key, _state(item)) for key, item in vars(value).items()],
            value.__pydantic_fields_set__,
            value.__pydantic_extra__,
            value.__pydantic_private__,
        )
    if isinstance(value, list):
        return [_state(item) for item in value]
    if isinstance(value, float):
        return ("float", math.copysign(1.0, value), value)
    return (type(value), value)


def _outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "value", _state(call())
    except eson.ValidationError as exc:
        return "invalid", (str(exc), exc.line, exc.section, exc.row, exc.field, exc.errors)
    except Exception as exc:
        return "error", (type(exc), str(exc))


def check(
    document: type[pydantic.BaseModel], data: dict[str, Any], strict: bool | None, context: Any
) -> list[int]:
    """Compare the built-row readers with the dict path and ``model_validate``; return rows built."""
    fast, slow = readers(document)
    _BUILT_ROWS.clear()
    calls: list[int] = []
    texts = {"eson": eson.encode(data), "toon": eson.toon.encode(data)}
    for form, text in texts.items():
        plain = eson.decode(text) if form == "eson" else eson.toon.decode(text)
        reference = _outcome(partial(document.model_validate, plain, strict=strict, context=context))
        options = {"validation_strict": strict, "context": context}
        want = _outcome(partial(slow[form].decode, text, **options))
        got = _outcome(partial(fast[form].decode, text, **options))
        calls += _BUILT_ROWS
        _BUILT_ROWS.clear()
        if currently_in_test_context():
            event(f"{form}: {got[0]}")
        assert got == want, (form, text)
        if reference[0] == "value":
            assert got == reference, (form, text)
        else:
            assert got[0] == "invalid", (form, text, got)
            try:
                document.model_validate(plain, strict=strict, context=context)
            except pydantic.ValidationError as exc:
                expected = [(tuple(error["loc"]), error["type"]) for error in exc.errors()]
            assert [(tuple(error["loc"]), error["type"]) for error in got[1][5]] == expected
    if currently_in_test_context():
        event(f"rows built: {bool(calls)}")
    return calls


@pytest.mark.parametrize("case", CASES, ids=lambda case: case[0].__name__)
@SETTINGS
@given(st.data(), options)
def test_built_rows_equal_validated_dicts(
    case: tuple[type[pydantic.BaseModel], str, bool],
    draw: st.DataObject,
    option: tuple[bool | None, Any],
) -> None:
    require_accelerator()
    document, attr, _ = case
    check(document, draw.draw(document_data(document, attr)), *option)


@pytest.mark.parametrize(("document", "attr", "built"), CASES, ids=lambda case: getattr(case, "__name__", str(case)))
def test_rows_are_built_exactly_where_the_analysis_allows(
    document: type[pydantic.BaseModel], attr: str, built: bool
) -> None:
    require_accelerator()
    record = _record_class(document, attr)
    row = {item.wire: _example(item.annotation) for item in record.fields if not item.output_only}
    field_wire = next(item.wire for item in document_schema(document).fields if item.attr == attr)
    data = {"kind": "review", field_wire: row if attr == "one" else [row, dict(row)]}
    calls = check(document, data, None, None)
    # ESON and TOON each build every row once where allowed (a single
    # record is a table in ESON only; TOON writes it as an object).
    expected = ([1] if attr == "one" else [2, 2]) if built else []
    assert calls == expected


def _example(annotation: Any) -> Any:
    for kind, value in ((bool, True), (int, 7), (float, 2.5), (str, "text")):
        if annotation is kind:
            return value
    args = getattr(annotation, "__args__", None)
    if getattr(annotation, "__origin__", None) is Annotated:
        return _example(annotation.__origin__)
    if args and all(isinstance(value, str) for value in args):
        return args[0]
    return "text"


def test_a_float_column_holding_ints_is_built_with_the_floats_pydantic_gives() -> None:
    require_accelerator()
    document = DOCUMENTS[0]
    rows = [
        {"id": 1, "severity": "low", "file": "a", "line": 2, "message": "m", "score": score, "ok": False}
        for score in (0, 1, 2**60, 0.5)
    ]
    for strict in (None, True):
        calls = check(document, {"kind": "review", "rows": rows}, strict, None)
        assert calls == [4, 4]
        value = eson.decode(eson.encode({"kind": "review", "rows": rows}), type=document)
        assert [type(row.score) for row in value.rows] == [float] * 4  # type: ignore[attr-defined]


def test_an_error_beside_built_rows_shows_the_values_as_the_dict_path() -> None:
    require_accelerator()
    rows = [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}, {"id": 3, "name": "c"}, {"id": 4, "name": "d"}]
    calls = check(DocLimited, {"kind": "review", "rows": rows}, None, None)
    assert calls == [4, 4]  # built, then refused as a whole: too many rows
    with pytest.raises(eson.ValidationError) as caught:
        eson.decode(eson.encode({"kind": "review", "rows": rows}), type=DocLimited)
    assert caught.value.section == "rows"
    assert "RowForbid" not in str(caught.value)
