"""Streaming ESON into events and a validated message: the typed side of the stream.

:class:`ESONBuilder` is the :class:`~eson._internal.wire.eson_line_reader.StreamTarget` of a
streaming decode.  The wire reader hands it each entry head, and then each
row's cells as the row's line completes; the builder decodes the cells (the
rules of :func:`eson._internal.wire.eson_cells.decode_cell`, and in a lenient read the
typed repairs of :mod:`eson._internal.codecs.eson_decode`), validates each record into
an instance, queues one :class:`~eson._internal.codecs.stream.Event` per entry or row,
and keeps the document (unless told not to keep rows) for the final
validation.

A stream fed in small chunks handles one row per call, so the per-row work
is what counts: for each section the builder generates one row function
(:mod:`eson._internal.codecs.generated`) with the section's fields unrolled -- a
``Literal`` or boolean field is a dictionary lookup, a bare string or a
plain integer is recognised inline, anything else goes through
``decode_cell`` -- and, where the binding allows it (msgspec), builds the
instance positionally when every value is exactly of its field's type, as
the whole-text decoder's column builder does.  Generating code costs per
field, and a header is input: a section wider than :data:`GENERATED_FIELDS`
is read by a generic loop over its cells instead, so the work a header
costs stays proportional to its length (32 000 fields took seconds).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any

from eson._internal.accelerator import ANY_PLAIN, TEXT_ONLY
from eson._internal.codecs.eson_decode import known_cells
from eson._internal.codecs.eson_typed import reader_for
from eson._internal.codecs.generated import compile_function
from eson._internal.codecs.lenient import takes_only_text, text_detail, text_repair
from eson._internal.codecs.stream import Event, Lines, RecordCheck, validate_document
from eson._internal.schema.annotations import literal_values
from eson._internal.schema.class_cache import cached
from eson._internal.schema.compile import document_schema
from eson._internal.schema.model import DocumentSchema, EntryKind, FieldSchema, RecordSchema
from eson._internal.wire.eson_cells import decode_cell
from eson._internal.wire.eson_lexicon import (
    DECIMAL_SOURCE,
    DIGITS_SOURCE,
    LITERAL_SOURCE,
    LITERAL_WORDS,
    LITERALS,
    NOT_BARE_FIRST,
    NOT_BARE_FIRST_CLASS,
    SHORT_INT_DIGITS,
    SHORT_INT_SOURCE,
)
from eson._internal.wire.eson_line_reader import LineHandler, Reading, dict_reading
from eson._internal.wire.eson_reader import Head, number_text
from eson._internal.wire.repairs import Repair, RepairLog
from eson.errors import DecodeError

RowHandler = Callable[[list[str], int, int], None]
Handlers = tuple[RowHandler, "LineHandler | None"]
_MISSING: Any = object()
_NOT_BARE_FIRST = NOT_BARE_FIRST
_LITERALS = LITERAL_WORDS
_EXACT = {str: "str", int: "int", float: "float", bool: "bool"}


class _RecordPlan:
    """How the rows of one record type are read."""

    def __init__(self, record: RecordSchema) -> None:
        self.record = record
        self.by_wire = {item.wire: item for item in record.fields if not item.output_only}
        self.order = tuple(item.wire for item in record.fields if not item.output_only)
        self.text_fields = frozenset(
            wire for wire, item in self.by_wire.items() if takes_only_text(item.cell)
        )
        self.drop_n = "n" not in self.by_wire
        self.check = RecordCheck(record)
        self.constructor = None
        if len(self.order) == len(record.fields):
            self.constructor = record.binding.row_constructor(record.cls, record.fields)
        #: Generated row-function factories, by section layout.
        self.factories: dict[tuple[Any, ...], Callable[..., Handlers]] = {}


_plans_lock = threading.Lock()


def _plan_of(record: RecordSchema) -> _RecordPlan:
    """The (cached) plan of a record type, with its generated row functions."""
    owner = record.declared if record.declared is not None else record.cls
    return cached(owner, "stream plan", lambda: _RecordPlan(record))


class _Section:
    """One open section: its generated row function and the rows kept."""

    def __init__(
        self,
        builder: ESONBuilder,
        head: Head,
        item: FieldSchema | None,
        plan: _RecordPlan | None,
    ) -> None:
        self.builder = builder
        self.head = head
        #: What ESONBuilder.plain_rows gives for this section (_MISSING: not worked out yet).
        self.plain: Any = _MISSING
        self.name = head.name
        self.single = head.kind == "record"
        self.rows: list[Any] = []
        lenient = builder.log is not None
        fields = head.fields or ()
        skip = 0
        if plan is not None and plan.drop_n and head.kind == "records" and fields[:1] == ("n",):
            skip = 1
            fields = fields[1:]
        self.fields = fields
        if head.kind == "array":
            element = item if item is not None and item.entry is EntryKind.SCALAR_ARRAY else None
            self.items: list[FieldSchema | None] = [element]
            self.texts = [lenient and element is not None and takes_only_text(element.cell)]
        elif plan is not None:
            self.items = [plan.by_wire.get(field) for field in fields]
            self.texts = [lenient and field in plan.text_fields for field in fields]
        else:
            self.items = [None] * len(fields)
            self.texts = [False] * len(fields)
        self.skip = skip
        self.constructor = plan.constructor if plan is not None else None
        self.check: RecordCheck | None = None
        self.row: RowHandler = self._compile(head, plan, skip)

    def cell(self, position: int, text: str, row: int, line: int) -> Any:
        """Decode one cell the general way (errors located; the lenient text rule)."""
        try:
            value = decode_cell(text)
        except DecodeError as exc:
            field = self.fields[position] if self.fields else None
            raise DecodeError(
                exc.reason, line=line, section=self.name, row=row, field=field
            ) from None
        if self.texts[position]:
            kind = text_repair(value)
            if kind is not None:
                log = self.builder.log
                assert log is not None
                field = self.fields[position] if self.fields else None
                where = None if self.single else row
                log.append(Repair(line, kind, text_detail(text), self.name, where, field))
                return text
        return value

    def _compile(self, head: Head, plan: _RecordPlan | None, skip: int) -> RowHandler:
        """The section's row function (and line function, when it has one)."""
        builder = self.builder
        key = (
            head.kind,
            self.fields,
            skip,
            tuple(self.texts),
            builder.keep,
            tuple(map(id, self.items)),
        )
        cache = plan.factories if plan is not None else _UNTYPED_FACTORIES
        factory = cache.get(key)
        if factory is None:
            if len(self.fields) > GENERATED_FIELDS:
                # Generating code costs per field, and a header is input:
                # a wide one is read by the generic loop (bounded work a byte).
                factory = _generic_factory(head, self.fields, plan, skip, builder.keep)
            else:
                factory = _row_factory(head, self.fields, self.items, plan, skip, builder.keep)
                with _plans_lock:
                    if len(cache) < 64:
                        cache[key] = factory
        keep_line = builder.lines.rows.setdefault(self.name, []).append if builder.keep else None
        check = (
            plan.check.with_options(builder.validation_strict, builder.context)
            if plan is not None
            else None
        )
        self.check = check
        handler, line_handler = factory(
            self.cell, builder.events.append, self.rows.append, keep_line, self.name, check
        )
        self.line: LineHandler | None = line_handler
        return handler

    def end(self) -> None:
        builder = self.builder
        if builder.keep:
            if not self.single:
                builder.document[self.name] = self.rows
            elif self.rows:
                builder.document[self.name] = self.rows[0]


#: What :meth:`ESONBuilder.plain_rows` gives: the section's name, the
#: ``native.read_structs`` reading of its rows, the lists of their values and
#: line numbers, and the check that makes a row's dict its value.
PlainRows = tuple[str, Reading, "list[Any] | None", "list[int] | None", "RecordCheck | None"]

#: Row-function factories of untyped sections, by layout.
_UNTYPED_FACTORIES: dict[tuple[Any, ...], Callable[..., Handlers]] = {}

#: The widest section (in fields) whose row function is generated; a wider
#: header is read by :func:`_generic_factory`'s loop, so that the work a
#: stream does for a header stays proportional to its length.
GENERATED_FIELDS = 64


def _generic_factory(
    head: Head,
    fields: tuple[str, ...],
    plan: _RecordPlan | None,
    skip: int,
    keep: bool,
) -> Callable[..., Handlers]:
    """The row function of a section too wide to generate one for: a loop over its cells.

    Reads each cell the general way (``cell``: :func:`decode_cell`, located
    errors, the lenient text rule) and validates a typed row with ``check``,
    as a generated row function does for a cell off its fast paths.
    """
    array = head.kind == "array"
    single = head.kind == "record"
    positions = tuple(enumerate(fields, skip))

    def make(
        cell: Callable[[int, str, int, int], Any],
        emit: Callable[[Event], None],
        keep_row: Callable[[Any], None],
        keep_line: Callable[[int], None] | None,
        name: str,
        check: Any,
    ) -> Handlers:
        def row(cells: list[str], row: int, line: int) -> None:
            where = None if single else row
            value: Any
            if array:
                value = cell(0, cells[0], row, line)
            else:
                value = {
                    field: cell(position - skip, cells[position], row, line)
                    for position, field in positions
                }
                if plan is not None:
                    value = check(value, name, where, line)
            if keep:
                keep_row(value)
                if not single and keep_line is not None:
                    keep_line(line)
            emit(Event(name, where, value))

        return row, None

    return make


def _row_factory(
    head: Head,
    fields: tuple[str, ...],
    items: list[FieldSchema | None],
    plan: _RecordPlan | None,
    skip: int,
    keep: bool,
) -> Callable[..., Handlers]:
    """Generate the row function of one section layout (see the module documentation).

    The result is a factory taking what differs per stream -- the cell
    fallback, the event queue, the row and line lists, the section name --
    and returning the row function.  Each cell has an inline fast path for
    the canonical text of its field's type; a cell that takes it has a
    value of exactly that type, so when every cell of a row did, the row
    can be built without the framework's conversion (``ok``).
    """
    namespace: dict[str, Any] = {
        "M": _MISSING,
        "NB": _NOT_BARE_FIRST,
        "LIT": _LITERALS,
        "NEW": tuple.__new__,
        "EV": Event,
    }
    array = head.kind == "array"
    single = head.kind == "record"
    count = 1 if array else len(fields)
    names = [f"c{index}" for index in range(count)]
    body: list[str] = []
    if array:
        body.append("c0 = cells[0]")
    elif count:
        body.append(f"{', '.join(['_'] * skip + names)}, = cells")
    body.append("ok = True")
    exact = True
    for index, item in enumerate(items):
        lines, sure = _cell_source(index, item, namespace)
        body.extend(lines)
        exact = exact and sure
    where = "None" if single else "row"
    if array:
        body.append("value = v0")
    else:
        mapping = "{" + ", ".join(f"{field!r}: v{i}" for i, field in enumerate(fields)) + "}"
        if plan is None:
            body.append(f"value = {mapping}")
        else:
            check = f"CHECK({mapping}, NAME, {where}, line)"
            constructor = plan.constructor
            if constructor is not None and fields == plan.order and count and exact:
                namespace["CTOR"] = constructor
                arguments = ", ".join(f"v{index}" for index in range(count))
                body.append(f"value = CTOR({arguments}) if ok else {check}")
            else:
                body.append(f"value = {check}")
    if keep:
        body.append("KEEP(value)")
        if not single:
            body.append("KEEP_LINE(line)")
    body.append(f"EMIT(NEW(EV, (NAME, {where}, value)))")
    fast = _line_source(head, fields, items, plan, skip, keep, namespace)
    source = (
        "def make(CELL, EMIT, KEEP, KEEP_LINE, NAME, CHECK):\n"
        "    def row(cells, row, line):\n"
        + "".join(f"        {line}\n" for line in body)
        + "".join(f"    {line}\n" for line in fast)
        + ("    return row, read_line\n" if fast else "    return row, None\n")
    )
    factory: Callable[..., Handlers] = compile_function(
        "make", source, namespace, f"ESON rows {','.join(fields) or head.kind}"
    )
    return factory


_INT_FAST = (
    "if {c}.isdigit() and {c}.isascii() and len({c}) <= "
    + str(SHORT_INT_DIGITS)
    + " and ({c}[0] != '0' or len({c}) == 1):",
    "    {v} = int({c})",
)
_BARE_FAST = ("if {c} and {c}[0] not in NB and {c} not in LIT:", "    {v} = {c}")
_DECIMAL_FAST = ("if DECIMAL({c}):", "    {v} = float({c})")
_LITERAL_FAST = ("if {c} in LITV:", "    {v} = LITV[{c}]")
_LITERAL_VALUES = LITERALS


# Cell shapes a row's line must have for the one-regex fast path (each one group).
_INT_GROUP = f"({SHORT_INT_SOURCE})"
_DECIMAL_GROUP = f"({DECIMAL_SOURCE})"
_BARE_GROUP = rf"((?!(?:{LITERAL_SOURCE})(?:\t|\Z))[^\t{NOT_BARE_FIRST_CLASS}][^\t]*)"
_N_GROUP = f"({DIGITS_SOURCE})"


def _line_source(
    head: Head,
    fields: tuple[str, ...],
    items: list[FieldSchema | None],
    plan: _RecordPlan | None,
    skip: int,
    keep: bool,
    namespace: dict[str, Any],
) -> list[str]:
    """Source of ``read_line``: a record row read with one regular expression.

    Built only for a typed record array whose every column has a shape a
    regex can tell (a plain integer, a decimal, a bare string, one of a few
    known cells); a line that does not match is declined (``False``) and
    read the general way.  A value from a matched group is exactly of its
    field's type, so msgspec rows are built positionally.
    """
    if plan is None or head.kind != "records" or not fields:
        return []
    patterns: list[str] = [_N_GROUP] if skip else []
    reads: list[str] = []
    exact = True
    for index, item in enumerate(items):
        if item is None or item.output_only:
            return []
        known = known_cells(item)
        plain = item.cell.plain
        annotation = item.annotation
        if known is not None:
            choices = sorted(known, key=len, reverse=True)
            patterns.append("(" + "|".join(re.escape(choice) for choice in choices) + ")")
            namespace[f"KL{index}"] = known.__getitem__
            reads.append(f"v{index} = KL{index}(c{index})")
            exact = exact and (
                annotation in _EXACT
                or (item.cell.choices is not None and literal_values(annotation) is not None)
            )
        elif plain == {int}:
            patterns.append(_INT_GROUP)
            reads.append(f"v{index} = int(c{index})")
            exact = exact and annotation is int
        elif plain == {float}:
            patterns.append(_DECIMAL_GROUP)
            reads.append(f"v{index} = float(c{index})")
            exact = exact and annotation is float
        elif plain and str in plain and not item.cell.structured:
            patterns.append(_BARE_GROUP)
            reads.append(f"v{index} = c{index}")
            exact = exact and annotation is str
        else:
            return []
    namespace["LINE_RE"] = re.compile("\t".join(patterns)).fullmatch
    namespace["NUM"] = number_text
    names = ["n"] * skip + [f"c{index}" for index in range(len(fields))]
    lines = [
        "def read_line(text, row, line):",
        "    match = LINE_RE(text)",
        "    if match is None:",
        "        return False",
        f"    {', '.join(names)}, = match.groups()",
    ]
    numbered = fields[0] == "n" if not skip else True
    if numbered:
        lines += [f"    if {'n' if skip else 'c0'} != NUM(row):", "        return False"]
    lines += [f"    {read}" for read in reads]
    mapping = "{" + ", ".join(f"{field!r}: v{i}" for i, field in enumerate(fields)) + "}"
    arguments = ", ".join(f"v{index}" for index in range(len(fields)))
    if plan.constructor is not None and fields == plan.order and exact:
        lines.append(f"    value = CTOR({arguments})")
        namespace["CTOR"] = plan.constructor
    else:
        lines.append(f"    value = CHECK({mapping}, NAME, row, line)")
    if keep:
        lines += ["    KEEP(value)", "    KEEP_LINE(line)"]
    lines += ["    EMIT(NEW(EV, (NAME, row, value)))", "    return True"]
    return lines


def _cell_source(
    index: int, item: FieldSchema | None, namespace: dict[str, Any]
) -> tuple[list[str], bool]:
    """Source lines decoding cell ``c{index}`` into ``v{index}``.

    Also returns whether a value from a fast path is exactly valid for the
    field (so a row of such values needs no conversion); the general path
    (``CELL``) clears ``ok``.
    """
    c = f"c{index}"
    v = f"v{index}"
    general = [f"{v} = CELL({index}, {c}, row, line)", "ok = False"]
    if item is None:  # untyped: the common shapes inline
        paths = [_INT_FAST, _BARE_FAST, _LITERAL_FAST, _DECIMAL_FAST]
        namespace["LITV"] = _LITERAL_VALUES
        sure = False
    else:
        annotation = item.annotation
        known = known_cells(item)
        if known is not None:
            namespace[f"K{index}"] = known.get
            sure = annotation in _EXACT or (
                item.cell.choices is not None and literal_values(annotation) is not None
            )
            return [
                f"{v} = K{index}({c}, M)",
                f"if {v} is M:",
                *(f"    {x}" for x in general),
            ], sure
        plain = item.cell.plain
        if plain == {int}:
            paths, sure = [_INT_FAST], annotation is int
        elif plain == {float}:
            paths, sure = [_DECIMAL_FAST], annotation is float
        elif plain and plain <= {int, float}:
            paths, sure = [_INT_FAST, _DECIMAL_FAST], False
        elif plain and str in plain and not item.cell.structured:
            paths, sure = [_BARE_FAST], annotation is str
        else:
            return general, False
    if _DECIMAL_FAST in paths:
        namespace["DECIMAL"] = _DECIMAL
    lines: list[str] = []
    for number, (test, assign) in enumerate(paths):
        lines.append(("" if number == 0 else "el") + test.format(c=c, v=v))
        lines.append(assign.format(c=c, v=v))
    lines.append("else:")
    lines.extend(f"    {x}" for x in general)
    return lines, sure


#: A JSON number with a fraction and no exponent (``12.5``): read by ``float`` exactly.
_DECIMAL = re.compile(DECIMAL_SOURCE).fullmatch


class ESONBuilder:
    """Builds events and the message of a streamed ESON document (see the module documentation).

    Args:
        cls: The model class, or ``None`` for plain values.
        keep: Keep rows for the final message; ``False`` keeps only the
            scalar entries (for consumers of events alone: memory stays flat).
        log: The repair log of a lenient read (``None``: strict).
        validation_strict: The framework's strict mode for validation.
        context: Pydantic validation context (see :func:`eson.decode`).
    """

    def __init__(
        self,
        cls: type | None,
        *,
        keep: bool = True,
        log: RepairLog | None = None,
        validation_strict: bool | None = None,
        context: Any = None,
    ) -> None:
        self.cls = cls
        self.schema: DocumentSchema | None = document_schema(cls) if cls is not None else None
        self.validation_strict = validation_strict
        self.context = context
        self.keep = keep
        self.log = log
        #: Events not yet handed out (drained by the caller, never replaced).
        self.events: list[Event] = []
        self.document: dict[str, Any] = {}
        self.lines = Lines()
        self._open: _Section | None = None
        self._plans: dict[str, tuple[FieldSchema, _RecordPlan | None]] = {}
        if self.schema is not None:
            for item in self.schema.fields:
                if item.output_only:
                    continue
                plan = _plan_of(item.record) if item.record is not None else None
                self._plans[item.wire] = (item, plan)

    def entry(self, head: Head, line: int) -> Handlers | None:
        """(StreamTarget) An entry's head line; returns the handlers of its rows."""
        name = head.name
        self.lines.heads[name] = line
        found = self._plans.get(name)
        item = found[0] if found is not None else None
        if head.kind == "scalar":
            value = self._scalar(head.cell or "", item, name, line)
            self.document[name] = value
            self.events.append(Event(name, None, value))
            return None
        plan: _RecordPlan | None = None
        if found is not None and item is not None:
            wanted = {EntryKind.RECORD_ARRAY: "records", EntryKind.RECORD: "record"}.get(
                item.entry  # type: ignore[arg-type]
            )
            if wanted == head.kind:
                plan = found[1]
            if (
                self.log is not None
                and plan is not None
                and head.kind == "records"
                and self.schema is not None
                and self.schema.number
                and (head.fields or ())[:1] != ("n",)
            ):
                self.log.append(
                    Repair(
                        line,
                        "missing-n",
                        "the record array has no n column; its rows were read in the order written",
                        name,
                    )
                )
        self._open = _Section(self, head, item, plan)
        return self._open.row, self._open.line

    def plain_rows(self) -> PlainRows | None:
        """How the accelerator's stream core may read the open section's rows, or ``None``.

        For an open record array whose rows ``native.read_structs`` can
        build as this builder's row function builds them: the typed
        reader's :meth:`~eson._internal.codecs.eson_decode.DocumentReader.reading_of`
        (msgspec Structs), dicts untyped, or (a binding that validates each
        record's dict: Pydantic) the row function's dict, cell for cell, and
        the record check that validates it.  Gives the section's name, that
        reading, the lists the row function appends each row's value and
        line number to (``None`` with ``keep=False``) and the check.
        """
        section = self._open
        if section is None:
            return None
        if section.plain is _MISSING:
            section.plain = None
            reading, check = self._reading(section)
            if reading is not None:
                keep = (section.rows, self.lines.rows[section.name]) if self.keep else (None, None)
                section.plain = (section.name, reading, *keep, check)
        return section.plain  # type: ignore[no-any-return]

    def _reading(self, section: _Section) -> tuple[Reading | None, RecordCheck | None]:
        head = section.head
        if head.kind != "records":
            return None, None
        if self.cls is None:
            return dict_reading(head), None
        reading = reader_for(self.cls).reading_of(head)
        if reading is not None:
            return reading, None
        check = section.check
        fields = section.fields
        if check is None or section.constructor is not None or not 2 <= len(fields) <= 64:
            return None, None
        # The dict the row function passes to the check: each cell as
        # decode_cell reads it, a known cell as known_cells maps it, and
        # (lenient) a text field's cell only when it reads as text (else the
        # row function repairs it: Python's).
        kinds: list[int | dict[str, Any]] = []
        for item, text in zip(section.items, section.texts):
            known = known_cells(item) if item is not None else None
            kinds.append(known if known is not None else TEXT_ONLY if text else ANY_PLAIN)
        numbered = 2 if section.skip else int(fields[0] == "n")
        return (dict, fields, tuple(kinds), numbered), check

    def _scalar(self, cell: str, item: FieldSchema | None, name: str, line: int) -> Any:
        try:
            value = decode_cell(cell)
        except DecodeError as exc:
            raise DecodeError(exc.reason, line=line, section=name) from None
        if self.log is not None and item is not None and takes_only_text(item.cell):
            kind = text_repair(value)
            if kind is not None:
                self.log.append(Repair(line, kind, text_detail(cell), name))
                return cell
        return value

    def end(self, head: Head, rows: int, line: int) -> None:
        """(StreamTarget) The open section is complete."""
        assert self._open is not None
        self._open.end()
        self._open = None

    def snapshot(self) -> dict[str, Any]:
        """The value so far: complete entries, and the open section's rows up to now."""
        found = dict(self.document)
        open_section = self._open
        if open_section is not None and self.keep:
            if open_section.single:
                if open_section.rows:
                    found[open_section.name] = open_section.rows[0]
            else:
                found[open_section.name] = list(open_section.rows)
        return found

    def result(self) -> Any:
        """The decoded document: the validated message (typed) or the plain ``dict``."""
        if self.schema is None:
            return self.document
        return validate_document(
            self.schema, self.document, self.lines, self.validation_strict, self.context
        )
