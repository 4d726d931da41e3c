"""Incorrect msgspec-flavoured models: one rule broken per class
(but for the classes under "Several rules at once").

Each offending line carries the exact mypy error after ``# E:``; see
``pydantic_bad.py`` and ``tests/test_mypy_plugin.py``.
"""

# Each marker comment must stay on the line it describes: no reformatting here.
# fmt: off

from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

import msgspec

from eson.msgspec import Message, Record

T = TypeVar("T")


class Finding(Record):
    severity: str
    line: int


class Note(Record):
    text: str


BoundT = TypeVar("BoundT", bound=Finding)


class HasId(Protocol):
    id: int


class Widget:
    """An arbitrary class without an ESON codec."""


class Indexed(msgspec.Struct):
    """A plain Struct whose first field is n."""

    n: int
    text: str


class Labelled(Record):
    """A record with an "n" that is not first: fine unless the message is numbered."""

    text: str
    n: int


class Hooked(msgspec.Struct):
    name: str
    hook: Callable[[], None]


class Page(Record, Generic[T]):
    """A generic record: fine, but each parametrisation is checked where it is used."""

    index: int
    value: T


# Rule 1: eson-record-array
class Mixed(Message):
    items: list[Finding | Note]  # E: Record array "items" must hold one concrete record type, not "list[Finding | Note]"; split it into one array per record type  [eson-record-array]


class EitherArray(Message):
    items: list[Finding] | list[Note]  # E: Record array "items" must hold one concrete record type, not "list[Finding] | list[Note]"; split it into one array per record type  [eson-record-array]


class AnyRows(Message):
    items: list[Any]  # E: Record array "items" must hold one concrete record type, not "list[Any]"; declare a Record class for the rows and use "list[ThatRecord]"  [eson-record-array]


class DictRows(Message):
    items: list[dict[str, Any]]  # E: Record array "items" must hold one concrete record type, not "list[dict[str, Any]]"; declare a Record class for the rows and use "list[ThatRecord]"  [eson-record-array]


class GenericRows(Message, Generic[T]):
    items: list[T]  # E: Record array "items" must hold one concrete record type, not "list[T]"; type variable "T" is unbound (it may be any type), so the rows could be of more than one record type; declare them as one concrete Record class ("list[ThatRecord]"), one array per record type  [eson-record-array]


class BoundGenericRows(Message, Generic[BoundT]):
    items: list[BoundT]  # E: Record array "items" must hold one concrete record type, not "list[BoundT]"; type variable "BoundT" is bound to "Finding" (it admits every subclass), so the rows could be of more than one record type; declare them as one concrete Record class ("list[ThatRecord]"), one array per record type  [eson-record-array]


class ArrayOrSingle(Message):
    items: list[Finding] | Finding  # E: Record array "items" must hold one concrete record type, not "list[Finding] | Finding"; a record array cannot share its field with other types, so declare them as separate fields  [eson-record-array]


class ProtocolRows(Message):
    items: list[HasId]  # E: Record array "items" must hold one concrete record type, not "list[HasId]"; use a concrete Record class instead of a protocol  [eson-record-array]


class ReviewBase(Message):
    kind: str


class ReviewMiddle(ReviewBase):
    pass


class DeepMixed(ReviewMiddle):
    items: list[Finding | Note]  # E: Record array "items" must hold one concrete record type, not "list[Finding | Note]"; split it into one array per record type  [eson-record-array]



class BaseRecordRows(Message):
    items: list[Record]  # E: Record array "items" must hold one concrete record type, not "list[Record]"; "Record" is a base class with no fields, so every row would be read back empty; declare a Record class for the rows and use "list[ThatRecord]"  [eson-record-array]


class StructRows(Message):
    items: list[msgspec.Struct]  # E: Record array "items" must hold one concrete record type, not "list[Struct]"; "Struct" is a base class with no fields, so every row would be read back empty; declare a Record class for the rows and use "list[ThatRecord]"  [eson-record-array]

# Several rules at once: see pydantic_bad.py.
class TwoRules(Message):
    hook: Callable[[], None]  # E: Field "hook" has type "Callable[[], None]", which ESON cannot encode (a callable); use str, int, float, bool, None, a Literal, an Enum, a date/time, UUID, Decimal, bytes, a model, or a list, tuple, set or dict of those  [eson-unsupported-type]
    items: list[Finding | Note]  # E: Record array "items" must hold one concrete record type, not "list[Finding | Note]"; split it into one array per record type  [eson-record-array]


# Rule 2: eson-wire-name
class SpacedName(Record):
    order_id: int = msgspec.field(name="order id")  # E: Wire name "order id" of field "order_id" is not an ESON name; use ASCII letters, digits, "_", "." or "-", starting with a letter or "_" (for example msgspec.field(name="order_id"))  [eson-wire-name]


class RenamedBadly(Record, rename={"order_id": "order id"}):
    order_id: int  # E: Wire name "order id" of field "order_id" is not an ESON name; use ASCII letters, digits, "_", "." or "-", starting with a letter or "_" (for example msgspec.field(name="order_id"))  [eson-wire-name]


class NonAsciiName(Record):
    café: str  # E: Field name "café" is not an ESON name; use ASCII letters, digits, "_", "." or "-", starting with a letter or "_" (for example msgspec.field(name="caf_"))  [eson-wire-name]


# Rule 3: eson-reserved-n
class LeadingN(Record):
    n: int  # E: Record "LeadingN" has "n" as its first field, which ESON reserves for row numbers; rename the field or move it after another field  [eson-reserved-n]
    text: str


class RenamedToN(Record, rename={"number": "n"}):
    number: int  # E: Record "RenamedToN" has "n" (the wire name of field "number") as its first field, which ESON reserves for row numbers; rename the field or move it after another field  [eson-reserved-n]
    text: str


class NumberedPlain(Message, number=True):
    rows: list[Indexed]  # E: Record array "rows" is numbered, so its record type "Indexed" cannot have a field named "n" (number=True adds that column itself); rename field "n"  [eson-reserved-n]


class UnnumberedPlain(Message):
    rows: list[Indexed]  # E: Record array "rows" has record type "Indexed", whose first field is "n", which ESON reserves for row numbers; rename that field or move it after another field  [eson-reserved-n]


class NumberedLaterN(Message, number=True):
    notes: list[Labelled]  # E: Record array "notes" is numbered, so its record type "Labelled" cannot have a field named "n" (number=True adds that column itself); rename field "n"  [eson-reserved-n]


# Rule 4: eson-duplicate-name
class FieldNameClash(Record):
    ident: int = msgspec.field(name="id")
    id: int = 0  # E: Wire name "id" of field "id" is already used by field "ident"; give one of them a distinct wire name with msgspec.field(name=...)  [eson-duplicate-name]


class CaseClash(Record, rename="lower"):
    Name: str
    name: str  # E: Wire name "name" of field "name" is already used by field "Name"; give one of them a distinct wire name with msgspec.field(name=...)  [eson-duplicate-name]


class BaseWithId(Record):
    id: int


class InheritedClash(BaseWithId):
    other: int = msgspec.field(name="id")  # E: Wire name "id" of field "other" is already used by field "id"; give one of them a distinct wire name with msgspec.field(name=...)  [eson-duplicate-name]


# Rule 5: eson-unsupported-type
class StructField(Message):
    value: msgspec.Struct  # E: Field "value" has type "Struct", which ESON cannot encode (a base class with no fields of its own); use str, int, float, bool, None, a Literal, an Enum, a date/time, UUID, Decimal, bytes, a model, or a list, tuple, set or dict of those  [eson-unsupported-type]


class ArrayLike(Record, array_like=True):  # E: "ArrayLike" is array_like, so its instances are written as JSON arrays with no field names and have no ESON layout; drop array_like=True  [eson-unsupported-type]
    x: int


class CallableField(Record):
    callback: Callable[[int], str]  # E: Field "callback" has type "Callable[[int], str]", which ESON cannot encode (a callable); use str, int, float, bool, None, a Literal, an Enum, a date/time, UUID, Decimal, bytes, a model, or a list, tuple, set or dict of those  [eson-unsupported-type]


class ArbitraryClass(Record):
    widget: Widget  # E: Field "widget" has type "Widget", which ESON cannot encode (a class without an ESON codec); use str, int, float, bool, None, a Literal, an Enum, a date/time, UUID, Decimal, bytes, a model, or a list, tuple, set or dict of those  [eson-unsupported-type]


class NestedUnsupported(Message):
    hooked: Hooked  # E: Field "hooked" has type "Hooked", which ESON cannot encode (field "Hooked.hook" has type "Callable[[], None]", a callable); use str, int, float, bool, None, a Literal, an Enum, a date/time, UUID, Decimal, bytes, a model, or a list, tuple, set or dict of those  [eson-unsupported-type]


class GenericUnsupported(Message):
    pages: list[Page[Widget]]  # E: Field "pages" has type "list[Page[Widget]]", which ESON cannot encode (field "Page.value" has type "Widget", a class without an ESON codec); use str, int, float, bool, None, a Literal, an Enum, a date/time, UUID, Decimal, bytes, a model, or a list, tuple, set or dict of those  [eson-unsupported-type]
