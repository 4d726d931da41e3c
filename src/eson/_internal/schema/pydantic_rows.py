"""Pydantic record instances built straight from decoded columns, where that is exact.

A typed decode validates the whole document in one ``validate_python`` call.
Most of that call goes to the record arrays: pydantic-core reads one dict
per row, checks each value and makes the instance.  For a record array
whose rows are already known to be valid as they are -- every column
decoded to values exactly of its field's plain type (``int``, ``str``,
``float``, ``bool``, a ``Literal`` of strings) -- the checks change nothing,
and the instance pydantic-core would make is fixed: ``__dict__`` holds the
values in field order, ``__pydantic_fields_set__`` the field names,
``__pydantic_extra__`` is ``None`` (an empty dict under ``extra="allow"``)
and ``__pydantic_private__`` is ``None``.  The accelerator's
``build_models`` makes exactly that, the way pydantic-core does (the class's
``object.__new__``, then generic attribute setting), and the document is
validated with those instances in place of the rows' dicts: Pydantic
accepts an instance of the field's own model class as it is.

That is the same result only where nothing sees the difference, which is
read off the core schemas Pydantic validates with (:func:`row_plan`):

- the record class: no validator of any kind (model or field,
  ``Annotated`` ones included), no constraint, no custom ``__init__``, no
  ``model_post_init`` or private attributes, no ``__new__``, instances
  never revalidated, and a configuration that cannot change a plain value
  (no ``str_strip_whitespace``, ``allow_inf_nan=False``, ...); each field
  looked up under its wire name;
- the way from the document to the records: the document model's own
  fields schema (no ``mode="before"`` or ``"wrap"`` model validator, which
  would see the dicts; ``mode="after"`` ones see the finished instance),
  the field a plain ``list`` of the record class (or the class itself for
  a single record) with no validator of its own.

Anything else keeps the dict path, and so does a column that is not valid
as it is (a ``float`` field's column of exact ``int`` and ``float`` values
is converted first, as Pydantic converts them).  A validation failure
elsewhere in the document is reported from the rows' dicts (ESON gives the
built rows back as dicts, :meth:`eson._internal.codecs.eson_decode.DocumentReader.as_dicts`;
TOON reads the text again for its error), so its message shows the values
as the dict path does.
"""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from pydantic import BaseModel

# Keys a schema may carry that change nothing about validating a valid plain value.
_INERT = frozenset({"type", "metadata", "ref", "serialization"})
_LEAF_KEYS = {
    "int": _INERT | {"strict"},
    "str": _INERT | {"strict"},
    "float": _INERT | {"strict"},
    "bool": _INERT | {"strict"},
    "literal": _INERT | {"expected"},
}
_DEFAULT_KEYS = _INERT | {
    "schema",
    "default",
    "default_factory",
    "default_factory_takes_data",
    "on_error",
    "validate_default",
    "copy_default",
}
_FIELD_KEYS = _INERT | {
    "schema",
    "validation_alias",
    "serialization_alias",
    "serialization_exclude",
    "serialization_exclude_if",
    "frozen",
}
_FIELDS_KEYS = _INERT | {
    "fields",
    "model_name",
    "computed_fields",
    "strict",
    "extra_behavior",
    "from_attributes",
}
_MODEL_KEYS = _INERT | {
    "cls",
    "schema",
    "custom_init",
    "root_model",
    "config",
    "generic_origin",
    "strict",
    "frozen",
}
_LIST_KEYS = _INERT | {"items_schema", "min_length", "max_length", "strict", "fail_fast"}
# Configuration that leaves a valid plain value as it is (others: the dict path).
_CONFIG_KEYS = frozenset(
    {
        "title",
        "strict",
        "extra_fields_behavior",
        "revalidate_instances",
        "validate_by_alias",
        "validate_by_name",
        "loc_by_alias",
        "from_attributes",
        "frozen",
        "hide_input_in_errors",
        "validation_error_cause",
        "cache_strings",
        "allow_inf_nan",
        "coerce_numbers_to_str",
        "regex_engine",
        "use_enum_values",
        "ser_json_timedelta",
        "ser_json_temporal",
        "ser_json_bytes",
        "ser_json_inf_nan",
        "val_json_bytes",
        "val_temporal_unit",
        "serialize_by_alias",
        "url_preserve_empty_path",
    }
)
# The attributes pydantic-core sets on a new instance (with __dict__).
_SLOTS = ("__pydantic_extra__", "__pydantic_private__", "__pydantic_fields_set__")


def _resolve(schema: Mapping[str, Any], definitions: Mapping[str, Any]) -> Mapping[str, Any]:
    if schema.get("type") == "definition-ref":
        found = definitions.get(schema.get("schema_ref", ""))
        return found if isinstance(found, Mapping) else {}
    return schema


def _plain(keys: Mapping[str, Any], allowed: frozenset[str]) -> bool:
    return set(keys) <= allowed


def _leaf(schema: Mapping[str, Any]) -> str | None:
    """The type of a field's schema that returns a valid plain value as it is (``None``: none)."""
    if schema.get("type") == "default":
        if not _plain(schema, _DEFAULT_KEYS):
            return None
        inner = schema.get("schema")
        if not isinstance(inner, Mapping):
            return None
        schema = inner
    kind = schema.get("type", "")
    allowed = _LEAF_KEYS.get(kind)
    if allowed is None or not _plain(schema, allowed):
        return None
    if kind == "literal":
        expected = schema.get("expected")
        if not expected or not all(type(value) is str for value in expected):
            return None
    return str(kind)


def _config(config: Any) -> bool:
    if config is None:
        return True
    if not isinstance(config, Mapping) or not _plain(config, _CONFIG_KEYS):
        return False
    return (
        config.get("revalidate_instances", "never") == "never"
        and config.get("validate_by_alias", True) is True
        and config.get("allow_inf_nan", True) is True
        and not config.get("from_attributes", False)
    )


def _plain_class(cls: type) -> bool:
    """Whether making an instance of ``cls`` the way pydantic-core does runs no Python code."""
    new: Any = cls.__new__
    if new is not object.__new__:
        return False
    for name in (*_SLOTS, "__dict__"):
        owner = next((base for base in cls.__mro__ if name in vars(base)), None)
        if owner is None:
            return False
        found = vars(owner)[name]
        if name == "__dict__":  # the instance dict's own descriptor (a mixin may hold it)
            if type(found) is not types.GetSetDescriptorType:
                return False
        elif owner is not BaseModel or type(found) is not types.MemberDescriptorType:
            return False
    return True


def _record_model(model: Mapping[str, Any], cls: type, wires: Sequence[str]) -> RowPlan | None:
    """The plan of a record class's model schema (see :func:`row_plan`)."""
    if (
        model.get("type") != "model"
        or model.get("cls") is not cls
        or not _plain(model, _MODEL_KEYS)
        or model.get("custom_init")
        or model.get("root_model")
        or not _config(model.get("config"))
    ):
        return None
    fields_schema = model.get("schema")
    if not isinstance(fields_schema, Mapping) or fields_schema.get("type") != "model-fields":
        return None
    if not _plain(fields_schema, _FIELDS_KEYS) or fields_schema.get("from_attributes"):
        return None
    fields = fields_schema.get("fields")
    if not isinstance(fields, Mapping) or len(fields) != len(wires):
        return None
    kinds: list[str] = []
    for (name, field), wire in zip(fields.items(), wires):
        if not isinstance(field, Mapping) or field.get("type") != "model-field":
            return None
        if not _plain(field, _FIELD_KEYS):
            return None
        if field.get("validation_alias", name) != wire:
            return None  # the dict's key would not be the one Pydantic looks up
        inner = field.get("schema")
        kind = _leaf(inner) if isinstance(inner, Mapping) else None
        if kind is None:
            return None
        kinds.append(kind)
    config = model.get("config") or {}
    extra = fields_schema.get("extra_behavior", config.get("extra_fields_behavior", "ignore"))
    if extra not in ("ignore", "forbid", "allow"):
        return None
    return RowPlan(tuple(fields), tuple(kinds), extra == "allow")


def _document_field(
    owner: type, attr: str
) -> tuple[Mapping[str, Any], Mapping[str, Any]] | None:
    """The schema of the document field ``attr`` as the document's validator uses it."""
    schema: Any = getattr(owner, "__pydantic_core_schema__", None)
    if not isinstance(schema, Mapping):
        return None
    definitions: dict[str, Any] = {}
    if schema.get("type") == "definitions":
        for item in schema.get("definitions", ()):
            if isinstance(item, Mapping) and isinstance(item.get("ref"), str):
                definitions[item["ref"]] = item
        schema = schema.get("schema")
    while isinstance(schema, Mapping) and schema.get("type") == "function-after":
        schema = schema.get("schema")  # model validators after: they see the instance
    if not isinstance(schema, Mapping):
        return None
    schema = _resolve(schema, definitions)
    if schema.get("type") != "model" or schema.get("cls") is not owner:
        return None
    if schema.get("custom_init"):
        return None  # a custom __init__ takes the rows as given
    fields_schema = schema.get("schema")
    if not isinstance(fields_schema, Mapping) or fields_schema.get("type") != "model-fields":
        return None  # a mode="before" model validator sees the rows
    field = (fields_schema.get("fields") or {}).get(attr)
    if not isinstance(field, Mapping) or field.get("type") != "model-field":
        return None
    value = field.get("schema")
    if isinstance(value, Mapping) and value.get("type") == "default":
        if not _plain(value, _DEFAULT_KEYS):
            return None
        value = value.get("schema")
    if not isinstance(value, Mapping):
        return None
    return _resolve(value, definitions), definitions


class RowPlan(NamedTuple):
    """How to build the records of one document field as instances (see :func:`row_plan`)."""

    #: The attribute names, in ``__dict__`` order (the fields' order).
    names: tuple[str, ...]
    #: Each field's core schema type: ``int``, ``str``, ``float``, ``bool`` or ``literal``.
    kinds: tuple[str, ...]
    #: ``__pydantic_extra__`` is an empty dict (``extra="allow"``), not ``None``.
    extra: bool


def row_plan(owner: type, attr: str, cls: type, wires: Sequence[str]) -> RowPlan | None:
    """For the records of document field ``attr`` of ``owner``, built as instances of ``cls``.

    ``None`` when validating the rows' dicts could give anything else than
    building the instances (see the module documentation).  ``wires`` are
    the keys of the rows' dicts, in field order.  The field holds a ``list``
    of records or one record.
    """
    if not (
        isinstance(owner, type)
        and issubclass(owner, BaseModel)
        and isinstance(cls, type)
        and issubclass(cls, BaseModel)
        and _plain_class(cls)
    ):
        return None
    found = _document_field(owner, attr)
    if found is None:
        return None
    value, definitions = found
    if value.get("type") == "list":
        if not _plain(value, _LIST_KEYS):
            return None
        items = value.get("items_schema")
        if not isinstance(items, Mapping):
            return None
        value = _resolve(items, definitions)
    return _record_model(value, cls, wires)
