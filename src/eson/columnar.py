"""Columnar JSON: valid JSON whose uniform record arrays are written as column blocks.

The ``columnar`` capability of the wire negotiation: a list of two or more
objects sharing the same keys in the same order becomes
``{"#c":[columns],"#r":[[cells],...]}`` (at any depth), everything else is
compact JSON.  Every JSON parser reads it; this module also rebuilds the
records::

    from eson import columnar

    text = columnar.encode({"users": [{"id": 1, "name": "Ada"}, {"id": 2, "name": "Bob"}]})
    # {"users":{"#c":["id","name"],"#r":[[1,"Ada"],[2,"Bob"]]}}
    assert columnar.decode(text) == {"users": [{"id": 1, "name": "Ada"}, {"id": 2, "name": "Bob"}]}

Typed use mirrors :mod:`eson._internal.api` and :mod:`eson.toon`: a Pydantic model, a
msgspec Struct or a dataclass instance is written as its JSON-mode dump, and
``type=`` validates the text back into the model::

    text = columnar.encode(review)
    review = columnar.decode(text, type=Review)

The text codec lives in :mod:`eson._internal.wire.columnar`, the typed back end in
:mod:`eson._internal.codecs.columnar_typed`.
"""

from __future__ import annotations

import builtins
from typing import Any, TypeVar, overload

from eson._internal.api import DecodeResult, Err, Ok
from eson._internal.codecs.columnar_typed import codec_for
from eson._internal.schema.compile import is_model_class
from eson._internal.wire.columnar import decode_columnar, encode_columnar
from eson._internal.wire.eson_reader import text_of
from eson.errors import ESONError

__all__ = ["DecodeResult", "Err", "Ok", "decode", "encode", "try_decode"]

T = TypeVar("T")

Data = str | bytes | bytearray | memoryview

_PLAIN_TYPES = frozenset({dict, list, tuple, str, int, float, bool, type(None)})


def _model_class(value: object) -> type | None:
    cls = builtins.type(value)
    if cls in _PLAIN_TYPES or isinstance(value, (dict, list, tuple, str, int, float)):
        return None
    return cls if is_model_class(cls) else None


def encode(value: Any) -> str:
    """Encode a plain value, or a model instance, as columnar JSON text.

    Args:
        value: ``None``, ``bool``, ``int`` (any size), finite ``float``,
            ``str``, or ``list``/``tuple``/``dict`` (``str`` keys) of these;
            or an instance of a Pydantic model, msgspec Struct or dataclass
            (written as its JSON-mode dump).

    Returns:
        One line of JSON, without a line feed.

    Raises:
        eson.EncodeError: for a value JSON cannot hold, or a plain object
            whose keys are exactly ``#c`` and ``#r`` (it would read back as
            a block); the message names the path.
        TypeError: for a model type that breaks a schema rule.
    """
    cls = _model_class(value)
    if cls is not None:
        return codec_for(cls).encode(value)
    return encode_columnar(value)


@overload
def decode(text: Data, *, type: None = None) -> Any: ...


@overload
def decode(text: Data, *, type: builtins.type[T]) -> T: ...


def decode(text: Data, *, type: builtins.type[T] | None = None) -> T | Any:
    """Decode columnar JSON (plain JSON too) into plain values, or a model instance.

    Args:
        text: The JSON text (``bytes`` are read as UTF-8; one leading
            byte-order mark is ignored).
        type: A model class to validate into; ``None`` for plain values.

    Raises:
        eson.DecodeError: for text that is not JSON (``NaN``, duplicate keys
            and nesting beyond 500 levels included) or holds a malformed
            block (a row whose length differs from ``#c``).
        eson.ValidationError: (typed) for values the model rejects, naming
            the section, row and field.
        TypeError: for a ``type`` that is not a model class.
    """
    if type is None:
        return decode_columnar(text_of(text, "columnar JSON"))
    result: T = codec_for(type).decode(text)
    return result


@overload
def try_decode(text: Data, *, type: None = None) -> Ok[Any] | Err: ...


@overload
def try_decode(text: Data, *, type: builtins.type[T]) -> Ok[T] | Err: ...


def try_decode(
    text: Data, *, type: builtins.type[T] | None = None
) -> Ok[T] | Ok[Any] | Err:
    """Decode without raising on bad text (see :func:`eson.try_decode`).

    Returns ``Ok(value)`` or ``Err(error)`` (:data:`eson.DecodeResult`).
    """
    if type is None:
        try:
            return Ok(decode_columnar(text_of(text, "columnar JSON")))
        except ESONError as exc:
            return Err(exc)
    codec = codec_for(type)
    try:
        return Ok(codec.decode(text))
    except ESONError as exc:
        return Err(exc)
