"""Typed TOON is the fast path of untyped TOON, never a different dialect.

Over the model zoo of ``test_typed_equivalence`` (imported, not copied) plus
models with the shapes only TOON nests -- nested records, lists of records
holding records and lists, ``dict[str, R]``, recursive types -- checked with
hypothesis for both frameworks, every delimiter and several indent sizes:

- typed encode is byte-equal to ``eson.toon.encode`` of the JSON-mode dump
  (``model_dump(mode="json", by_alias=True)`` / ``msgspec.to_builtins``)
  with the same options, or both fail;
- typed decode equals validating the untyped ``eson.toon.decode`` result
  (``model_validate`` / ``msgspec.convert``), or both fail -- with the same
  ``TOONError`` for bad text, and a ``ValidationError`` where the framework
  rejects the values;
- the same holds for damaged text (tokens swapped, lines dropped, doubled,
  re-indented, commented, counts changed), where typed decoding never
  raises anything but ``ESONError``;
- the template fast path, when it reads a text at all, reads what the
  untyped parser reads.
"""

from __future__ import annotations

import datetime as dt
import uuid
import warnings
from collections.abc import Callable
from typing import Any, Literal

import msgspec
import pydantic
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import Field
from speedups_support import same_value
from test_typed_equivalence import (
    SETTINGS,
    WRONG_VALUES,
    Color,
    DataDoc,
    DataRow,
    MCell,
    MCheckedDoc,
    MCheckedRow,
    MEnvelope,
    MNested,
    MNestedChild,
    MOmit,
    MOmitDoc,
    MTagged,
    MTaggedDoc,
    MUnset,
    MUnsetDoc,
    MWide,
    PAllowDoc,
    PBase64,
    PCell,
    PChecked,
    PCheckedDoc,
    PCheckedRow,
    PComputed,
    PComputedDoc,
    PDataRow,
    PEnvelope,
    PNested,
    PStrict,
    PWide,
    PWithDataclass,
    build,
    dump,
    envelope_data,
    floats,
    integers,
    msgspec_cells,
    pydantic_cells,
    texts,
    validate,
    wide_data,
)

import eson
from eson import toon
from eson._internal.codecs.toon_decode import MismatchError
from eson._internal.codecs.toon_typed import reader_for
from eson._internal.wire.toon_parser import Positions, decode_text
from eson._internal.wire.toon_quoting import parse_primitive

# -- models with the shapes TOON nests ---------------------------------------------------

Status = Literal["new", "paid", "null", "a,b"]


class PCustomer(pydantic.BaseModel):
    id: int
    name: str
    email: str | None = None


class PItem(pydantic.BaseModel):
    sku: str
    qty: int
    price: float
    tags: list[str] | None = None


class POrder(pydantic.BaseModel):
    id: int
    status: Status
    customer: PCustomer | None
    items: list[PItem] = []
    total: float = 0.0
    when: dt.datetime | None = None
    color: Color = Color.RED


class PLine(pydantic.BaseModel):
    id: int
    who: PCustomer
    note: str = ""


class PPair(pydantic.BaseModel):
    left: PCustomer
    right: PCustomer


class PTree(pydantic.BaseModel):
    label: str
    children: list[PTree] = []


class PEmptyRow(pydantic.BaseModel):
    pass


class PShop(pydantic.BaseModel):
    name: str = Field(alias="shop-name")
    orders: list[POrder] = []
    lines: list[PLine] = []
    by_code: dict[str, PCustomer] = {}
    pair: PPair | None = None
    tree: PTree | None = None
    empties: list[PEmptyRow] = []
    meta: dict[str, int] = {}
    grid: list[list[int]] = []
    scores: list[float] = []
    main: PCustomer | None = None


class PTwoRecords(pydantic.BaseModel):
    """Every field may be a non-empty object: the root itself may be a keyed table."""

    first: PCustomer | None = None
    second: PCustomer | None = None


class MCustomer(msgspec.Struct):
    id: int
    name: str
    email: str | None = None


class MItem(msgspec.Struct):
    sku: str
    qty: int
    price: float
    tags: list[str] | None = None


class MOrder(msgspec.Struct):
    id: int
    status: Status
    customer: MCustomer | None
    items: list[MItem] = []
    total: float = 0.0
    when: dt.datetime | None = None
    color: Color = Color.RED


class MLine(msgspec.Struct):
    id: int
    who: MCustomer
    note: str = ""


class MPair(msgspec.Struct):
    left: MCustomer
    right: MCustomer


class MTree(msgspec.Struct):
    label: str
    children: list[MTree] = []


class MEmptyRow(msgspec.Struct):
    pass


class MShop(msgspec.Struct, rename={"name": "shop-name"}):
    name: str
    orders: list[MOrder] = []
    lines: list[MLine] = []
    by_code: dict[str, MCustomer] = {}
    pair: MPair | None = None
    tree: MTree | None = None
    empties: list[MEmptyRow] = []
    meta: dict[str, int] = {}
    grid: list[list[int]] = []
    scores: list[float] = []
    main: MCustomer | None = None


class MTwoRecords(msgspec.Struct):
    first: MCustomer | None = None
    second: MCustomer | None = None


# -- strategies ---------------------------------------------------------------------------

OPTIONS = st.tuples(st.sampled_from([",", "\t", "|"]), st.sampled_from([2, 2, 1, 4]))
keys = st.one_of(st.sampled_from(["a", "b c", "", "1", "x:y", "k"]), texts)
customers = st.fixed_dictionaries(
    {"id": st.integers(-5, 10**6), "name": texts}, optional={"email": st.none() | texts}
)
items = st.fixed_dictionaries(
    {"sku": texts, "qty": integers, "price": floats},
    optional={"tags": st.none() | st.lists(texts, max_size=2)},
)
datetimes = st.datetimes(min_value=dt.datetime(1990, 1, 1), max_value=dt.datetime(2100, 1, 1))
orders = st.fixed_dictionaries(
    {
        "id": integers,
        "status": st.sampled_from(["new", "paid", "null", "a,b"]),
        "customer": st.none() | customers,
    },
    optional={
        "items": st.lists(items, max_size=4),
        "total": floats,
        "when": st.none() | datetimes,
        "color": st.sampled_from(Color),
    },
)
lines = st.fixed_dictionaries({"id": st.integers(), "who": customers}, optional={"note": texts})
trees: st.SearchStrategy[dict[str, Any]] = st.recursive(
    st.fixed_dictionaries({"label": texts}),
    lambda inner: st.fixed_dictionaries({"label": texts, "children": st.lists(inner, max_size=3)}),
    max_leaves=6,
)
shops = st.fixed_dictionaries(
    {"shop-name": texts},
    optional={
        "orders": st.lists(orders, max_size=4),
        "lines": st.lists(lines, max_size=3),
        "by_code": st.dictionaries(keys, customers, max_size=3),
        "pair": st.none() | st.fixed_dictionaries({"left": customers, "right": customers}),
        "tree": st.none() | trees,
        "empties": st.lists(st.just({}), max_size=2),
        "meta": st.dictionaries(keys, st.integers(), max_size=3),
        "grid": st.lists(st.lists(st.integers(-9, 9), max_size=3), max_size=2),
        "scores": st.lists(floats, max_size=3),
        "main": st.none() | customers,
    },
)

# -- the checks ---------------------------------------------------------------------------


def outcome(function: Callable[[], Any]) -> tuple[str, Any]:
    try:
        with warnings.catch_warnings():  # pydantic warns about unexpected types on both paths
            warnings.simplefilter("ignore")
            return "ok", function()
    except Exception as exc:
        return "error", exc


def check_encode(obj: Any, delimiter: str = ",", indent: int = 2) -> str | None:
    """Typed encode equals the untyped encode of the dump (or both fail); return the text."""
    slow = outcome(lambda: toon.encode(dump(obj), delimiter=delimiter, indent_size=indent))
    fast = outcome(lambda: toon.encode(obj, delimiter=delimiter, indent_size=indent))
    if slow[0] == "ok":
        assert fast == slow
        return str(slow[1])
    assert fast[0] == "error", f"typed encode succeeded where the slow path failed: {slow[1]!r}"
    assert isinstance(fast[1], eson.TOONError), repr(fast[1])
    if isinstance(slow[1], eson.TOONError):  # the writer failed, not the framework's dump
        assert str(fast[1]) == str(slow[1])
    return None


SLOW_ERRORS = (eson.TOONError, pydantic.ValidationError, msgspec.ValidationError)


def check_decode(cls: type[Any], text: str, strict: bool = True, indent: int = 2) -> None:
    """Typed decode equals validating the untyped decode (or both fail, with ESON errors)."""
    slow = outcome(lambda: validate(cls, toon.decode(text, strict=strict, indent_size=indent)))
    if slow[0] == "error" and not isinstance(slow[1], SLOW_ERRORS):
        raise slow[1]
    fast = outcome(lambda: toon.decode(text, type=cls, strict=strict, indent_size=indent))
    if not strict and fast[0] == "ok" and (slow[0] == "error" or fast[1] != slow[1]):
        # Lenient typed reading may read a bare number or boolean in a string field
        # as its text: then it equals validating the untyped value with exactly
        # those values replaced by the texts they were read from.
        slow = outcome(lambda: validate(cls, with_texts(cls, text, indent)))
    if slow[0] == "ok":
        assert fast[0] == "ok", f"typed decode failed where the slow path succeeded: {fast[1]!r}"
        assert fast[1] == slow[1]
        # and value for value of the same type (1.0 is not 1: a float field's int cell)
        assert same_value(dump(fast[1]), dump(slow[1])), (fast[1], slow[1])
        assert type(fast[1]) is cls
    else:
        assert fast[0] == "error", f"typed decode succeeded where the slow path failed: {slow[1]!r}"
        assert isinstance(fast[1], eson.ESONError), repr(fast[1])
        if isinstance(slow[1], eson.TOONError):
            assert type(fast[1]) is eson.TOONError
            assert str(fast[1]) == str(slow[1])
        else:
            assert isinstance(fast[1], eson.ValidationError)
    check_template(cls, text, indent)


def with_texts(cls: type[Any], text: str, indent: int) -> Any:
    """The untyped value with each number-or-boolean-as-text repair applied."""
    log: list[eson.Repair] = []
    toon.decode(text, type=cls, strict=False, indent_size=indent, repairs=log)
    assert log, "the typed reading differs without a recorded repair"
    positions = Positions(tokens=True)
    plain = decode_text(text, strict=False, indent_size=indent, positions=positions)
    tokens = positions.tokens
    assert tokens is not None
    for repair in log:
        assert repair.kind in ("number-as-text", "boolean-as-text"), repair
        container: Any = plain
        steps: list[Any] = [repair.section]
        if repair.row is not None:
            steps.append(repair.row - 1)
        if repair.field is not None:
            steps.append(repair.field)
        for step in steps[:-1]:
            container = container[step]
        token = positions.token_of(container, steps[-1])
        assert token is not None
        assert parse_primitive(token) == container[steps[-1]]
        assert type(container[steps[-1]]) in (int, float, bool)
        container[steps[-1]] = token
    return plain


def template_reading(reader: Any, text: str, whole: bool) -> Any:
    """``reader.fast(text)``, or ``DECLINED``; ``whole`` matches one regular expression.

    Accelerated, the reader matches its template piece by piece and finds
    each table's rows by their count (``_segments``); ``whole=True`` reads
    with the one regular expression of the whole template instead, as the
    pure-Python reader does.
    """
    segments = reader._segments
    if whole:
        reader._segments = None
    try:
        return reader.fast(text)
    except (MismatchError, eson.TOONError):  # declined: the untyped parser reads it
        return DECLINED
    finally:
        reader._segments = segments


DECLINED = object()


def check_template(cls: type[Any], text: str, indent: int) -> None:
    """The template reads a text as the untyped parser does, or declines it.

    And it reads it alike whether matched piece by piece (accelerated) or
    with one regular expression.
    """
    reader = reader_for(cls, indent)
    fast = template_reading(reader, text, whole=False)
    assert fast == template_reading(reader, text, whole=True)
    if not (isinstance(cls, type) and issubclass(cls, pydantic.BaseModel)):
        return  # msgspec readers build Structs for tables: compared through decode above
    if fast is not DECLINED:
        assert fast == toon.decode(text, indent_size=indent)


ODD_TOKENS = [
    "abc",
    "1",
    "-7",
    "1.5",
    "1e3",
    "1e999",
    "01",
    "-0",
    "null",
    "true",
    "false",
    '"quoted"',
    '"1"',
    '"unterminated',
    '"bad \\q"',
    "[]",
    "",
    "x: y",
    "2024-01-02T03:04:05Z",
    "aGk=",
    "red",
    "dark blue",
    '"dark blue"',
    "paid",
    "a,b",
    '"a,b"',
    "99999999999999999999999",
]


def damage(text: str, data: st.DataObject) -> str:
    """Swap a token for an odd one, or drop, double, re-indent or comment a line, or miscount."""
    lines = text.split("\n")
    if len(lines) < 2:
        return text
    index = data.draw(st.integers(0, len(lines) - 1))
    action = data.draw(
        st.sampled_from(
            ["token", "token", "token", "drop", "double", "indent", "comment", "blank", "count"]
        )
    )
    line = lines[index]
    if action == "drop":
        del lines[index]
    elif action == "double":
        lines.insert(index, line)
    elif action == "indent":
        lines[index] = data.draw(st.sampled_from([" ", "  ", "\t"])) + line
    elif action == "comment":
        lines.insert(index, line[: len(line) - len(line.lstrip(" "))] + "# note")
    elif action == "blank":
        lines.insert(index, "")
    elif action == "count":
        head, sep, tail = line.partition("[")
        digits = tail[: len(tail) - len(tail.lstrip("0123456789"))]
        if sep and digits:
            lines[index] = (
                f"{head}[{int(digits) + data.draw(st.sampled_from([-1, 1]))}{tail[len(digits) :]}"
            )
    else:
        odd = data.draw(st.sampled_from(ODD_TOKENS))
        head, sep, _ = line.partition(": ")
        if sep:
            lines[index] = head + sep + odd
        else:
            indent = line[: len(line) - len(line.lstrip(" "))]
            delimiter = data.draw(st.sampled_from([",", "\t", "|"]))
            cells = line.lstrip(" ").split(delimiter)
            cells[data.draw(st.integers(0, len(cells) - 1))] = odd
            lines[index] = indent + delimiter.join(cells)
    return "\n".join(lines)


def roundtrip(
    obj: Any, options: tuple[str, int] = (",", 2), data: st.DataObject | None = None
) -> None:
    delimiter, indent = options
    text = check_encode(obj, delimiter, indent)
    if text is None:
        return
    check_decode(type(obj), text, True, indent)
    if data is not None:
        damaged = damage(text, data)
        check_decode(type(obj), damaged, data.draw(st.booleans()), indent)


# -- the properties ---------------------------------------------------------------------


@SETTINGS
@given(shops, OPTIONS, st.data())
def test_pydantic_nested_shapes(
    data: dict[str, Any], options: tuple[str, int], draw: st.DataObject
) -> None:
    roundtrip(build(PShop, data), options, draw)


@SETTINGS
@given(shops, OPTIONS, st.data())
def test_msgspec_nested_shapes(
    data: dict[str, Any], options: tuple[str, int], draw: st.DataObject
) -> None:
    roundtrip(build(MShop, data), options, draw)


@SETTINGS
@given(envelope_data(pydantic_cells), OPTIONS, st.data())
def test_pydantic_envelope(
    data: dict[str, Any], options: tuple[str, int], draw: st.DataObject
) -> None:
    roundtrip(build(PEnvelope, data), options, draw)


@SETTINGS
@given(envelope_data(msgspec_cells), OPTIONS, st.data())
def test_msgspec_envelope(
    data: dict[str, Any], options: tuple[str, int], draw: st.DataObject
) -> None:
    roundtrip(build(MEnvelope, data), options, draw)


@SETTINGS
@given(wide_data(False), OPTIONS, st.data())
def test_pydantic_every_field_kind(
    data: dict[str, Any], options: tuple[str, int], draw: st.DataObject
) -> None:
    roundtrip(build(PWide, data), options, draw)


@SETTINGS
@given(wide_data(True), OPTIONS, st.data())
def test_msgspec_every_field_kind(
    data: dict[str, Any], options: tuple[str, int], draw: st.DataObject
) -> None:
    roundtrip(build(MWide, data), options, draw)


@SETTINGS
@given(
    st.lists(st.fixed_dictionaries({"a": integers, "b": st.lists(texts, max_size=2)}), max_size=4),
    st.lists(pydantic_cells, max_size=3),
    OPTIONS,
    st.data(),
)
def test_pydantic_records_as_documents(
    nested: list[dict[str, Any]],
    cells: list[dict[str, Any]],
    options: tuple[str, int],
    draw: st.DataObject,
) -> None:
    for row in nested:
        roundtrip(build(PNested, row), options, draw)
    for row in cells:
        roundtrip(build(PCell, row), options)


@SETTINGS
@given(st.none() | customers, st.none() | customers, OPTIONS, st.data())
def test_a_root_that_may_be_a_keyed_table(
    first: dict[str, Any] | None,
    second: dict[str, Any] | None,
    options: tuple[str, int],
    draw: st.DataObject,
) -> None:
    roundtrip(build(PTwoRecords, {"first": first, "second": second}), options, draw)
    roundtrip(build(MTwoRecords, {"first": first, "second": second}), options, draw)


@SETTINGS
@given(
    st.sampled_from(["ok", "A", "has space", "", "toolongname"]),
    st.integers(-2, 2),
    st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), max_size=4),
    st.data(),
)
def test_validators_constraints_and_forbid(
    name: str, size: int, ranges: list[tuple[int, int]], draw: st.DataObject
) -> None:
    """Instances are built unvalidated, so the texts hold invalid values too."""
    head = PChecked.model_construct(name=name, size=size)
    rows = [PCheckedRow.model_construct(low=low, high=high) for low, high in ranges]
    roundtrip(PCheckedDoc.model_construct(head=head, ranges=rows), (",", 2), draw)
    mrows = []
    for low, high in ranges:
        row = MCheckedRow(0, 0)
        row.low_bound, row.high_bound = low, high
        mrows.append(row)
    roundtrip(MCheckedDoc(name=name, ranges=mrows), (",", 2), draw)


@SETTINGS
@given(
    st.lists(st.tuples(st.integers(), st.integers()), max_size=4),
    st.lists(st.tuples(st.integers(-2, 2), st.sampled_from(["", "b"])), max_size=4),
    st.lists(st.tuples(st.integers(), st.none() | st.integers()), max_size=3),
    OPTIONS,
)
def test_framework_options(
    boxes: list[tuple[int, int]],
    omitted: list[tuple[int, str]],
    unset: list[tuple[int, int | None]],
    options: tuple[str, int],
) -> None:
    """Computed fields, extra="allow", omit_defaults, tags, UNSET: odd key sets, same text."""
    roundtrip(PComputedDoc(boxes=[PComputed(width=w, height=h) for w, h in boxes]), options)
    roundtrip(
        PAllowDoc.model_validate({"rows": [{"a": a, "z": b} for a, b in boxes], "extra": 1}),
        options,
    )
    roundtrip(MOmitDoc(title="t", rows=[MOmit(a, b) for a, b in omitted]), options)
    roundtrip(MTaggedDoc(rows=[MTagged(a) for a, _ in boxes]), options)
    roundtrip(MUnsetDoc(rows=[MUnset(a) if b is None else MUnset(a, b) for a, b in unset]), options)


@SETTINGS
@given(
    st.integers(-(2**40), 2**40),
    st.binary(max_size=6),
    st.lists(st.tuples(st.integers(), st.text(max_size=4)), max_size=3),
    st.data(),
)
def test_strict_base64_and_dataclasses(
    count: int, blob: bytes, rows: list[tuple[int, str]], draw: st.DataObject
) -> None:
    uid = uuid.UUID("12345678-1234-5678-1234-567812345678")
    strict = PStrict(
        n_items=count, when=dt.datetime(2020, 1, 2), uid=uid, color=Color.DARK, rows=[PNested(a=1)]
    )
    roundtrip(strict, (",", 2), draw)
    roundtrip(PBase64(blob=blob, blobs=[blob]), (",", 2), draw)
    roundtrip(DataDoc("t", [DataRow(x, y) for x, y in rows]), (",", 2), draw)
    roundtrip(PWithDataclass(rows=[PDataRow(x, y) for x, y in rows]), (",", 2), draw)


@SETTINGS
@given(
    msgspec_cells,
    st.sampled_from(["s", "i", "f", "b", "lit", "opt", "tags", "nested", "color"]),
    st.sampled_from(WRONG_VALUES),
    OPTIONS,
)
def test_msgspec_wrong_types_encode_like_the_slow_path(
    data: dict[str, Any], field: str, wrong: Any, options: tuple[str, int]
) -> None:
    """msgspec does not validate on construction: odd values still match to_builtins."""
    cell = build(MCell, data)
    odd = msgspec.structs.replace(cell, **{field: wrong})
    check_encode(MEnvelope(from_="a", rows=[cell, odd], single=odd), *options)
    order = MOrder(1, "new", MCustomer(1, "a"), [MItem("s", 1, 1.0)])
    check_encode(
        MShop("s", orders=[order, msgspec.structs.replace(order, customer=wrong)]), *options
    )
    check_encode(MShop("s", orders=[msgspec.structs.replace(order, items=wrong)]), *options)
    check_encode(MShop("s", by_code={"a": MCustomer(1, "a"), "b": wrong}), *options)
    check_encode(MShop("s", lines=[MLine(1, MCustomer(1, "a")), MLine(2, wrong)]), *options)


@SETTINGS
@given(st.lists(st.tuples(st.integers(), st.booleans()), max_size=4), OPTIONS)
def test_subclass_instances_take_the_slow_path(
    rows: list[tuple[int, bool]], options: tuple[str, int]
) -> None:
    items = [MNestedChild(a) if child else MNested(a) for a, child in rows]
    roundtrip(MWide(singles=tuple(items)), options)


@pytest.mark.parametrize("depth", [1, 5, 120, 300])
def test_deep_recursive_models(depth: int) -> None:
    """Nesting near and beyond the limit: the same text, or the same error."""
    ptree = PTree(label="leaf")
    mtree = MTree(label="leaf")
    for level in range(depth):
        ptree = PTree(label=str(level), children=[ptree])
        mtree = MTree(label=str(level), children=[mtree])
    roundtrip(PShop.model_validate({"shop-name": "s", "tree": ptree}))
    roundtrip(MShop("s", tree=mtree))
