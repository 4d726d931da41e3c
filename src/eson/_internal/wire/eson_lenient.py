"""The text-level repairs of ESON's lenient reading (``strict=False``).

Language models write ESON with small slips that have exactly one sensible
reading.  Lenient reading fixes those, and only those; every fix is recorded
as a :class:`~eson._internal.wire.repairs.Repair`:

- white space at the end of a head line (``findings[2]{a,b}  ``);
- white space around a cell that strict reading refuses as written: the
  reserved ``n`` (``1 ``), a JSON cell followed by white space JSON does not
  allow, the row of a record without fields;
- blank lines between entries;
- spaces after the commas of a field list (``{n, severity, file}``);
- spaces around the ``=`` of a scalar entry (``kind = review``).

A repair applies only where the strict reading fails, so that each text has
one reading: a cell strict reading accepts is never changed.  ``a= 1`` is
the bare string `` 1`` (ESON's decoding rule: anything that is no JSON
value is the bare string itself) to both readings, and so is a row's
`` high``; a typed reader then validates that one reading.

"White space" is JavaScript's ``trim`` set, the set ESON's bare-cell rule
uses, except TAB and LF inside rows: TAB separates cells and LF separates
lines, so those are structure, never slack.

What is never repaired: counts and the reserved ``n`` sequence (checksums,
Wire Profile W4), cell counts, quoting, names, and anything else; see
docs/replies.md.  The reader (:mod:`eson._internal.wire.eson_reader`) calls these
helpers from its one scanner, and only when the strict reading of a line
fails or a section's rows hold white space next to a TAB or line break
(:func:`body_has_edge_space`), so lenient reading of canonical text costs
almost nothing.
"""

from __future__ import annotations

import re

from eson._internal.wire.eson_cells import decode_cell
from eson._internal.wire.eson_lexicon import (
    CELL_SPACE,
    DIGITS_SOURCE,
    HEAD_SPACE,
    NAME_SOURCE,
    lazy_pattern,
)
from eson.errors import DecodeError

_NAME = NAME_SOURCE
_SPACE_CLASS = "[" + re.escape(HEAD_SPACE) + "]"
_LOOSE_SCALAR = lazy_pattern(rf"({_NAME})({_SPACE_CLASS}*)=({_SPACE_CLASS}*)(.*)", re.DOTALL)
_COMMA_SPACE = lazy_pattern(r",[ \t]+")
_FIELD_LIST = lazy_pattern(rf"({_NAME}(?:\[{DIGITS_SOURCE}\])?)\{{([^}}]*)\}}")

Note = tuple[str, str]  # (repair kind, what was done)


def is_blank(line: str) -> bool:
    """Whether a line holds nothing but white space."""
    return not line.strip(HEAD_SPACE)


def body_has_edge_space(joined: str, split: bool) -> bool:
    """Whether a section's body may have white space at a cell's edge.

    ``joined`` is the body lines joined so that every cell edge touches a
    separator: by ``"\t\n\t"`` for TAB-separated record rows (``split``),
    by ``"\n"`` for lines of one cell each.  ``False`` means no cell starts
    or ends with white space, so nothing needs stripping; ``True`` may be a
    false alarm (the caller then looks line by line).
    """
    if not joined:
        return False
    if joined[0] in CELL_SPACE or joined[-1] in CELL_SPACE:
        return True
    # rfind, not "in": on text full of spaces and TABs, CPython's forward
    # search for a two-character needle is several times slower.
    rfind = joined.rfind
    if split:
        if rfind(" \t") >= 0 or rfind("\t ") >= 0:
            return True
    elif rfind(" \n") >= 0 or rfind("\n ") >= 0:
        return True
    if joined.isascii():
        return "\v" in joined or "\f" in joined or "\r" in joined
    return any(char in joined for char in CELL_SPACE)


def _count(text: str, what: str) -> str:
    return f"{len(text)} {what}" + ("" if len(text) == 1 else "s")


def repair_head(line: str) -> tuple[str, list[Note]] | None:
    """The canonical form of a head line that only slack white space spoils.

    Handles white space at the line's end, around a scalar entry's ``=``
    and after the commas of a field list.  Returns the repaired line and
    what was done, or ``None`` when no such repair applies (the caller then
    reports the line as it is).
    """
    notes: list[Note] = []
    text = line.rstrip(HEAD_SPACE)
    if len(text) != len(line):
        notes.append(
            (
                "line-end-space",
                f"removed {_count(line[len(text) :], 'white-space character')} "
                "at the end of the line",
            )
        )
    scalar = _LOOSE_SCALAR.fullmatch(text)
    if scalar is not None and "[" not in scalar.group(1):
        name, before, after, cell = scalar.groups()
        if before or after:
            notes.append(("equals-space", "removed the white space around '='"))
        if not notes:
            return None
        return f"{name}={cell}", notes
    head = _FIELD_LIST.fullmatch(text)
    if head is not None and _COMMA_SPACE.search(head.group(2)) is not None:
        fields = _COMMA_SPACE.sub(",", head.group(2))
        notes.append(("field-list-space", "removed the spaces after the commas of the field list"))
        text = f"{head.group(1)}{{{fields}}}"
    if not notes:
        return None
    return text, notes


def reads_as_written(cell: str) -> bool:
    """Whether strict reading accepts ``cell`` as it stands (white space and all).

    A cell with white space at its edge is usually a bare string to the
    strict reader (``' 1'`` is the text `` 1``), and lenient reading never
    reads a text otherwise than strict reading accepts it: such a cell is
    kept as written.  Only a cell strict reading refuses (a JSON cell
    followed by white space JSON does not allow, say) may be stripped.
    """
    try:
        decode_cell(cell)
    except DecodeError:
        return False
    return True


def strip_scalar_cell(cell: str) -> tuple[str, list[Note]]:
    """A scalar entry's cell without white space at its edges, and what was removed.

    The cell is kept as written when strict reading accepts it (see
    :func:`reads_as_written`): ``a= 1`` is the text `` 1`` either way.
    """
    if reads_as_written(cell):
        return cell, []
    notes: list[Note] = []
    stripped = cell.lstrip(HEAD_SPACE)
    if len(stripped) != len(cell):
        notes.append(("equals-space", "removed the white space after '='"))
    end = stripped.rstrip(HEAD_SPACE)
    if len(end) != len(stripped):
        notes.append(
            (
                "line-end-space",
                f"removed {_count(stripped[len(end) :], 'white-space character')} "
                "at the end of the line",
            )
        )
    return end, notes


def strip_row(line: str, split: bool, numbered: bool = False, empty: bool = False) -> tuple[str, list[int]]:
    """A body line with white space stripped around the cells strict reading refuses.

    ``split`` says whether the line is a record row (cells separated by TAB)
    or one cell (a scalar array row); ``numbered``: its first cell is the
    reserved ``n``, which never holds white space; ``empty``: the row of a
    record without fields, which must be empty.  Any other cell is stripped
    only when strict reading refuses it as written (see
    :func:`reads_as_written`): `` 1`` is the text `` 1`` to both readings.
    Returns the new line and the 0-based positions of the cells that
    changed (empty when nothing changed).
    """
    if not split:
        stripped = line.strip(CELL_SPACE)
        if len(stripped) == len(line) or (not empty and reads_as_written(line)):
            return line, []
        return stripped, [0]
    cells = line.split("\t")
    changed: list[int] = []
    for position, cell in enumerate(cells):
        stripped = cell.strip(CELL_SPACE)
        if len(stripped) == len(cell):
            continue
        if (numbered and position == 0) or not reads_as_written(cell):
            cells[position] = stripped
            changed.append(position)
    if not changed:
        return line, changed
    return "\t".join(cells), changed
