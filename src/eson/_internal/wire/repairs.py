"""What lenient reading changed: one :class:`Repair` per fix, with its line.

Lenient reading (``strict=False``) applies only fixes that have a single safe
reading of the text (see :mod:`eson._internal.wire.eson_lenient` for the text-level
ones and :mod:`eson._internal.codecs.eson_decode` for the typed ones).  Every fix is
recorded as a :class:`Repair`, so a caller can log what a model got wrong,
count it, or refuse a reply that needed too much mending.

Repairs reach the caller through a list the caller owns and passes in
(``repairs=[]``); nothing is kept in global or thread-local state, so
concurrent decodes never see each other's repairs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

RepairKind = Literal[
    "missing-header",
    "blank-line",
    "line-end-space",
    "cell-space",
    "field-list-space",
    "equals-space",
    "missing-n",
    "number-as-text",
    "boolean-as-text",
    "rows-missing",
    "cut-off",
]

#: Every repair kind, with what it means.
REPAIR_KINDS: dict[str, str] = {
    "missing-header": "typed: the document had no !eson/1 line; it was read as if it had",
    "blank-line": "a blank line between entries was skipped",
    "line-end-space": "white space at the end of a head line was removed",
    "cell-space": "white space around a cell strict reading refuses (n, JSON) was removed",
    "field-list-space": "spaces after the commas of a field list were removed",
    "equals-space": "spaces around the '=' of a scalar entry were removed",
    "missing-n": "typed: a record array of a number=True type came without its n column",
    "number-as-text": "typed: a bare number in a str field was read as its text",
    "boolean-as-text": "typed: a bare true/false in a str field was read as its text",
    "rows-missing": "partial=True: the text ended before the declared rows; the rows present were kept",
    "cut-off": "partial=True: the reply was cut off (its stop reason, an open fence, no end "
    "mark); its last line, maybe cut, was dropped and the complete rows kept",
}

#: Where repairs are collected: a list the caller passes in, or ``None``.
RepairLog = list["Repair"]


@dataclass(frozen=True, slots=True)
class Repair:
    """One fix lenient reading made, and where.

    Attributes:
        line: 1-based line of the text that was read.
        kind: What kind of fix it was (see :data:`REPAIR_KINDS`).
        detail: What was done, in words (e.g. ``"removed 2 spaces after commas"``).
        section: The top-level name the line belongs to, when known.
        row: 1-based row within the section, when it is a row.
        field: The field (column) of the cell, when it is one cell.
    """

    line: int
    kind: RepairKind
    detail: str
    section: str | None = None
    row: int | None = None
    field: str | None = None

    def __str__(self) -> str:
        where = self.section or ""
        if self.row is not None:
            where = f"{where} row {self.row}" if where else f"row {self.row}"
        if self.field is not None:
            where = f"{where} ({self.field})" if where else f"({self.field})"
        place = f"line {self.line}: {where}: " if where else f"line {self.line}: "
        return f"{place}{self.detail}"

    def moved(self, offset: int) -> Repair:
        """The same repair with its line moved down by ``offset`` lines."""
        return Repair(
            self.line + offset, self.kind, self.detail, self.section, self.row, self.field
        )
