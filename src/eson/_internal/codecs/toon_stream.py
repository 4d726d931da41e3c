"""Streaming TOON into events and a validated message: the typed side of the stream.

:class:`TOONBuilder` is the :class:`~eson._internal.wire.toon_stream.StreamTarget` of a
streaming TOON decode: it turns each top-level entry, table row and list
item into an :class:`~eson._internal.codecs.stream.Event` (a record array's rows, and
a single record, validated into instances), applies the typed text rule of
:mod:`eson._internal.codecs.lenient` in a lenient read (the cell's own token is read
back), and validates the message at the end.
"""

from __future__ import annotations

from typing import Any

from eson._internal.accelerator import ANY_PLAIN, TEXT_ONLY
from eson._internal.codecs.lenient import takes_only_text, text_detail, text_repair, text_spots
from eson._internal.codecs.stream import Event, Lines, RecordCheck, validate_document
from eson._internal.codecs.toon_decode import apply_texts
from eson._internal.codecs.toon_typed import reader_for
from eson._internal.schema.compile import document_schema
from eson._internal.schema.model import DocumentSchema, EntryKind, FieldSchema
from eson._internal.wire.repairs import Repair, RepairLog
from eson._internal.wire.toon_parser import Positions, decode_text

_ROOT = object()

#: What :meth:`TOONBuilder.plain_rows` gives the stream core: the table's key,
#: ``native.read_structs``' TOON reading ``(dict, names, kinds, 0, delimiter,
#: pad)``, the lists of its values and line numbers, and the record check.
TablePlain = tuple[str, tuple[Any, ...], "list[Any] | None", "list[int] | None", "RecordCheck | None"]


class TOONBuilder:
    """Builds events and the message of a streamed TOON document.

    Args:
        cls: The model class, or ``None`` for plain values.
        keep: Keep rows for the final message (``False``: events only).
        log: The repair log of a lenient read (``None``: strict; the text
            rule applies only when reading leniently).
        indent_size: Spaces per indentation level (to re-read an entry).
        validation_strict: The framework's strict mode for validation.
        context: Pydantic validation context (see :func:`eson.decode`).
    """

    def __init__(
        self,
        cls: type | None,
        *,
        keep: bool = True,
        log: RepairLog | None = None,
        indent_size: int = 2,
        validation_strict: bool | None = None,
        context: Any = None,
    ) -> None:
        self.schema: DocumentSchema | None = document_schema(cls) if cls is not None else None
        self.validation_strict = validation_strict
        self.context = context
        self.keep = keep
        self.log = log
        self.indent_size = indent_size
        self.events: list[Event] = []
        self.document: dict[str, Any] = {}
        self.lines = Lines()
        self._root: Any = _ROOT
        self._rows: dict[str, list[Any]] = {}
        self._items: dict[str, FieldSchema] = {}
        self._checks: dict[str, RecordCheck] = {}
        self._texts: dict[str, tuple[str, ...]] = {}
        if self.schema is not None:
            for item in self.schema.fields:
                if item.output_only:
                    continue
                self._items[item.wire] = item
                if item.record is not None:
                    self._checks[item.wire] = RecordCheck(
                        item.record, validation_strict, context
                    )
                    self._texts[item.wire] = tuple(
                        field.wire
                        for field in item.record.fields
                        if not field.output_only and takes_only_text(field.cell)
                    )

    # -- StreamTarget ---------------------------------------------------------------------

    def start(self, key: str, line: int) -> None:
        self.lines.heads[key] = line

    def row(
        self,
        key: str,
        value: Any,
        row: int,
        line: int,
        tokens: list[str] | None,
        text: str | None,
    ) -> None:
        item = self._items.get(key)
        if item is not None and item.entry is EntryKind.RECORD_ARRAY and isinstance(value, dict):
            if self.log is not None and self._texts.get(key):
                self._row_texts(key, value, row, line, tokens, text)
            check = self._checks.get(key)
            if check is not None:
                value = check(value, key, row, line)
        elif (
            self.log is not None
            and item is not None
            and text is not None
            and item.entry is EntryKind.SCALAR_ARRAY
            and takes_only_text(item.cell)
        ):
            value = self._element_text(key, value, row, line, text)
        if self.keep:
            self._rows.setdefault(key, []).append(value)
            self.lines.rows.setdefault(key, []).append(line)
        self.events.append(Event(key, row, value))

    def value(self, key: str, value: Any, line: int, text: str | None) -> None:
        item = self._items.get(key)
        if self.log is not None and item is not None and text is not None:
            value = self._entry_texts(key, value, line, text)
        if item is not None and item.entry is EntryKind.SCALAR_ARRAY and isinstance(value, list):
            if self.keep:
                self.document[key] = value
            for index, element in enumerate(value):
                self.events.append(Event(key, index + 1, element))
            return
        check = self._checks.get(key)
        if (
            item is not None
            and item.entry is EntryKind.RECORD
            and check is not None
            and isinstance(value, dict)
        ):
            value = check(value, key, None, line)
        self.document[key] = value
        self.events.append(Event(key, None, value))

    def end(self, key: str, rows: int) -> None:
        if self.keep:
            self.document[key] = self._rows.pop(key, [])

    def root(self, value: Any) -> None:
        self._root = value

    def whole(self, text: str) -> None:
        """(:class:`~eson._internal.wire.toon_stream.HeldTarget`) Read a lax stream's whole text.

        The text is decoded as :func:`eson.toon.decode` decodes it in lax
        mode (the spec's non-strict reading, then -- typed, with a repair
        log -- the text rule), and each top-level entry reported as the
        line reader reports it: an array row by row, any other value whole.
        """
        positions = Positions(tokens=True)
        document = decode_text(
            text, strict=False, indent_size=self.indent_size, positions=positions, lf_only=True
        )
        if not isinstance(document, dict):
            self.root(document)
            return
        if self.log is not None and self.schema is not None:
            self.log.extend(apply_texts(self.schema, document, positions))
        log, self.log = self.log, None  # the text rule is applied: never again per entry
        try:
            for key, value in document.items():
                line = positions.line_of(document, (key,)) or 1
                self.start(key, line)
                if isinstance(value, list):
                    for index, element in enumerate(value):
                        at = positions.line_of(document, (key, index)) or line
                        self.row(key, element, index + 1, at, None, None)
                    self.end(key, len(value))
                else:
                    self.value(key, value, line, None)
        finally:
            self.log = log

    def plain_rows(
        self, key: str, names: tuple[str, ...], delimiter: str, pad: int
    ) -> TablePlain | None:
        """How the accelerator's stream core may read the open table's rows, or ``None``.

        The core makes each plain row the dict :meth:`row` gets from the line
        reader (each cell as ``parse_primitive`` reads it), ``native.read_structs``'
        TOON reading with every kind ``ANY_PLAIN`` -- or, leniently,
        ``TEXT_ONLY`` for a field only text fills, so that a cell the text
        rule repairs is Python's -- and hands it to the record's check, as
        :meth:`row` does.  Gives the table's key, that reading, the lists
        :meth:`row` appends each value and line number to (``None`` with
        ``keep=False``) and the check.  ``None`` for a table whose first row
        has not been read (its lists are made then).
        """
        if self.keep and key not in self._rows:
            return None
        item = self._items.get(key)
        check: RecordCheck | None = None
        texts: tuple[str, ...] = ()
        reading: tuple[Any, ...] | None = None
        if item is not None and item.entry is EntryKind.RECORD_ARRAY:
            assert self.schema is not None
            check = self._checks.get(key)
            if self.log is not None:
                texts = self._texts.get(key, ())
            plan = reader_for(self.schema.cls, self.indent_size).table_plan(key, names)
            if plan is not None:
                # msgspec Structs made in C, as the whole-text reader makes
                # them: every value valid as it is, so the check has no work.
                reading = (*plan, 0, delimiter, pad)
                check = None
        if reading is None:
            kinds = tuple(TEXT_ONLY if name in texts else ANY_PLAIN for name in names)
            reading = (dict, names, kinds, 0, delimiter, pad)
        if not self.keep:
            return key, reading, None, None, check
        return key, reading, self._rows[key], self.lines.rows[key], check

    # -- the text rule --------------------------------------------------------------------

    def _row_texts(
        self,
        key: str,
        value: dict[str, Any],
        row: int,
        line: int,
        tokens: list[str] | None,
        text: str | None,
    ) -> None:
        log = self.log
        assert log is not None
        fields = [
            field
            for field in self._texts[key]
            if field in value and text_repair(value[field]) is not None
        ]
        if not fields:
            return
        found: dict[str, tuple[str, int]] = {}
        if tokens is not None:
            names = list(value)
            for field in fields:
                if len(names) == len(tokens):
                    found[field] = (tokens[names.index(field)], line)
        elif text is not None:
            positions = Positions(tokens=True)
            again = decode_text(
                text,
                strict=True,
                indent_size=self.indent_size,
                level=2,
                positions=positions,
                lf_only=True,
            )[0]
            for field in fields:
                token = positions.token_of(again, field)
                at = positions.line_of([again], (0, field))
                if token is not None:
                    found[field] = (token, line + (at - 2 if at is not None else 0))
        for field, (token, at_line) in found.items():
            kind = text_repair(value[field])
            assert kind is not None
            value[field] = token
            log.append(Repair(at_line, kind, text_detail(token), key, row, field))

    def _entry_texts(self, key: str, value: Any, line: int, text: str) -> Any:
        schema = self.schema
        assert schema is not None and self.log is not None
        if not text_spots(schema, {key: value}):
            return value
        positions = Positions(tokens=True)
        document = decode_text(
            text,
            strict=True,
            indent_size=self.indent_size,
            positions=positions,
            fields=True,
            lf_only=True,
        )
        for spot in text_spots(schema, document):
            token = positions.token_of(spot.container, spot.step)
            kind = text_repair(spot.container[spot.step])  # type: ignore[index]
            if token is None or kind is None:
                continue
            spot.container[spot.step] = token  # type: ignore[index]
            at = positions.line_of(document, spot.loc)
            self.log.append(
                Repair(
                    line + (at - 1 if at is not None else 0),
                    kind,
                    text_detail(token),
                    spot.section,
                    spot.row,
                    spot.field,
                )
            )
        return document[key]

    def _element_text(self, key: str, value: Any, row: int, line: int, text: str) -> Any:
        """A scalar array's list item (``- 12``) in a string-only array: its token."""
        kind = text_repair(value)
        if kind is None:
            return value
        positions = Positions(tokens=True)
        again = decode_text(
            text,
                strict=True,
                indent_size=self.indent_size,
                level=2,
                positions=positions,
                lf_only=True,
        )
        token = positions.token_of(again, 0)
        if token is None:
            return value
        assert self.log is not None
        self.log.append(Repair(line, kind, text_detail(token), key, row))
        return token

    # -- results --------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The value so far: complete entries, and the rows of the open array."""
        found = dict(self.document)
        for key, rows in self._rows.items():
            found[key] = list(rows)
        return found

    def result(self) -> Any:
        """The decoded document: the validated message (typed) or the plain value."""
        document: Any = self.document if self._root is _ROOT else self._root
        if self.schema is None:
            return document
        return validate_document(
            self.schema, document, self.lines, self.validation_strict, self.context
        )
