"""TOON (Token-Oriented Object Notation, spec v4.0): plain values and model types.

Untyped use mirrors :mod:`json`::

    from eson import toon

    text = toon.encode({"users": [{"id": 1, "name": "Ada"}, {"id": 2, "name": "Bob"}]})
    # users[2]{id,name}:
    #   1,Ada
    #   2,Bob
    assert toon.decode(text) == {"users": [{"id": 1, "name": "Ada"}, {"id": 2, "name": "Bob"}]}

Typed use mirrors the ESON functions (:mod:`eson._internal.api`): a Pydantic model, a
msgspec Struct or a dataclass instance is written through its compiled
schema, and ``type=`` reads a validated instance back::

    text = toon.encode(review)                  # a model instance
    review = toon.decode(text, type=Review)     # a validated Review

    decoder = toon.Decoder(Review)              # compile once, reuse
    review = decoder.decode(text)

Typed encoding writes exactly what the untyped path writes for the model's
JSON-mode dump (``model_dump(mode="json", by_alias=True)`` /
``msgspec.to_builtins``) with the same options; typed decoding returns
exactly what validating the untyped result gives (``model_validate`` /
``msgspec.convert``).

Bad text raises :class:`eson.errors.TOONError` (a ``ValueError``) with the
1-based line number, as do values TOON cannot hold; a typed decode of
well-formed text the model rejects raises :class:`eson.errors.ValidationError`.
The codec itself lives in :mod:`eson._internal.wire` (untyped) and :mod:`eson._internal.codecs`
(typed); this module is the public front door.
"""

from __future__ import annotations

import builtins
from typing import Any, ClassVar

from eson._internal import api
from eson._internal.api import Data, DecodeResult, Err, Ok
from eson._internal.api import ValueT as T
from eson._internal.codecs.toon_typed import (
    compiled_writer,
    delimiter_of,
    reader_for,
    writer_for,
)
from eson._internal.schema.compile import model_class_of
from eson._internal.wire.options import Mode, ReadOptions, indent_size_of
from eson._internal.wire.repairs import Repair
from eson._internal.wire.toon_parser import decode_text, text_of
from eson._internal.wire.toon_writer import encode_value
from eson.errors import TOONError

__all__ = [
    "DecodeResult", "Decoder", "Encoder", "Err", "Ok",
    "ReadOptions", "TOONError", "decode", "encode", "try_decode",
]



class _ToonFront(api.Front):
    """TOON as the front doors read it: ``strict=False`` is the spec's non-strict (lax) mode."""

    __slots__ = ()

    name = "toon"
    loose = "lax"
    shown = "toon.Decoder"

    def plain(self, text: Data, read: ReadOptions, repairs: list[Repair] | None) -> Any:
        return decode_text(text_of(text), strict=read.checks_counts, indent_size=read.indent_size)

    def reader(self, type: builtins.type[Any], read: ReadOptions) -> Any:
        return reader_for(type, read.indent_size)


_TOON = _ToonFront()


def encode(value: Any, *, delimiter: str = ",", indent_size: int = 2) -> str:
    """Encode a plain Python value, or a model instance, as a TOON document.

    Args:
        value: ``None``, ``bool``, ``int``, ``float``, ``str``, or ``list``/
            ``tuple``/``dict`` (with ``str`` keys) of these, nested at most
            256 levels; or an instance of a Pydantic model, a msgspec Struct
            or a dataclass (written through its compiled schema, byte for
            byte as its JSON-mode dump would be).  ``float`` NaN and
            infinities are written as ``null``; ``int`` of any size is
            written exactly.
        delimiter: The document delimiter: ``","`` (default), ``"\\t"`` or
            ``"|"`` (or the names ``"comma"``, ``"tab"``, ``"pipe"``).
        indent_size: Spaces per indentation level (default 2).

    Returns:
        The document: LF line breaks, no trailing newline.  An empty ``dict``
        (or a model without fields) encodes to the empty string.

    Raises:
        TOONError: for a value TOON cannot hold: another type, a non-``str``
            key, a circular reference, nesting deeper than 256 levels, or a
            model instance its framework cannot dump.
        TypeError: for a model type that breaks a schema rule.
        ValueError: for an unknown ``delimiter`` or a bad ``indent_size``.
    """
    writer = compiled_writer(type(value), delimiter, indent_size)  # a class seen before
    if writer is not None:
        return writer.encode(value)
    cls = model_class_of(value)
    if cls is not None:
        return writer_for(cls, delimiter, indent_size).encode(value)
    return encode_value(value, delimiter=delimiter_of(delimiter), indent_size=indent_size)


def decode(
    text: Data,
    *,
    type: builtins.type[T] | None = None,
    strict: bool | None = None,
    mode: Mode | None = None,
    options: ReadOptions | None = None,
    indent_size: int | None = None,
    repairs: list[Repair] | None = None,
    validation_strict: bool | None = None,
    context: Any = None,
) -> T:
    """Decode a TOON document into plain Python values, or a model instance.

    Untyped, objects become ``dict``, arrays ``list``; integer tokens become
    ``int`` (exact, any size up to 4300 digits) and tokens with a fraction
    or exponent ``float``.  Bytes-like input is read as UTF-8; one leading
    byte-order mark is ignored; CRLF line breaks are accepted.

    Args:
        text: The document.
        type: A model class (Pydantic model, msgspec Struct, dataclass) to
            validate into; ``None`` for plain values.
        strict: Apply the spec's strict-mode checks (the default,
            ``mode="strict"``).  With ``False`` (``mode="lax"``, the spec's
            non-strict mode), duplicate keys resolve last-write-wins, indentation is
            rounded down to whole levels, blank lines inside arrays are
            ignored, declared counts and row widths are not enforced, and a
            malformed header is read as a plain ``key: value`` line; and,
            typed, a bare number or boolean in a field that takes only
            strings is read as its token text (``id: 12345`` for ``id: str``
            gives ``"12345"``), as in ESON's lenient reading.  This is
            TOON's own (wire) strictness; it must be a ``bool``.
        mode: The reading mode by name: ``"strict"``, ``"lax"`` (what
            ``strict=False`` means here), or ``"lenient"``: the spec's
            strict checks (counts and widths included) plus the typed text
            rule, recorded -- the reading of :func:`eson.parse_reply` and
            :class:`eson.StreamDecoder`.  See the "Reading modes" table.
        options: All the reading options as one :class:`eson.ReadOptions`,
            instead of ``strict``, ``mode`` and ``indent_size`` (passing both
            is a ``ValueError``).
        indent_size: Spaces per indentation level (default 2).
        repairs: (typed, not strict) a list to which each such
            number-or-boolean-as-text reading is appended as an
            :class:`eson.Repair`.  TOON's other relaxations are the spec's
            non-strict mode and are not recorded.
        validation_strict: The framework's strict mode for the validation of
            a typed decode (``model_validate(strict=...)``,
            ``msgspec.convert(strict=...)``); ``None`` keeps the framework's
            default.  Named apart from ``strict``, which is TOON's.
        context: Passed to Pydantic validators (``model_validate(context=...)``);
            a ``context`` for a msgspec type raises ``TypeError``, since
            msgspec validation takes none.

    Raises:
        TOONError: for malformed text (including invalid UTF-8), naming the
            line.
        eson.ValidationError: (typed) for well-formed text whose values the
            model rejects, naming the line, section, row and field.
        TypeError: when ``text`` is neither ``str`` nor bytes-like, when
            ``strict`` is not a ``bool``, for a ``type`` that is not a model
            class or breaks a schema rule, and for validation options that
            do not apply.
        ValueError: for a bad ``indent_size``, and reading options that do
            not fit together (see :class:`eson.ReadOptions`).
    """
    read = _TOON.options(options, strict, mode, indent_size=indent_size)
    result: T = api.decode_as(_TOON, text, type, read, repairs, validation_strict, context)
    return result


def try_decode(
    text: Data,
    *,
    type: builtins.type[T] | None = None,
    strict: bool | None = None,
    mode: Mode | None = None,
    options: ReadOptions | None = None,
    indent_size: int | None = None,
    repairs: list[Repair] | None = None,
    validation_strict: bool | None = None,
    context: Any = None,
) -> Ok[T] | Err:
    """Decode without raising on bad text: for message routers.

    Takes the arguments of :func:`decode`.

    Returns:
        ``Ok(value)``, or ``Err(error)`` holding the :class:`TOONError` or
        (typed) :class:`eson.ValidationError`; see
        :data:`eson.DecodeResult` for how type checkers narrow them.  Each
        has the ``repairs`` of a typed lenient read (also appended to
        ``repairs`` when given).  A ``type`` that is not a valid model
        class, a ``strict`` that is not a ``bool``, or options that do not
        apply, still raise ``TypeError``: those are mistakes in the call,
        not in the text.
    """
    read = _TOON.options(options, strict, mode, indent_size=indent_size)
    return api.try_decode_as(_TOON, text, type, read, repairs, validation_strict, context)


class Encoder:
    """A reusable TOON encoder, like ``eson.Encoder`` (and ``msgspec.json.Encoder``).

    Each model class is compiled once per set of options (on first use) and
    cached, so an ``Encoder`` mostly fixes the options.

    Args:
        delimiter: ``","`` (default), ``"\\t"`` or ``"|"`` (or ``"comma"``,
            ``"tab"``, ``"pipe"``).
        indent_size: Spaces per indentation level (default 2).

    Raises:
        ValueError: for an unknown ``delimiter`` or a bad ``indent_size``.
    """

    __slots__ = ("delimiter", "indent_size")

    def __init__(self, *, delimiter: str = ",", indent_size: int = 2) -> None:
        chosen = delimiter_of(delimiter)
        if chosen not in (",", "\t", "|"):
            raise ValueError(f"delimiter must be ',', '\\t' or '|', not {delimiter!r}")
        self.delimiter = chosen
        self.indent_size: int = indent_size_of(indent_size)

    def encode(self, value: Any) -> str:
        """Encode a plain value or a model instance (see :func:`eson.toon.encode`)."""
        return encode(value, delimiter=self.delimiter, indent_size=self.indent_size)


class Decoder(api.FrontDecoder[T]):
    """A reusable TOON decoder for one type, like ``eson.Decoder(T)``.

    The type is compiled when the decoder is made, so a type breaking a
    schema rule fails here with ``TypeError``.  ``Decoder()`` without a type
    decodes to plain values.

    Args:
        type: The model class to validate into, or ``None``.
        strict: TOON's strict-mode checks (see :func:`eson.toon.decode`); a ``bool``.
        mode: The reading mode by name (see :func:`eson.toon.decode`).
        options: All the reading options as one :class:`eson.ReadOptions`;
            the decoder keeps them as ``options``.
        indent_size: Spaces per indentation level (default 2).
        validation_strict: The framework's strict mode for every decode
            (see :func:`eson.toon.decode`).
        context: Pydantic validation context for every decode.

    Raises:
        TypeError: when ``strict`` is not a ``bool``, or for validation
            options that do not apply.
    """

    __slots__ = ()

    front: ClassVar[api.Front] = _TOON

    def __init__(
        self,
        type: builtins.type[T] | None = None,
        *,
        strict: bool | None = None,
        mode: Mode | None = None,
        options: ReadOptions | None = None,
        indent_size: int | None = None,
        validation_strict: bool | None = None,
        context: Any = None,
    ) -> None:
        read = _TOON.options(options, strict, mode, indent_size=indent_size)
        self._start(type, read, validation_strict, context)

    @property
    def indent_size(self) -> int:
        """Spaces per indentation level (``options.indent_size``)."""
        return self.options.indent_size
