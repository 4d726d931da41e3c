"""Typed TOON column codecs: whole columns of tokens in a few C-level passes.

The compiled schema says what a column holds (ints, floats, bools ...).  The
functions here try the matching fast path and return ``None`` when the column
does not fit it; the caller then formats value by value.  When they do
return, the result is exactly what :func:`eson._internal.wire.toon_quoting.format_primitive`
gives for each value:

- ``int`` and ``bool`` columns go through ``msgspec.json.encode`` of the whole
  column: its tokens for those types are the TOON tokens, so the column is
  accepted only if the output holds nothing else (no quotes, fractions,
  exponents or ``null``);
- ``float`` columns too, accepted only without exponents (TOON writes its own
  exponent layout): msgspec and Python both write the shortest digits that
  read back as the same float, so a token without exponent differs from the
  TOON token only in a trailing ``.0`` and in ``-0.0``, which are fixed up.

Decoding an ``int`` or ``float`` field's column of cells goes through
``msgspec.json`` too: the TOON number grammar is JSON's, and the spaces
around a cell, which TOON trims, JSON skips.  The result is exactly
:func:`~eson._internal.wire.toon_quoting.parse_cells` of the column, or ``None``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import msgspec

from eson._internal.wire.toon_lexicon import DIGITS

_json_encode = msgspec.json.encode
_INT_CHARS = str.maketrans("", "", DIGITS + "-,")
_FLOAT_CHARS = str.maketrans("", "", DIGITS + ".-,")
_BOOL_CHARS = str.maketrans("", "", "truefals,")
_WHOLE = re.compile(r"\.0(?=,|\Z)")
_NEGATIVE_ZERO = re.compile(r"(?:(?<=,)|\A)-0(?=,|\Z)")


def _inner(values: Sequence[Any]) -> str | None:
    try:
        return _json_encode(values).decode("ascii")[1:-1]
    except Exception:  # unsupported type, huge int ...
        return None


def format_ints(values: Sequence[Any]) -> list[str] | None:
    """Tokens of a column of ``int`` values (not ``bool``), else ``None``."""
    if not values:
        return []
    inner = _inner(values)
    if inner is None or inner.translate(_INT_CHARS):
        return None
    return inner.split(",")


def format_floats(values: Sequence[Any]) -> list[str] | None:
    """Tokens of a column of ``float`` (and ``int``) values, else ``None``.

    ``None`` also when a float needs an exponent, NaN or an infinity.
    """
    if not values:
        return []
    inner = _inner(values)
    if inner is None or inner.translate(_FLOAT_CHARS):
        return None
    if ".0" in inner:
        inner = _WHOLE.sub("", inner)
        if "-0" in inner:
            inner = _NEGATIVE_ZERO.sub("0", inner)
    return inner.split(",")


def format_bools(values: Sequence[Any]) -> list[str] | None:
    """Tokens of a column of ``bool`` values, else ``None``."""
    if not values:
        return []
    inner = _inner(values)
    if inner is None or inner.translate(_BOOL_CHARS):
        return None
    return inner.split(",")


_ints = msgspec.json.Decoder(list[int])
_numbers = msgspec.json.Decoder(list[int | float])
_MAX_CHARS = 40  # longer cells may hold integers beyond MAX_INT_DIGITS: not here


def _json_cells(cells: Sequence[str]) -> str | None:
    body = ",".join(cells)
    # A tab is white space to JSON but not to TOON; a quote, a bracket or a
    # comma would let one cell read as another JSON shape.
    if "\t" in body or "\r" in body or '"' in body or "[" in body or "{" in body:
        return None
    if len(body) > _MAX_CHARS * len(cells) and max(map(len, cells)) > _MAX_CHARS:
        return None
    return f"[{body}]"


def decode_ints(cells: Sequence[str]) -> list[int] | None:
    """The values of a column of integer cells (spaces around them allowed), else ``None``."""
    if not cells:
        return []
    document = _json_cells(cells)
    if document is None:
        return None
    try:
        values = _ints.decode(document)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeEncodeError):
        return None
    return values if len(values) == len(cells) else None


def decode_numbers(cells: Sequence[str]) -> list[int | float] | None:
    """The values of a column of number cells (spaces around them allowed), else ``None``.

    Integer cells give ``int``, the others ``float``; ``-0.0`` gives ``0.0``.
    """
    if not cells:
        return []
    document = _json_cells(cells)
    if document is None:
        return None
    try:
        values = _numbers.decode(document)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeEncodeError):
        return None
    if len(values) != len(cells):
        return None
    if 0.0 in values:
        return [0.0 if type(value) is float and not value else value for value in values]
    return values
