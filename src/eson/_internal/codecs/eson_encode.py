"""Writing model instances as ESON text: the typed fast path.

For a class, :class:`DocumentWriter` builds -- once -- a generated function
that reads each field straight off the instance (``obj.kind``) and writes
its entry; record arrays are written column by column (one attribute getter
call per record, then one cell encoder per column).  The result is byte for
byte what the untyped path gives::

    eson.encode(model.model_dump(mode="json", by_alias=True))   # Pydantic
    eson.encode(msgspec.to_builtins(struct))                     # msgspec

Whenever a value is not of the declared shape (a ``None`` record, a
subclass instance, an unexpected type) that one entry takes the slow path:
the framework's JSON-mode conversion of the value, then the untyped writer.
Instances whose key set may vary (Pydantic ``extra="allow"``, msgspec
``omit_defaults`` ...) take the slow path as a whole.
"""

from __future__ import annotations

import keyword
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from eson._internal.accelerator import native, type_mask
from eson._internal.codecs.eson_columns import encode_booleans, encode_numbers
from eson._internal.codecs.generated import compile_function
from eson._internal.codecs.records import record_getter
from eson._internal.schema.binding import Binding, FieldSpec
from eson._internal.schema.model import DocumentSchema, EntryKind, FieldSchema, RecordSchema
from eson._internal.wire.eson_cells import encode_cell, encode_column, encode_str, encode_str_column
from eson._internal.wire.eson_lexicon import HEADER
from eson._internal.wire.eson_writer import encode_document, write_entry
from eson.errors import EncodeError

Lines = list[str]
EntryWriter = Callable[[Lines, Any, bool], None]
ColumnEncoder = Callable[[Sequence[Any]], Sequence[str]]
Converter = Callable[[list[Any]], list[Any]]

_row_numbers: list[str] = []


def _numbers(count: int) -> list[str]:
    """The cells ``"1" .. str(count)`` of the reserved ``n`` column."""
    if len(_row_numbers) < count:
        _row_numbers.extend(map(str, range(len(_row_numbers) + 1, count + 1)))
    return _row_numbers[:count]


def _spec(item: FieldSchema) -> FieldSpec:
    return FieldSpec(item.attr, item.wire, item.annotation, item.required, item.output_only)


def _guarded(convert: Converter, section: str, field: str | None) -> Converter:
    """Wrap a framework conversion so its failures become :class:`EncodeError`."""

    def run(values: list[Any]) -> list[Any]:
        try:
            return convert(values)
        except EncodeError:
            raise
        except Exception as exc:
            raise EncodeError(
                f"cannot convert value: {type(exc).__name__}: {exc}",
                section=section,
                field=field,
            ) from exc

    return run


def _locate(values: Sequence[Any], section: str, field: str | None, *, rows: bool) -> None:
    """Re-encode cell by cell to raise the first failure with its row (if ``rows``)."""
    for index, value in enumerate(values):
        try:
            encode_cell(value)
        except EncodeError as exc:
            raise EncodeError(
                exc.reason, section=section, row=index + 1 if rows else None, field=field
            ) from None


_NUMERIC = frozenset({int, float})
_BOOL_ONLY = frozenset({bool})


def _column_encoder(
    owner: type, item: FieldSchema, binding: Binding, section: str, *, single: bool
) -> ColumnEncoder:
    """Encode one column of field values (already read off the records)."""
    plain = item.cell.plain
    convert = _guarded(binding.column_converter(owner, _spec(item)), section, item.wire)
    choice_cells: dict[object, str] | None = None
    if item.cell.choices is not None:
        choice_cells = {choice: encode_str(choice) for choice in item.cell.choices}
        if type(None) in plain:
            choice_cells[None] = "null"
    lookup = choice_cells.__getitem__ if choice_cells is not None else None
    fast: Callable[[Sequence[Any]], list[str] | None] | None = None
    if plain and plain <= _NUMERIC:
        fast = partial(encode_numbers, ints=int in plain, floats=float in plain)
    elif plain == _BOOL_ONLY:
        fast = encode_booleans
    strings = str in plain
    field = item.wire
    rows = not single

    def encode(values: Sequence[Any]) -> Sequence[str]:
        if lookup is not None:
            try:
                return list(map(lookup, values))
            except (KeyError, TypeError):
                pass
        if fast is not None:
            cells = fast(values)
            if cells is not None:
                return cells
        elif strings:
            try:  # a str subclass gives the same cell as its str value
                return encode_str_column(values)
            except TypeError:  # not all strings
                pass
        if not plain.issuperset(map(type, values)):
            values = convert(list(values))
        try:
            return encode_column(values)
        except EncodeError:
            _locate(values, section, field, rows=rows)
            raise

    return encode


class _RecordLayout:
    """The columns of one record type inside one section."""

    def __init__(self, owner: type, name: str, record: RecordSchema, *, single: bool) -> None:
        self.cls = record.cls
        self.width = len(record.fields)
        self.fields = ",".join(record.wire_names)
        attrs = [item.attr for item in record.fields]
        self.read = (
            record.binding.columns_reader(record.cls, attrs) or record_getter(attrs)
            if attrs
            else None
        )
        self.encoders = [
            _column_encoder(record.cls, item, record.binding, name, single=single)
            for item in record.fields
        ]
        self.extras = record.extras
        self.always_slow = not record.uniform and record.extras is None
        # The accelerator's plan: how it reads the fields, and the exact value
        # types each column may hold (others go through the code below).
        self.native: tuple[type, int, tuple[object, ...], tuple[int, ...]] | None = None
        access = record.binding.native_access(record.cls, attrs) if attrs else None
        if native is not None and access is not None and record.uniform:
            masks = tuple(type_mask(item.cell.plain) for item in record.fields)
            self.native = (record.cls, access[0], access[1], masks)

    def native_rows(
        self, records: list[Any], number: bool, prefix: str | None = None, suffix: str | None = None
    ) -> str | None:
        """The accelerator's rows of ``records`` (LF-joined), or ``None`` if it declines.

        ``prefix`` and ``suffix`` are written before and after the rows, into
        the same str (a whole document without a join that copies it).
        """
        plan = self.native
        if plan is None or native is None:
            return None
        return native.encode_rows(
            records, plan[0], plan[1], plan[2], plan[3], number, None, None, prefix, suffix
        )

    def accepts(self, records: Sequence[Any]) -> bool:
        """Whether every record is exactly of this type with the fixed key set."""
        if self.always_slow:
            return False
        if set(map(type, records)) != {self.cls}:
            return False
        extras = self.extras
        return extras is None or not any(map(extras, records))

    def columns(self, records: list[Any], number: bool) -> list[Sequence[str]] | None:
        """The cells of ``records``, one list per column; ``None`` if unreadable."""
        cells: list[Sequence[str]] = [_numbers(len(records))] if number else []
        if self.read is None:
            return cells
        try:
            columns = self.read(records)
        except Exception:  # an instance not in its usual state: take the slow path
            return None
        cells.extend(encode(column) for encode, column in zip(self.encoders, columns))
        return cells


def _slow_entry(name: str, convert: Converter) -> EntryWriter:
    def write(lines: Lines, value: Any, number: bool) -> None:
        write_entry(lines, name, convert([value])[0], number=number)

    return write


LastWriter = Callable[[Lines, Any, bool], "str | None"]


def _last_writer(owner: type, item: FieldSchema) -> LastWriter | None:
    """For a record array that ends the document: the whole document from the accelerator.

    The writer takes the lines written so far and the entry's value, and
    returns the document (those lines, the entry and the final line break in
    one str, never joined and copied again), or ``None`` when the accelerator
    declines -- then the usual entry writer runs.
    """
    if item.entry is not EntryKind.RECORD_ARRAY or item.record is None or native is None:
        return None
    layout = _RecordLayout(owner, item.wire, item.record, single=False)
    if layout.native is None:
        return None
    name, fields = item.wire, layout.fields

    def write_last(lines: Lines, value: Any, number: bool) -> str | None:
        if not ((type(value) is list or type(value) is tuple) and value):
            return None
        # A snapshot: user code run while writing (a property, a key's __eq__)
        # may change the list, and the count must be that of the rows written.
        records = list(value)
        count = len(records)
        if number:
            head = f"{name}[{count}]{{n{',' if fields else ''}{fields}}}"
        else:
            head = f"{name}[{count}]{{{fields}}}"
        return layout.native_rows(records, number, "\n".join([*lines, head, ""]), "\n")

    return write_last


def _entry_writer(owner: type, item: FieldSchema, binding: Binding) -> EntryWriter:
    """The writer of one top-level entry, specialised to its kind."""
    name = item.wire
    convert = _guarded(binding.column_converter(owner, _spec(item)), name, None)
    slow = _slow_entry(name, convert)
    kind = item.entry

    if kind is EntryKind.SCALAR:
        plain = item.cell.plain
        prefix = f"{name}="

        def write_scalar(lines: Lines, value: Any, number: bool) -> None:
            if type(value) in plain:
                try:
                    lines.append(prefix + encode_cell(value))
                except EncodeError as exc:
                    raise EncodeError(exc.reason, section=name) from None
            else:
                slow(lines, value, number)

        return write_scalar

    if kind is EntryKind.SCALAR_ARRAY:
        element_plain = item.cell.plain

        def write_array(lines: Lines, value: Any, number: bool) -> None:
            if (type(value) is list or type(value) is tuple) and element_plain.issuperset(
                map(type, value)
            ):
                try:
                    cells = encode_column(value)
                except EncodeError:
                    _locate(value, name, None, rows=True)
                    raise
                lines.append(f"{name}[{len(value)}]")
                lines.extend(cells)
                return
            slow(lines, value, number)

        return write_array

    if kind is EntryKind.RECORD_ARRAY:
        assert item.record is not None
        layout = _RecordLayout(owner, name, item.record, single=False)
        fields = layout.fields

        def write_records(lines: Lines, value: Any, number: bool) -> None:
            if type(value) is list or type(value) is tuple:
                # A snapshot: user code run while writing (a property, a key's
                # __eq__, a serializer) may change the list, and the declared
                # count must be that of the rows written.
                records = list(value)
                count = len(records)
                if not count:
                    lines.append(f"{name}[0]")
                    return
                body = layout.native_rows(records, number)
                if body is not None:
                    if number:
                        lines.append(f"{name}[{count}]{{n{',' if fields else ''}{fields}}}")
                    else:
                        lines.append(f"{name}[{count}]{{{fields}}}")
                    lines.append(body)
                    return
                if layout.accepts(records):
                    cells = layout.columns(records, number)
                    if cells is not None:
                        if number:
                            lines.append(f"{name}[{count}]{{n{',' if fields else ''}{fields}}}")
                        else:
                            lines.append(f"{name}[{count}]{{{fields}}}")
                        if cells:
                            lines.append("\n".join(map("\t".join, zip(*cells))))
                        else:
                            lines.extend([""] * count)
                        return
            slow(lines, value, number)

        return write_records

    if kind is EntryKind.RECORD:
        assert item.record is not None
        single = _RecordLayout(owner, name, item.record, single=True)
        head = f"{name}{{{single.fields}}}"

        def write_record(lines: Lines, value: Any, number: bool) -> None:
            row = single.native_rows([value], False)
            if row is not None:
                lines.append(head)
                lines.append(row)
                return
            if single.accepts((value,)):
                cells = single.columns([value], False)
                if cells is not None:
                    lines.append(head)
                    lines.append("\t".join([column[0] for column in cells]))
                    return
            slow(lines, value, number)

        return write_record

    return slow


def _attribute(attr: str) -> str:
    if attr.isidentifier() and not keyword.iskeyword(attr):
        return f"obj.{attr}"
    return f"getattr(obj, {attr!r})"


class DocumentWriter:
    """The compiled ESON writer of one model class (:func:`eson._internal.codecs.eson_typed.writer_for` keeps one a class)."""

    def __init__(self, schema: DocumentSchema) -> None:
        self.schema = schema
        self.binding = schema.binding
        self.function = self._generate(schema)

    def _generate(self, schema: DocumentSchema) -> Callable[[Any, bool], str]:
        namespace: dict[str, Any] = {"HEADER": HEADER, "encode_str": encode_str}
        body = [
            "def encode_document(obj, number):",
            "    lines = [HEADER]",
            "    append = lines.append",
        ]
        last = len(schema.fields) - 1
        for index, item in enumerate(schema.fields):
            writer = f"write_{index}"
            namespace[writer] = _entry_writer(schema.cls, item, schema.binding)
            whole = _last_writer(schema.cls, item) if index == last else None
            body.append(f"    # {item.wire}: {item.entry.value if item.entry else ''}")
            body.append(f"    value = {_attribute(item.attr)}")
            if whole is not None:
                # The last entry: the accelerator writes the whole document.
                namespace["write_last"] = whole
                body.append("    text = write_last(lines, value, number)")
                body.append("    if text is not None:")
                body.append("        return text")
            if item.entry is EntryKind.SCALAR and str in item.cell.plain:
                body.append("    if type(value) is str:")
                body.append(f"        append({item.wire + '='!r} + encode_str(value))")
                body.append("    else:")
                body.append(f"        {writer}(lines, value, number)")
            else:
                body.append(f"    {writer}(lines, value, number)")
        body.append("    append('')")
        body.append("    return '\\n'.join(lines)")
        source = "\n".join(body) + "\n"
        label = f"ESON writer for {schema.cls.__module__}.{schema.cls.__qualname__}"
        function: Callable[[Any, bool], str] = compile_function(
            "encode_document", source, namespace, label
        )
        return function

    def encode(self, obj: object, number: bool | None = None) -> str:
        """Write ``obj`` (an instance of the compiled class) as an ESON document."""
        schema = self.schema
        numbered = schema.number if number is None else number
        if not schema.uniform and (schema.extras is None or schema.extras(obj)):
            return self.encode_slow(obj, numbered)
        try:
            return self.function(obj, numbered)
        except EncodeError as exc:
            if exc.section is not None:
                raise
            # A string cell the fast paths take as always writable (a surrogate
            # pair held as two code points is not): the reference path says where.
            return self.encode_slow(obj, numbered)

    def encode_slow(self, obj: object, number: bool) -> str:
        """The reference path: the framework's JSON-mode dump, then the untyped writer."""
        try:
            document = self.binding.dump(obj)
        except Exception as exc:
            raise EncodeError(
                f"cannot convert {type(obj).__qualname__}: {type(exc).__name__}: {exc}"
            ) from exc
        return encode_document(document, number=number)
