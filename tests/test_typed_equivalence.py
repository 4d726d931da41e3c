"""The typed path is the fast path of the untyped one, never a different dialect.

For ESON and TOON alike (the ``wire_format`` fixture), over a zoo of Pydantic
models, msgspec Structs and dataclasses -- flat records, and the shapes
only TOON writes as nested blocks: records in records, lists of records
holding records and lists, ``dict[str, R]``, recursive types -- checked
with hypothesis (TOON with every delimiter and several indent sizes, ESON
numbered and not):

- typed encode is byte-equal to the untyped ``encode`` of the JSON-mode dump
  (``model_dump(mode="json", by_alias=True)`` / ``msgspec.to_builtins``)
  with the same options, or both fail, with the format's error;
- typed decode gives the same instance as validating the untyped ``decode``
  result (``model_validate`` / ``msgspec.convert``) -- ESON's reserved ``n``
  column dropped -- or both fail: with the same error for bad text, and a
  ``ValidationError`` where the framework rejects the values;
- the same holds for damaged text (formats.py: cells or tokens swapped,
  lines dropped or doubled; TOON's also re-indented, commented, miscounted
  and read laxly too), where typed decoding never raises anything but
  ``ESONError``;
- TOON's template fast path, when it reads a text at all, reads what the
  untyped parser reads.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import enum
import uuid
import warnings
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal

import msgspec
import pydantic
import pytest
from formats import TOON, Options, WireCodec
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from pydantic import ConfigDict, Field, computed_field, field_validator, model_validator
from speedups_support import same_value

import eson
import eson.msgspec as em
from eson import toon
from eson._internal.codecs.toon_decode import MismatchError
from eson._internal.codecs.toon_typed import reader_for
from eson._internal.wire.toon_parser import Positions, decode_text
from eson._internal.wire.toon_quoting import parse_primitive

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# -- shared value types ---------------------------------------------------------------


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"
    DARK = "dark blue"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Mood(str, enum.Enum):
    CALM = "calm"
    TRUE = "true"  # a literal lookalike: written quoted


# Strings chosen to hit every quoting rule of ESON cells.
TRICKY = [
    "", " padded ", "null", "true", "1", "-0", "01", "1e3", "[x", "{y", '"q', "a\tb", "a\nb",
    "back\\slash", "caf\u00e9 \U0001f680", "\u2028", "\u00a0lead", "k=v", "x[2]{y}",
]
texts = st.one_of(st.sampled_from(TRICKY), st.text(max_size=12))
names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,6}", fullmatch=True)
finite = st.floats(allow_nan=False, allow_infinity=False)
floats = st.one_of(finite, st.sampled_from([0.1, 1e16, 1e-7, 2.0, -0.0, 1e21, 5e-324]))
integers = st.one_of(st.integers(-(2**70), 2**70), st.sampled_from([0, -1, 2**53 + 1, 10**30]))
datetimes = st.datetimes(
    min_value=dt.datetime(1900, 1, 1),
    timezones=st.sampled_from([None, dt.timezone.utc, dt.timezone(dt.timedelta(hours=-3))]),
)
decimals = st.decimals(allow_nan=False, allow_infinity=False, places=4, min_value=-(10**9), max_value=10**9)
json_leaves = st.one_of(st.none(), st.booleans(), st.integers(-(2**53), 2**53), finite, texts)
json_values = st.recursive(
    json_leaves,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=6,
)

# -- the Pydantic zoo ------------------------------------------------------------------


class PNested(pydantic.BaseModel):
    a: int
    b: list[str] = []


class PCell(pydantic.BaseModel):
    """A record with one field per supported cell type."""

    s: str
    i: int
    f: float
    b: bool
    opt: int | None = None
    union: int | str = 0
    lit: Literal["x", "y z", "null", "1"] = "x"
    color: Color = Color.RED
    level: Level = Level.LOW
    mood: Mood = Mood.CALM
    when: dt.datetime | None = None
    day: dt.date | None = None
    clock: dt.time | None = None
    uid: uuid.UUID | None = None
    money: decimal.Decimal | None = None
    raw: bytes = b""
    nested: PNested | None = None
    tags: list[str] = []
    pair: tuple[int, str] = (0, "")
    uniq: frozenset[int] = frozenset()
    counts: dict[str, int] = {}
    small: Annotated[int, Field(ge=-1000, le=1000)] = 0
    aliased: str = Field(default="a", alias="wire-name")
    anything: Any = None


class PEnvelope(pydantic.BaseModel):
    from_: str = Field(alias="from")
    to: str = "fixer"
    kind: Literal["review", "fix"] = "review"
    id: int = 0
    rows: list[PCell] = []
    single: PCell | None = None
    scores: list[float] = []
    labels: list[str | None] = []
    meta: dict[str, int | str | None] = {}
    extra_value: Any = None


class PEmpty(pydantic.BaseModel):
    pass


class PWide(pydantic.BaseModel):
    """Top-level entries of every kind, including converted scalars."""

    sent: dt.datetime | None = None
    token: uuid.UUID | None = None
    amount: decimal.Decimal = decimal.Decimal("0")
    blob: bytes = b""
    color: Color | None = None
    ids: frozenset[int] = frozenset()
    pairs: list[tuple[int, int]] = []
    days: list[dt.date] = []
    grid: list[list[int]] = []
    moods: list[Mood] = []
    empties: list[PEmpty] = []
    nothing: PEmpty | None = None
    singles: tuple[PNested, ...] = ()
    computed: list[PComputed] = []


class PNumbered(eson.Message, number=True):
    kind: str
    rows: list[PCell] = []  # noqa: RUF012 (the framework copies defaults)
    others: list[PNested] = []  # noqa: RUF012 (the framework copies defaults)


class PChecked(pydantic.BaseModel):
    """Validators, constraints and extra="forbid"."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, Field(min_length=1, max_length=8)]
    size: Annotated[int, Field(gt=0)]

    @field_validator("name")
    @classmethod
    def no_spaces(cls, value: str) -> str:
        if " " in value:
            raise ValueError("no spaces allowed")
        return value.lower()


class PCheckedRow(pydantic.BaseModel):
    model_config = ConfigDict(extra="forbid")

    low: int
    high: int

    @model_validator(mode="after")
    def ordered(self) -> PCheckedRow:
        if self.low > self.high:
            raise ValueError("low must not exceed high")
        return self


class PCheckedDoc(pydantic.BaseModel):
    model_config = ConfigDict(extra="forbid")

    head: PChecked
    ranges: list[PCheckedRow] = []


class PStrict(pydantic.BaseModel):
    model_config = ConfigDict(strict=True)

    n_items: int
    when: dt.datetime
    uid: uuid.UUID
    color: Color
    rows: list[PNested] = []


class PComputed(pydantic.BaseModel):
    width: int
    height: int
    secret: str = Field(default="hidden", exclude=True)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def area(self) -> int:
        return self.width * self.height


class PComputedDoc(pydantic.BaseModel):
    boxes: list[PComputed] = []


class PAllow(pydantic.BaseModel):
    model_config = ConfigDict(extra="allow")

    a: int


class PAllowDoc(pydantic.BaseModel):
    model_config = ConfigDict(extra="allow")

    rows: list[PAllow] = []


class PBase64(pydantic.BaseModel):
    model_config = ConfigDict(ser_json_bytes="base64", val_json_bytes="base64")

    blob: bytes
    blobs: list[bytes] = []


@pydantic.dataclasses.dataclass
class PDataRow:
    x: int
    y: str = "y"


class PWithDataclass(pydantic.BaseModel):
    rows: list[PDataRow] = []
    one: PDataRow | None = None


# -- the msgspec zoo ------------------------------------------------------------------


class MNested(msgspec.Struct):
    a: int
    b: list[str] = []


class MCell(msgspec.Struct):
    s: str
    i: int
    f: float
    b: bool
    opt: int | None = None
    union: int | str = 0
    lit: Literal["x", "y z", "null", "1"] = "x"
    color: Color = Color.RED
    level: Level = Level.LOW
    mood: Mood = Mood.CALM
    when: dt.datetime | None = None
    day: dt.date | None = None
    clock: dt.time | None = None
    uid: uuid.UUID | None = None
    money: decimal.Decimal | None = None
    raw: bytes = b""
    nested: MNested | None = None
    tags: list[str] = []
    pair: tuple[int, str] = (0, "")
    uniq: frozenset[int] = frozenset()
    counts: dict[str, int] = {}
    small: Annotated[int, msgspec.Meta(ge=-1000, le=1000)] = 0
    aliased: str = msgspec.field(default="a", name="wire-name")
    anything: Any = None


class MEnvelope(msgspec.Struct, rename={"from_": "from"}):
    from_: str
    to: str = "fixer"
    kind: Literal["review", "fix"] = "review"
    id: int = 0
    rows: list[MCell] = []
    single: MCell | None = None
    scores: list[float] = []
    labels: list[str | None] = []
    meta: dict[str, int | str | None] = {}
    extra_value: Any = None


class MEmpty(msgspec.Struct):
    pass


class MKeywords(msgspec.Struct, kw_only=True):
    b: int
    a: str = "a"


class MWide(msgspec.Struct):
    sent: dt.datetime | None = None
    token: uuid.UUID | None = None
    amount: decimal.Decimal = decimal.Decimal("0")
    blob: bytes = b""
    color: Color | None = None
    ids: frozenset[int] = frozenset()
    pairs: list[tuple[int, int]] = []
    days: list[dt.date] = []
    grid: list[list[int]] = []
    moods: list[Mood] = []
    empties: list[MEmpty] = []
    nothing: MEmpty | None = None
    singles: tuple[MNested, ...] = ()
    keywords: list[MKeywords] = []


class MNestedChild(MNested):
    c: int = 0


class MNumbered(em.Message, number=True):
    kind: str
    rows: list[MCell] = []  # noqa: RUF012 (the framework copies defaults)
    others: list[MNested] = []  # noqa: RUF012 (the framework copies defaults)


class MCheckedRow(msgspec.Struct, forbid_unknown_fields=True, rename="camel"):
    low_bound: Annotated[int, msgspec.Meta(ge=0)]
    high_bound: int

    def __post_init__(self) -> None:
        if self.low_bound > self.high_bound:
            raise ValueError("low must not exceed high")


class MCheckedDoc(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=8)]
    ranges: list[MCheckedRow] = []


class MOmit(msgspec.Struct, omit_defaults=True):
    a: int = 0
    b: str = ""


class MOmitDoc(msgspec.Struct, omit_defaults=True):
    title: str = ""
    rows: list[MOmit] = []


class MTagged(msgspec.Struct, tag=True):
    a: int


class MTaggedDoc(msgspec.Struct):
    rows: list[MTagged] = []


class MUnset(msgspec.Struct):
    a: int
    b: int | msgspec.UnsetType = msgspec.UNSET


class MUnsetDoc(msgspec.Struct):
    rows: list[MUnset] = []
    maybe: str | msgspec.UnsetType = msgspec.UNSET


class MPoint(msgspec.Struct, array_like=True):
    x: int
    y: int


class MArrayLikeDoc(msgspec.Struct):
    points: list[MPoint] = []
    origin: MPoint | None = None


@dataclasses.dataclass
class DataRow:
    x: int
    y: str = "y"


@dataclasses.dataclass
class DataDoc:
    title: str
    rows: list[DataRow] = dataclasses.field(default_factory=list)


# -- the shapes TOON writes as nested blocks (ESON as JSON cells) -----------------------

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


# -- strategies: plain data the models validate -----------------------------------------


def cell_data(wire_bytes: Callable[[bytes], object]) -> st.SearchStrategy[dict[str, Any]]:
    """Python values for a PCell / MCell, keyed by wire name."""
    nested = st.fixed_dictionaries({"a": st.integers(-(2**53), 2**53)}, optional={"b": st.lists(texts, max_size=3)})
    return st.fixed_dictionaries(
        {"s": texts, "i": integers, "f": floats, "b": st.booleans()},
        optional={
            "opt": st.none() | integers,
            "union": integers | texts,
            "lit": st.sampled_from(["x", "y z", "null", "1"]),
            "color": st.sampled_from(Color),
            "level": st.sampled_from(Level),
            "mood": st.sampled_from(Mood),
            "when": st.none() | datetimes,
            "day": st.none() | st.dates(),
            "clock": st.none() | st.times(),
            "uid": st.none() | st.uuids(),
            "money": st.none() | decimals,
            "raw": st.binary(max_size=8).map(wire_bytes),
            "nested": st.none() | nested,
            "tags": st.lists(texts, max_size=3),
            "pair": st.tuples(st.integers(-5, 5), texts),
            "uniq": st.frozensets(st.integers(-50, 50), max_size=4),
            "counts": st.dictionaries(texts, st.integers(-(2**53), 2**53), max_size=3),
            "small": st.integers(-1000, 1000),
            "wire-name": texts,
            "anything": json_values,
        },
    )


def envelope_data(cells: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {"from": texts},
        optional={
            "to": texts,
            "kind": st.sampled_from(["review", "fix"]),
            "id": integers,
            "rows": st.lists(cells, max_size=4),
            "single": st.none() | cells,
            "scores": st.lists(floats, max_size=4),
            "labels": st.lists(st.none() | texts, max_size=4),
            "meta": st.dictionaries(names, st.none() | st.integers() | texts, max_size=3),
            "extra_value": json_values,
        },
    )


def utf8_text(raw: bytes) -> bytes:
    """Pydantic writes bytes as UTF-8 text by default: keep them decodable."""
    return raw.decode("utf-8", "ignore").encode()


pydantic_cells = cell_data(utf8_text)
msgspec_cells = cell_data(lambda raw: raw)


def build(cls: type[Any], data: Any) -> Any:
    """A validated instance from plain data, or ``assume`` it away."""
    try:
        if issubclass(cls, pydantic.BaseModel):
            return cls.model_validate(data)
        return msgspec.convert(data, cls, strict=False)
    except (pydantic.ValidationError, msgspec.ValidationError):
        assume(False)


def wide_data(with_keywords: bool) -> st.SearchStrategy[dict[str, Any]]:
    optional: dict[str, st.SearchStrategy[Any]] = {
        "sent": st.none() | datetimes,
        "token": st.none() | st.uuids(),
        "amount": decimals,
        "blob": st.binary(max_size=6).map(utf8_text),
        "color": st.none() | st.sampled_from(Color),
        "ids": st.frozensets(st.integers(-9, 9), max_size=4),
        "pairs": st.lists(st.tuples(st.integers(-9, 9), st.integers(-9, 9)), max_size=3),
        "days": st.lists(st.dates(), max_size=3),
        "grid": st.lists(st.lists(st.integers(-9, 9), max_size=3), max_size=3),
        "moods": st.lists(st.sampled_from(Mood), max_size=3),
        "empties": st.lists(st.just({}), max_size=3),
        "nothing": st.none() | st.just({}),
        "singles": st.lists(st.fixed_dictionaries({"a": st.integers(-9, 9)}), max_size=3).map(tuple),
    }
    if with_keywords:
        optional["keywords"] = st.lists(st.fixed_dictionaries({"b": integers}, optional={"a": texts}), max_size=3)
    else:
        optional["computed"] = st.lists(
            st.fixed_dictionaries({"width": st.integers(-9, 9), "height": st.integers(-9, 9)}), max_size=3
        )
    return st.fixed_dictionaries({}, optional=optional)


table_keys = st.one_of(st.sampled_from(["a", "b c", "", "1", "x:y", "k"]), texts)
customers = st.fixed_dictionaries(
    {"id": st.integers(-5, 10**6), "name": texts}, optional={"email": st.none() | texts}
)
order_items = st.fixed_dictionaries(
    {"sku": texts, "qty": integers, "price": floats},
    optional={"tags": st.none() | st.lists(texts, max_size=2)},
)
order_times = st.datetimes(min_value=dt.datetime(1990, 1, 1), max_value=dt.datetime(2100, 1, 1))
orders = st.fixed_dictionaries(
    {
        "id": integers,
        "status": st.sampled_from(["new", "paid", "null", "a,b"]),
        "customer": st.none() | customers,
    },
    optional={
        "items": st.lists(order_items, max_size=4),
        "total": floats,
        "when": st.none() | order_times,
        "color": st.sampled_from(Color),
    },
)
order_lines = st.fixed_dictionaries({"id": st.integers(), "who": customers}, optional={"note": texts})
trees: st.SearchStrategy[dict[str, Any]] = st.recursive(
    st.fixed_dictionaries({"label": texts}),
    lambda inner: st.fixed_dictionaries({"label": texts, "children": st.lists(inner, max_size=3)}),
    max_leaves=6,
)
shops = st.fixed_dictionaries(
    {"shop-name": texts},
    optional={
        "orders": st.lists(orders, max_size=4),
        "lines": st.lists(order_lines, max_size=3),
        "by_code": st.dictionaries(table_keys, customers, max_size=3),
        "pair": st.none() | st.fixed_dictionaries({"left": customers, "right": customers}),
        "tree": st.none() | trees,
        "empties": st.lists(st.just({}), max_size=2),
        "meta": st.dictionaries(table_keys, st.integers(), max_size=3),
        "grid": st.lists(st.lists(st.integers(-9, 9), max_size=3), max_size=2),
        "scores": st.lists(floats, max_size=3),
        "main": st.none() | customers,
    },
)


# -- the reference (slow) path ----------------------------------------------------------


def dump(obj: Any) -> Any:
    if isinstance(obj, pydantic.BaseModel):
        return obj.model_dump(mode="json", by_alias=True)
    if pydantic.dataclasses.is_pydantic_dataclass(type(obj)):
        return pydantic.TypeAdapter(type(obj)).dump_python(obj, mode="json", by_alias=True)
    return msgspec.to_builtins(obj)


def validate(cls: type[Any], document: Any) -> Any:
    if issubclass(cls, pydantic.BaseModel):
        return cls.model_validate(document)
    if pydantic.dataclasses.is_pydantic_dataclass(cls):
        return pydantic.TypeAdapter(cls).validate_python(document)
    return msgspec.convert(document, cls)


FRAMEWORK_ERRORS = (pydantic.ValidationError, msgspec.ValidationError)


def _event(text: str) -> None:
    if currently_in_test_context():
        event(text)


def outcome(function: Callable[[], Any]) -> tuple[str, Any]:
    try:
        with warnings.catch_warnings():  # pydantic warns about unexpected types on both paths
            warnings.simplefilter("ignore")
            return "ok", function()
    except Exception as exc:
        return "error", exc


def layout(
    wire_format: WireCodec, draw: st.DataObject, numbers: Sequence[bool | None] = (None,)
) -> Options:
    """Writer options drawn for the format (ESON's ``number`` from ``numbers``)."""
    return draw.draw(wire_format.layouts(numbers))


def check_encode(wire_format: WireCodec, obj: Any, options: Options) -> str | None:
    """Typed encode equals the untyped encode of the dump (or both fail); return the text."""
    plain_options = wire_format.plain_options(type(obj), options)
    slow = outcome(lambda: wire_format.encode(dump(obj), **plain_options))
    fast = outcome(lambda: wire_format.encode(obj, **options))
    _event(f"encode: {slow[0]}" + (f" {slow[1].reason[:30]}" if slow[0] == "error" and isinstance(slow[1], eson.ESONError) else ""))
    if slow[0] == "ok":
        assert fast == slow
        return str(slow[1])
    assert fast[0] == "error", f"typed encode succeeded where the slow path failed: {slow[1]!r}"
    assert isinstance(fast[1], wire_format.encode_error), repr(fast[1])
    if isinstance(slow[1], wire_format.encode_error):  # the writer failed, not the framework's dump
        assert str(fast[1]) == str(slow[1])
    return None


def check_decode(
    wire_format: WireCodec, cls: type[Any], text: str, options: Options, strict: bool = True
) -> None:
    """Typed decode equals validating the untyped decode (or both fail, with ESON errors)."""
    reading = wire_format.reading(options)
    slow = outcome(lambda: validate(cls, wire_format.reference(cls, text, strict, reading)))
    _event(f"decode: {slow[0]} ({type(slow[1]).__name__ if slow[0] == 'error' else 'value'})")
    if slow[0] == "error" and not isinstance(slow[1], (wire_format.error, *FRAMEWORK_ERRORS)):
        raise slow[1]
    fast = outcome(lambda: wire_format.decode(text, type=cls, strict=strict, **reading))
    if fast[0] == "error" and wire_format.swallowed(text, fast[1]):
        return  # the schema shows a count too high, which the untyped reading cannot see
    if not strict and fast[0] == "ok" and (slow[0] == "error" or fast[1] != slow[1]):
        # (TOON's lax reading) Typed, a bare number or boolean in a string field
        # may be read as its text: then the value equals validating the untyped
        # value with exactly those values replaced by the texts they were read from.
        slow = outcome(lambda: validate(cls, with_texts(cls, text, reading["indent_size"])))
    if slow[0] == "ok":
        assert fast[0] == "ok", f"typed decode failed where the slow path succeeded: {fast[1]!r}"
        assert fast[1] == slow[1]
        # and value for value of the same type (1.0 is not 1: a float field's int cell)
        assert same_value(dump(fast[1]), dump(slow[1])), (fast[1], slow[1])
        assert type(fast[1]) is cls
    else:
        assert fast[0] == "error", f"typed decode succeeded where the slow path failed: {slow[1]!r}"
        assert isinstance(fast[1], eson.ESONError), repr(fast[1])
        if isinstance(fast[1], eson.CountError) and "which the document otherwise lacks" in str(fast[1]):
            # (ESON) Typed reading knows the schema: a one-column array whose rows
            # took in an entry of a field the document lacks has a wrong count,
            # which the untyped reference cannot tell (WireCodec.swallowed).
            assert isinstance(slow[1], eson.DecodeError)
        elif isinstance(slow[1], wire_format.error):
            assert type(fast[1]) is type(slow[1])
            assert str(fast[1]) == str(slow[1])
        else:
            assert isinstance(fast[1], eson.ValidationError)
    if wire_format is TOON:
        check_template(cls, text, reading["indent_size"])


def roundtrip(
    wire_format: WireCodec, obj: Any, options: Options, data: st.DataObject | None = None
) -> None:
    """Encode and decode ``obj`` both ways; with ``data``, decode a damaged text too."""
    text = check_encode(wire_format, obj, options)
    if text is None:
        return
    check_decode(wire_format, type(obj), text, options)
    if data is not None:
        damaged = wire_format.damage(text, data)
        check_decode(wire_format, type(obj), damaged, options, data.draw(wire_format.damaged_strictness))


# -- TOON only: lax reading of a string field, and the template fast path ---------------


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
    if fast is not DECLINED:
        assert read_alike(fast, toon.decode(text, indent_size=indent))


def read_alike(fast: Any, plain: Any) -> bool:
    """The template's reading equals the untyped one.

    Where the reader built a table's rows as instances (msgspec Structs;
    accelerated, Pydantic rows valid as they are), each equals validating
    its untyped record.
    """
    if isinstance(fast, (pydantic.BaseModel, msgspec.Struct)):
        return bool(fast == validate(type(fast), plain))
    if isinstance(fast, dict):
        return isinstance(plain, dict) and list(fast) == list(plain) and all(read_alike(fast[k], plain[k]) for k in fast)
    if isinstance(fast, list):
        return isinstance(plain, list) and len(fast) == len(plain) and all(map(read_alike, fast, plain))
    return bool(fast == plain)


# -- the properties, for both formats -------------------------------------------------------


def documents(cls: type, data: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Validated instances of ``cls`` from plain data (see :func:`build`)."""
    return data.map(lambda value: build(cls, value))


def numbered_data(cells: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    rows = st.lists(st.fixed_dictionaries({"a": st.integers()}), max_size=4)
    return st.fixed_dictionaries({"kind": texts}, optional={"rows": st.lists(cells, max_size=4), "others": rows})


def allow_doc(rows: list[dict[str, Any]], extra: dict[str, Any]) -> PAllowDoc:
    return PAllowDoc.model_validate({"rows": rows, **extra})


def unset_doc(rows: list[tuple[int, int | None]], maybe: str | None) -> MUnsetDoc:
    items = [MUnset(a) if b is None else MUnset(a, b) for a, b in rows]
    return MUnsetDoc(rows=items) if maybe is None else MUnsetDoc(rows=items, maybe=maybe)


def dataclass_doc(rows: list[tuple[int, str]], one: bool) -> PWithDataclass:
    items = [PDataRow(x, y) for x, y in rows]
    return PWithDataclass(rows=items, one=items[0] if one and items else None)


int_pairs = st.lists(st.tuples(st.integers(), st.integers()), max_size=4)
int_texts = st.lists(st.tuples(st.integers(), texts), max_size=4)

#: What to round-trip, text and damaged text (by name: the test id), and the
#: values of ESON's ``number`` to write it with.
DOCUMENTS: dict[str, tuple[st.SearchStrategy[Any], Sequence[bool | None]]] = {
    # every supported cell type, in rows, as a single record and as scalar entries
    "pydantic_envelope": (documents(PEnvelope, envelope_data(pydantic_cells)), [None]),
    "msgspec_envelope": (documents(MEnvelope, envelope_data(msgspec_cells)), [None]),
    # a Message with number=True, written with ESON's number unset, on and off
    "pydantic_numbered": (documents(PNumbered, numbered_data(pydantic_cells)), [None, True, False]),
    "msgspec_numbered": (documents(MNumbered, numbered_data(msgspec_cells)), [None, True, False]),
    # top-level entries of every kind (msgspec's with keyword-only records)
    "pydantic_every_entry_kind": (documents(PWide, wide_data(False)), [None, True]),
    "msgspec_every_entry_kind": (documents(MWide, wide_data(True)), [None, True]),
    # records in records, lists of records holding lists, dict[str, R], a recursive tree
    "pydantic_nested_shapes": (documents(PShop, shops), [None]),
    "msgspec_nested_shapes": (documents(MShop, shops), [None]),
    # strict models reject the strings a text carries for datetimes, UUIDs, enums
    "pydantic_strict": (
        st.builds(
            lambda count, when, uid, color: PStrict(
                n_items=count, when=when, uid=uid, color=color, rows=[PNested(a=1)]
            ),
            st.integers(-(2**40), 2**40), datetimes, st.uuids(), st.sampled_from(Color),
        ),
        [None],
    ),
    # computed fields are written, excluded ones are not
    "pydantic_computed_and_excluded": (
        st.builds(lambda boxes: PComputedDoc(boxes=[PComputed(width=w, height=h) for w, h in boxes]), int_pairs),
        [None],
    ),
    # extra="allow": rows and the document carry keys the model lacks
    "pydantic_extra_allow": (
        st.builds(
            allow_doc,
            st.lists(
                st.fixed_dictionaries(
                    {"a": st.integers()}, optional={"extra1": texts, "extra2": st.integers(), "z": st.integers()}
                ),
                max_size=4,
            ),
            st.dictionaries(st.sampled_from(["z1", "z2", "extra"]), texts | st.integers(), max_size=3),
        ),
        [None],
    ),
    # bytes as base64 (ser_json_bytes / val_json_bytes)
    "pydantic_base64_bytes": (
        st.builds(lambda blob, blobs: PBase64(blob=blob, blobs=blobs), st.binary(max_size=10), st.lists(st.binary(max_size=6), max_size=3)),
        [None],
    ),
    # Pydantic dataclasses as rows and as a single record
    "pydantic_dataclass_records": (st.builds(dataclass_doc, int_texts, st.booleans()), [None]),
    # omit_defaults: rows and the document with different key sets
    "msgspec_omit_defaults": (
        st.builds(
            lambda rows, title: MOmitDoc(title=title, rows=[MOmit(a, b) for a, b in rows]),
            st.lists(st.tuples(st.integers(-2, 2), st.sampled_from(["", "b"])), max_size=4),
            st.sampled_from(["", "t"]),
        ),
        [None],
    ),
    # tagged Structs write their tag
    "msgspec_tagged": (
        st.builds(lambda values: MTaggedDoc(rows=[MTagged(value) for value in values]), st.lists(st.integers(), max_size=4)),
        [None],
    ),
    # UNSET fields are left out, in rows and at the top
    "msgspec_unset": (
        st.builds(unset_doc, st.lists(st.tuples(st.integers(), st.none() | st.integers()), max_size=4), st.none() | texts),
        [None],
    ),
    # array_like Structs dump as lists
    "msgspec_array_like": (
        st.builds(
            lambda points, origin: MArrayLikeDoc(points=[MPoint(x, y) for x, y in points], origin=MPoint(0, 0) if origin else None),
            int_pairs,
            st.booleans(),
        ),
        [None],
    ),
    # standard-library dataclasses as the document and its rows
    "standard_dataclasses": (
        st.builds(lambda title, rows: DataDoc(title, [DataRow(x, y) for x, y in rows]), texts, int_texts),
        [None],
    ),
    # a subclass instance writes its extra fields, as msgspec.to_builtins does
    "msgspec_subclass_instances": (
        st.builds(
            lambda rows: MWide(singles=tuple(MNestedChild(a) if child else MNested(a) for a, child in rows)),
            st.lists(st.tuples(st.integers(), st.booleans()), max_size=4),
        ),
        [None],
    ),
}


@pytest.mark.parametrize("name", list(DOCUMENTS))
@SETTINGS
@given(st.data())
def test_typed_is_the_untyped_path(wire_format: WireCodec, name: str, draw: st.DataObject) -> None:
    """Typed encode and decode of each kind of instance in DOCUMENTS are the untyped
    path's, for its text and for a damaged copy."""
    instances, numbers = DOCUMENTS[name]
    obj = draw.draw(instances, label=name)
    roundtrip(wire_format, obj, layout(wire_format, draw, numbers), draw)


@SETTINGS
@given(
    st.sampled_from(["ok", "A", "has space", "", "toolongname"]),
    st.integers(-2, 2),
    st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), max_size=4),
    st.data(),
)
def test_validators_constraints_and_forbid(
    wire_format: WireCodec, name: str, size: int, ranges: list[tuple[int, int]], draw: st.DataObject
) -> None:
    """Validators, constraints and forbidden extras; instances are built unvalidated,
    so the texts hold invalid values too."""
    options = layout(wire_format, draw)
    head = PChecked.model_construct(name=name, size=size)
    rows = [PCheckedRow.model_construct(low=low, high=high) for low, high in ranges]
    roundtrip(wire_format, PCheckedDoc.model_construct(head=head, ranges=rows), options, draw)
    mrows = []
    for low, high in ranges:  # assignment skips __post_init__: invalid rows encode too
        row = MCheckedRow(0, 0)
        row.low_bound, row.high_bound = low, high
        mrows.append(row)
    roundtrip(wire_format, MCheckedDoc(name=name, ranges=mrows), options, draw)


@SETTINGS
@given(
    st.lists(st.fixed_dictionaries({"a": integers, "b": st.lists(texts, max_size=2)}), max_size=4),
    st.lists(pydantic_cells, max_size=3),
    st.data(),
)
def test_pydantic_records_as_documents(
    wire_format: WireCodec,
    nested: list[dict[str, Any]],
    cells: list[dict[str, Any]],
    draw: st.DataObject,
) -> None:
    """A record model is a document too: its fields are the top-level entries."""
    options = layout(wire_format, draw)
    for row in nested:
        roundtrip(wire_format, build(PNested, row), options, draw)
    for row in cells:
        roundtrip(wire_format, build(PCell, row), options)


@SETTINGS
@given(st.none() | customers, st.none() | customers, st.data())
def test_a_root_that_may_be_a_keyed_table(
    wire_format: WireCodec,
    first: dict[str, Any] | None,
    second: dict[str, Any] | None,
    draw: st.DataObject,
) -> None:
    """Every field may be a non-empty record (TOON: the root reads as a keyed table)."""
    options = layout(wire_format, draw)
    roundtrip(wire_format, build(PTwoRecords, {"first": first, "second": second}), options, draw)
    roundtrip(wire_format, build(MTwoRecords, {"first": first, "second": second}), options, draw)


@pytest.mark.parametrize("depth", [1, 5, 120, 300])
def test_deep_recursive_models(wire_format: WireCodec, depth: int) -> None:
    """Nesting near and beyond the limit: the same text, or the same error."""
    ptree = PTree(label="leaf")
    mtree = MTree(label="leaf")
    for level in range(depth):
        ptree = PTree(label=str(level), children=[ptree])
        mtree = MTree(label=str(level), children=[mtree])
    roundtrip(wire_format, PShop.model_validate({"shop-name": "s", "tree": ptree}), {})
    roundtrip(wire_format, MShop("s", tree=mtree), {})


@pytest.mark.parametrize(
    "record",
    [[], [PNested(a=1)], [PNested(a=1), PNested(a=2, b=["x y", ""])]],
)
def test_empty_and_short_record_arrays(wire_format: WireCodec, record: list[PNested]) -> None:
    """No, one and two rows: written as the dump is, read back to the same instance."""
    doc = PNumbered(kind="k", others=record)
    text = check_encode(wire_format, doc, {})
    assert text is not None
    assert wire_format.decode(text, type=PNumbered) == doc


# -- instances that do not match their declared types (never validated) ------------------

WRONG_VALUES = [None, 1, -2, 2.5, float("inf"), True, "text", "", [1, 2], {"k": 1}, ("t",), b"x"]


@SETTINGS
@given(
    msgspec_cells,
    st.sampled_from(["s", "i", "f", "b", "lit", "opt", "tags", "nested", "color"]),
    st.sampled_from(WRONG_VALUES),
    st.data(),
)
def test_msgspec_wrong_types_encode_like_the_slow_path(
    wire_format: WireCodec, data: dict[str, Any], field: str, wrong: Any, draw: st.DataObject
) -> None:
    """msgspec does not validate on construction: odd values still match to_builtins."""
    options = layout(wire_format, draw)
    cell = build(MCell, data)
    odd = msgspec.structs.replace(cell, **{field: wrong})
    roundtrip(wire_format, MEnvelope(from_="a", rows=[cell, odd], single=odd), options, draw)
    order = MOrder(1, "new", MCustomer(1, "a"), [MItem("s", 1, 1.0)])
    wrong_customer = msgspec.structs.replace(order, customer=wrong)
    check_encode(wire_format, MShop("s", orders=[order, wrong_customer]), options)
    check_encode(wire_format, MShop("s", orders=[msgspec.structs.replace(order, items=wrong)]), options)
    check_encode(wire_format, MShop("s", by_code={"a": MCustomer(1, "a"), "b": wrong}), options)
    lines = [MLine(1, MCustomer(1, "a")), MLine(2, wrong)]
    check_encode(wire_format, MShop("s", lines=lines), options)


@SETTINGS
@given(
    st.sampled_from(WRONG_VALUES),
    st.sampled_from(["rows", "single", "scores", "labels", "meta", "kind", "id"]),
    st.data(),
)
def test_msgspec_wrong_entry_values(
    wire_format: WireCodec, wrong: Any, field: str, draw: st.DataObject
) -> None:
    """A top-level entry holding a value of the wrong type writes as to_builtins's does."""
    doc = msgspec.structs.replace(MEnvelope(from_="a"), **{field: wrong})
    check_encode(wire_format, doc, layout(wire_format, draw))


@SETTINGS
@given(
    st.sampled_from(WRONG_VALUES),
    st.sampled_from(["s", "i", "f", "lit", "tags", "nested"]),
    st.data(),
)
def test_pydantic_wrong_types_encode_like_the_slow_path(
    wire_format: WireCodec, wrong: Any, field: str, draw: st.DataObject
) -> None:
    """``model_construct`` skips validation: typed encode still matches model_dump."""
    cell = PCell.model_construct(**{**PCell(s="s", i=1, f=1.0, b=True).__dict__, field: wrong})
    doc = PEnvelope(**{"from": "a"}).model_copy(update={"rows": [cell], "single": cell})
    check_encode(wire_format, doc, layout(wire_format, draw))
