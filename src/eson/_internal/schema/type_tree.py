"""An annotation as a tree of shapes: what the prompts' words and made-up examples read.

The compiler decides how each field travels (:mod:`eson._internal.schema.model`);
the prompts also say what its values *are* -- "list of (strings or null)",
"one of high, low", an object's fields -- and make up an example value.
Both follow the same structure of the annotation: ``None`` taken out at
each level, metadata set aside, then a choice, a union, a container, a model
or a plain type.  :func:`type_node` works that structure out in one place,
and the two readers (:func:`eson._internal.codecs.layout.type_words`, the
examples of :mod:`eson.agent.prompts`) fold over the nodes instead of
walking the annotation each with its own copy of the rules.

A node's children are made when first asked for, so a recursive model
costs nothing until a reader goes down it (each reader stops at its own
depth).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from eson._internal.schema.annotations import (
    NONE_TYPE,
    container_args,
    container_kind,
    is_any,
    literal_values,
    strip_none,
    union_members,
    unwrap,
)

if TYPE_CHECKING:
    from eson._internal.schema.binding import Binding


class Shape(enum.Enum):
    """What one level of an annotation is, once ``None`` and metadata are set aside."""

    SERIALIZED = "serialized"
    """Written by a serializer of its own (its metadata says so): any JSON value."""
    ANY = "any"
    """``Any`` or ``object``."""
    NULL = "null"
    """``None`` alone."""
    CHOICES = "choices"
    """A ``Literal`` or an ``Enum``: :attr:`TypeNode.choices` are its values."""
    UNION = "union"
    """A union (``None`` left out at the top): :attr:`TypeNode.children` are its members."""
    MAPPING = "mapping"
    """A mapping or TypedDict: its arguments (key and value types, or the fields')."""
    TUPLE = "tuple"
    """A tuple of fixed items (a NamedTuple too): one child an item."""
    LIST = "list"
    """A sequence, a set or ``tuple[X, ...]``: the first child is the element."""
    RECORD = "record"
    """A model class whose instances are records (fields by name)."""
    MODEL = "model"
    """Another model shape the framework knows (a root model ...)."""
    TYPE = "type"
    """Any other class (``int``, ``str``, ``datetime`` ...): :attr:`TypeNode.bare`."""
    OTHER = "other"
    """Anything else."""


@dataclass(frozen=True, eq=False)
class TypeNode:
    """One level of an annotation (see :func:`type_node`).

    Attributes:
        annotation: The annotation as given.
        bare: With ``None`` taken out of a top-level union and metadata unwrapped.
        shape: What ``bare`` is.
        nullable: ``None`` is among the annotation's values at this level.
        metadata: The ``Annotated`` metadata of ``bare`` (constraints ...).
        binding: The model framework that reads the annotation.
        choices: The values of a :attr:`Shape.CHOICES` node.
        args: The annotations one level down: a union's members, a
            container's arguments (``Ellipsis`` stands for ``...``).
    """

    annotation: Any
    bare: Any
    shape: Shape
    nullable: bool
    metadata: tuple[Any, ...]
    binding: Binding
    choices: tuple[Any, ...] = ()
    args: tuple[Any, ...] = ()

    @cached_property
    def children(self) -> tuple[TypeNode, ...]:
        """The nodes of :attr:`args` (``Ellipsis`` left out), made on first use."""
        return tuple(type_node(arg, self.binding) for arg in self.args if arg is not Ellipsis)


def type_node(annotation: Any, binding: Binding) -> TypeNode:
    """The top node of ``annotation``'s tree of shapes, as ``binding``'s framework reads it."""
    rest, nullable = strip_none(annotation)
    bare, metadata = unwrap(rest)

    def node(shape: Shape, choices: tuple[Any, ...] = (), args: tuple[Any, ...] = ()) -> TypeNode:
        return TypeNode(annotation, bare, shape, nullable, tuple(metadata), binding, choices, args)

    if binding.serialized_annotation(metadata) is not None:
        return node(Shape.SERIALIZED)
    if is_any(bare):
        return node(Shape.ANY)
    if bare is NONE_TYPE or bare is None:
        return node(Shape.NULL)
    values = literal_values(bare)
    if values is not None:
        return node(Shape.CHOICES, choices=values)
    if isinstance(bare, type) and issubclass(bare, enum.Enum):
        return node(Shape.CHOICES, choices=tuple(member.value for member in bare))
    members = union_members(bare)
    if members is not None:
        return node(Shape.UNION, args=members)
    kind = container_kind(bare)
    if kind is not None:
        args = container_args(bare)
        if kind == "mapping":
            return node(Shape.MAPPING, args=args)
        if kind == "tuple" and not (len(args) == 2 and args[1] is Ellipsis):
            return node(Shape.TUPLE, args=args)
        return node(Shape.LIST, args=args[:1])
    shape = binding.model_shape(bare)
    if shape == "record":
        return node(Shape.RECORD)
    if shape is not None:
        return node(Shape.MODEL)
    return node(Shape.TYPE if isinstance(bare, type) else Shape.OTHER)
