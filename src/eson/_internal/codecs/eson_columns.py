"""Typed column codecs: whole columns of cells in a few C-level passes.

The compiled schema says what a column should hold (ints, floats, bools, a
few literal strings ...).  These functions try the matching fast path and
return ``None`` when the column does not fit it, in which case the caller
uses the generic column functions of :mod:`eson._internal.wire.eson_cells`.  When they
do return, the result is exactly what the generic functions give:

- encoding numbers and booleans goes through ``msgspec.json.encode`` of the
  whole column: its token for an ``int``, a ``bool`` or a finite float
  written without exponent is the ESON cell text, so the column is accepted
  only if the output holds nothing else (no quotes, brackets, exponents or
  ``null``);
- decoding numbers goes through ``msgspec.json.decode`` of the cells joined
  as one JSON array, accepted only if there is no white space (which JSON
  would skip but ESON keeps as part of a bare string) and every cell gave
  exactly one number (an ESON number cell is a JSON number);
- columns of a few known values (``Literal`` strings, booleans) are a
  dictionary lookup from the canonical cell text.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any

import msgspec

from eson._internal.wire.eson_lexicon import DIGITS, LITERAL_WORDS, NOT_BARE_FIRST

_json_encode = msgspec.json.encode
_integers = msgspec.json.Decoder(list[int])
_numbers = msgspec.json.Decoder(list[int | float])
# Indexing is cheaper than slicing; an empty cell raises IndexError.
_first_char = itemgetter(0)
_NOT_BARE_FIRST = NOT_BARE_FIRST
_LITERALS = LITERAL_WORDS
# Deleting these leaves nothing iff a JSON array holds only ints and plain floats.
_NUMBER_CHARS = str.maketrans("", "", DIGITS + ".-,")
# ... iff it holds only true and false.
_BOOLEAN_CHARS = str.maketrans("", "", "truefals,")


def encode_numbers(
    values: Sequence[Any], *, ints: bool = True, floats: bool = True
) -> list[str] | None:
    """Cells of a column of ``int`` and exponent-free ``float`` values, else ``None``.

    With ``ints=False`` every value must be a ``float``, with ``floats=False``
    an ``int`` (a column the framework would convert is not taken).
    """
    if not values:
        return []
    try:
        text = _json_encode(values).decode("ascii")
    except Exception:  # unsupported type, huge int, non-ASCII string ...
        return None
    inner = text[1:-1]
    if inner.translate(_NUMBER_CHARS):
        return None
    if not ints and inner.count(".") != len(values):
        return None
    if not floats and "." in inner:
        return None
    return inner.split(",")


def encode_booleans(values: Sequence[Any]) -> list[str] | None:
    """Cells of a column of ``bool`` values, else ``None``."""
    if not values:
        return []
    try:
        text = _json_encode(values).decode("ascii")
    except Exception:
        return None
    inner = text[1:-1]
    if inner.translate(_BOOLEAN_CHARS):
        return None
    return inner.split(",")


def _joined(texts: Sequence[str]) -> str | None:
    joined = ",".join(texts)
    if " " in joined or "\r" in joined or "\t" in joined or "\n" in joined:
        return None
    return f"[{joined}]"


def decode_integers(texts: Sequence[str]) -> list[int] | None:
    """Values of a column whose cells are all JSON integers, else ``None``."""
    if not texts:
        return []
    document = _joined(texts)
    if document is None:
        return None
    try:
        values = _integers.decode(document)
    except (msgspec.DecodeError, UnicodeEncodeError):  # a lone surrogate cannot be UTF-8
        return None
    return values if len(values) == len(texts) else None


def decode_numbers(texts: Sequence[str]) -> list[int | float] | None:
    """Values of a column whose cells are all JSON numbers, else ``None``."""
    if not texts:
        return []
    document = _joined(texts)
    if document is None:
        return None
    try:
        values = _numbers.decode(document)
    except (msgspec.DecodeError, UnicodeEncodeError):  # a lone surrogate cannot be UTF-8
        return None
    return values if len(values) == len(texts) else None


def decode_bare_strings(texts: Sequence[str]) -> list[str] | None:
    """The cells themselves when every cell is a bare string, else ``None``."""
    try:
        if _NOT_BARE_FIRST.isdisjoint(map(_first_char, texts)) and _LITERALS.isdisjoint(texts):
            return list(texts)
    except IndexError:  # an empty cell: the generic path decides
        pass
    return None
