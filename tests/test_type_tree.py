"""The tree of shapes of an annotation (``eson._internal.schema.type_tree``).

The compiler's TOON forms, the prompts' type words and their made-up
examples all read an annotation through :func:`type_node`; these tests pin
what each shape is, what its children are, and that a recursive model costs
nothing until a reader goes down it.
"""

from __future__ import annotations

import datetime
import enum
from collections.abc import Sequence
from typing import Annotated, Any, Literal, NamedTuple, Optional, TypedDict, Union

import annotated_types
import msgspec
import pydantic
import pytest

from eson._internal.codecs.layout import type_words
from eson._internal.schema.compile import binding_for
from eson._internal.schema.type_tree import Shape, type_node

PYDANTIC = binding_for(pydantic.BaseModel)
MSGSPEC = binding_for(msgspec.Struct)


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Hit(pydantic.BaseModel):
    rank: int
    title: str


class Tree(pydantic.BaseModel):
    name: str
    children: list[Tree] = []


class Root(pydantic.RootModel[list[int]]):
    pass


class Pair(NamedTuple):
    left: int
    right: str


class Movie(TypedDict):
    title: str
    year: int


@pytest.mark.parametrize(
    ("annotation", "shape", "nullable"),
    [
        (Any, Shape.ANY, False),
        (object, Shape.ANY, False),
        (None, Shape.NULL, True),
        (type(None), Shape.NULL, True),
        (Literal["a", "b"], Shape.CHOICES, False),
        (Optional[Literal["a"]], Shape.CHOICES, True),  # noqa: UP045
        (Color, Shape.CHOICES, False),
        (Union[int, str], Shape.UNION, False),  # noqa: UP007
        (int | str | None, Shape.UNION, True),
        (dict[str, int], Shape.MAPPING, False),
        (Movie, Shape.MAPPING, False),
        (tuple[int, str], Shape.TUPLE, False),
        (Pair, Shape.TUPLE, False),
        (tuple[int, ...], Shape.LIST, False),
        (list[int], Shape.LIST, False),
        (set[str], Shape.LIST, False),
        (Sequence[float], Shape.LIST, False),
        (list[int] | None, Shape.LIST, True),
        (Hit, Shape.RECORD, False),
        (Hit | None, Shape.RECORD, True),
        (Root, Shape.MODEL, False),
        (int, Shape.TYPE, False),
        (datetime.date, Shape.TYPE, False),
        (Annotated[int, annotated_types.Ge(3)], Shape.TYPE, False),
    ],
)
def test_each_annotation_has_its_shape(annotation: Any, shape: Shape, nullable: bool) -> None:
    node = type_node(annotation, PYDANTIC)
    assert node.shape is shape
    assert node.nullable is nullable
    assert node.annotation is annotation


def test_choices_are_literal_values_and_enum_member_values() -> None:
    nested = Literal["x", 2, Literal["y"]]  # noqa: RUF041 (flattened, as typing does not)
    assert type_node(nested, PYDANTIC).choices == ("x", 2, "y")
    assert type_node(Color, PYDANTIC).choices == ("red", "blue")


def test_children_are_the_members_and_arguments_one_level_down() -> None:
    union = type_node(int | None | list[str], PYDANTIC)
    assert [child.shape for child in union.children] == [Shape.TYPE, Shape.LIST]
    mapping = type_node(dict[str, Optional[int]], PYDANTIC)  # noqa: UP045
    assert [child.bare for child in mapping.children] == [str, int]
    assert mapping.children[1].nullable
    fixed = type_node(tuple[int, str, None], PYDANTIC)
    assert [child.shape for child in fixed.children] == [Shape.TYPE, Shape.TYPE, Shape.NULL]
    variadic = type_node(tuple[bytes, ...], PYDANTIC)
    assert variadic.args == (bytes,)
    assert [child.bare for child in variadic.children] == [bytes]


def test_metadata_is_kept_and_none_is_set_aside_at_each_level() -> None:
    node = type_node(Annotated[list[Annotated[str, annotated_types.MaxLen(3)]], "note"], PYDANTIC)
    assert node.shape is Shape.LIST
    assert node.metadata == ("note",)
    element = node.children[0]
    assert element.bare is str
    assert element.metadata == (annotated_types.MaxLen(3),)


def test_a_custom_serializer_makes_any_value() -> None:
    serialized = Annotated[Literal["a"], pydantic.PlainSerializer(lambda value: 1)]
    assert type_node(serialized, PYDANTIC).shape is Shape.SERIALIZED
    assert type_words(serialized, PYDANTIC) == "any JSON value"


def test_a_recursive_model_is_read_only_as_deep_as_a_reader_goes() -> None:
    """Children are made on first use: a model that holds itself builds one node."""
    node = type_node(list[Tree], PYDANTIC)
    assert "children" not in node.__dict__
    element = node.children[0]
    assert element.shape is Shape.RECORD and element.bare is Tree
    assert node.children is node.children  # made once
    words = type_words(Tree, PYDANTIC)
    assert words.startswith("object {name: string, children: list of object {name: string")
    assert "JSON" in words  # the reader's own depth limit ends it


def test_the_framework_decides_what_is_a_model() -> None:
    class Point(msgspec.Struct):
        x: int

    class Row(msgspec.Struct, array_like=True):
        x: int

    assert type_node(Point, MSGSPEC).shape is Shape.RECORD
    assert type_node(Row, MSGSPEC).shape is Shape.MODEL
