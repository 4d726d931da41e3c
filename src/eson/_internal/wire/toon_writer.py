"""A plain Python value to TOON text (the untyped encoder).

The writer picks, for every value, the form the spec prescribes and the
TypeScript reference emits:

- objects: ``key: value`` lines, nested objects indented under ``key:``;
  an object of two or more uniform non-empty objects collapses into a keyed
  table ``key[N:]{fields}:`` with one ``entry: cells`` row per entry;
- arrays of primitives: inline, ``key[N]: a,b,c``;
- arrays of uniform objects: a table ``key[N]{fields}:`` with one row per
  element (uniform nested objects become nested field groups);
- anything else: an expanded list of ``- item`` lines.

Accepted input: ``dict`` (with ``str`` keys), ``list`` and ``tuple``, ``str``,
``int``, ``float``, ``bool`` and ``None`` (and subclasses of these).  Any other
type, a circular reference, or nesting deeper than
:data:`~eson._internal.wire.toon_limits.MAX_DEPTH` raises :class:`~eson.errors.TOONError`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from eson._internal.wire.options import indent_size_of
from eson._internal.wire.toon_header import HeaderField, format_fields
from eson._internal.wire.toon_limits import MAX_DEPTH
from eson._internal.wire.toon_quoting import (
    DELIMITERS,
    format_key,
    format_str_column,
    primitive_formatter,
    quote,
    table_rows,
)
from eson.errors import TOONError

_Columns = tuple[tuple[HeaderField, ...], list[list[str]]]


def encode_value(value: Any, *, delimiter: str = ",", indent_size: int = 2) -> str:
    """Encode a plain Python value as a TOON document.

    Args:
        value: ``None``, ``bool``, ``int``, ``float``, ``str``, or ``list``/
            ``tuple``/``dict`` (``str`` keys) of these.
        delimiter: The document delimiter, ``","``, ``"\\t"`` or ``"|"``: it
            separates inline values and table cells, and decides which
            strings need quotes.
        indent_size: Spaces per indentation level (at least 1).

    Returns:
        The document, lines joined by LF, with no trailing newline.  An empty
        ``dict`` gives the empty string.

    Raises:
        TOONError: for a value TOON cannot hold (foreign type, non-``str``
            key, circular reference, nesting deeper than ``MAX_DEPTH``, a
            string with a surrogate code point).
        ValueError: for a bad ``delimiter`` or ``indent_size``.
    """
    if delimiter not in DELIMITERS:
        raise ValueError(f"delimiter must be ',', '\\t' or '|', not {delimiter!r}")
    indent_size = indent_size_of(indent_size)
    writer = Writer(delimiter, indent_size)
    try:
        writer.root(value)
    except RecursionError:  # only reachable when called with a nearly full stack
        raise TOONError("value nests too deeply to encode") from None
    return "\n".join(writer.lines)


def _foreign(value: Any) -> TOONError:
    return TOONError(f"cannot encode a value of type {type(value).__name__} as TOON")


class Writer:
    """One encoding run: collects the output lines in :attr:`lines`.

    :func:`encode_value` makes one per call.  The typed back end
    (:mod:`eson._internal.codecs.toon_encode`) makes one too, appends the lines it
    writes itself to :attr:`lines`, and hands the values it has no fast path
    for to :meth:`member` (a field), :meth:`root` (a whole document) or
    :meth:`item` (a list item), which then write exactly what
    :func:`encode_value` writes for them.

    Args:
        delimiter: ``","``, ``"\\t"`` or ``"|"`` (not checked here).
        indent_size: Spaces per level (at least 1, not checked here).
    """

    def __init__(self, delimiter: str, indent_size: int) -> None:
        self.delimiter = delimiter
        self.symbol = "" if delimiter == "," else delimiter
        self.unit = " " * indent_size
        self.pads = [""]
        self.lines: list[str] = []
        self.cell: Callable[[Any], str | None] = primitive_formatter(delimiter)
        self.active: set[int] = set()  # ids of the containers being written
        self.keys: dict[str, str] = {}  # key -> its token, as keys repeat a lot

    def key(self, key: Any) -> str:
        token = self.keys.get(key) if type(key) is str else None
        if token is None:
            token = format_key(key)
            if type(key) is str:
                self.keys[key] = token
        return token

    # ------------------------------------------------------------ helpers

    def pad(self, depth: int) -> str:
        """The indentation of a line at ``depth``."""
        pads = self.pads
        while len(pads) <= depth:
            pads.append(pads[-1] + self.unit)
        return pads[depth]

    def enter(self, container: Any, level: int) -> None:
        if level > MAX_DEPTH:
            raise TOONError(f"value nests deeper than {MAX_DEPTH} levels")
        ident = id(container)
        if ident in self.active:
            raise TOONError("circular reference: a container holds itself")
        self.active.add(ident)

    def leave(self, container: Any) -> None:
        self.active.discard(id(container))

    def inline_cells(self, items: Any) -> list[str] | None:
        """Tokens for an all-primitive array, or ``None`` if any item is not one."""
        cells = list(map(self.cell, items))
        return None if None in cells else cells  # type: ignore[return-value]

    def columns(self, rows: list[Any], budget: int) -> _Columns | None:
        """Header fields and formatted leaf columns if ``rows`` (dicts) can be a table.

        ``budget`` is how many object levels the rows may still span (one for
        the rows themselves, one more per nested field group).
        """
        first = rows[0]
        if not first or budget < 1:
            return None
        width = len(first)
        keys = first.keys()
        for row in rows:
            if len(row) != width or row.keys() != keys:
                return None
        fields: list[HeaderField] = []
        columns: list[list[str]] = []
        cell = self.cell
        for key in first:
            if not isinstance(key, str):
                return None
            column = [row[key] for row in rows]
            try:  # a column of strings: one pass for the lot
                strings: list[str] | None = format_str_column(column, self.delimiter)
            except TypeError:  # not all strings
                strings = None
            cells = strings if strings is not None else list(map(cell, column))
            if None not in cells:
                fields.append(HeaderField(key))
                columns.append(cells)  # type: ignore[arg-type]
                continue
            for item in column:
                if not isinstance(item, dict) or not item:
                    return None
            nested = self.columns(column, budget - 1)
            if nested is None:
                return None
            fields.append(HeaderField(key, nested[0]))
            columns.extend(nested[1])
        return tuple(fields), columns

    def table(self, items: Any, level: int) -> _Columns | None:
        """Table layout for an array at ``level`` if every element is a uniform object."""
        for item in items:
            if not isinstance(item, dict):
                return None
        rows = items if isinstance(items, list) else list(items)
        return self.columns(rows, MAX_DEPTH - level)

    def keyed(self, obj: dict[Any, Any], level: int) -> _Columns | None:
        """Table layout for an object at ``level`` whose values are uniform objects."""
        if len(obj) < 2:
            return None
        values = list(obj.values())
        for item in values:
            if not isinstance(item, dict) or not item:
                return None
        return self.columns(values, MAX_DEPTH - level)

    def header(self, length: int, fields: tuple[HeaderField, ...] | None, keyed: bool) -> str:
        text = f"[{length}{':' if keyed else ''}{self.symbol}]"
        if fields is not None:
            text += "{" + format_fields(fields, self.delimiter) + "}"
        return text + ":"

    # ------------------------------------------------------------ values

    def root(self, value: Any) -> None:
        cell = self.cell(value)
        if cell is not None:
            if cell[:1] == "\ufeff":
                # A bare string opening the document with U+FEFF: readers that
                # drop a leading byte-order mark (this one does) would lose it.
                cell = quote(cell)
            self.lines.append(cell)
        elif isinstance(value, dict):
            if not value:
                return
            layout = self.keyed(value, 1)
            if layout is not None:
                self.entry_rows("", value, layout, 1)
            else:
                self.fields(value, 0, 1)
        elif isinstance(value, (list, tuple)):
            self.array("", value, 1, 1)
        else:
            raise _foreign(value)

    def fields(self, obj: dict[Any, Any], depth: int, level: int) -> None:
        """Write the fields of ``obj`` (an object at ``level``) at ``depth``."""
        self.enter(obj, level)
        pad = self.pad(depth)
        for key, value in obj.items():
            self.member(pad + self.key(key), value, depth + 1, level + 1)
        self.leave(obj)

    def member(self, start: str, value: Any, inner: int, level: int) -> None:
        """Write one field whose line begins with ``start`` (indent and key).

        ``inner`` is the depth of whatever the field opens (nested fields,
        rows, items); ``level`` is the nesting level ``value`` would have.
        """
        cell = self.cell(value)
        if cell is not None:
            self.lines.append(start + ": " + cell)
        elif isinstance(value, dict):
            layout = self.keyed(value, level)
            if layout is not None:
                self.entry_rows(start, value, layout, inner)
            else:
                self.lines.append(start + ":")
                if value:
                    self.fields(value, inner, level)
                elif level > MAX_DEPTH:
                    raise TOONError(f"value nests deeper than {MAX_DEPTH} levels")
        elif isinstance(value, (list, tuple)):
            self.array(start, value, inner, level)
        else:
            raise _foreign(value)

    def entry_rows(self, start: str, obj: dict[Any, Any], layout: _Columns, inner: int) -> None:
        fields, columns = layout
        self.lines.append(start + self.header(len(obj), fields, True))
        pad = self.pad(inner)
        join = self.delimiter.join
        self.lines.extend(
            f"{pad}{self.key(key)}: {join(cells)}" for key, cells in zip(obj, zip(*columns))
        )

    def array(self, start: str, items: Any, inner: int, level: int) -> None:
        """Write an array in key position (or at the root, when ``start`` is empty)."""
        if level > MAX_DEPTH:
            raise TOONError(f"value nests deeper than {MAX_DEPTH} levels")
        count = len(items)
        if not count:
            self.lines.append(start + ": []" if start else "[]")
            return
        cells = self.inline_cells(items)
        if cells is not None:
            self.lines.append(f"{start}[{count}{self.symbol}]: {self.delimiter.join(cells)}")
            return
        layout = self.table(items, level)
        if layout is not None:
            fields, columns = layout
            self.lines.append(start + self.header(count, fields, False))
            self.lines.extend(table_rows(columns, self.delimiter, self.pad(inner)))
            return
        self.lines.append(f"{start}[{count}{self.symbol}]:")
        self.list_items(items, inner, level)

    def list_items(self, items: Any, depth: int, level: int) -> None:
        """Write the elements of a list-form array at ``level`` as ``- `` lines."""
        self.enter(items, level)
        for item in items:
            self.item(item, depth, level + 1)
        self.leave(items)

    def item(self, value: Any, depth: int, level: int) -> None:
        """Write one list item at ``depth``; ``level`` is the nesting ``value`` would have."""
        pad = self.pad(depth)
        cell = self.cell(value)
        if cell is not None:
            self.lines.append(pad + "- " + cell)
            return
        if level > MAX_DEPTH:
            raise TOONError(f"value nests deeper than {MAX_DEPTH} levels")
        if isinstance(value, dict):
            if value:
                self.item_object(value, depth, level)
            else:
                self.lines.append(pad + "-")
        elif isinstance(value, (list, tuple)):
            count = len(value)
            cells = self.inline_cells(value)
            if cells is not None:
                line = f"{pad}- [{count}{self.symbol}]:"
                self.lines.append(line + " " + self.delimiter.join(cells) if count else line)
            else:
                self.lines.append(f"{pad}- [{count}{self.symbol}]:")
                self.list_items(value, depth + 1, level)
        else:
            raise _foreign(value)

    def item_object(self, obj: dict[Any, Any], depth: int, level: int) -> None:
        """Write a non-empty object as a list item: first field on the hyphen line."""
        self.enter(obj, level)
        entries = iter(obj.items())
        key, value = next(entries)
        start = self.pad(depth) + "- " + self.key(key)
        # The first field's own content goes two levels below the hyphen line,
        # the object's other fields one level below it.
        self.member(start, value, depth + 2, level + 1)
        pad = self.pad(depth + 1)
        for key, value in entries:
            self.member(pad + self.key(key), value, depth + 2, level + 1)
        self.leave(obj)
