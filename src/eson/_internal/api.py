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
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeAlias, Union

from eson._internal.wire.eson_line_reader import decode_document
from eson._internal.wire.eson_writer import encode_document
from eson._internal.wire.options import Mode, ReadOptions, read_options, untyped_options
from eson.errors import ESONError

if TYPE_CHECKING:
    from eson._internal.results import Err, Ok
    from eson._internal.wire.repairs import Repair


class _Typed:
    """The typed machinery's entry points, imported when the first typed call makes one.

    Untyped reading and writing never load :mod:`eson._internal.codecs.eson_typed` nor
    :mod:`eson._internal.schema` (the model compilers, and through them msgspec), so
    ``import eson`` stays light (tests/test_startup.py counts the modules).
    Held here once loaded: a typed call then costs one global lookup, not
    the import statements it would repeat on every call.
    """

    __slots__ = (
        "check_options",
        "compiled_writer",
        "encode_model",
        "is_model_class",
        "reader_for",
        "writer_for",
    )

    def __init__(self) -> None:
        from eson._internal.codecs.eson_typed import (
            compiled_writer,
            encode_model,
            reader_for,
            writer_for,
        )
        from eson._internal.codecs.validation import check_options
        from eson._internal.schema.compile import is_model_class

        self.check_options = check_options
        self.compiled_writer = compiled_writer
        self.encode_model = encode_model
        self.is_model_class = is_model_class
        self.reader_for = reader_for
        self.writer_for = writer_for


_typed: _Typed | None = None


def _load_typed() -> _Typed:
    global _typed
    _typed = _Typed()
    return _typed


#: ``(Ok, Err)`` once :func:`try_decode` has loaded :mod:`eson._internal.results` (dataclasses).
_results: tuple[type[Ok[Any]], type[Err]] | None = None


def _load_results() -> tuple[type[Ok[Any]], type[Err]]:
    global _results
    from eson._internal.results import Err, Ok

    _results = (Ok, Err)
    return _results


if TYPE_CHECKING:
    from typing_extensions import TypeVar

    #: The decoded type: the model given as ``type=``, else dict[str, Any] (for type checkers).
    T = TypeVar("T", default=dict[str, Any])
    #: The same for formats whose plain values may be any JSON value (TOON, columnar JSON).
    ValueT = TypeVar("ValueT", default=Any)
else:
    from typing import TypeVar

    T = TypeVar("T")
    ValueT = TypeVar("ValueT")

Data = str | bytes | bytearray | memoryview


if TYPE_CHECKING:
    DecodeResult: TypeAlias = Union[Ok[T], Err]  # noqa: UP007 (a generic alias on 3.10)
    """The outcome of :func:`try_decode`: ``Ok[T] | Err``.

    Type checkers narrow it: after ``if result:``, ``if result.ok is True:``,
    ``isinstance(result, eson.Ok)`` or ``case eson.Ok(value=v):`` the value is
    a ``T`` (mypy also narrows on ``if result.ok:``; Pyright, by design, only
    on the forms above).  ``result.ok``, ``result.value`` and ``result.error``
    work on both, and ``isinstance(result, eson.DecodeResult)`` is true of both.
    """
else:

    class _DecodeResult:
        """The outcome of :func:`try_decode`: ``Ok[T] | Err`` (see the type alias).

        At run time ``DecodeResult[T]`` is ``Ok[T] | Err`` and
        ``isinstance(result, DecodeResult)`` holds for both, which a plain
        generic union alias would refuse.
        """

        __slots__ = ()

        def __getitem__(self, item: Any) -> Any:
            from eson._internal.results import Err, Ok

            return Union[Ok[item], Err]  # noqa: UP007

        def __instancecheck__(self, instance: Any) -> bool:
            from eson._internal.results import Err, Ok

            return isinstance(instance, (Ok, Err))

        def __repr__(self) -> str:
            return "eson.DecodeResult"

    DecodeResult = _DecodeResult()

    def __getattr__(name: str) -> Any:
        """``Ok`` and ``Err``, defined in :mod:`eson._internal.results` (loaded on first use)."""
        if name in ("Ok", "Err"):
            import eson._internal.results

            return getattr(eson._internal.results, name)
        raise AttributeError(f"module 'eson._internal.api' has no attribute {name!r}")



class Front:
    """One wire format as the front doors see it: ``decode``, ``try_decode``, ``Decoder``.

    The doors are written once, over this (:func:`decode_as`,
    :func:`try_decode_as`, :class:`FrontDecoder`); a format says only how
    its call's keywords become :class:`~eson.ReadOptions`, how it reads
    plain values and which compiled reader a model type has.  :data:`ESON` is ESON's; :mod:`eson.toon` and
    :mod:`eson.columnar` define theirs.
    """

    __slots__ = ()

    #: The format :func:`~eson._internal.wire.options.read_options` checks options against.
    name: ClassVar[Literal["eson", "toon"]] = "eson"
    #: What ``strict=False`` means at this format's doors (TOON's: the spec's lax mode).
    loose: ClassVar[Mode] = "lenient"
    #: How the format's ``Decoder`` shows itself: ``Decoder``, ``toon.Decoder``.
    shown: str = "Decoder"

    def options(
        self,
        options: ReadOptions | None,
        strict: bool | None,
        mode: Mode | None,
        partial: bool | None = None,
        indent_size: int | None = None,
    ) -> ReadOptions:
        """The call's one :class:`~eson.ReadOptions`, checked for this format."""
        return read_options(
            options,
            format=self.name,
            strict=strict,
            mode=mode,
            partial=partial,
            indent_size=indent_size,  # refused by a format that has no use for it
            loose=self.loose,
        )

    def plain(self, text: Data, read: ReadOptions, repairs: list[Repair] | None) -> Any:
        """Read ``text`` into plain values."""
        return decode_document(
            text, strict=read.strict, repairs=repairs, partial=read.partial
        )

    def reader(self, type: builtins.type[Any], read: ReadOptions) -> Any:
        """The compiled reader of ``type`` (``TypeError`` for a type that has none).

        Every compiled reader decodes as ``reader.decode(text, read, repairs,
        validation_strict=..., context=...)``: one :class:`~eson.ReadOptions`
        says how.
        """
        return (_typed or _load_typed()).reader_for(type)


#: ESON's front: what :func:`eson.decode`, :func:`eson.try_decode` and :class:`eson.Decoder` read.
ESON = Front()


def decode_as(
    front: Front,
    text: Data,
    type: builtins.type[T] | None,
    read: ReadOptions,
    repairs: list[Repair] | None,
    validation_strict: bool | None,
    context: Any,
) -> Any:
    """A format's ``decode``: plain values without ``type``, else a validated instance."""
    if type is None:
        untyped_options(validation_strict, context)
        return front.plain(text, read, repairs)
    reader = front.reader(type, read)
    return reader.decode(
        text, read, repairs, validation_strict=validation_strict, context=context
    )


def try_decode_as(
    front: Front,
    text: Data,
    type: builtins.type[T] | None,
    read: ReadOptions,
    repairs: list[Repair] | None,
    validation_strict: bool | None,
    context: Any,
) -> Ok[Any] | Err:
    """A format's ``try_decode``: an error in the text is an ``Err``; a mistake in the call raises.

    The ``repairs`` a lenient read made travel on the result either way (and
    are appended to ``repairs`` when given).
    """
    ok, err = _results or _load_results()
    if type is None:
        untyped_options(validation_strict, context)
        reader = None
    else:
        reader = front.reader(type, read)  # a bad type raises here, not into Err
    log: list[Repair] = []
    try:
        if reader is None:
            value = front.plain(text, read, log)
        else:
            value = reader.decode(
                text, read, log, validation_strict=validation_strict, context=context
            )
    except ESONError as exc:
        return err(exc, repairs=tuple(log))
    finally:
        if repairs is not None:
            repairs.extend(log)
    return ok(value, repairs=tuple(log))


class FrontDecoder(Generic[T]):
    """A reusable decoder for one type in one format; each format's ``Decoder`` is one.

    The type is compiled when the decoder is made (a type breaking a schema
    rule fails there with ``TypeError``), the options are checked once and
    kept as ``options``.  A subclass names its format in ``front`` and
    declares its own ``__init__`` keywords.
    """

    __slots__ = ("_reader", "context", "options", "type", "validation_strict")

    front: ClassVar[Front] = ESON

    def _start(
        self,
        type: builtins.type[T] | None,
        read: ReadOptions,
        validation_strict: bool | None,
        context: Any,
    ) -> None:
        self.options: ReadOptions = read
        self.type: builtins.type[T] | None = type
        self.validation_strict: bool | None = validation_strict
        self.context: Any = context
        self._reader: Any = None
        if type is None:
            untyped_options(validation_strict, context)
        else:
            self._reader = reader = self.front.reader(type, read)
            (_typed or _load_typed()).check_options(reader.binding, validation_strict, context)

    @property
    def strict(self) -> bool:
        """Whether every decode reads strictly (``options.mode == "strict"``)."""
        return self.options.strict

    def decode(self, text: Data, *, repairs: list[Repair] | None = None) -> T:
        """Decode one document (see the format's ``decode``); a lenient read records into ``repairs``."""
        reader = self._reader
        if reader is None:
            plain: T = self.front.plain(text, self.options, repairs)
            return plain
        result: T = reader.decode(
            text,
            self.options,
            repairs,
            validation_strict=self.validation_strict,
            context=self.context,
        )
        return result

    def __repr__(self) -> str:
        name = getattr(self.type, "__qualname__", None)
        return f"{self.front.shown}({name})" if name else f"{self.front.shown}()"


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
    if not isinstance(value, Mapping):
        typed = _typed or _load_typed()
        writer = typed.compiled_writer(type(value))  # the common case: a class seen before
        if writer is not None:
            return writer.encode(value, number)
        if typed.is_model_class(type(value)):
            return typed.encode_model(value, number)
    return encode_document(value, number=bool(number))  # type: ignore[arg-type]


def check_reading(strict: object, partial: object = False) -> ReadOptions:
    """The ESON :class:`~eson.ReadOptions` of ``strict`` and ``partial`` (checked).

    Raises:
        TypeError: if ``strict`` or ``partial`` is not a ``bool``.
        ValueError: for ``partial=True`` with ``strict=True``.
    """
    return read_options(format="eson", strict=strict, partial=partial)


def decode(
    text: Data,
    *,
    type: builtins.type[T] | None = None,
    strict: bool | None = None,
    mode: Mode | None = None,
    options: ReadOptions | None = None,
    repairs: list[Repair] | None = None,
    partial: bool | None = None,
    validation_strict: bool | None = None,
    context: Any = None,
) -> T:
    """Decode an ESON document into a ``dict`` of plain values, or a model instance.

    ``bytes``-like input is read as UTF-8.  CRLF line endings, a missing final
    line feed and one leading byte-order mark are accepted.

    Args:
        text: The document.
        type: A model class (Pydantic model, msgspec Struct, dataclass) to
            validate into; ``None`` for plain values.
        strict: ``True`` (the default) reads the text exactly as the grammar
            says (``mode="strict"``).  ``False`` reads leniently
            (``mode="lenient"``), for text a language model wrote: it also accepts white space at line ends and around
            cells, blank lines between entries, spaces after the commas of a
            field list and around a scalar's ``=``, and, typed only, a
            missing ``!eson/1`` header, a ``number=True`` record array
            without its ``n`` column and a bare number or boolean in a
            string field (read as its text).  Counts, cell counts and the
            ``n`` sequence are checked either way.  On canonical text both
            readings are the same.
        mode: The reading mode by name, ``"strict"`` or ``"lenient"`` (the
            two ``strict`` spells); ``"lax"`` is TOON's only (see the
            "Reading modes" table).  A ``mode`` that disagrees with
            ``strict`` is a ``ValueError``.
        options: All the reading options as one :class:`eson.ReadOptions`,
            instead of ``strict``, ``mode`` and ``partial`` (passing both is
            a ``ValueError``).
        repairs: A list to which a lenient read appends one
            :class:`eson.Repair` (line, kind, what was done) per fix; the
            caller owns it, so concurrent decodes never mix their repairs.
        partial: (``strict=False`` only) accept a document cut off inside
            its last array: keep the rows present, recorded as a
            ``rows-missing`` repair.  Never the default: a short array is
            otherwise a count error (Wire Profile W4).
        validation_strict: The framework's strict mode for the validation of
            a typed decode, as ``model_validate(strict=...)`` (Pydantic) and
            ``msgspec.convert(strict=...)`` take it; ``None`` keeps the
            framework's default (lax for Pydantic, strict for msgspec).  The
            document's values are plain JSON values, so Pydantic's strict
            mode refuses, for example, the string of a ``datetime``.  It is
            not called ``strict`` because ``strict`` is the wire option.
        context: Passed to Pydantic validators as ``model_validate(context=...)``
            does.  msgspec validation takes no context: a ``context`` for a
            msgspec type raises ``TypeError`` rather than being ignored.

    Raises:
        eson.DecodeError: for a malformed document, naming the line (an
            :class:`eson.CountError` when a declared count disagrees with
            the rows).
        eson.ValidationError: (typed) for values the model rejects, naming
            the line, section, row and field.
        TypeError: for a ``type`` that is not a model class or breaks an
            ESON schema rule, a non-``bool`` ``strict``/``partial``, and
            validation options that do not apply.
        ValueError: for reading options that do not fit together (see
            :class:`eson.ReadOptions`), such as ``partial=True`` with
            ``strict=True``.
    """
    read = ESON.options(options, strict, mode, partial)
    result: T = decode_as(ESON, text, type, read, repairs, validation_strict, context)
    return result


def validate(
    value: object,
    type: builtins.type[T],
    *,
    strict: bool | None = None,
    context: Any = None,
) -> T:
    """Validate a plain value (the JSON data model, or a model instance) into a ``type``.

    The value is what ``json.loads`` gives, or an MCP tool's structured
    content, or a framework's already-parsed body: nothing is encoded or
    read.  The validation is the framework's own (``model_validate`` for
    Pydantic, ``msgspec.convert`` for msgspec Structs and dataclasses), and
    a failure is an :class:`eson.ValidationError` placed like the decoders'
    (section, row, field), with the layout the model expects in its
    :attr:`~eson.ESONError.feedback`.

    Args:
        value: The plain value.
        type: A model class (Pydantic model, msgspec Struct, dataclass).
        strict: The framework's strict mode (``model_validate(strict=...)``,
            ``msgspec.convert(strict=...)``); ``None`` keeps its default.
            Here there is no wire option, so it is called ``strict`` (the
            decoders call it ``validation_strict``).
        context: Passed to Pydantic validators (``model_validate(context=...)``);
            a ``TypeError`` for a msgspec type, whose validation takes none.

    Raises:
        eson.ValidationError: for a value the model rejects.
        TypeError: for a ``type`` that is not a model class, a non-``bool``
            ``strict``, or a ``context`` for a msgspec type.
    """
    from eson._internal.codecs.feedback import attach_expected
    from eson._internal.codecs.validation import check_options, plain_place, validation_error
    from eson._internal.schema.compile import document_schema

    schema = document_schema(type)
    check_options(schema.binding, strict, context)
    check = schema.binding.validator(schema.model_type)
    try:
        result: T = check(value, strict, context)
    except Exception as exc:
        problems = schema.binding.problems(exc)
        if problems is None:
            raise
        error = validation_error(problems, value, plain_place)
        raise attach_expected(error, schema.model_type, "json", read=False) from exc
    return result


def try_decode(
    text: Data,
    *,
    type: builtins.type[T] | None = None,
    strict: bool | None = None,
    mode: Mode | None = None,
    options: ReadOptions | None = None,
    repairs: list[Repair] | None = None,
    partial: bool | None = None,
    validation_strict: bool | None = None,
    context: Any = None,
) -> Ok[T] | Err:
    """Decode without raising on bad text: for message routers.

    Takes the arguments of :func:`decode`.

    Returns:
        ``Ok(value)``, or ``Err(error)``, each with the ``repairs`` of a
        lenient read (also appended to ``repairs`` when given), where ``error`` is any
        :class:`eson.ESONError` (``DecodeError``, ``CountError``,
        ``ValidationError``).  Both have ``ok``, ``value`` and ``error``; see
        :data:`DecodeResult` for how type checkers narrow them.  A ``type``
        that is not a valid model class, or options that do not apply,
        still raise ``TypeError``.
    """
    read = ESON.options(options, strict, mode, partial)
    return try_decode_as(ESON, text, type, read, repairs, validation_strict, context)


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
        self.number: bool | None = number

    def encode(self, value: object) -> str:
        """Encode a mapping or a model instance (see :func:`eson.encode`)."""
        if not isinstance(value, Mapping):
            typed = _typed or _load_typed()
            cls = builtins.type(value)
            if typed.is_model_class(cls):
                return typed.writer_for(cls).encode(value, self.number)
        return encode_document(value, number=bool(self.number))  # type: ignore[arg-type]


class Decoder(FrontDecoder[T]):
    """A reusable decoder for one type, like ``msgspec.json.Decoder(T)``.

    The type is compiled when the decoder is made, so a type breaking an ESON
    schema rule fails here with ``TypeError``.  ``Decoder()`` without a type
    decodes to plain ``dict`` values.

    Args:
        type: The model class to validate into, or ``None``.
        strict: Wire strictness for every decode (see :func:`eson.decode`).
        mode: The reading mode by name (see :func:`eson.decode`).
        options: All the reading options as one :class:`eson.ReadOptions`
            (see :func:`eson.decode`); the decoder keeps them as ``options``.
        partial: Accept a cut-off last array (see :func:`eson.decode`).
        validation_strict: The framework's strict mode for every decode
            (see :func:`eson.decode`).
        context: Pydantic validation context for every decode (see
            :func:`eson.decode`).
    """

    __slots__ = ()

    def __init__(
        self,
        type: builtins.type[T] | None = None,
        *,
        strict: bool | None = None,
        mode: Mode | None = None,
        options: ReadOptions | None = None,
        partial: bool | None = None,
        validation_strict: bool | None = None,
        context: Any = None,
    ) -> None:
        read = ESON.options(options, strict, mode, partial)
        self._start(type, read, validation_strict, context)

    @property
    def partial(self) -> bool:
        """Whether a cut-off last array is accepted (``options.partial``)."""
        return self.options.partial
