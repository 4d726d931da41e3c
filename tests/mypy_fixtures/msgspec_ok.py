"""Correct msgspec-flavoured models: the plugin and the runtime accept every one.

One passing case per rule of ``eson.mypy`` (see ``msgspec_bad.py`` for the failing
ones).
"""

import datetime
import decimal
import enum
import uuid
from collections.abc import Sequence
from typing import Annotated, Generic, Literal, TypeVar

import msgspec

from eson.msgspec import Message, Record

T = TypeVar("T")
Text = TypeVar("Text", bound=str)


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Finding(Record):
    severity: Literal["high", "low"]
    file: str
    line: int


class Note(Record):
    text: str


class Page(Record, Generic[T]):
    """A generic record: parametrised, it is one concrete record type."""

    index: int
    value: T


class Point(msgspec.Struct):
    """A plain msgspec Struct used as a record."""

    x: float
    y: float


class Box(msgspec.Struct, Generic[T]):
    """A plain generic msgspec Struct."""

    key: str
    value: T


# Rule 1 (eson-record-array): one concrete record type per array.
class Review(Message):
    findings: list[Finding]
    notes: Sequence[Note]
    maybe: list[Finding] | None
    pairs: tuple[Finding, ...]
    points: list[Point]
    tags: list[str]
    ids: list[int | str]
    meta: Note
    same: list[Finding] | tuple[Finding, ...] | None


class Paged(Message):
    """Record arrays (and a single record) of parametrised generic records."""

    pages: list[Page[int]]
    boxes: list[Box[float]]
    first: Page[str]


class Labels(Message, Generic[Text]):
    """A type variable that is never a record: a scalar array."""

    labels: list[Text]


class BaseReview(Message):
    kind: str


class FollowUp(BaseReview):
    """A subclass of a subclass."""


class FinalReview(FollowUp):
    findings: list[Finding]


# Rule 2 (eson-wire-name): names and renames inside the name production.
class Located(Record, rename="kebab"):
    order_id: int
    line_no: int = msgspec.field(name="line.no")


class Mapped(Record, rename={"order_id": "order.id"}):
    order_id: int
    text: str


# Rule 3 (eson-reserved-n): "n" that is not the first field, or renamed away.
class Numbered(Record):
    text: str
    n: int


class Counted(Record):
    n: int = msgspec.field(name="num")
    text: str = ""


class Ranked(Message, number=True):
    findings: list[Finding]
    points: list[Point]


class Unranked(Message):
    """Not numbered: a record with "n" after its first field is ordinary data."""

    numbered: list[Numbered]


# Rule 4 (eson-duplicate-name): renames that keep names unique.
class Swapped(Record):
    a: int = msgspec.field(name="b")
    b: int = msgspec.field(name="a")


class Camel(Record, rename="camel"):
    first_name: str
    last_name: str


class Extended(Camel):
    middle_name: str = ""


# Rule 5 (eson-unsupported-type): every supported kind of cell.
class Everything(Record):
    text: str
    number: int
    ratio: float
    flag: bool
    nothing: None
    optional: int | None
    either: int | str
    choice: Literal["a", "b"]
    colour: Colour
    when: datetime.datetime
    day: datetime.date
    clock: datetime.time
    ident: uuid.UUID
    amount: decimal.Decimal
    blob: bytes
    point: Point
    points: list[Point]
    pair: tuple[int, str]
    many: tuple[int, ...]
    unique: set[str]
    frozen: frozenset[int]
    table: dict[str, list[int]]
    sized: Annotated[int, msgspec.Meta(ge=0)]
