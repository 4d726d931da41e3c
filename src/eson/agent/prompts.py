"""Telling a model what to write: ``eson.prompt(T)``, ``eson.primer()``, ``eson.prompt_cost(T)``.

A writer prompt has three parts:

1. a **primer**: the format in a few lines, in this project's own words,
   kept under about 130 o200k tokens (the test suite measures it);
2. the **schema** of ``T``: the exact header lines its encoder writes
   (``findings[N]{n,severity,file,line,message}``), each field's type in
   plain words, allowed values of ``Literal`` and enum fields, ``null``,
   defaults, descriptions, constraints, and the docstrings of the classes
   (:mod:`eson._internal.codecs.layout`);
3. a tiny **example**: a document built from ``T``'s own types and
   constraints, written by the encoder, that decodes into ``T`` (or one you
   pass).

A *reader* prompt (``reader=True``) is only the primer, worded for a model
that reads payloads rather than writes them, with the numbered-rows note
when ``T`` numbers its rows.  :func:`prompt_cost` says what each part costs
in tokens.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from eson._internal.codecs.layout import DocumentLayout, LayoutFormat, class_doc, document_layout
from eson._internal.schema.annotations import (
    LEAF_EXAMPLES,
    strip_none,
    unwrap,
)
from eson._internal.schema.binding import NO_DEFAULT, Binding
from eson._internal.schema.compile import document_schema, record_schema
from eson._internal.schema.model import FieldSchema
from eson._internal.schema.type_tree import Shape, TypeNode, type_node
from eson.agent.formats import DocumentFormat, document_format, wire_format
from eson.errors import ESONError

__all__ = ["PromptCost", "PromptFormat", "example_document", "primer", "prompt", "prompt_cost"]

PromptFormat = DocumentFormat  # (eson.agent.formats, where every format name is defined)

_ESON_WRITER = """Write ESON. Line 1 is !eson/1, then entries:
name=value  one value
name[N]{a,b}  then N lines, one record each: values in a,b order, TAB-separated
name[N]  then N lines, one value each
name{a,b}  then one line of TAB-separated values
N is the exact count. null, true, false, numbers, lists and objects are JSON. Strings are bare; \
JSON-quote one that is empty, edge-spaced, has a TAB or newline, starts with " [ { or reads as \
null/true/false/number."""

_ESON_READER = """Messages may use ESON. Line 1 is !eson/1, then entries:
name=value  one value
name[N]{a,b}  then N lines, one record each: values in a,b order, TAB-separated
name[N]  then N lines, one value each
name{a,b}  then one line of TAB-separated values
Bare text is a string; null, true, false, numbers, "quoted strings", lists and objects are JSON. \
[N] is a checksum: rows that do not match it mean a damaged message."""

_TOON_WRITER = """Write TOON: nesting is 2-space indentation.
key: value  one value; key: alone opens a nested object
key[N]: a,b,c  N values
key[N]{f1,f2}:  then N indented lines, one record each: values in f1,f2 order, comma-separated
key[N]:  then N indented "- " items, for other lists
N is the exact count. Strings are bare; "quote" one that is empty, edge-spaced, starts with - or #, \
has , : " \\ [ ] { } or a newline, or reads as true/false/null/number."""

_TOON_READER = """Messages may use TOON: nesting is indentation.
key: value  one value; key: alone opens a nested object
key[N]: a,b,c  N values
key[N]{f1,f2}:  then N indented lines, one record each: values in f1,f2 order, comma-separated
key[N]:  then N "- " items, for other lists
Unquoted values are strings unless they read as true, false, null or a number. [N] is a \
checksum: items that do not match it mean a damaged message."""

_NUMBERED_READER = """A first field n numbers the rows 1, 2, 3 ...: use it for "the Nth row"; \
a broken sequence also means damage."""


#: Each document format's primers: for a writer, for a reader, and the reader's
#: note on a numbered record array's ``n`` field (ESON's only).
_PRIMERS: dict[str, tuple[str, str, str | None]] = {
    "eson": (_ESON_WRITER, _ESON_READER, _NUMBERED_READER),
    "toon": (_TOON_WRITER, _TOON_READER, None),
}


def primer(format: PromptFormat = "eson", *, reader: bool = False, numbered: bool = False) -> str:
    """The short description of a format that goes at the top of a prompt.

    Args:
        format: ``"eson"`` (or ``"eson/1"``) or ``"toon"``.
        reader: Word it for a model that reads payloads (with the count as a
            checksum) instead of writing them.
        numbered: Reader only, ESON only: add the note on the reserved ``n``
            row-number field.
    """
    writer, reader_text, numbered_note = _PRIMERS[document_format(format)]
    if not reader:
        return writer
    return f"{reader_text}\n{numbered_note}" if numbered and numbered_note else reader_text


# -- the example -------------------------------------------------------------------------

_FIXED: dict[type, Any] = LEAF_EXAMPLES


class _NoExampleError(Exception):
    """No value of this type can be made up."""


_PATTERN_CANDIDATES = (
    "abc",
    "a",
    "example",
    "ABC",
    "A1",
    "a1",
    "1",
    "123",
    "x-1",
    "a_b",
    "2026-01-31",
    "user@example.com",
    "https://example.com",
)


def _bounds(metadata: Sequence[Any]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for item in metadata:
        for name in ("ge", "gt", "le", "lt", "multiple_of", "min_length", "max_length", "pattern"):
            value = getattr(item, name, None)
            if value is not None and name not in found:
                found[name] = value
    return found


def _number(kind: type, bounds: dict[str, Any], index: int) -> Any:
    """A number within the bounds (``ge``/``gt``/``le``/``lt``, ``multiple_of``), varied by row."""
    low, low_open = bounds.get("ge"), False
    if "gt" in bounds and (low is None or bounds["gt"] >= low):
        low, low_open = bounds["gt"], True
    high, high_open = bounds.get("le"), False
    if "lt" in bounds and (high is None or bounds["lt"] <= high):
        high, high_open = bounds["lt"], True
    step = bounds.get("multiple_of")
    if kind is int:
        first = index if low is None else (math.floor(low) + 1 if low_open else math.ceil(low))
        value = first if low is None else first + index - 1
        top = None if high is None else (math.ceil(high) - 1 if high_open else math.floor(high))
        if step:
            value = math.ceil(value / step) * step
            if top is not None and value > top:
                value = math.floor(top / step) * step
        elif top is not None and value > top:
            value = max(top, first)
        return int(value)
    if low is not None and high is not None:
        number = low + (high - low) * index / (index + 1)
    elif low is not None:
        number = low + index + 0.5
    elif high is not None:
        number = high - index - 0.5
    else:
        number = index + 0.5
    if step:
        number = math.ceil(number / step) * step
        if high is not None and number > high:
            number = math.floor(high / step) * step
    return float(number)


def _string(name: str, bounds: dict[str, Any], index: int) -> str:
    pattern = bounds.get("pattern")
    if isinstance(pattern, str):
        import re

        try:
            compiled = re.compile(pattern)
        except re.error:
            raise _NoExampleError(name) from None
        for candidate in _PATTERN_CANDIDATES:
            if compiled.search(candidate) and bounds.get("min_length", 0) <= len(
                candidate
            ) <= bounds.get("max_length", len(candidate)):
                return candidate
        raise _NoExampleError(name)
    text = f"{name or 'text'} {index}".replace("_", " ")
    low = bounds.get("min_length", 0)
    high = bounds.get("max_length")
    if high is not None:
        text = text.replace(" ", "")[: max(high, 0)]
    if len(text) < low:
        text = text + "x" * (low - len(text))
    return text


def _sample(annotation: Any, binding: Binding, name: str, index: int, depth: int = 0) -> Any:
    """A made-up JSON-mode value for ``annotation`` (``index`` varies it per row)."""
    return _sample_of(type_node(annotation, binding), name, index, depth)


def _sample_of(node: TypeNode, name: str, index: int, depth: int) -> Any:
    """A made-up JSON-mode value for one node of an annotation's tree (see :func:`_sample`)."""
    if depth > 8:
        raise _NoExampleError(name)
    shape = node.shape
    bounds = _bounds(node.metadata)
    if shape is Shape.NULL:
        return None
    if shape is Shape.ANY:
        return f"{name or 'value'} {index}"
    if shape is Shape.CHOICES:
        if not node.choices:
            raise _NoExampleError(name)
        return node.choices[(index - 1) % len(node.choices)]
    if shape is Shape.UNION:
        for member in node.children:
            if member.shape is Shape.NULL:
                continue
            try:
                return _sample_of(member, name, index, depth + 1)
            except _NoExampleError:
                continue
        raise _NoExampleError(name)
    if shape is Shape.MAPPING:
        args = node.args
        if len(args) == 2 and unwrap(args[0])[0] not in (str, Any):
            raise _NoExampleError(name)
        value = node.children[1] if len(args) == 2 else type_node(Any, node.binding)
        return {"key": _sample_of(value, "value", index, depth + 1)}
    if shape is Shape.TUPLE:
        return [_sample_of(item, name, index, depth + 1) for item in node.children]
    if shape is Shape.LIST:
        count = max(1, bounds.get("min_length", 0))
        if "max_length" in bounds:
            count = min(count, bounds["max_length"])
        element = node.children[0]
        return [_sample_of(element, name, index + offset, depth + 1) for offset in range(count)]
    if shape is Shape.RECORD:
        schema = record_schema(node.bare, node.binding)
        return _record_sample(schema.fields, node.binding, schema.model_type, index, depth + 1)
    bare = node.bare
    if shape is not Shape.TYPE:  # a custom serializer's value, a model of another shape ...
        raise _NoExampleError(name)
    if bare is bool:
        return index % 2 == 1
    if bare is int:
        return _number(int, bounds, index)
    if bare is float:
        return _number(float, bounds, index)
    if bare is str:
        return _string(name, bounds, index)
    if bare in (bytes, bytearray):
        return "ZGF0YQ==" if node.binding.name == "msgspec" else "data"
    for cls in bare.__mro__:
        if cls in _FIXED:
            return _FIXED[cls]
    raise _NoExampleError(name)


def _record_sample(
    fields: tuple[FieldSchema, ...], binding: Binding, cls: Any, index: int, depth: int
) -> dict[str, Any]:
    notes = binding.notes(cls)
    document: dict[str, Any] = {}
    for item in fields:
        if item.output_only:
            continue
        try:
            document[item.wire] = _sample(item.annotation, binding, item.wire, index, depth)
        except _NoExampleError:
            if item.required:
                raise
            default = notes.get(item.attr)
            if default is not None and default.default is not NO_DEFAULT:
                continue  # leave it out: the default applies
            raise
    return document


def _rows(item: FieldSchema) -> int:
    """How many rows the example gives a record array (two, unless the type allows fewer)."""
    _, metadata = unwrap(strip_none(item.annotation)[0])
    bounds = _bounds(metadata)
    count: int = max(2, bounds.get("min_length", 0))
    limit: int = bounds.get("max_length", count)
    return min(count, limit)


def _document_sample(cls: type) -> dict[str, Any]:
    schema = document_schema(cls)
    binding = schema.binding
    document: dict[str, Any] = {}
    for item in schema.fields:
        if item.output_only:
            continue
        try:
            if (
                item.record is not None
                and item.entry is not None
                and item.entry.value == "record_array"
            ):
                document[item.wire] = [
                    _record_sample(item.record.fields, binding, item.record.model_type, row, 1)
                    for row in range(1, _rows(item) + 1)
                ]
            else:
                document[item.wire] = _sample(item.annotation, binding, item.wire, 1)
        except _NoExampleError:
            if item.required:
                raise
    return document


def _instance(cls: type) -> Any:
    """A validated instance of ``cls`` from made-up values, falling back to defaults."""
    schema = document_schema(cls)
    validate = schema.binding.validator(schema.model_type)
    document = _document_sample(cls)
    for _ in range(len(document) + 1):
        try:
            return validate(document)
        except Exception as exc:
            problems = schema.binding.problems(exc)
            if not problems:
                raise _NoExampleError(cls.__name__) from exc
            dropped = False
            for problem in problems:
                dropped = _drop(document, problem.loc) or dropped
            if not dropped:
                raise _NoExampleError(cls.__name__) from exc
    raise _NoExampleError(cls.__name__)


def _drop(document: Any, loc: tuple[str | int, ...]) -> bool:
    """Leave out the value at ``loc`` (so its default applies); whether anything was removed.

    A required field left out fails the next validation as missing, at the
    same place, and nothing more can be removed there: the caller gives up.
    """
    names = [index for index, step in enumerate(loc) if isinstance(step, str)]
    while names:
        cut = names.pop()
        parent: Any = document
        try:
            for step in loc[:cut]:
                parent = parent[step]
        except (KeyError, IndexError, TypeError):
            continue
        if isinstance(parent, dict) and loc[cut] in parent:
            del parent[loc[cut]]
            return True
    return False


def example_document(
    cls: type, format: PromptFormat = "eson", *, delimiter: str = ","
) -> str | None:
    """A tiny document of ``cls`` that decodes into ``cls``, or ``None`` if none can be made.

    Values come from the field types and their constraints (the first
    ``Literal`` choice, numbers within bounds, strings within length
    limits, two rows per record array); fields whose values cannot be made
    up (a ``pattern``, say) keep their defaults.  The text is what the
    encoder writes for the resulting instance, and it is checked to decode.
    """
    wire = wire_format(document_format(format))
    try:
        instance = _instance(cls)
        text = wire.write(instance, delimiter=delimiter)
        wire.read(text, cls)
    except (_NoExampleError, ESONError, TypeError, ValueError):
        return None
    return text


# -- the prompt --------------------------------------------------------------------------


def _schema_section(layout: DocumentLayout, cls: type) -> str:
    name = getattr(cls, "__name__", "the message")
    doc = class_doc(cls)
    kind = wire_format(layout.format).title
    # The closing fence is the reply's end mark: without it a reply cut off by
    # the output limit can read as complete (see eson.agent.cutoff).
    head = (
        f"Reply with one {kind} document, a {name}, inside a ```{layout.format} code fence"
        " closed by a ``` line, and nothing else."
    )
    if doc:
        head += f" {name}: {doc}"
    head += "\nIts lines:"
    return "\n".join([head, *layout.schema_lines()])


def _example_text(cls: type, format: LayoutFormat, example: Any, delimiter: str) -> str | None:
    if example is False or example is None:
        return None
    if example is True:
        return example_document(cls, format, delimiter=delimiter)
    wire = wire_format(format)
    text = wire.write(example, delimiter=delimiter)
    wire.read(text, cls)
    return text


def _parts(
    cls: type | None,
    format: PromptFormat,
    reader: bool,
    example: Any,
    delimiter: str,
) -> tuple[str, str, str]:
    chosen = document_format(format)
    if reader:
        numbered = cls is not None and document_schema(cls).number
        return primer(chosen, reader=True, numbered=numbered), "", ""
    if cls is None:
        raise TypeError("a writer prompt needs the model class T")
    layout = document_layout(cls, chosen, delimiter=delimiter)
    schema = _schema_section(layout, cls)
    text = _example_text(cls, chosen, example, delimiter)
    shown = f"Example:\n{text.rstrip()}" if text else ""
    return primer(chosen), schema, shown


def prompt(
    model: type | None,
    *,
    format: PromptFormat = "eson",
    reader: bool = False,
    example: Any = True,
    delimiter: str = ",",
) -> str:
    """What a model needs to write a valid ``model`` (or, with ``reader=True``, to read one).

    Args:
        model: The model class (Pydantic model, msgspec Struct, dataclass).  May
            be ``None`` for a reader prompt.
        format: ``"eson"`` (or ``"eson/1"``) or ``"toon"``.
        reader: Only the primer, worded for reading payloads (no schema).
        example: ``True`` (default): a made-up example that decodes into
            ``T`` (left out if none can be made); ``False``: none; or an
            instance of ``T`` to show instead.
        delimiter: TOON only: the delimiter the model should use.

    Returns:
        The prompt text: primer, blank line, schema, blank line, example.

    Raises:
        TypeError: if ``T`` is not a model class or breaks a schema rule.
        ValueError: for an unknown format.
        eson.ESONError: if a given ``example`` cannot be written or read back.
    """
    return "\n\n".join(part for part in _parts(model, format, reader, example, delimiter) if part)


@dataclass(frozen=True)
class PromptCost:
    """What a prompt costs, in tokens of one encoding.

    Attributes:
        primer: The format primer alone.
        schema: The schema section alone (0 for a reader prompt).
        example: The example alone (0 without one).
        total: The whole prompt (parts joined by blank lines).
        encoding: The encoding counted in.
    """

    primer: int
    schema: int
    example: int
    total: int
    encoding: str


def prompt_cost(
    model: type | None,
    *,
    format: PromptFormat = "eson",
    reader: bool = False,
    example: Any = True,
    delimiter: str = ",",
    encoding: str = "o200k_base",
) -> PromptCost:
    """The token cost of :func:`prompt` with the same arguments, part by part.

    Raises:
        ImportError: without the ``typed-eson[tokens]`` extra.
    """
    from eson.agent.tokens import count_tokens_many

    parts = _parts(model, format, reader, example, delimiter)
    whole = "\n\n".join(part for part in parts if part)
    counts = count_tokens_many([*parts, whole], encoding)
    return PromptCost(counts[0], counts[1], counts[2], counts[3], encoding)
