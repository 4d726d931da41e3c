"""Reading TOON line by line, as a stream delivers it.

A TOON document whose root is an object is a run of top-level entries, each
a line at depth 0 and the deeper lines under it.  :class:`LineReader` reads
the entries as their lines arrive:

- a **table** at the top (``key[N]{a,b}:``) is read row by row: each row's
  cells are split, checked and decoded as soon as its line is complete, by
  the same functions the whole-text parser uses
  (:func:`~eson._internal.wire.toon_header.parse_header`,
  :func:`~eson._internal.wire.toon_scanner.split_cells`,
  :func:`~eson._internal.wire.toon_quoting.parse_primitive`), and the declared count is
  checked when the table ends;
- a **list** at the top (``key[N]:`` and ``- `` items) is read item by item:
  an item is complete when the next item or entry begins (TOON has no row
  terminator for a multi-line item), and is decoded by the whole-text parser;
- **any other entry** (``key: value``, a nested object, an inline array, a
  keyed table) is decoded by the whole-text parser when complete; a
  ``key: value`` line is complete at once.

Only the open entry's lines are held (never a table's or a list's), so
memory is the longest line plus the decoded values.  The spec's strict
checks apply (counts, widths, indentation, blank lines inside arrays,
duplicate keys): streaming reads what :func:`~eson._internal.wire.toon_parser.decode_text`
reads with ``strict=True``.  A root array or a lone primitive has no
entries: such a document is read whole when the stream ends.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from eson._internal.wire.eson_lenient import is_blank
from eson._internal.wire.eson_reader import looks_like_prose
from eson._internal.wire.options import indent_size_of
from eson._internal.wire.toon_header import Header, parse_header
from eson._internal.wire.toon_limits import MAX_DEPTH
from eson._internal.wire.toon_parser import count_error, decode_text, is_key_value, split_key
from eson._internal.wire.toon_quoting import parse_primitive
from eson._internal.wire.toon_scanner import ends_rows, row_depth_error, split_cells, width_error
from eson.errors import TOONError


def ends_document(content: str) -> bool:
    """Whether a top-level line ends a TOON document that is followed by prose.

    True for a line that is no ``key: ...`` line and reads as prose (words,
    or a sentence's end); any other line belongs to the document, so that a
    malformed line fails to read instead of silently ending it.
    """
    return not is_key_value(content) and looks_like_prose(content)


class StreamTarget(Protocol):
    """What a :class:`LineReader` reports."""

    def start(self, key: str, line: int) -> None:
        """A top-level entry ``key`` begins on ``line``."""

    def row(
        self,
        key: str,
        value: Any,
        row: int,
        line: int,
        tokens: list[str] | None,
        text: str | None,
    ) -> None:
        """Row ``row`` (1-based) of a top-level table or list: its decoded value.

        ``tokens`` are a table row's cell tokens; ``text`` is a list item's
        text as a document of its own (``[1]:`` and the item), to re-read
        if needed.
        """

    def value(self, key: str, value: Any, line: int, text: str | None) -> None:
        """A whole top-level entry's value (``text``: the entry's lines, to re-read if needed)."""

    def end(self, key: str, rows: int) -> None:
        """The table or list ``key`` is complete with ``rows`` rows."""

    def root(self, value: Any) -> None:
        """The document is a root array or primitive: its whole value."""


class _Table:
    __slots__ = ("header", "key", "layout", "line", "names", "rows", "started")

    def __init__(self, header: Header, line: int) -> None:
        self.header = header
        self.key = header.key or ""
        self.line = line
        layout = header.layout
        assert layout is not None
        self.layout = layout
        self.names = layout.names
        self.rows = 0
        self.started = False


class _List:
    __slots__ = ("blank", "header", "item", "item_line", "key", "line", "rows")

    def __init__(self, header: Header, line: int) -> None:
        self.header = header
        self.key = header.key or ""
        self.line = line
        self.rows = 0
        self.item: list[str] = []  # the open item's lines
        self.item_line = 0
        self.blank = 0  # the first blank line since the last item line


class LineReader:
    """Read a TOON document from its lines as they come (see the module documentation).

    Args:
        target: Receives entries, rows and values.
        indent_size: Spaces per indentation level.
        ends_at_prose: A top-level line that is no ``key: value`` and reads
            as prose ends the document (a reply with text after it).
    """

    def __init__(
        self, target: StreamTarget, *, indent_size: int = 2, ends_at_prose: bool = False
    ) -> None:
        indent_size = indent_size_of(indent_size)
        self.target = target
        self.indent_size = indent_size
        self.ends_at_prose = ends_at_prose
        self.line_no = 0
        self.ended = False
        self._content = False  # a content line has been seen
        self._root: list[str] | None = None  # a root array or primitive: all its lines
        self._keys: set[str] = set()
        self._table: _Table | None = None
        self._list: _List | None = None
        self._block: list[str] = []  # the open entry's lines (other entries)
        self._block_line = 0
        self._block_key = ""
        self._block_done = False  # the block's value was reported already
        self._blank = 0  # first blank line since the last content line
        # Reply mode: blank lines (white space only) held until the next line.
        # parse_reply takes them into the document only when a line of it
        # follows: before the prose that ends it, or at the reply's end, a
        # line of tabs is white space of the reply, not a malformed line.
        self._spaces: list[str] = []

    # -- lines --------------------------------------------------------------------

    def lines(self, lines: list[str]) -> None:
        """Read complete lines (without their line breaks)."""
        for line in lines:
            if self.ended:
                return
            if self.ends_at_prose:
                if is_blank(line):
                    self._spaces.append(line)
                    continue
                if self._spaces:
                    held = self._spaces
                    self._spaces = []
                    if (
                        self._content
                        and self._root is None
                        and line[0] not in " #\t"
                        and ends_document(line)
                    ):
                        self.line_no += len(held)  # before the prose that ends the document
                    else:
                        self._read(held)
            self._read((line,))

    def _read(self, lines: Iterable[str]) -> None:
        for line in lines:
            if self.ended:
                return
            self.line_no += 1
            if self._root is not None:
                self._root.append(line)
                continue
            try:
                self._line(line)
            except TOONError as exc:
                if exc.line is not None:
                    raise
                raise TOONError(
                    exc.reason, line=self.line_no, section=exc.section, row=exc.row, field=exc.field
                ) from None

    def finish(self, last: str | None) -> None:
        """The stream ended (``last``: its final line without a line break).

        A CR that ends the text is a line break, as for the whole-text reader;
        every other CR not part of a CRLF is data (the lines come with it).
        """
        if last is not None and last.endswith("\r"):
            last = last[:-1]
        if last is not None:
            self.lines([last])
        self.line_no += len(self._spaces)  # blank lines after the document: the reply's
        self._spaces = []
        if self._root is not None:
            text = "\n".join(self._root)
            value = decode_text(text, strict=True, indent_size=self.indent_size, lf_only=True)
            if isinstance(value, dict):
                # Held because its first line began like a root array, the text
                # read as an object after all: its keys' lines place errors.
                self._root_keys(value)
            self.target.root(value)
            return
        self._close_entry()

    def _root_keys(self, value: dict[str, Any]) -> None:
        """Report the line of each top-level key of a held document read as an object."""
        first = self.line_no - len(self._root or ()) + 1
        for offset, line in enumerate(self._root or ()):
            if not line or line[0] in " #":
                continue
            try:
                key = split_key(line)[0]
            except TOONError:
                continue
            if key in value:
                self.target.start(key, first + offset)

    def _line(self, line: str) -> None:
        content = line.lstrip(" ")
        number = self.line_no
        if not content:  # only U+0020 trims (section 12): a line of tabs is no blank line
            if not self._blank:
                self._blank = number
            self._hold(line)
            return
        first = content[0]
        if first == "#":
            self._hold(line)
            return
        if first == "\t":
            raise TOONError("tab character in indentation", line=number)
        indent = len(line) - len(content)
        if indent % self.indent_size:
            raise TOONError(
                f"indentation of {indent} spaces is not a multiple of {self.indent_size}",
                line=number,
            )
        depth = indent // self.indent_size
        blank = self._blank
        self._blank = 0
        if not self._content:
            self._content = True
            if depth:
                raise TOONError("the first line of the document must not be indented", line=number)
            # A root array header ("[2]: 1,2") is never prose, though it has a space.
            if content[0] == "[" or (
                not is_key_value(content) and not (self.ends_at_prose and looks_like_prose(content))
            ):
                self._root = [line]
                return
        if depth == 0:
            self._top(content, line, number)
        elif self._table is not None:
            self._table_row(self._table, content, depth, number, blank)
        elif self._list is not None:
            self._list_line(self._list, line, content, depth, number, blank)
        else:
            self._block.append(line)

    def _hold(self, line: str) -> None:
        """A blank or comment line: part of the open block or item, if any."""
        if self._block:
            self._block.append(line)
        elif self._list is not None and self._list.item:
            self._list.item.append(line)

    # -- top-level entries --------------------------------------------------------------

    def _top(self, content: str, line: str, number: int) -> None:
        self._close_entry()
        if not is_key_value(content):
            if self.ends_at_prose and ends_document(content):
                self.ended = True
                return
            self._fail_as_parser([line], number)
        header = parse_header(content, strict=True) if "[" in content else None
        rest = ""
        if header is not None and header.key is None:
            self._fail_as_parser([line], number)  # a key-less header at the top
        if header is not None and header.key is not None:
            key = header.key
            self._new_key(key, number)
            if header.fields is not None and not header.keyed:
                self._open_table(header, number)
                return
            if header.fields is None and not header.keyed and not header.inline:
                self.target.start(key, number)
                self._list = _List(header, number)
                return
        else:
            try:
                key, rest = split_key(content)
            except TOONError as exc:
                raise TOONError(exc.reason, line=number) from None
            self._new_key(key, number)
        self.target.start(key, number)
        self._block = [line]
        self._block_line = number
        self._block_key = key
        self._block_done = False
        if (header is None and rest) or (header is not None and header.inline):
            # "key: value" and "key[N]: a,b" are complete on their line: report now.
            self._report_block()

    def _new_key(self, key: str, number: int) -> None:
        if key in self._keys:
            raise TOONError(f"duplicate key {key!r}", line=number)
        self._keys.add(key)

    def _close_entry(self) -> None:
        if self._table is not None:
            table = self._table
            self._table = None
            if table.rows != table.header.length:
                raise count_error("table", table.header.length, "rows", table.rows, table.line)
            self.target.end(table.key, table.rows)
        elif self._list is not None:
            items = self._list
            self._close_item(items)
            self._list = None
            if items.rows != items.header.length:
                raise count_error("array", items.header.length, "items", items.rows, items.line)
            self.target.end(items.key, items.rows)
        elif self._block:
            if self._block_done:
                if len(self._block) > 1:
                    self._decode_block()  # raises for lines that cannot follow
            else:
                self._report_block()
            self._block = []

    def _decode_block(self) -> Any:
        text = "\n".join(self._block)
        try:
            document = decode_text(
                text, strict=True, indent_size=self.indent_size, fields=True, lf_only=True
            )
        except TOONError as exc:
            raise exc.moved(self._block_line - 1) from None
        return document, text

    def _report_block(self) -> None:
        document, text = self._decode_block()
        key = self._block_key
        self._block_done = True
        self.target.value(key, document[key], self._block_line, text)

    def _fail_as_parser(self, lines: list[str], number: int) -> None:
        """Raise the whole-text parser's error for lines that cannot stand here.

        ``lines`` is a small document whose last line is line ``number`` of
        the stream and shows the problem in the same context.
        """
        try:
            decode_text(
                "\n".join(lines),
                strict=True,
                indent_size=self.indent_size,
                fields=True,
                lf_only=True,
            )
        except TOONError as exc:
            raise exc.moved(number - len(lines)) from None
        raise TOONError("unexpected line", line=number)  # the parser accepted it: never here

    # -- tables -------------------------------------------------------------------------

    @property
    def rows_left(self) -> int:
        """The rows of the open table to read as one batch: those it still declares.

        0 when none is open or all have come; 1 before its first row (this
        reader reads the first row, the stream core may read the rest: see
        :meth:`plain_rows`).
        """
        table = self._table
        if table is None:
            return 0
        if not table.started:
            return min(table.header.length, 1)
        return max(table.header.length - table.rows, 0)

    def plain_rows(self) -> tuple[int, int] | None:
        """The open table's rows read and rows still declared, when the next lines are rows.

        ``None`` unless a table of flat fields (one to 64 of them) is open,
        one row or more has been read, it declares more, and no blank line
        waits: then its next lines, up to the last declared row, are the
        rows that :meth:`_table_row` reads, unless one is malformed, and a
        reader in front of this one (the accelerator's stream core) may read
        the plain ones instead (see :meth:`table_shape`) and report them
        with :meth:`rows_read`.
        """
        table = self._table
        if (
            table is None
            or not table.started
            or table.rows >= table.header.length
            or table.names is None
            or not 0 < len(table.names) <= 64
            or self._blank
            or self._spaces
            or self.ended
        ):
            return None
        return table.rows, table.header.length - table.rows

    def table_shape(self) -> tuple[str, tuple[str, ...], str, int]:
        """The open table's key, field names, delimiter and rows' pad (see :meth:`plain_rows`)."""
        table = self._table
        assert table is not None and table.names is not None
        return table.key, table.names, table.header.delimiter, self.indent_size

    def rows_read(self, rows: int) -> None:
        """Count ``rows`` rows of the open table read elsewhere, as :meth:`lines` would.

        For the reader in front of this one (see :meth:`plain_rows`).
        """
        table = self._table
        assert table is not None and 0 < rows <= table.header.length - table.rows
        table.rows += rows
        self.line_no += rows

    def row_failed(self, error: BaseException) -> None:
        """The open table's next row, read elsewhere, failed with ``error``: count its line.

        As in :meth:`lines`, the error is the stream's (the caller raises it).
        """
        assert self._table is not None
        self._table.rows += 1
        self.line_no += 1

    def _open_table(self, header: Header, number: int) -> None:
        table = _Table(header, number)
        if 2 + table.layout.nesting > MAX_DEPTH:
            raise TOONError(f"value nests deeper than {MAX_DEPTH} levels", line=number)
        self.target.start(table.key, number)
        self._table = table

    def _table_row(self, table: _Table, content: str, depth: int, number: int, blank: int) -> None:
        if depth != 1:
            raise row_depth_error(depth, 1, table.started, line=number)
        if blank and table.started:
            raise TOONError("blank line inside an array", line=blank)
        delimiter = table.header.delimiter
        if ends_rows(content, delimiter):  # the parser ends the rows: its scope refuses the line
            raise TOONError("line is indented to depth 1, but its scope holds depth 0", line=number)
        table.started = True
        table.rows += 1
        row = table.rows
        cells = split_cells(content, delimiter)
        width = table.layout.width
        if len(cells) != width:
            raise width_error(width, len(cells), line=number, section=table.key, row=row)
        try:
            values = [parse_primitive(cell) for cell in cells]
        except TOONError as exc:
            raise TOONError(exc.reason, line=number, section=table.key, row=row) from None
        names = table.names
        value = dict(zip(names, values)) if names is not None else table.layout.build(values)
        self.target.row(table.key, value, row, number, cells, None)

    # -- lists --------------------------------------------------------------------------

    def _list_line(
        self, items: _List, line: str, content: str, depth: int, number: int, blank: int
    ) -> None:
        if depth == 1 and content[0] == "-" and content[1:2] in ("", " "):
            if blank and (items.rows or items.item):
                raise TOONError("blank line inside an array", line=blank)
            self._close_item(items)
            items.item = [line]
            items.item_line = number
            return
        if not items.item or depth == 1:
            # not an item where one must start: the parser says why
            self._fail_as_parser([f"{items.header.key}[1]:", line], number)
        items.item.append(line)

    def _close_item(self, items: _List) -> None:
        if not items.item:
            return
        text = "[1]:\n" + "\n".join(items.item)
        try:
            value = decode_text(
                text, strict=True, indent_size=self.indent_size, level=2, lf_only=True
            )
        except TOONError as exc:
            raise exc.moved(items.item_line - 2) from None
        items.rows += 1
        items.item = []
        self.target.row(items.key, value[0], items.rows, items.item_line, None, text)


class HeldTarget(StreamTarget, Protocol):
    """What a :class:`HeldLineReader` reports: a :class:`StreamTarget` that reads whole text."""

    def whole(self, text: str) -> None:
        """The document's text, all of it, to read as the whole-text parser does."""


class HeldLineReader:
    """Read a TOON document in the spec's non-strict (lax) mode, as a stream delivers it.

    In lax mode a declared count or row width is no boundary (a table may
    have fewer rows than it declares, or more), indentation is rounded down
    and blank lines inside arrays are dropped, so an entry is known to be
    complete only when the document ends.  This reader therefore holds the
    document's lines and hands the whole text to its target's
    :meth:`HeldTarget.whole` when the stream ends: a lax stream reads
    exactly what :func:`~eson._internal.wire.toon_parser.decode_text` reads with
    ``strict=False``, by construction, and its events come at the end.

    Args:
        target: Receives the whole text.
        indent_size: Spaces per indentation level (to tell a top-level line).
        ends_at_prose: A top-level line after the first that is no
            ``key: value`` and reads as prose ends the document (a reply
            with text after it), as for :class:`LineReader`.
    """

    def __init__(
        self, target: HeldTarget, *, indent_size: int = 2, ends_at_prose: bool = False
    ) -> None:
        self.target = target
        self.indent_size = indent_size_of(indent_size)
        self.ends_at_prose = ends_at_prose
        self.line_no = 0
        self.ended = False
        self._held: list[str] = []
        self._fields: bool | None = None  # the first content line is a key: value line
        self._spaces: list[str] = []  # reply mode: blank lines held (see LineReader)

    def lines(self, lines: list[str]) -> None:
        """Hold complete lines (without their line breaks) until :meth:`finish`."""
        for line in lines:
            if self.ended:
                return
            if self.ends_at_prose and is_blank(line):
                self._spaces.append(line)
                continue
            content = line.lstrip(" ")
            if content and content[0] != "#":
                if self._fields is None:
                    self._fields = is_key_value(content)
                elif (
                    self.ends_at_prose
                    and self._fields
                    and len(line) - len(content) < self.indent_size
                    and ends_document(content)
                ):
                    self.ended = True
                    return
            if self._spaces:
                self.line_no += len(self._spaces)
                self._held.extend(self._spaces)
                self._spaces = []
            self.line_no += 1
            self._held.append(line)

    def finish(self, last: str | None) -> None:
        """The stream ended (``last``: its final line without a line break): read the text."""
        if last is not None and last.endswith("\r"):
            last = last[:-1]
        if last is not None:
            self.lines([last])
        self.line_no += len(self._spaces)  # blank lines after the document: the reply's
        self._spaces = []
        self.target.whole("\n".join(self._held))
