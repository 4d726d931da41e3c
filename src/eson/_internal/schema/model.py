"""The compiled schema of a model type: fields, wire names and shapes.

This model is *format-neutral*: it says which fields a type has, under which
wire names, in which order, and what shape each one takes (a scalar, an
array of scalars, an array of records, one record, or a value whose shape
only the value decides).  The ESON back end (:mod:`eson._internal.codecs.eson_typed`)
turns it into text layouts; a TOON back end can read the same schema.

Two roles exist for one class:

- as a **document** (:class:`DocumentSchema`) its fields are top-level
  entries, each with an :class:`EntryKind`;
- as a **record** (:class:`RecordSchema`) its fields are the columns of a
  row, each value one cell (:class:`CellType`).

Either way each field also has its TOON form (:class:`FieldForm`), which
says how TOON nests its values.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from eson._internal.schema.binding import Binding



class EntryKind(str, enum.Enum):
    """The shape a top-level field takes in a document."""

    SCALAR = "scalar"
    """One value: ``name=cell``."""
    SCALAR_ARRAY = "scalar_array"
    """A list of values that are never records: ``name[N]`` and one cell a line."""
    RECORD_ARRAY = "record_array"
    """A list of one record type: ``name[N]{fields}`` and one row a record."""
    RECORD = "record"
    """One record: ``name{fields}`` and one row."""
    MAPPING = "mapping"
    """A ``dict`` with string keys: one record whose fields are the keys."""
    DYNAMIC = "dynamic"
    """Shape decided by the value at run time (``Any``, mixed unions, custom serializers)."""


class Form(enum.Enum):
    """The TOON form of a field's values (see :class:`FieldForm`)."""

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
class CellType:
    """What the values of one field (or array element) look like.

    Attributes:
        annotation: The declared annotation, metadata included; the model
            framework validates and converts values with it.
        plain: Run-time types whose values already are their JSON-mode form
            (a subset of ``str``, ``int``, ``float``, ``bool``, ``NoneType``);
            a value of another type goes through the framework's conversion.
        choices: For ``Literal`` types of strings only: the allowed strings.
        structured: Values are nested (models, lists, dicts ...): one JSON cell.
    """

    annotation: Any
    plain: frozenset[type]
    choices: frozenset[str] | None = None
    structured: bool = False


@dataclass(frozen=True, eq=False)
class FieldSchema:
    """One field of a model type, as the wire sees it.

    Attributes:
        attr: The Python attribute name.
        wire: The name on the wire (after aliases / renames).
        annotation: The declared annotation, metadata included.
        cell: The field's values as cells (record role), or for a scalar
            array the elements' cell type (document role).
        entry: The field's shape as a top-level entry (document role only).
        record: The record schema of a ``RECORD`` or ``RECORD_ARRAY`` entry.
        nullable: ``None`` is an allowed value (document role).
        required: The field has no default, so decoding needs it.
        output_only: Written but never read back (a computed field).
    """

    attr: str
    wire: str
    annotation: Any
    cell: CellType
    entry: EntryKind | None = None
    record: RecordSchema | None = None
    nullable: bool = False
    required: bool = True
    output_only: bool = False


@dataclass(frozen=True, eq=False)
class FieldForm:
    """One compiled field with its TOON form: what the TOON back end writes and reads.

    TOON nests where ESON keeps a JSON cell, so the TOON back end also needs
    the form of values *inside* records (a nested record, a list of records,
    a list of primitives, a ``dict[str, R]``); the compiler works it out once
    per field, beside the ESON entry kind.  A form is a promise about
    well-formed instances only: the writer and the reader check every value
    before they rely on it and otherwise take the untyped path.

    Attributes:
        field: The compiled field (wire name, attribute, annotation, cell type).
        kind: The form of its values.
        record: The model class of a ``RECORD``, ``RECORDS`` or ``RECORD_MAP``.
        element: The element cell type of ``SCALARS``.
        nullable: ``None`` is a declared value.
        never_dict: A JSON-mode value of this field is never a ``dict``.
        listy: Its non-``None`` ``list``/``tuple``/``set`` values dump to lists.
    """

    field: FieldSchema
    kind: Form
    record: type | None = None
    element: CellType | None = None
    nullable: bool = False
    never_dict: bool = False
    listy: bool = False


@dataclass(frozen=True, eq=False)
class RecordSchema:
    """A model type in the record role: the columns of one row.

    Attributes:
        cls: The model class.
        binding: How values of this class are read, converted and validated.
        fields: The columns, in wire order.
        uniform: Every instance writes exactly these fields (``False`` when
            the framework may add or drop keys per instance, e.g. pydantic
            ``extra="allow"`` or msgspec ``omit_defaults``); the back end then
            takes the framework's own dump for the odd instance.
        extras: Per-instance check for the non-uniform case: returns whether
            this instance carries anything beyond ``fields``.
        declared: The parametrised generic type the schema was compiled for
            (``Page[int]``, whose instances are of class ``Page``), or ``None``
            when that is ``cls`` itself.
        forms: The fields with their TOON forms, in wire order.
    """

    cls: type
    binding: Binding
    fields: tuple[FieldSchema, ...]
    uniform: bool = True
    extras: Callable[[object], bool] | None = None
    declared: Any = None
    forms: tuple[FieldForm, ...] = ()

    @property
    def model_type(self) -> Any:
        """The type as compiled: :attr:`declared`, or else :attr:`cls`."""
        return self.cls if self.declared is None else self.declared

    @property
    def wire_names(self) -> tuple[str, ...]:
        """The wire names, in order."""
        return tuple(item.wire for item in self.fields)


@dataclass(frozen=True, eq=False)
class DocumentSchema:
    """A model type in the document role: its top-level entries.

    Attributes:
        cls: The model class.
        binding: How values of this class are read, converted and validated.
        fields: The entries, in wire order.
        number: Record arrays carry the reserved ``n`` column.
        uniform: See :attr:`RecordSchema.uniform`.
        extras: See :attr:`RecordSchema.extras`.
        by_wire: The fields keyed by wire name.
        declared: See :attr:`RecordSchema.declared`; decoding validates
            against it.
        forms: See :attr:`RecordSchema.forms`.
    """

    cls: type
    binding: Binding
    fields: tuple[FieldSchema, ...]
    number: bool = False
    uniform: bool = True
    extras: Callable[[object], bool] | None = None
    by_wire: Mapping[str, FieldSchema] = field(default_factory=dict)
    declared: Any = None
    forms: tuple[FieldForm, ...] = ()

    @property
    def model_type(self) -> Any:
        """The type as compiled: :attr:`declared`, or else :attr:`cls`."""
        return self.cls if self.declared is None else self.declared
