"""What a field's values look like as TOON: the shapes of the typed TOON back end.

The compiled schema (:mod:`eson._internal.schema`) says which fields a model class has,
under which wire names, with which cell types.  TOON nests where ESON keeps a
JSON cell, so the TOON back end also needs the shape of fields *inside*
records: a nested record, a list of records, a list of primitives, a
``dict[str, R]``.  :func:`field_shapes` reads that off the same compiled
fields (their annotations), with the same annotation helpers.

A shape is a promise about well-formed instances only; the writer and the
reader check every value before they rely on it and otherwise take the
untyped path, so a wrong guess costs time, never correctness.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from eson._internal.schema.annotations import (
    CONVERTED_LEAVES,
    NONE_TYPE,
    PLAIN_TYPES,
    cell_type,
    container_args,
    container_kind,
    is_any,
    literal_values,
    strip_none,
    union_members,
    unwrap,
)
from eson._internal.schema.binding import Binding
from eson._internal.schema.compile import record_schema
from eson._internal.schema.model import CellType, FieldSchema, RecordSchema

# Classes whose JSON-mode form is a string or a number (the leaf table).
_SCALAR_CLASSES: frozenset[type] = CONVERTED_LEAVES


class Kind(enum.Enum):
    """The TOON shape of a field's values."""

    LEAF = "leaf"
    """A primitive: ``key: value``, one cell in a table row."""
    RECORD = "record"
    """One model instance: ``key:`` and its fields one level deeper."""
    RECORDS = "records"
    """A ``list``/``tuple`` of one model type: a table, or list items."""
    SCALARS = "scalars"
    """A ``list``/``tuple`` of primitives: ``key[N]: a,b,c``."""
    RECORD_MAP = "record_map"
    """A ``dict[str, R]`` of one model type: a keyed table ``key[N:]{...}:``."""
    OTHER = "other"
    """Anything else (``Any``, mappings, unions of shapes ...): always the untyped path."""


@dataclass(frozen=True, eq=False)
class FieldShape:
    """One field of a model class, with its TOON shape.

    Attributes:
        field: The compiled field (wire name, attribute, annotation, cell type).
        kind: The shape of its values.
        record: The model class of a ``RECORD``, ``RECORDS`` or ``RECORD_MAP``.
        element: The element cell type of ``SCALARS``.
        nullable: ``None`` is a declared value.
        never_dict: A JSON-mode value of this field is never a ``dict``.
        listy: Its non-``None`` ``list``/``tuple``/``set`` values dump to lists.
    """

    field: FieldSchema
    kind: Kind
    record: type | None = None
    element: CellType | None = None
    nullable: bool = False
    never_dict: bool = False
    listy: bool = False


def nested_record(cls: type, binding: Binding) -> RecordSchema | None:
    """The record schema of a nested model class, or ``None`` if it has none.

    A class that breaks an ESON rule (a wire name ESON cannot write, say) is
    still fine inside a TOON value; it just takes the untyped path.
    """
    try:
        return record_schema(cls, binding)
    except (TypeError, NameError):
        return None


def _never_dict(bare: Any) -> bool:
    """Whether a non-container, non-model annotation's JSON-mode values are never objects."""
    if bare is None or bare is NONE_TYPE or bare in PLAIN_TYPES:
        return True
    if literal_values(bare) is not None:
        return True
    return isinstance(bare, type) and issubclass(bare, (enum.Enum, *_SCALAR_CLASSES))


def _classify(
    annotation: Any, owner: type, binding: Binding, depth: int = 0
) -> tuple[Kind, type | None, Any, bool, bool]:
    """``(kind, record class, element annotation, never_dict, listy)`` of an annotation."""
    rest, _ = strip_none(annotation)
    bare, metadata = unwrap(rest)
    if depth > 20 or binding.serialized_annotation(metadata) is not None or is_any(bare):
        return Kind.OTHER, None, None, False, False
    if literal_values(bare) is not None or bare is NONE_TYPE or bare is None:
        return Kind.LEAF, None, None, True, False
    members = union_members(bare)
    if members is not None:
        parts = [_classify(member, owner, binding, depth + 1) for member in members]
        if all(part[0] is Kind.LEAF for part in parts):
            return Kind.LEAF, None, None, all(part[3] for part in parts), False
        never = all(part[3] for part in parts)
        return Kind.OTHER, None, None, never, False
    container = container_kind(bare)
    if container == "mapping":
        args = container_args(bare)
        origin = getattr(bare, "__origin__", bare)
        if len(args) == 2 and origin is dict and unwrap(args[0])[0] is str:
            value, nullable_value = strip_none(args[1])
            value_bare, value_meta = unwrap(value)
            if (
                not nullable_value
                and binding.serialized_annotation(value_meta) is None
                and binding.model_shape(value_bare) == "record"
            ):
                return Kind.RECORD_MAP, value_bare, None, False, False
        return Kind.OTHER, None, None, False, False
    if container is not None:
        args = container_args(bare)
        origin = getattr(bare, "__origin__", bare)
        homogeneous = container != "tuple" or (len(args) == 2 and args[1] is Ellipsis)
        if not homogeneous or origin not in (list, tuple) or not args:
            return Kind.OTHER, None, None, True, True
        element = args[0]
        element_rest, element_nullable = strip_none(element)
        element_bare, element_meta = unwrap(element_rest)
        if binding.serialized_annotation(element_meta) is not None or is_any(element_bare):
            return Kind.OTHER, None, None, True, True
        if binding.model_shape(element_bare) == "record":
            if element_nullable:
                return Kind.OTHER, None, None, True, True
            return Kind.RECORDS, element_bare, None, True, True
        kind = _classify(element, owner, binding, depth + 1)[0]
        if kind is Kind.LEAF:
            return Kind.SCALARS, None, element, True, True
        return Kind.OTHER, None, None, True, True
    shape = binding.model_shape(bare)
    if shape == "record":
        return Kind.RECORD, bare, None, False, False
    if shape is not None:
        return Kind.OTHER, None, None, False, False
    return Kind.LEAF, None, None, _never_dict(bare), False


def field_shapes(owner: type, fields: Sequence[FieldSchema], binding: Binding) -> list[FieldShape]:
    """The TOON shapes of a model class's compiled fields, in wire order."""
    shapes: list[FieldShape] = []
    for item in fields:
        kind, record, element, never, listy = _classify(item.annotation, owner, binding)
        _, nullable = strip_none(item.annotation)
        element_cell = cell_type(element, owner, binding) if element is not None else None
        shapes.append(FieldShape(item, kind, record, element_cell, nullable, never, listy))
    return shapes
