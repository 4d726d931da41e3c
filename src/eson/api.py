"""The functional API: ``encode``, ``decode`` and ``try_decode``.

Untyped, these work on plain Python values (the JSON data model with
arbitrary-precision integers), like ``json.dumps``/``json.loads``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from eson.errors import ESONError
from eson.wire.eson_reader import decode_document
from eson.wire.eson_writer import encode_document

__all__ = ["DecodeResult", "decode", "encode", "try_decode"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class DecodeResult(Generic[T]):
    """The outcome of :func:`try_decode`: a value, or the error that stopped it.

    ``ok`` is ``True`` exactly when ``error`` is ``None``; ``value`` is
    ``None`` when decoding failed.
    """

    ok: bool
    value: T | None = None
    error: ESONError | None = None


def encode(value: Mapping[str, Any], *, number: bool = False) -> str:
    """Encode a ``dict`` of plain values as an ESON document (``!eson/1``).

    Args:
        value: The document root: a mapping whose keys match ESON's name
            production, with ``None``, ``bool``, ``int``, ``float``, ``str``,
            lists and dicts as values.
        number: Prepend the reserved ``n`` row-number column to every record
            array, so readers can address "the Nth row" and check order.

    Returns:
        The document text, ending with a line feed.

    Raises:
        eson.EncodeError: for values ESON cannot represent, naming where.
    """
    return encode_document(value, number=number)


def decode(text: str | bytes | bytearray | memoryview) -> dict[str, Any]:
    """Decode an ESON document into a ``dict`` of plain values.

    ``bytes``-like input is read as UTF-8.  CRLF line endings, a missing final
    line feed and one leading byte-order mark are accepted.

    Raises:
        eson.DecodeError: for a malformed document, naming the line.
    """
    return decode_document(text)


def try_decode(text: str | bytes | bytearray | memoryview) -> DecodeResult[dict[str, Any]]:
    """Decode without raising on bad text: for message routers.

    Returns:
        ``DecodeResult(ok=True, value=...)`` or ``DecodeResult(ok=False, error=...)``.
    """
    try:
        return DecodeResult(True, decode_document(text))
    except ESONError as exc:
        return DecodeResult(False, None, exc)
