"""Reading ESON text into validated model instances: the typed fast path.

Typed decoding gives exactly what validating the untyped result gives::

    Model.model_validate(eson.decode(text))        # Pydantic
    msgspec.convert(eson.decode(text), Struct)     # msgspec

with one deliberate difference: a record array's reserved ``n`` column is
checked and then dropped when the record type has no field ``n``.

It gets there faster by using the compiled schema to pick cheaper ways to
the same plain values (record sections are split into columns in one pass;
a ``Literal`` column is a dictionary lookup), and, where the framework
allows it, by building record instances straight from validated columns
instead of from one dict per row.  Validation itself is the framework's own
(``__pydantic_validator__.validate_python`` / ``msgspec.convert``), so
validators, constraints and ``extra="forbid"`` / ``forbid_unknown_fields``
behave exactly as usual.  A failure is re-raised as
:class:`eson.errors.ValidationError` located at the line, section, row and
field the value came from.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from eson._internal.accelerator import (
    MODE_GENERIC,
    MODE_INT,
    MODE_NUMBER,
    MODE_STR,
    RAW,
    exact_mask,
    native,
)
from eson._internal.codecs.eson_columns import decode_bare_strings, decode_integers, decode_numbers
from eson._internal.codecs.feedback import attach_expected
from eson._internal.codecs.lenient import fix_text_column, takes_only_text, text_detail, text_repair
from eson._internal.codecs.records import StructPlan, struct_plan
from eson._internal.codecs.validation import check_options
from eson._internal.codecs.validation import validation_error as shared_validation_error
from eson._internal.schema.annotations import literal_values
from eson._internal.schema.binding import Binding, PrebuiltValidator, Problem
from eson._internal.schema.model import DocumentSchema, EntryKind, FieldSchema, RecordSchema
from eson._internal.wire.eson_cells import decode_column, encode_str
from eson._internal.wire.eson_line_reader import (
    LineReader,
    Reading,
    SectionTarget,
    check_swallowed,
    read_fast,
    read_text,
)
from eson._internal.wire.eson_reader import (
    Document,
    Head,
    Section,
    build_records,
    decode_section,
    split_columns,
)
from eson._internal.wire.options import STRICT, ReadOptions
from eson._internal.wire.repairs import Repair, RepairLog
from eson.errors import DecodeError, ESONError, ValidationError

EntryDecoder = Callable[[Section, "RepairLog | None"], Any]
ColumnDecoder = Callable[[Sequence[str]], tuple[list[Any], bool]]


def _located(exc: DecodeError, section: Section, field: str | None) -> DecodeError:
    row = exc.row or 1
    return DecodeError(
        exc.reason, line=section.line + row, section=section.name, row=row, field=field
    )


_NONE = type(None)
_EXACT_TYPES = (int, str, bool)
# How many readings of record heads a decoder keeps (heads come from the text).
_HEADS_KEPT = 256
_UNREAD = object()


def _untyped(texts: Sequence[str]) -> tuple[list[Any], bool]:
    return decode_column(texts), False


_untyped.native_mode = (MODE_GENERIC, False, 0)  # type: ignore[attr-defined]
_exact_mask = exact_mask


def known_cells(item: FieldSchema) -> dict[str, Any] | None:
    """For a field of a few known values (``Literal`` strings, booleans): cell text -> value.

    ``None`` for other fields.  A cell not in the table is decoded the usual way.
    """
    cell = item.cell
    plain = cell.plain
    known: dict[str, Any] | None = None
    if cell.choices is not None:
        known = {encode_str(choice): choice for choice in cell.choices}
    elif plain and plain <= {bool, _NONE}:
        known = {"true": True, "false": False}
    if known is not None and _NONE in plain:
        known["null"] = None
    return known


def _column_decoder(item: FieldSchema) -> ColumnDecoder:
    """Decode one column of cell texts into the untyped values.

    Returns the values and whether they are known to be valid as they are
    for the field's declared type (so a record builder need not convert them).

    The function carries ``native_mode``: the accelerator's mode for the
    same fast path and whether its values are trusted when it holds.
    """
    cell = item.cell
    plain = cell.plain
    annotation = item.annotation
    exact = annotation in _EXACT_TYPES or (
        literal_values(annotation) is not None and cell.choices is not None
    )
    known = known_cells(item)
    if known is not None:
        lookup = known.__getitem__

        def decode_known(texts: Sequence[str]) -> tuple[list[Any], bool]:
            try:
                return list(map(lookup, texts)), exact
            except KeyError:
                return decode_column(texts), False

        decode_known.native_mode = (  # type: ignore[attr-defined]
            known,
            exact,
            _exact_mask(annotation),
        )
        return decode_known
    fast: Callable[[Sequence[str]], list[Any] | None] | None = None
    if plain == {int}:
        fast = decode_integers
    elif plain and plain <= {int, float}:
        fast = decode_numbers
    elif plain and str in plain and plain <= {str, _NONE}:
        fast = decode_bare_strings
    if fast is None:
        return _untyped
    trusted = exact and fast is not decode_numbers
    chosen = fast

    def decode(texts: Sequence[str]) -> tuple[list[Any], bool]:
        values = chosen(texts)
        if values is not None:
            return values, trusted
        return decode_column(texts), False

    decode.native_mode = (  # type: ignore[attr-defined]
        _NATIVE_MODES[fast],
        trusted,
        _exact_mask(annotation),
    )
    return decode


_NATIVE_MODES: dict[Callable[[Sequence[str]], list[Any] | None], int] = {
    decode_integers: MODE_INT,
    decode_numbers: MODE_NUMBER,
    decode_bare_strings: MODE_STR,
}


class _RecordsDecoder:
    """Decode a ``records`` / ``record`` section whose rows are one record type."""

    def __init__(
        self,
        record: RecordSchema,
        numbered: bool = False,
        within: tuple[type, str] | None = None,
    ) -> None:
        self.record = record
        self.numbered = numbered
        self.by_wire = {item.wire: item for item in record.fields if not item.output_only}
        self.decoders = {wire: _column_decoder(item) for wire, item in self.by_wire.items()}
        self.text_fields = frozenset(
            wire for wire, item in self.by_wire.items() if takes_only_text(item.cell)
        )
        self.order = tuple(item.wire for item in record.fields if not item.output_only)
        self.drop_n = "n" not in self.by_wire
        self.build = None
        if len(self.order) == len(record.fields):
            self.build = record.binding.record_builder(record.cls, record.fields, within)
        self.plan: StructPlan | None = None
        if self.build is not None:
            decoders = self.decoders
            self.plan = struct_plan(record, lambda wire: decoders[wire].native_mode)  # type: ignore[attr-defined]
        self._readings: dict[tuple[str, tuple[str, ...] | None], object] = {}

    def reading(
        self, kind: str, fields: tuple[str, ...] | None
    ) -> tuple[type, tuple[object, ...], tuple[int | dict[str, Any], ...], int] | None:
        """The arguments after the text of ``native.read_structs`` for a section, or ``None``.

        For a section of this kind (``"records"`` / ``"record"``) with these
        fields whose rows the accelerator may build straight from the text
        (see :func:`~eson._internal.codecs.records.struct_plan`): the class, its slots, the column kinds
        and the ``numbered`` mode (the reserved ``n`` column checked, and
        dropped when the record has no field ``n``).
        """
        found = self._readings.get((kind, fields), _UNREAD)
        if found is _UNREAD:
            found = self._reading(kind, fields)
            if len(self._readings) < _HEADS_KEPT:
                self._readings[kind, fields] = found
        return found  # type: ignore[return-value]

    def _reading(
        self, kind: str, fields: tuple[str, ...] | None
    ) -> tuple[type, tuple[object, ...], tuple[int | dict[str, Any], ...], int] | None:
        plan = self.plan
        if plan is None or fields is None:
            return None
        cls, slots, kinds = plan
        numbered = kind == "records" and bool(fields) and fields[0] == "n"
        if fields == self.order:
            return cls, slots, kinds, int(numbered)
        if numbered and self.drop_n and fields[1:] == self.order:
            return cls, slots, kinds, 2
        return None

    def _native(
        self, section: Section, fields: tuple[str, ...], drop: bool
    ) -> tuple[list[list[Any]], list[bool]] | None:
        """The columns as the accelerator decodes them, or ``None`` if it declines."""
        assert native is not None
        decoders = [self.decoders.get(field, _untyped) for field in fields]
        modes = tuple(decoder.native_mode[0] for decoder in decoders)  # type: ignore[attr-defined]
        numbered = 0
        if section.kind == "records" and fields[0] == "n":
            numbered = 2 if drop else 1
        done = native.decode_rows(section.body, len(fields), modes, numbered)
        if done is None:
            return None
        columns, flags, types = done
        if drop:
            decoders = decoders[1:]
            fields = fields[1:]
        trusted: list[bool] = []
        for position, (decoder, flag, mask) in enumerate(zip(decoders, flags, types)):
            if flag == RAW:  # cells the accelerator leaves to the Python decoder
                try:
                    columns[position], ok = decoder(columns[position])
                except DecodeError as exc:
                    raise _located(exc, section, fields[position]) from None
                trusted.append(ok)
            else:
                _, trust, exact = decoder.native_mode  # type: ignore[attr-defined]
                # Values all of the field's exact type (int, float, str, bool) are
                # valid as they are, which is what the binding's check would find.
                trusted.append((flag == 1 and trust) or (exact != 0 and mask == exact))
        return columns, trusted

    def __call__(self, section: Section, log: RepairLog | None = None) -> Any:
        fields = section.fields or ()
        drop = self.drop_n and section.kind == "records" and bool(fields) and fields[0] == "n"
        # The accelerator reads strict text only: a lenient read (a repair log)
        # may repair cells, which only the Python column decoders do.
        done = (
            self._native(section, fields, drop)
            if native is not None and fields and log is None and section.start == 1
            else None
        )
        if drop:
            fields = fields[1:]
        elif (
            log is not None
            and self.numbered
            and section.kind == "records"
            and not (fields and fields[0] == "n")
        ):
            log.append(
                Repair(
                    section.line,
                    "missing-n",
                    "the record array has no n column; its rows were read in the order written",
                    section.name,
                )
            )
        if done is not None:
            columns, trusted = done
        else:
            columns_text = split_columns(section)
            if drop:
                columns_text = columns_text[1:]
            columns = []
            trusted = []
            for field, texts in zip(fields, columns_text):
                decode = self.decoders.get(field, _untyped)
                try:
                    values, ok = decode(texts)
                except DecodeError as exc:
                    raise _located(exc, section, field) from None
                if log is not None and not ok and field in self.text_fields:
                    values = fix_text_column(
                        values,
                        texts,
                        log,
                        _row_line(section),
                        section.name,
                        field,
                        section.kind == "records",
                    )
                columns.append(values)
                trusted.append(ok)
        records: list[Any] | None = None
        if self.build is not None and fields == self.order:
            try:
                records = self.build(columns, trusted)
            except Exception:  # the dict path below reports the precise error
                records = None
        if records is None:
            if fields and native is not None:
                records = native.build_dicts(fields, columns)
            elif fields:
                records = build_records(fields, columns, section.count)
            else:
                records = [{} for _ in range(section.count)]
        return records if section.kind == "records" else records[0]


def _by_line(repair: Repair) -> int:
    return repair.line


def _row_line(section: Section) -> Callable[[int], int]:
    first = section.line + 1
    return lambda index: first + index


def _plain_section(section: Section, log: RepairLog | None) -> Any:
    return decode_section(section)


class _RecordEntry:
    """The decoder of a record-array or single-record entry."""

    def __init__(self, records: _RecordsDecoder, wanted: str) -> None:
        self.records = records
        self.wanted = wanted

    def __call__(self, section: Section, log: RepairLog | None) -> Any:
        if section.kind == self.wanted:
            return self.records(section, log)
        return decode_section(section)


def _entry_decoder(item: FieldSchema, numbered: bool, owner: type) -> EntryDecoder:
    if item.record is not None and item.entry in (EntryKind.RECORD_ARRAY, EntryKind.RECORD):
        records = _RecordsDecoder(item.record, numbered, (owner, item.attr))
        wanted = "records" if item.entry is EntryKind.RECORD_ARRAY else "record"
        return _RecordEntry(records, wanted)
    if takes_only_text(item.cell) and item.entry in (EntryKind.SCALAR, EntryKind.SCALAR_ARRAY):

        def decode_text(section: Section, log: RepairLog | None) -> Any:
            value = decode_section(section)
            if log is None:
                return value
            if section.kind == "scalar":
                kind = text_repair(value)
                if kind is None:
                    return value
                raw = section.body[0]
                log.append(Repair(section.line, kind, text_detail(raw), section.name))
                return raw
            if section.kind == "array":
                return fix_text_column(
                    value, section.body, log, _row_line(section), section.name, None
                )
            return value

        return decode_text
    return _plain_section


class DocumentReader:
    """The compiled ESON reader of one model class (:func:`eson._internal.codecs.eson_typed.reader_for` keeps one a class)."""

    def __init__(self, schema: DocumentSchema) -> None:
        self.schema = schema
        self.binding: Binding = schema.binding
        self.validate = schema.binding.validator(schema.model_type)
        self.entries: dict[str, EntryDecoder] = {
            item.wire: _entry_decoder(item, schema.number, schema.model_type)
            for item in schema.fields
            if not item.output_only
        }
        # The record sections whose rows may be read as built Pydantic
        # instances in place of the dicts Pydantic would validate
        # (PydanticBinding.record_builder): the class and the dict keys.
        # (msgspec's built Structs stand for themselves in error messages.)
        self.built: dict[str, tuple[type, tuple[str, ...]]] = {
            item.wire: (item.record.cls, tuple(field.wire for field in item.record.fields))
            for item in schema.fields
            if item.record is not None
            and item.record.binding.name == "pydantic"
            and item.entry in (EntryKind.RECORD_ARRAY, EntryKind.RECORD)
            and not item.output_only
        }
        self.wires = frozenset(self.entries)
        # The record entries whose rows the accelerator may read straight
        # from the text (_fast_plain), and the binding's validation of a
        # document whose record arrays are built (Binding.prebuilt_lists).
        self.struct_entries: dict[str, _RecordsDecoder] = {
            wire: entry.records
            for wire, entry in self.entries.items()
            if isinstance(entry, _RecordEntry) and entry.records.plan is not None
        }
        # Head lines already read (read_head's result depends on the line
        # alone, but for a duplicate name): a bounded number of them.
        self._heads: dict[str, Head] = {}
        self.prebuilt: PrebuiltValidator | None = None
        if self.struct_entries and schema.declared is None:
            self.prebuilt = self.binding.prebuilt_lists(
                schema.cls,
                {
                    wire: records.record.cls
                    for wire, records in self.struct_entries.items()
                    if self.entries[wire].wanted == "records"  # type: ignore[attr-defined]
                },
            )

    def plain(
        self,
        data: Document,
        strict: bool = True,
        repairs: RepairLog | None = None,
        partial: bool = False,
    ) -> tuple[dict[str, Any], list[Section]]:
        """Decode the text into the plain document the framework validates.

        ``strict=False`` reads leniently (text repairs, a missing header, and
        the typed repairs of :mod:`eson._internal.codecs.lenient`), recording each
        repair in ``repairs``; ``partial`` is that of
        :func:`eson._internal.wire.eson_line_reader.read_text`, the one reader of
        ESON text, which decodes each section with this class's entry
        decoders.  Counts are checked either way, and an entry of the schema
        taken in by a one-column array's count is a count error
        (:func:`~eson._internal.wire.eson_line_reader.check_swallowed`).
        """
        log: RepairLog | None = None if strict else []
        try:
            target = read_text(
                data,
                self._decode_section,
                strict=strict,
                repairs=log,
                headerless=not strict,
                partial=partial,
                judge=self._judge,
            )
        finally:
            if repairs is not None and log:
                repairs.extend(sorted(log, key=_by_line))
        return target.document, target.sections

    def _decode_section(self, section: Section, log: RepairLog | None) -> Any:
        return self.entries.get(section.name, _plain_section)(section, log)

    def _judge(self, reader: LineReader, target: SectionTarget) -> None:
        check_swallowed(reader, self.wires, target.names)

    def _fast_plain(self, data: Document) -> tuple[dict[str, Any], list[Section], list[str]] | None:
        """:meth:`plain` of a strict read, with record rows built straight from the text.

        :func:`~eson._internal.wire.eson_line_reader.read_fast` with this class's
        entry decoders, the record entries of :attr:`struct_entries` read by
        ``native.read_structs``; ``None`` (then :meth:`plain` reads the text)
        when that path declines, or when a one-column array may have taken
        in an entry of the schema the document lacks (:meth:`plain` judges).
        """
        done = read_fast(data, self.reading_of, self._decode_section, self._heads)
        if done is None:
            return None
        document, sections, _ = done
        if not self.wires.issubset(document) and any(
            section.kind in ("array", "records") and len(section.fields or ((),)) == 1
            for section in sections
        ):
            return None
        return done

    def reading_of(self, head: Head) -> Reading | None:
        """How ``native.read_structs`` may build the rows of this section, or ``None``.

        Its arguments after the text, start and count, for a record entry of
        the schema whose rows the accelerator may build straight from the
        text (see :meth:`_RecordsDecoder.reading`).
        """
        records = self.struct_entries.get(head.name)
        if records is None or head.kind != self.entries[head.name].wanted:  # type: ignore[attr-defined]
            return None
        return records.reading(head.kind, head.fields)

    def decode(
        self,
        data: Document,
        read: ReadOptions = STRICT,
        repairs: RepairLog | None = None,
        *,
        validation_strict: bool | None = None,
        context: Any = None,
    ) -> Any:
        """Decode and validate; see the module documentation.

        ``read`` says how (its ``strict`` and ``partial``), ``repairs``
        collects a lenient read's repairs; ``validation_strict`` and
        ``context`` go to the framework's validation (see :func:`eson.decode`).
        Every :class:`~eson.errors.ESONError` raised carries the layout the
        type expects, for its ``feedback`` (:mod:`eson._internal.codecs.feedback`).
        """
        check_options(self.binding, validation_strict, context)
        strict = read.strict
        partial = read.partial
        built: list[str] = []
        try:
            fast = (
                self._fast_plain(data)
                if strict and not partial and self.struct_entries and native is not None
                else None
            )
            if fast is None:
                document, sections = self.plain(data, strict, repairs, partial)
            else:
                document, sections, built = fast
        except ESONError as exc:
            raise attach_expected(exc, self.schema.model_type, "eson") from None
        try:
            if built and self.prebuilt is not None and context is None:
                return self.prebuilt(document, built, validation_strict)
            return self.validate(document, validation_strict, context)
        except Exception as exc:
            problems = self.binding.problems(exc)
            if problems is None:
                raise
            error = validation_error(problems, sections, self.as_dicts(document))
            raise attach_expected(error, self.schema.model_type, "eson") from exc

    def as_dicts(self, document: dict[str, Any]) -> dict[str, Any]:
        """The document with rows read as built instances given back as their dicts.

        The same values the dict path validates (the instances hold them as
        they were decoded), so a validation error shows them the same way.
        """
        changed: dict[str, Any] | None = None
        for name, (cls, keys) in self.built.items():
            value = document.get(name)
            if type(value) is cls:
                rows: Any = dict(zip(keys, vars(value).values()))
            elif type(value) is list and any(type(row) is cls for row in value):
                # (rows read one by one may be built or not, each)
                rows = [
                    dict(zip(keys, vars(row).values())) if type(row) is cls else row
                    for row in value
                ]
            else:
                continue
            if changed is None:
                changed = dict(document)
            changed[name] = rows
        return document if changed is None else changed


# -- validation errors, placed on the wire -----------------------------------------
# The wording is shared with the TOON back end (eson._internal.codecs.validation); where a
# problem sits is ESON's: a section, a row, a field.


def _place(problem: Problem, by_name: Mapping[str, Section]) -> tuple[dict[str, Any], int]:
    """The line, section, row and field a problem's ``loc`` points at.

    Also returns how many steps of ``loc`` that place covers; the rest is a
    path inside the cell (into a nested JSON value).
    """
    loc = problem.loc
    place: dict[str, Any] = {"line": None, "section": None, "row": None, "field": None}
    if not loc or not isinstance(loc[0], str):
        return place, 0
    name = loc[0]
    place["section"] = name
    section = by_name.get(name)
    rest = loc[1:]
    used = 1
    if section is None:
        return place, used
    if section.kind == "scalar":
        place["line"] = section.line
    elif section.kind == "record":
        place["line"] = section.line + 1
        if rest and isinstance(rest[0], str):
            place["field"] = rest[0]
            used += 1
    elif rest and isinstance(rest[0], int) and 0 <= rest[0] < section.count:
        place["row"] = rest[0] + 1
        place["line"] = section.line + rest[0] + 1
        used += 1
        if section.kind == "records" and len(rest) > 1 and isinstance(rest[1], str):
            place["field"] = rest[1]
            used += 1
    else:
        place["line"] = section.line
    return place, used


def validation_error(
    problems: Sequence[Problem], sections: Sequence[Section], document: Any
) -> ValidationError:
    """Build the :class:`ValidationError` for a framework's validation failures."""
    by_name = {section.name: section for section in sections}
    return shared_validation_error(problems, document, lambda problem: _place(problem, by_name))
