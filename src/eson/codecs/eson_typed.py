"""The typed ESON codec of each model class, compiled on first use and cached.

This is the entry point the public API (:mod:`eson.api`) and the model base
classes (:mod:`eson.pydantic`, :mod:`eson.msgspec`) call.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any, TypeVar

from eson.codecs.eson_decode import DocumentReader
from eson.codecs.eson_encode import DocumentWriter
from eson.schema.compile import document_schema
from eson.wire.repairs import Repair

__all__ = ["decode_model", "encode_model", "reader_for", "writer_for"]

T = TypeVar("T")

_writers: weakref.WeakKeyDictionary[type, DocumentWriter] = weakref.WeakKeyDictionary()
_readers: weakref.WeakKeyDictionary[type, DocumentReader] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def writer_for(cls: type) -> DocumentWriter:
    """The compiled ESON writer of ``cls`` (compiling it on first use).

    Raises:
        TypeError: if ``cls`` is not a model type or breaks a schema rule.
    """
    writer = _writers.get(cls)
    if writer is None:
        schema = document_schema(cls)
        with _lock:
            writer = _writers.get(cls)
            if writer is None:
                writer = _writers[cls] = DocumentWriter(schema)
    return writer


def reader_for(cls: type) -> DocumentReader:
    """The compiled ESON reader of ``cls`` (compiling it on first use).

    Raises:
        TypeError: if ``cls`` is not a model type or breaks a schema rule.
    """
    reader = _readers.get(cls)
    if reader is None:
        schema = document_schema(cls)
        with _lock:
            reader = _readers.get(cls)
            if reader is None:
                reader = _readers[cls] = DocumentReader(schema)
    return reader


def encode_model(obj: object, number: bool | None = None) -> str:
    """Write a model instance as an ESON document (the class's own ``number`` by default)."""
    return writer_for(type(obj)).encode(obj, number)


def decode_model(
    cls: type[T],
    data: str | bytes | bytearray | memoryview,
    strict: bool = True,
    repairs: list[Repair] | None = None,
    partial: bool = False,
    validation_strict: bool | None = None,
    context: Any = None,
) -> T:
    """Read an ESON document into a validated instance of ``cls`` (see :func:`eson.decode`)."""
    result: Any = reader_for(cls).decode(
        data, strict, repairs, partial, validation_strict=validation_strict, context=context
    )
    return result  # type: ignore[no-any-return]
