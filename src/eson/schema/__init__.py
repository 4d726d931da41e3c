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

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from eson.schema.compile import binding_for, document_schema, is_model_class, record_schema
    from eson.schema.model import CellType, DocumentSchema, EntryKind, FieldSchema, RecordSchema
    from eson.schema.rules import RULES

#: The package's names, each with its module: loaded on first use, so that
#: importing one submodule (the mypy plugin reads :mod:`eson.schema.rule_table`)
#: does not compile-load the rest.
_LAZY = {
    **dict.fromkeys(
        ("binding_for", "document_schema", "is_model_class", "record_schema"), "compile"
    ),
    **dict.fromkeys(
        ("CellType", "DocumentSchema", "EntryKind", "FieldSchema", "RecordSchema"), "model"
    ),
    "RULES": "rules",
}


def __getattr__(name: str) -> Any:
    """Load one of the package's names from its module."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'eson.schema' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"eson.schema.{module}"), name)
    globals()[name] = value
    return value

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
