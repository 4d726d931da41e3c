"""The pieces of ESON reading: lines, heads, sections, rows, and the count errors' words.

The reader itself -- one for a whole text and a stream, strict and lenient
-- is :class:`eson._internal.wire.eson_line_reader.LineReader`; it reads each
line's role with :func:`read_header` and :func:`read_head`, and words the
count errors with :func:`count_error` and its kin.  A section whose rows
are all there is decoded whole: :func:`split_columns` cuts a record
section's rows into columns (checking each row's cell count and the
reserved ``n`` sequence) and the cells are decoded column by column
(:func:`eson._internal.wire.eson_cells.decode_column`, :func:`decode_section`).

Line endings may be LF or CRLF and the final line break may be missing.  One
leading byte-order mark (U+FEFF) is ignored.  Every error is a
:class:`eson.errors.DecodeError` carrying the 1-based line number.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from operator import methodcaller
from typing import TYPE_CHECKING, Any, Literal

from eson._internal.accelerator import MODE_GENERIC, RAW, native
from eson._internal.wire.eson_cells import decode_cell, decode_column
from eson._internal.wire.eson_lenient import (
    HEAD_SPACE,
    is_blank,
    repair_head,
    strip_scalar_cell,
)
from eson._internal.wire.eson_lexicon import DIGITS_SOURCE, HEADER, VERSION_SOURCE, lazy_pattern
from eson._internal.wire.eson_names import NAME_PATTERN, NAME_RE
from eson._internal.wire.lines import whole_text
from eson.errors import CountError, DecodeError, echo

if TYPE_CHECKING:
    from eson._internal.wire.repairs import Repair, RepairKind, RepairLog

# eson._internal.wire.repairs (a dataclass, and with it dataclasses and inspect) is
# imported by the lenient paths that record a repair, not by ``import eson``.


SectionKind = Literal["scalar", "array", "records", "record"]

_SCALAR_HEAD = lazy_pattern(rf"({NAME_PATTERN})=(.*)", re.DOTALL)
_SECTION_HEAD = lazy_pattern(rf"({NAME_PATTERN})(?:\[({DIGITS_SOURCE})\])?(?:\{{([^}}]*)\}})?", re.DOTALL)
_VERSION_HEAD = lazy_pattern(VERSION_SOURCE)
_NAME_START = lazy_pattern(NAME_PATTERN)
_split_tab = methodcaller("split", "\t")
# Sections with fewer rows than this build dicts with zip; generating a builder
# only pays for itself on longer arrays (and bounds work on hostile documents).
_BUILDER_THRESHOLD = 16
# Nor for more fields than this: compiling a function of thousands of
# parameters costs more than it saves, and grows faster than the header.
_BUILDER_MAX_FIELDS = 64


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
        joined: The body lines of a record section joined by ``"\t\n\t"``,
            when a lenient read made that text already (:func:`split_columns`
            reuses it).
        start: The row number of the first body line (1 but for a row read
            alone, as a section of its own): what its ``n`` cell must hold.

    A plain class with slots, not a dataclass: :mod:`dataclasses` (and
    :mod:`inspect` with it) stays out of ``import eson``.
    """

    __slots__ = ("body", "count", "fields", "joined", "kind", "line", "name", "start")

    def __init__(
        self,
        name: str,
        kind: SectionKind,
        line: int,
        fields: tuple[str, ...] | None,
        count: int,
        body: list[str],
        joined: str | None = None,
        start: int = 1,
    ) -> None:
        self.name = name
        self.kind = kind
        self.line = line
        self.fields = fields
        self.count = count
        self.body = body
        self.joined = joined
        self.start = start

    def _key(self) -> tuple[object, ...]:
        return (self.name, self.kind, self.line, self.fields, self.count, self.body)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Section:
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass was

    def __repr__(self) -> str:
        return (
            f"Section(name={self.name!r}, kind={self.kind!r}, line={self.line!r}, "
            f"fields={self.fields!r}, count={self.count!r}, body={self.body!r})"
        )

    @property
    def numbered(self) -> bool:
        """Whether this record array carries the reserved ``n`` column."""
        return self.kind == "records" and bool(self.fields) and self.fields[0] == "n"  # type: ignore[index]


def text_of(data: str | bytes | bytearray | memoryview, label: str = "ESON") -> str:
    """Return the document as ``str``: bytes-like input is decoded as UTF-8.

    Raises:
        DecodeError: for invalid UTF-8, with the line it occurs on.
        TypeError: for input that is neither text nor bytes (naming ``label``).
    """
    return whole_text(data, label, DecodeError)


class SplitText:
    """A document already cut into lines (by a reader that had to split it anyway).

    Attributes:
        lines: The lines, without line breaks (LF; the CR of a CRLF removed;
            no byte-order mark).
        terminated: Whether the last line had a line break.
    """

    __slots__ = ("lines", "terminated")

    def __init__(self, lines: list[str], terminated: bool) -> None:
        self.lines: list[str] = lines
        self.terminated: bool = terminated

    def __repr__(self) -> str:
        return f"SplitText(lines={self.lines!r}, terminated={self.terminated!r})"


Document = str | bytes | bytearray | memoryview | SplitText


def split_lines(data: Document, strict: bool = True) -> tuple[list[str], bool]:
    """Split a document into lines (BOM dropped, CRLF read as LF).

    Returns the lines and whether the text ended with a line break.  A
    strict read refuses a text without the header before splitting it.
    """
    if isinstance(data, SplitText):
        return data.lines, data.terminated  # read only: never changed here
    text = text_of(data)
    if strict:
        _check_first_line(text)
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    lines = text.split("\n")
    terminated = lines[-1] == ""
    if terminated:
        lines.pop()
    return lines, terminated


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
    # (a CR is part of the line break only before an LF, as the stream reads it)
    first = text[start:] if end < 0 else text[start:end].removesuffix("\r")
    _check_header([first] if text[start:] else [])


def _check_header(lines: list[str], log: RepairLog | None = None, headerless: bool = False) -> int:
    """Check the header line; return the index of the first entry line."""
    if not lines:
        raise DecodeError(f"expected the header {HEADER}, got an empty document", line=1)
    return 1 if read_header(lines[0], log, headerless) else 0


def read_header(line: str, log: RepairLog | None, headerless: bool) -> bool:
    """Check the first line of a document; ``False`` when it is an entry to read as such.

    ``log`` is the repair log of a lenient read (``None``: strict).
    ``headerless``: (lenient, typed) a document whose first line is an
    entry is read as if the header were there.

    Raises:
        DecodeError: for a missing (when not allowed) or unsupported header.
    """
    if line == HEADER:
        return True
    if log is not None:
        stripped = line.rstrip(HEAD_SPACE)
        if stripped == HEADER:
            log.append(
                make_repair(1, "line-end-space", f"removed the white space after the header {HEADER}")
            )
            return True
        if headerless and not _VERSION_HEAD.match(stripped) and _reads_as_entry(line):
            log.append(make_repair(1, "missing-header", f"read as if the header {HEADER} came first"))
            return False
    if _VERSION_HEAD.fullmatch(line):
        raise DecodeError(
            f"unsupported version header {echo(line)}; this decoder reads {HEADER}", line=1
        )
    raise DecodeError(f"expected the header {HEADER}, got {echo(line)}", line=1)


def _is_entry_head(line: str) -> bool:
    """Whether a line parses as an entry head as it stands."""
    if _SCALAR_HEAD.fullmatch(line) is not None:
        return True
    match = _SECTION_HEAD.fullmatch(line)
    return match is not None and (match.group(2) is not None or match.group(3) is not None)


def _reads_as_entry(line: str) -> bool:
    """Whether a line parses as an entry head, as it stands or after a lenient repair."""
    if _is_entry_head(line):
        return True
    repaired = repair_head(line)
    return repaired is not None and _is_entry_head(repaired[0])


class Head:
    """An entry's head line, read.

    Attributes:
        name: The entry's name.
        kind: See :class:`Section`.
        fields: Declared field names (record kinds), else ``None``.
        count: Declared number of body lines (1 for a single record, 0 for
            a scalar); a count of more than 18 digits reads as 10**18.
        count_text: The count as written (arrays), else ``None``.
        cell: A scalar entry's cell text, else ``None``.
    """

    __slots__ = ("cell", "count", "count_text", "fields", "kind", "name")

    def __init__(
        self,
        name: str,
        kind: SectionKind,
        fields: tuple[str, ...] | None,
        count: int,
        count_text: str | None = None,
        cell: str | None = None,
    ) -> None:
        self.name = name
        self.kind = kind
        self.fields = fields
        self.count = count
        self.count_text = count_text
        self.cell = cell

    def __repr__(self) -> str:
        return (
            f"Head(name={self.name!r}, kind={self.kind!r}, fields={self.fields!r}, "
            f"count={self.count!r}, count_text={self.count_text!r}, cell={self.cell!r})"
        )


_HUGE_COUNT = 10**18


def read_head(line: str, line_no: int, seen: set[str], log: RepairLog | None) -> Head | None:
    """Read one head line (the line where an entry must start).

    ``seen`` holds the names read so far (the new one is added); ``log`` is
    the repair log of a lenient read (``None``: strict).  Returns ``None``
    for a blank line that a lenient read skips.

    Raises:
        DecodeError: for a line that is no valid head (after the lenient
            repairs, when reading leniently), or a duplicate name or field.
    """
    while True:
        scalar = _SCALAR_HEAD.fullmatch(line)
        if scalar is not None:
            name = scalar.group(1)
            if name in seen:
                raise DecodeError(f"duplicate name {echo(name)}", line=line_no, section=name)
            seen.add(name)
            cell = scalar.group(2)
            if log is not None and cell and (cell[0] in HEAD_SPACE or cell[-1] in HEAD_SPACE):
                cell, notes = strip_scalar_cell(cell)
                _note(log, line_no, notes, name)
            return Head(name, "scalar", None, 0, None, cell)
        match = _SECTION_HEAD.fullmatch(line)
        if match is None or (match.group(2) is None and match.group(3) is None):
            if log is not None:
                if is_blank(line):
                    log.append(
                        make_repair(line_no, "blank-line", "skipped a blank line between entries")
                    )
                    return None
                repaired = repair_head(line)
                if repaired is not None and _is_entry_head(repaired[0]):
                    line, notes = repaired
                    _note(log, line_no, notes, _NAME_START.match(line).group(0))  # type: ignore[union-attr]
                    continue  # read again, now as a canonical head
            raise placeholder_count_error(line, line_no) or DecodeError(
                f"invalid entry {echo(line)}", line=line_no
            )
        name, count_text, field_text = match.groups()
        if name in seen:
            raise DecodeError(f"duplicate name {echo(name)}", line=line_no, section=name)
        fields: tuple[str, ...] | None = None
        if field_text is not None:
            fields = tuple(field_text.split(",")) if field_text else ()
            bad = next((field for field in fields if NAME_RE.fullmatch(field) is None), None)
            if bad is not None:
                repaired = repair_head(line) if log is not None else None
                if repaired is not None and _is_entry_head(repaired[0]):
                    assert log is not None
                    _note(log, line_no, repaired[1], name)
                    line = repaired[0]
                    continue  # read again, now as a canonical head
                raise DecodeError(f"invalid field name {echo(bad)}", line=line_no, section=name)
            if len(set(fields)) != len(fields):
                raise DecodeError(
                    f"duplicate field {echo(_first_repeated(fields))}", line=line_no, section=name
                )
        seen.add(name)
        if count_text is None:
            return Head(name, "record", fields, 1)
        digits = count_text.lstrip("0") or "0"
        count = int(digits) if len(digits) <= 18 else _HUGE_COUNT
        return Head(name, "array" if fields is None else "records", fields, count, count_text)


def count_error(
    head: Head,
    available: int,
    line_no: int,
    stray_line: int | None = None,
    stray: str | None = None,
) -> DecodeError:
    """The error for a head whose declared rows the text does not hold.

    ``available`` is how many lines follow the head; ``stray_line`` and
    ``stray`` name the first of them that is an entry, not a row, when the
    rest of the text reads as entries from there on (the count is too high).
    The whole-text scanner and the stream both build their errors here.
    """
    if head.kind == "record":
        return DecodeError(
            "is a single record, but no row follows its header", line=line_no, section=head.name
        )
    declared, shown = _declared_count(head.count_text)
    if stray_line is not None:
        return CountError(
            f"declares {_rows(shown)}, but line {stray_line} is the entry {echo(stray)}",
            line=line_no,
            section=head.name,
            declared=declared,
            actual=stray_line - line_no - 1,
            stray_line=stray_line,
        )
    return CountError(
        f"declares {_rows(shown)}, but only {available} "
        f"{'line follows' if available == 1 else 'lines follow'}",
        line=line_no,
        section=head.name,
        declared=declared,
        actual=available,
    )


def make_repair(
    line: int,
    kind: RepairKind,
    detail: str,
    section: str | None = None,
    row: int | None = None,
    field: str | None = None,
) -> Repair:
    """A :class:`~eson._internal.wire.repairs.Repair`, its module imported on the first one."""
    from eson._internal.wire.repairs import Repair

    return Repair(line, kind, detail, section, row, field)


def short_array(head: Head, kept: int, dropped_last: bool, line_no: int) -> Repair:
    """(partial) The repair recording an array cut short by the end of the text."""
    return make_repair(
        line_no,
        "rows-missing",
        f"the text ends after {kept} of the {_declared(head.count_text or '1')} declared rows"
        + (" (the last line, maybe cut, was dropped)" if dropped_last else "")
        + "; kept those",
        head.name,
    )


def _note(log: RepairLog, line: int, notes: list[tuple[str, str]], section: str) -> None:
    log.extend(make_repair(line, kind, detail, section) for kind, detail in notes)  # type: ignore[arg-type]


def _declared(count_text: str) -> str:
    declared = count_text.lstrip("0") or "0"
    if len(declared) > 40:
        declared = f"{declared[:20]}...({len(declared)} digits)"
    return declared


# -- counts are checksums ------------------------------------------------------------
# A declared count that is too high makes the next entries rows; one that is
# too low makes the last rows entries.  Either way some line contradicts the
# count, and the error names the header, the count and that line.


def entry_name(head: str) -> str:
    """The name an entry head starts with (the text before ``=``, ``[`` or ``{``)."""
    return re.split(r"[=\[{]", head, maxsplit=1)[0]


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


def _declared_count(count_text: str | None) -> tuple[int | None, str]:
    """The declared count as a number (``None`` when absurdly long) and as text."""
    if count_text is None:
        return 1, "1"
    digits = count_text.lstrip("0") or "0"
    if len(digits) > 18:
        return None, f"{digits[:20]}...({len(digits)} digits)"
    return int(digits), digits


def _rows(count: int | str) -> str:
    return f"{count} row" if str(count) == "1" else f"{count} rows"


def row_like(line: str, width: int) -> bool:
    """Whether a line at an entry's place has the shape of a row of ``width`` cells."""
    return line != "" and line.count("\t") == width - 1 and entry_extent(line) is None


def stray_entry_error(
    name: str, count: int, head_line: int, stray_line: int, stray: str
) -> CountError:
    """The count error of a section whose declared rows take in the entry on ``stray_line``."""
    return CountError(
        f"declares {_rows(count)}, but line {stray_line} is the entry {echo(stray)}",
        line=head_line,
        section=name,
        declared=count,
        actual=stray_line - head_line - 1,
        stray_line=stray_line,
    )


def leftover_error(
    kind: SectionKind,
    name: str,
    count: int,
    head_line: int,
    stray_line: int,
    stray: str,
    extra: int,
) -> CountError:
    """The count error of a section followed by ``extra`` more rows, the first on ``stray_line``."""
    actual = count + extra
    if kind == "record":
        reason = f"is a single record, but line {stray_line} is another row: {echo(stray)}"
    else:
        reason = (
            f"declares {_rows(count)}, but {actual} follow: line {stray_line} is a row, "
            f"not an entry ({echo(stray)})"
        )
    return CountError(
        reason,
        line=head_line,
        section=name,
        declared=count,
        actual=actual,
        stray_line=stray_line,
    )


def swallowed_entry_error(
    name: str, count: int, head_line: int, stray_line: int, stray: str, field: str
) -> CountError:
    """The count error of a one-column array whose rows took in the entry of ``field``.

    For typed reading, which knows that the schema has a field ``field``
    the document otherwise lacks.
    """
    return CountError(
        f"declares {_rows(count)}, but line {stray_line} is the entry "
        f"{echo(stray)} of the field {echo(field)}, which the document otherwise lacks",
        line=head_line,
        section=name,
        declared=count,
        actual=stray_line - head_line - 1,
        stray_line=stray_line,
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
            split_row(line, fields, False, section.name, offset + 1, section.line + 1 + offset)
        return [[] for _ in section.body]
    rows = list(map(_split_tab, section.body))
    if set(map(len, rows)) != {width}:
        for offset, cells in enumerate(rows):
            if len(cells) != width:
                raise width_error(
                    width,
                    len(cells),
                    section.name,
                    offset + 1,
                    section.line + 1 + offset,
                    section.body[offset],
                )
    if section.numbered:
        _check_numbering(section, rows)
    return rows


def split_row(
    line: str, fields: tuple[str, ...], numbered: bool, section: str, row: int, line_no: int
) -> list[str]:
    """One body line of a record section as its cells, checked as :func:`split_rows` checks it.

    ``numbered``: the section is a record array whose first field is ``n``,
    so this row's ``n`` cell must be ``row``.

    Raises:
        DecodeError: for a wrong number of cells or a wrong ``n``.
    """
    if not fields:
        if line != "":
            raise DecodeError(
                "expected an empty row for a record with no fields",
                line=line_no,
                section=section,
                row=row,
            )
        return []
    cells = line.split("\t")
    if len(cells) != len(fields):
        raise width_error(len(fields), len(cells), section, row, line_no, line)
    if numbered and cells[0] != number_text(row):
        _check_number(cells[0], row, section, line_no)
    return cells


def number_text(row: int) -> str:
    """``str(row)``: what the reserved ``n`` cell of row ``row`` holds (cached)."""
    if row <= len(_ROW_NUMBERS):
        return _ROW_NUMBERS[row - 1]
    if row <= _ROW_NUMBERS_CACHED:
        start = len(_ROW_NUMBERS) + 1
        _ROW_NUMBERS.extend(map(str, range(start, max(row, start + 1023) + 1)))
        return _ROW_NUMBERS[row - 1]
    return str(row)


_PLACEHOLDER_HEAD = lazy_pattern(rf"({NAME_PATTERN})\[([^\]\n]*)\](?:\{{[^}}\n]*\}})?[ \t:]*")


def placeholder_count_error(line: str, line_no: int) -> DecodeError | None:
    """The error for a head whose count is a word, not digits: ``findings[N]{...}``, ``[n]``, ``[...]``.

    Models copy the ``N`` of a prompt's layout literally; the error says
    that ``N`` stands for the number of rows sent.  ``None`` for any other line.
    """
    match = _PLACEHOLDER_HEAD.fullmatch(line)
    if match is None:
        return None
    name, count = match.groups()
    if count.strip(" \t").isdigit():
        return None
    shown = name if len(name) <= 40 else name[:37] + "..."
    return DecodeError(
        f"invalid entry {echo(line)}: the count [{echo(count, 10)[1:-1]}] must be the number "
        f"of rows that follow, in digits: write {shown}[3] for 3 rows",
        line=line_no,
        section=name,
    )


def width_error(
    width: int, got: int, section: str, row: int, line_no: int, text: str | None = None
) -> DecodeError:
    """A row with the wrong number of cells; ``text`` (the row) lets the message say why.

    Models put spaces where TABs belong, or a TAB after the last cell: the
    message then says that cells are separated by TAB characters and what
    this row did instead (:func:`width_hint`).
    """
    hint = width_hint(text, width, got) if text is not None else ""
    return DecodeError(
        f"expected {width} cells, got {got}{hint}", line=line_no, section=section, row=row
    )


_SPACE_RUN = lazy_pattern(r" {2,}|\t")


def width_hint(text: str, width: int, got: int) -> str:
    """Why a row has ``got`` cells instead of ``width``, when the row shows it (else ``""``).

    ``": cells are separated by TAB characters, and this row separates them
    with spaces"`` for a row that has the ``width`` cells once runs of spaces
    (or single spaces) count as TABs; ``"...; this row ends with a TAB"``
    for one whose extra cells are empty ones after a trailing TAB.
    """
    if width < 2:
        return ""
    body = text.rstrip("\t")
    trailing = len(body) < len(text)
    if got > width and trailing and len(body.split("\t")) == width:
        return (
            ": cells are separated by TAB characters, and this row ends with a TAB "
            "(it starts an empty extra cell); remove the TAB after the last cell"
        )
    if " " not in body or len(body.split("\t")) >= width:
        return ""
    words = body.strip(" ")
    spaced = "\t" in words
    if len(_SPACE_RUN.split(words)) == width or len(words.replace("\t", " ").split()) == width:
        where = "in place of some TABs" if spaced else "instead"
        also = ", and ends with a TAB: remove it" if trailing else ""
        return (
            f": cells are separated by TAB characters, and this row uses spaces {where}{also}; "
            "put one TAB between cells"
        )
    if not spaced:
        return ": cells are separated by TAB characters, and this row has none (only spaces)"
    return ""


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

    Equal to transposing :func:`eson._internal.wire.eson_reader.split_rows` (and as
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
    joined = section.joined if section.joined is not None else "\t\n\t".join(body)
    cells = joined.split("\t")
    stride = width + 1
    if len(cells) != count * stride - 1 or (
        count > 1 and cells[width::stride].count("\n") != count - 1
    ):
        rows = split_rows(section)  # raises the precise error
        return [list(column) for column in zip(*rows)]
    columns = [cells[position::stride] for position in range(width)]
    if fields[0] == "n" and columns[0] != _numbers(section.start, count):
        rows = split_rows(section)  # raises unless the numbers are merely spelled oddly
        return [list(column) for column in zip(*rows)]
    return columns


def _numbers(start: int, count: int) -> list[str]:
    """The ``n`` cells of ``count`` rows from row ``start`` on."""
    if start == 1:
        return row_numbers(count)
    return [number_text(row) for row in range(start, start + count)]


def _check_numbering(section: Section, rows: list[list[str]]) -> None:
    if [cells[0] for cells in rows] == _numbers(section.start, len(rows)):
        return
    for offset, cells in enumerate(rows):
        _check_number(cells[0], offset + section.start, section.name, section.line + 1 + offset)


def _check_number(cell: str, number: int, section: str, line_no: int) -> None:
    """Check one reserved ``n`` cell (which is not spelled as ``str(number)``)."""
    try:
        value = decode_cell(cell)
    except DecodeError as exc:
        raise DecodeError(
            exc.reason, line=line_no, section=section, row=number, field="n"
        ) from None
    if type(value) not in (int, float) or value != number:
        raise DecodeError(
            f"reserved n is {echo(cell)}, expected {number}: rows were dropped, "
            "duplicated or reordered",
            line=line_no,
            section=section,
            row=number,
            field="n",
        )


def decode_records(section: Section) -> list[dict[str, Any]]:
    """Decode a ``records`` or ``record`` section into a list of dicts."""
    fields = section.fields or ()
    if not fields:
        return [{} for _ in split_rows(section)]
    if native is not None and section.start == 1:
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


def _first_repeated(names: tuple[str, ...]) -> str:
    seen: set[str] = set()
    for name in names:
        if name in seen:
            return name
        seen.add(name)
    raise AssertionError("no name is repeated")


def head_extent(line: str) -> int | None:
    """How many body lines follow a head line (leniently read), or ``None`` if it is no head.

    A scalar entry has none, a single record one, an array its declared
    count (clamped to 10**9).  Used to find where a document ends inside
    surrounding text (:func:`document_end`).
    """
    extent = entry_extent(line)
    if extent is None:
        repaired = repair_head(line)
        if repaired is None:
            return None
        extent = entry_extent(repaired[0])
        if extent is None:
            return None
    return min(extent, 10**9)


def looks_like_prose(line: str) -> bool:
    """A line that is no part of a document: no TAB, and words or a sentence's end."""
    if "\t" in line:
        return False
    text = line.strip(HEAD_SPACE)
    return " " in text or text[-1:] in (".", "!", "?", ":") or text.startswith("```")


def document_end(lines: list[str], start: int) -> int:
    """The index after the last line of the ESON document whose first entry is ``lines[start]``.

    Entries are followed head by head, each with its declared rows, so the
    document ends where its last section's rows end.  Blank lines between
    entries are passed over; the document ends at the first line at a head's
    place that reads as prose (see :func:`looks_like_prose`).  A line at a
    head's place that is neither a head nor prose (a TAB-separated row past
    the declared count, say) stays in the document, so that reading it fails
    with the count error instead of silently dropping rows.
    """
    index = start
    end = start
    total = len(lines)
    while index < total:
        line = lines[index].rstrip("\r")
        if is_blank(line):
            index += 1
            continue
        rows = head_extent(line)
        if rows is None:
            if looks_like_prose(line):
                break
            index += 1
            end = index
            continue
        index = min(total, index + 1 + rows)
        end = index
    return end
