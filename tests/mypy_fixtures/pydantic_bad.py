"""Incorrect Pydantic-flavoured models: one rule broken per class
(but for the classes under "Several rules at once").

Each offending line carries the exact mypy error after ``# E:``.  The tests check
that mypy with ``eson.mypy`` reports exactly these, and that defining each marked
class at run time raises ``TypeError`` naming the same code.  Unmarked classes are
helpers, correct on their own.
"""

# Each marker comment must stay on the line it describes: no reformatting here.
# fmt: off

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Generic, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

import eson

T = TypeVar("T")


class Finding(eson.Record):
    severity: str
    line: int


class Note(eson.Record):
    text: str


BoundT = TypeVar("BoundT", bound=Finding)


@runtime_checkable  # else Pydantic itself cannot build a validator for the field
class HasId(Protocol):
    id: int


class Widget:
    """An arbitrary class without an ESON codec."""


class Hooked(BaseModel):
    """A plain model with a field no codec handles."""

    name: str
    hook: Callable[[], None]


class Indexed(BaseModel):
    """A plain model whose first field is n."""

    n: int
    text: str


@dataclass
class Line:
    n: int
    text: str


class Labelled(eson.Record):
    """A record with an "n" that is not first: fine unless the message is numbered."""

    text: str
    n: int


# Rule 1: eson-record-array
class Mixed(eson.Message):
    items: list[Finding | Note]  # E: Record array "items" must hold one concrete record type, not "list[Finding | Note]"; split it into one array per record type  [eson-record-array]


class EitherArray(eson.Message):
    items: list[Finding] | list[Note]  # E: Record array "items" must hold one concrete record type, not "list[Finding] | list[Note]"; split it into one array per record type  [eson-record-array]


class AnyRows(eson.Message):
    items: list[Any]  # E: Record array "items" must hold one concrete record type, not "list[Any]"; declare a Record class for the rows and use "list[ThatRecord]"  [eson-record-array]


class ObjectRows(eson.Message):
    items: list[object]  # E: Record array "items" must hold one concrete record type, not "list[object]"; declare a Record class for the rows and use "list[ThatRecord]"  [eson-record-array]


class DictRows(eson.Message):
    items: list[dict[str, Any]]  # E: Record array "items" must hold one concrete record type, not "list[dict[str, Any]]"; declare a Record class for the rows and use "list[ThatRecord]"  [eson-record-array]


class GenericRows(eson.Message, Generic[T]):
    items: list[T]  # E: Record array "items" must hold one concrete record type, not "list[T]"; type variable "T" is unbound (it may be any type), so the rows could be of more than one record type; declare them as one concrete Record class ("list[ThatRecord]"), one array per record type  [eson-record-array]


class BoundGenericRows(eson.Message, Generic[BoundT]):
    items: list[BoundT]  # E: Record array "items" must hold one concrete record type, not "list[BoundT]"; type variable "BoundT" is bound to "Finding" (it admits every subclass), so the rows could be of more than one record type; declare them as one concrete Record class ("list[ThatRecord]"), one array per record type  [eson-record-array]


class ArrayOrSingle(eson.Message):
    items: list[Finding] | Finding  # E: Record array "items" must hold one concrete record type, not "list[Finding] | Finding"; a record array cannot share its field with other types, so declare them as separate fields  [eson-record-array]


class SingleOrArray(eson.Message):
    items: Finding | list[Finding] | None  # E: Record array "items" must hold one concrete record type, not "Finding | list[Finding] | None"; a record array cannot share its field with other types, so declare them as separate fields  [eson-record-array]


class ArrayOrScalar(eson.Message):
    items: list[Finding] | int  # E: Record array "items" must hold one concrete record type, not "list[Finding] | int"; a record array cannot share its field with other types, so declare them as separate fields  [eson-record-array]


class NullableGenericRows(eson.Message, Generic[T]):
    items: list[T | None]  # E: Record array "items" must hold one concrete record type, not "list[T | None]"; type variable "T" is unbound (it may be any type), so the rows could be of more than one record type; declare them as one concrete Record class ("list[ThatRecord]"), one array per record type  [eson-record-array]


class ProtocolRows(eson.Message):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    items: list[HasId]  # E: Record array "items" must hold one concrete record type, not "list[HasId]"; use a concrete Record class instead of a protocol  [eson-record-array]


class MixedSequence(eson.Message):
    items: Sequence[Finding | Note]  # E: Record array "items" must hold one concrete record type, not "Sequence[Finding | Note]"; split it into one array per record type  [eson-record-array]


class MixedTuple(eson.Message):
    items: tuple[Finding | Note, ...]  # E: Record array "items" must hold one concrete record type, not "tuple[Finding | Note, ...]"; split it into one array per record type  [eson-record-array]


class NullableRows(eson.Message):
    items: list[Finding | None]  # E: Record array "items" must hold one concrete record type, not "list[Finding | None]"; rows cannot be null, so drop None from the element type  [eson-record-array]


class ReviewBase(eson.Message):
    kind: str


class ReviewMiddle(ReviewBase):
    pass


class DeepMixed(ReviewMiddle):
    items: list[Finding | Note]  # E: Record array "items" must hold one concrete record type, not "list[Finding | Note]"; split it into one array per record type  [eson-record-array]


class AnyOrNoneRows(eson.Message):
    items: list[Any | None]  # E: Record array "items" must hold one concrete record type, not "list[Any | None]"; declare a Record class for the rows and use "list[ThatRecord]"  [eson-record-array]


class IntOrDictRows(eson.Message):
    items: list[int | dict[str, int]]  # E: Record array "items" must hold one concrete record type, not "list[int | dict[str, int]]"; declare a Record class for the rows and use "list[ThatRecord]"  [eson-record-array]



class BaseRecordRows(eson.Message):
    items: list[eson.Record]  # E: Record array "items" must hold one concrete record type, not "list[Record]"; "Record" is a base class with no fields, so every row would be read back empty; declare a Record class for the rows and use "list[ThatRecord]"  [eson-record-array]


class BaseModelRows(eson.Message):
    items: list[BaseModel]  # E: Record array "items" must hold one concrete record type, not "list[BaseModel]"; "BaseModel" is a base class with no fields, so every row would be read back empty; declare a Record class for the rows and use "list[ThatRecord]"  [eson-record-array]

# Several rules at once.  The runtime raises for the first broken rule in rule order
# (eson._internal.schema.rules.CHECK_ORDER: eson-record-array before eson-unsupported-type); the
# plugin reports every field, and each field for its first broken rule only.
class TwoRules(eson.Message):
    hook: Callable[[], None]  # E: Field "hook" has type "Callable[[], None]", which ESON cannot encode (a callable); use str, int, float, bool, None, a Literal, an Enum, a date/time, UUID, Decimal, bytes, a model, or a list, tuple, set or dict of those  [eson-unsupported-type]
    items: list[Finding | Note]  # E: Record array "items" must hold one concrete record type, not "list[Finding | Note]"; split it into one array per record type  [eson-record-array]


class OneFieldTwoRules(eson.Message):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    items: list[Finding | Widget]  # E: Record array "items" must hold one concrete record type, not "list[Finding | Widget]"; split it into one array per record type  [eson-record-array]


# Rule 2: eson-wire-name
class SpacedAlias(eson.Record):
    order_id: int = Field(alias="order id")  # E: Wire name "order id" of field "order_id" is not an ESON name; use ASCII letters, digits, "_", "." or "-", starting with a letter or "_" (for example Field(alias="order_id"))  [eson-wire-name]


class DigitAlias(eson.Record):
    first: int = Field(serialization_alias="1st")  # E: Wire name "1st" of field "first" is not an ESON name; use ASCII letters, digits, "_", "." or "-", starting with a letter or "_" (for example Field(alias="_1st"))  [eson-wire-name]


class AnnotatedAlias(eson.Record):
    naive: Annotated[str, Field(alias="naïve")]  # E: Wire name "naïve" of field "naive" is not an ESON name; use ASCII letters, digits, "_", "." or "-", starting with a letter or "_" (for example Field(alias="na_ve"))  [eson-wire-name]


class NonAsciiName(eson.Record):
    café: str  # E: Field name "café" is not an ESON name; use ASCII letters, digits, "_", "." or "-", starting with a letter or "_" (for example Field(alias="caf_"))  [eson-wire-name]


# Rule 3: eson-reserved-n
class LeadingN(eson.Record):
    n: int  # E: Record "LeadingN" has "n" as its first field, which ESON reserves for row numbers; rename the field or move it after another field  [eson-reserved-n]
    text: str


class AliasedN(eson.Record):
    number: int = Field(alias="n")  # E: Record "AliasedN" has "n" (the wire name of field "number") as its first field, which ESON reserves for row numbers; rename the field or move it after another field  [eson-reserved-n]
    text: str


class EmptyBase(eson.Record):
    pass


class InheritedLeadingN(EmptyBase):
    n: int  # E: Record "InheritedLeadingN" has "n" as its first field, which ESON reserves for row numbers; rename the field or move it after another field  [eson-reserved-n]


class NumberedPlain(eson.Message, number=True):
    rows: list[Indexed]  # E: Record array "rows" is numbered, so its record type "Indexed" cannot have a field named "n" (number=True adds that column itself); rename field "n"  [eson-reserved-n]


class UnnumberedPlain(eson.Message):
    rows: list[Indexed]  # E: Record array "rows" has record type "Indexed", whose first field is "n", which ESON reserves for row numbers; rename that field or move it after another field  [eson-reserved-n]


class NumberedDataclass(eson.Message, number=True):
    lines: list[Line]  # E: Record array "lines" is numbered, so its record type "Line" cannot have a field named "n" (number=True adds that column itself); rename field "n"  [eson-reserved-n]


class NumberedLaterN(eson.Message, number=True):
    notes: list[Labelled]  # E: Record array "notes" is numbered, so its record type "Labelled" cannot have a field named "n" (number=True adds that column itself); rename field "n"  [eson-reserved-n]


# Rule 4: eson-duplicate-name
class AliasClash(eson.Record):  # P: Name "id" already defined (possibly by an import)  [no-redef]
    ident: int = Field(alias="id")
    id: int  # E: Wire name "id" of field "id" is already used by field "ident"; give one of them a distinct wire name with Field(alias=...)  [eson-duplicate-name]


class BaseWithId(eson.Record):
    id: int


class InheritedClash(BaseWithId):  # P: Name "id" already defined (possibly by an import)  [no-redef]
    other: int = Field(alias="id")  # E: Wire name "id" of field "other" is already used by field "id"; give one of them a distinct wire name with Field(alias=...)  [eson-duplicate-name]


class MessageClash(eson.Message):  # P: Name "kind" already defined (possibly by an import)  [no-redef]
    kind: str
    category: str = Field(alias="kind")  # E: Wire name "kind" of field "category" is already used by field "kind"; give one of them a distinct wire name with Field(alias=...)  [eson-duplicate-name]


# Rule 5: eson-unsupported-type
class BaseModelField(eson.Message):
    value: BaseModel  # E: Field "value" has type "BaseModel", which ESON cannot encode (a base class with no fields of its own); use str, int, float, bool, None, a Literal, an Enum, a date/time, UUID, Decimal, bytes, a model, or a list, tuple, set or dict of those  [eson-unsupported-type]


class CallableField(eson.Record):
    callback: Callable[[int], str]  # E: Field "callback" has type "Callable[[int], str]", which ESON cannot encode (a callable); use str, int, float, bool, None, a Literal, an Enum, a date/time, UUID, Decimal, bytes, a model, or a list, tuple, set or dict of those  [eson-unsupported-type]


class ArbitraryClass(eson.Record):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    widget: Widget  # E: Field "widget" has type "Widget", which ESON cannot encode (a class without an ESON codec); use str, int, float, bool, None, a Literal, an Enum, a date/time, UUID, Decimal, bytes, a model, or a list, tuple, set or dict of those  [eson-unsupported-type]


class ArbitraryInList(eson.Record):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    widgets: list[Widget]  # E: Field "widgets" has type "list[Widget]", which ESON cannot encode ("Widget" is a class without an ESON codec); use str, int, float, bool, None, a Literal, an Enum, a date/time, UUID, Decimal, bytes, a model, or a list, tuple, set or dict of those  [eson-unsupported-type]


class ClassObject(eson.Record):
    kind: type[int]  # E: Field "kind" has type "type[int]", which ESON cannot encode (a class object); use str, int, float, bool, None, a Literal, an Enum, a date/time, UUID, Decimal, bytes, a model, or a list, tuple, set or dict of those  [eson-unsupported-type]


class NestedUnsupported(eson.Message):
    hooked: Hooked  # E: Field "hooked" has type "Hooked", which ESON cannot encode (field "Hooked.hook" has type "Callable[[], None]", a callable); use str, int, float, bool, None, a Literal, an Enum, a date/time, UUID, Decimal, bytes, a model, or a list, tuple, set or dict of those  [eson-unsupported-type]


class NestedInArray(eson.Message):
    hooked: list[Hooked]  # E: Field "hooked" has type "list[Hooked]", which ESON cannot encode (field "Hooked.hook" has type "Callable[[], None]", a callable); use str, int, float, bool, None, a Literal, an Enum, a date/time, UUID, Decimal, bytes, a model, or a list, tuple, set or dict of those  [eson-unsupported-type]
