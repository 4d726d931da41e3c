"""The schema compiler: model types -> fixed, format-neutral layouts.

- :mod:`eson.schema.model`       -- the compiled schema (fields, wire names, shapes)
- :mod:`eson.schema.annotations` -- reading type annotations
- :mod:`eson.schema.rules`       -- the class-definition rules and their codes
- :mod:`eson.schema.binding`     -- what the compiler needs from a model framework
- :mod:`eson.schema.compile`     -- compiling a class, once, into a schema
- ``pydantic_binding`` / ``msgspec_binding`` -- the two frameworks

Format back ends (:mod:`eson.codecs`) turn a schema into text.
"""

from __future__ import annotations

from eson.schema.compile import binding_for, document_schema, is_model_class, record_schema
from eson.schema.model import CellType, DocumentSchema, EntryKind, FieldSchema, RecordSchema
from eson.schema.rules import RULES

__all__ = [
    "RULES",
    "CellType",
    "DocumentSchema",
    "EntryKind",
    "FieldSchema",
    "RecordSchema",
    "binding_for",
    "document_schema",
    "is_model_class",
    "record_schema",
]
