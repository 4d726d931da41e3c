"""The typed path is the fast path of the untyped one, never a different dialect.

For a zoo of Pydantic models and msgspec Structs, checked with hypothesis:

- typed encode is byte-equal to ``eson.encode`` of the JSON-mode dump
  (``model_dump(mode="json", by_alias=True)`` / ``msgspec.to_builtins``), or
  both fail;
- typed decode gives the same instance as validating the untyped
  ``eson.decode`` result (``model_validate`` / ``msgspec.convert``) -- with the
  reserved ``n`` column dropped -- or both fail, and the typed path then
  raises an :class:`eson.ESONError`;
- the same holds for damaged text (cells swapped for odd values, lines
  dropped), where typed decoding never raises anything but ``ESONError``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import enum
import re
import uuid
import warnings
from collections.abc import Callable
from typing import Annotated, Any, Literal

import msgspec
import pydantic
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from pydantic import ConfigDict, Field, computed_field, field_validator, model_validator
from speedups_support import same_value

import eson
import eson.msgspec as em
from eson._internal.schema import EntryKind, document_schema
from eson._internal.wire.eson_line_reader import scan_sections

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
    "",
    " padded ",
    "null",
    "true",
    "1",
    "-0",
    "01",
    "1e3",
    "[x",
    "{y",
    '"q',
    "a\tb",
    "a\nb",
    "back\\slash",
    "caf\u00e9 \U0001f680",
    "\u2028",
    "\u00a0lead",
    "k=v",
    "x[2]{y}",
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


SLOW_ERRORS = (eson.DecodeError, pydantic.ValidationError, msgspec.ValidationError)


def reference_decode(cls: type[Any], text: str) -> Any:
    """``validate(eson.decode(text))`` with reserved ``n`` columns dropped."""
    document = eson.decode(text)
    schema = document_schema(cls)
    for section in scan_sections(text):
        item = schema.by_wire.get(section.name)
        if (
            item is not None
            and item.entry is EntryKind.RECORD_ARRAY
            and item.record is not None
            and section.kind == "records"
            and section.numbered
            and "n" not in item.record.wire_names
        ):
            for row in document[section.name]:
                del row["n"]
    return validate(cls, document)


def _event(text: str) -> None:
    if currently_in_test_context():
        event(text)


def outcome(function: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "ok", function()
    except Exception as exc:
        return "error", exc


def check_encode(obj: Any, number: bool | None = None) -> str | None:
    """Typed encode equals the slow path (or both fail); return the text."""
    cls = type(obj)
    numbered = bool(getattr(cls, "__eson_number__", False)) if number is None else number
    slow = outcome(lambda: eson.encode(dump(obj), number=numbered))
    fast = outcome(lambda: eson.encode(obj, number=number))
    _event(f"encode: {slow[0]}" + (f" {slow[1].reason[:30]}" if slow[0] == "error" and isinstance(slow[1], eson.ESONError) else ""))
    if slow[0] == "ok":
        assert fast == slow
        return str(slow[1])
    assert fast[0] == "error", f"typed encode succeeded where the slow path failed: {slow[1]!r}"
    assert isinstance(fast[1], eson.EncodeError), repr(fast[1])
    if isinstance(slow[1], eson.EncodeError):  # the writer failed, not the framework's dump
        assert str(fast[1]) == str(slow[1])
    return None


def swallowed_entry(text: str, error: BaseException) -> bool:
    """Whether a typed decode's error is the count check untyped decoding cannot make.

    That is a :class:`eson.CountError` whose stray line is, in the untyped
    reading, a row of the array, and whose entry's name the document lacks.
    """
    if not isinstance(error, eson.CountError) or error.stray_line is None:
        return False
    lines = text.replace("\r\n", "\n").lstrip("\ufeff").split("\n")
    stray = lines[error.stray_line - 1]
    name = re.split(r"[=\[{]", stray, maxsplit=1)[0]
    try:
        names = {section.name for section in scan_sections(text)}
    except eson.DecodeError:
        return False  # the text itself is malformed: not the typed check
    return name not in names and error.section in names


def check_decode(cls: type[Any], text: str) -> None:
    """Typed decode equals the slow path (or both fail with ESON errors)."""
    slow = outcome(lambda: reference_decode(cls, text))
    _event(f"decode: {slow[0]} ({type(slow[1]).__name__ if slow[0] == 'error' else 'value'})")
    if slow[0] == "error" and not isinstance(slow[1], SLOW_ERRORS):
        raise slow[1]
    fast = outcome(lambda: eson.decode(text, type=cls))
    if fast[0] == "error" and swallowed_entry(text, fast[1]):
        return  # the schema shows a count too high, which the untyped reading cannot see
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
            # Typed reading knows the schema: a one-column array whose rows took
            # in an entry of a field the document lacks has a wrong count, which
            # the untyped reference cannot tell (check_swallowed).
            assert isinstance(slow[1], eson.DecodeError)
        elif isinstance(slow[1], eson.DecodeError):
            assert type(fast[1]) is type(slow[1])
            assert str(fast[1]) == str(slow[1])
        else:
            assert isinstance(fast[1], eson.ValidationError)


# Odd cell texts to swap in: every cell kind, plus ones validation rejects.
ODD_CELLS = [
    "abc",
    "1",
    "-7",
    "1.5",
    "1e3",
    "1e999",
    "01",
    "null",
    "true",
    "false",
    '"quoted"',
    '"1"',
    "[1,2]",
    '{"a":1}',
    "{bad",
    "",
    " x",
    "2024-01-02T03:04:05Z",
    "aGk=",
    "0.5",
    "x",
    "review",
    "red",
    "y z",
    '"y z"',
    "99999999999999999999999",
]


def damage(text: str, data: st.DataObject) -> str:
    """Swap one cell for an odd value, or drop or duplicate a line."""
    lines = text.split("\n")
    if len(lines) <= 2:
        return text
    index = data.draw(st.integers(1, len(lines) - 2))
    action = data.draw(st.sampled_from(["cell", "cell", "cell", "drop", "duplicate"]))
    if action == "drop":
        del lines[index]
    elif action == "duplicate":
        lines.insert(index, lines[index])
    else:
        line = lines[index]
        head, sep, _ = line.partition("=")
        if sep and "\t" not in line and "{" not in head and "[" not in head:
            lines[index] = head + "=" + data.draw(st.sampled_from(ODD_CELLS))
        else:
            cells = line.split("\t")
            position = data.draw(st.integers(0, len(cells) - 1))
            cells[position] = data.draw(st.sampled_from(ODD_CELLS))
            lines[index] = "\t".join(cells)
    return "\n".join(lines)


def roundtrip(obj: Any, data: st.DataObject | None = None, number: bool | None = None) -> None:
    text = check_encode(obj, number)
    if text is None:
        return
    check_decode(type(obj), text)
    if data is not None:
        check_decode(type(obj), damage(text, data))


# -- the properties -----------------------------------------------------------------------


@SETTINGS
@given(envelope_data(pydantic_cells), st.data())
def test_pydantic_envelope(data: dict[str, Any], draw: st.DataObject) -> None:
    roundtrip(build(PEnvelope, data), draw)


@SETTINGS
@given(envelope_data(msgspec_cells), st.data())
def test_msgspec_envelope(data: dict[str, Any], draw: st.DataObject) -> None:
    roundtrip(build(MEnvelope, data), draw)


@SETTINGS
@given(
    st.fixed_dictionaries(
        {"kind": texts},
        optional={
            "rows": st.lists(pydantic_cells, max_size=4),
            "others": st.lists(st.fixed_dictionaries({"a": st.integers()}), max_size=4),
        },
    ),
    st.sampled_from([None, True, False]),
    st.data(),
)
def test_pydantic_numbered(data: dict[str, Any], number: bool | None, draw: st.DataObject) -> None:
    roundtrip(build(PNumbered, data), draw, number)


@SETTINGS
@given(
    st.fixed_dictionaries(
        {"kind": texts},
        optional={
            "rows": st.lists(msgspec_cells, max_size=4),
            "others": st.lists(st.fixed_dictionaries({"a": st.integers()}), max_size=4),
        },
    ),
    st.sampled_from([None, True, False]),
    st.data(),
)
def test_msgspec_numbered(data: dict[str, Any], number: bool | None, draw: st.DataObject) -> None:
    roundtrip(build(MNumbered, data), draw, number)


checked_rows = st.fixed_dictionaries({"low": st.integers(-3, 3), "high": st.integers(-3, 3)})


@SETTINGS
@given(
    st.fixed_dictionaries(
        {
            "head": st.fixed_dictionaries(
                {"name": st.sampled_from(["ok", "A", "has space", "", "toolongname"]), "size": st.integers(-2, 2)}
            )
        },
        optional={"ranges": st.lists(checked_rows, max_size=4)},
    ),
    st.data(),
)
def test_pydantic_validators_and_forbid(data: dict[str, Any], draw: st.DataObject) -> None:
    """Instances are built unvalidated, so encode covers invalid ones too."""
    head = PChecked.model_construct(**data["head"])
    ranges = [PCheckedRow.model_construct(**row) for row in data.get("ranges", [])]
    roundtrip(PCheckedDoc.model_construct(head=head, ranges=ranges), draw)


@SETTINGS
@given(
    st.sampled_from(["ok", "", "toolongname"]),
    st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), max_size=4),
    st.data(),
)
def test_msgspec_constraints_and_forbid(
    name: str, ranges: list[tuple[int, int]], draw: st.DataObject
) -> None:
    rows = []
    for low, high in ranges:  # assignment skips __post_init__: invalid rows encode too
        row = MCheckedRow(0, 0)
        row.low_bound, row.high_bound = low, high
        rows.append(row)
    roundtrip(MCheckedDoc(name=name, ranges=rows), draw)


@SETTINGS
@given(st.integers(-(2**40), 2**40), datetimes, st.uuids(), st.sampled_from(Color), st.data())
def test_pydantic_strict(count: int, when: dt.datetime, uid: uuid.UUID, color: Color, draw: st.DataObject) -> None:
    """Strict models reject the strings ESON carries for datetimes, UUIDs, enums."""
    roundtrip(PStrict(n_items=count, when=when, uid=uid, color=color, rows=[PNested(a=1)]), draw)


@SETTINGS
@given(st.lists(st.tuples(st.integers(), st.integers()), max_size=4), st.data())
def test_pydantic_computed_and_excluded(boxes: list[tuple[int, int]], draw: st.DataObject) -> None:
    roundtrip(PComputedDoc(boxes=[PComputed(width=w, height=h) for w, h in boxes]), draw)


@SETTINGS
@given(
    st.lists(
        st.fixed_dictionaries({"a": st.integers()}, optional={"extra1": texts, "extra2": st.integers()}),
        max_size=4,
    ),
    st.dictionaries(st.sampled_from(["z1", "z2"]), texts, max_size=2),
    st.data(),
)
def test_pydantic_extra_allow(rows: list[dict[str, Any]], extra: dict[str, Any], draw: st.DataObject) -> None:
    roundtrip(PAllowDoc.model_validate({"rows": rows, **extra}), draw)


@SETTINGS
@given(st.binary(max_size=10), st.lists(st.binary(max_size=6), max_size=3), st.data())
def test_pydantic_base64_bytes(blob: bytes, blobs: list[bytes], draw: st.DataObject) -> None:
    roundtrip(PBase64(blob=blob, blobs=blobs), draw)


@SETTINGS
@given(st.lists(st.tuples(st.integers(), texts), max_size=4), st.booleans(), st.data())
def test_pydantic_dataclass_records(rows: list[tuple[int, str]], one: bool, draw: st.DataObject) -> None:
    items = [PDataRow(x, y) for x, y in rows]
    roundtrip(PWithDataclass(rows=items, one=items[0] if one and items else None), draw)


@SETTINGS
@given(
    st.lists(st.tuples(st.integers(-2, 2), st.sampled_from(["", "b"])), max_size=4),
    st.sampled_from(["", "t"]),
    st.data(),
)
def test_msgspec_omit_defaults(rows: list[tuple[int, str]], title: str, draw: st.DataObject) -> None:
    roundtrip(MOmitDoc(title=title, rows=[MOmit(a, b) for a, b in rows]), draw)


@SETTINGS
@given(st.lists(st.integers(), max_size=4), st.data())
def test_msgspec_tagged(values: list[int], draw: st.DataObject) -> None:
    roundtrip(MTaggedDoc(rows=[MTagged(value) for value in values]), draw)


@SETTINGS
@given(
    st.lists(st.tuples(st.integers(), st.none() | st.integers()), max_size=4),
    st.none() | texts,
    st.data(),
)
def test_msgspec_unset(rows: list[tuple[int, int | None]], maybe: str | None, draw: st.DataObject) -> None:
    items = [MUnset(a) if b is None else MUnset(a, b) for a, b in rows]
    doc = MUnsetDoc(rows=items) if maybe is None else MUnsetDoc(rows=items, maybe=maybe)
    roundtrip(doc, draw)


@SETTINGS
@given(st.lists(st.tuples(st.integers(), st.integers()), max_size=4), st.booleans(), st.data())
def test_msgspec_array_like(points: list[tuple[int, int]], origin: bool, draw: st.DataObject) -> None:
    roundtrip(MArrayLikeDoc(points=[MPoint(x, y) for x, y in points], origin=MPoint(0, 0) if origin else None), draw)


@SETTINGS
@given(texts, st.lists(st.tuples(st.integers(), texts), max_size=4), st.data())
def test_standard_dataclasses(title: str, rows: list[tuple[int, str]], draw: st.DataObject) -> None:
    roundtrip(DataDoc(title, [DataRow(x, y) for x, y in rows]), draw)


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


@SETTINGS
@given(wide_data(False), st.sampled_from([None, True]), st.data())
def test_pydantic_every_entry_kind(data: dict[str, Any], number: bool | None, draw: st.DataObject) -> None:
    roundtrip(build(PWide, data), draw, number)


@SETTINGS
@given(wide_data(True), st.sampled_from([None, True]), st.data())
def test_msgspec_every_entry_kind(data: dict[str, Any], number: bool | None, draw: st.DataObject) -> None:
    roundtrip(build(MWide, data), draw, number)


@SETTINGS
@given(st.lists(st.tuples(st.integers(), st.booleans()), max_size=4), st.data())
def test_msgspec_subclass_instances_take_the_slow_path(rows: list[tuple[int, bool]], draw: st.DataObject) -> None:
    """A subclass instance writes its extra fields, as msgspec.to_builtins does."""
    items = [MNestedChild(a) if child else MNested(a) for a, child in rows]
    roundtrip(MWide(singles=tuple(items)), draw)


# -- instances that do not match their declared types (never validated) ------------------

WRONG_VALUES = [None, 1, -2, 2.5, float("inf"), True, "text", "", [1, 2], {"k": 1}, ("t",), b"x"]


@SETTINGS
@given(msgspec_cells, st.sampled_from(["s", "i", "f", "b", "lit", "opt", "tags", "nested"]), st.sampled_from(WRONG_VALUES), st.data())
def test_msgspec_wrong_types_encode_like_the_slow_path(
    data: dict[str, Any], field: str, wrong: Any, draw: st.DataObject
) -> None:
    """msgspec does not validate on construction: odd values still match to_builtins."""
    cell = build(MCell, data)
    odd = msgspec.structs.replace(cell, **{field: wrong})
    roundtrip(MEnvelope(from_="a", rows=[cell, odd], single=odd), draw)


@SETTINGS
@given(st.sampled_from(WRONG_VALUES), st.sampled_from(["rows", "single", "scores", "labels", "meta", "kind", "id"]))
def test_msgspec_wrong_entry_values(wrong: Any, field: str) -> None:
    doc = msgspec.structs.replace(MEnvelope(from_="a"), **{field: wrong})
    check_encode(doc)


@SETTINGS
@given(st.sampled_from(WRONG_VALUES), st.sampled_from(["s", "i", "f", "lit", "tags", "nested"]))
def test_pydantic_wrong_types_encode_like_the_slow_path(wrong: Any, field: str) -> None:
    """``model_construct`` skips validation: typed encode still matches model_dump."""
    cell = PCell.model_construct(**{**PCell(s="s", i=1, f=1.0, b=True).__dict__, field: wrong})
    with warnings.catch_warnings():  # pydantic warns about unexpected types on both paths
        warnings.simplefilter("ignore")
        check_encode(PEnvelope(**{"from": "a"}).model_copy(update={"rows": [cell], "single": cell}))


@pytest.mark.parametrize(
    "record",
    [[], [PNested(a=1)], [PNested(a=1), PNested(a=2, b=["x y", ""])]],
)
def test_empty_and_short_record_arrays(record: list[PNested]) -> None:
    doc = PNumbered(kind="k", others=record)
    text = check_encode(doc)
    assert text is not None
    assert eson.decode(text, type=PNumbered) == doc
