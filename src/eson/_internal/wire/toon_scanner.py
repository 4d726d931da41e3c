"""TOON lexing: text into indented lines, and lines into quote-aware pieces.

:func:`scan_lines` is the decoder's first pass.  It splits the text into
lines (a CR before the LF belongs to the line break), drops comment lines,
checks the indentation and records each remaining line's depth, content and
line number, plus where blank lines were, which matter inside arrays.

:func:`find_unquoted` and :func:`split_cells` look inside one line while
skipping over quoted strings, so a colon or delimiter inside quotes is data.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import methodcaller

from eson._internal.wire.toon_lexicon import DELIMITERS, QUOTED_REST_SOURCE, QUOTED_SOURCE
from eson.errors import TOONError


@dataclass(frozen=True, slots=True)
class ScannedLines:
    """The non-blank, non-comment lines of a document, as parallel lists.

    Attributes:
        depths: Indentation depth of each line (leading spaces // indent size).
        contents: Each line without its indentation and line break.
        numbers: 1-based line number of each line in the original text.
        blank_before: For each line, the number of the first blank line
            between it and the previous kept line, or 0 when there is none
            (comment lines are not blank lines).
    """

    depths: list[int]
    contents: list[str]
    numbers: list[int]
    blank_before: list[int]


def scan_lines(
    text: str, indent_size: int = 2, strict: bool = True, *, lf_only: bool = False
) -> ScannedLines:
    """Split ``text`` into the lines the parser sees.

    Comment lines (first non-space character ``#``) are removed.  Lines that
    hold only spaces are blank; in non-strict mode so are lines of spaces
    and tabs.  Tabs are never indentation, in either mode.  In strict mode
    the leading spaces must be a multiple of ``indent_size``; otherwise the
    depth is rounded down.

    A CRLF is a line break and so is a CR that ends the text; any other CR
    is data.  With ``lf_only`` the text is lines already split (a stream's,
    joined by LF): every CR in it is data.

    Raises:
        TOONError: for a tab in the indentation, or (strict) an indentation
            that is not a multiple of ``indent_size``.
    """
    scanned = ScannedLines([], [], [], [])
    scan_into(scanned, text_lines(text, lf_only), indent_size, strict)
    return scanned


def text_lines(text: str, lf_only: bool = False) -> list[str]:
    """The lines of ``text`` without their line breaks (see :func:`scan_lines` for CRs)."""
    if not lf_only and "\r" in text:
        text = text.replace("\r\n", "\n")  # a CR before LF is part of the line break
        if text.endswith("\r"):
            text = text[:-1]
    lines = text.split("\n")
    if lines[-1] == "" and len(lines) > 1:
        lines.pop()  # the final line break
    return lines


def scan_into(
    scanned: ScannedLines,
    lines: Iterable[str],
    indent_size: int,
    strict: bool,
    number: int = 0,
    pending_blank: int = 0,
) -> int:
    """Append the lines the parser sees of ``lines`` (split, without line breaks) to ``scanned``.

    The one line classifier of TOON reading (see :func:`scan_lines`), for a
    whole text and for a stream's lines as they come.  ``number`` is the
    number of the line before the first; ``pending_blank`` the first blank
    line since the last kept line before them, if any.  Returns the first
    blank line after the last kept line (0 if none), for the next call.
    """
    depths = scanned.depths
    contents = scanned.contents
    numbers = scanned.numbers
    blank_before = scanned.blank_before
    for line in lines:
        number += 1
        content = line.lstrip(" ")
        if not content:
            if not pending_blank:
                pending_blank = number
            continue
        first = content[0]
        if first == "#":
            continue
        if first == "\t":
            # Only U+0020 trims (section 12): spaces and tabs alone are not a
            # blank line but a tab in the indentation, which strict mode
            # rejects; non-strict mode lets such a line pass as blank.
            if not strict and not content.strip(" \t"):
                if not pending_blank:
                    pending_blank = number
                continue
            raise TOONError("tab character in indentation", line=number)
        indent = len(line) - len(content)
        if indent % indent_size and strict:
            raise TOONError(
                f"indentation of {indent} spaces is not a multiple of {indent_size}",
                line=number,
            )
        depths.append(indent // indent_size)
        contents.append(content)
        numbers.append(number)
        blank_before.append(pending_blank)
        pending_blank = 0
    return pending_blank


# The rest of a quoted string after its opening quote, through the closing one.
_QUOTED_REST = re.compile(QUOTED_REST_SOURCE, re.S)


def find_unquoted(text: str, char: str, start: int = 0) -> int:
    """Return the index of the first ``char`` at or after ``start`` outside quotes, or -1.

    A ``"`` opens a quoted stretch that ends at the next ``"`` not escaped by
    a backslash; an unterminated stretch runs to the end of the text.
    """
    found = text.find(char, start)
    if found < 0:
        return -1
    pos = start
    while True:
        opening = text.find('"', pos)
        if opening < 0 or found < opening:
            return found
        match = _QUOTED_REST.match(text, opening + 1)
        if match is None:
            return -1
        pos = match.end()
        if found < pos:
            found = text.find(char, pos)
            if found < 0:
                return -1


def ends_rows(line: str, delimiter: str) -> bool:
    """Whether a line under a table header is a ``key: ...`` line, which ends the rows.

    That is a line with an unquoted colon before its first unquoted
    delimiter (or with no delimiter at all); a colon inside a cell after
    the first is text.
    """
    if ":" not in line:
        return False
    colon = find_unquoted(line, ":")
    if colon < 0:
        return False
    split_at = find_unquoted(line, delimiter)
    return split_at < 0 or colon < split_at


def width_error(
    width: int,
    got: int,
    *,
    line: int | None = None,
    section: str | None = None,
    row: int | None = None,
) -> TOONError:
    """The error of a table or entry row with ``got`` cells where its header declares ``width``."""
    return TOONError(f"expected {width} cells, got {got}", line=line, section=section, row=row)


def row_depth_error(depth: int, row_depth: int, started: bool, line: int | None = None) -> TOONError:
    """The error of a line under a table header deeper than the header, not at its rows' depth.

    ``started``: a row has been read (the line breaks the rows' indentation);
    else the header's indentation jumps.
    """
    if started:
        reason = f"line is indented to depth {depth}, but rows are at {row_depth}"
    else:
        reason = f"indentation jumps from depth {row_depth - 1} to {depth}"
    return TOONError(reason, line=line)


# One cell: runs of ordinary characters and quoted strings, up to a delimiter
# (the trailing ``?`` makes the closing quote optional: an unterminated quote).
_CELL = {d: re.compile(rf'(?:[^"{re.escape(d)}]+|{QUOTED_SOURCE}?)*', re.S) for d in DELIMITERS}


def split_cells(text: str, delimiter: str) -> list[str]:
    """Split ``text`` on unquoted ``delimiter`` s, trimming spaces around each piece.

    Empty pieces are kept (they decode to the empty string); the empty text
    is one empty piece.  Quotes are left in place for :func:`parse_primitive`.
    """
    cells = _split_quoted(text, delimiter) if '"' in text else text.split(delimiter)
    if " " in text:
        return [cell.strip(" ") for cell in cells]
    return cells


# With balanced quotes and no backslashes: one cell, then its delimiter.
_SIMPLE_CELL = {
    d: re.compile(rf'((?:[^"{re.escape(d)}]+|"[^"]*")*){re.escape(d)}') for d in DELIMITERS
}


def _split_quoted(text: str, delimiter: str) -> list[str]:
    if "\\" not in text and not text.count('"') & 1:
        return _SIMPLE_CELL[delimiter].findall(text + delimiter)
    pattern = _CELL[delimiter]
    cells = []
    pos = 0
    end_of_text = len(text)
    while True:
        match = pattern.match(text, pos)
        assert match is not None  # the pattern also matches the empty string
        end = match.end()
        cells.append(text[pos:end])
        if end >= end_of_text:
            return cells
        pos = end + 1


_strip_spaces = methodcaller("strip", " ")


def split_table(
    rows: Sequence[str], delimiter: str, width: int, *, pad: bool = False
) -> list[list[str]]:
    """Split tabular rows into ``width`` columns of trimmed cell tokens.

    The result is column-major: ``columns[j][i]`` is cell ``j`` of row ``i``.
    Rows are split in bulk with ``str`` methods; only rows holding quotes
    get the quote-aware :func:`split_cells` treatment.

    Args:
        rows: The row texts (without indentation).
        delimiter: The active delimiter.
        width: The number of cells each row must have.
        pad: Instead of raising, cut long rows and fill short ones with
            ``"null"`` tokens (non-strict decoding).

    Raises:
        TOONError: for a row with the wrong number of cells, with ``row`` set
            to its 1-based position in ``rows`` (no line number).
    """
    if not rows:
        return [[] for _ in range(width)]
    joined = delimiter.join(rows)
    quoted = '"' in joined
    if not quoted:
        # One split for the whole table: rows are joined with a marker cell
        # "\n", which no row can hold, so every row has `width` cells iff
        # each marker lands at its slot.
        count = len(rows)
        stride = width + 1
        cells = f"{delimiter}\n{delimiter}".join(rows).split(delimiter)
        if len(cells) == count * stride - 1 and (
            count == 1 or cells[width::stride].count("\n") == count - 1
        ):
            if _needs_trim(joined, delimiter):
                cells = list(map(_strip_spaces, cells))
            return [cells[column::stride] for column in range(width)]
    table = list(map(methodcaller("split", delimiter), rows))
    if quoted:
        for number, row in enumerate(rows):
            if '"' in row:
                table[number] = split_cells(row, delimiter)
    if _needs_trim(joined, delimiter):
        table = [list(map(_strip_spaces, cells)) for cells in table]
    if list(map(len, table)).count(width) != len(table):
        for number, cells in enumerate(table):
            if len(cells) != width:
                if not pad:
                    raise width_error(width, len(cells), row=number + 1)
                table[number] = (cells + ["null"] * width)[:width]
    return list(map(list, zip(*table)))


def split_lines(
    text: str, delimiter: str, width: int, separator: str = "\n", *, trim: bool = True
) -> list[list[str]] | None:
    """Split rows held as one text into ``width`` columns of trimmed cell tokens, or ``None``.

    The fast case of :func:`split_table`: the rows are ``text`` cut at each
    ``separator`` (a line feed, possibly followed by the rows' indentation).
    Returns ``None`` when a row holds a quote (then use ``split_table``) or
    has another number of cells than ``width``.  With ``trim=False`` the
    cells keep the spaces around them (for
    :func:`~eson._internal.wire.toon_quoting.parse_cells`, which trims cheaper).
    """
    if '"' in text:
        return None
    marked = text.replace(separator, f"{delimiter}\n{delimiter}")
    cells = marked.split(delimiter)
    count = marked.count("\n") + 1
    stride = width + 1
    if len(cells) != count * stride - 1 or (
        count > 1 and cells[width::stride].count("\n") != count - 1
    ):
        return None
    if trim and _needs_trim(marked, delimiter):
        cells = list(map(_strip_spaces, cells))
    return [cells[column::stride] for column in range(width)]


def _needs_trim(joined: str, delimiter: str) -> bool:
    """Whether a cell of the delimiter-joined rows has a leading or trailing space."""
    return (
        " " + delimiter in joined
        or delimiter + " " in joined
        or joined[:1] == " "
        or joined[-1:] == " "
    )
