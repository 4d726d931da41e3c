"""TOON (Token-Oriented Object Notation, spec v4.0) for plain Python values.

Usage mirrors :mod:`json`::

    from eson import toon

    text = toon.encode({"users": [{"id": 1, "name": "Ada"}, {"id": 2, "name": "Bob"}]})
    # users[2]{id,name}:
    #   1,Ada
    #   2,Bob
    assert toon.decode(text) == {"users": [{"id": 1, "name": "Ada"}, {"id": 2, "name": "Bob"}]}

Both directions raise :class:`eson.errors.TOONError` (a ``ValueError``) with
the 1-based line number for bad text, and for values TOON cannot hold.  The
codec itself lives in :mod:`eson.wire` (``toon_writer.encode_value`` and
``toon_parser.decode_text``); this module is the public front door.
"""

from __future__ import annotations

from typing import Any

from eson.api import DecodeResult
from eson.errors import TOONError
from eson.wire.toon_parser import decode_text, text_of
from eson.wire.toon_writer import encode_value

__all__ = ["DecodeResult", "TOONError", "decode", "encode", "try_decode"]

_DELIMITER_NAMES = {"comma": ",", "tab": "\t", "pipe": "|"}


def encode(value: Any, *, delimiter: str = ",", indent_size: int = 2) -> str:
    """Encode a plain Python value as a TOON document.

    Args:
        value: ``None``, ``bool``, ``int``, ``float``, ``str``, or ``list``/
            ``tuple``/``dict`` (with ``str`` keys) of these, nested at most
            256 levels.  ``float`` NaN and infinities are written as ``null``;
            ``int`` of any size is written exactly.
        delimiter: The document delimiter: ``","`` (default), ``"\\t"`` or
            ``"|"`` (or the names ``"comma"``, ``"tab"``, ``"pipe"``).
        indent_size: Spaces per indentation level (default 2).

    Returns:
        The document: LF line breaks, no trailing newline.  An empty ``dict``
        encodes to the empty string.

    Raises:
        TOONError: for a value TOON cannot hold: another type, a non-``str``
            key, a circular reference, nesting deeper than 256 levels.
        ValueError: for an unknown ``delimiter`` or a bad ``indent_size``.
    """
    return encode_value(
        value, delimiter=_DELIMITER_NAMES.get(delimiter, delimiter), indent_size=indent_size
    )


def decode(
    text: str | bytes | bytearray | memoryview, *, strict: bool = True, indent_size: int = 2
) -> Any:
    """Decode a TOON document into plain Python values.

    Objects become ``dict``, arrays ``list``; integer tokens become ``int``
    (exact, any size up to 4300 digits) and tokens with a fraction or
    exponent ``float``.  Bytes-like input is read as UTF-8; one leading
    byte-order mark is ignored; CRLF line breaks are accepted.

    Args:
        text: The document.
        strict: Apply the spec's strict-mode checks (the default).  With
            ``False``, duplicate keys resolve last-write-wins, indentation is
            rounded down to whole levels, blank lines inside arrays are
            ignored, declared counts and row widths are not enforced, and a
            malformed header is read as a plain ``key: value`` line.
        indent_size: Spaces per indentation level (default 2).

    Raises:
        TOONError: for malformed text (including invalid UTF-8), naming the
            line.
        ValueError: for a bad ``indent_size``.
        TypeError: when ``text`` is neither ``str`` nor bytes-like.
    """
    return decode_text(text_of(text), strict=strict, indent_size=indent_size)


def try_decode(
    text: str | bytes | bytearray | memoryview, *, strict: bool = True, indent_size: int = 2
) -> DecodeResult[Any]:
    """Decode without raising on bad text.

    Returns:
        ``DecodeResult(ok=True, value=...)``, or ``DecodeResult(ok=False,
        error=...)`` holding the :class:`TOONError`.
    """
    try:
        return DecodeResult(True, decode(text, strict=strict, indent_size=indent_size))
    except TOONError as exc:
        return DecodeResult(False, None, exc)
