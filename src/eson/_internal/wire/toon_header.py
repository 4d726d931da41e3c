"""TOON array headers: ``key[N]:``, ``key[N|]{a|b{c|d}}:`` and keyed ``key[N:]{a,b}:``.

A header names a key (or none, at the root and for list items), declares a
length, the active delimiter, optionally a field list whose entries may carry
nested field groups, and, with a colon after the length, the keyed tabular
form of an object.  This module formats and parses headers and maps a row of
leaf cells onto the object the field list describes.

Field lists are trees of :class:`HeaderField`; ``customer{name,country}`` is
``HeaderField("customer", (HeaderField("name"), HeaderField("country")))``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from eson._internal.wire.toon_lexicon import (
    COUNT_SOURCE,
    DELIMITER_SYMBOL_SOURCE,
    DELIMITERS,
    QUOTED_SOURCE,
)
from eson._internal.wire.toon_limits import MAX_DEPTH, MAX_INT_DIGITS
from eson._internal.wire.toon_quoting import format_key, parse_quoted
from eson._internal.wire.toon_scanner import find_unquoted
from eson.errors import TOONError, echo


class HeaderField(NamedTuple):
    """One entry of a field list: a name, and the subfields of a nested group.

    ``children`` is ``None`` for a leaf field (one cell per row) and a
    non-empty tuple for a nested field group.
    """

    name: str
    children: tuple[HeaderField, ...] | None = None


_LEAF, _OPEN, _CLOSE = 0, 1, 2


class RowLayout:
    """How the leaf cells of one row become an object, for a given field list.

    Attributes:
        width: Number of leaf fields, i.e. cells per row.
        nesting: How many object levels a row adds below the array: 1 for
            flat field lists, more with nested field groups.
        objects: How many objects one row builds: 1, plus one per nested
            field group.
        names: The leaf names in order when the list has no nested groups,
            else ``None``.
    """

    __slots__ = ("_ops", "names", "nesting", "objects", "width")

    def __init__(self, fields: Sequence[HeaderField]) -> None:
        ops: list[tuple[int, str]] = []
        width = 0
        nesting = 1
        stack = [iter(fields)]
        while stack:
            field = next(stack[-1], None)
            if field is None:
                stack.pop()
                if stack:
                    ops.append((_CLOSE, ""))
                continue
            if field.children is None:
                ops.append((_LEAF, field.name))
                width += 1
            else:
                ops.append((_OPEN, field.name))
                stack.append(iter(field.children))
                nesting = max(nesting, len(stack))
        self.width = width
        self.nesting = nesting
        self.objects = 1 + sum(1 for op, _ in ops if op == _OPEN)
        self.names: tuple[str, ...] | None = (
            tuple(name for _, name in ops) if nesting == 1 else None
        )
        self._ops = tuple(ops)

    def build(self, cells: Sequence[Any]) -> dict[str, Any]:
        """Return the object for one row; ``cells`` must hold ``width`` values.

        Keys follow the field-list order at every level; a repeated name keeps
        its first position and its last value.
        """
        if self.names is not None:
            return dict(zip(self.names, cells))
        root: dict[str, Any] = {}
        current = root
        parents: list[dict[str, Any]] = []
        index = 0
        for op, name in self._ops:
            if op == _LEAF:
                current[name] = cells[index]
                index += 1
            elif op == _OPEN:
                child: dict[str, Any] = {}
                current[name] = child
                parents.append(current)
                current = child
            else:
                current = parents.pop()
        return root


@dataclass(frozen=True, slots=True)
class Header:
    """A parsed header line.

    Attributes:
        key: The decoded key, or ``None`` for a keyless header (``[3]: ...``).
        length: The declared length ``N`` (entry count for keyed headers).
        delimiter: The active delimiter: ``","``, ``"\\t"`` or ``"|"``.
        fields: The field list, or ``None`` when the header has none.
        keyed: Whether this is a keyed tabular header (``[N:]``).
        inline: The text after the colon, trimmed of spaces (inline values of
            a primitive array); ``""`` when there is none.
        layout: The :class:`RowLayout` of ``fields``, or ``None``.
    """

    key: str | None
    length: int
    delimiter: str
    fields: tuple[HeaderField, ...] | None
    keyed: bool
    inline: str
    layout: RowLayout | None


def format_fields(fields: Sequence[HeaderField], delimiter: str = ",") -> str:
    """Return the inside of a fields segment, e.g. ``id,customer{name,country}``."""
    parts = []
    for field in fields:
        name = format_key(field.name)
        if field.children is not None:
            name += "{" + format_fields(field.children, delimiter) + "}"
        parts.append(name)
    return delimiter.join(parts)


def format_header(
    key: str | None,
    length: int,
    *,
    delimiter: str = ",",
    fields: Sequence[HeaderField] | None = None,
    keyed: bool = False,
) -> str:
    """Return a header line's content, ending with its colon.

    >>> format_header("users", 2, fields=[HeaderField("id"), HeaderField("name")])
    'users[2]{id,name}:'
    >>> format_header(None, 3, delimiter="|")
    '[3|]:'
    """
    head = "" if key is None else format_key(key)
    head += f"[{length}{':' if keyed else ''}{'' if delimiter == ',' else delimiter}]"
    if fields:
        head += "{" + format_fields(fields, delimiter) + "}"
    return head + ":"


# ------------------------------------------------------------------ parsing

# A possible key before the bracket: a quoted string, or a run without
# spaces, quotes, "[" and ":" (empty for keyless headers).
_HEADER_KEY = re.compile(rf'{QUOTED_SOURCE}|[^ "\[:]*', re.S)
_BRACKET = re.compile(rf"\[({COUNT_SOURCE})(:?)({DELIMITER_SYMBOL_SOURCE})\]")
_FIELD_TOKEN = {
    d: re.compile(rf'{QUOTED_SOURCE}?|[{{}}]|{re.escape(d)}|[^"{{}}{re.escape(d)}]+', re.S)
    for d in DELIMITERS
}


class _MalformedHeaderError(Exception):
    """A line that tries to be a header but breaks the header grammar."""


def _field_name(pieces: list[str]) -> tuple[str, bool]:
    """Return a field name from its raw pieces, and whether it was quoted."""
    raw = "".join(pieces).strip(" ")
    if not raw:
        raise _MalformedHeaderError("empty field name in field list")
    if raw[0] == '"':
        return parse_quoted(raw), True
    return raw, False


def _parse_fields(
    content: str, start: int, delimiter: str, strict: bool
) -> tuple[tuple[HeaderField, ...], int]:
    """Parse the fields segment opening at ``content[start] == "{"``.

    Returns the field tuple and the index just after the closing brace.
    """
    tokens = _FIELD_TOKEN[delimiter]
    others = [d for d in DELIMITERS if d != delimiter]
    outer: list[tuple[list[HeaderField], str]] = []
    entries: list[HeaderField] = []
    pieces: list[str] = []
    closed: HeaderField | None = None
    pos = start + 1
    while True:
        match = tokens.match(content, pos)
        if match is None:
            raise _MalformedHeaderError("unmatched '{' in field list")
        token = match.group()
        pos = match.end()
        if token == "{":
            if closed is not None:
                raise _MalformedHeaderError("text after a nested field group")
            name, quoted = _field_name(pieces)
            if not quoted and any(d in name for d in others):
                raise _MalformedHeaderError(
                    "field list uses a different delimiter than the bracket"
                )
            outer.append((entries, name))
            if len(outer) > MAX_DEPTH:
                raise TOONError(f"field groups nest deeper than {MAX_DEPTH} levels")
            entries, pieces = [], []
        elif token == "}" or token == delimiter:
            if closed is not None:
                entries.append(closed)
            elif pieces:
                name, quoted = _field_name(pieces)
                if not quoted and any(d in name for d in others):
                    raise _MalformedHeaderError(
                        "field list uses a different delimiter than the bracket"
                    )
                entries.append(HeaderField(name))
            else:
                raise _MalformedHeaderError(
                    "empty field list"
                    if token == "}" and not entries
                    else "empty field name in field list"
                )
            closed, pieces = None, []
            if token == "}":
                if strict and len({f.name for f in entries}) != len(entries):
                    raise _MalformedHeaderError("duplicate field name in field list")
                if not outer:
                    return tuple(entries), pos
                parent, name = outer.pop()
                closed = HeaderField(name, tuple(entries))
                entries = parent
        elif closed is not None:
            if token.strip(" "):
                raise _MalformedHeaderError("text after a nested field group")
        else:
            pieces.append(token)


def parse_header(content: str, *, strict: bool = True) -> Header | None:
    """Parse a line's content as a header, or return ``None`` if it is not one.

    A line is taken for a header when it starts with a key (quoted, or a bare
    run without spaces, quotes and colons; possibly empty) directly followed
    by ``[``, with a closing ``]`` and, after that, a colon.  Any other line
    is not a header (``None``): a key-value line such as ``foo [2]: x``,
    ``a: b[1]`` or ``k[x: 1``, or a bare token such as ``[2]``.

    Args:
        content: The line without indentation (for a list item, the text
            after ``"- "``).
        strict: In strict mode a malformed header (bad length, text between
            the bracket and the colon, an empty or unbalanced field list, a
            delimiter mismatch, a keyed header without fields, inline values
            after a field list, duplicate field names) raises; otherwise the
            line is reported as not a header, so it falls through to a
            key-value line.

    Raises:
        TOONError: for a malformed header in strict mode, or a malformed
            quoted key or field name in either mode.
    """
    match = _HEADER_KEY.match(content)
    bracket = match.end() if match is not None else 0
    if bracket >= len(content) or content[bracket] != "[":
        return None
    close = find_unquoted(content, "]", bracket)
    if close < 0 or content.find(":", close) < 0:
        return None  # no closing bracket ("k[x: 1"), or no colon after it ("[2]")
    try:
        return _parse_header(content, bracket, strict)
    except _MalformedHeaderError as exc:
        if strict:
            raise TOONError(str(exc)) from None
        return None


def _parse_header(content: str, bracket: int, strict: bool) -> Header:
    segment = _BRACKET.match(content, bracket)
    if segment is None:
        close = content.find("]", bracket)
        shown = (
            content[bracket : close + 1]
            if 0 < close < bracket + 40
            else content[bracket : bracket + 12]
        )
        inside = shown[1:-1] if shown.endswith("]") else ""
        if inside and not any(char.isdigit() for char in inside):
            # a layout's "N" (or "n", "count", "...") copied literally
            name = content[:bracket] if bracket <= 40 else content[:37] + "..."
            raise _MalformedHeaderError(
                f"invalid bracket segment {echo(shown)}: the count must be the number of "
                f"rows or items that follow, in digits: write {name}[3] for 3 of them"
            )
        raise _MalformedHeaderError(
            f"invalid bracket segment {echo(shown)}: expected [N], [N|], [N\\t] or [N:...]"
        )
    digits = segment.group(1)
    if len(digits) > MAX_INT_DIGITS:
        raise TOONError("declared length is too large")
    keyed = bool(segment.group(2))
    delimiter = segment.group(3) or ","
    pos = segment.end()
    fields: tuple[HeaderField, ...] | None = None
    if pos < len(content) and content[pos] == "{":
        fields, pos = _parse_fields(content, pos, delimiter, strict)
    if pos >= len(content) or content[pos] != ":":
        raise _MalformedHeaderError("expected ':' right after the header's bracket or field list")
    inline = content[pos + 1 :].strip(" ")
    if keyed and fields is None:
        raise _MalformedHeaderError("a keyed header [N:] needs a field list")
    if fields is not None and inline:
        raise _MalformedHeaderError("a header with a field list takes no values after its colon")
    key: str | None = None
    if bracket:
        raw = content[:bracket]
        key = parse_quoted(raw) if raw[0] == '"' else raw
    layout = RowLayout(fields) if fields is not None else None
    return Header(key, int(digits), delimiter, fields, keyed, inline, layout)
