"""One ESON cell -- or a whole column of cells -- to and from text.

A cell is either a *bare string* or a *JSON value* (ESON 1.1, section 2).  A
string is bare iff it is non-empty, has no leading or trailing white space
(JavaScript's ``trim`` set, not Python's ``str.strip`` set), holds no TAB, CR
or LF, is not a JSON number, is not ``null``/``true``/``false`` and does not
start with ``"``, ``[`` or ``{``.  This codec also quotes strings holding
U+2028, U+2029 or surrogate code points (see :mod:`eson._internal.wire.eson_json`).

The column functions do the same work for a whole list of values at once:
when a column is uniform (all ``int``, all bare-safe ``str`` ...) one regular
expression over the joined column decides it, so a record array is encoded or
decoded with a handful of C-level passes instead of a Python call per cell.
They fall back to the per-cell functions for anything unusual and always give
the same result as calling those per cell.

Errors here carry no location; the document reader and writer add it.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from eson._internal.accelerator import native, type_mask
from eson._internal.wire.eson_json import NestingError, dump_json, load_json, quote
from eson._internal.wire.eson_lexicon import (
    INT_SOURCE,
    JS_SPACE_CHARS,
    JS_SPACE_CLASS,
    JSON_START,
    JSON_START_CLASS,
    LITERALS,
    NOT_BARE_FIRST,
    NUMBER_SOURCE,
    NUMBER_START,
    UNSAFE_BESIDE_LF_CLASS,
    UNSAFE_INSIDE_CLASS,
    lazy_pattern,
)
from eson._internal.wire.eson_numbers import NUMBER_RE, format_float, parse_number
from eson.errors import DecodeError, EncodeError, echo

_LITERALS = LITERALS
_MISSING: Any = object()

# Anything that forces a string into its quoted JSON form, except the two
# whole-string rules (number lookalike, literal lookalike) checked apart.
_QUOTE_TRIGGER = lazy_pattern(
    rf"\A[{JS_SPACE_CLASS}{JSON_START_CLASS}]|[{JS_SPACE_CLASS}]\Z|[{UNSAFE_INSIDE_CLASS}]"
)
# Column fast paths look at the set of first and last characters of a column.
# Indexing is cheaper than slicing; an empty string raises IndexError.
_first_char = itemgetter(0)
_last_char = itemgetter(-1)
# A string starting with one of these might need quotes ("" and "01" among them).
_SUSPECT_FIRST = JS_SPACE_CHARS | NOT_BARE_FIRST
_SUSPECT_LAST = JS_SPACE_CHARS
_UNSAFE_INSIDE = lazy_pattern(f"[{UNSAFE_BESIDE_LF_CLASS}]")
# Decoding: cells starting with one of these are not bare strings.
_NOT_BARE_FIRST = NOT_BARE_FIRST
_COLUMN_INTS = lazy_pattern(rf"(?:{INT_SOURCE}\n)*{INT_SOURCE}")
_COLUMN_NUMBERS = lazy_pattern(rf"(?:{NUMBER_SOURCE}\n)*{NUMBER_SOURCE}")
_NUMBER_START = NUMBER_START
_JSON_START = JSON_START
_int_repr = int.__repr__
_INF = float("inf")
_BOOL_TEXT = {"true": True, "false": False}
_BOOL_WORDS = frozenset(_BOOL_TEXT)
_STR_MASK = type_mask({str})


def is_bare(text: str) -> bool:
    """Return whether ``text`` may be written as a bare (unquoted) cell."""
    return (
        text != ""
        and _QUOTE_TRIGGER.search(text) is None
        and text not in _LITERALS
        and NUMBER_RE.fullmatch(text) is None
    )


def encode_str(text: str) -> str:
    """Return the cell text of a string: itself when bare, else a JSON string."""
    if native is not None and type(text) is str:
        cell: str | None = native.encode_str(text)
        if cell is not None:  # None: a split surrogate pair, refused by quote below
            return cell
    if (
        text
        and _QUOTE_TRIGGER.search(text) is None
        and text not in _LITERALS
        and NUMBER_RE.fullmatch(text) is None
    ):
        return text
    return quote(text)


def encode_cell(value: object) -> str:
    """Return the cell text of one plain value.

    Plain values are ``None``, ``bool``, ``int``, ``float``, ``str`` and
    lists, tuples and dicts of them (written as compact JSON).

    Raises:
        EncodeError: for other types, non-finite floats, and nested values
            the JSON writer refuses (see :func:`eson._internal.wire.eson_json.dump_json`).
    """
    kind = type(value)
    if kind is str:
        return encode_str(value)  # type: ignore[arg-type]
    if kind is int:
        return _encode_int(value)  # type: ignore[arg-type]
    if kind is float:
        return _encode_float(value)  # type: ignore[arg-type]
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if isinstance(value, (list, tuple, dict)):
        try:
            return dump_json(value)
        except NestingError as exc:
            raise EncodeError(str(exc)) from None
    # Subclasses of the JSON scalars (IntEnum, StrEnum ...) travel as their value.
    if isinstance(value, str):
        return encode_str(str.__str__(value))
    if isinstance(value, int):
        return _encode_int(int(value))
    if isinstance(value, float):
        return _encode_float(float(value))
    raise EncodeError(f"unsupported type {kind.__name__}; ESON holds JSON values only")


def _encode_int(value: int) -> str:
    try:
        return _int_repr(value)
    except ValueError as exc:  # beyond sys.get_int_max_str_digits()
        raise EncodeError(f"integer too large to write: {exc}") from None


def _encode_float(value: float) -> str:
    try:
        return format_float(value)
    except ValueError as exc:
        raise EncodeError(str(exc)) from None


def encode_column(values: Sequence[object]) -> list[str]:
    """Encode a column of plain values; equal to ``[encode_cell(v) for v in values]``."""
    if not values:
        return []
    if native is not None:
        cells = native.encode_cells(values)
        if cells is not None:
            return cells
    kinds = set(map(type, values))
    if len(kinds) == 1:
        kind = kinds.pop()
        if kind is str:
            return encode_str_column(values)  # type: ignore[arg-type]
        if kind is int:
            try:
                return list(map(_int_repr, values))
            except ValueError:
                pass  # a huge integer: the per-cell path raises the proper error
        elif kind is float:
            return encode_float_column(values)  # type: ignore[arg-type]
        elif kind is bool:
            return ["true" if value else "false" for value in values]
        elif kind is type(None):
            return ["null"] * len(values)
    return [encode_cell(value) for value in values]


def encode_str_column(values: Sequence[str]) -> list[str]:
    """Encode a column of ``str``; equal to ``[encode_str(v) for v in values]``.

    The common case -- every string may be written bare -- is decided with a
    handful of C-level passes over the joined column and its first and last
    characters.

    Raises:
        TypeError: if a value is not a ``str``.
    """
    if native is not None:
        cells = native.encode_cells(values, _STR_MASK)
        if cells is not None:
            return cells
    joined = "".join(values)
    try:
        bare = (
            "\n" not in joined
            and "\t" not in joined
            and "\r" not in joined
            and (joined.isascii() or _UNSAFE_INSIDE.search(joined) is None)
            and _SUSPECT_FIRST.isdisjoint(map(_first_char, values))
            and _SUSPECT_LAST.isdisjoint(map(_last_char, values))
            and _LITERALS.keys().isdisjoint(values)
        )
    except IndexError:  # an empty string, which needs quotes
        bare = False
    if bare:
        return values if type(values) is list else list(values)
    return [encode_str(value) for value in values]


def encode_float_column(values: Sequence[float]) -> list[str]:
    """Encode a column of ``float``; equal to ``[format_float(v) for v in values]``."""
    texts = list(map(float.__repr__, values))
    joined = "".join(texts)
    if "e" in joined or "n" in joined:
        return [_encode_float(value) for value in values]
    return texts


def decode_cell(text: str) -> Any:
    """Return the value of one cell's text.

    Raises:
        DecodeError: (without location) when a JSON cell is malformed or a
            number is not finite.
    """
    first = text[:1]
    if first in _NUMBER_START:
        if first and NUMBER_RE.fullmatch(text) is not None:
            try:
                return parse_number(text)
            except ValueError as exc:
                raise DecodeError(str(exc)) from None
        return text
    if first in _JSON_START:
        try:
            return load_json(text)
        except ValueError as exc:
            raise DecodeError(f"{exc} in cell {echo(text)}") from None
    value = _LITERALS.get(text, _MISSING)
    return text if value is _MISSING else value


def decode_column(texts: Sequence[str]) -> list[Any]:
    """Decode a column of cell texts; equal to ``[decode_cell(t) for t in texts]``.

    Raises:
        DecodeError: whose ``row`` is the 1-based index of the first bad cell.
    """
    if not texts:
        return []
    if native is not None and type(texts) is list:
        decoded = native.decode_cells(texts)
        if decoded is not None:
            return decoded
    if "" not in texts and _NOT_BARE_FIRST.isdisjoint(map(_first_char, texts)):
        if _LITERALS.keys().isdisjoint(texts):
            return list(texts)
        if _BOOL_WORDS.issuperset(texts):
            return [_BOOL_TEXT[text] for text in texts]
    else:
        joined = "\n".join(texts)
        try:
            if _COLUMN_INTS.fullmatch(joined) is not None:
                return list(map(int, texts))
            if _COLUMN_NUMBERS.fullmatch(joined) is not None:
                if "e" not in joined and "E" not in joined and joined.count(".") == len(texts):
                    numbers: list[Any] = list(map(float, texts))
                else:
                    numbers = [
                        float(text) if ("." in text or "e" in text or "E" in text) else int(text)
                        for text in texts
                    ]
                if _INF not in numbers and -_INF not in numbers:
                    return numbers
        except ValueError:
            pass  # an integer past the digit limit: the per-cell path explains it
    values: list[Any] = []
    append = values.append
    for index, text in enumerate(texts):
        try:
            append(decode_cell(text))
        except DecodeError as exc:
            raise DecodeError(exc.reason, row=index + 1) from None
    return values
