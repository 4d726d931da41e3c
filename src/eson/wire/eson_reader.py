"""Reading an ESON document: text -> sections -> plain Python value.

Reading happens in two steps that the typed decoders reuse:

1. :func:`scan_sections` checks the header and splits the text into
   :class:`Section` objects (name, kind, declared fields and count, the raw
   body lines), rejecting bad names, duplicate names and fields, and counts
   the text does not back -- before anything is allocated for them.
2. :func:`split_rows` cuts a record section's lines into cells, checking the
   cell count of every row and the reserved ``n`` sequence; the cells are
   then decoded column by column (:func:`eson.wire.eson_cells.decode_column`).

Line endings may be LF or CRLF and the final line break may be missing.  One
leading byte-order mark (U+FEFF) is ignored.  Every error is a
:class:`eson.errors.DecodeError` carrying the 1-based line number.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from operator import methodcaller
from typing import Any, Literal

from eson.accelerator import MODE_GENERIC, RAW, native
from eson.errors import CountError, DecodeError, echo
from eson.wire.eson_cells import decode_cell, decode_column
from eson.wire.eson_names import NAME_PATTERN, NAME_RE

__all__ = [
    "HEADER",
    "Section",
    "SectionKind",
    "build_records",
    "decode_document",
    "entries_from",
    "entry_extent",
    "row_numbers",
    "scan_sections",
    "split_columns",
    "split_rows",
    "text_of",
]

#: The first line of every ESON 1.x document.
HEADER = "!eson/1"

SectionKind = Literal["scalar", "array", "records", "record"]

_SCALAR_HEAD = re.compile(rf"({NAME_PATTERN})=(.*)", re.DOTALL)
_SECTION_HEAD = re.compile(rf"({NAME_PATTERN})(?:\[([0-9]+)\])?(?:\{{([^}}]*)\}})?", re.DOTALL)
_VERSION_HEAD = re.compile(r"!eson/[^\s]*")
_split_tab = methodcaller("split", "\t")
# Sections with fewer rows than this build dicts with zip; generating a builder
# only pays for itself on longer arrays (and bounds work on hostile documents).
_BUILDER_THRESHOLD = 16
# Nor for more fields than this: compiling a function of thousands of
# parameters costs more than it saves, and grows faster than the header.
_BUILDER_MAX_FIELDS = 64


@dataclass(slots=True)
class Section:
    """One top-level entry of a document, with its body still as text.

    Attributes:
        name: The entry's name.
        kind: ``"scalar"`` (``name=cell``), ``"array"`` (``name[N]``),
            ``"records"`` (``name[N]{fields}``) or ``"record"`` (``name{fields}``).
        line: 1-based line number of the entry's head line.
        fields: Declared field names (record kinds), else ``None``.
        count: Number of body lines (1 for a scalar or single record).
        body: The cell text (scalar) or the body lines (other kinds).
    """

    name: str
    kind: SectionKind
    line: int
    fields: tuple[str, ...] | None
    count: int
    body: list[str]

    @property
    def numbered(self) -> bool:
        """Whether this record array carries the reserved ``n`` column."""
        return self.kind == "records" and bool(self.fields) and self.fields[0] == "n"  # type: ignore[index]


def text_of(data: str | bytes | bytearray | memoryview) -> str:
    """Return the document as ``str``: bytes-like input is decoded as UTF-8.

    Raises:
        DecodeError: for invalid UTF-8, with the line it occurs on.
        TypeError: for input that is neither text nor bytes.
    """
    if isinstance(data, str):
        return data
    if isinstance(data, (bytes, bytearray, memoryview)):
        raw = bytes(data)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = raw.count(b"\n", 0, exc.start) + 1
            raise DecodeError(
                f"invalid UTF-8 at byte {exc.start} ({exc.reason})", line=line
            ) from None
    raise TypeError(f"ESON input must be str or bytes-like, not {type(data).__name__}")


def _lines(text: str) -> list[str]:
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def _check_first_line(text: str) -> None:
    """Refuse a text without the header before splitting all of it into lines."""
    start = 1 if text.startswith("\ufeff") else 0
    if text.startswith(HEADER, start) and text[start + len(HEADER) : start + len(HEADER) + 1] in (
        "\n",
        "\r",
        "",
    ):
        return  # the common case; _check_header has the last word on "\r"
    end = text.find("\n", start)
    first = text[start:] if end < 0 else text[start:end]
    _check_header([first.removesuffix("\r")] if text[start:] else [])


def _check_header(lines: list[str]) -> None:
    if not lines:
        raise DecodeError(f"expected the header {HEADER}, got an empty document", line=1)
    head = lines[0]
    if head == HEADER:
        return
    if _VERSION_HEAD.fullmatch(head):
        raise DecodeError(
            f"unsupported version header {echo(head)}; this decoder reads {HEADER}", line=1
        )
    raise DecodeError(f"expected the header {HEADER}, got {echo(head)}", line=1)


def scan_sections(data: str | bytes | bytearray | memoryview) -> list[Section]:
    """Split a document into sections without decoding any cell.

    Raises:
        DecodeError: for a missing or unsupported header, a malformed head
            line, an invalid or duplicate name or field, or a declared count
            larger than the lines that follow.
    """
    text = text_of(data)
    _check_first_line(text)
    lines = _lines(text)
    _check_header(lines)
    sections: list[Section] = []
    seen: set[str] = set()
    total = len(lines)
    index = 1
    while index < total:
        head = lines[index]
        line_no = index + 1
        scalar = _SCALAR_HEAD.fullmatch(head)
        if scalar is not None:
            name = scalar.group(1)
            if name in seen:
                raise DecodeError(f"duplicate name {echo(name)}", line=line_no, section=name)
            seen.add(name)
            sections.append(Section(name, "scalar", line_no, None, 1, [scalar.group(2)]))
            index += 1
            continue
        match = _SECTION_HEAD.fullmatch(head)
        if match is None or (match.group(2) is None and match.group(3) is None):
            if sections:
                _check_leftover_rows(sections[-1], lines, index)
            raise DecodeError(f"invalid entry {echo(head)}", line=line_no)
        name, count_text, field_text = match.groups()
        if name in seen:
            raise DecodeError(f"duplicate name {echo(name)}", line=line_no, section=name)
        seen.add(name)
        fields: tuple[str, ...] | None = None
        if field_text is not None:
            fields = tuple(field_text.split(",")) if field_text else ()
            for field in fields:
                if NAME_RE.fullmatch(field) is None:
                    raise DecodeError(
                        f"invalid field name {echo(field)}", line=line_no, section=name
                    )
            if len(set(fields)) != len(fields):
                raise DecodeError(
                    f"duplicate field {echo(_first_repeated(fields))}", line=line_no, section=name
                )
        available = total - index - 1
        if count_text is None:
            count = 1
            kind: SectionKind = "record"
        else:
            digits = count_text.lstrip("0") or "0"
            count = int(digits) if len(digits) <= 18 else available + 1
            kind = "array" if fields is None else "records"
        if count > available:
            raise _short_body(name, kind, fields, count_text, lines, index)
        sections.append(
            Section(name, kind, line_no, fields, count, lines[index + 1 : index + 1 + count])
        )
        index += 1 + count
    return sections


# -- counts are checksums ------------------------------------------------------------
# A declared count that is too high makes the next entries rows; one that is
# too low makes the last rows entries.  Either way some line contradicts the
# count, and the error names the header, the count and that line.


def entry_extent(head: str) -> int | None:
    """How many body lines an entry head claims (0 for ``name=cell``), or ``None``.

    ``None`` when ``head`` is not an entry head at all.  A count too long to
    be real gives a number larger than any document.
    """
    if _SCALAR_HEAD.fullmatch(head) is not None:
        return 0
    match = _SECTION_HEAD.fullmatch(head)
    if match is None or (match.group(2) is None and match.group(3) is None):
        return None
    count_text = match.group(2)
    if count_text is None:
        return 1
    digits = count_text.lstrip("0") or "0"
    return int(digits) if len(digits) <= 18 else 10**18


def entries_from(lines: list[str], start: int, end: int) -> bool:
    """Whether ``lines[start:end]`` read as whole entries, one after the other.

    The last entry's body may run past ``end`` (it would continue in what
    follows).  Linear in the number of lines looked at.
    """
    index = start
    while index < end:
        extent = entry_extent(lines[index])
        if extent is None:
            return False
        index += 1 + extent
    return True


def _declared(count_text: str | None) -> tuple[int | None, str]:
    """The declared count as a number (``None`` when absurdly long) and as text."""
    if count_text is None:
        return 1, "1"
    digits = count_text.lstrip("0") or "0"
    if len(digits) > 18:
        return None, f"{digits[:20]}...({len(digits)} digits)"
    return int(digits), digits


def _rows(count: int | str) -> str:
    return f"{count} row" if str(count) == "1" else f"{count} rows"


def _short_body(
    name: str,
    kind: SectionKind,
    fields: tuple[str, ...] | None,
    count_text: str | None,
    lines: list[str],
    index: int,
) -> DecodeError:
    """The error for a head declaring more rows than lines follow it."""
    line_no = index + 1
    if kind == "record":
        return DecodeError(
            "is a single record, but no row follows its header", line=line_no, section=name
        )
    declared, shown = _declared(count_text)
    total = len(lines)
    stray = _first_entry(lines, index + 1, total, fields)
    if stray is not None:
        return CountError(
            f"declares {_rows(shown)}, but line {stray + 1} is the entry {echo(lines[stray])}",
            line=line_no,
            section=name,
            declared=declared,
            actual=stray - index - 1,
            stray_line=stray + 1,
        )
    available = total - index - 1
    return CountError(
        f"declares {_rows(shown)}, but only {available} "
        f"{'line follows' if available == 1 else 'lines follow'}",
        line=line_no,
        section=name,
        declared=declared,
        actual=available,
    )


def _first_entry(
    lines: list[str], start: int, end: int, fields: tuple[str, ...] | None
) -> int | None:
    """The first line in ``lines[start:end]`` that is no row but starts a run of entries.

    For records with two or more fields, a line whose cell count is wrong;
    otherwise any line.  Only the first candidate is tried, which keeps the
    search linear.
    """
    width = len(fields) if fields is not None else 1
    for offset in range(start, end):
        line = lines[offset]
        if width > 1 and line.count("\t") == width - 1:
            continue  # a well-formed row
        if entry_extent(line) is None:
            if width > 1:
                return None  # a malformed row: not a count problem
            continue
        return offset if entries_from(lines, offset, end) else None
    return None


def _check_leftover_rows(previous: Section, lines: list[str], index: int) -> None:
    """Raise the count error when the line at ``index`` is a row left over from ``previous``.

    Called for a line that is no entry head.  It is a leftover row when it
    directly follows a record, record array or scalar array and has that
    section's row shape (a blank line does not count).
    """
    if previous.kind == "scalar" or previous.line + previous.count != index:
        return
    width = len(previous.fields) if previous.fields is not None else 1
    start = previous.line  # index of the section's first body line
    swallowed = _first_entry(lines, start, index, previous.fields)
    if swallowed is not None and entries_from(lines, swallowed, index + 1):
        # The count is too high: from that line on, the "rows" are entries,
        # and the last of them owns the line that is no entry by itself.
        raise CountError(
            f"declares {_rows(previous.count)}, but line {swallowed + 1} is the entry "
            f"{echo(lines[swallowed])}",
            line=previous.line,
            section=previous.name,
            declared=previous.count,
            actual=swallowed - start,
            stray_line=swallowed + 1,
        )

    def row_like(line: str) -> bool:
        return line != "" and line.count("\t") == width - 1 and entry_extent(line) is None

    if not row_like(lines[index]):
        return
    extra = 1
    while index + extra < len(lines) and row_like(lines[index + extra]):
        extra += 1
    actual = previous.count + extra
    if previous.kind == "record":
        reason = f"is a single record, but line {index + 1} is another row: {echo(lines[index])}"
    else:
        reason = (
            f"declares {_rows(previous.count)}, but {actual} follow: line {index + 1} is a row, "
            f"not an entry ({echo(lines[index])})"
        )
    raise CountError(
        reason,
        line=previous.line,
        section=previous.name,
        declared=previous.count,
        actual=actual,
        stray_line=index + 1,
    )


def _entry_in_rows(section: Section, offset: int) -> CountError | None:
    """The count error when the bad row at ``offset`` is really the next entry."""
    body = section.body
    if entry_extent(body[offset]) is None or not entries_from(body, offset, len(body)):
        return None
    stray = section.line + 1 + offset
    return CountError(
        f"declares {_rows(section.count)}, but line {stray} is the entry {echo(body[offset])}",
        line=section.line,
        section=section.name,
        declared=section.count,
        actual=offset,
        stray_line=stray,
    )


def split_rows(section: Section) -> list[list[str]]:
    """Cut a record section's lines into cells, checking every row's shape.

    Checks that each row has exactly one cell per declared field and, for a
    record array whose first field is ``n``, that the ``n`` cells are the
    numbers 1, 2, ... in order.

    Raises:
        DecodeError: naming the line, section and row of the first bad row.
    """
    fields = section.fields or ()
    width = len(fields)
    if width == 0:
        for offset, line in enumerate(section.body):
            if line != "":
                count_error = _entry_in_rows(section, offset)
                if count_error is not None:
                    raise count_error
                raise DecodeError(
                    "expected an empty row for a record with no fields",
                    line=section.line + 1 + offset,
                    section=section.name,
                    row=offset + 1,
                )
        return [[] for _ in section.body]
    rows = list(map(_split_tab, section.body))
    if set(map(len, rows)) != {width}:
        for offset, cells in enumerate(rows):
            if len(cells) != width:
                count_error = _entry_in_rows(section, offset)
                if count_error is not None:
                    raise count_error
                raise DecodeError(
                    f"expected {width} cells, got {len(cells)}",
                    line=section.line + 1 + offset,
                    section=section.name,
                    row=offset + 1,
                )
    if section.numbered:
        _check_numbering(section, rows)
    return rows


_ROW_NUMBERS: list[str] = []
_ROW_NUMBERS_CACHED = 100_000


def row_numbers(count: int) -> list[str]:
    """The texts ``"1"`` .. ``str(count)``: what a reserved ``n`` column holds."""
    if count > _ROW_NUMBERS_CACHED:
        return [str(number) for number in range(1, count + 1)]
    if len(_ROW_NUMBERS) < count:
        _ROW_NUMBERS.extend(map(str, range(len(_ROW_NUMBERS) + 1, count + 1)))
    return _ROW_NUMBERS[:count]


def split_columns(section: Section) -> list[list[str]]:
    """Cut a record section's body into columns of cell texts.

    Equal to transposing :func:`eson.wire.eson_reader.split_rows` (and as
    strict: cell counts and the reserved ``n`` sequence are checked), but
    done with one split of the whole body instead of one per row.  On any
    irregularity it defers to ``split_rows`` for the precise error.

    Raises:
        DecodeError: for a row with the wrong number of cells or a broken
            ``n`` sequence, naming the line.
    """
    fields = section.fields or ()
    width = len(fields)
    body = section.body
    count = len(body)
    if width == 0 or count == 0:
        return [list(column) for column in zip(*split_rows(section))] or [[] for _ in fields]
    # Rows are joined with a marker cell "\n", which no real cell can hold:
    # every row has `width` cells iff each marker sits at its slot.
    cells = "\t\n\t".join(body).split("\t")
    stride = width + 1
    if len(cells) != count * stride - 1 or (
        count > 1 and cells[width::stride].count("\n") != count - 1
    ):
        rows = split_rows(section)  # raises the precise error
        return [list(column) for column in zip(*rows)]
    columns = [cells[position::stride] for position in range(width)]
    if fields[0] == "n" and columns[0] != row_numbers(count):
        rows = split_rows(section)  # raises unless the numbers are merely spelled oddly
        return [list(column) for column in zip(*rows)]
    return columns


def _check_numbering(section: Section, rows: list[list[str]]) -> None:
    if [cells[0] for cells in rows] == row_numbers(len(rows)):
        return
    for offset, cells in enumerate(rows):
        number = offset + 1
        try:
            value = decode_cell(cells[0])
        except DecodeError as exc:
            raise DecodeError(
                exc.reason,
                line=section.line + 1 + offset,
                section=section.name,
                row=number,
                field="n",
            ) from None
        if type(value) not in (int, float) or value != number:
            raise DecodeError(
                f"reserved n is {echo(cells[0])}, expected {number}: rows were dropped, "
                "duplicated or reordered",
                line=section.line + 1 + offset,
                section=section.name,
                row=number,
                field="n",
            )


def decode_records(section: Section) -> list[dict[str, Any]]:
    """Decode a ``records`` or ``record`` section into a list of dicts."""
    fields = section.fields or ()
    if not fields:
        return [{} for _ in split_rows(section)]
    if native is not None:
        done = native.decode_rows(
            section.body, len(fields), (MODE_GENERIC,) * len(fields), int(section.numbered)
        )
        if done is not None:  # None: a row's shape is off; the code below reports it
            decoded, flags, _ = done
            for position, flag in enumerate(flags):
                if flag == RAW:  # cells the accelerator leaves to decode_column
                    decoded[position] = _decode_located(section, decoded[position], fields[position])
            return native.build_dicts(fields, decoded)
    columns: list[list[Any]] = []
    for position, column in enumerate(split_columns(section)):
        try:
            columns.append(decode_column(column))
        except DecodeError as exc:
            row = exc.row or 1
            raise DecodeError(
                exc.reason,
                line=section.line + row,
                section=section.name,
                row=row,
                field=fields[position],
            ) from None
    return build_records(fields, columns, section.count)


def build_records(
    fields: tuple[str, ...], columns: list[list[Any]], count: int
) -> list[dict[str, Any]]:
    """One dict per row from decoded columns (one list per field, each ``count`` long)."""
    if count < _BUILDER_THRESHOLD or len(fields) > _BUILDER_MAX_FIELDS:
        return [dict(zip(fields, values)) for values in zip(*columns)]
    return list(map(record_builder(fields), *columns))


def _decode_located(section: Section, texts: list[str], field: str) -> list[Any]:
    """:func:`decode_column` of one record column, errors placed at their line."""
    try:
        return decode_column(texts)
    except DecodeError as exc:
        row = exc.row or 1
        raise DecodeError(
            exc.reason, line=section.line + row, section=section.name, row=row, field=field
        ) from None


@lru_cache(maxsize=256)
def record_builder(fields: tuple[str, ...]) -> Callable[..., dict[str, Any]]:
    """Return a function building one record dict from its cell values, in field order.

    The function is generated once per field tuple (a dict display with
    constant keys), which is several times faster than ``dict(zip(...))``.
    Field names are already checked against the name production, so their
    ``repr`` is a plain string literal.
    """
    params = ", ".join(f"v{index}" for index in range(len(fields)))
    items = ", ".join(f"{field!r}: v{index}" for index, field in enumerate(fields))
    source = f"def build_record({params}):\n    return {{{items}}}\n"
    namespace: dict[str, Any] = {}
    exec(compile(source, f"<eson record builder {','.join(fields)}>", "exec"), namespace)
    builder: Callable[..., dict[str, Any]] = namespace["build_record"]
    return builder


def decode_section(section: Section) -> Any:
    """Decode one section's body into its plain value."""
    if section.kind == "scalar":
        try:
            return decode_cell(section.body[0])
        except DecodeError as exc:
            raise DecodeError(exc.reason, line=section.line, section=section.name) from None
    if section.kind == "array":
        try:
            return decode_column(section.body)
        except DecodeError as exc:
            row = exc.row or 1
            raise DecodeError(
                exc.reason, line=section.line + row, section=section.name, row=row
            ) from None
    records = decode_records(section)
    return records if section.kind == "records" else records[0]


def decode_document(data: str | bytes | bytearray | memoryview) -> dict[str, Any]:
    """Decode an ESON document into a ``dict`` of plain values.

    Raises:
        DecodeError: for any malformed document, naming the line.
        TypeError: for input that is neither text nor bytes.
    """
    return {section.name: decode_section(section) for section in scan_sections(data)}


def _first_repeated(names: tuple[str, ...]) -> str:
    seen: set[str] = set()
    for name in names:
        if name in seen:
            return name
        seen.add(name)
    raise AssertionError("no name is repeated")
