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
from collections.abc import Iterable, Sequence
from itertools import repeat
from typing import Any, Protocol

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
    scan_into,
    split_cells,
    split_table,
    text_lines,
    width_error,
)
from eson.errors import TOONError, echo

_OBJECT, _LIST, _TRAIL, _TABLE, _KEYED = 0, 1, 2, 3, 4
#: The words of a count error, by the kind of frame whose count is checked.
_COUNTED = {_LIST: ("array", "items"), _TABLE: ("table", "rows"), _KEYED: ("keyed table", "entries")}
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
    scanned = ScannedLines([], [], [], [])
    try:
        scan_into(scanned, text_lines(text, lf_only), indent_size, strict)
    except TOONError as exc:
        error = exc
    else:
        return _Parser(scanned, strict, level, positions, fields).parse()
    # A stream reads the lines before a malformed one first, so an error
    # among them comes first: the whole text reports what a stream does.
    _Parser(scanned, strict, level, positions, fields).parse(complete=False)
    raise error


class _Frame:
    """An open object, list array, table or keyed table on the parser's stack."""

    __slots__ = (
        "count",
        "depth",
        "expected",
        "fresh",
        "header",
        "key",
        "kind",
        "level",
        "line",
        "mark",
        "parent_depth",
        "size",
        "value",
    )

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
        header: Header | None = None,
        key: str | None = None,
    ) -> None:
        self.kind = kind
        self.value = value
        self.depth = depth  # depth of the lines this frame takes (a table's: its rows')
        self.parent_depth = parent_depth  # depth of the line that opened it
        self.fresh = fresh  # no line taken yet (its first line may set ``depth``)
        self.level = level  # container nesting of ``value`` (root = 1)
        self.expected = expected  # declared length, for arrays and keyed tables
        self.line = line  # line number of the line that opened it
        self.header = header  # a table's or keyed table's header
        self.key = key  # (a stream) the top-level entry whose value this is
        self.count = 0  # rows, items or entries read
        self.size = 0  # characters of the rows read (the object allowance)
        self.mark = 0  # (a stream's list) the line of its open item


class EntrySink(Protocol):
    """What a parser fed line by line (:class:`LineParser`) reports of the top-level entries."""

    def start(self, key: str, line: int) -> None:
        """A top-level entry ``key`` begins on ``line``."""

    def row(
        self, key: str, value: Any, row: int, line: int, cells: list[str] | None, text: None
    ) -> None:
        """Row ``row`` of the top-level table ``key``, on ``line``: its value and cell tokens.

        (``text`` is always ``None``: the row is its cells; the signature is a
        stream target's, which takes the row straight from the parser.)
        """

    def item(self, key: str, value: Any, row: int, line: int) -> None:
        """Item ``row`` of the top-level list ``key``, which began on ``line``, is complete."""

    def value(self, key: str, value: Any, line: int) -> None:
        """The value of any other top-level entry ``key`` (begun on ``line``) is complete."""

    def end(self, key: str, count: int) -> None:
        """The top-level table or list ``key`` ended, with ``count`` rows or items."""


def _indented_first() -> TOONError:
    return TOONError("the first line of the document must not be indented")


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
    """One decoding run over scanned lines: all at once (:meth:`parse`) or as they come.

    Open containers are frames on a stack; each line goes to the innermost
    frame that takes its depth, and a frame is closed (its count checked)
    when a line dedents past it.  A table's or keyed table's rows are read
    by its frame in one batch of the lines at hand: the whole text's rows
    at once, a stream's as they arrive (:class:`LineParser`).
    """

    def __init__(
        self,
        lines: ScannedLines,
        strict: bool,
        level: int = 1,
        positions: Positions | None = None,
        fields: bool = False,
        sink: EntrySink | None = None,
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
        #: (a stream) Reports the top-level entries of the root object.
        self.sink = sink
        self.root: dict[str, Any] | None = None

    # ------------------------------------------------------------ driver

    def parse(self, complete: bool = True) -> Any:
        """The document's value (``complete=False``: read the lines, end nothing).

        Raises:
            TOONError: for malformed text, with its line.
        """
        try:
            return self._parse(complete)
        except TOONError as exc:
            raise self._placed(exc) from None

    def _placed(self, exc: TOONError, line: int | None = None) -> TOONError:
        """``exc`` with ``line`` (else the line being worked on), when it has no line of its own."""
        if exc.line is not None or (line is None and not self.numbers):
            return exc
        if line is None:
            line = self.numbers[min(self.index, len(self.numbers) - 1)]
        return TOONError(exc.reason, line=line, section=exc.section, row=exc.row, field=exc.field)

    def _parse(self, complete: bool) -> Any:
        contents = self.contents
        count = len(contents)
        if count == 0:
            return {}
        if self.depths[0]:
            if self.strict:
                raise _indented_first()
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
                if complete:
                    self._close_all()
                return holder[0]
        if count == 1 and not self.fields and not _is_key_value(first):
            return parse_primitive(first.rstrip(" "))
        root = self._root_object()
        self._run(0)
        if complete:
            self._close_all()
        return root

    def _root_object(self) -> dict[str, Any]:
        root: dict[str, Any] = {}
        self.root = root
        self.stack.append(_Frame(_OBJECT, root, 0, -1, False, self.level))
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
                kind = top.kind
                if kind == _TRAIL:
                    break
                if kind >= _TABLE:  # a table's rows: any line deeper than its header
                    if depth > top.parent_depth:
                        break
                    self._pop()
                    continue
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
            kind = top.kind
            if kind == _TABLE:
                index = self._table_rows(top, index)
                continue
            if kind == _KEYED:
                index = self._entry_rows(top, index)
                continue
            if kind == _TRAIL:
                if strict:
                    raise TOONError("unexpected content after the root array or object")
                return
            if strict and self.open_spans and self.blank_before[index]:
                raise TOONError("blank line inside an array", line=self.blank_before[index])
            if kind == _OBJECT:
                index = self._field(top, contents[index], depth, index, True)
            else:
                index = self._item(top, index)

    def _pop(self) -> None:
        frame = self.stack.pop()
        kind = frame.kind
        if kind == _LIST and frame.count:
            self.open_spans -= 1
            if frame.key is not None:
                self._report_item(frame)
        counted = _COUNTED.get(kind)
        if counted is not None and self.strict and frame.count != frame.expected:
            raise count_error(counted[0], frame.expected, counted[1], frame.count, frame.line)
        if frame.key is not None:
            assert self.sink is not None
            if kind in (_LIST, _TABLE):
                self.sink.end(frame.key, frame.count)
            else:
                self._report(frame.key, frame.value, frame.line)

    def _close_all(self) -> None:
        while self.stack and self.stack[-1].kind != _TRAIL:
            self._pop()

    # ------------------------------------------------------------ a stream's entries

    def _report(self, key: str, value: Any, line: int) -> None:
        """(a stream) A top-level entry is complete: report it, and keep only its key."""
        assert self.sink is not None and self.root is not None
        self.root[key] = None  # the key stays, for the duplicate check
        self.sink.value(key, value, line)

    def _report_item(self, frame: _Frame) -> None:
        """(a stream) The open item of a top-level list is complete: report it, keep none."""
        assert self.sink is not None and frame.key is not None
        items: list[Any] = frame.value
        self.sink.item(frame.key, items[-1], frame.count, frame.mark)
        items.clear()

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
        top = self.sink is not None and target is self.root
        if top:
            assert self.sink is not None
            self.sink.start(key, self.numbers[index])
        if not rest:
            level = frame.level + 1
            _check_level(level)
            child: dict[str, Any] = {}
            target[key] = child
            self.stack.append(
                _Frame(
                    _OBJECT,
                    child,
                    depth + 1,
                    depth,
                    True,
                    level,
                    line=self.numbers[index],
                    key=key if top else None,
                )
            )
            return index + 1
        if rest == "[]":
            _check_level(frame.level + 1)
            target[key] = []
        else:
            target[key] = parse_primitive(rest)
            if self.positions is not None and self.positions.tokens is not None:
                self.positions.tokens[id(target), key] = (target, rest)
        if top:
            self._report(key, target[key], self.numbers[index])
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
        if not frame.count:
            self.open_spans += 1
        elif frame.key is not None:
            self._report_item(frame)
        frame.count += 1
        frame.mark = self.numbers[index]
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
        """Open the array or keyed object a header line begins.

        The value is stored under ``key`` in ``parent`` (a dict), or appended
        to ``parent`` (a list) when ``key`` is ``None``.  ``depth`` is the
        depth the header stands at; its rows or items are one deeper, and go
        to the frame pushed here.  Returns the index of the next line.
        """
        _check_level(level)
        line = self.numbers[index]
        top = key if self.sink is not None and parent is self.root else None
        if top is not None:
            assert self.sink is not None
            self.sink.start(top, line)
        value: Any
        if header.keyed or header.fields is not None:
            layout = header.layout
            assert layout is not None
            _check_level(level + layout.nesting)
            value = {} if header.keyed else []
            frame_kind = _KEYED if header.keyed else _TABLE
            self.stack.append(
                _Frame(
                    frame_kind, value, depth + 1, depth, True, level, header.length, line, header, top
                )
            )
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
                _Frame(_LIST, value, depth + 1, depth, True, level, header.length, line, key=top)
            )
        if key is None:
            parent.append(value)
        else:
            parent[key] = value
            if self.positions is not None:
                self.positions.key(parent, key, line)
        if top is not None and header.inline:
            self._report(top, value, line)
        return index + 1

    def _row_depth(self, index: int, row_depth: int, started: bool) -> int:
        """Handle a line deeper than the header but not at row depth.

        Returns the row depth to use, or -1 to skip the line (non-strict).
        """
        depth = self.depths[index]
        if self.strict:
            raise row_depth_error(depth, row_depth, started)
        return -1 if started else depth

    def _table_rows(self, frame: _Frame, index: int) -> int:
        """Read the rows at hand of the table of ``frame``, from line ``index``; return the next index.

        The row lines are collected first, then split and converted column by
        column (see :func:`split_table` and :func:`parse_column`).  A line
        at the header's depth or less, or a ``key: ...`` line, ends the table.
        """
        header = frame.header
        assert header is not None and header.layout is not None
        strict = self.strict
        depths = self.depths
        contents = self.contents
        blank_before = self.blank_before
        delimiter = header.delimiter
        count = len(contents)
        if (  # one plain row at hand (a stream's line): what the loop below would take
            count == index + 1
            and depths[index] == frame.depth
            and not blank_before[index]
            and not ends_rows(contents[index], delimiter)
        ):
            self._take_row(frame, contents[index], self.numbers[index], index)
            return count
        texts: list[str] = []
        row_lines: list[int] = []
        depth = frame.parent_depth
        row_depth = frame.depth
        line_no = index
        ended = False
        try:
            while line_no < count:
                line_depth = depths[line_no]
                if line_depth <= depth:
                    ended = True
                    break
                if line_depth != row_depth:
                    self.index = line_no
                    adopted = self._row_depth(line_no, row_depth, bool(texts or frame.count))
                    if adopted < 0:
                        line_no += 1
                        continue
                    row_depth = frame.depth = adopted
                if strict and blank_before[line_no] and (texts or frame.count or self.open_spans):
                    raise TOONError("blank line inside an array", line=blank_before[line_no])
                line = contents[line_no]
                if ends_rows(line, delimiter):
                    ended = True
                    break
                texts.append(line)
                row_lines.append(line_no)
                line_no += 1
        except TOONError:
            self._take_rows(frame, texts, row_lines)  # a row before the bad line fails first
            raise
        self._take_rows(frame, texts, row_lines)
        if ended:
            self._pop()  # the frame is the top
        return line_no

    def _take_rows(self, frame: _Frame, texts: list[str], row_lines: list[int]) -> None:
        """Split, check and convert a batch of a table's rows (the count is checked at its end).

        A batch of one row (a stream's, which reads a line at a time) is
        read as one row (:meth:`_take_row`); a longer one column by column.
        """
        if len(texts) == 1:
            self._take_row(frame, texts[0], self.numbers[row_lines[0]], row_lines[0])
            return
        header = frame.header
        assert header is not None
        layout = header.layout
        assert layout is not None
        first = frame.count
        try:
            columns = split_table(texts, header.delimiter, layout.width, pad=not self.strict)
        except TOONError as exc:
            bad = exc.row
            assert bad is not None
            error = TOONError(
                exc.reason, line=self.numbers[row_lines[bad - 1]], section=header.key, row=first + bad
            )
            if bad > 1:  # the rows before it first, as a stream reads them
                self._take_rows(frame, texts[: bad - 1], row_lines[: bad - 1])
            raise error from None
        frame.count += len(texts)
        if texts and layout.objects > 1:
            frame.size += sum(map(len, texts))
            try:
                check_objects(frame.count * layout.objects, frame.size)
            except TOONError as exc:
                raise TOONError(exc.reason, line=frame.line, section=header.key) from None
        if not texts:
            return
        names = layout.names
        assert frame.key is None  # (a stream reads a row at a time)
        try:
            values = [parse_column(column) for column in columns]
        except TOONError:
            self._raise_at_bad_cell(columns, row_lines, header.key, first)
            raise
        built: Iterable[Any] = (
            map(dict, map(zip, repeat(names), zip(*values)))
            if names is not None
            else map(layout.build, zip(*values))
        )
        self._keep_rows(frame.value, built, row_lines, zip(*columns), names)

    def _take_row(self, frame: _Frame, text: str, number: int, index: int) -> None:
        """Split, check and convert one row of a table: line ``number``, at ``index`` of the lines.

        (A stream's top-level table hands the row to the sink, and ``index``
        is unused there.)
        """
        header = frame.header
        assert header is not None
        layout = header.layout
        assert layout is not None
        row = frame.count + 1
        cells = split_cells(text, header.delimiter)  # what split_table does to one row
        width = layout.width
        if len(cells) != width:
            if self.strict:
                raise width_error(width, len(cells), line=number, section=header.key, row=row)
            cells = (cells + ["null"] * width)[:width]
        frame.count = row
        if layout.objects > 1:
            frame.size += len(text)
            try:
                check_objects(row * layout.objects, frame.size)
            except TOONError as exc:
                raise TOONError(exc.reason, line=frame.line, section=header.key) from None
        try:
            values = list(map(parse_primitive, cells))
        except TOONError as exc:
            raise TOONError(exc.reason, line=number, section=header.key, row=row) from None
        names = layout.names
        value = dict(zip(names, values)) if names is not None else layout.build(values)
        if frame.key is not None:  # a stream's top-level table: the row goes to the sink
            assert self.sink is not None
            self.sink.row(frame.key, value, row, number, cells, None)
            return
        self._keep_rows(frame.value, [value], [index], [cells], names)

    def _keep_rows(
        self,
        rows: list[Any],
        built: Iterable[Any],
        row_lines: list[int],
        cells: Iterable[Sequence[str]],
        names: Sequence[str] | None,
    ) -> None:
        """Append a table's rows to its value, and (``positions``) their lines and tokens."""
        start = len(rows)
        rows.extend(built)
        if self.positions is None:
            return
        for row_line in row_lines:
            self.positions.item(rows, self.numbers[row_line])
        tokens = self.positions.tokens
        if tokens is not None and names is not None:
            for row, row_cells in zip(rows[start:], cells):
                for name, cell in zip(names, row_cells):
                    tokens[id(row), name] = (row, cell)

    def _raise_at_bad_cell(
        self, columns: list[list[str]], row_lines: list[int], section: str | None, first: int
    ) -> None:
        """Re-read a table cell by cell to raise the first bad cell's error with its line."""
        for row, line_no in enumerate(row_lines):
            try:
                for column in columns:
                    parse_primitive(column[row])
            except TOONError as exc:
                raise TOONError(
                    exc.reason, line=self.numbers[line_no], section=section, row=first + row + 1
                ) from None

    def _entry_rows(self, frame: _Frame, index: int) -> int:
        """Read the entry rows at hand of the keyed table of ``frame``; return the next index."""
        header = frame.header
        assert header is not None
        layout = header.layout
        assert layout is not None
        strict = self.strict
        depths = self.depths
        contents = self.contents
        blank_before = self.blank_before
        delimiter = header.delimiter
        width = layout.width
        entries: dict[str, Any] = frame.value
        depth = frame.parent_depth
        row_depth = frame.depth
        count = len(contents)
        line_no = index
        while line_no < count:
            line_depth = depths[line_no]
            if line_depth <= depth:
                self._pop()
                return line_no
            self.index = line_no
            if line_depth != row_depth:
                adopted = self._row_depth(line_no, row_depth, bool(frame.count))
                if adopted < 0:
                    line_no += 1
                    continue
                row_depth = frame.depth = adopted
            if strict and blank_before[line_no] and (frame.count or self.open_spans):
                raise TOONError("blank line inside a keyed table", line=blank_before[line_no])
            line = contents[line_no]
            if not _is_key_value(line):
                if strict:
                    raise TOONError(f"expected an entry row 'key: cells', found {echo(line)}")
                line_no += 1
                continue
            key, rest = _split_key(line)
            cells = split_cells(rest, delimiter) if rest else []
            row = frame.count + 1
            if len(cells) != width:
                if strict:
                    raise width_error(width, len(cells), section=header.key, row=row)
                cells = cells[:width]
            values: list[Any] = [parse_primitive(cell) for cell in cells]
            values.extend([None] * (width - len(values)))
            if strict and key in entries:
                raise TOONError(f"duplicate key {echo(key)}", section=header.key, row=row)
            frame.size += len(line)
            if row * layout.objects > OBJECT_ALLOWANCE:
                try:
                    check_objects(row * layout.objects, frame.size)
                except TOONError as exc:
                    raise TOONError(exc.reason, line=frame.line, section=header.key) from None
            entries[key] = layout.build(values)
            if self.positions is not None:
                self.positions.key(entries, key, self.numbers[line_no])
            frame.count = row
            line_no += 1
        return line_no


class LineParser:
    """The TOON parser fed a document's lines as they come: the stream's reader of an object.

    The same :class:`_Parser` that decodes a whole text, run on each line as
    it arrives: the document is read by construction as
    :func:`decode_text` reads it (strictly, as a root object), and each
    top-level entry, table row and list item goes to ``sink`` as soon as it
    is complete.  Nothing of a reported entry is kept.

    Args:
        sink: Receives the top-level entries.
        indent_size: Spaces per indentation level.
    """

    def __init__(self, sink: EntrySink, indent_size: int = 2) -> None:
        self.indent_size = indent_size_of(indent_size)
        self._lines = ScannedLines([], [], [], [])
        self._parser = parser = _Parser(self._lines, True, fields=True, sink=sink)
        parser._root_object()
        self._blank = 0  # the first blank line since the last content line

    @property
    def blank_pending(self) -> bool:
        """Whether a blank line came after the last content line."""
        return bool(self._blank)

    def scan(self, line: str, number: int) -> tuple[int, str] | None:
        """Classify line ``number``: its depth and content, or ``None`` (blank or comment).

        A content line waits for :meth:`run` (or :meth:`drop`).

        Raises:
            TOONError: for a tab in the indentation or an indentation that
                is no multiple of the indent size, with the line's number.
        """
        lines = self._lines
        self._blank = scan_into(lines, (line,), self.indent_size, True, number - 1, self._blank)
        if not lines.contents:
            return None
        return lines.depths[0], lines.contents[0]

    def row(self, line: str, number: int) -> bool:
        """Read line ``number`` as the open top-level table's next row, if it plainly is one.

        A line at the rows' indentation, with no blank line before it, that
        is no ``key: ...`` line, is the row :meth:`scan` and :meth:`run`
        would read (the same :meth:`_Parser._take_row`, the same errors),
        without the frame loop: a stream's rows are most of its lines.
        Returns ``False``, having read nothing, for any other line.

        Raises:
            TOONError: for a bad row, with its line, section and row.
        """
        if self._blank:
            return False
        parser = self._parser
        stack = parser.stack
        if len(stack) != 2:
            return False
        frame = stack[1]
        header = frame.header
        if frame.kind != _TABLE or frame.key is None or header is None:
            return False
        content = line.lstrip(" ")
        if (
            len(line) - len(content) != frame.depth * self.indent_size
            or not content
            or content[0] in "\t#"
            or ends_rows(content, header.delimiter)
        ):
            return False
        try:
            parser._take_row(frame, content, number, -1)
        except TOONError as exc:
            raise parser._placed(exc, number) from None
        return True

    def run(self) -> None:
        """Read the line :meth:`scan` classified as content.

        Raises:
            TOONError: for a line that cannot stand here, with its number
                (the whole-text parser's error for it).
        """
        lines = self._lines
        parser = self._parser
        try:
            if lines.depths[0] and not parser.root:
                raise _indented_first()
            parser._run(0)
        except TOONError as exc:
            raise parser._placed(exc) from None
        finally:
            self.drop()

    def drop(self) -> None:
        """Forget the line :meth:`scan` classified (it is not the object's)."""
        lines = self._lines
        lines.depths.clear()
        lines.contents.clear()
        lines.numbers.clear()
        lines.blank_before.clear()

    def finish(self, number: int) -> None:
        """The document ended after line ``number``: close every open entry (counts checked)."""
        parser = self._parser
        try:
            parser._close_all()
        except TOONError as exc:
            raise parser._placed(exc, number) from None

    @property
    def table(self) -> tuple[str, Header, int] | None:
        """The open top-level table: its key, header and rows read; else ``None``."""
        stack = self._parser.stack
        if len(stack) != 2:
            return None
        frame = stack[1]
        if frame.kind != _TABLE or frame.key is None or frame.header is None:
            return None
        return frame.key, frame.header, frame.count

    @property
    def keeps_lines(self) -> bool:
        """Whether a top-level entry other than a table is open (its lines are its text)."""
        stack = self._parser.stack
        return len(stack) > 1 and stack[1].kind != _TABLE

    def rows_read(self, rows: int) -> None:
        """Count ``rows`` more rows of the open top-level table, read elsewhere."""
        frame = self._parser.stack[1]
        assert frame.kind == _TABLE and 0 < rows <= frame.expected - frame.count
        frame.count += rows
