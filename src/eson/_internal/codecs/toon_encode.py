"""Writing model instances as TOON text: the typed fast path.

The result is byte for byte what the untyped writer gives for the model's
JSON-mode dump, with the same options::

    eson.toon.encode(model.model_dump(mode="json", by_alias=True))   # Pydantic
    eson.toon.encode(msgspec.to_builtins(struct))                     # msgspec

The untyped writer chooses each value's form by looking at the value (a
table when the elements of an array are objects with one key set and
primitive or uniformly nested values, list items otherwise, a keyed table
for an object of two or more uniform objects ...).  The typed writer makes
the same choice from the compiled schema plus cheap checks of the values it
holds (exact types, ``None``, empty containers), and writes that form
directly from the instances: each class gets a generated function that
reads its fields off the instance (``obj.status``) and writes their lines;
record arrays become tables column by column, or list items when a field
rules the table out.

Wherever the schema does not settle the form (``Any``, ``dict[str, int]``,
a subclass instance, a value of the wrong type, a ``dict[str, R]`` with one
entry ...), that one value goes the reference way: the framework's JSON-mode
conversion of the value, then the untyped writer, at the same place in the
output.  Instances whose key set may vary (Pydantic ``extra="allow"``,
msgspec ``omit_defaults`` ...) and anything the fast path does not expect
take the reference path as a whole.
"""

from __future__ import annotations

import keyword
import threading
from collections.abc import Callable, Sequence
from typing import Any

from eson._internal.accelerator import native, type_mask
from eson._internal.codecs.generated import compile_function
from eson._internal.codecs.records import record_getter
from eson._internal.codecs.toon_columns import format_bools, format_floats, format_ints
from eson._internal.schema.binding import Binding, FieldSpec
from eson._internal.schema.class_cache import cached
from eson._internal.schema.compile import nested_record
from eson._internal.schema.model import DocumentSchema, FieldForm, FieldSchema, Form
from eson._internal.wire.options import indent_size_of
from eson._internal.wire.toon_header import HeaderField, format_fields
from eson._internal.wire.toon_limits import MAX_DEPTH
from eson._internal.wire.toon_quoting import (
    DELIMITERS,
    format_float,
    format_key,
    format_str_column,
    format_string,
    primitive_formatter,
    quote,
    table_rows,
)
from eson._internal.wire.toon_writer import Writer, encode_value
from eson.errors import TOONError

#: ``(writer, start, value, inner, level)``: write one field as the untyped
#: ``Writer.member`` would (``start`` is the line's indentation and key).
MemberWriter = Callable[[Writer, str, Any, int, int], None]
Converter = Callable[[list[Any]], list[Any]]

_NONE: type = type(None)
_PLAIN = frozenset({str, int, float, bool, _NONE})
_LISTS = frozenset({list, tuple, set, frozenset})
# Deeper than this, leave the nesting limit checks to the untyped writer.
_DEEP = MAX_DEPTH - 8
# The token of a finite float ``v`` as ``format_float`` gives it, inline: the
# repr without ``.0`` when it has no exponent (zero, either sign, is "0").
_FLOAT_TOKEN = (
    "((_r[:-2] if _r[-2:] == '.0' else _r) if v and 'e' not in (_r := float_repr(v)) "
    "else format_float(v))"
)
# Tables up to this many rows are written row by row (when their fields allow).
_SMALL = 64


class FallbackError(Exception):
    """The fast path does not handle this value: take the reference path."""


class _NotTable:
    """A column rules the table form out (the untyped writer picks list items)."""


class _Unknown:
    """The schema does not settle whether a column fits a table."""


NOT_TABLE = _NotTable()
UNKNOWN = _Unknown()

#: A table layout: the header fields and the formatted leaf columns.
Table = tuple[tuple[HeaderField, ...], list[list[str]]]
ColumnResult = tuple[HeaderField, list[list[str]]] | _NotTable | _Unknown


def _spec(item: FieldSchema) -> FieldSpec:
    return FieldSpec(item.attr, item.wire, item.annotation, item.required, item.output_only)


class _LazyConverter:
    """The framework's JSON-mode conversion of one field, built on first use."""

    __slots__ = ("_binding", "_convert", "_owner", "_spec")

    def __init__(self, owner: type, item: FieldSchema, binding: Binding) -> None:
        self._owner = owner
        self._spec = _spec(item)
        self._binding = binding
        self._convert: Converter | None = None

    def __call__(self, values: list[Any]) -> list[Any]:
        convert = self._convert
        if convert is None:
            convert = self._convert = self._binding.column_converter(self._owner, self._spec)
        return convert(values)


def _enum_classes(annotation: Any) -> frozenset[type]:
    """The ``Enum`` classes an annotation admits (directly or in a union)."""
    import enum

    from eson._internal.schema.annotations import union_members, unwrap

    bare, _ = unwrap(annotation)
    members = union_members(bare)
    if members is not None:
        found: set[type] = set()
        for member in members:
            found |= _enum_classes(member)
        return frozenset(found)
    if isinstance(bare, type) and issubclass(bare, enum.Enum):
        return frozenset({bare})
    return frozenset()


class WriterSet:
    """The compiled writers of every model class, for one set of options.

    Args:
        delimiter: ``","``, ``"\\t"`` or ``"|"``.
        indent_size: Spaces per level (at least 1).
    """

    def __init__(self, delimiter: str, indent_size: int) -> None:
        if delimiter not in DELIMITERS:
            raise ValueError(f"delimiter must be ',', '\\t' or '|', not {delimiter!r}")
        indent_size = indent_size_of(indent_size)
        self.delimiter = delimiter
        self.indent_size = indent_size
        self.symbol = "" if delimiter == "," else delimiter
        self.format = primitive_formatter(delimiter)
        #: The key of this option set's writers in each class's cache
        #: (:mod:`eson._internal.schema.class_cache`: writers die with their class).
        self.key = (delimiter, indent_size)
        self.headers: dict[tuple[HeaderField, ...], str] = {}
        self.lock = threading.RLock()

    def writer(self) -> Writer:
        """A fresh untyped writer (one encoding run) with these options."""
        return Writer(self.delimiter, self.indent_size)

    def header_text(self, fields: tuple[HeaderField, ...]) -> str:
        """The inside of a header's field list, cached."""
        text = self.headers.get(fields)
        if text is None:
            text = self.headers[fields] = format_fields(fields, self.delimiter)
        return text

    def record(self, cls: type, binding: Binding) -> ObjectWriter | None:
        """The object writer of a nested model class, or ``None`` if it has none."""
        schema = nested_record(cls, binding)
        if schema is None:
            return None
        return cached(
            cls,
            ("toon object writer", *self.key),
            lambda: ObjectWriter(self, cls, binding, schema.forms, schema.uniform, schema.extras),
        )

    def document(self, schema: DocumentSchema) -> DocumentWriter:
        """The document writer of a compiled document schema, cached."""
        return cached(
            schema.cls, ("toon document writer", *self.key), lambda: DocumentWriter(self, schema)
        )


class ObjectWriter:
    """Writes the fields of one model class as TOON object lines.

    The same writer serves every place an instance can stand: the document
    root, a nested object (``key:`` and the fields below it), a list item
    (the first field on the hyphen line) and the rows of a table (column by
    column).  Its field writers are built on first use, so recursive model
    types work.
    """

    def __init__(
        self,
        writers: WriterSet,
        cls: type,
        binding: Binding,
        forms: Sequence[FieldForm],
        uniform: bool,
        extras: Callable[[object], bool] | None,
    ) -> None:
        self.writers = writers
        self.cls = cls
        self.binding = binding
        self.forms = tuple(forms)
        self.fields = tuple(form.field for form in forms)
        self.extras = extras
        self.always_slow = not uniform and extras is None
        self.empty = not self.fields
        self._ready = False
        self._lock = threading.Lock()
        self.shapes: list[FieldForm] = []
        self.keyed_possible = False
        self._write: Callable[[Writer, Any, str, str, int, int], None] | None = None
        self._columns: list[Callable[[Sequence[Any], int], ColumnResult]] = []
        self._read: Callable[[list[Any]], Sequence[Sequence[Any]]] | None = None
        self._listy: list[int] = []
        self.rows: Callable[[list[Any], str], list[str] | None] | None = None
        self.flat_header = ""
        # The accelerator's plan for flat tables (see eson_encode._RecordLayout).
        self.native: tuple[type, int, tuple[object, ...], tuple[int, ...]] | None = None
        self._members: list[MemberWriter] = []
        self._cells: list[Callable[[Sequence[Any]], list[str] | None] | None] = []

    # ------------------------------------------------------------ compiling

    def prepare(self) -> None:
        """Build the field writers and the generated functions (once)."""
        if not self._ready:
            self._prepare()

    def _prepare(self) -> None:
        with self._lock:
            if self._ready:
                return
            self.shapes = list(self.forms)
            self.keyed_possible = len(self.shapes) >= 2 and not any(
                shape.never_dict for shape in self.shapes
            )
            converters = [
                _LazyConverter(self.cls, shape.field, self.binding) for shape in self.shapes
            ]
            members = [self._member(*pair) for pair in zip(self.shapes, converters)]
            self._members = members
            self._cells = [
                self._leaf_cells(shape, convert) if shape.kind is Form.LEAF else None
                for shape, convert in zip(self.shapes, converters)
            ]
            self._columns = [self._column(*pair) for pair in zip(self.shapes, converters)]
            self._listy = [i for i, shape in enumerate(self.shapes) if shape.listy]
            attrs = [item.attr for item in self.fields]
            if attrs:
                self._read = self.binding.columns_reader(self.cls, attrs) or record_getter(attrs)
            self._write = self._generate(members)
            if (
                self.fields
                and not self.always_slow
                and self.extras is None
                and all(
                    shape.kind is Form.LEAF and shape.field.cell.plain & _PLAIN
                    for shape in self.shapes
                )
            ):  # every instance has these fields, and they may all be plain
                self.rows = self._generate_rows()
                self.flat_header = self.writers.header_text(
                    tuple(HeaderField(item.wire) for item in self.fields)
                )
                access = self.binding.native_access(self.cls, attrs)
                if native is not None and access is not None:
                    masks = tuple(type_mask(item.cell.plain) for item in self.fields)
                    self.native = (self.cls, access[0], access[1], masks)
            # From now on ``self.write_fields(...)`` calls the generated function
            # directly (the instance attribute shadows the method).
            self.__dict__["write_fields"] = self._write
            self._ready = True

    def _generate(
        self, members: list[MemberWriter]
    ) -> Callable[[Writer, Any, str, str, int, int], None]:
        writers = self.writers
        namespace: dict[str, Any] = {
            "FallbackError": FallbackError,
            "MAX_DEPTH": MAX_DEPTH,
            "safe": _safe_function(writers.delimiter),
            "quote": quote,
            "int_repr": int.__repr__,
            "float_repr": float.__repr__,
            "format_float": format_float,
        }
        body = [
            "def write_fields(w, obj, first, pad, inner, level):",
            "    if level > MAX_DEPTH:",
            "        raise FallbackError",
            "    append = w.lines.append",
            "    sub = level + 1",
        ]
        for index, (shape, member) in enumerate(zip(self.shapes, members)):
            item = shape.field
            name = f"member_{index}"
            namespace[name] = member
            prefix = "first" if index == 0 else "pad"
            key = format_key(item.wire)
            attr = item.attr
            if attr.isidentifier() and not keyword.iskeyword(attr):
                body.append(f"    v = obj.{attr}")
            else:
                body.append(f"    v = getattr(obj, {attr!r})")
            plain = item.cell.plain if shape.kind is Form.LEAF else frozenset()
            head = repr(key + ": ")
            branches: list[tuple[str, str]] = []
            if str in plain and item.cell.choices is not None and shape.kind is Form.LEAF:
                choices = f"choices_{index}"
                namespace[choices] = {
                    choice: key + ": " + format_string(choice, writers.delimiter)
                    for choice in item.cell.choices
                }
                branches.append((f"type(v) is str and v in {choices}", f"{prefix} + {choices}[v]"))
            if str in plain:
                branches.append(
                    (
                        "type(v) is str",
                        f"{prefix} + {head} + (v if safe(v) is not None else quote(v))",
                    )
                )
            if int in plain:
                branches.append(("type(v) is int", f"{prefix} + {head} + int_repr(v)"))
            if float in plain:
                branches.append(
                    ("type(v) is float and v - v == 0.0", f"{prefix} + {head} + {_FLOAT_TOKEN}")
                )
            if bool in plain:
                branches.append(("v is True", f"{prefix} + {key + ': true'!r}"))
                branches.append(("v is False", f"{prefix} + {key + ': false'!r}"))
            if _NONE in plain or (shape.nullable and shape.kind is not Form.OTHER):
                branches.append(("v is None", f"{prefix} + {key + ': null'!r}"))
            keyword_ = "if"
            for test, line in branches:
                body.append(f"    {keyword_} {test}:")
                body.append(f"        append({line})")
                keyword_ = "elif"
            call = f"{name}(w, {prefix} + {key!r}, v, inner, sub)"
            if branches:
                body.append("    else:")
                body.append(f"        {call}")
            else:
                body.append(f"    {call}")
        source = "\n".join(body) + "\n"
        label = f"TOON writer for {self.cls.__module__}.{self.cls.__qualname__}"
        function: Callable[[Writer, Any, str, str, int, int], None] = compile_function(
            "write_fields", source, namespace, label
        )
        return function

    def _generate_rows(self) -> Callable[[list[Any], str], list[str] | None]:
        """Rows of a table of records whose fields all hold plain primitives, one by one.

        For small tables this beats going column by column.  Returns ``None``
        as soon as a value is not of a plain type (the column path decides).
        """
        delimiter = self.writers.delimiter
        namespace: dict[str, Any] = {
            "safe": _safe_function(delimiter),
            "quote": quote,
            "int_repr": int.__repr__,
            "float_repr": float.__repr__,
            "format_float": format_float,
        }
        body = [
            "def rows(records, pad):",
            "    out = []",
            "    append = out.append",
            "    for obj in records:",
        ]
        cells = []
        for index, item in enumerate(self.fields):
            plain = item.cell.plain & _PLAIN
            attr = item.attr
            value = f"v{index}"
            cell = f"c{index}"
            cells.append(cell)
            if attr.isidentifier() and not keyword.iskeyword(attr):
                body.append(f"        {value} = obj.{attr}")
            else:
                body.append(f"        {value} = getattr(obj, {attr!r})")
            branches: list[tuple[str, str]] = []
            if str in plain and item.cell.choices is not None:
                choices = f"choices_{index}"
                namespace[choices] = {
                    choice: format_string(choice, delimiter) for choice in item.cell.choices
                }
                branches.append(
                    (f"type({value}) is str and {value} in {choices}", f"{choices}[{value}]")
                )
            if str in plain:
                branches.append(
                    (
                        f"type({value}) is str",
                        f"{value} if safe({value}) is not None else quote({value})",
                    )
                )
            if int in plain:
                branches.append((f"type({value}) is int", f"int_repr({value})"))
            if float in plain:
                branches.append(
                    (
                        f"type({value}) is float and {value} - {value} == 0.0",
                        _FLOAT_TOKEN.replace("v", value),
                    )
                )
            if bool in plain:
                branches.append((f"{value} is True", "'true'"))
                branches.append((f"{value} is False", "'false'"))
            if _NONE in plain:
                branches.append((f"{value} is None", "'null'"))
            keyword_ = "if"
            for test, expression in branches:
                body.append(f"        {keyword_} {test}:")
                body.append(f"            {cell} = {expression}")
                keyword_ = "elif"
            body.append("        else:")
            body.append("            return None")
        joined = f" + {delimiter!r} + ".join(cells)
        body.append(f"        append(pad + {joined})")
        body.append("    return out")
        source = "\n".join(body) + "\n"
        label = f"TOON rows for {self.cls.__module__}.{self.cls.__qualname__}"
        function: Callable[[list[Any], str], list[str] | None] = compile_function(
            "rows", source, namespace, label
        )
        return function

    # ------------------------------------------------------------ fields

    @staticmethod
    def _slow(convert: Converter) -> MemberWriter:
        def slow(w: Writer, start: str, value: Any, inner: int, level: int) -> None:
            w.member(start, convert([value])[0], inner, level)

        return slow

    def _member(self, shape: FieldForm, convert: Converter) -> MemberWriter:
        """The writer of one field, specialised to its shape."""
        slow = self._slow(convert)
        kind = shape.kind
        writers = self.writers
        if kind is Form.LEAF:
            return self._leaf_member(shape, slow)
        if kind is Form.SCALARS:
            assert shape.element is not None
            element_plain = shape.element.plain & _PLAIN
            form = writers.format
            symbol = writers.symbol
            join = writers.delimiter.join

            def scalars(w: Writer, start: str, value: Any, inner: int, level: int) -> None:
                kind_ = type(value)
                if (
                    (kind_ is list or kind_ is tuple)
                    and element_plain.issuperset(map(type, value))
                    and _finite(value)
                ):
                    if level > _DEEP:
                        raise FallbackError
                    if value:
                        cells: list[str] = list(map(form, value))  # type: ignore[arg-type]
                        w.lines.append(f"{start}[{len(value)}{symbol}]: {join(cells)}")
                    else:
                        w.lines.append(start + ": []")
                elif value is None:
                    w.lines.append(start + ": null")
                else:
                    slow(w, start, value, inner, level)

            return scalars
        if kind in (Form.RECORD, Form.RECORDS, Form.RECORD_MAP):
            assert shape.record is not None
            record = writers.record(shape.record, self.binding)
            if record is None:
                return slow
            if kind is Form.RECORD:
                return _record_member(record, slow)
            if kind is Form.RECORDS:
                return _records_member(record, slow)
            return _record_map_member(record, slow)
        return slow

    def _leaf_member(self, shape: FieldForm, slow: MemberWriter) -> MemberWriter:
        """A primitive field whose value is not of a plain type (the generated code has those)."""
        enums = _enum_classes(shape.field.annotation)
        form = self.writers.format
        if not enums:
            return slow

        def leaf(w: Writer, start: str, value: Any, inner: int, level: int) -> None:
            if type(value) in enums:
                cell = form(value.value)
                if cell is not None:
                    w.lines.append(start + ": " + cell)
                    return
            slow(w, start, value, inner, level)

        return leaf

    # ------------------------------------------------------------ columns

    def _column(
        self, shape: FieldForm, convert: Converter
    ) -> Callable[[Sequence[Any], int], ColumnResult]:
        """The table column of one field: its header field and leaf cells, or why not."""
        item = shape.field
        name = item.wire
        leaf = HeaderField(name)
        kind = shape.kind
        if kind is Form.LEAF:
            cells = self._leaf_cells(shape, convert)

            def leaf_column(values: Sequence[Any], budget: int) -> ColumnResult:
                formatted = cells(values)
                if formatted is None:
                    return UNKNOWN
                return leaf, [formatted]

            return leaf_column
        if kind is Form.RECORD:
            assert shape.record is not None
            record = self.writers.record(shape.record, self.binding)

            def record_column(values: Sequence[Any], budget: int) -> ColumnResult:
                types = set(map(type, values))
                if types == {_NONE}:
                    return leaf, [["null"] * len(values)]
                if record is None or record.cls not in types or not types <= {record.cls, _NONE}:
                    return UNKNOWN
                present = [value for value in values if value is not None]
                if not record.accepts_all(present):
                    return UNKNOWN
                if len(present) != len(values) or record.empty:
                    return NOT_TABLE  # a null or {} among objects: no nested group
                nested = record.table(present, budget - 1)
                if isinstance(nested, tuple):
                    return HeaderField(name, nested[0]), nested[1]
                return nested

            return record_column

        def other_column(values: Sequence[Any], budget: int) -> ColumnResult:
            types = set(map(type, values))
            if types == {_NONE}:
                return leaf, [["null"] * len(values)]
            if shape.listy and types & _LISTS:
                return NOT_TABLE  # a list is neither a primitive nor an object
            return UNKNOWN

        return other_column

    def _leaf_cells(
        self, shape: FieldForm, convert: Converter
    ) -> Callable[[Sequence[Any]], list[str] | None]:
        """Format a column of primitive field values; ``None`` if one is not a primitive."""
        item = shape.field
        plain = item.cell.plain & _PLAIN
        delimiter = self.writers.delimiter
        form = self.writers.format
        enums = _enum_classes(item.annotation)
        choices: dict[Any, str] | None = None
        if item.cell.choices is not None:
            choices = {choice: format_string(choice, delimiter) for choice in item.cell.choices}
            if _NONE in plain:
                choices[None] = "null"
        lookup = choices.__getitem__ if choices is not None else None
        fast: Callable[[Sequence[Any]], list[str] | None] | None = None
        if plain == {int}:
            fast = format_ints
        elif plain and plain <= {int, float}:
            fast = format_floats
        elif plain == {bool}:
            fast = format_bools
        strings = str in plain

        def cells(values: Sequence[Any]) -> list[str] | None:
            if lookup is not None:
                try:
                    return list(map(lookup, values))
                except (KeyError, TypeError):
                    pass
            if fast is not None:
                done = fast(values)
                if done is not None:
                    return done
            elif strings:
                try:
                    if plain.issuperset(map(type, values)):
                        return format_str_column(values, delimiter)
                except TypeError:  # not all strings
                    pass
            if not plain.issuperset(map(type, values)) or not _finite(values):
                if enums and enums.issuperset(map(type, values)):
                    values = [value.value for value in values]
                else:
                    values = convert(list(values))
            formatted = list(map(form, values))
            if None in formatted:
                return None
            return formatted  # type: ignore[return-value]

        return cells

    # ------------------------------------------------------------ public

    def accepts(self, obj: object) -> bool:
        """Whether ``obj`` is exactly of this class, with the fixed key set."""
        if self.always_slow or type(obj) is not self.cls:
            return False
        extras = self.extras
        return extras is None or not extras(obj)

    def accepts_all(self, records: Sequence[Any]) -> bool:
        """:meth:`accepts` for every element of ``records``."""
        if self.always_slow or set(map(type, records)) != {self.cls}:
            return False
        extras = self.extras
        return extras is None or not any(map(extras, records))

    def could_be_keyed(self, obj: object) -> bool:
        """Whether the untyped writer might write ``obj``'s dump as a keyed table.

        It does so for an object of two or more non-empty objects; ``False``
        here means: certainly not.
        """
        if not self._ready:
            self._prepare()
        if not self.keyed_possible:
            return False
        for item in self.fields:
            value = getattr(obj, item.attr)
            kind = type(value)
            if kind in _PLAIN or kind in _LISTS or (kind is dict and not value):
                return False  # never a non-empty object
        return True

    def write_fields(
        self, w: Writer, obj: Any, first: str, pad: str, inner: int, level: int
    ) -> None:
        """Write ``obj``'s fields, the first line starting with ``first``, the others with ``pad``.

        ``inner`` is the depth of whatever a field opens, ``level`` the
        nesting level of ``obj`` itself.
        """
        write = self._write
        if write is None:
            self._prepare()
            write = self._write
            assert write is not None
        write(w, obj, first, pad, inner, level)

    def native_rows(self, records: list[Any], pad: str, prefix: str | None = None) -> str | None:
        """The accelerator's flat-table rows of ``records`` (LF-joined), or ``None``.

        ``prefix`` is written before the rows, into the same text.
        """
        plan = self.native
        if plan is None or native is None:
            return None
        return native.encode_rows(
            records, plan[0], plan[1], plan[2], plan[3], False, self.writers.delimiter, pad, prefix
        )

    def simple(self) -> bool:
        """Whether every instance of the class is written as ``key:`` and its fields."""
        self.prepare()
        return (
            not self.always_slow
            and self.extras is None
            and not self.empty
            and not self.keyed_possible
        )

    def fragments(self, w: Writer, records: list[Any], depth: int, level: int) -> list[list[str]]:
        """The lines of each record's fields at ``depth`` (``level``: the records'), column-wise.

        What :meth:`write_fields` writes for each record, with the first line
        starting like the others, but computed a field at a time across all
        records: a primitive field's tokens in one pass, a nested record's
        fields likewise, the small tables of a list field as one run of
        rows.  Fields without such a path are written record by record.
        """
        self.prepare()
        if level > _DEEP:
            raise FallbackError
        count = len(records)
        out: list[list[str]] = [[] for _ in range(count)]
        read = self._read
        if read is None:
            return out
        columns = read(records)
        pad = w.pad(depth)
        inner = depth + 1
        sub = level + 1
        writers = self.writers
        for shape, member, cells, values in zip(self.shapes, self._members, self._cells, columns):
            start = pad + format_key(shape.field.wire)
            kind = shape.kind
            if cells is not None:
                tokens = cells(values)
                if tokens is not None:
                    head = start + ": "
                    for lines, token in zip(out, tokens):
                        lines.append(head + token)
                    continue
            elif kind is Form.RECORD and shape.record is not None:
                record = writers.record(shape.record, self.binding)
                if record is not None and record.simple():
                    cls = record.cls
                    present = [value for value in values if value is not None]
                    if all(type(value) is cls for value in present):
                        nested = iter(record.fragments(w, present, inner, sub))
                        opened = start + ":"
                        null = start + ": null"
                        for lines, value in zip(out, values):
                            if value is None:
                                lines.append(null)
                            else:
                                lines.append(opened)
                                lines.extend(next(nested))
                        continue
            elif kind is Form.RECORDS and shape.record is not None:
                record = writers.record(shape.record, self.binding)
                if record is not None and self._small_tables(w, record, start, values, inner, out):
                    continue
            saved = w.lines
            try:
                for lines, value in zip(out, values):
                    w.lines = lines
                    member(w, start, value, inner, sub)
            finally:
                w.lines = saved
        return out

    def _small_tables(
        self,
        w: Writer,
        record: ObjectWriter,
        start: str,
        values: Sequence[Any],
        inner: int,
        out: list[list[str]],
    ) -> bool:
        """Write a list field whose lists are small tables of plain fields, all at once."""
        record.prepare()
        rows = record.rows
        if rows is None:
            return False
        flat: list[Any] = []
        counts: list[int] = []
        for value in values:
            kind = type(value)
            if (kind is not list and kind is not tuple) or len(value) > _SMALL:
                return False
            flat.extend(value)
            counts.append(len(value))
        if set(map(type, flat)) - {record.cls}:
            return False
        cells = rows(flat, w.pad(inner))
        if cells is None:
            return False
        symbol = self.writers.symbol
        header = record.flat_header
        position = 0
        for lines, count in zip(out, counts):
            if count:
                lines.append(f"{start}[{count}{symbol}]{{{header}}}:")
                lines.extend(cells[position : position + count])
                position += count
            else:
                lines.append(start + ": []")
        return True

    def table(self, records: list[Any], budget: int) -> Table | _NotTable | _Unknown:
        """The table layout of ``records`` (all accepted), or why there is none.

        ``budget`` is how many object levels the rows may still span, as in
        the untyped writer.
        """
        if not self._ready:
            self._prepare()
        if self.empty:
            return NOT_TABLE
        if budget < MAX_DEPTH - _DEEP:
            raise FallbackError  # near the nesting limit: the untyped writer decides
        read = self._read
        assert read is not None
        try:
            columns = read(records)
        except Exception:  # an instance not in its usual state
            return UNKNOWN
        for index in self._listy:  # the cheap way to rule the table out first
            if _LISTS.intersection(map(type, columns[index])):
                return NOT_TABLE
        fields: list[HeaderField] = []
        leaves: list[list[str]] = []
        unknown = False
        for column, values in zip(self._columns, columns):
            result = column(values, budget)
            if result is NOT_TABLE:
                return NOT_TABLE
            if isinstance(result, tuple):
                fields.append(result[0])
                leaves.extend(result[1])
            else:
                unknown = True
        if unknown:
            return UNKNOWN
        return tuple(fields), leaves


def _finite(values: Sequence[Any]) -> bool:
    """Whether no ``float`` in ``values`` is NaN or infinite (those depend on config)."""
    return all(value - value == 0.0 for value in values if type(value) is float)


def _safe_function(delimiter: str) -> Callable[[str], object]:
    from eson._internal.wire.toon_quoting import _SAFE_STRING

    return _SAFE_STRING[delimiter].fullmatch


def _record_member(record: ObjectWriter, slow: MemberWriter) -> MemberWriter:
    """A field holding one instance: ``key:`` and its fields one level deeper."""
    cls = record.cls
    simple: list[bool] = []  # every instance goes the plain way (worked out on first use)

    def write(w: Writer, start: str, value: Any, inner: int, level: int) -> None:
        if type(value) is cls:
            if not simple:
                record.prepare()
                simple.append(
                    not record.always_slow
                    and record.extras is None
                    and not record.empty
                    and not record.keyed_possible
                )
            if simple[0] or (
                record.accepts(value) and not record.empty and not record.could_be_keyed(value)
            ):
                w.lines.append(start + ":")
                pad = w.pad(inner)
                record.write_fields(w, value, pad, pad, inner + 1, level)
                return
        elif value is None:
            w.lines.append(start + ": null")
            return
        slow(w, start, value, inner, level)

    return write


def _records_member(record: ObjectWriter, slow: MemberWriter) -> MemberWriter:
    """A field holding a list of instances: a table, or list items."""
    writers = record.writers
    symbol = writers.symbol
    one_class = {record.cls}

    def write(w: Writer, start: str, value: Any, inner: int, level: int) -> None:
        kind = type(value)
        if kind is list or kind is tuple:
            if level > _DEEP:
                raise FallbackError
            count = len(value)
            if not count:
                w.lines.append(start + ": []")
                return
            record.prepare()
            if record.native is not None and native is not None:
                # A flat table of plain values, written by the accelerator.  At
                # the top (inner 1, the document's own lines) the lines so far
                # and the header go into the same text: when the table is the
                # last entry, the document is that text, joined with no copy.
                head = f"{start}[{count}{symbol}]{{{record.flat_header}}}:"
                lines = w.lines
                prefix = "\n".join([*lines, head, ""]) if inner == 1 else None
                records = value if kind is list else list(value)
                body = record.native_rows(records, w.pad(inner), prefix)
                if body is not None:
                    if prefix is None:
                        lines += (head, body)
                    else:
                        lines[:] = [body]
                    return
            rows = record.rows
            if (
                rows is not None
                and count <= _SMALL
                and record.extras is None
                and set(map(type, value)) == one_class
            ):  # a small table of plain fields: row by row
                cells = rows(value, w.pad(inner))
                if cells is not None:
                    w.lines.append(f"{start}[{count}{symbol}]{{{record.flat_header}}}:")
                    w.lines.extend(cells)
                    return
            if record.accepts_all(value):
                records = value if kind is list else list(value)
                layout = record.table(records, MAX_DEPTH - level)
                if isinstance(layout, tuple):
                    fields, columns = layout
                    lines = w.lines
                    lines.append(f"{start}[{count}{symbol}]{{{writers.header_text(fields)}}}:")
                    lines.extend(table_rows(list(columns), writers.delimiter, w.pad(inner)))
                    return
                if layout is NOT_TABLE and not record.empty:
                    lines = w.lines
                    lines.append(f"{start}[{count}{symbol}]:")
                    if level + 1 > MAX_DEPTH:
                        raise FallbackError
                    first = w.pad(inner) + "- "
                    cut = len(w.pad(inner + 1))
                    for item_lines in record.fragments(w, records, inner + 1, level + 1):
                        lines.append(first + item_lines[0][cut:])
                        lines.extend(item_lines[1:])
                    return
        elif value is None:
            w.lines.append(start + ": null")
            return
        slow(w, start, value, inner, level)

    return write


def _record_map_member(record: ObjectWriter, slow: MemberWriter) -> MemberWriter:
    """A ``dict[str, R]`` field: a keyed table when it has two or more entries."""
    writers = record.writers
    symbol = writers.symbol
    join = writers.delimiter.join

    def write(w: Writer, start: str, value: Any, inner: int, level: int) -> None:
        if type(value) is dict and len(value) >= 2 and level <= _DEEP:
            records = list(value.values())
            if set(map(type, value)) == {str} and record.accepts_all(records):
                layout = record.table(records, MAX_DEPTH - level)
                if isinstance(layout, tuple):
                    fields, columns = layout
                    lines = w.lines
                    lines.append(
                        f"{start}[{len(value)}:{symbol}]{{{writers.header_text(fields)}}}:"
                    )
                    pad = w.pad(inner)
                    key = w.key
                    lines.extend(
                        [
                            f"{pad}{key(name)}: {join(cells)}"
                            for name, cells in zip(value, zip(*columns))
                        ]
                    )
                    return
        elif value is None:
            w.lines.append(start + ": null")
            return
        slow(w, start, value, inner, level)

    return write


class DocumentWriter:
    """The compiled TOON writer of one model class, for one set of options."""

    def __init__(self, writers: WriterSet, schema: DocumentSchema) -> None:
        self.writers = writers
        self.schema = schema
        self.binding = schema.binding
        self.object = ObjectWriter(
            writers, schema.cls, schema.binding, schema.forms, schema.uniform, schema.extras
        )

    def encode(self, obj: object) -> str:
        """Write ``obj`` (an instance of the compiled class) as a TOON document."""
        root = self.object
        if not root.accepts(obj) or root.empty or root.could_be_keyed(obj):
            return self.encode_slow(obj)
        w = self.writers.writer()
        try:
            root.write_fields(w, obj, "", "", 1, 1)
        except Exception:  # anything unexpected: the reference path decides
            return self.encode_slow(obj)
        return "\n".join(w.lines)

    def encode_slow(self, obj: object) -> str:
        """The reference path: the framework's JSON-mode dump, then the untyped writer."""
        try:
            document = self.binding.dump(obj)
        except Exception as exc:
            raise TOONError(
                f"cannot convert {type(obj).__qualname__}: {type(exc).__name__}: {exc}"
            ) from exc
        writers = self.writers
        return encode_value(document, delimiter=writers.delimiter, indent_size=writers.indent_size)
