"""Generic records: parametrised, each is one concrete record type (both flavours).

A Pydantic ``Page[int]`` is a class of its own; a msgspec ``Page[int]`` (and a
dataclass ``Cell[int]``) is a typing alias whose instances are of class ``Page``.
Both compile with their type parameters substituted, and round-trip.
"""

# No "from __future__ import annotations": msgspec resolves annotations at module scope.

import dataclasses
from typing import Generic, TypeVar

import msgspec
import pytest

import eson
import eson.msgspec as em
from eson._internal.schema import EntryKind, document_schema

T = TypeVar("T")


class PPage(eson.Record, Generic[T]):
    index: int
    value: T


class PPaged(eson.Message, number=True):
    kind: str
    pages: list[PPage[int]]
    labels: list[PPage[str]] = []  # noqa: RUF012 (the framework copies defaults)
    first: PPage[float] | None = None


class MPage(em.Record, Generic[T]):
    index: int
    value: T


class MPaged(em.Message, number=True):
    kind: str
    pages: list[MPage[int]]
    labels: list[MPage[str]] = []  # noqa: RUF012 (the framework copies defaults)
    first: MPage[float] | None = None


class Box(msgspec.Struct, Generic[T]):
    """A plain generic Struct: no base class needed."""

    key: str
    value: T


@dataclasses.dataclass
class Cell(Generic[T]):
    key: str
    value: T


class MBoxes(em.Message):
    boxes: list[Box[int]]
    cells: tuple[Cell[bool], ...]


class PCells(eson.Message):
    cells: list[Cell[int]]


PYDANTIC_TEXT = (
    "!eson/1\n"
    "kind=paging\n"
    "pages[2]{n,index,value}\n1\t1\t10\n2\t2\t20\n"
    "labels[1]{n,index,value}\n1\t1\tone\n"
    "first{index,value}\n0\t0.5\n"
)


def test_pydantic_generic_record_round_trips() -> None:
    doc = PPaged(
        kind="paging",
        pages=[PPage[int](index=1, value=10), PPage[int](index=2, value=20)],
        labels=[PPage[str](index=1, value="one")],
        first=PPage[float](index=0, value=0.5),
    )
    text = doc.to_eson()
    assert text == PYDANTIC_TEXT
    assert PPaged.from_eson(text) == doc
    assert eson.decode(text, type=PPaged) == doc
    assert eson.encode(doc) == text


def test_msgspec_generic_record_round_trips() -> None:
    doc = MPaged(
        kind="paging",
        pages=[MPage(1, 10), MPage(2, 20)],
        labels=[MPage(1, "one")],
        first=MPage(0, 0.5),
    )
    text = doc.to_eson()
    assert text == PYDANTIC_TEXT
    assert MPaged.from_eson(text) == doc
    assert eson.Decoder(MPaged).decode(text) == doc
    assert text == eson.encode(msgspec.to_builtins(doc), number=True)


def test_msgspec_generic_records_are_record_arrays() -> None:
    entries = {item.wire: item for item in document_schema(MPaged).fields}
    assert entries["pages"].entry is EntryKind.RECORD_ARRAY
    assert entries["first"].entry is EntryKind.RECORD
    pages = entries["pages"].record
    assert pages is not None
    assert pages.cls is MPage and pages.model_type == MPage[int]
    assert [item.annotation for item in pages.fields] == [int, int]


def test_msgspec_generic_record_values_are_validated_with_the_parameters() -> None:
    text = PYDANTIC_TEXT.replace("2\t2\t20", "2\t2\ttwenty")
    with pytest.raises(eson.ValidationError) as raised:
        MPaged.from_eson(text)
    assert (raised.value.section, raised.value.row, raised.value.field) == ("pages", 2, "value")
    assert raised.value.line == 5
    # ... exactly as msgspec itself decides
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert(eson.decode(text), MPaged)


def test_plain_generic_structs_and_dataclasses_round_trip() -> None:
    doc = MBoxes([Box("a", 1), Box("b", 2)], (Cell("x", True),))
    text = eson.encode(doc)
    assert text == "!eson/1\nboxes[2]{key,value}\na\t1\nb\t2\ncells[1]{key,value}\nx\ttrue\n"
    assert eson.decode(text, type=MBoxes) == doc
    assert msgspec.convert(eson.decode(text), MBoxes) == doc
    with pytest.raises(eson.ValidationError, match=r"cells row 1 \(value\)"):
        eson.decode(text.replace("x\ttrue", "x\t7"), type=MBoxes)


def test_pydantic_message_with_a_generic_dataclass() -> None:
    doc = PCells(cells=[Cell("a", 1)])
    text = doc.to_eson()
    assert text == "!eson/1\ncells[1]{key,value}\na\t1\n"
    assert PCells.from_eson(text) == doc
    with pytest.raises(eson.ValidationError):
        PCells.from_eson(text.replace("a\t1", "a\tone"))


def test_a_parametrised_generic_struct_as_the_document_type() -> None:
    text = eson.encode(MPage(3, 4))
    assert text == "!eson/1\nindex=3\nvalue=4\n"
    assert eson.decode(text, type=MPage[int]) == MPage(3, 4)
    assert eson.Decoder(Box[str]).decode("!eson/1\nkey=k\nvalue=v\n") == Box("k", "v")
    with pytest.raises(eson.ValidationError, match="value"):
        eson.decode("!eson/1\nindex=3\nvalue=four\n", type=MPage[int])
    assert eson.decode("!eson/1\nindex=3\nvalue=four\n", type=MPage) == MPage(3, "four")


def test_pydantic_parametrised_record_as_the_document_type() -> None:
    page = PPage[int](index=3, value=4)
    assert PPage[int].from_eson(page.to_eson()) == page
    with pytest.raises(eson.ValidationError):
        PPage[int].from_eson("!eson/1\nindex=3\nvalue=four\n")


def test_a_parametrisation_that_breaks_a_rule_is_refused_where_it_is_used() -> None:
    class Opaque:
        pass

    with pytest.raises(TypeError, match=r"Bad\.boxes.*\[eson-unsupported-type\]"):

        class Bad(em.Message):
            boxes: list[Box[Opaque]]  # type: ignore[valid-type]

    with pytest.raises(TypeError, match=r"\[eson-record-array\]"):

        class Mixed(em.Message):
            boxes: list[Box[int] | Box[str]]
