"""Reading TOON line by line, as a stream delivers it.

A TOON document whose root is an object is read by the whole-text parser
itself, fed each line as it arrives (:class:`~eson._internal.wire.toon_parser.LineParser`):
the same line classifier
(:func:`~eson._internal.wire.toon_scanner.scan_into`) and the same stack of
frames, so a stream reads what :func:`~eson._internal.wire.toon_parser.decode_text`
reads with ``strict=True`` by construction -- the same values, the same
errors on the same lines.  The parser reports each top-level entry to
:class:`LineReader` as soon as it is complete, which passes it on to its
target:

- a **table** at the top (``key[N]{a,b}:``): each row as its line arrives
  (the parser reads the rows at hand as one batch), and the declared count
  checked when the table ends;
- a **list** at the top (``key[N]:`` and ``- `` items): each item when the
  next item or entry begins (TOON has no row terminator for a multi-line
  item), or the document ends;
- **any other entry** (``key: value``, a nested object, an inline array, a
  keyed table): its value when its last line has come (a ``key: value``
  line at once).

Nothing of a reported entry is kept, and no table row's line: memory is the
open entry's lines (the text the typed reader's text rule reads again) plus
the decoded values.  A root array or a lone primitive has no entries: such
a document is held and read whole when the stream ends.

The spec's lax mode has no boundary but the end of the document (a table
may have more rows than it declares): :class:`HeldLineReader` holds the
lines and reads them whole at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

from eson._internal.wire.eson_lenient import is_blank
from eson._internal.wire.eson_reader import looks_like_prose
from eson._internal.wire.options import indent_size_of
from eson._internal.wire.toon_parser import LineParser, decode_text, is_key_value, split_key
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
        # A table row goes from the parser to the target as it is (no text).
        self.row: Callable[[str, Any, int, int, list[str] | None, str | None], None] = target.row
        self._parser = LineParser(self, indent_size)
        # The open top-level entry's lines (a table's rows apart), from line
        # _entry_line on: the text an entry or list item is reported with.
        self._entry: list[str] = []
        self._entry_line = 0
        self._line = ""  # the line being read
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
                        if self.ended:
                            return
            self._read_one(line)

    def _read(self, lines: Iterable[str]) -> None:
        for line in lines:
            if self.ended:
                return
            self._read_one(line)

    def _read_one(self, line: str) -> None:
        self.line_no += 1
        if self._root is not None:
            self._root.append(line)
        else:
            self._read_line(line)

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
        self._parser.finish(self.line_no)

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

    def _read_line(self, line: str) -> None:
        number = self.line_no
        parser = self._parser
        if self._content and parser.row(line, number):
            return
        found = parser.scan(line, number)
        if found is None:  # a blank or comment line
            if parser.keeps_lines:
                self._entry.append(line)
            return
        depth, content = found
        if not self._content:
            self._content = True
            # A root array header ("[2]: 1,2") is never prose, though it has a space.
            if not depth and (
                content[0] == "["
                or (
                    not is_key_value(content)
                    and not (self.ends_at_prose and looks_like_prose(content))
                )
            ):
                parser.drop()
                # (the blank and comment lines before it as empty lines, which
                # keep the line numbers of the whole text)
                self._root = [""] * (number - 1) + [line]
                return
        elif not depth and self.ends_at_prose and ends_document(content):
            parser.drop()
            parser.finish(number)  # the open entry ends (its count checked) with the document
            self.ended = True
            return
        self._line = line
        parser.run()
        if not depth:
            self._entry = [line]
            self._entry_line = number
        elif parser.keeps_lines:
            self._entry.append(line)

    # -- what the parser reports (EntrySink) ---------------------------------------------

    def start(self, key: str, line: int) -> None:
        self.target.start(key, line)

    def item(self, key: str, value: Any, row: int, line: int) -> None:
        text = "[1]:\n" + "\n".join(self._entry[line - self._entry_line :])
        self._entry = []  # the next item begins on the line being read (if any)
        self._entry_line = self.line_no
        self.target.row(key, value, row, line, None, text)

    def value(self, key: str, value: Any, line: int) -> None:
        # An entry complete on its own line is that line; any other, the
        # lines held since it began (the line being read begins the next).
        text = self._line if line == self.line_no else "\n".join(self._entry)
        self.target.value(key, value, line, text)

    def end(self, key: str, count: int) -> None:
        self.target.end(key, count)

    # -- tables -------------------------------------------------------------------------

    @property
    def rows_left(self) -> int:
        """The rows of the open table to read as one batch: those it still declares.

        0 when none is open or all have come; 1 before its first row (this
        reader reads the first row, the stream core may read the rest: see
        :meth:`plain_rows`).
        """
        table = self._parser.table
        if table is None:
            return 0
        _, header, read = table
        if not read:
            return min(header.length, 1)
        return max(header.length - read, 0)

    def plain_rows(self) -> tuple[int, int] | None:
        """The open table's rows read and rows still declared, when the next lines are rows.

        ``None`` unless a top-level table of flat fields (one to 64 of them)
        is open, one row or more has been read, it declares more, and no
        blank line waits: then its next lines, up to the last declared row,
        are rows the parser reads, unless one is malformed, and a reader in
        front of this one (the accelerator's stream core) may read the plain
        ones instead (see :meth:`table_shape`) and report them with
        :meth:`rows_read`.
        """
        table = self._parser.table
        if table is None or self._parser.blank_pending or self._spaces or self.ended:
            return None
        _, header, read = table
        names = header.layout.names if header.layout is not None else None
        if not read or read >= header.length or names is None or not 0 < len(names) <= 64:
            return None
        return read, header.length - read

    def table_shape(self) -> tuple[str, tuple[str, ...], str, int]:
        """The open table's key, field names, delimiter and rows' pad (see :meth:`plain_rows`)."""
        table = self._parser.table
        assert table is not None
        key, header, _ = table
        names = header.layout.names if header.layout is not None else None
        assert names is not None
        return key, tuple(names), header.delimiter, self.indent_size

    def rows_read(self, rows: int) -> None:
        """Count ``rows`` rows of the open table read elsewhere, as :meth:`lines` would.

        For the reader in front of this one (see :meth:`plain_rows`).
        """
        self._parser.rows_read(rows)
        self.line_no += rows

    def row_failed(self, error: BaseException) -> None:
        """The open table's next row, read elsewhere, failed with ``error``: count its line.

        As in :meth:`lines`, the error is the stream's (the caller raises it).
        """
        self._parser.rows_read(1)
        self.line_no += 1


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
