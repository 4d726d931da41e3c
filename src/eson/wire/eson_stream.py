"""Reading ESON line by line, as a stream delivers it.

:class:`LineReader` is the streaming twin of :func:`eson.wire.eson_reader.scan_sections`,
built from the same pieces -- :func:`~eson.wire.eson_reader.read_header`,
:func:`~eson.wire.eson_reader.read_head`, :func:`~eson.wire.eson_reader.split_row`
and the lenient repairs of :mod:`eson.wire.eson_lenient` -- so a streamed
document is read by the same rules as a whole one.  It keeps no text: each
line is handed to a :class:`StreamTarget` as soon as it is complete (an
entry's head, each row's cells, the end of a section), and the target
decides what to build.  Counts are checked as rows arrive and when the
stream ends: a stream cut short is a count error, unless ``partial``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from eson.errors import DecodeError
from eson.wire.eson_lenient import CELL_SPACE, HEAD_SPACE, strip_row
from eson.wire.eson_reader import (
    HEADER,
    Head,
    count_error,
    head_extent,
    looks_like_prose,
    number_text,
    read_head,
    read_header,
    short_array,
    split_row,
    width_error,
)
from eson.wire.repairs import Repair, RepairLog

__all__ = ["LineHandler", "LineReader", "RowHandler", "StreamTarget"]

# A line starting or ending with one of these may need stripping ("" too: an
# empty line goes the careful way).
_EDGE = frozenset(HEAD_SPACE) | {""}


#: Takes one row: its cells (one for a scalar array), its 1-based number, its line.
RowHandler = Callable[[list[str], int, int], None]
#: Optionally, takes one row as its line of text, when it has the shape the
#: target expects, and returns ``True``; returns ``False`` (having done
#: nothing) otherwise, and the reader splits and checks the line itself.
LineHandler = Callable[[str, int, int], bool]


class StreamTarget(Protocol):
    """What a :class:`LineReader` reports, line by line."""

    def entry(self, head: Head, line: int) -> tuple[RowHandler, LineHandler | None] | None:
        """An entry begins on ``line``; returns the handlers of its rows (``None``: a scalar).

        The line handler, when there is one, is tried first for each row
        that needs no lenient repair; it must check the row's cell count and
        ``n`` cell as :func:`eson.wire.eson_reader.split_row` does, or
        decline the line.
        """

    def end(self, head: Head, rows: int, line: int) -> None:
        """The section opened on ``line`` is complete with ``rows`` rows."""


def _edge_space(line: str) -> bool:
    """Whether a body line may have white space at a cell's edge (a quick check)."""
    if not line:
        return False
    if line[0] in HEAD_SPACE or line[-1] in HEAD_SPACE or " \t" in line or "\t " in line:
        return True
    if line.isascii():
        return "\v" in line or "\f" in line or "\r" in line
    return any(
        (cell[:1] and cell[0] in CELL_SPACE) or (cell[-1:] and cell[-1] in CELL_SPACE)
        for cell in line.split("\t")
    )


class LineReader:
    """Read an ESON document from its lines as they come (see the module documentation).

    Args:
        target: Receives each entry, row and section end.
        strict: ``False`` reads leniently, recording repairs in ``log``.
        headerless: (lenient) accept a document without the ``!eson/1`` line.
        partial: (lenient) a stream that ends inside an array keeps the rows
            it has (see :func:`eson.wire.eson_reader.scan_sections`).
        log: Where a lenient read records its repairs.
        ends_at_prose: A line at an entry's place that reads as prose ends
            the document (for a reply whose document is followed by text, as
            :func:`eson.wire.eson_reader.document_end` reads it); later
            lines are ignored.
    """

    __slots__ = (
        "_blank",
        "_fields",
        "_handler",
        "_head",
        "_head_line",
        "_left",
        "_line_handler",
        "_numbered",
        "_row",
        "_seen",
        "_split",
        "_width",
        "ended",
        "ends_at_prose",
        "headerless",
        "line_no",
        "log",
        "partial",
        "strict",
        "target",
    )

    def __init__(
        self,
        target: StreamTarget,
        *,
        strict: bool = True,
        headerless: bool = False,
        partial: bool = False,
        log: RepairLog | None = None,
        ends_at_prose: bool = False,
    ) -> None:
        self.target = target
        self.ends_at_prose = ends_at_prose
        #: The document ended before the stream did (see ``ends_at_prose``).
        self.ended = False
        self.strict = strict
        self.headerless = headerless
        self.partial = partial
        self.log: RepairLog | None = None if strict else (log if log is not None else [])
        #: Lines read so far (the number of the last one).
        self.line_no = 0
        self._seen: set[str] = set()
        self._head: Head | None = None  # the open section
        self._head_line = 0
        self._left = 0  # rows still expected in the open section
        self._row = 0  # rows read in the open section
        self._fields: tuple[str, ...] = ()
        self._numbered = False
        self._split = False  # rows are TAB-separated cells (a record kind with fields)
        self._width = 0
        self._handler: RowHandler | None = None
        self._line_handler: LineHandler | None = None
        self._blank: list[Repair] = []  # blank-line repairs waiting for an entry

    def lines(self, lines: list[str]) -> None:
        """Read complete lines (without their line breaks)."""
        lenient = self.log is not None
        for line in lines:
            if self.ended:
                return
            self.line_no += 1
            left = self._left
            if not left:
                if self.line_no == 1 and read_header(line, self.log, self.headerless):
                    continue
                self._entry(line)
                continue
            # The hot path, a row of a record array, is inlined here; anything
            # unusual (a line that may need stripping, a bad row) goes through _body.
            if not self._split or (
                lenient
                and (
                    line[:1] in _EDGE
                    or line[-1:] in _EDGE
                    or " \t" in line
                    or "\t " in line
                    or not line.isascii()
                    or "\r" in line
                    or "\v" in line
                    or "\f" in line
                )
            ):
                self._body(line)
                continue
            row = self._row + 1
            fast = self._line_handler
            if fast is None or not fast(line, row, self.line_no):
                cells = line.split("\t")
                if len(cells) != self._width or (
                    self._numbered and cells[0] != number_text(row)
                ):
                    self._body(line)  # raises the precise error
                    continue
                self._handler(cells, row, self.line_no)  # type: ignore[misc]
            self._row = row
            self._left = left - 1
            if left == 1:
                head = self._head
                assert head is not None
                self._head = None
                self.target.end(head, row, self._head_line)

    def finish(self, last: str | None) -> None:
        """The stream ended; ``last`` is its final line if it had no line break.

        Raises:
            DecodeError: for an empty stream, or one that ends before the
                open section's declared rows (unless ``partial``).
        """
        if last is not None and not self.ended:
            if self._left > 1 and self._head is not None and self._head.kind != "record":
                # The text ends short of the count even with this last line.
                if self.partial and self.log is not None:
                    # The unterminated line may be cut: dropped, as the
                    # whole-text reader drops it.
                    self.line_no += 1
                    self._close_short(dropped=True)
                    return
                raise count_error(self._head, self._row + 1, self._head_line)
            self.lines([last])
        if self.line_no == 0:
            raise DecodeError(f"expected the header {HEADER}, got an empty document", line=1)
        if self._left:
            head = self._head
            assert head is not None
            if self.partial and self.log is not None and head.kind != "record":
                self._close_short(dropped=False)
                return
            raise count_error(head, self._row, self._head_line)

    def _close_short(self, dropped: bool) -> None:
        head = self._head
        assert head is not None and self.log is not None
        self.log.append(short_array(head, self._row, dropped, self._head_line))
        self._left = 0
        self.target.end(head, self._row, self._head_line)
        self._head = None

    def _entry(self, line: str) -> None:
        if (
            self.ends_at_prose
            and self.line_no > 1
            and head_extent(line) is None
            and looks_like_prose(line)
        ):
            self.ended = True  # prose after the document, as document_end reads it
            return
        log = self.log
        before = len(log) if log is not None else 0
        head = read_head(line, self.line_no, self._seen, log)
        if head is None:
            if self.ends_at_prose and log is not None:
                # A blank line is "between entries" only once an entry follows:
                # after the document, it belongs to the text around it.
                self._blank.extend(log[before:])
                del log[before:]
            return
        if self._blank:
            assert log is not None
            log[before:before] = self._blank
            self._blank.clear()
        handlers = self.target.entry(head, self.line_no)
        if head.kind == "scalar" or handlers is None:
            return
        if head.count == 0:
            self.target.end(head, 0, self.line_no)
            return
        self._head = head
        self._head_line = self.line_no
        self._left = head.count
        self._row = 0
        self._fields = head.fields or ()
        self._numbered = head.kind == "records" and bool(head.fields) and self._fields[0] == "n"
        self._split = bool(self._fields)
        self._width = len(self._fields)
        self._handler, self._line_handler = handlers

    def _body(self, line: str) -> None:
        head = self._head
        assert head is not None and self._handler is not None
        self._row += 1
        row = self._row
        if self.log is not None and _edge_space(line):
            line = self._strip(line, head, row)
        if self._split:
            cells = line.split("\t")
            if len(cells) != self._width:
                raise width_error(self._width, len(cells), head.name, row, self.line_no)
            if self._numbered and cells[0] != number_text(row):
                split_row(line, self._fields, True, head.name, row, self.line_no)
        elif head.kind == "array":
            cells = [line]
        else:  # a record without fields: its row must be empty
            cells = split_row(line, self._fields, False, head.name, row, self.line_no)
        self._left -= 1
        self._handler(cells, row, self.line_no)
        if not self._left:
            self._head = None
            self.target.end(head, row, self._head_line)

    def _strip(self, line: str, head: Head, row: int) -> str:
        fields = head.fields
        fixed, changed = strip_row(line, bool(fields))
        log = self.log
        assert log is not None
        if fields is not None and not fields:
            if changed:
                detail = "removed the white space on the empty row of a record without fields"
                log.append(Repair(self.line_no, "cell-space", detail, head.name, row))
            return fixed
        for position in changed:
            field = fields[position] if fields and position < len(fields) else None
            log.append(
                Repair(
                    self.line_no,
                    "cell-space",
                    "removed white space around the cell",
                    head.name,
                    row,
                    field,
                )
            )
        return fixed
