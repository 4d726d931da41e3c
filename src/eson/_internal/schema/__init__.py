"""The schema compiler: model types -> fixed, format-neutral layouts.

- :mod:`eson._internal.schema.model`       -- the compiled schema (fields, wire names, shapes)
- :mod:`eson._internal.schema.annotations` -- reading type annotations
- :mod:`eson._internal.schema.rules`       -- the class-definition rules and their codes
- :mod:`eson._internal.schema.binding`     -- what the compiler needs from a model framework
- :mod:`eson._internal.schema.compile`     -- compiling a class, once, into a schema
- ``pydantic_binding`` / ``msgspec_binding`` -- the two frameworks

Format back ends (:mod:`eson._internal.codecs`) turn a schema into text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from eson._internal.schema.compile import (
        binding_for as binding_for,
    )
    from eson._internal.schema.compile import (
        document_schema as document_schema,
    )
    from eson._internal.schema.compile import (
        is_model_class as is_model_class,
    )
    from eson._internal.schema.compile import (
        record_schema as record_schema,
    )
    from eson._internal.schema.model import (
        CellType as CellType,
    )
    from eson._internal.schema.model import (
        DocumentSchema as DocumentSchema,
    )
    from eson._internal.schema.model import (
        EntryKind as EntryKind,
    )
    from eson._internal.schema.model import (
        FieldSchema as FieldSchema,
    )
    from eson._internal.schema.model import (
        RecordSchema as RecordSchema,
    )
    from eson._internal.schema.rules import RULES as RULES

#: The package's names, each with its module: loaded on first use, so that
#: importing one submodule (the mypy plugin reads :mod:`eson._internal.schema.rule_table`)
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
        raise AttributeError(f"module 'eson._internal.schema' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"eson._internal.schema.{module}"), name)
    globals()[name] = value
    return value

