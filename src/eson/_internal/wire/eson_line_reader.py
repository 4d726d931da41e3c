"""The one reader of ESON text, for a whole text and a stream alike.

:class:`LineReader` reads a document line by line -- each line's role with
:func:`~eson._internal.wire.eson_reader.read_header` and
:func:`~eson._internal.wire.eson_reader.read_head`, each row's shape with
:func:`~eson._internal.wire.eson_reader.split_row`, the lenient repairs of
:mod:`eson._internal.wire.eson_lenient` -- and hands what it reads to a
:class:`StreamTarget` as soon as it is complete (an entry's head, each
row's cells, the end of a section); the target decides what to build.  A
stream feeds it the lines that have arrived (:meth:`LineReader.lines`); a
whole text is the same stream arriving at once (:meth:`LineReader.read_all`,
:func:`read_text`), where a section whose rows are all present is offered
to the target whole and read row by row only when the target declines
it.  So the whole text and the stream fail alike, word for word.

Counts are checked as rows arrive and when the text ends: a text cut
short is a count error, unless ``partial``.  A bad row's error -- its
shape, or a cell the target refuses -- waits until the section's declared
rows have all arrived (or the text ends, when the count is the error; or,
when the section may have swallowed an entry, the end, where a typed
reader judges that first: :func:`check_swallowed`), and is raised once the
next line is read, since a row left over there makes the count the error.
The first row that reads as an entry is followed, head by head, to see
whether the rest reads as entries too (then the count, not the row, is
wrong).  The reader keeps a few numbers for this, never the lines.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any, Protocol

from eson._internal.accelerator import ANY_PLAIN, native
from eson._internal.wire.eson_lenient import CELL_SPACE, HEAD_SPACE, body_has_edge_space, strip_row
from eson._internal.wire.eson_reader import (
    HEADER,
    Document,
    Head,
    Section,
    count_error,
    decode_section,
    entry_extent,
    entry_name,
    head_extent,
    leftover_error,
    looks_like_prose,
    make_repair,
    number_text,
    read_head,
    read_header,
    row_like,
    short_array,
    split_lines,
    split_row,
    stray_entry_error,
    swallowed_entry_error,
    width_error,
)
from eson.errors import ECHO_LIMIT, DecodeError

if TYPE_CHECKING:
    from eson._internal.wire.repairs import Repair, RepairLog

# A line starting or ending with one of these may need stripping ("" too: an
# empty line goes the careful way).
_EDGE = frozenset(HEAD_SPACE) | {""}
# How many rows reading as entries a one-column section follows (bounded work).
_ENTRY_ROWS = 3


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
        ``n`` cell as :func:`eson._internal.wire.eson_reader.split_row` does, or
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
            it has (see :func:`eson._internal.wire.eson_reader.scan_sections`).
        log: Where a lenient read records its repairs.
        ends_at_prose: A line at an entry's place that reads as prose ends
            the document (for a reply whose document is followed by text, as
            :func:`eson._internal.wire.eson_reader.document_end` reads it); later
            lines are ignored.
        judge: Called when the stream ends, before the error of a bad row
            held until then is raised: a typed reader judges
            :attr:`swallowed` there (see :meth:`finish`).
    """

    __slots__ = (
        "_bad",
        "_blank",
        "_candidate",
        "_chain_next",
        "_chain_ok",
        "_checked",
        "_ended_at",
        "_entry_rows",
        "_fast",
        "_fields",
        "_handler",
        "_head",
        "_head_line",
        "_held",
        "_judge",
        "_last",
        "_left",
        "_leftover",
        "_line_handler",
        "_numbered",
        "_pending",
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
        "swallowed",
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
        judge: Callable[[], None] | None = None,
    ) -> None:
        self.target = target
        self._judge = judge
        # A bad row of a one-column section that may have swallowed an entry:
        # the count error, judged at the end, comes first (see _section_done).
        self._held: DecodeError | None = None
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
        self._fast = False  # rows take the inlined path of lines() (two or more fields)
        self._width = 0
        self._handler: RowHandler | None = None
        self._line_handler: LineHandler | None = None
        self._blank: list[Repair] = []  # blank-line repairs waiting for an entry
        # Count checks that need the lines after a bad row (see the module docs).
        self._bad: DecodeError | None = None  # a bad row's error, until the rows are in
        self._pending: DecodeError | None = None  # that error, until the next line is read
        self._candidate: tuple[int, str] | None = None  # first row reading as an entry
        self._checked = False  # whether the row that may be the candidate was seen
        self._chain_ok = False  # the lines from the candidate on read as entries so far
        self._chain_next = 0  # the line where the candidate's chain expects the next head
        self._ended_at = 0  # the line that ended the last section
        self._last: tuple[Head, int] | None = None  # that section and its head line
        self._leftover: list[object] | None = None  # [line, text, extra] rows past a count
        # One-column sections: the first rows reading as entries,
        # [line, text, name, chain intact, line of the chain's next head].
        self._entry_rows: list[list[Any]] = []
        #: Rows of complete one-column sections that read as entries, each
        #: with all rows after it in its section (section, count, head line,
        #: row line, row text, entry name): where a count too high may have swallowed an
        #: entry (a typed reader judges them at the end, as
        #: :meth:`eson._internal.codecs.eson_decode.DocumentReader.check_counts` does).
        self.swallowed: list[tuple[str, int, int, int, str, str]] = []

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
            if not self._fast or (
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
            odd = False  # the row's shape is wrong: _body says how
            try:
                if fast is None or not fast(line, row, self.line_no):
                    cells = line.split("\t")
                    if len(cells) != self._width or (
                        self._numbered and cells[0] != number_text(row)
                    ):
                        odd = True
                    else:
                        self._handler(cells, row, self.line_no)  # type: ignore[misc]
            except DecodeError as exc:
                self._row = row
                self._defer(exc)
                continue
            if odd:
                self._body(line)  # records the precise error
                continue
            self._row = row
            self._left = left - 1
            if left == 1:
                self._section_done()

    def read_all(self, lines: list[str], terminated: bool) -> None:
        """Read a whole text: its lines as one stream that then ends.

        The same reading as :meth:`lines` and :meth:`finish`, with one
        shortcut that keeps a whole text fast: when every declared row of a
        section is among the lines and the target has a ``section`` method,
        the rows go to it as one slice (see :class:`SectionTarget`).  It
        either takes them all -- every row well formed and decoded -- or
        declines, and the rows are read one by one as a stream reads them,
        which finds the error.  So a whole text and a stream of it are read
        by the very same rules.
        """
        bulk: Callable[[Head, list[str], int], bool] | None = getattr(self.target, "section", None)
        total = len(lines) if terminated else len(lines) - 1
        index = 0
        read = self.lines
        while index < total and not self.ended:
            left = self._left
            if not left:
                read(lines[index : index + 1])
                index += 1
                continue
            if bulk is not None and self._row == 0 and index + left <= total:
                body = lines[index : index + left]
                if self._take(bulk, body):
                    index += left
                    continue
            stop = min(total, index + left)
            read(lines[index:stop])
            index = stop
        self.finish(None if terminated or not lines else lines[-1])

    def _take(self, bulk: Callable[[Head, list[str], int], bool], body: list[str]) -> bool:
        """Offer the open section's declared rows to the target at once (see :meth:`read_all`)."""
        head = self._head
        assert head is not None
        joined = None
        if self.log is not None:
            joined = ("\t\n\t" if self._split else "\n").join(body)
            if body_has_edge_space(joined, self._split):
                return False  # rows to repair: one by one, as a stream repairs them
        track = None
        if self._width <= 1:
            # Rows reading as entries are followed for the count checks
            # (_track), from the first that may be one (either joining has
            # one line feed between rows, and adds none of "=[{").
            if joined is None:
                joined = "\n".join(body)
            found = [at for at in (joined.find("="), joined.find("["), joined.find("{")) if at >= 0]
            if found:
                track = joined.count("\n", 0, min(found))
        if not bulk(head, body, self._head_line):
            return False
        start = self.line_no
        if track is not None:
            for position in range(track, len(body)):
                self.line_no = start + 1 + position
                self._track(body[position])
        self.line_no = start + len(body)
        self._row = len(body)
        self._left = 0
        self._section_done()
        return True

    def finish(self, last: str | None) -> None:
        """The stream ended; ``last`` is its final line if it had no line break.

        Raises:
            DecodeError: for an empty stream, or one that ends before the
                open section's declared rows (unless ``partial``).
        """
        if last is not None and not self.ended:
            if (
                self._left == 1
                and self.partial
                and self.log is not None
                and self._head is not None
                and self._head.kind != "record"
            ):
                # The last declared row without a line break may be cut
                # ("zeb" for "zebra"): dropped, as the whole-text reader drops it.
                if self._bad is not None:
                    raise self._bad
                self._close_short(dropped=True)
                last = None
            elif self._left > 1 and self._head is not None and self._head.kind != "record":
                # The text ends short of the count even with this last line.
                self.line_no += 1
                self._row += 1
                self._track(last)
                if self.partial and self.log is not None and self._short_stray() is None:
                    # The unterminated line may be cut: dropped, as the
                    # whole-text reader drops it.
                    self._row -= 1
                    if self._bad is not None:  # a row read before the end was wrong
                        raise self._bad
                    self._close_short(dropped=True)
                    return
                raise self._short_error()
            else:
                self.lines([last])
        if self.line_no == 0:
            raise DecodeError(f"expected the header {HEADER}, got an empty document", line=1)
        if self._leftover is not None:
            raise self._leftover_error()
        if self._pending is not None:
            raise self._pending
        if self._left:
            head = self._head
            assert head is not None
            if (
                self.partial
                and self.log is not None
                and head.kind != "record"
                and self._short_stray() is None
            ):
                if self._bad is not None:  # a row read before the end was wrong
                    raise self._bad
                self._close_short(dropped=False)
                return
            raise self._short_error()
        if self._held is not None:
            if self._judge is not None:
                self._judge()
            raise self._held

    def held_error(self) -> DecodeError | None:
        """The error of a bad row read before the end, held until its section's rows are in.

        A stream cut off inside that section reports it (the cut can only
        have damaged the last line), as the whole-text reader does.
        """
        return self._bad

    @property
    def rows_left(self) -> int:
        """The rows the open section still expects (0 between entries)."""
        return self._left

    def plain_rows(self) -> tuple[int, int] | None:
        """The open section's rows read and rows still expected, when the next lines are rows.

        ``None`` unless a record array with two or more fields is open, no
        bad row has been read and the document goes on: then the next lines
        are rows that the inlined path of :meth:`lines` reads, and a reader
        in front of this one (the accelerator's stream core) may read them
        instead and report them with :meth:`rows_read`.
        """
        if not self._fast or self._bad is not None or self._pending is not None or self.ended:
            return None
        return self._row, self._left

    def rows_read(self, rows: int) -> None:
        """Count ``rows`` rows of the open section read elsewhere, as :meth:`lines` would.

        For the reader in front of this one (see :meth:`plain_rows`); when
        they are the section's last rows, the section ends here, as it ends
        in :meth:`lines` after its last row.
        """
        assert 0 < rows <= self._left
        self._row += rows
        self._left -= rows
        self.line_no += rows
        if not self._left:
            self._section_done()

    def row_failed(self, error: DecodeError) -> None:
        """The open section's next row, read elsewhere, failed with ``error``, as in :meth:`lines`.

        Its error waits, as a bad row's does (see the module documentation).
        """
        self.line_no += 1
        self._row += 1
        self._defer(error)

    def progress(self) -> tuple[str | None, int | None, int | None, int]:
        """Where reading stands: the section, its rows read, its declared rows, the line.

        For the open array (or, between entries, the last section read):
        its name, the rows complete so far and the count its head declares;
        ``None`` for what does not apply (a scalar entry, nothing read).
        The line is the last complete line read.
        """
        head = self._head
        if head is not None:
            return head.name, self._row, head.count, self.line_no
        last = self._last
        if last is not None and self._ended_at == self.line_no:
            head = last[0]
            return head.name, head.count, head.count, self.line_no
        return None, None, None, self.line_no

    # -- counts -------------------------------------------------------------------

    def _short_stray(self) -> tuple[int, str] | None:
        """The entry among the open section's lines when all after it read as entries."""
        return self._candidate if self._chain_ok else None

    def _short_error(self) -> DecodeError:
        """The error of a stream that ends inside the open section's declared rows."""
        head = self._head
        assert head is not None
        stray = self._short_stray()
        if stray is None:
            return count_error(head, self._row, self._head_line)
        return count_error(head, self._row, self._head_line, stray[0], stray[1])

    def _track(self, line: str) -> None:
        """Look at a row of the open section for the count checks (see the module docs)."""
        if self._candidate is not None:
            self._follow(line)
        elif not self._checked:
            self._consider(line)
        if self._width <= 1:
            line_no = self.line_no
            for chain in self._entry_rows:
                if chain[3] and chain[4] == line_no:
                    extent = entry_extent(line)
                    if extent is None:
                        chain[3] = False
                    else:
                        chain[4] = line_no + 1 + extent
            if (
                len(self._entry_rows) < _ENTRY_ROWS
                and ("=" in line or "[" in line or "{" in line)
                and (self._entry_rows == [] or self._entry_rows[-1][0] != line_no)
            ):
                extent = entry_extent(line)
                if extent is not None:
                    # The text kept is what an error message can show of it.
                    text = line[: ECHO_LIMIT + 1]
                    self._entry_rows.append([line_no, text, entry_name(line), True, line_no + 1 + extent])

    def _follow(self, line: str) -> None:
        """Follow the chain of entries from the candidate row through ``line``."""
        if self._chain_ok and self.line_no == self._chain_next:
            extent = entry_extent(line)
            if extent is None:
                self._chain_ok = False
            else:
                self._chain_next = self.line_no + 1 + extent

    def _consider(self, line: str) -> None:
        """Whether this row of the open section starts the candidate chain of entries.

        As the whole-text scanner's ``_first_entry``: with two or more
        fields, the first row whose cell count is wrong; otherwise the first
        row that reads as an entry.  Only that one is tried.
        """
        if self._width > 1:
            if line.count("\t") == self._width - 1:
                return
            self._checked = True
        elif not ("=" in line or "[" in line or "{" in line):
            return  # no entry head can lack all three (a quick test)
        extent = entry_extent(line)
        if extent is None:
            return  # (two or more fields: a malformed row, not a count problem)
        self._checked = True
        self._candidate = (self.line_no, line)
        self._chain_ok = True
        self._chain_next = self.line_no + 1 + extent

    def _section_done(self) -> None:
        head = self._head
        assert head is not None
        self._head = None
        bad = self._bad
        self._ended_at = self.line_no
        self._last = (head, self._head_line)
        if bad is not None:
            stray = self._candidate if self._chain_ok else None
            if stray is not None and stray[0] == bad.line:
                bad = stray_entry_error(head.name, head.count, self._head_line, *stray)
            self._bad = None
            if self._note_swallowed(head) and self._held is None:
                # A typed reader's count error for an entry this section
                # took in comes before the bad row's: wait for the end.
                self._held = bad
                return
            # The whole-text scanner reads the next line before it looks at
            # rows: a row left over there is the error it reports.
            self._pending = bad
            return
        self._note_swallowed(head)
        self.target.end(head, self._row, self._head_line)

    def _note_swallowed(self, head: Head) -> bool:
        """Record the rows of a complete one-column section that read as entries."""
        one_column = head.kind == "array" or (head.kind == "records" and self._width == 1)
        noted = False
        for line_no, text, name, intact, _ in self._entry_rows if one_column else ():
            if intact:
                self.swallowed.append(
                    (head.name, head.count, self._head_line, line_no, text, name)
                )
                noted = True
        return noted

    def _not_an_entry(self, line: str) -> None:
        """A line at an entry's place is no entry: raise the count error if it is one.

        As the whole-text scanner does: the line directly follows a section
        whose rows took in entries up to it (the count is too high), or it
        has the shape of that section's rows (too low: the error waits for
        the run of such rows to end, to say how many follow).
        """
        last = self._last
        if last is None or self._ended_at != self.line_no - 1 or entry_extent(line) is not None:
            return
        head, head_line = last
        if self._candidate is not None and self._chain_ok and self._chain_next > self.line_no:
            raise stray_entry_error(head.name, head.count, head_line, *self._candidate)
        width = len(head.fields) if head.fields is not None else 1
        if row_like(line, width):
            self._leftover = [self.line_no, line, 1]

    def _leftover_error(self) -> DecodeError:
        assert self._leftover is not None and self._last is not None
        head, head_line = self._last
        line_no, text, extra = self._leftover
        return leftover_error(
            head.kind, head.name, head.count, head_line, line_no, text, extra  # type: ignore[arg-type]
        )

    def _close_short(self, dropped: bool) -> None:
        head = self._head
        assert head is not None and self.log is not None
        self.log.append(short_array(head, self._row, dropped, self._head_line))
        self._left = 0
        self.target.end(head, self._row, self._head_line)
        self._head = None

    def _entry(self, line: str) -> None:
        leftover = self._leftover
        if leftover is not None:
            assert self._last is not None
            fields = self._last[0].fields
            if row_like(line, len(fields) if fields is not None else 1):
                leftover[2] += 1  # type: ignore[operator]
                return
            raise self._leftover_error()
        if self._candidate is not None:
            self._follow(line)
        pending = self._pending
        if pending is not None:
            self._pending = None
            try:  # as this reader will read it, without its side effects
                read_head(line, self.line_no, set(), None if self.log is None else [])
            except DecodeError:
                if entry_extent(line) is None:
                    self._not_an_entry(line)
                    if self._leftover is not None:
                        return  # the error waits for the rows to end
                    raise
            raise pending
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
        try:
            head = read_head(line, self.line_no, self._seen, log)
        except DecodeError:
            self._not_an_entry(line)
            if self._leftover is not None:
                return  # the error waits for the rows to end
            raise
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
            self._ended_at = self.line_no
            self._last = (head, self.line_no)
            self._candidate = None
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
        self._fast = self._width > 1
        self._handler, self._line_handler = handlers
        self._bad = None
        self._candidate = None
        self._checked = False
        self._chain_ok = False
        self._entry_rows = []

    def _body(self, line: str) -> None:
        head = self._head
        assert head is not None and self._handler is not None
        self._row += 1
        row = self._row
        self._track(line)
        if self._bad is not None:
            self._skip(line, row)
            return
        if self.log is not None and _edge_space(line):
            line = self._strip(line, head, row)
        try:
            if self._split:
                cells = line.split("\t")
                if len(cells) != self._width:
                    raise width_error(self._width, len(cells), head.name, row, self.line_no, line)
                if self._numbered and cells[0] != number_text(row):
                    split_row(line, self._fields, True, head.name, row, self.line_no)
            elif head.kind == "array":
                cells = [line]
            else:  # a record without fields: its row must be empty
                cells = split_row(line, self._fields, False, head.name, row, self.line_no)
            self._handler(cells, row, self.line_no)
        except DecodeError as exc:
            self._defer(exc)
            return
        self._left -= 1
        if not self._left:
            self._section_done()

    def _defer(self, exc: DecodeError) -> None:
        """A bad row (its shape, or a cell its target refuses): its error waits.

        The whole-text decoder checks the counts of the document before it
        decodes a cell, so a row past the declared count is the error even
        after a bad cell: wait for the declared rows (see the module docs).
        """
        self._bad = exc
        self._fast = False  # every further row comes here, to _skip
        self._left -= 1
        if not self._left:
            self._section_done()

    def _skip(self, line: str, row: int) -> None:
        """A row after a bad one: only counted (and checked for a wrong cell count)."""
        bad = self._bad
        if (
            bad is not None
            and bad.field == "n"
            and self._fields
            and line.count("\t") != self._width - 1
        ):
            # a wrong cell count comes before a wrong n, as split_rows checks them
            self._bad = width_error(
                self._width, line.count("\t") + 1, bad.section or "", row, self.line_no, line
            )
        self._left -= 1
        if not self._left:
            self._section_done()

    def _strip(self, line: str, head: Head, row: int) -> str:
        fields = head.fields
        fixed, changed = strip_row(line, bool(fields), self._numbered, fields is not None and not fields)
        log = self.log
        assert log is not None
        if fields is not None and not fields:
            if changed:
                detail = "removed the white space on the empty row of a record without fields"
                log.append(make_repair(self.line_no, "cell-space", detail, head.name, row))
            return fixed
        for position in changed:
            field = fields[position] if fields and position < len(fields) else None
            log.append(
                make_repair(
                    self.line_no,
                    "cell-space",
                    "removed white space around the cell",
                    head.name,
                    row,
                    field,
                )
            )
        return fixed


#: Decodes one section whole, recording lenient repairs in the log when there is one.
SectionDecoder = Callable[[Section, "RepairLog | None"], Any]


class SectionTarget:
    """The :class:`StreamTarget` of a whole-text read: each section decoded whole.

    ``decode`` is a whole-section decoder (the untyped
    :func:`~eson._internal.wire.eson_reader.decode_section`, or a typed
    reader's entry decoder).  :meth:`LineReader.read_all` offers each
    section's rows at once to :meth:`section`, which keeps the value when
    the decoder takes them all and declines, changing nothing, when it
    raises; the rows are then read one by one, each decoded as a section of
    its own row (:meth:`_row`), so the error is the first bad row's, found
    as a stream finds it.  The rows of a section that needs lenient repairs
    or has a row reading as an entry go that way too.

    Attributes:
        document: The decoded values by section name, in document order.
        sections: The sections read (their rows kept as text).
    """

    __slots__ = ("_decode", "_head", "_lines", "_log", "_values", "document", "names", "sections")

    def __init__(self, decode: SectionDecoder, log: RepairLog | None) -> None:
        self._decode = decode
        self._log = log
        self.document: dict[str, Any] = {}
        self.sections: list[Section] = []
        #: The names of the entries whose head was read (a section that
        #: failed has one, and no value in :attr:`document`).
        self.names: set[str] = set()
        self._head: Head | None = None
        self._values: list[Any] = []
        self._lines: list[str] = []

    def entry(self, head: Head, line: int) -> tuple[RowHandler, LineHandler | None] | None:
        """A scalar is decoded here; an array's rows come to :meth:`section` or :meth:`_row`."""
        self.names.add(head.name)
        if head.kind == "scalar":
            section = Section(head.name, "scalar", line, None, 1, [head.cell or ""])
            self.sections.append(section)
            self.document[head.name] = self._decode(section, self._log)
            return None
        self._head = head
        self._values = []
        self._lines = []
        return self._row, None

    def section(self, head: Head, body: list[str], line: int) -> bool:
        """Decode all rows of the section opened on ``line``; ``False`` (nothing kept) on an error."""
        section = Section(head.name, head.kind, line, head.fields, len(body), body)
        log = self._log
        mark = 0 if log is None else len(log)
        try:
            value = self._decode(section, log)
        except DecodeError:
            if log is not None:
                del log[mark:]
            return False
        self.sections.append(section)
        self.document[head.name] = value
        self._head = None
        return True

    def _row(self, cells: list[str], row: int, line: int) -> None:
        """Decode one row as a section of its own (the rows of :meth:`section` declined)."""
        head = self._head
        assert head is not None
        kind = head.kind
        text = "\t".join(cells) if head.fields else cells[0] if cells else ""
        section = Section(head.name, kind, line - 1, head.fields, 1, [text], start=row)
        log = self._log
        mark = 0 if log is None else len(log)
        try:
            value = self._decode(section, log)
        except DecodeError as exc:
            if exc.row is None or row == 1:
                raise
            raise type(exc)(exc.reason, **{**exc._keywords(), "row": row}) from None
        if log is not None and len(log) > mark:
            _renumber(log, mark, row, line - row)
        if kind == "record":
            self._values = [value]
        else:
            self._values.extend(value)
        self._lines.append(text)

    def end(self, head: Head, rows: int, line: int) -> None:
        """The section's rows are all read: keep the value its rows made (when read one by one)."""
        if self._head is None:
            return  # taken whole by section()
        self._head = None
        section = Section(head.name, head.kind, line, head.fields, rows, self._lines)
        self.sections.append(section)
        if not rows:
            self.document[head.name] = self._decode(section, self._log)
        elif head.kind == "record":
            self.document[head.name] = self._values[0] if self._values else None
        else:
            self.document[head.name] = self._values


def _renumber(log: RepairLog, mark: int, row: int, head_line: int) -> None:
    """The repairs a one-row read recorded, placed at the row in its section.

    A repair of the section as a whole (it has no row) is kept once, at the
    section's head line, from its first row.
    """
    from dataclasses import replace

    kept: list[Repair] = []
    for repair in log[mark:]:
        if repair.row is None:
            if row == 1:
                kept.append(replace(repair, line=head_line))
        else:
            kept.append(replace(repair, row=row))
    log[mark:] = kept


def read_text(
    data: Document,
    decode: SectionDecoder,
    *,
    strict: bool = True,
    repairs: RepairLog | None = None,
    headerless: bool = False,
    partial: bool = False,
    judge: Callable[[LineReader, SectionTarget], None] | None = None,
) -> SectionTarget:
    """Read a whole document with :class:`LineReader`, each section decoded by ``decode``.

    The one reader of ESON text: ``strict``, ``headerless`` and
    ``partial`` are those of :class:`LineReader`, lenient repairs go to
    ``repairs``; ``judge`` is called at the end (and before the error of a
    bad row held until then) with the reader and the target, for a typed
    reader's count check of an entry a one-column array took in.

    Raises:
        DecodeError: for any malformed document, naming the line.
        TypeError: for input that is neither text nor bytes.
    """
    lines, terminated = split_lines(data, strict)
    log: RepairLog | None = None
    if not strict:
        log = repairs if repairs is not None else []
    target = SectionTarget(decode, log)
    reader: LineReader

    def judged() -> None:
        if judge is not None:
            judge(reader, target)

    reader = LineReader(
        target, strict=strict, headerless=headerless, partial=partial, log=log, judge=judged
    )
    try:
        reader.read_all(lines, terminated)
        judged()
    finally:
        reader.target = reader._judge = None  # type: ignore[assignment]  # no cycle keeps the rows
    return target


def check_swallowed(reader: LineReader, wanted: frozenset[str], read: Collection[str]) -> None:
    """(typed) The count error of a one-column array that took in an entry of the schema.

    An array of one column (a scalar array, or records with one field)
    whose count is too high takes the next entries' lines for rows:
    ``notes[2]`` over one note followed by ``retry=3`` reads the note
    ``retry=3`` and no ``retry``.  The grammar allows that reading, but the
    schema makes it unlikely: when such a row (:attr:`LineReader.swallowed`)
    is the entry of a field in ``wanted`` that the document (``read``, the
    names of its entries) lacks, the count is wrong.

    Raises:
        CountError: at the array's head, naming the row that is an entry.
    """
    if not reader.swallowed:
        return
    missing = wanted.difference(read)
    for name, count, head_line, line, text, field in reader.swallowed:
        if field in missing:
            raise swallowed_entry_error(name, count, head_line, line, text, field)


def decode_document(
    data: Document,
    *,
    strict: bool = True,
    repairs: RepairLog | None = None,
    partial: bool = False,
) -> dict[str, Any]:
    """Decode an ESON document into a ``dict`` of plain values.

    ``strict``, ``repairs`` and ``partial`` are those of :func:`read_text`
    (an untyped read always needs the header).

    Raises:
        DecodeError: for any malformed document, naming the line.
        TypeError: for input that is neither text nor bytes.
    """
    if strict and not partial and native is not None:
        done = read_fast(data, dict_reading, _untyped, _UNTYPED_HEADS)
        if done is not None:
            return done[0]
    return read_text(data, _untyped, strict=strict, repairs=repairs, partial=partial).document


def scan_sections(
    data: Document,
    *,
    strict: bool = True,
    repairs: RepairLog | None = None,
    headerless: bool = False,
    partial: bool = False,
) -> list[Section]:
    """The sections of a document, read (and decoded) as :func:`decode_document` reads it."""
    target = read_text(
        data, _untyped, strict=strict, repairs=repairs, headerless=headerless, partial=partial
    )
    return target.sections


def _untyped(section: Section, log: RepairLog | None) -> Any:
    return decode_section(section)


_UNTYPED_HEADS: dict[str, Head] = {}
_DICT_READINGS: dict[tuple[str, tuple[str, ...]], Reading | None] = {}


def dict_reading(head: Head) -> Reading | None:
    """``native.read_structs``'s arguments that read a record section's rows as dicts."""
    fields = head.fields
    if not fields or head.kind == "array":
        return None
    key = (head.kind, fields)
    if key in _DICT_READINGS:
        return _DICT_READINGS[key]
    found: Reading | None = None
    if len(fields) <= 64:
        numbered = int(head.kind == "records" and fields[0] == "n")
        found = (dict, fields, (ANY_PLAIN,) * len(fields), numbered)
    if len(_DICT_READINGS) < _HEADS_KEPT:
        _DICT_READINGS[key] = found
    return found


# -- the accelerated whole-text read ------------------------------------------------------

#: How the accelerator may build a record section's rows straight from the text:
#: the arguments of ``native.read_structs`` after the text, start and count.
Reading = tuple[type, tuple[object, ...], tuple[Any, ...], int]

_HEADER_LINE = HEADER + "\n"
_HEADS_KEPT = 256
_HEAD_KEPT_LENGTH = 1024


def read_fast(
    data: Document,
    reading: Callable[[Head], Reading | None],
    decode: SectionDecoder,
    heads: dict[str, Head],
) -> tuple[dict[str, Any], list[Section], list[str]] | None:
    """A strict read of a whole text straight from the text, or ``None``.

    The accelerator's shortcut beside :func:`read_text`, for the common case
    only: a ``str`` (or UTF-8 ``bytes``) starting with the header line,
    without CR or a byte-order mark.  A record section for which ``reading``
    gives the accelerator's arguments is read by ``native.read_structs`` in
    one pass (no line, cell or column lists); every other section is cut
    from the text and decoded by ``decode``.  ``heads`` keeps head lines
    already read (a bounded number of them).  Returns the document, its
    sections and the names of the record arrays whose values are lists of
    built rows.

    ``None`` whenever the text is not exactly what this path expects (a
    head :func:`~eson._internal.wire.eson_reader.read_head` refuses, too few
    lines, a row ``native.read_structs`` declines, a cell that does not
    decode): :func:`read_text`, the reference reader, then reads it and
    reports the precise error.  So this path never raises a reading error.
    """
    if native is None:
        return None
    if type(data) is str:
        text = data
    elif type(data) is bytes:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return None
    else:
        return None
    if not text.startswith(_HEADER_LINE) or "\r" in text:
        return None
    length = len(text)
    pos = len(_HEADER_LINE)
    line_no = 2
    seen: set[str] = set()
    sections: list[Section] = []
    document: dict[str, Any] = {}
    lists: list[str] = []
    read_structs = native.read_structs
    try:
        while pos < length:
            stop = text.find("\n", pos)
            if stop < 0:
                stop = length
            line = text[pos:stop]
            head = heads.get(line)
            if head is None:
                head = read_head(line, line_no, seen, None)
                assert head is not None  # a strict read skips no line
                if len(heads) < _HEADS_KEPT and len(line) <= _HEAD_KEPT_LENGTH:
                    heads[line] = head
            elif head.name in seen:
                return None  # a duplicate name: read_text reports it
            else:
                seen.add(head.name)
            name = head.name
            start = stop + 1
            if head.kind == "scalar":
                section = Section(name, "scalar", line_no, None, 1, [head.cell or ""])
                sections.append(section)
                document[name] = decode(section, None)
                pos = start
                line_no += 1
                continue
            count = head.count
            found = reading(head)
            body: list[str] = []
            if found is not None:
                done = read_structs(text, start, count, *found)
                if done is None:
                    return None
                rows, pos = done
                document[name] = rows if head.kind == "records" else rows[0]
                if head.kind == "records":
                    lists.append(name)
            elif count:
                end = native.skip_lines(text, start, count)
                if end < 0:
                    return None
                body = text[start:end].split("\n")
                pos = end + 1
            else:
                pos = start
            section = Section(name, head.kind, line_no, head.fields, count, body)
            sections.append(section)
            if found is None:
                document[name] = decode(section, None)
            line_no += 1 + count
    except DecodeError:
        return None
    return document, sections, lists
