"""Correct Pydantic-flavoured models: the plugin and the runtime accept every one.

One passing case per rule of ``eson.mypy`` (see ``pydantic_bad.py`` for the failing
ones).  Never edited without running ``tests/test_mypy_plugin.py``.
"""

import datetime
import decimal
import enum
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Generic, Literal, TypeVar

from pydantic import BaseModel, Field

import eson

T = TypeVar("T")
Text = TypeVar("Text", bound=str)


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Finding(eson.Record):
    severity: Literal["high", "low"]
    file: str
    line: int


class Note(eson.Record):
    text: str


class Page(eson.Record, Generic[T]):
    """A generic record: parametrised, it is one concrete record type."""

    index: int
    value: T


class Point(BaseModel):
    """A plain Pydantic model used as a record."""

    x: float
    y: float


@dataclass
class Row:
    """A standard-library dataclass used as a record."""

    key: str
    count: int


@dataclass
class Cell(Generic[T]):
    """A generic standard-library dataclass: parametrised, one concrete record type."""

    key: str
    value: T


# Rule 1 (eson-record-array): one concrete record type per array.
class Review(eson.Message):
    findings: list[Finding]
    notes: Sequence[Note]
    maybe: list[Finding] | None
    pairs: tuple[Finding, ...]
    points: list[Point]
    rows: list[Row] | None
    tags: list[str]
    ids: list[int | str]
    meta: Note
    same: list[Finding] | tuple[Finding, ...] | None


class Paged(eson.Message):
    """Record arrays (and a single record) of parametrised generic records."""

    pages: list[Page[int]]
    cells: list[Cell[float]]
    first: Page[str]


class Labels(eson.Message, Generic[Text]):
    """A type variable that is never a record: a scalar array."""

    labels: list[Text]


class BaseReview(eson.Message):
    kind: str


class FollowUp(BaseReview):
    """A subclass of a subclass."""


class FinalReview(FollowUp):
    findings: list[Finding]


# Rule 2 (eson-wire-name): aliases inside the name production.
class Located(eson.Record):
    order_id: int = Field(alias="order.id")
    line_no: int = Field(serialization_alias="line-no")
    private: Annotated[str, Field(alias="_private")]


# Rule 3 (eson-reserved-n): "n" that is not the first field, or aliased away.
class Numbered(eson.Record):
    text: str
    n: int


class Counted(eson.Record):
    n: int = Field(alias="num")
    text: str


class Ranked(eson.Message, number=True):
    findings: list[Finding]
    points: list[Point]


class Unranked(eson.Message):
    """Not numbered: a record with "n" after its first field is ordinary data."""

    numbered: list[Numbered]


# Rule 4 (eson-duplicate-name): aliases that swap names stay unique.
class Swapped(eson.Record):
    a: int = Field(alias="b")
    b: int = Field(alias="a")


class Extended(Located):
    extra: str = Field(alias="extra.info")


# Rule 5 (eson-unsupported-type): every supported kind of cell.
class Everything(eson.Record):
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
    sized: Annotated[int, Field(ge=0)]
