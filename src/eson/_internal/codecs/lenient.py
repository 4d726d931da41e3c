"""The typed repairs of lenient reading, shared by the ESON and TOON back ends.

Only a schema knows these have a single reading:

- a bare number or ``true``/``false`` where the field accepts only strings
  (``id=12345`` for ``id: str``) is read as the text written, ``"12345"``
  -- not ``str()`` of the number, so ``1.50`` stays ``"1.50"``;
- (ESON) a record array of a ``number=True`` type written without its
  reserved ``n`` column is read in its written order (counts still hold).

``null`` in a string field is never read as ``"null"``: for an optional
field it means ``None``, and for a required one the model should say what
it meant.  Each repair is recorded as a :class:`~eson._internal.wire.repairs.Repair`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from eson._internal.schema.model import CellType, DocumentSchema, EntryKind
from eson._internal.wire.repairs import Repair, RepairKind

_TEXT_TYPES: frozenset[type] = frozenset({str, type(None)})


def takes_only_text(cell: CellType) -> bool:
    """Whether the values of ``cell`` can only be strings (or ``None``).

    True for ``str``, constrained strings, ``Literal`` strings and their
    optional forms; false for unions with numbers, enums, ``Any`` ...
    """
    plain = cell.plain
    return bool(plain) and str in plain and plain <= _TEXT_TYPES and not cell.structured


def text_repair(value: Any) -> RepairKind | None:
    """The repair that reads ``value`` as its text in a string field, or ``None``."""
    kind = type(value)
    if kind is bool:
        return "boolean-as-text"
    if kind is int or kind is float:
        return "number-as-text"
    return None


def _shown(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def text_detail(raw: str) -> str:
    """The words of a text repair of the cell ``raw``."""
    return f"read the bare {_shown(raw)} as the text {_shown(raw)!r}"


def fix_text_column(
    values: list[Any],
    texts: Sequence[str],
    log: list[Repair],
    line_of: Any,
    section: str | None,
    field: str | None,
    rows: bool = True,
) -> list[Any]:
    """``values`` with every number or boolean replaced by its cell text, recorded in ``log``.

    ``line_of(index)`` gives the line of the ``index``-th value; ``rows``
    says whether the values are rows (numbered in repairs) or one value.
    """
    fixed: list[Any] | None = None
    for index, value in enumerate(values):
        kind = text_repair(value)
        if kind is None:
            continue
        if fixed is None:
            fixed = list(values)
        raw = texts[index]
        fixed[index] = raw
        log.append(
            Repair(
                line_of(index), kind, text_detail(raw), section, index + 1 if rows else None, field
            )
        )
    return values if fixed is None else fixed


@dataclass(frozen=True, slots=True)
class TextSpot:
    """A value the text rule applies to, in a plain document.

    Attributes:
        container: The dict or list holding it.
        step: Its key or index there.
        loc: Its path from the document root (as validation errors give it).
        section: The top-level name.
        row: 1-based row in a record or scalar array, else ``None``.
        field: The record field, else ``None``.
    """

    container: dict[str, Any] | list[Any]
    step: str | int
    loc: tuple[str | int, ...]
    section: str
    row: int | None
    field: str | None


def text_spots(schema: DocumentSchema, document: Any) -> list[TextSpot]:
    """Where a plain document holds a number or boolean in a string-only field.

    Looks where ESON has columns: top-level scalars, scalar arrays, and the
    fields of record arrays and single records (not deeper nesting).
    """
    spots: list[TextSpot] = []
    if not isinstance(document, dict):
        return spots
    for item in schema.fields:
        if item.output_only or item.wire not in document:
            continue
        value = document[item.wire]
        wire = item.wire
        if item.entry is EntryKind.SCALAR:
            if takes_only_text(item.cell) and text_repair(value) is not None:
                spots.append(TextSpot(document, wire, (wire,), wire, None, None))
        elif item.entry is EntryKind.SCALAR_ARRAY:
            if takes_only_text(item.cell) and isinstance(value, list):
                spots.extend(
                    TextSpot(value, index, (wire, index), wire, index + 1, None)
                    for index, element in enumerate(value)
                    if text_repair(element) is not None
                )
        elif item.record is not None and item.entry in (EntryKind.RECORD_ARRAY, EntryKind.RECORD):
            fields = [
                field.wire
                for field in item.record.fields
                if not field.output_only and takes_only_text(field.cell)
            ]
            if not fields:
                continue
            if item.entry is EntryKind.RECORD:
                if isinstance(value, dict):
                    spots.extend(
                        TextSpot(value, field, (wire, field), wire, None, field)
                        for field in fields
                        if field in value and text_repair(value[field]) is not None
                    )
                continue
            if not isinstance(value, list):
                continue
            for index, row in enumerate(value):
                if not isinstance(row, dict):
                    continue
                spots.extend(
                    TextSpot(row, field, (wire, index, field), wire, index + 1, field)
                    for field in fields
                    if field in row and text_repair(row[field]) is not None
                )
    return spots
