"""The schema compiler's view of msgspec Structs and standard dataclasses.

Values are converted with ``msgspec.to_builtins`` and validated with
``msgspec.convert`` (default options), exactly as the untyped path would.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import types
import typing
from collections.abc import Callable, Collection, Sequence
from functools import partial
from typing import Any

import msgspec
import msgspec.inspect

from eson._internal.accelerator import ACCESS_SLOTS, native
from eson._internal.schema.annotations import generic_parameters, substitute, unwrap
from eson._internal.schema.binding import (
    NO_CONTEXT,
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

_PLAIN: dict[type, frozenset[type]] = {
    str: frozenset({str}),
    int: frozenset({int}),
    float: frozenset({float}),
    bool: frozenset({bool}),
}
_PATH_STEP = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")
_QUOTED_NAME = re.compile(r"`([^`]*)`")
_to_builtins = msgspec.to_builtins
_convert = msgspec.convert


def owns(cls: object) -> bool:
    """Whether ``cls`` is a msgspec Struct or a standard (non-Pydantic) dataclass.

    A parametrised generic one (``Page[int]``, a typing alias) counts too.
    """
    cls = _model_class(cls)
    if not isinstance(cls, type):
        return False
    if issubclass(cls, msgspec.Struct):
        return True
    return dataclasses.is_dataclass(cls) and not hasattr(cls, "__pydantic_fields__")


def _model_class(tp: object) -> object:
    """The class of a parametrised generic Struct or dataclass; anything else as it is."""
    generic = generic_parameters(tp)
    if generic is not None:
        origin = generic[0]
        if issubclass(origin, msgspec.Struct) or dataclasses.is_dataclass(origin):
            return origin
    return tp


class MsgspecBinding:
    """msgspec Structs (and the dataclasses msgspec handles).

    Wherever a model class is expected, a parametrised generic Struct or
    dataclass (``Page[int]``) is accepted too: its fields are the class's,
    with the type parameters substituted, and msgspec validates against it.
    """

    name = "msgspec"
    takes_context = False
    base_classes: frozenset[type] = frozenset({msgspec.Struct})

    def model_shape(self, tp: object) -> ModelShape | None:
        tp = _model_class(tp)
        if not isinstance(tp, type):
            return None
        if issubclass(tp, msgspec.Struct):
            return "array" if tp.__struct_config__.array_like else "record"
        if dataclasses.is_dataclass(tp):
            return "record"
        return None

    def fields(self, cls: type) -> list[FieldSpec]:
        origin = _model_class(cls)
        assert isinstance(origin, type)
        if issubclass(origin, msgspec.Struct):
            # msgspec substitutes the parameters of a parametrised generic Struct itself.
            return [
                FieldSpec(info.name, info.encode_name, info.type, info.required)
                for info in msgspec.structs.fields(cls)
            ]
        generic = generic_parameters(cls)
        bindings = generic[1] if generic is not None else {}
        hints = typing.get_type_hints(origin, include_extras=True)
        return [
            FieldSpec(
                item.name,
                item.name,
                substitute(hints.get(item.name, Any), bindings),
                item.default is dataclasses.MISSING
                and item.default_factory is dataclasses.MISSING,
            )
            for item in dataclasses.fields(origin)  # type: ignore[arg-type]
            if item.init
        ]

    def extras(self, cls: type) -> tuple[bool, Callable[[object], bool] | None]:
        origin = _model_class(cls)
        if isinstance(origin, type) and issubclass(origin, msgspec.Struct):
            config = origin.__struct_config__
            if config.omit_defaults or config.tag is not None or config.array_like:
                return False, None
        unset = tuple(
            spec.attr for spec in self.fields(cls) if _may_be_unset(spec.annotation)
        )
        if unset:
            getter = _attrs_getter(unset)

            def has_unset(obj: object) -> bool:
                return msgspec.UNSET in getter(obj)

            return False, has_unset
        return True, None

    def leaf_plain(self, owner: type, tp: type) -> frozenset[type] | None:
        plain = _PLAIN.get(tp)
        if plain is not None:
            return plain
        if tp is msgspec.UnsetType:
            return frozenset()  # the field is left out of the dump
        return frozenset() if _serializable(tp) else None

    def serialized_annotation(self, metadata: Sequence[object]) -> Any:
        return None  # msgspec has no per-field serializers

    def column_converter(self, owner: type, spec: FieldSpec) -> Callable[[list[Any]], list[Any]]:
        def convert(values: list[Any]) -> list[Any]:
            result: list[Any] = _to_builtins(values)
            return result

        return convert

    def dump(self, obj: object) -> dict[str, Any]:
        result: dict[str, Any] = _to_builtins(obj)
        return result

    def validator(self, cls: type) -> Validator:
        def validate(document: Any, strict: bool | None = None, context: Any = None) -> Any:
            if context is not None:
                raise TypeError(NO_CONTEXT.format(framework="msgspec"))
            chosen = True if strict is None else strict  # msgspec's default is strict
            try:
                return _convert(document, cls, strict=chosen)
            except UnicodeEncodeError:
                raise _surrogate_error(document, cls, chosen) from None

        return validate

    def notes(self, cls: type) -> dict[str, FieldNotes]:
        origin = _model_class(cls)
        assert isinstance(origin, type)
        if issubclass(origin, msgspec.Struct):
            return {
                info.name: FieldNotes(
                    _meta_description(info.type), *_struct_default(info)
                )
                for info in msgspec.structs.fields(cls)
            }
        hints = typing.get_type_hints(origin, include_extras=True)
        notes: dict[str, FieldNotes] = {}
        for item in dataclasses.fields(origin):  # type: ignore[arg-type]
            default: Any = NO_DEFAULT
            if item.default is not dataclasses.MISSING:
                default = item.default
            elif item.default_factory in _PLAIN_FACTORIES:
                default = item.default_factory()
            notes[item.name] = FieldNotes(_meta_description(hints.get(item.name)), default)
        return notes

    def problems(self, exc: BaseException) -> list[Problem] | None:
        if isinstance(exc, SurrogateError):
            return exc.problems
        if not isinstance(exc, msgspec.ValidationError):
            return None
        text = str(exc)
        message, _, path = text.partition(" - at `")
        loc: list[str | int] = []
        if path:
            for step in _PATH_STEP.finditer(path.rstrip("`").removeprefix("$")):
                name, index = step.groups()
                if name is not None:
                    loc.append(name)
                elif index != "...":
                    loc.append(int(index))
        named = _QUOTED_NAME.findall(message)
        if message.startswith("Object missing required field") and named:
            loc.append(named[0])
            kind = "missing"
        elif message.startswith("Object contains unknown field") and named:
            loc.append(named[0])
            kind = "extra_forbidden"
        else:
            kind = ""
        return [Problem(tuple(loc), message, kind)]

    def columns_reader(
        self, cls: type, attrs: Sequence[str]
    ) -> Callable[[list[Any]], Sequence[Sequence[Any]]] | None:
        if not issubclass(cls, msgspec.Struct) or tuple(attrs) != cls.__struct_fields__:
            return None
        astuple = msgspec.structs.astuple

        def read(records: list[Any]) -> Sequence[Sequence[Any]]:
            return list(zip(*map(astuple, records)))

        return read

    def row_constructor(self, cls: type, fields: Sequence[CompiledField]) -> Callable[..., Any] | None:
        if not isinstance(cls, type) or not issubclass(cls, msgspec.Struct) or not _positional(cls):
            return None
        if tuple(item.attr for item in fields) != cls.__struct_fields__:
            return None
        return cls

    def native_access(self, cls: type, attrs: Sequence[str]) -> tuple[int, tuple[object, ...]] | None:
        if not issubclass(cls, msgspec.Struct) or tuple(attrs) != cls.__struct_fields__:
            return None
        slots = tuple(map(partial(_slot_of, cls), attrs))
        if None in slots:
            return None
        return ACCESS_SLOTS, slots

    def row_slots(self, cls: type, fields: Sequence[CompiledField]) -> tuple[object, ...] | None:
        if not isinstance(cls, type) or not issubclass(cls, msgspec.Struct) or not _positional(cls):
            return None
        if tuple(item.attr for item in fields) != cls.__struct_fields__:
            return None
        # Without __post_init__, constructing a Struct from positional values
        # only sets its slots: the accelerator may do just that.
        if hasattr(cls, "__post_init__"):
            return None
        access = self.native_access(cls, [item.attr for item in fields])
        return access[1] if access is not None else None

    def prebuilt_lists(self, cls: type, rows: dict[str, type]) -> PrebuiltValidator | None:
        # msgspec.convert returns an instance of exactly the field's Struct
        # class as it is, so converting a list of them only copies the list.
        # The document is converted with an empty list in its place and the
        # built list set afterwards -- which only a class without
        # __post_init__ (it would see the empty list) allows, for fields
        # declared exactly list[Row] (no constraints on the list).
        if not isinstance(cls, type) or not issubclass(cls, msgspec.Struct):
            return None
        if hasattr(cls, "__post_init__") or cls.__struct_config__.array_like:
            return None
        setters: dict[str, object] = {}
        for info in msgspec.structs.fields(cls):
            row = rows.get(info.encode_name)
            if row is None or info.type != list[row]:  # type: ignore[valid-type]
                continue
            slot = _slot_of(cls, info.name)
            if slot is not None:
                setters[info.encode_name] = slot
        if not setters:
            return None
        plain = self.validator(cls)

        def validate(
            document: dict[str, Any], built: Collection[str], strict: bool | None = None
        ) -> Any:
            taken: list[tuple[Any, list[Any]]] = []
            placeholder = dict(document)
            for wire in built:
                slot = setters.get(wire)
                if slot is not None and type(placeholder.get(wire)) is list:
                    taken.append((slot, placeholder[wire]))
                    placeholder[wire] = []
            if not taken:
                return plain(document, strict)
            chosen = True if strict is None else strict
            try:
                result = _convert(placeholder, cls, strict=chosen)
            except UnicodeEncodeError:
                raise _surrogate_error(document, cls, chosen) from None
            for slot, value in taken:
                slot.__set__(result, value)
            return result

        return validate

    def record_builder(
        self, cls: type, fields: Sequence[CompiledField], within: tuple[type, str] | None = None
    ) -> Callable[[list[list[Any]], list[bool]], list[Any]] | None:
        if not issubclass(cls, msgspec.Struct) or not _positional(cls):
            return None
        if tuple(item.attr for item in fields) != cls.__struct_fields__:
            return None
        checks = [_column_check(item) for item in fields]
        slots = self.row_slots(cls, fields)

        def build(columns: list[list[Any]], trusted: list[bool]) -> list[Any]:
            checked = [
                column if ok else check(column)
                for check, column, ok in zip(checks, columns, trusted)
            ]
            if native is not None:
                if slots is not None:
                    return native.build_structs(cls, slots, checked)
                return native.build_records(cls, checked)
            return list(map(cls, *checked))

        return build


MSGSPEC = MsgspecBinding()


_PLAIN_FACTORIES = (list, dict, set, frozenset, tuple)


def _meta_description(annotation: Any) -> str | None:
    """The ``msgspec.Meta(description=...)`` of an annotation (the outermost one)."""
    _, metadata = unwrap(annotation) if annotation is not None else (None, [])
    for item in metadata:
        if isinstance(item, msgspec.Meta) and item.description:
            return item.description
    return None


def _struct_default(info: msgspec.structs.FieldInfo) -> tuple[Any, tuple[Any, ...]]:
    """The default (or :data:`NO_DEFAULT`) and the ``Meta(examples=...)`` of a Struct field."""
    _, metadata = unwrap(info.type)
    examples: tuple[Any, ...] = ()
    for item in metadata:
        if isinstance(item, msgspec.Meta) and item.examples:
            examples = tuple(item.examples)
            break
    if info.default is not msgspec.NODEFAULT:
        return info.default, examples
    if info.default_factory in _PLAIN_FACTORIES:
        return info.default_factory(), examples
    return NO_DEFAULT, examples


def _surrogate_error(document: Any, cls: Any, strict: bool) -> Exception:
    """The validation error for a document msgspec refused with ``UnicodeEncodeError``.

    msgspec reads a string it must convert (to ``int``, ``float``, ``UUID``,
    ``datetime`` ...) as UTF-8, which a lone surrogate cannot be, and says
    neither where nor why.  Converting a copy whose surrogates are replaced
    gives the error msgspec reports for such a string: where it is, and what
    was expected.
    """
    cleaned, paths = replace_surrogates(document)
    try:
        _convert(cleaned, cls, strict=strict)
    except msgspec.ValidationError as exc:
        return exc
    except UnicodeEncodeError:  # a surrogate the copy did not reach
        pass
    return SurrogateError(paths)


def _slot_of(cls: type, attr: str) -> object | None:
    """The member descriptor a Struct field is stored in (the first one on the MRO)."""
    for klass in cls.__mro__:
        found = vars(klass).get(attr)
        if found is not None:
            return found if type(found) is types.MemberDescriptorType else None
    return None


def _may_be_unset(annotation: Any) -> bool:
    bare, _ = unwrap(annotation)
    if bare is msgspec.UnsetType:
        return True
    return any(unwrap(arg)[0] is msgspec.UnsetType for arg in typing.get_args(bare))


def _attrs_getter(names: tuple[str, ...]) -> Callable[[object], tuple[Any, ...]]:
    def get(obj: object) -> tuple[Any, ...]:
        return tuple(getattr(obj, name) for name in names)

    return get


def _serializable(tp: type) -> bool:
    return cached(tp, "msgspec serializable", lambda: _check_serializable(tp))


def _check_serializable(tp: type) -> bool:
    try:
        info = msgspec.inspect.type_info(tp)
    except Exception:
        return False
    return not isinstance(info, msgspec.inspect.CustomType)


def _positional(cls: type) -> bool:
    try:
        parameters = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):
        return False
    return all(p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD for p in parameters)


_EXACT = {str: str, int: int, float: float, bool: bool}


def _column_check(item: CompiledField) -> Callable[[list[Any]], list[Any]]:
    """Validate one decoded column as ``msgspec.convert`` would, value by value."""
    annotation = item.annotation
    exact = _EXACT.get(annotation)
    target = list[annotation]  # type: ignore[valid-type]
    choices = item.cell.choices

    def check(column: list[Any]) -> list[Any]:
        if exact is not None and set(map(type, column)) == {exact}:
            return column
        if choices is not None and choices.issuperset(column):
            return column
        result: list[Any] = _convert(column, target)
        return result

    return check
