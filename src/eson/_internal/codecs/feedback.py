"""What a typed decode tells the model it expected: the layout part of ``ESONError.feedback``.

When a typed decode fails, the model that wrote the text needs to know what
to write instead.  :func:`attach_expected` puts on the error the layout of
the target type in the format that was read -- the exact head lines the
encoder writes (``findings[N]{n,severity,file,line,message}``) and the
allowed values of ``Literal`` and enum fields -- taken from the one layout
description of a compiled schema (:func:`eson._internal.codecs.layout.document_layout`).
The section the error is in comes first, so it survives when the text is
clipped to its budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eson._internal.codecs.layout import DocumentLayout, EntryLayout, ValueLayout, document_layout
from eson._internal.schema.model import EntryKind
from eson.errors import ESONError

#: The most characters the layout part of a feedback text may take.
BUDGET = 400

_INTRO = {
    "eson": (
        "Expected layout (N = the number of rows that follow; one record per line, "
        "cells separated by TAB characters):"
    ),
    "toon": "Expected layout (N = the number of rows or items that follow):",
    "json": "Expected JSON:",
}


def _restricted(value: ValueLayout) -> bool:
    return bool(value.choices or value.constraints)


def _note_lines(entry: EntryLayout, field: str | None) -> list[str]:
    values: Sequence[ValueLayout] = entry.columns if entry.columns else (entry.value,)
    return [
        f"  {value.describe()}"
        for value in values
        if _restricted(value) or (field is not None and value.name == field)
    ]


def _json_value(entry: EntryLayout) -> str:
    if entry.kind is EntryKind.RECORD_ARRAY and entry.columns:
        columns = entry.columns[1:] if entry.numbered else entry.columns  # n is ESON's alone
        inner = ", ".join(f'"{column.name}": {column.words}' for column in columns)
        return f"[{{{inner}}}, ...]"
    if entry.kind is EntryKind.RECORD and entry.columns:
        inner = ", ".join(f'"{column.name}": {column.words}' for column in entry.columns)
        return f"{{{inner}}}"
    return entry.value.words


def expected_text(
    layout: DocumentLayout, format: str, section: str | None = None, field: str | None = None
) -> str:
    """The layout lines for a feedback text, the erring section first, within :data:`BUDGET`."""
    entries = list(layout.entries)
    focus = [entry for entry in entries if entry.name == section]
    if format == "json":
        parts = [f'"{entry.name}": {_json_value(entry)}' for entry in entries]
        body = "{" + ", ".join(parts) + "}"
        text = f"{_INTRO['json']} {body}"
        return text if len(text) <= BUDGET else text[: BUDGET - 3] + "..."
    lines = [_INTRO.get(format, _INTRO["eson"])]
    if layout.first_line:
        lines.append(layout.first_line)
    notes: list[str] = []
    for entry in entries:
        lines.append(entry.header)
        if entry in focus:
            notes[:0] = _note_lines(entry, field)
        else:
            notes.extend(_note_lines(entry, None))
    used = sum(len(line) + 1 for line in lines)
    for note in notes:
        if used + len(note) + 1 > BUDGET:
            break
        lines.append(note)
        used += len(note) + 1
    text = "\n".join(lines)
    return text if len(text) <= BUDGET else text[: BUDGET - 3] + "..."


def attach_expected(error: ESONError, cls: Any, format: str, *, read: bool = True) -> ESONError:
    """Put on ``error`` the format read and the layout ``cls`` expects (unless already there).

    ``read=False``: nothing was read in ``format`` (no payload was found);
    only the layout is attached.  Never raises: a type whose layout cannot
    be described leaves the error as it is.
    """
    if error.format is None and read:
        error.format = format
    if error.expected is not None:
        return error
    try:
        layout = document_layout(cls, "toon" if format == "toon" else "eson")
        error.expected = expected_text(layout, format, error.section, error.field)
    except Exception:  # describing the layout must never hide the real error
        pass
    return error
