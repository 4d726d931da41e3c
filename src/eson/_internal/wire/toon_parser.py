"""TOON text to a plain Python value (the untyped decoder).

The decoder works on the lines :func:`~eson._internal.wire.toon_scanner.scan_lines`
produces and never recurses: open objects and list arrays sit on an explicit
stack of frames, each knowing the depth its lines must have.  A line is given
to the innermost frame that accepts its depth; frames it dedents past are
closed (and their declared counts checked).  Tabular rows and keyed entry rows
hold only primitives, so they are read in a tight loop right after their
header instead of through the stack.

Memory and time are linear in the text: declared lengths are only compared,
never used to allocate, and nesting deeper than
:data:`~eson._internal.wire.toon_limits.MAX_DEPTH` is rejected.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import repeat
from typing import Any

from eson._internal.wire.lines import whole_text
from eson._internal.wire.options import indent_size_of, strict_flag
from eson._internal.wire.toon_header import Header, parse_header
from eson._internal.wire.toon_lexicon import QUOTED_SOURCE
from eson._internal.wire.toon_limits import MAX_DEPTH, OBJECT_ALLOWANCE, check_objects
from eson._internal.wire.toon_quoting import parse_column, parse_primitive, unescape
from eson._internal.wire.toon_scanner import (
    ScannedLines,
    ends_rows,
    row_depth_error,
    scan_lines,
    split_cells,
    split_table,
    width_error,
)
from eson.errors import TOONError, echo

_OBJECT, _LIST, _TRAIL = 0, 1, 2
_QUOTED_KEY = re.compile(f'"({QUOTED_SOURCE[1:-1]})" *:', re.S)
_QUOTED_TOKEN = re.compile(QUOTED_SOURCE, re.S)


def text_of(data: str | bytes | bytearray | memoryview) -> str:
    """Return the document as ``str``; bytes-like input is decoded as UTF-8.

    One leading byte-order mark is dropped.

    Raises:
        TOONError: for ill-formed UTF-8 (including encoded surrogates), with
            the line it occurs on.
        TypeError: for input that is neither text nor bytes.
    """
    text = whole_text(data, "TOON", TOONError)
    if text.startswith("\ufeff"):
        text = text[1:]
    return text



def count_error(what: str, declared: int, unit: str, got: int, line: int | None = None) -> TOONError:
    """The error of a TOON array, table or keyed table whose length disagrees with its header.

    The one wording of it, for the whole-text parser and the stream alike.
    """
    return TOONError(f"{what} declares {declared} {unit} but has {got}", line=line)

class Positions:
    """Where the decoder found each value: filled in by :func:`decode_text`.

    Containers are looked up by identity.  The record holds a reference to
    every container it describes, so no identity can be reused while the
    record lives: a container the decoder dropped (a key repeated in
    non-strict mode replaces the first value) keeps its own entry instead of
    lending it to a later container that happens to get the same ``id``.  The
    typed back end uses it to put a validation error on the line its value
    came from.
    """

    __slots__ = ("items", "keys", "tokens")

    def __init__(self, tokens: bool = False) -> None:
        self.keys: dict[int, tuple[dict[str, Any], dict[str, int]]] = {}
        self.items: dict[int, tuple[list[Any], list[int]]] = {}
        #: With ``tokens=True``: the token text each primitive was read from,
        #: keyed by ``(id(container), key or index)``, with the container itself
        #: (held, like the others, so that no identity is reused meanwhile).
        self.tokens: dict[tuple[int, str | int], tuple[Any, str]] | None = (
            {} if tokens else None
        )

    def token_of(self, container: dict[str, Any] | list[Any], step: str | int) -> str | None:
        """The token ``container[step]`` was read from (``None`` if not recorded)."""
        if self.tokens is None:
            return None
        found = self.tokens.get((id(container), step))
        if found is None or found[0] is not container:
            return None
        return found[1]

    def key(self, container: dict[str, Any], key: str, line: int) -> None:
        """Record that ``container[key]`` was read from ``line``."""
        entry = self.keys.get(id(container))
        if entry is None:
            entry = self.keys[id(container)] = (container, {})
        entry[1][key] = line

    def item(self, container: list[Any], line: int) -> None:
        """Record that the next element of ``container`` was read from ``line``."""
        entry = self.items.get(id(container))
        if entry is None:
            entry = self.items[id(container)] = (container, [])
        entry[1].append(line)

    def line_of(self, document: Any, path: Sequence[str | int]) -> int | None:
        """The line of the deepest value along ``path`` (keys and indexes) that was read.

        ``None`` when not even the first step is known.  Never raises: a step
        the document does not hold ends the walk.
        """
        line: int | None = None
        value = document
        for step in path:
            if isinstance(value, dict):
                entry = self.keys.get(id(value))
                if entry is None or entry[0] is not value or not isinstance(step, str):
                    break
                found = entry[1].get(step)
                if found is None or step not in value:
                    break
                line = found
                value = value[step]
            elif isinstance(value, list) and isinstance(step, int):
                listed = self.items.get(id(value))
                if listed is None or listed[0] is not value:
                    break
                lines = listed[1]
                if not 0 <= step < len(lines) or step >= len(value):
                    break
                line = lines[step]
                value = value[step]
            else:
                break
        return line


def decode_text(
    text: str,
    *,
    strict: bool = True,
    indent_size: int = 2,
    level: int = 1,
    positions: Positions | None = None,
    fields: bool = False,
    lf_only: bool = False,
) -> Any:
    """Decode a TOON document held in a ``str`` into plain Python values.

    Objects become ``dict`` (keys in document order), arrays ``list``, and
    primitives ``None``/``bool``/``int``/``float``/``str``.  Integer tokens
    become exact ``int``; tokens with a fraction or exponent become ``float``.

    Args:
        text: The document.
        strict: Enforce the spec's strict-mode checks (declared counts, row
            widths, indentation multiples, blank lines inside arrays,
            duplicate keys, malformed headers, trailing content).  When
            ``False``, duplicate keys resolve last-write-wins and the other
            checks are relaxed as the spec allows.
        indent_size: Spaces per indentation level.
        level: The nesting level of the root container (1 for a whole
            document; more when ``text`` is a block cut out of a larger
            document, so that the nesting limit counts from where it stood).
        positions: When given, records the line of every key and element.
        fields: The text is known to hold fields of an object (a block of a
            document being streamed): never read it as a root array or a
            lone primitive.
        lf_only: The text is lines already split, joined by LF (a block of
            a stream): every CR in it is data, none is part of a line break.

    Raises:
        TOONError: for malformed text, with the 1-based line number.
        TypeError: when ``strict`` is not a ``bool``.
        ValueError: for a bad ``indent_size``.
    """
    strict = strict_flag(strict)
    indent_size = indent_size_of(indent_size)
    lines = scan_lines(text, indent_size, strict, lf_only=lf_only)
    return _Parser(lines, strict, level, positions, fields).parse()


class _Frame:
    """An open object or list array on the parser's stack."""

    __slots__ = ("depth", "expected", "fresh", "kind", "level", "line", "parent_depth", "value")

    def __init__(
        self,
        kind: int,
        value: Any,
        depth: int,
        parent_depth: int,
        fresh: bool,
        level: int,
        expected: int = 0,
        line: int = 0,
    ) -> None:
        self.kind = kind
        self.value = value
        self.depth = depth  # depth of the lines this frame takes
        self.parent_depth = parent_depth  # depth of the line that opened it
        self.fresh = fresh  # no line taken yet (its first line may set ``depth``)
        self.level = level  # container nesting of ``value`` (root = 1)
        self.expected = expected  # declared length, for list arrays
        self.line = line  # line number of the header, for list arrays


def _check_level(level: int) -> None:
    if level > MAX_DEPTH:
        raise TOONError(f"value nests deeper than {MAX_DEPTH} levels")


def _is_key_value(content: str) -> bool:
    """Whether a line (or list-item remainder) is ``key: ...``.

    A quoted key must be followed by a colon; an unquoted key is everything
    before the first colon (a ``"`` inside it is an ordinary character).
    """
    if content[0] == '"':
        match = _QUOTED_TOKEN.match(content)
        return match is not None and ":" in content[match.end() :]
    return ":" in content


def _split_key(content: str) -> tuple[str, str]:
    """Split a key-value line (or entry row) into its decoded key and the trimmed rest."""
    if content[0] == '"':
        match = _QUOTED_KEY.match(content)
        if match is None:
            if _QUOTED_TOKEN.match(content) is None:
                raise TOONError("unterminated quoted key")
            raise TOONError("expected ':' after the quoted key")
        return unescape(match.group(1)), content[match.end() :].strip(" ")
    colon = content.find(":")
    if colon < 0:
        raise TOONError(f"expected 'key: value', found no ':' in {echo(content)}")
    return content[:colon].strip(" "), content[colon + 1 :].strip(" ")


def is_key_value(content: str) -> bool:
    """Whether a line's content (without indentation) is a ``key: ...`` line."""
    return bool(content) and _is_key_value(content)


def split_key(content: str) -> tuple[str, str]:
    """A ``key: value`` line's decoded key and its trimmed rest.

    Raises:
        TOONError: for a malformed key.
    """
    return _split_key(content)


class _Parser:
    """One decoding run over scanned lines."""

    def __init__(
        self,
        lines: ScannedLines,
        strict: bool,
        level: int = 1,
        positions: Positions | None = None,
        fields: bool = False,
    ) -> None:
        self.fields = fields
        self.level = level
        self.positions = positions
        self.depths = lines.depths
        self.contents = lines.contents
        self.numbers = lines.numbers
        self.blank_before = lines.blank_before
        self.strict = strict
        self.stack: list[_Frame] = []
        self.open_spans = 0  # list arrays on the stack that already hold an item
        self.index = 0  # the line being worked on, for error locations

    # ------------------------------------------------------------ driver

    def parse(self) -> Any:
        try:
            return self._parse()
        except TOONError as exc:
            if exc.line is not None or not self.numbers:
                raise
            raise TOONError(
                exc.reason,
                line=self.numbers[self.index],
                section=exc.section,
                row=exc.row,
                field=exc.field,
            ) from None

    def _parse(self) -> Any:
        contents = self.contents
        count = len(contents)
        if count == 0:
            return {}
        if self.depths[0]:
            if self.strict:
                raise TOONError("the first line of the document must not be indented")
            shift = self.depths[0]
            self.depths = [max(0, depth - shift) for depth in self.depths]
        first = contents[0]
        if first[0] == "[" and not self.fields:
            if first.rstrip(" ") == "[]":
                if count > 1 and self.strict:
                    self.index = 1
                    raise TOONError("unexpected content after the root array")
                return []
            header = parse_header(first, strict=self.strict)
            if header is not None:
                holder: list[Any] = []
                self.stack.append(_Frame(_TRAIL, None, 0, -1, False, 0))
                following = self._open(header, holder, None, 0, self.level, 0)
                self._run(following)
                self._close_all()
                return holder[0]
        if count == 1 and not self.fields and not _is_key_value(first):
            return parse_primitive(first.rstrip(" "))
        root: dict[str, Any] = {}
        self.stack.append(_Frame(_OBJECT, root, 0, -1, False, self.level))
        self._run(0)
        self._close_all()
        return root

    def _run(self, index: int) -> None:
        """Feed lines ``index..`` to the frames on the stack."""
        depths = self.depths
        contents = self.contents
        stack = self.stack
        strict = self.strict
        count = len(contents)
        while index < count:
            self.index = index
            depth = depths[index]
            top: _Frame | None = None
            while True:
                top = stack[-1]
                if top.kind == _TRAIL:
                    break
                if top.fresh:
                    if depth > top.parent_depth:
                        if depth != top.parent_depth + 1:
                            if strict:
                                raise TOONError(
                                    f"indentation jumps from depth {top.parent_depth} to {depth}"
                                )
                            top.depth = depth
                        top.fresh = False
                        break
                    self._pop()
                    continue
                if depth == top.depth:
                    break
                if depth < top.depth:
                    self._pop()
                    continue
                if strict:
                    raise TOONError(
                        f"line is indented to depth {depth}, but its scope holds depth {top.depth}"
                    )
                top = None
                break
            if top is None:
                index += 1
                continue
            if top.kind == _TRAIL:
                if strict:
                    raise TOONError("unexpected content after the root array or object")
                return
            if strict and self.open_spans and self.blank_before[index]:
                raise TOONError("blank line inside an array", line=self.blank_before[index])
            if top.kind == _OBJECT:
                index = self._field(top, contents[index], depth, index, True)
            else:
                index = self._item(top, index)

    def _pop(self) -> None:
        frame = self.stack.pop()
        if frame.kind == _LIST:
            items = frame.value
            if items:
                self.open_spans -= 1
            if self.strict and len(items) != frame.expected:
                raise count_error("array", frame.expected, "items", len(items), frame.line)

    def _close_all(self) -> None:
        while self.stack and self.stack[-1].kind != _TRAIL:
            self._pop()

    # ------------------------------------------------------------ lines

    def _field(self, frame: _Frame, content: str, depth: int, index: int, headers: bool) -> int:
        """Add the field on line ``index`` to the object of ``frame``.

        ``depth`` is the depth the field stands at (one more than the hyphen
        line for the first field of a list item).  Returns the next line index.
        """
        target: dict[str, Any] = frame.value
        if headers and "[" in content:
            header = parse_header(content, strict=self.strict)
            if header is not None:
                if header.key is not None:
                    if self.strict and header.key in target:
                        raise TOONError(f"duplicate key {echo(header.key)}")
                    return self._open(header, target, header.key, depth, frame.level + 1, index)
                if self.strict:
                    raise TOONError(
                        "an array header without a key is only allowed at the root or as a list item"
                    )
        colon = content.find(":")
        if colon > 0 and content[0] != '"':  # the common case: a bare key
            key = content[:colon].strip(" ")
            rest = content[colon + 1 :].strip(" ")
        else:
            key, rest = _split_key(content)
        if self.strict and key in target:
            raise TOONError(f"duplicate key {echo(key)}")
        if self.positions is not None:
            self.positions.key(target, key, self.numbers[index])
        if not rest:
            level = frame.level + 1
            _check_level(level)
            child: dict[str, Any] = {}
            target[key] = child
            self.stack.append(_Frame(_OBJECT, child, depth + 1, depth, True, level))
        elif rest == "[]":
            _check_level(frame.level + 1)
            target[key] = []
        else:
            target[key] = parse_primitive(rest)
            if self.positions is not None and self.positions.tokens is not None:
                self.positions.tokens[id(target), key] = (target, rest)
        return index + 1

    def _item(self, frame: _Frame, index: int) -> int:
        """Add the list item on line ``index`` to the array of ``frame``."""
        content = self.contents[index]
        depth = self.depths[index]
        if content[0] != "-" or content[1:2] not in ("", " "):
            if self.strict:
                raise TOONError(f"expected a list item '- ...', found {echo(content)}")
            return index + 1
        items: list[Any] = frame.value
        if not items:
            self.open_spans += 1
        if self.positions is not None:
            self.positions.item(items, self.numbers[index])
        level = frame.level + 1
        rest = content[2:].strip(" ")
        if not rest:
            _check_level(level)
            items.append({})
            return index + 1
        if rest == "[]":
            _check_level(level)
            items.append([])
            return index + 1
        header = parse_header(rest, strict=self.strict) if "[" in rest else None
        if header is not None:
            if header.key is None:
                if not header.keyed and header.fields is None:
                    return self._open(header, items, None, depth, level, index)
                if self.strict:
                    raise TOONError("a keyed or tabular header needs a key inside a list item")
            else:
                _check_level(level)
                first: dict[str, Any] = {}
                items.append(first)
                self.stack.append(_Frame(_OBJECT, first, depth + 1, depth, False, level))
                return self._open(header, first, header.key, depth + 1, level + 1, index)
        if _is_key_value(rest):
            _check_level(level)
            obj: dict[str, Any] = {}
            items.append(obj)
            item_frame = _Frame(_OBJECT, obj, depth + 1, depth, False, level)
            self.stack.append(item_frame)
            return self._field(item_frame, rest, depth + 1, index, False)
        if self.positions is not None and self.positions.tokens is not None:
            self.positions.tokens[id(items), len(items)] = (items, rest)
        items.append(parse_primitive(rest))
        return index + 1

    # ------------------------------------------------------------ arrays

    def _open(
        self,
        header: Header,
        parent: Any,
        key: str | None,
        depth: int,
        level: int,
        index: int,
    ) -> int:
        """Decode the array or keyed object a header line opens.

        The value is stored under ``key`` in ``parent`` (a dict), or appended
        to ``parent`` (a list) when ``key`` is ``None``.  ``depth`` is the
        depth the header stands at; its rows or items are one deeper.
        Returns the index of the first line after what was consumed.
        """
        _check_level(level)
        value: Any
        following = index + 1
        if header.keyed:
            value = {}
            following = self._entry_rows(header, value, depth, level, index)
        elif header.fields is not None:
            value = []
            following = self._table_rows(header, value, depth, level, index)
        elif header.inline:
            tokens = split_cells(header.inline, header.delimiter)
            value = parse_column(tokens)
            if self.positions is not None and self.positions.tokens is not None:
                for position, token in enumerate(tokens):
                    self.positions.tokens[id(value), position] = (value, token)
            if self.strict and len(value) != header.length:
                raise count_error("array", header.length, "values", len(value))
        else:
            value = []
            self.stack.append(
                _Frame(
                    _LIST, value, depth + 1, depth, True, level, header.length, self.numbers[index]
                )
            )
        if key is None:
            parent.append(value)
        else:
            parent[key] = value
            if self.positions is not None:
                self.positions.key(parent, key, self.numbers[index])
        return following

    def _row_depth(self, index: int, row_depth: int, started: bool) -> int:
        """Handle a line deeper than the header but not at row depth.

        Returns the row depth to use, or -1 to skip the line (non-strict).
        """
        depth = self.depths[index]
        if self.strict:
            raise row_depth_error(depth, row_depth, started)
        return -1 if started else depth

    def _table_rows(
        self, header: Header, rows: list[Any], depth: int, level: int, index: int
    ) -> int:
        """Read the rows under a tabular header into ``rows``; return the next line index.

        The row lines are collected first, then split and converted column by
        column (see :func:`split_table` and :func:`parse_column`).
        """
        layout = header.layout
        assert layout is not None
        _check_level(level + layout.nesting)
        strict = self.strict
        depths = self.depths
        contents = self.contents
        blank_before = self.blank_before
        delimiter = header.delimiter
        texts: list[str] = []
        row_lines: list[int] = []
        row_depth = depth + 1
        count = len(contents)
        line_no = index + 1
        while line_no < count:
            line_depth = depths[line_no]
            if line_depth <= depth:
                break
            if line_depth != row_depth:
                self.index = line_no
                adopted = self._row_depth(line_no, row_depth, bool(texts))
                if adopted < 0:
                    line_no += 1
                    continue
                row_depth = adopted
            if strict and blank_before[line_no] and (texts or self.open_spans):
                raise TOONError("blank line inside an array", line=blank_before[line_no])
            line = contents[line_no]
            if ends_rows(line, delimiter):
                break
            texts.append(line)
            row_lines.append(line_no)
            line_no += 1
        try:
            columns = split_table(texts, delimiter, layout.width, pad=not strict)
        except TOONError as exc:
            assert exc.row is not None
            raise TOONError(
                exc.reason,
                line=self.numbers[row_lines[exc.row - 1]],
                section=header.key,
                row=exc.row,
            ) from None
        if strict and len(texts) != header.length:
            self.index = index
            raise count_error("table", header.length, "rows", len(texts))
        if texts and layout.objects > 1:
            self.index = index
            try:
                check_objects(len(texts) * layout.objects, sum(map(len, texts)))
            except TOONError as exc:
                raise TOONError(exc.reason, section=header.key) from None
        if texts:
            try:
                values = [parse_column(column) for column in columns]
            except TOONError:
                self._raise_at_bad_cell(columns, row_lines, header.key)
                raise
            names = layout.names
            start = len(rows)
            if names is not None:
                rows.extend(map(dict, map(zip, repeat(names), zip(*values))))
            else:
                rows.extend(map(layout.build, zip(*values)))
            if self.positions is not None:
                for row_line in row_lines:
                    self.positions.item(rows, self.numbers[row_line])
                tokens = self.positions.tokens
                if tokens is not None and names is not None:
                    for offset, row in enumerate(rows[start:]):
                        for name, column in zip(names, columns):
                            tokens[id(row), name] = (row, column[offset])
        return line_no

    def _raise_at_bad_cell(
        self, columns: list[list[str]], row_lines: list[int], section: str | None
    ) -> None:
        """Re-read a table cell by cell to raise the first bad cell's error with its line."""
        for row, line_no in enumerate(row_lines):
            try:
                for column in columns:
                    parse_primitive(column[row])
            except TOONError as exc:
                raise TOONError(
                    exc.reason, line=self.numbers[line_no], section=section, row=row + 1
                ) from None

    def _entry_rows(
        self, header: Header, entries: dict[str, Any], depth: int, level: int, index: int
    ) -> int:
        layout = header.layout
        assert layout is not None
        _check_level(level + layout.nesting)
        strict = self.strict
        depths = self.depths
        contents = self.contents
        blank_before = self.blank_before
        delimiter = header.delimiter
        width = layout.width
        row_depth = depth + 1
        count = len(contents)
        seen = 0
        built = chars = 0  # objects built, and characters of rows read
        line_no = index + 1
        while line_no < count:
            line_depth = depths[line_no]
            if line_depth <= depth:
                break
            self.index = line_no
            if line_depth != row_depth:
                adopted = self._row_depth(line_no, row_depth, bool(seen))
                if adopted < 0:
                    line_no += 1
                    continue
                row_depth = adopted
            if strict and blank_before[line_no] and (seen or self.open_spans):
                raise TOONError("blank line inside a keyed table", line=blank_before[line_no])
            line = contents[line_no]
            if not _is_key_value(line):
                if strict:
                    raise TOONError(f"expected an entry row 'key: cells', found {echo(line)}")
                line_no += 1
                continue
            key, rest = _split_key(line)
            cells = split_cells(rest, delimiter) if rest else []
            if len(cells) != width:
                if strict:
                    raise width_error(width, len(cells), section=header.key, row=seen + 1)
                cells = cells[:width]
            values: list[Any] = [parse_primitive(cell) for cell in cells]
            values.extend([None] * (width - len(values)))
            if strict and key in entries:
                raise TOONError(f"duplicate key {echo(key)}", section=header.key, row=seen + 1)
            built += layout.objects
            chars += len(line)
            if built > OBJECT_ALLOWANCE:
                try:
                    check_objects(built, chars)
                except TOONError as exc:
                    self.index = index
                    raise TOONError(exc.reason, section=header.key) from None
            entries[key] = layout.build(values)
            if self.positions is not None:
                self.positions.key(entries, key, self.numbers[line_no])
            seen += 1
            line_no += 1
        if strict and seen != header.length:
            self.index = index
            raise count_error("keyed table", header.length, "entries", seen)
        return line_no
