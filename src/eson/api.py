"""The functional API: ``encode``, ``decode``, ``try_decode``, ``Encoder``, ``Decoder``.

Untyped, these work on plain Python values (the JSON data model with
arbitrary-precision integers), like ``json.dumps``/``json.loads``::

    text = eson.encode({"kind": "review", "findings": [{"file": "a.py", "line": 3}]})
    value = eson.decode(text)

Typed, they work on model types -- a ``pydantic.BaseModel``, a
``msgspec.Struct`` or a dataclass, subclassing nothing from this library --
the way ``msgspec.json`` does::

    text = eson.encode(review)                 # a model instance
    review = eson.decode(text, type=Review)    # a validated Review

    decoder = eson.Decoder(Review)             # compile once, reuse
    review = decoder.decode(text)

Typed encoding writes exactly what the untyped path writes for the model's
JSON-mode dump (``model_dump(mode="json", by_alias=True)`` /
``msgspec.to_builtins``); typed decoding returns exactly what validating the
untyped result gives (``model_validate`` / ``msgspec.convert``), except that
a record array's reserved ``n`` column is checked and dropped.  Standard
dataclasses follow msgspec's rules, Pydantic dataclasses Pydantic's.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, overload

from eson.codecs.eson_typed import encode_model, reader_for, writer_for
from eson.errors import ESONError
from eson.schema.compile import is_model_class
from eson.wire.eson_reader import decode_document
from eson.wire.eson_writer import encode_document

__all__ = ["DecodeResult", "Decoder", "Encoder", "decode", "encode", "try_decode"]

T = TypeVar("T")

Data = str | bytes | bytearray | memoryview


@dataclass(frozen=True, slots=True)
class DecodeResult(Generic[T]):
    """The outcome of :func:`try_decode`: a value, or the error that stopped it.

    ``ok`` is ``True`` exactly when ``error`` is ``None``; ``value`` is
    ``None`` when decoding failed.
    """

    ok: bool
    value: T | None = None
    error: ESONError | None = None


def encode(value: object, *, number: bool | None = None) -> str:
    """Encode a ``dict`` of plain values, or a model instance, as an ESON document.

    Args:
        value: The document root: a mapping whose keys match ESON's name
            production, with ``None``, ``bool``, ``int``, ``float``, ``str``,
            lists and dicts as values; or an instance of a Pydantic model, a
            msgspec Struct or a dataclass (written through its compiled schema).
        number: Prepend the reserved ``n`` row-number column to every record
            array.  ``None`` (the default) means ``False`` for a mapping and
            the class's own ``number`` option for a model instance.

    Returns:
        The document text, ending with a line feed.

    Raises:
        eson.EncodeError: for values ESON cannot represent, naming where.
        TypeError: for a model type that breaks an ESON schema rule.
    """
    if not isinstance(value, Mapping) and is_model_class(type(value)):
        return encode_model(value, number)
    return encode_document(value, number=bool(number))  # type: ignore[arg-type]


@overload
def decode(text: Data, *, type: None = None) -> dict[str, Any]: ...


@overload
def decode(text: Data, *, type: builtins.type[T]) -> T: ...


def decode(text: Data, *, type: builtins.type[T] | None = None) -> T | dict[str, Any]:
    """Decode an ESON document into a ``dict`` of plain values, or a model instance.

    ``bytes``-like input is read as UTF-8.  CRLF line endings, a missing final
    line feed and one leading byte-order mark are accepted.

    Args:
        text: The document.
        type: A model class (Pydantic model, msgspec Struct, dataclass) to
            validate into; ``None`` for plain values.

    Raises:
        eson.DecodeError: for a malformed document, naming the line.
        eson.ValidationError: (typed) for values the model rejects, naming
            the line, section, row and field.
        TypeError: for a ``type`` that is not a model class or breaks an
            ESON schema rule.
    """
    if type is None:
        return decode_document(text)
    result: T = reader_for(type).decode(text)
    return result


@overload
def try_decode(text: Data, *, type: None = None) -> DecodeResult[dict[str, Any]]: ...


@overload
def try_decode(text: Data, *, type: builtins.type[T]) -> DecodeResult[T]: ...


def try_decode(
    text: Data, *, type: builtins.type[T] | None = None
) -> DecodeResult[T] | DecodeResult[dict[str, Any]]:
    """Decode without raising on bad text: for message routers.

    Returns:
        ``DecodeResult(ok=True, value=...)`` or ``DecodeResult(ok=False, error=...)``;
        ``error`` is any :class:`eson.ESONError` (``DecodeError``,
        ``ValidationError``).  A ``type`` that is not a valid model class
        still raises ``TypeError``.
    """
    if type is None:
        try:
            return DecodeResult(True, decode_document(text))
        except ESONError as exc:
            return DecodeResult(False, None, exc)
    reader = reader_for(type)
    try:
        return DecodeResult(True, reader.decode(text))
    except ESONError as exc:
        return DecodeResult(False, None, exc)


class Encoder:
    """A reusable encoder, like ``msgspec.json.Encoder``.

    Each model class is compiled once (on first use) and cached, so an
    ``Encoder`` mostly fixes the options.

    Args:
        number: Number every record array (``True``/``False``), or follow
            each model class's own option (``None``, the default; plain
            mappings are then not numbered).
    """

    __slots__ = ("number",)

    def __init__(self, *, number: bool | None = None) -> None:
        self.number = number

    def encode(self, value: object) -> str:
        """Encode a mapping or a model instance (see :func:`eson.encode`)."""
        if not isinstance(value, Mapping):
            cls = builtins.type(value)
            if is_model_class(cls):
                return writer_for(cls).encode(value, self.number)
        return encode_document(value, number=bool(self.number))  # type: ignore[arg-type]


class Decoder(Generic[T]):
    """A reusable decoder for one type, like ``msgspec.json.Decoder(T)``.

    The type is compiled when the decoder is made, so a type breaking an ESON
    schema rule fails here with ``TypeError``.  ``Decoder()`` without a type
    decodes to plain ``dict`` values.
    """

    __slots__ = ("_reader", "type")

    @overload
    def __init__(self: Decoder[dict[str, Any]], type: None = None) -> None: ...

    @overload
    def __init__(self: Decoder[T], type: builtins.type[T]) -> None: ...

    def __init__(self, type: builtins.type[T] | None = None) -> None:
        self.type = type
        self._reader = reader_for(type) if type is not None else None

    def decode(self, text: Data) -> T:
        """Decode one document (see :func:`eson.decode`)."""
        reader = self._reader
        if reader is None:
            plain: Any = decode_document(text)
            return plain  # type: ignore[no-any-return]
        result: T = reader.decode(text)
        return result

    def __repr__(self) -> str:
        name = getattr(self.type, "__qualname__", None)
        return f"Decoder({name})" if name else "Decoder()"
