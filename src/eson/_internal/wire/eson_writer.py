"""Writing an ESON document: plain Python value -> text.

The root is a ``dict`` whose keys are names.  Each entry becomes, by the
shape of its value:

- a list of dicts that share one key set  -> record array ``name[N]{fields}``
  (a list of dicts whose key sets differ is an error, as in the reference)
- any other list or tuple                 -> scalar array ``name[N]``
- a dict                                  -> single record ``name{fields}``
- anything else                           -> scalar ``name=cell``

Record arrays are written column by column (see
:func:`eson._internal.wire.eson_cells.encode_column`).  With ``number=True`` every record
array gains the reserved ``n`` column (1, 2, ...).  A record array whose first
field is already ``n`` must carry exactly those numbers, since a reader will
check them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from eson._internal.accelerator import ACCESS_DICT, ANY_PLAIN, native
from eson._internal.wire.eson_cells import encode_cell, encode_column
from eson._internal.wire.eson_lexicon import HEADER
from eson._internal.wire.eson_names import NAME_RE
from eson.errors import EncodeError, echo


def encode_document(value: Mapping[str, Any], *, number: bool = False) -> str:
    """Encode a mapping of names to plain values as an ESON document.

    Args:
        value: The document root; keys must match the ESON name production.
        number: Prepend the reserved ``n`` row-number column to record arrays.

    Raises:
        EncodeError: naming the section (and row and field when known) for
            an invalid name, a non-uniform record array, a non-finite float,
            an unsupported type, or an unsafe integer inside a nested value.
    """
    if not isinstance(value, Mapping):
        raise EncodeError(f"the document root must be a dict, not {type(value).__name__}")
    lines = [HEADER]
    for name, item in value.items():
        write_entry(lines, name, item, number=number)
    lines.append("")
    return "\n".join(lines)


def _check_name(name: object, section: str | None = None) -> str:
    if type(name) is not str or NAME_RE.fullmatch(name) is None:
        what = "field name" if section is not None else "name"
        raise EncodeError(
            f"invalid {what} {echo(name)}: names match [A-Za-z_][A-Za-z0-9_.-]*",
            section=section,
        )
    return name


def write_entry(lines: list[str], name: str, value: object, *, number: bool) -> None:
    """Append the lines of one top-level entry to ``lines``."""
    _check_name(name)
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(item, dict) for item in value):
            write_record_array(lines, name, value, number=number)
            return
        lines.append(f"{name}[{len(value)}]")
        for index, item in enumerate(value):
            lines.append(_cell(item, name, index + 1, None))
    elif isinstance(value, dict):
        fields = [_check_name(field, name) for field in value]
        lines.append(f"{name}{{{','.join(fields)}}}")
        lines.append("\t".join([_cell(value[field], name, None, field) for field in fields]))
    else:
        lines.append(f"{name}={_cell(value, name, None, None)}")


def _cell(value: object, section: str, row: int | None, field: str | None) -> str:
    try:
        return encode_cell(value)
    except EncodeError as exc:
        raise EncodeError(exc.reason, section=section, row=row, field=field) from None


def write_record_array(
    lines: list[str], name: str, rows: list[Any] | tuple[Any, ...], *, number: bool
) -> None:
    """Append a record array (a non-empty sequence of dicts with one key set)."""
    first = rows[0].keys()
    fields = [_check_name(field, name) for field in first]
    if native is not None and "n" not in first:
        # The accelerator writes rows that are exact dicts of exact plain values.
        body = native.encode_rows(
            rows if type(rows) is list else list(rows),
            None,
            ACCESS_DICT,
            tuple(fields),
            (ANY_PLAIN,) * len(fields),
            number,
        )
        if body is not None:
            header_fields = ["n", *fields] if number else fields
            lines.append(f"{name}[{len(rows)}]{{{','.join(header_fields)}}}")
            lines.append(body)
            return
    for index, row in enumerate(rows):
        if row.keys() != first:
            raise EncodeError(
                "a list of dicts is a record array, whose rows share one key set, but this "
                f"row has the fields {_fields_text(row)} and row 1 {_fields_text(rows[0])}; "
                "split the list into one array per key set, or encode a typed model whose "
                "record type declares every field (the missing ones optional)",
                section=name,
                row=index + 1,
            )
    columns: list[list[str]] = []
    if number:
        if "n" in first:
            raise EncodeError(
                "already has a field n; drop it or encode without number=True", section=name
            )
        columns.append([str(position) for position in range(1, len(rows) + 1)])
    elif fields and fields[0] == "n":
        _check_reserved_n(name, rows)
    for field in fields:
        values = [row[field] for row in rows]
        try:
            columns.append(encode_column(values))
        except EncodeError:
            for index, value in enumerate(values):
                _cell(value, name, index + 1, field)
            raise
    header_fields = ["n", *fields] if number else fields
    lines.append(f"{name}[{len(rows)}]{{{','.join(header_fields)}}}")
    if columns:
        lines.extend(map("\t".join, zip(*columns)))
    else:
        lines.extend([""] * len(rows))


def _fields_text(row: dict[Any, Any]) -> str:
    """A row's keys for a message: the first few, each echoed."""
    keys = list(row)
    shown = ", ".join(echo(key) for key in keys[:8])
    more = f", ... ({len(keys)} in all)" if len(keys) > 8 else ""
    return f"[{shown}{more}]"


def _check_reserved_n(name: str, rows: list[Any] | tuple[Any, ...]) -> None:
    for index, row in enumerate(rows):
        value = row["n"]
        if type(value) not in (int, float) or value != index + 1:
            raise EncodeError(
                f"reserved first field n must be the row number {index + 1}, got {echo(value)}; "
                "rename the field or let number=True write it",
                section=name,
                row=index + 1,
                field="n",
            )
