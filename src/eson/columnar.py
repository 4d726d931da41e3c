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
from typing import Any, ClassVar

from eson._internal import api
from eson._internal.api import Data, DecodeResult, Err, Ok
from eson._internal.api import ValueT as T
from eson._internal.codecs.columnar_typed import codec_for
from eson._internal.schema.compile import model_class_of
from eson._internal.wire.columnar import decode_columnar, encode_columnar
from eson._internal.wire.eson_reader import text_of
from eson._internal.wire.options import STRICT, ReadOptions
from eson._internal.wire.repairs import Repair

__all__ = ["DecodeResult", "Decoder", "Encoder", "Err", "Ok", "decode", "encode", "try_decode"]


#: Columnar JSON is JSON: it has one reading, and no reading options.
_READ = STRICT


class _ColumnarFront(api.Front):
    """Columnar JSON as the front doors read it: JSON, with its blocks rebuilt."""

    __slots__ = ()

    # No reading options (the doors read with STRICT): only how it shows itself.
    shown = "columnar.Decoder"

    def plain(self, text: Data, read: ReadOptions, repairs: list[Repair] | None) -> Any:
        return decode_columnar(text_of(text, "columnar JSON"))

    def reader(self, type: builtins.type[Any], read: ReadOptions) -> Any:
        return codec_for(type)


_COLUMNAR = _ColumnarFront()


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
    cls = model_class_of(value)
    if cls is not None:
        return codec_for(cls).encode(value)
    return encode_columnar(value)


def decode(
    text: Data,
    *,
    type: builtins.type[T] | None = None,
    validation_strict: bool | None = None,
    context: Any = None,
) -> T:
    """Decode columnar JSON (plain JSON too) into plain values, or a model instance.

    Args:
        text: The JSON text (``bytes`` are read as UTF-8; one leading
            byte-order mark is ignored).
        type: A model class to validate into; ``None`` for plain values.
        validation_strict: The framework's strict mode for the validation of
            a typed decode (``model_validate(strict=...)``,
            ``msgspec.convert(strict=...)``); ``None`` keeps its default.
        context: Passed to Pydantic validators (``model_validate(context=...)``);
            a ``context`` for a msgspec type raises ``TypeError``.

    Raises:
        eson.DecodeError: for text that is not JSON (``NaN``, duplicate keys
            and nesting beyond 500 levels included) or holds a malformed
            block (a row whose length differs from ``#c``).
        eson.ValidationError: (typed) for values the model rejects, naming
            the section, row and field.
        TypeError: for a ``text`` that is neither ``str`` nor bytes-like, a
            ``type`` that is not a model class, and validation options that
            do not apply.
    """
    result: T = api.decode_as(_COLUMNAR, text, type, _READ, None, validation_strict, context)
    return result


def try_decode(
    text: Data,
    *,
    type: builtins.type[T] | None = None,
    validation_strict: bool | None = None,
    context: Any = None,
) -> Ok[T] | Err:
    """Decode without raising on bad text (see :func:`eson.try_decode`).

    Returns ``Ok(value)`` or ``Err(error)`` (:data:`eson.DecodeResult`); a
    ``type`` that is not a model class, or options that do not apply, still
    raise ``TypeError``.
    """
    return api.try_decode_as(_COLUMNAR, text, type, _READ, None, validation_strict, context)


class Encoder:
    """A reusable columnar JSON encoder, like ``eson.Encoder``.

    Columnar JSON has no writing options; each model class is compiled once
    (on first use) and cached.
    """

    __slots__ = ()

    def encode(self, value: Any) -> str:
        """Encode a plain value or a model instance (see :func:`eson.columnar.encode`)."""
        return encode(value)


class Decoder(api.FrontDecoder[T]):
    """A reusable columnar JSON decoder for one type, like ``eson.Decoder(T)``.

    The type is compiled when the decoder is made (a type breaking a schema
    rule fails here with ``TypeError``); ``Decoder()`` without a type
    decodes to plain values.

    Args:
        type: The model class to validate into, or ``None``.
        validation_strict: The framework's strict mode for every decode
            (see :func:`eson.columnar.decode`).
        context: Pydantic validation context for every decode.
    """

    __slots__ = ()

    front: ClassVar[api.Front] = _COLUMNAR

    def __init__(
        self,
        type: builtins.type[T] | None = None,
        *,
        validation_strict: bool | None = None,
        context: Any = None,
    ) -> None:
        self._start(type, _READ, validation_strict, context)
