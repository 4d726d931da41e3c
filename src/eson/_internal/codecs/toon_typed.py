"""The typed TOON codec of each model class, compiled on first use and cached.

This is the entry point :mod:`eson.toon` and the model base classes
(:mod:`eson.pydantic`, :mod:`eson.msgspec`) call.  Writers are compiled per
class and per ``(delimiter, indent_size)``, readers per class and
``indent_size``; both over the same compiled schema as the ESON back end
(:func:`eson._internal.schema.document_schema`).
"""

from __future__ import annotations

import threading
from typing import Any, TypeVar

from eson._internal.codecs.toon_decode import DocumentReader
from eson._internal.codecs.toon_encode import DocumentWriter, WriterSet
from eson._internal.schema.class_cache import ATTRIBUTE, cached
from eson._internal.schema.compile import document_schema
from eson._internal.wire.options import STRICT, ReadOptions
from eson._internal.wire.repairs import Repair

T = TypeVar("T")

_DELIMITER_NAMES = {"comma": ",", "tab": "\t", "pipe": "|"}
_writer_sets: dict[tuple[str, int], WriterSet] = {}
_lock = threading.Lock()


def delimiter_of(delimiter: str) -> str:
    """The delimiter character for a delimiter or its name (``"comma"``, ``"tab"``, ``"pipe"``)."""
    return _DELIMITER_NAMES.get(delimiter, delimiter)


def writer_for(cls: type, delimiter: str = ",", indent_size: int = 2) -> DocumentWriter:
    """The compiled TOON writer of ``cls`` for these options (compiling it on first use).

    Raises:
        TypeError: if ``cls`` is not a model type or breaks a schema rule.
        ValueError: for a bad ``delimiter`` or ``indent_size``.
    """
    key = (delimiter_of(delimiter), indent_size)
    return cached(
        cls,
        ("toon document writer", *key),  # the key WriterSet.document keeps it under
        lambda: _writer_set(key).document(document_schema(cls)),
    )


def compiled_writer(cls: type, delimiter: str, indent_size: int) -> DocumentWriter | None:
    """The TOON writer of ``cls`` for these options if one was compiled already, else ``None``.

    Nothing is built; a writer exists only for a model class, so a found one
    also says that ``cls`` is one (as :func:`eson._internal.codecs.eson_typed.compiled_writer`).
    """
    entry = getattr(cls, ATTRIBUTE, None)
    if entry is not None and entry[0] is cls:
        found: DocumentWriter | None = entry[1].get(("toon document writer", delimiter, indent_size))
        return found
    return None


def _writer_set(key: tuple[str, int]) -> WriterSet:
    writers = _writer_sets.get(key)
    if writers is None:
        with _lock:
            writers = _writer_sets.get(key)
            if writers is None:
                writers = WriterSet(*key)
                _writer_sets[key] = writers
    return writers


def reader_for(cls: type, indent_size: int = 2) -> DocumentReader:
    """The compiled TOON reader of ``cls`` (compiling it on first use).

    Raises:
        TypeError: if ``cls`` is not a model type or breaks a schema rule.
        ValueError: for a bad ``indent_size``.
    """
    return cached(
        cls, ("toon reader", indent_size), lambda: DocumentReader(document_schema(cls), indent_size)
    )


def encode_model(obj: object, delimiter: str = ",", indent_size: int = 2) -> str:
    """Write a model instance as a TOON document."""
    return writer_for(type(obj), delimiter, indent_size).encode(obj)


def decode_model(
    cls: type[T],
    data: str | bytes | bytearray | memoryview,
    read: ReadOptions = STRICT,
    repairs: list[Repair] | None = None,
    *,
    validation_strict: bool | None = None,
    context: Any = None,
) -> T:
    """Read a TOON document into a validated instance of ``cls`` (see :func:`eson.toon.decode`)."""
    result: T = reader_for(cls, read.indent_size).decode(
        data, read, repairs, validation_strict=validation_strict, context=context
    )
    return result
