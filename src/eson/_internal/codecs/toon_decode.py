"""Reading TOON text into validated model instances: the typed fast path.

Typed decoding gives exactly what validating the untyped result gives::

    Model.model_validate(eson.toon.decode(text))       # Pydantic
    msgspec.convert(eson.toon.decode(text), Struct)    # msgspec

It gets to the same plain document faster by knowing, from the compiled
schema, what the text of a well-formed instance looks like.  For each class
(and indentation size) it compiles a *template*: one regular expression
matching the document's lines field by field -- ``key: value`` for a
primitive, ``key:`` and the fields of a nested record one level deeper,
``key[N]{...}:`` and a block of rows, ``key[N]:`` and a block of list items,
``key[N]: a,b`` -- whose groups capture the value tokens and blocks.  Then
everything is read column-wise across instances: the tokens of one field in
every row or list item become one column, decoded in one pass
(:func:`~eson._internal.wire.toon_quoting.parse_column`); the rows of every table of a
field (say the ``items`` of 500 orders) are split and decoded as one table;
list items are matched by the item template of their class in one
``findall``.  Fields whose shape the schema does not settle (``Any``,
mappings, recursive types ...) are captured as a block and read by the
untyped parser, at their nesting level.

The template accepts only text the untyped parser reads without complaint
in strict mode (canonical layout, declared counts right, no comments or
blank lines inside); for such text both readings agree.  Anything else --
hand-indented text, comments, reordered or missing fields, malformed lines
-- goes to the untyped parser as a whole, which decodes it (or raises its
:class:`~eson.errors.TOONError`) exactly as ``eson.toon.decode`` does.

The plain document is then validated in one call of the framework's own
validator (msgspec record arrays are built straight from their columns when
the binding allows it, as in the ESON back end).  A failure is re-raised as
:class:`eson.errors.ValidationError` placed at the line of the value, and
the section, row and field it belongs to.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from operator import methodcaller
from typing import Any

from eson._internal.accelerator import (
    MODE_GENERIC,
    MODE_INT,
    MODE_NUMBER,
    RAW,
    exact_mask,
    native,
)
from eson._internal.codecs.feedback import attach_expected
from eson._internal.codecs.generated import compile_function
from eson._internal.codecs.lenient import text_detail, text_repair, text_spots
from eson._internal.codecs.records import StructPlan, struct_plan
from eson._internal.codecs.toon_columns import decode_ints, decode_numbers
from eson._internal.codecs.validation import Place, check_options, plain_place, validation_error
from eson._internal.schema.annotations import literal_values
from eson._internal.schema.binding import Binding, Problem
from eson._internal.schema.compile import nested_record
from eson._internal.schema.model import DocumentSchema, FieldForm, FieldSchema, Form, RecordSchema
from eson._internal.wire.options import STRICT, ReadOptions, indent_size_of
from eson._internal.wire.repairs import Repair
from eson._internal.wire.toon_header import HeaderField, RowLayout, parse_header
from eson._internal.wire.toon_lexicon import COUNT_SOURCE, DELIMITER_SYMBOL_SOURCE
from eson._internal.wire.toon_limits import MAX_DEPTH, check_objects
from eson._internal.wire.toon_parser import Positions, decode_text, text_of
from eson._internal.wire.toon_quoting import DELIMITERS, format_key, format_string, parse_cells
from eson._internal.wire.toon_scanner import ends_rows, split_cells, split_lines, split_table
from eson.errors import ESONError, TOONError

# A value token: trimmed, on one line.
_TOKEN = r"[^ \n](?:[^\n]*[^ \n])?"
_COUNT = f"({COUNT_SOURCE})"
_SYMBOL = f"({DELIMITER_SYMBOL_SOURCE})"
_DELIMITER_OF = {"": ",", "|": "|", "\t": "\t"}
_NONE: type = type(None)
# Deeper than this many nested templates, fields are read as blocks.
_MAX_TEMPLATE_DEPTH = 32
# Tables whose header lists more fields than this go to the untyped parser.
_MAX_TABLE_FIELDS = 256
# Most entries of a reader's caches keyed by what a text's headers say, so that
# a stream of documents with ever new headers cannot grow them without bound.
_MAX_CACHED = 512

Column = Sequence[Any]
TokenDecoder = Callable[[list[str]], tuple[list[Any], bool]]


class MismatchError(Exception):
    """The text is not in the layout the template expects: use the untyped parser."""


def _block(pad: str) -> str:
    """A run of non-blank lines indented at least ``pad``."""
    return rf"(?:{re.escape(pad)}[ \t]*[^ \t\n][^\n]*\n)*"


def _key_pattern(wire: str) -> str:
    return re.escape(format_key(wire))


def _untyped(cells: list[str]) -> tuple[list[Any], bool]:
    return parse_cells(cells), False


# Each token decoder carries ``native_mode``: the accelerator's mode for the
# same fast path, whether its values are trusted when that path holds, and
# the type bit of a bare int/float/str/bool field (a column of values all of
# exactly that type is valid as it is).
_untyped.native_mode = (MODE_GENERIC, False, 0)  # type: ignore[attr-defined]


def _token_decoder(item: FieldSchema | None) -> TokenDecoder:
    """Decode a column of one field's cells (maybe untrimmed), as ``parse_cells`` does.

    The field's declared type picks a faster way to the same values: a
    dictionary lookup for ``Literal`` strings and booleans, ``msgspec.json``
    for numbers.  The decoder also says whether the values are known to be
    valid as they are for the field (so a record builder need not check them).
    """
    if item is None:
        return _untyped
    cell = item.cell
    plain = cell.plain
    annotation = item.annotation
    known: dict[str, Any] | None = None
    exact = False
    if cell.choices is not None:
        known = {}
        for choice in cell.choices:
            for delimiter in DELIMITERS:
                known[format_string(choice, delimiter)] = choice
        exact = literal_values(annotation) is not None
    elif plain and plain <= {bool, _NONE}:
        known = {"true": True, "false": False}
        exact = annotation is bool
    if known is not None:
        if _NONE in plain:
            known["null"] = None
        lookup = known.__getitem__
        trusted = exact

        def decode_known(cells: list[str]) -> tuple[list[Any], bool]:
            try:
                return list(map(lookup, cells)), trusted
            except KeyError:
                return parse_cells(cells), False

        decode_known.native_mode = (known, trusted, exact_mask(annotation))  # type: ignore[attr-defined]
        return decode_known
    fast: Callable[[list[str]], list[Any] | None] | None = None
    if plain == {int}:
        fast = decode_ints
    elif plain and plain <= {int, float}:
        fast = decode_numbers
    if fast is None:
        mask = exact_mask(annotation)
        if not mask:
            return _untyped

        def decode_plain(cells: list[str]) -> tuple[list[Any], bool]:
            return parse_cells(cells), False

        decode_plain.native_mode = (MODE_GENERIC, False, mask)  # type: ignore[attr-defined]
        return decode_plain
    chosen = fast
    ints = annotation is int and fast is decode_ints

    def decode(cells: list[str]) -> tuple[list[Any], bool]:
        values = chosen(cells)
        if values is not None:
            return values, ints
        return parse_cells(cells), False

    decode.native_mode = (  # type: ignore[attr-defined]
        MODE_INT if fast is decode_ints else MODE_NUMBER,
        ints,
        exact_mask(annotation),
    )
    return decode


def _builder(fields: Sequence[HeaderField] | Sequence[str], label: str) -> Callable[..., list[Any]]:
    """A generated function turning value columns into dicts (nested per ``fields``)."""
    names: list[str] = []

    def expression(items: Sequence[HeaderField] | Sequence[str]) -> str:
        parts = []
        for entry in items:
            if isinstance(entry, str):
                entry = HeaderField(entry)
            if entry.children is None:
                names.append(f"v{len(names)}")
                parts.append(f"{entry.name!r}: {names[-1]}")
            else:
                parts.append(f"{entry.name!r}: {expression(entry.children)}")
        return "{" + ", ".join(parts) + "}"

    body = expression(fields)
    if not names:
        source = "def build(count):\n    return [{} for _ in range(count)]\n"
        return compile_function("build", source, {}, label)
    arguments = ", ".join(names)
    if len(names) == 1:
        loop = f"for {names[0]} in {names[0]}_column"
        columns = f"{names[0]}_column"
    else:
        loop = f"for {arguments} in zip(*columns)"
        columns = "*columns"
    source = f"def build({columns}):\n    return [{body} {loop}]\n"
    return compile_function("build", source, {}, label)


class _Compiler:
    """Builds the templates of one reader (one root class, one indentation size)."""

    def __init__(self, indent_size: int) -> None:
        self.indent_size = indent_size
        self.unit = " " * indent_size
        self.items: dict[tuple[type, int], ObjectTemplate | None] = {}
        self.layouts: dict[tuple[str, str], tuple[RowLayout, Callable[..., list[Any]]]] = {}

    def pad(self, depth: int) -> str:
        return self.unit * depth

    def item_template(
        self, cls: type, binding: Binding, depth: int, stack: tuple[type, ...]
    ) -> ObjectTemplate | None:
        """The template of a list item of ``cls`` whose fields stand at ``depth``."""
        key = (cls, depth)
        if key in self.items:
            return self.items[key]
        schema = nested_record(cls, binding)
        template: ObjectTemplate | None = None
        if schema is not None and schema.fields:
            template = ObjectTemplate(self, cls, binding, schema.forms, depth, True, stack)
            # Anchored at line starts: findall then tries each line once, never each
            # character of a long line (which made a failing template quadratic).
            template.regex = re.compile(f"^({template.source})", re.MULTILINE)
        self.items[key] = template
        return template

    def layout(self, symbol: str, fields: str) -> tuple[RowLayout, Callable[..., list[Any]]]:
        """The row layout and dict builder of a table header's field list (cached)."""
        key = (symbol, fields)
        found = self.layouts.get(key)
        if found is None:
            if fields.count(symbol or ",") >= _MAX_TABLE_FIELDS:
                raise MismatchError  # a builder of thousands of fields costs more than it saves
            header = parse_header(f"[0{symbol}]{fields}:", strict=True)
            if header is None or header.layout is None or header.fields is None:
                raise MismatchError
            build = _builder(header.fields, "TOON table rows")
            found = (header.layout, build)
            if len(self.layouts) < _MAX_CACHED:  # headers come from the text: bound the cache
                self.layouts[key] = found
        return found


class _Field:
    """The template of one field: regex source, group count, column-wise extraction.

    Groups that did not take part in a match hold ``""`` (as ``findall``
    gives them), so every group that marks an alternative captures a
    non-empty text when it does.
    """

    groups = 1

    def __init__(self, item: FieldSchema) -> None:
        self.item = item
        self.key = _key_pattern(item.wire)

    def source(self, prefix: str) -> str:
        raise NotImplementedError

    def extract(self, columns: Sequence[Column], level: int) -> list[Any]:
        """The values of this field for every instance; ``level`` is theirs."""
        raise NotImplementedError


class _Leaf(_Field):
    """``key: token``."""

    def __init__(self, item: FieldSchema) -> None:
        super().__init__(item)
        self.decode = _token_decoder(item)

    def source(self, prefix: str) -> str:
        return f"{prefix}{self.key}: ({_TOKEN})\n"

    def extract(self, columns: Sequence[Column], level: int) -> list[Any]:
        tokens = list(columns[0])
        if "[]" in tokens:
            raise MismatchError  # an empty array, not a primitive
        return self.decode(tokens)[0]


class _Nested(_Field):
    """``key:`` and the fields of a nested record one level deeper, or ``key: token``."""

    def __init__(self, item: FieldSchema, child: ObjectTemplate) -> None:
        super().__init__(item)
        self.child = child
        self.groups = 1 + child.groups

    def source(self, prefix: str) -> str:
        return f"{prefix}{self.key}(?:: ({_TOKEN})\n|:\n{self.child.source})"

    def extract(self, columns: Sequence[Column], level: int) -> list[Any]:
        tokens = columns[0]
        present = [index for index, token in enumerate(tokens) if token]
        if not present:
            return self.child.extract(columns[1:], level)
        values: list[Any] = [None] * len(tokens)
        texts = [tokens[index] for index in present]
        if "[]" in texts:
            raise MismatchError
        for index, value in zip(present, parse_cells(texts)):
            values[index] = value
        if len(present) < len(tokens):
            nested = [index for index, token in enumerate(tokens) if not token]
            children = [[column[index] for index in nested] for column in columns[1:]]
            for index, value in zip(nested, self.child.extract(children, level)):
                values[index] = value
        return values


_count_lines = methodcaller("count", "\n")


def _slices(values: list[Any], counts: Sequence[int]) -> list[list[Any]]:
    result = []
    start = 0
    for count in counts:
        result.append(values[start : start + count])
        start += count
    return result


class _Records(_Field):
    """``key: []``, a table ``key[N]{fields}:`` with rows, ``key[N]:`` with list items,
    or ``key: token`` (``null``)."""

    groups = 9

    def __init__(
        self,
        item: FieldSchema,
        compiler: _Compiler,
        record: type,
        binding: Binding,
        depth: int,
        stack: tuple[type, ...],
    ) -> None:
        super().__init__(item)
        self.compiler = compiler
        self.record = record
        self.binding = binding
        self.depth = depth
        self.stack = stack
        self.row_pad = compiler.pad(depth + 1)
        self.decoders: dict[tuple[str, ...], TokenDecoder] = {}
        self.builders: dict[
            tuple[str, ...], Callable[[list[list[Any]], list[bool]], list[Any]] | None
        ] = {}
        self._items: ObjectTemplate | bool | None = False
        schema = nested_record(record, binding)
        self.schema = schema
        self.names = tuple(field.wire for field in schema.fields) if schema is not None else ()
        self.build_records: Callable[[list[list[Any]], list[bool]], list[Any]] | None = None
        self._plan: StructPlan | bool | None
        self._plan = False  # not made yet (see struct_plan)
        if schema is not None and not any(field.output_only for field in schema.fields):
            # A table of the document's own field: validated with the
            # document, so the binding may build the rows (see record_builder).
            within = (stack[0], item.attr) if len(stack) == 1 else None
            self.build_records = binding.record_builder(record, schema.fields, within)

    def source(self, prefix: str, rows: str | None = None) -> str:
        # ``key: []``, or a table (rows at exactly one level deeper, none a
        # comment: anything else is for the untyped parser), or list items.
        # ``rows=""`` leaves a table's rows out (its group matches nothing):
        # the document reader finds them by their declared count instead.
        if rows is None:
            rows = rf"(?:{re.escape(self.row_pad)}[^ \t\n#][^\n]*\n)*"
        return (
            f"{prefix}{self.key}(?:(: \\[\\])\\n"
            f"|\\[{_COUNT}{_SYMBOL}\\](\\{{[^\\n]*\\}}):\\n({rows})"
            f"|\\[{_COUNT}{_SYMBOL}\\]:\\n((?:{re.escape(self.row_pad)}[^\\n]*\\n)*)"
            f"|: ({_TOKEN})\\n)"
        )

    def items_template(self) -> ObjectTemplate | None:
        if self._items is False:
            self._items = self.compiler.item_template(
                self.record, self.binding, self.depth + 2, self.stack
            )
        return self._items  # type: ignore[return-value]

    def extract(self, columns: Sequence[Column], level: int) -> list[Any]:
        empties, counts, symbols, field_lists, row_blocks, list_counts, _, item_blocks, tokens = (
            columns
        )
        if field_lists[0] and len(set(field_lists)) == 1 and len(set(symbols)) == 1:
            # The common case: every instance holds a table with the same header.
            numbers = list(map(int, counts))
            return self._tables(symbols[0], field_lists[0], numbers, row_blocks, level)
        values: list[Any] = [None] * len(empties)
        tables: dict[tuple[str, str], list[int]] = {}
        lists: list[int] = []
        others: list[int] = []
        for index, empty in enumerate(empties):
            if empty:
                values[index] = []
            elif tokens[index]:
                others.append(index)
            elif field_lists[index]:
                tables.setdefault((symbols[index], field_lists[index]), []).append(index)
            else:
                lists.append(index)
        for (symbol, fields), members in tables.items():
            numbers = [int(counts[index]) for index in members]
            blocks = [row_blocks[index] for index in members]
            for index, rows in zip(members, self._tables(symbol, fields, numbers, blocks, level)):
                values[index] = rows
        if lists:
            numbers = [int(list_counts[index]) for index in lists]
            blocks = [item_blocks[index] for index in lists]
            for index, items in zip(lists, self._lists(numbers, blocks, level)):
                values[index] = items
        if others:
            for index, value in zip(others, parse_cells([tokens[i] for i in others])):
                values[index] = value
        return values

    def struct_plan(self) -> StructPlan | None:
        """How ``native.read_structs`` may build this field's table rows (see :func:`struct_plan`).

        Only for rows the binding builds (``build_records``), as the column
        path does.
        """
        if self._plan is False:
            schema = self.schema
            plan = None
            if schema is not None and self.build_records is not None:
                decoder = self._decoder
                plan = struct_plan(schema, lambda wire: decoder((wire,)).native_mode)  # type: ignore[attr-defined]
            self._plan = plan
        return self._plan  # type: ignore[return-value]

    def _decoder(self, path: tuple[str, ...]) -> TokenDecoder:
        found = self.decoders.get(path)
        if found is None:
            found = _token_decoder(_field_at(self.schema, path, self.binding))
            if len(self.decoders) < _MAX_CACHED:  # paths come from the text's headers
                self.decoders[path] = found
        return found

    def _tables(
        self, symbol: str, fields: str, counts: list[int], blocks: Sequence[str], level: int
    ) -> list[list[Any]]:
        """The rows of every table of this field with one header, read as one table.

        ``counts`` are the declared row counts, ``blocks`` the row lines.
        """
        layout, build = self.compiler.layout(symbol, fields)
        if level + layout.nesting > MAX_DEPTH:
            raise MismatchError
        if layout.objects > 1:
            try:
                check_objects(sum(counts) * layout.objects, sum(map(len, blocks)))
            except TOONError:
                raise MismatchError from None  # the untyped parser says where
        pad = self.row_pad
        if len(blocks) == 1:
            full = blocks[0]
        else:  # the declared counts are checked here, the total again below
            if list(map(_count_lines, blocks)) != counts:
                raise MismatchError
            full = "".join(blocks)
        if not full:
            if any(counts):
                raise MismatchError  # rows declared, none there
            return [[] for _ in blocks]
        if native is not None and len(blocks) == 1 and layout.names == self.names:
            plan = self.struct_plan()
            if plan is not None:
                # The rows straight from the text, made as build_records makes them.
                done = native.read_structs(
                    full, 0, counts[0], *plan, 0, _DELIMITER_OF[symbol], len(pad)
                )
                if done is not None and done[1] == len(full):
                    return [done[0]]
        text = full[len(pad) : -1]
        separator = "\n" + pad
        delimiter = _DELIMITER_OF[symbol]
        if ":" in text and any(ends_rows(row, delimiter) for row in text.split(separator)):
            raise MismatchError  # a key-value line ends a table
        paths = _leaf_paths(layout, fields, symbol)
        decoded = None
        if native is not None:
            decoded = self._native_table(text, separator, delimiter, layout.width, paths, counts)
        if decoded is None:
            texts = split_lines(text, delimiter, layout.width, separator, trim=False)
            if texts is None:
                try:
                    texts = split_table(text.split(separator), delimiter, layout.width)
                except TOONError:
                    raise MismatchError from None
            if len(texts[0]) != sum(counts):
                raise MismatchError  # a declared length is wrong
            decoded = [self._decoder(path)(column) for path, column in zip(paths, texts)]
        values = [column for column, _ in decoded]
        records: list[Any] | None = None
        build_records = self.build_records
        if build_records is not None and layout.names == self.names:
            try:
                records = build_records(values, [trusted for _, trusted in decoded])
            except Exception:  # the dict path reports the precise error
                records = None
        if records is None:
            records = build(*values)
        return _slices(records, counts)

    def _native_table(
        self,
        text: str,
        separator: str,
        delimiter: str,
        width: int,
        paths: list[tuple[str, ...]],
        counts: list[int],
    ) -> list[tuple[list[Any], bool]] | None:
        """The decoded columns of a table's rows as the accelerator reads them, or ``None``."""
        assert native is not None
        decoders = [self._decoder(path) for path in paths]
        modes = tuple(decoder.native_mode[0] for decoder in decoders)  # type: ignore[attr-defined]
        done = native.toon_rows(text, separator, delimiter, width, modes)
        if done is None:
            return None
        columns, flags, types = done
        if len(columns[0]) != sum(counts):
            raise MismatchError  # a declared length is wrong
        decoded: list[tuple[list[Any], bool]] = []
        for decoder, column, flag, mask in zip(decoders, columns, flags, types):
            if flag == RAW:  # cells the accelerator leaves to the Python decoder
                decoded.append(decoder(column))
            else:
                _, trust, exact = decoder.native_mode  # type: ignore[attr-defined]
                # Values all of the field's exact type are valid as they are
                # (what the binding's check would find), as in the ESON reader.
                decoded.append((column, (flag == 1 and trust) or (exact != 0 and mask == exact)))
        return decoded

    def _lists(self, counts: list[int], blocks: list[str], level: int) -> list[list[Any]]:
        """The list items of every list-form array of this field, read column-wise."""
        template = self.items_template()
        if template is None or template.regex is None:
            raise MismatchError
        findall = template.regex.findall
        found: list[tuple[str, ...]] = []
        for count, block in zip(counts, blocks):
            items = findall(block)
            if len(items) != count or sum(len(item[0]) for item in items) != len(block):
                raise MismatchError
            found.extend(items)
        if not found:
            return [[] for _ in blocks]
        columns = list(zip(*found))[1:]
        return _slices(template.extract(columns, level + 1), counts)


_leaf_path_cache: dict[tuple[str, str], list[tuple[str, ...]]] = {}


def _leaf_paths(layout: RowLayout, fields: str, symbol: str) -> list[tuple[str, ...]]:
    """The path of every leaf field of a header's field list, in cell order."""
    key = (symbol, fields)
    found = _leaf_path_cache.get(key)
    if found is not None:
        return found
    header = parse_header(f"[0{symbol}]{fields}:", strict=True)
    paths: list[tuple[str, ...]] = []

    def walk(items: Sequence[HeaderField], prefix: tuple[str, ...]) -> None:
        for entry in items:
            if entry.children is None:
                paths.append((*prefix, entry.name))
            else:
                walk(entry.children, (*prefix, entry.name))

    assert header is not None and header.fields is not None
    walk(header.fields, ())
    if len(_leaf_path_cache) < 4096:
        _leaf_path_cache[key] = paths
    return paths


def _field_at(
    schema: RecordSchema | None, path: tuple[str, ...], binding: Binding
) -> FieldSchema | None:
    """The compiled field a table column's path names, or ``None``."""
    for depth, name in enumerate(path):
        if schema is None:
            return None
        shape: FieldForm | None = next(
            (form for form in schema.forms if form.field.wire == name), None
        )
        if shape is None:
            return None
        if depth == len(path) - 1:
            return shape.field
        if shape.kind is not Form.RECORD or shape.record is None:
            return None
        schema = nested_record(shape.record, binding)
    return None


class _Scalars(_Field):
    """``key: []``, ``key[N]: a,b,c``, or ``key: token`` (``null``)."""

    groups = 5

    def __init__(self, item: FieldSchema) -> None:
        super().__init__(item)

    def source(self, prefix: str) -> str:
        return (
            f"{prefix}{self.key}(?:(: \\[\\])|\\[{_COUNT}{_SYMBOL}\\]: ({_TOKEN})|: ({_TOKEN}))\\n"
        )

    def extract(self, columns: Sequence[Column], level: int) -> list[Any]:
        if level > MAX_DEPTH:
            raise MismatchError
        empties, counts, symbols, inlines, tokens_ = columns
        tokens: list[str] = []
        sizes: list[int] = []
        others: list[int] = []
        for index, empty in enumerate(empties):
            if empty:
                sizes.append(0)
                continue
            if tokens_[index]:
                others.append(index)
                sizes.append(0)
                continue
            cells = split_cells(inlines[index], _DELIMITER_OF[symbols[index]])
            if len(cells) != int(counts[index]):
                raise MismatchError
            tokens.extend(cells)
            sizes.append(len(cells))
        values: list[Any] = _slices(parse_cells(tokens), sizes)
        if others:
            for index, value in zip(others, parse_cells([tokens_[i] for i in others])):
                values[index] = value
        return values


class _Opaque(_Field):
    """Any other field: its lines, read by the untyped parser."""

    def __init__(self, item: FieldSchema, compiler: _Compiler, depth: int) -> None:
        super().__init__(item)
        self.compiler = compiler
        self.inner = _block(compiler.pad(depth + 1))
        self.dedent = "\n" + compiler.pad(depth)

    def source(self, prefix: str) -> str:
        return f"{prefix}({self.key}(?=[:\\[])[^\\n]*\\n{self.inner})"

    def extract(self, columns: Sequence[Column], level: int) -> list[Any]:
        wire = self.item.wire
        indent_size = self.compiler.indent_size
        dedent = self.dedent
        values = []
        for block in columns[0]:
            text = block.replace(dedent, "\n") if dedent != "\n" else block
            try:
                value = decode_text(text, strict=True, indent_size=indent_size, level=level - 1)
            except TOONError:
                raise MismatchError from None
            if not isinstance(value, dict) or len(value) != 1 or wire not in value:
                raise MismatchError
            values.append(value[wire])
        return values


class ObjectTemplate:
    """The template of one class's fields at one depth (an object, or a list item).

    Attributes:
        source: Regular-expression source matching the fields' lines.
        groups: How many groups ``source`` holds.
        regex: For list items, the compiled ``(source)`` (group 1 is the whole item).
    """

    def __init__(
        self,
        compiler: _Compiler,
        cls: type,
        binding: Binding,
        forms: Sequence[FieldForm],
        depth: int,
        item: bool,
        stack: tuple[type, ...],
    ) -> None:
        self.cls = cls
        self.regex: re.Pattern[str] | None = None
        stack = (*stack, cls)
        pad = re.escape(compiler.pad(depth))
        first = re.escape(compiler.pad(depth - 1) + "- ") if item else pad
        self.fields: list[_Field] = [
            _field_template(shape, compiler, binding, depth, stack) for shape in forms
        ]
        self.prefixes = [first if index == 0 else pad for index in range(len(self.fields))]
        self.source = "".join(
            field.source(prefix) for field, prefix in zip(self.fields, self.prefixes)
        )
        self.groups = sum(field.groups for field in self.fields)
        self.build = _builder(
            [field.item.wire for field in self.fields], f"TOON {cls.__qualname__}"
        )

    def segments(self) -> list[tuple[re.Pattern[str], _Records | None]]:
        """The template cut after each table field's header, for :meth:`DocumentReader.fast`.

        Each piece is a regular expression and the table field it ends with
        (``None`` for the last piece): matched one after another, with each
        table's rows found between them by their declared count (the
        accelerator's ``skip_lines``), so that no regular expression scans
        the rows -- the bulk of a document.  Together the pieces hold the
        groups of :attr:`source`, in order.
        """
        pieces: list[tuple[re.Pattern[str], _Records | None]] = []
        source = ""
        for field, prefix in zip(self.fields, self.prefixes):
            if isinstance(field, _Records):
                pieces.append((re.compile(source + field.source(prefix, rows="")), field))
                source = ""
            else:
                source += field.source(prefix)
        pieces.append((re.compile(source), None))
        return pieces

    def extract(self, columns: Sequence[Column], level: int) -> list[Any]:
        """Build the objects (``level`` is theirs) from their groups, one column per group."""
        values = []
        start = 0
        for field in self.fields:
            end = start + field.groups
            values.append(field.extract(columns[start:end], level + 1))
            start = end
        return self.build(*values)


def _plain_object(cls: type, binding: Binding) -> RecordSchema | None:
    """The schema of a record class whose instances are written as ``key:`` objects.

    ``None`` for a class without fields (written as ``key:`` alone, or ``-``)
    and one whose fields may all be objects (then an instance may be written
    as a keyed table): those are read by the untyped parser.
    """
    schema = nested_record(cls, binding)
    if schema is None or not schema.fields:
        return None
    shapes = schema.forms
    if len(shapes) >= 2 and not any(shape.never_dict for shape in shapes):
        return None
    return schema


def _field_template(
    shape: FieldForm, compiler: _Compiler, binding: Binding, depth: int, stack: tuple[type, ...]
) -> _Field:
    item = shape.field
    nested_ok = len(stack) < _MAX_TEMPLATE_DEPTH
    record = shape.record
    if shape.kind is Form.LEAF and shape.never_dict:
        return _Leaf(item)
    if shape.kind is Form.SCALARS:
        return _Scalars(item)
    if (
        shape.kind is Form.RECORDS
        and record is not None
        and nested_ok
        and _plain_object(record, binding) is not None
    ):
        return _Records(item, compiler, record, binding, depth, stack)
    if shape.kind is Form.RECORD and record is not None and nested_ok and record not in stack:
        schema = _plain_object(record, binding)
        if schema is not None:
            child = ObjectTemplate(compiler, record, binding, schema.forms, depth + 1, False, stack)
            return _Nested(item, child)
    return _Opaque(item, compiler, depth)


def apply_texts(schema: DocumentSchema, document: Any, positions: Positions) -> list[Repair]:
    """Read each bare number or boolean in a string-only field of ``document`` as its token.

    ``positions`` is the record (with tokens) of the decode that gave
    ``document``; the document is changed in place.  Returns the repairs,
    in line order.
    """
    found: list[Repair] = []
    for spot in text_spots(schema, document):
        container = spot.container
        token = positions.token_of(container, spot.step)
        kind = text_repair(container[spot.step])  # type: ignore[index]
        if token is None or kind is None:
            continue  # not read from a single token: leave it to validation
        container[spot.step] = token  # type: ignore[index]
        line = positions.line_of(document, spot.loc) or 1
        found.append(Repair(line, kind, text_detail(token), spot.section, spot.row, spot.field))
    return sorted(found, key=lambda repair: repair.line)


def _match_segments(
    segments: list[tuple[re.Pattern[str], _Records | None]], text: str
) -> list[str]:
    """The groups of a document's template, matched piece by piece (see :meth:`ObjectTemplate.segments`).

    A table's rows are its declared count of lines, each at the rows'
    indentation, found by the accelerator; the groups are those one match of
    the whole template would give.

    Raises:
        MismatchError: where the whole template would not match.
    """
    assert native is not None
    groups: list[str] = []
    position = 0
    for regex, table in segments:
        match = regex.match(text, position)
        if match is None:
            raise MismatchError
        found = match.groups("")
        position = match.end()
        # The last nine groups are the table field's (see _Records.source):
        # its header's fields (-6) say a table was read, its count is -8.
        if table is not None and found[-6]:
            count = int(found[-8])
            if count:
                end = native.skip_lines(text, position, count, len(table.row_pad))
                if end < 0 or end >= len(text):  # too few rows, or the last one unended
                    raise MismatchError
                found = (*found[:-5], text[position : end + 1], *found[-4:])
                position = end + 1
        groups.extend(found)
    if position != len(text):
        raise MismatchError
    return groups


class DocumentReader:
    """The compiled TOON reader of one model class (for one indentation size)."""

    def __init__(self, schema: DocumentSchema, indent_size: int = 2) -> None:
        indent_size = indent_size_of(indent_size)
        self.schema = schema
        self.indent_size = indent_size
        self.binding: Binding = schema.binding
        self.validate = schema.binding.validator(schema.cls)
        self._template: ObjectTemplate | bool | None = False
        self._regex: re.Pattern[str] | None = None
        self._segments: list[tuple[re.Pattern[str], _Records | None]] | None = None
        self._lock = threading.Lock()

    def _compile(self) -> None:
        with self._lock:
            if self._template is not False:
                return
            schema = self.schema
            template: ObjectTemplate | None = None
            if schema.fields:
                compiler = _Compiler(self.indent_size)
                template = ObjectTemplate(
                    compiler, schema.cls, schema.binding, schema.forms, 0, False, ()
                )
                self._regex = re.compile(template.source)
                if native is not None:
                    self._segments = template.segments()
            self._template = template

    def fast(self, text: str) -> dict[str, Any]:
        """The plain document by the template; raises :class:`MismatchError` when it does not fit."""
        if self._template is False:
            self._compile()
        template = self._template
        regex = self._regex
        if template is None or regex is None or not isinstance(template, ObjectTemplate):
            raise MismatchError
        if "\r" in text:
            raise MismatchError
        if not text.endswith("\n"):
            text += "\n"
        groups: Sequence[str]
        if self._segments is not None and native is not None:
            groups = _match_segments(self._segments, text)
        else:
            match = regex.fullmatch(text)
            if match is None:
                raise MismatchError
            groups = match.groups("")
        columns = [(group,) for group in groups]
        document: dict[str, Any] = template.extract(columns, 1)[0]
        return document

    def table_plan(self, key: str, names: tuple[str, ...]) -> StructPlan | None:
        """How ``native.read_structs`` may build the rows of the top-level table ``key``.

        For a table whose header names the record's fields in order, as the
        whole-text reader builds its rows (:meth:`_Records.struct_plan`);
        ``None`` for any other table.
        """
        if self._template is False:
            self._compile()
        template = self._template
        if not isinstance(template, ObjectTemplate):
            return None
        for field in template.fields:
            if isinstance(field, _Records) and field.item.wire == key:
                return field.struct_plan() if field.names == names else None
        return None

    def plain(self, text: str, strict: bool = True) -> dict[str, Any] | Any:
        """The plain document: the template's reading, else the untyped parser's."""
        try:
            return self.fast(text)
        except Exception:  # MismatchError, or anything unexpected: the untyped parser decides
            return decode_text(text, strict=strict, indent_size=self.indent_size)

    def decode(
        self,
        data: str | bytes | bytearray | memoryview,
        read: ReadOptions = STRICT,
        repairs: list[Repair] | None = None,
        *,
        validation_strict: bool | None = None,
        context: Any = None,
    ) -> Any:
        """Decode and validate; see the module documentation.

        ``read`` says how: TOON's strict checks (counts and widths) hold in
        every mode but ``"lax"``, and every mode but ``"strict"`` applies the
        typed rule of :mod:`eson._internal.codecs.lenient` (a bare number or
        boolean in a string-only field is read as its token text), recording
        each repair in ``repairs``.  ``validation_strict`` and ``context`` go
        to the framework's validation (see :func:`eson.toon.decode`).
        """
        check_options(self.binding, validation_strict, context)
        strict = read.checks_counts
        try:
            text = text_of(data)
            document = self.plain(text, strict)
            if not read.strict and text_spots(self.schema, document):
                document = self.with_texts(text, strict, repairs)
        except ESONError as exc:
            raise attach_expected(exc, self.schema.model_type, "toon") from None
        try:
            return self.validate(document, validation_strict, context)
        except Exception as exc:
            problems = self.binding.problems(exc)
            if problems is None:
                raise
            error = self.error(problems, text, strict)
            if isinstance(error, ESONError):
                attach_expected(error, self.schema.model_type, "toon")
            raise error from exc

    def with_texts(self, text: str, strict: bool, repairs: list[Repair] | None) -> Any:
        """The plain document with numbers and booleans in string fields read as their tokens."""
        positions = Positions(tokens=True)
        document = decode_text(
            text, strict=strict, indent_size=self.indent_size, positions=positions
        )
        found = apply_texts(self.schema, document, positions)
        if repairs is not None:
            repairs.extend(found)
        return document

    def error(self, problems: Sequence[Problem], text: str, strict: bool) -> Exception:
        """The :class:`ValidationError` for ``problems``, placed on the lines of ``text``."""
        positions = Positions()
        document = decode_text(
            text, strict=strict, indent_size=self.indent_size, positions=positions
        )

        def place(problem: Problem) -> tuple[Place, int]:
            return plain_place(problem, positions.line_of(document, problem.loc))

        return validation_error(problems, document, place)
