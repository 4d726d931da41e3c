"""The schema compiler's view of Pydantic (v2) models and dataclasses.

Imported only when a Pydantic type is compiled, so ``import eson`` and the
msgspec flavour work without Pydantic installed.
"""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import typing
import uuid
from collections.abc import Callable, Mapping, Sequence
from operator import attrgetter, itemgetter
from typing import Any

import pydantic
from pydantic import BaseModel, ConfigDict, PlainSerializer, RootModel, TypeAdapter, WrapSerializer
from pydantic.dataclasses import is_pydantic_dataclass
from pydantic_core import PydanticUndefined

from eson._internal.accelerator import ACCESS_INSTANCE_DICT, native
from eson._internal.schema.annotations import generic_parameters, substitute
from eson._internal.schema.binding import (
    NO_DEFAULT,
    CompiledField,
    FieldNotes,
    FieldSpec,
    ModelShape,
    PrebuiltValidator,
    Problem,
    SurrogateError,
    Validator,
    replace_surrogates,
)
from eson._internal.schema.class_cache import cached
from eson._internal.schema.pydantic_rows import row_plan

# Config keys that change what a JSON-mode dump of a field value looks like.
_SERIALIZATION_KEYS = (
    "ser_json_bytes",
    "ser_json_inf_nan",
    "ser_json_temporal",
    "ser_json_timedelta",
    "arbitrary_types_allowed",
)
_PLAIN: dict[type, frozenset[type]] = {
    str: frozenset({str}),
    int: frozenset({int}),
    float: frozenset({float}),
    bool: frozenset({bool}),
}
# Leaf types whose dumps hold no dict.
_FIXED_LEAVES: tuple[type, ...] = (
    enum.Enum,
    datetime.date,
    datetime.time,
    datetime.timedelta,
    uuid.UUID,
    decimal.Decimal,
)
# Core schema types pydantic builds for classes it cannot write as JSON.
_OPAQUE_SCHEMAS = frozenset({"is-instance", "callable", "is-subclass"})


def owns(cls: object) -> bool:
    """Whether ``cls`` is a Pydantic model or Pydantic dataclass (parametrised ones too)."""
    generic = generic_parameters(cls)
    if generic is not None:
        cls = generic[0]
    # cast: the accepted argument type differs between Pydantic releases.
    return (isinstance(cls, type) and issubclass(cls, BaseModel)) or is_pydantic_dataclass(
        typing.cast(Any, cls)
    )


def _dataclass_alias(tp: object) -> tuple[type, dict[Any, Any]] | None:
    """A parametrised generic dataclass (``Box[int]``, a typing alias): class and parameters.

    Parametrised Pydantic models are classes of their own and need no such care.
    """
    generic = generic_parameters(tp)
    if generic is not None and dataclasses.is_dataclass(generic[0]):
        return generic
    return None


class PydanticBinding:
    """Pydantic models (and the dataclasses inside them)."""

    name = "pydantic"
    takes_context = True
    base_classes: frozenset[type] = frozenset({BaseModel})

    def model_shape(self, tp: object) -> ModelShape | None:
        if _dataclass_alias(tp) is not None:
            return "record"
        if not isinstance(tp, type):
            return None
        if issubclass(tp, BaseModel):
            if issubclass(tp, RootModel) or tp.__pydantic_decorators__.model_serializers:
                return "other"
            return "record"
        if dataclasses.is_dataclass(tp):
            return "record"
        return None

    def fields(self, cls: type) -> list[FieldSpec]:
        if isinstance(cls, type) and issubclass(cls, BaseModel):
            _complete(cls)
            specs = [
                FieldSpec(
                    name,
                    _wire_name(name, info),
                    info.rebuild_annotation(),
                    info.is_required(),
                )
                for name, info in cls.__pydantic_fields__.items()
                if info.exclude is not True
            ]
            for name, computed in cls.__pydantic_computed_fields__.items():
                annotation: Any = computed.return_type
                if annotation is PydanticUndefined:
                    annotation = Any
                wire = computed.alias if computed.alias is not None else name
                specs.append(FieldSpec(name, wire, annotation, False, True))
            return specs
        bindings: dict[Any, Any] = {}
        generic = _dataclass_alias(cls)
        if generic is not None:
            cls, bindings = generic
        pydantic_fields = getattr(cls, "__pydantic_fields__", None)
        if pydantic_fields is not None:
            return [
                FieldSpec(
                    name,
                    _wire_name(name, info),
                    substitute(info.rebuild_annotation(), bindings),
                    info.is_required(),
                )
                for name, info in pydantic_fields.items()
                if info.exclude is not True
            ]
        hints = typing.get_type_hints(cls, include_extras=True)
        return [
            FieldSpec(
                item.name,
                item.name,
                substitute(hints.get(item.name, Any), bindings),
                item.default is dataclasses.MISSING
                and item.default_factory is dataclasses.MISSING,
            )
            for item in dataclasses.fields(typing.cast(Any, cls))
        ]

    def extras(self, cls: type) -> tuple[bool, Callable[[object], bool] | None]:
        if not isinstance(cls, type) or not issubclass(cls, BaseModel):
            return True, None
        decorators = cls.__pydantic_decorators__
        if (
            decorators.model_serializers
            or decorators.field_serializers
            or cls.model_config.get("json_encoders")
            or any(
                getattr(info, "exclude_if", None) is not None
                for info in cls.__pydantic_fields__.values()
            )
        ):
            return False, None
        if cls.model_config.get("extra") == "allow":
            return False, _has_extra
        return True, None

    def leaf_plain(self, owner: type, tp: type) -> frozenset[type] | None:
        plain = _PLAIN.get(tp)
        if plain is not None:
            return plain
        return frozenset() if _serializable(tp) else None

    def serialized_annotation(self, metadata: Sequence[object]) -> Any:
        for item in reversed(metadata):
            if isinstance(item, (PlainSerializer, WrapSerializer)):
                declared: Any = item.return_type
                if declared is PydanticUndefined:
                    try:
                        declared = typing.get_type_hints(item.func).get("return", Any)
                    except Exception:  # unresolvable hints: shape unknown
                        declared = Any
                return declared
        return None

    def column_converter(self, owner: type, spec: FieldSpec) -> Callable[[list[Any]], list[Any]]:
        adapter = _list_adapter(spec.annotation, _serialization_config(owner))
        dump = adapter.dump_python

        keyed = _may_hold_keys(spec.annotation, set())

        def convert(values: list[Any]) -> list[Any]:
            result: list[Any] = dump(values, mode="json", by_alias=True)
            if keyed and _replaced_key(result):
                result = _restore_keys(result, dump(values, mode="python", by_alias=True))
            return result

        return convert

    def dump(self, obj: object) -> dict[str, Any]:
        if isinstance(obj, BaseModel):
            result: dict[str, Any] = obj.model_dump(mode="json", by_alias=True)
        else:
            result = _adapter(type(obj)).dump_python(obj, mode="json", by_alias=True)
        keyed = _keyed_fields(type(obj))
        if keyed is None or _has_extra(obj):
            suspect = _replaced_key(result)
        else:
            suspect = any(_replaced_key(result.get(wire)) for wire in keyed)
        if suspect:
            result = _restore_keys(result, _python_dump(obj))
        return result

    def validator(self, cls: type) -> Validator:
        if isinstance(cls, type) and issubclass(cls, BaseModel):
            _complete(cls)
            run: Callable[..., Any] = cls.__pydantic_validator__.validate_python
        else:
            run = _adapter(cls).validate_python

        def validate(document: Any, strict: bool | None = None, context: Any = None) -> Any:
            try:
                return run(document, strict=strict, context=context)
            except UnicodeEncodeError:
                raise _surrogate_error(
                    document, lambda cleaned: run(cleaned, strict=strict, context=context)
                ) from None

        return validate

    def notes(self, cls: type) -> dict[str, FieldNotes]:
        generic = _dataclass_alias(cls)
        origin = generic[0] if generic is not None else cls
        fields = getattr(origin, "__pydantic_fields__", None)
        if fields is None:  # a standard dataclass inside a Pydantic model
            return {
                item.name: FieldNotes(None, _dataclass_default(item))
                for item in dataclasses.fields(typing.cast(Any, origin))
            }
        notes = {
            name: FieldNotes(
                info.description,
                _pydantic_default(info),
                tuple(info.examples or ()),
            )
            for name, info in fields.items()
        }
        for name, computed in getattr(origin, "__pydantic_computed_fields__", {}).items():
            notes[name] = FieldNotes(computed.description, NO_DEFAULT, tuple(computed.examples or ()))
        return notes

    def problems(self, exc: BaseException) -> list[Problem] | None:
        if isinstance(exc, SurrogateError):
            return exc.problems
        if not isinstance(exc, pydantic.ValidationError):
            return None
        return [
            Problem(tuple(error["loc"]), error["msg"], error["type"])
            for error in exc.errors(include_url=False)
        ]

    def columns_reader(
        self, cls: type, attrs: Sequence[str]
    ) -> Callable[[list[Any]], Sequence[Sequence[Any]]] | None:
        if not isinstance(cls, type) or not issubclass(cls, BaseModel) or not attrs:
            return None
        if any(attr not in cls.__pydantic_fields__ for attr in attrs):
            return None  # computed fields are properties, not in __dict__
        state = attrgetter("__dict__")
        if len(attrs) == 1:
            one = itemgetter(attrs[0])

            def read_one(records: list[Any]) -> Sequence[Sequence[Any]]:
                return [list(map(one, map(state, records)))]

            return read_one
        values = itemgetter(*attrs)

        def read(records: list[Any]) -> Sequence[Sequence[Any]]:
            return list(zip(*map(values, map(state, records))))

        return read

    def row_constructor(self, cls: type, fields: Sequence[CompiledField]) -> Callable[..., Any] | None:
        return None  # validators see whole records: always validate dicts

    def row_slots(self, cls: type, fields: Sequence[CompiledField]) -> tuple[object, ...] | None:
        return None  # instances keep their fields in __dict__ (see record_builder)

    def prebuilt_lists(self, cls: type, rows: dict[str, type]) -> PrebuiltValidator | None:
        return None

    def native_access(self, cls: type, attrs: Sequence[str]) -> tuple[int, tuple[object, ...]] | None:
        if not isinstance(cls, type) or not issubclass(cls, BaseModel) or not attrs:
            return None
        if any(attr not in cls.__pydantic_fields__ for attr in attrs):
            return None  # computed fields are properties, not in __dict__
        return ACCESS_INSTANCE_DICT, tuple(attrs)

    def record_builder(
        self, cls: type, fields: Sequence[CompiledField], within: tuple[type, str] | None = None
    ) -> Callable[[list[list[Any]], list[bool]], list[Any]] | None:
        # Validators see whole records: only where nothing would see the rows'
        # dicts, and only for rows valid as they are (eson._internal.schema.pydantic_rows).
        if native is None or within is None or any(item.output_only for item in fields):
            return None
        owner, attr = within
        try:
            plan = row_plan(owner, attr, cls, [item.wire for item in fields])
        except Exception:  # a schema this reading does not know: the dict path
            plan = None
        if plan is None or list(plan.names) != [item.attr for item in fields]:
            return None
        names, kinds, extra = plan
        build_models = native.build_models

        def build(columns: list[list[Any]], trusted: list[bool]) -> list[Any]:
            if not all(trusted):
                columns = [
                    column if ok else _as_floats(column) if kind == "float" else _refuse()
                    for column, ok, kind in zip(columns, trusted, kinds)
                ]
            return build_models(cls, names, columns, extra)

        return build


PYDANTIC = PydanticBinding()


class _UntrustedColumnError(Exception):
    """A column needs validation: the rows take the dict path."""


def _refuse() -> list[Any]:
    raise _UntrustedColumnError


def _as_floats(column: list[Any]) -> list[Any]:
    """A float field's column as validation returns it, if every value is an exact float or int.

    Pydantic gives ``float(value)`` for an ``int``, in strict mode too (and
    fails where that overflows, as ``float`` does here: the dict path then
    reports it).
    """
    kinds = set(map(type, column))
    if not kinds <= {float, int}:
        raise _UntrustedColumnError
    return [float(value) if type(value) is int else value for value in column]


def _surrogate_error(document: Any, run: Callable[[Any], Any]) -> Exception:
    """The validation error for a document Pydantic refused with ``UnicodeEncodeError``.

    pydantic-core raises it when a message it builds (a validator's
    ``ValueError`` quoting the input, say) holds a lone surrogate, and then
    says neither where nor why.  Validating a copy whose surrogates are
    replaced gives the errors, located, that Pydantic reports for it.
    """
    cleaned, paths = replace_surrogates(document)
    try:
        run(cleaned)
    except pydantic.ValidationError as exc:
        return exc
    except UnicodeEncodeError:  # a surrogate the copy did not reach
        pass
    return SurrogateError(paths)


def _wire_name(name: str, info: Any) -> str:
    """The key ``model_dump(by_alias=True)`` writes (an empty alias counts)."""
    if info.serialization_alias is not None:
        return str(info.serialization_alias)
    if info.alias is not None:
        return str(info.alias)
    return name


_PLAIN_FACTORIES = (list, dict, set, frozenset, tuple)


def _pydantic_default(info: Any) -> Any:
    if info.default is not PydanticUndefined:
        return info.default
    if info.default_factory in _PLAIN_FACTORIES:
        return info.default_factory()
    return NO_DEFAULT


def _dataclass_default(item: dataclasses.Field[Any]) -> Any:
    if item.default is not dataclasses.MISSING:
        return item.default
    if item.default_factory in _PLAIN_FACTORIES:
        return item.default_factory()
    return NO_DEFAULT


def _has_extra(obj: object) -> bool:
    return bool(getattr(obj, "__pydantic_extra__", None))


# -- dict keys with lone surrogates --------------------------------------------------
#
# A JSON-mode dump (model_dump(mode="json")) writes a dict key holding a lone
# surrogate with U+FFFD in its place, while it keeps the surrogate in values
# (and msgspec keeps it in both).  Data is never changed silently: the keys
# of a JSON-mode dump that hold U+FFFD are compared with the Python-mode dump
# (same order) and given back as written, so both flavours write the same
# text or refuse it with the same error.  Only fields whose type may hold a
# dict with data keys are looked at, so records of plain fields cost nothing.

_SCALARS: tuple[type, ...] = (str, int, float, bool, bytes, type(None))


def _python_dump(obj: object) -> Any:
    if isinstance(obj, BaseModel):
        return obj.model_dump(mode="python", by_alias=True)
    return _adapter(type(obj)).dump_python(obj, mode="python", by_alias=True)


def _keyed_fields(cls: Any) -> tuple[str, ...] | None:
    """The wire names of the fields of ``cls`` whose values may hold data keys (``None``: unknown).

    Kept in the class's own cache (wrapped in a 1-tuple, so that ``None`` is kept too).
    """
    return cached(cls, "keyed fields", lambda: (_find_keyed_fields(cls),))[0]


def _find_keyed_fields(cls: Any) -> tuple[str, ...] | None:
    try:
        specs = PYDANTIC.fields(cls)
        return tuple(spec.wire for spec in specs if _may_hold_keys(spec.annotation, set()))
    except Exception:
        return None


def _may_hold_keys(tp: Any, seen: set[int]) -> bool:
    """Whether a value of type ``tp`` may hold a dict whose keys are data (conservative)."""
    if tp is Any or tp is object:
        return True
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        return _may_hold_keys(typing.get_args(tp)[0], seen)
    if origin is typing.Literal:
        return False
    if isinstance(tp, type) and origin is None:
        if issubclass(tp, _SCALARS) or issubclass(tp, _FIXED_LEAVES):
            return False
        if id(tp) in seen:
            return False
        seen.add(id(tp))
        if issubclass(tp, BaseModel):
            if tp.model_config.get("extra") == "allow":
                return True
            return any(_may_hold_keys(spec.annotation, seen) for spec in PYDANTIC.fields(tp))
        if dataclasses.is_dataclass(tp) or typing.is_typeddict(tp):
            try:
                hints = typing.get_type_hints(tp)
            except Exception:
                return True
            return any(_may_hold_keys(hint, seen) for hint in hints.values())
        return True  # a mapping, or a class whose dump we do not know
    if origin is not None and isinstance(origin, type) and issubclass(origin, Mapping):
        return True
    args = [arg for arg in typing.get_args(tp) if arg is not Ellipsis]
    if not args:
        return True
    return any(_may_hold_keys(arg, seen) for arg in args)


def _replaced_key(value: Any) -> bool:
    """Whether a JSON-mode dump holds a dict key with U+FFFD (where a surrogate may have been)."""
    kind = type(value)
    if kind is dict:
        try:
            if "\ufffd" in "".join(value):  # JSON-mode keys are strings
                return True
        except TypeError:
            return True  # not a JSON-mode dict: look closer
        items = value.values()
    elif kind is list:
        items = value
    else:
        return False
    return any(type(item) in _CONTAINERS and _replaced_key(item) for item in items)


_CONTAINERS = frozenset({dict, list})


def _as_replaced(key: str) -> str:
    """``key`` as a JSON-mode dump writes it: each surrogate's UTF-8 bytes as U+FFFD."""
    return key.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def _restore_keys(value: Any, python: Any) -> Any:
    """``value`` (JSON mode) with each key the dump replaced given back from ``python``."""
    if isinstance(value, dict) and isinstance(python, dict) and len(value) == len(python):
        restored: dict[Any, Any] = {}
        for (key, item), (original, python_item) in zip(value.items(), python.items()):
            if (
                isinstance(key, str)
                and "\ufffd" in key
                and isinstance(original, str)
                and key == _as_replaced(original)
            ):
                key = original
            restored[key] = _restore_keys(item, python_item)
        return restored
    if isinstance(value, list) and isinstance(python, (list, tuple)) and len(value) == len(python):
        return [_restore_keys(item, original) for item, original in zip(value, python)]
    return value


def _complete(cls: type[BaseModel]) -> None:
    if not cls.__pydantic_complete__:
        cls.model_rebuild(raise_errors=True)


def _serialization_config(owner: type) -> ConfigDict | None:
    config: Any = getattr(owner, "model_config", None) or getattr(
        owner, "__pydantic_config__", None
    )
    if not config:
        return None
    picked = {key: config[key] for key in _SERIALIZATION_KEYS if key in config}
    return ConfigDict(**picked) if picked else None  # type: ignore[typeddict-item]


def _serializable(tp: type) -> bool:
    return cached(tp, "pydantic serializable", lambda: _check_serializable(tp))


def _check_serializable(tp: type) -> bool:
    try:
        schema = TypeAdapter(tp).core_schema
    except Exception:
        return False
    return schema.get("type") not in _OPAQUE_SCHEMAS


def _adapter(tp: Any) -> TypeAdapter[Any]:
    return cached(tp, "pydantic adapter", lambda: TypeAdapter(tp))


def _list_adapter(annotation: Any, config: ConfigDict | None) -> TypeAdapter[Any]:
    return TypeAdapter(list[annotation], config=config)
