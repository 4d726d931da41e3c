"""The typed ESON codec of each model class, compiled on first use and cached.

This is the entry point the public API (:mod:`eson._internal.api`) and the model base
classes (:mod:`eson.pydantic`, :mod:`eson.msgspec`) call.
"""

from __future__ import annotations

from typing import Any, TypeVar

from eson._internal.codecs.eson_decode import DocumentReader
from eson._internal.codecs.eson_encode import DocumentWriter
from eson._internal.schema.class_cache import ATTRIBUTE, cached
from eson._internal.schema.compile import document_schema
from eson._internal.wire.options import STRICT, ReadOptions
from eson._internal.wire.repairs import Repair

T = TypeVar("T")
_WRITER = "eson writer"



def writer_for(cls: type) -> DocumentWriter:
    """The compiled ESON writer of ``cls`` (compiling it on first use).

    Raises:
        TypeError: if ``cls`` is not a model type or breaks a schema rule.
    """
    return cached(cls, _WRITER, lambda: DocumentWriter(document_schema(cls)))


def reader_for(cls: type) -> DocumentReader:
    """The compiled ESON reader of ``cls`` (compiling it on first use).

    Raises:
        TypeError: if ``cls`` is not a model type or breaks a schema rule.
    """
    return cached(cls, "eson reader", lambda: DocumentReader(document_schema(cls)))


def compiled_writer(cls: type) -> DocumentWriter | None:
    """The ESON writer of ``cls`` if one was compiled already, else ``None`` (nothing is built).

    A writer exists only for a model class, so a found one also says that
    ``cls`` is one (what :func:`eson._internal.schema.compile.is_model_class` checks).
    """
    entry = getattr(cls, ATTRIBUTE, None)
    if entry is not None and entry[0] is cls:
        found: DocumentWriter | None = entry[1].get(_WRITER)
        return found
    return None


def encode_model(obj: object, number: bool | None = None) -> str:
    """Write a model instance as an ESON document (the class's own ``number`` by default)."""
    return writer_for(type(obj)).encode(obj, number)


def decode_model(
    cls: type[T],
    data: str | bytes | bytearray | memoryview,
    read: ReadOptions = STRICT,
    repairs: list[Repair] | None = None,
    *,
    validation_strict: bool | None = None,
    context: Any = None,
) -> T:
    """Read an ESON document into a validated instance of ``cls`` (see :func:`eson.decode`)."""
    result: T = reader_for(cls).decode(
        data, read, repairs, validation_strict=validation_strict, context=context
    )
    return result
