"""What a compiled schema looks like on the wire, in words: for prompts and feedback.

:func:`document_layout` describes, for one model class and one format
(``"eson"`` or ``"toon"``), what its encoder writes:

- the exact header line of every entry, as the encoder writes it, with the
  row count left as ``N`` (``findings[N]{n,severity,file,line,message}`` in
  ESON, ``findings[N]{severity,file,line,message}:`` in TOON);
- for every field and column: its type in plain words (``integer``,
  ``one of high, medium, low``, ``list of strings``), whether it may be
  ``null``, whether it may be left out and its default, its description
  (``Field(description=...)``, ``msgspec.Meta(description=...)``) and its
  constraints in brief (``>= 0``, ``at most 8 characters``,
  ``matches ^[a-z]+$``);
- the docstrings of the document class and of each record class.

It is format-aware but framework-neutral: everything comes from the
compiled schema (:mod:`eson._internal.schema`) and its binding.  The prompt builder
(:mod:`eson.agent.prompts`) renders a whole layout; a reply reader can show
one entry (:meth:`DocumentLayout.expected`) to say what a section should
have looked like.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from eson._internal.schema.annotations import (
    LEAF_WORDS,
    strip_none,
    unwrap,
)
from eson._internal.schema.binding import NO_DEFAULT, Binding, FieldNotes
from eson._internal.schema.class_cache import cached
from eson._internal.schema.compile import document_schema, nested_record, record_schema
from eson._internal.schema.model import DocumentSchema, EntryKind, FieldSchema, Form, RecordSchema
from eson._internal.schema.type_tree import Shape, TypeNode, type_node
from eson._internal.wire.eson_lexicon import HEADER

LayoutFormat = Literal["eson", "toon"]

_MAX_DEPTH = 4
_CONSTRAINTS = ("ge", "gt", "le", "lt", "multiple_of", "min_length", "max_length", "pattern")
_OPERATORS = {"ge": ">=", "gt": ">", "le": "<=", "lt": "<"}
_NAMED_TYPES: dict[type, str] = LEAF_WORDS
_PLURALS = {"string": "strings", "integer": "integers", "number": "numbers", "boolean": "booleans"}


@dataclass(frozen=True)
class ValueLayout:
    """One field (or column) of a layout, in words.

    Attributes:
        name: The wire name.
        words: The type in plain words, without ``null`` (see ``nullable``).
        choices: The allowed values of a ``Literal`` or enum field, as they
            are written (strings quoted as JSON where a cell would quote them).
        nullable: ``null`` is allowed.
        required: The field must be present.
        default: The default as JSON text (for a field that may be left out).
        description: The field's description.
        constraints: Its constraints in brief (``">= 0"``, ``"at most 8 characters"``).
        output_only: Written by the encoder but never read back (a computed field).
    """

    name: str
    words: str
    choices: tuple[str, ...] | None = None
    nullable: bool = False
    required: bool = True
    default: str | None = None
    description: str | None = None
    constraints: tuple[str, ...] = ()
    output_only: bool = False

    def notes(self, null: bool = True) -> str:
        """What follows the type words: ``" or null, >= 0; optional, default 0 -- desc"``.

        A list or object that may be null says so on its own level (``",
        or null for no list"``), apart from items that may be null, which
        the type words say (``"list of (strings or null)"``).  ``null=False``
        leaves the null part out (for a caller that words it itself).
        """
        text = ""
        if self.nullable and null:
            text = _null_words(self.words)
        if self.constraints:
            text += ", " + ", ".join(self.constraints)
        if self.output_only:
            text += "; computed by the sender, ignored when read"
        elif not self.required:
            text += "; optional" + (f", default {self.default}" if self.default is not None else "")
        if self.description:
            text += f" \u2014 {self.description}"
        return text

    def describe(self) -> str:
        """``name: words[ or null][, constraints][; optional, default D][ -- description]``."""
        return f"{self.name}: {self.words}{self.notes()}"


@dataclass(frozen=True)
class EntryLayout:
    """One top-level entry of a layout.

    Attributes:
        name: The wire name.
        kind: Its shape (:class:`eson._internal.schema.EntryKind`).
        header: The line the encoder writes to open it, with ``N`` for the
            count; for a scalar, the ``name=`` / ``name:`` prefix and a
            placeholder.
        value: The field itself.
        columns: A record entry's columns (a record array's include the
            reserved ``n`` first when numbered).
        numbered: A record array numbered with ``n``.
        record: The record class's name, for record entries.
        record_doc: The record class's docstring.
        tabular: TOON only: the records form a table (``False``: ``- `` list items).
        element: A scalar array's element type in words.
        exact: The header is exactly what the encoder writes.  ``False``
            for records whose framework may add or drop keys per instance
            (msgspec ``tag=`` / ``omit_defaults`` / ``UNSET``, Pydantic
            ``extra="allow"`` or custom serializers): then the columns are
            the declared fields and the header is the usual one.
    """

    name: str
    kind: EntryKind
    header: str
    value: ValueLayout
    columns: tuple[ValueLayout, ...] = ()
    numbered: bool = False
    record: str | None = None
    record_doc: str | None = None
    tabular: bool = True
    element: str | None = None
    exact: bool = True


@dataclass(frozen=True)
class DocumentLayout:
    """The wire layout of one model class in one format (see :func:`document_layout`)."""

    format: LayoutFormat
    type_name: str
    doc: str | None
    first_line: str | None
    entries: tuple[EntryLayout, ...]

    def header_lines(self) -> list[str]:
        """The first line (``!eson/1``) and every entry's header, in document order."""
        lines = [self.first_line] if self.first_line else []
        return lines + [entry.header for entry in self.entries]

    def entry(self, name: str) -> EntryLayout | None:
        """The entry with this wire name, if any."""
        for entry in self.entries:
            if entry.name == name:
                return entry
        return None

    def expected(self, name: str | None = None) -> str:
        """A few lines saying what one section (or, without a name, the document) should hold.

        Meant for feedback to a model: the header line, then the columns
        whose values are restricted (choices, constraints, nullability).
        """
        entries = self.entries if name is None else [e for e in self.entries if e.name == name]
        lines: list[str] = []
        for entry in entries:
            lines.append(entry.header)
            values = entry.columns if entry.columns else (entry.value,)
            for value in values:
                if value.choices or value.constraints or value.nullable or not value.required:
                    lines.append("  " + value.describe())
        return "\n".join(lines)

    def schema_lines(self) -> list[str]:
        """The full description: every entry's header, then its fields or columns."""
        lines: list[str] = []
        if self.first_line:
            lines.append(f"{self.first_line}    (first line, exactly)")
        for entry in self.entries:
            if not entry.columns and entry.kind is not EntryKind.RECORD:
                lines.append(_scalar_line(entry, self.format))
                continue
            head = entry.header
            note = _entry_note(entry, self.format)
            lines.append(f"{head}    {note}" if note else head)
            lines.extend(f"  {column.describe()}" for column in entry.columns)
        return lines


def _null_words(words: str) -> str:
    """``" or null"``; for a list or object ``", or null for no list"``, never read as its items'."""
    if words.startswith("list"):
        return ", or null for no list"
    if words.startswith("object"):
        return ", or null for no object"
    return " or null"


#: How each format writes an entry's null (a list that is not there).
_NULL_ENTRY: dict[str, str] = {"eson": "{}=null", "toon": "{}: null"}


def _scalar_line(entry: EntryLayout, format: LayoutFormat = "eson") -> str:
    value = entry.value
    if entry.kind is EntryKind.SCALAR_ARRAY:
        # "each ..." is the items' level; a null list is a scalar entry of its own
        text = f"{entry.header}    N values, each {entry.element or 'a JSON value'}"
        if value.nullable:
            null = _NULL_ENTRY[format].format(entry.name)
            text += f"; or {null} for no list"
        return text + value.notes(null=False)
    return f"{entry.header}{value.notes()}"


def _entry_note(entry: EntryLayout, format: LayoutFormat) -> str:
    parts: list[str] = []
    if entry.kind is EntryKind.RECORD_ARRAY:
        if not entry.tabular:  # (TOON: an ESON record array is always rows)
            parts.append("N list items, each a record:")
        else:
            parts.append("N rows, one per record:")
    elif entry.kind is EntryKind.RECORD:
        parts.append("one record:")
    if entry.record_doc:
        parts.append(entry.record_doc)
    if not entry.exact:
        parts.append("(the sender's framework may add or leave out fields per record)")
    if not entry.value.required:
        default = f", default {entry.value.default}" if entry.value.default is not None else ""
        parts.append(f"(optional{default})")
    if entry.value.nullable:
        parts.append("(may be null)")
    if entry.value.description:
        parts.append(f"\u2014 {entry.value.description}")
    return " ".join(parts)


# -- plain words -------------------------------------------------------------------------


def _plural(words: str) -> str:
    return _PLURALS.get(words, words if words.startswith(("list", "object")) else f"{words} values")


def _choice_text(value: object) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value)


def type_words(annotation: Any, binding: Binding, depth: int = 0) -> str:
    """An annotation in plain words: ``"integer"``, ``"list of strings"``, ``"one of a, b"``.

    ``None`` in a union at the top is left out (callers say "or null"
    themselves); inside a list, tuple or mapping it stays on its own level,
    in parentheses: ``list[str | None]`` is ``"list of (strings or null)"``,
    so that it cannot be read as ``list[str] | None``.
    """
    return _words(type_node(annotation, binding), depth)


def _words(node: TypeNode, depth: int) -> str:
    """The words of one node of an annotation's tree (see :func:`type_words`)."""
    shape = node.shape
    if shape is Shape.SERIALIZED or shape is Shape.ANY:
        return "any JSON value"
    if shape is Shape.NULL:
        return "null"
    if shape is Shape.CHOICES:
        return "one of " + ", ".join(_choice_text(value) for value in node.choices)
    if shape is Shape.UNION:
        words = [_words(member, depth + 1) for member in node.children]
        words = [word for word in dict.fromkeys(words) if word != "null"]
        return " or ".join(words)
    if shape in (Shape.MAPPING, Shape.TUPLE, Shape.LIST):
        if depth >= _MAX_DEPTH:
            return "JSON list" if shape is not Shape.MAPPING else "JSON object"
        if shape is Shape.MAPPING:
            if len(node.args) != 2:
                return "object of any values by key"
            value = node.children[1]
            if value.nullable:
                return f"object of ({_words(value, depth + 1)} or null) values by key"
            return f"object of {_words(value, depth + 1)} values by key"
        if shape is Shape.TUPLE:
            inner = ", ".join(_item_words(item, depth + 1) for item in node.children)
            return f"list [{inner}]"
        element = node.children[0]
        plural = _plural(_words(element, depth + 1))
        return f"list of ({plural} or null)" if element.nullable else f"list of {plural}"
    if shape is Shape.RECORD:
        if depth >= _MAX_DEPTH:
            return "JSON object"
        try:
            schema = record_schema(node.bare, node.binding)
        except (TypeError, NameError):
            return "JSON object"
        inner = ", ".join(
            f"{item.wire}: {_field_words(item, node.binding, depth + 1)}" for item in schema.fields
        )
        return f"object {{{inner}}}"
    if shape is Shape.TYPE:
        for cls in node.bare.__mro__:
            if cls in _NAMED_TYPES:
                return _NAMED_TYPES[cls]
        return f"{node.bare.__name__} (JSON value)"
    return "JSON value"  # a model of another shape, or no class at all


def _may_be_null(annotation: Any) -> bool:
    """Whether ``None`` is among an annotation's values (``X | None``, ``Optional[X]``)."""
    _, nullable = strip_none(annotation)
    return nullable


def _item_words(node: TypeNode, depth: int) -> str:
    """An item's words inside a container, its null in parentheses: ``"(string or null)"``."""
    words = _words(node, depth)
    return f"({words} or null)" if node.nullable and words != "null" else words


def element_words(annotation: Any, binding: Binding) -> str:
    """A scalar array's element type in words, ``" or null"`` included when items may be null."""
    words = type_words(annotation, binding)
    return f"{words} or null" if _may_be_null(annotation) and words != "null" else words


def _field_words(item: FieldSchema, binding: Binding, depth: int) -> str:
    words = type_words(item.annotation, binding, depth)
    _, nullable = strip_none(item.annotation)
    return f"{words}{_null_words(words)}" if nullable else words


def _constraints(annotation: Any, words: str) -> tuple[str, ...]:
    """The constraints in an annotation's metadata (annotated-types, Pydantic, msgspec.Meta)."""
    rest, _ = strip_none(annotation)
    _, metadata = unwrap(rest)
    _, outer = unwrap(annotation)
    found: dict[str, Any] = {}
    for item in [*outer, *metadata]:
        for name in _CONSTRAINTS:
            value = getattr(item, name, None)
            if value is not None and name not in found:
                found[name] = value
    unit = "characters" if words == "string" else "items"
    texts: list[str] = []
    for name, value in found.items():
        if name in _OPERATORS:
            texts.append(f"{_OPERATORS[name]} {value}")
        elif name == "multiple_of":
            texts.append(f"a multiple of {value}")
        elif name == "min_length":
            texts.append(f"at least {value} {unit}")
        elif name == "max_length":
            texts.append(f"at most {value} {unit}")
        else:
            texts.append(f"matches {value}")
    return tuple(texts)


def _choices(annotation: Any, binding: Binding) -> tuple[str, ...] | None:
    node = type_node(annotation, binding)
    if node.shape is not Shape.CHOICES:
        return None
    return tuple(_choice_text(value) for value in node.choices)


def _default_text(default: Any) -> str | None:
    if default is NO_DEFAULT:
        return None
    if isinstance(default, enum.Enum):
        default = default.value
    if isinstance(default, (frozenset, set, tuple)):
        default = list(default)
    try:
        text = json.dumps(default, ensure_ascii=False)
    except (TypeError, ValueError):
        return None
    return text if len(text) <= 40 else None


def _value(item: FieldSchema, binding: Binding, notes: dict[str, FieldNotes]) -> ValueLayout:
    words = type_words(item.annotation, binding)
    _, nullable = strip_none(item.annotation)
    note = notes.get(item.attr, FieldNotes())
    return ValueLayout(
        item.wire,
        words,
        _choices(item.annotation, binding),
        nullable,
        item.required,
        None if item.required else _default_text(note.default),
        note.description,
        _constraints(item.annotation, words),
        item.output_only,
    )


def class_doc(cls: type) -> str | None:
    """A class's own docstring, first paragraph, one line (``None`` for generated ones)."""
    doc = cls.__dict__.get("__doc__") if isinstance(cls, type) else None
    if not isinstance(doc, str) or not doc.strip():
        return None
    if doc.startswith(f"{cls.__name__}("):
        return None  # dataclasses write their signature as the docstring
    first = doc.strip().split("\n\n", 1)[0]
    return " ".join(first.split())


def _notes(binding: Binding, cls: type) -> dict[str, FieldNotes]:
    try:
        return binding.notes(cls)
    except Exception:  # a framework quirk must not break describing the layout
        return {}


# -- per format --------------------------------------------------------------------------


def _record_columns(record: RecordSchema, numbered: bool) -> tuple[ValueLayout, ...]:
    notes = _notes(record.binding, record.model_type)
    columns = [_value(item, record.binding, notes) for item in record.fields]
    if numbered:
        columns.insert(0, ValueLayout("n", "row number: 1 for the first row, then 2, 3 ... up to N"))
    return tuple(columns)


def _eson_entry(item: FieldSchema, schema: DocumentSchema, value: ValueLayout) -> EntryLayout:
    kind = item.entry or EntryKind.DYNAMIC
    record = item.record
    if kind in (EntryKind.RECORD_ARRAY, EntryKind.RECORD) and record is not None:
        array = kind is EntryKind.RECORD_ARRAY
        numbered = array and schema.number
        columns = _record_columns(record, numbered)
        fields = ",".join(column.name for column in columns)
        return EntryLayout(
            item.wire,
            kind,
            f"{item.wire}{'[N]' if array else ''}{{{fields}}}",
            value,
            columns,
            numbered,
            record.cls.__name__,
            class_doc(record.cls),
            exact=record.uniform,
        )
    if kind is EntryKind.SCALAR_ARRAY:
        element = element_words(item.cell.annotation, schema.binding)
        return EntryLayout(item.wire, kind, f"{item.wire}[N]", value, element=element)
    if kind is EntryKind.MAPPING:
        return EntryLayout(item.wire, kind, f"{item.wire}{{<keys>}}", value)
    return EntryLayout(item.wire, kind, f"{item.wire}=<{value.words}>", value)


def _toon_fields(record: RecordSchema, delimiter: str, depth: int = 0) -> str | None:
    """A record's TOON table field list (nested groups included), or ``None`` if not tabular."""
    from eson._internal.wire.toon_quoting import format_key

    if depth > _MAX_DEPTH:
        return None
    parts: list[str] = []
    for shape in record.forms:
        name = format_key(shape.field.wire)
        if shape.kind is Form.LEAF:
            parts.append(name)
        elif shape.kind is Form.RECORD and not shape.nullable and shape.record is not None:
            nested = nested_record(shape.record, record.binding)
            inner = _toon_fields(nested, delimiter, depth + 1) if nested is not None else None
            if inner is None:
                return None
            parts.append(f"{name}{{{inner}}}")
        else:
            return None
    return delimiter.join(parts) if parts else None


def _toon_entries(schema: DocumentSchema, delimiter: str) -> tuple[EntryLayout, ...]:
    from eson._internal.wire.toon_quoting import format_key

    marker = "" if delimiter == "," else delimiter
    notes = _notes(schema.binding, schema.model_type)
    entries: list[EntryLayout] = []
    for shape in schema.forms:
        item = shape.field
        value = _value(item, schema.binding, notes)
        key = format_key(item.wire)
        record = nested_record(shape.record, schema.binding) if shape.record is not None else None
        if shape.kind is Form.RECORDS and record is not None:
            columns = _record_columns(record, False)
            fields = _toon_fields(record, delimiter)
            header = f"{key}[N{marker}]{{{fields}}}:" if fields else f"{key}[N{marker}]:"
            entries.append(
                EntryLayout(
                    item.wire,
                    EntryKind.RECORD_ARRAY,
                    header,
                    value,
                    columns,
                    False,
                    record.cls.__name__,
                    class_doc(record.cls),
                    fields is not None,
                    exact=record.uniform,
                )
            )
        elif shape.kind is Form.RECORD and record is not None:
            entries.append(
                EntryLayout(
                    item.wire,
                    EntryKind.RECORD,
                    f"{key}:",
                    value,
                    _record_columns(record, False),
                    False,
                    record.cls.__name__,
                    class_doc(record.cls),
                    exact=record.uniform,
                )
            )
        elif shape.kind is Form.SCALARS:
            element = (
                element_words(shape.element.annotation, schema.binding)
                if shape.element is not None
                else None
            )
            entries.append(
                EntryLayout(
                    item.wire,
                    EntryKind.SCALAR_ARRAY,
                    f"{key}[N{marker}]: <values>",
                    value,
                    element=element,
                )
            )
        elif shape.kind is Form.RECORD_MAP and record is not None:
            fields = _toon_fields(record, delimiter)
            header = f"{key}[N{marker}:]{{{fields}}}:" if fields else f"{key}:"
            entries.append(
                EntryLayout(
                    item.wire,
                    EntryKind.MAPPING,
                    header,
                    value,
                    _record_columns(record, False),
                    False,
                    record.cls.__name__,
                    class_doc(record.cls),
                    fields is not None,
                    exact=record.uniform,
                )
            )
        elif shape.kind is Form.LEAF:
            entries.append(
                EntryLayout(item.wire, EntryKind.SCALAR, f"{key}: <{value.words}>", value)
            )
        else:
            entries.append(
                EntryLayout(item.wire, EntryKind.DYNAMIC, f"{key}: <{value.words}>", value)
            )
    return tuple(entries)




def document_layout(cls: type, format: LayoutFormat = "eson", *, delimiter: str = ",") -> DocumentLayout:
    """The wire layout of model class ``cls`` in ``format`` (cached).

    Args:
        cls: A model class (Pydantic model, msgspec Struct, dataclass).
        format: ``"eson"`` or ``"toon"``.
        delimiter: TOON only: the document delimiter (``","``, ``"\\t"``, ``"|"``).

    Raises:
        TypeError: if ``cls`` is not a model type or breaks a schema rule.
        ValueError: for an unknown format.
    """
    if format not in _ENTRIES:
        raise ValueError(f"format must be 'eson' or 'toon', not {format!r}")
    return cached(cls, ("layout", format, delimiter), lambda: _build_layout(cls, format, delimiter))


def _build_layout(cls: type, format: LayoutFormat, delimiter: str) -> DocumentLayout:
    schema = document_schema(cls)
    entries, first = _ENTRIES[format](schema, delimiter)
    layout = DocumentLayout(
        format, getattr(schema.cls, "__name__", str(cls)), class_doc(schema.cls), first, entries
    )
    return layout


def _eson_layout(
    schema: DocumentSchema, delimiter: str
) -> tuple[tuple[EntryLayout, ...], str | None]:
    """ESON's entries (the delimiter is TOON's) and its header line."""
    notes = _notes(schema.binding, schema.model_type)
    entries = tuple(
        _eson_entry(item, schema, _value(item, schema.binding, notes)) for item in schema.fields
    )
    return entries, HEADER


def _toon_layout(
    schema: DocumentSchema, delimiter: str
) -> tuple[tuple[EntryLayout, ...], str | None]:
    """TOON's entries; it has no header line."""
    return _toon_entries(schema, delimiter), None


#: How each format lays a document's entries out, and its first line.
_ENTRIES: dict[str, Callable[[DocumentSchema, str], tuple[tuple[EntryLayout, ...], str | None]]] = {
    "eson": _eson_layout,
    "toon": _toon_layout,
}
