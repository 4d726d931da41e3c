"""The schema compiler: a model class -> its fixed, format-neutral layout.

:func:`document_schema` compiles a class in the document role (its fields are
top-level entries), :func:`record_schema` in the record role (its fields are
the cells of a row).  Each result is computed once per class and cached; the
rules of :mod:`eson._internal.schema.rules` are checked on the way, so a class that
compiles has one layout for every instance.
"""

from __future__ import annotations

import enum
import sys
import typing
from typing import Any

from eson._internal.schema import rule_table, rules
from eson._internal.schema.annotations import (
    CONVERTED_LEAVES,
    NONE_TYPE,
    PLAIN_TYPES,
    cell_type,
    container_args,
    container_kind,
    generic_parameters,
    is_any,
    literal_values,
    strip_none,
    union_members,
    unwrap,
)
from eson._internal.schema.binding import Binding, FieldSpec
from eson._internal.schema.class_cache import cached
from eson._internal.schema.model import (
    CellType,
    DocumentSchema,
    EntryKind,
    FieldForm,
    FieldSchema,
    Form,
    RecordSchema,
)
from eson._internal.schema.type_tree import Shape, TypeNode, type_node

#: Class attribute holding the ``number`` option (set by the base classes).
NUMBER_ATTRIBUTE = "__eson_number__"


def _pydantic_owns(cls: type) -> bool:
    if sys.modules.get("pydantic") is None:
        return False  # no Pydantic model can exist yet
    from eson._internal.schema import pydantic_binding

    return pydantic_binding.owns(cls)


def binding_for(cls: type) -> Binding:
    """The binding of a model class: Pydantic, or msgspec (Structs and dataclasses).

    ``cls`` may also be a parametrised generic Struct or dataclass
    (``Page[int]``, a typing alias rather than a class).

    Raises:
        TypeError: if ``cls`` is not a Pydantic model or dataclass, a msgspec
            Struct, or a standard dataclass.
    """
    if _pydantic_owns(cls):
        from eson._internal.schema.pydantic_binding import PYDANTIC

        return PYDANTIC
    from eson._internal.schema import msgspec_binding

    if msgspec_binding.owns(cls):
        return msgspec_binding.MSGSPEC
    raise TypeError(
        f"{getattr(cls, '__qualname__', cls)!r} is not a model type: use a pydantic.BaseModel, "
        "a msgspec.Struct or a dataclass"
    )


def is_model_class(cls: object) -> bool:
    """Whether ``cls`` is a class :func:`binding_for` accepts."""
    if not isinstance(cls, type):
        return False
    try:
        binding_for(cls)
    except TypeError:
        return False
    return True


#: Classes whose instances are plain data, never model instances (checked first: cheap).
_PLAIN_CLASSES = frozenset({dict, list, tuple, str, int, float, bool, type(None)})


def model_class_of(value: object) -> type | None:
    """The class of ``value`` when it is a model instance, else ``None`` (plain data)."""
    cls = type(value)
    if cls in _PLAIN_CLASSES or isinstance(value, (dict, list, tuple, str, int, float)):
        return None
    return cls if is_model_class(cls) else None


def runtime_class(tp: Any) -> type:
    """The class of a model type's instances: ``Page`` for ``Page[int]``, else ``tp`` itself."""
    generic = generic_parameters(tp)
    if generic is not None and not isinstance(tp, type):
        return generic[0]
    assert isinstance(tp, type), tp
    return tp


def record_schema(cls: type, binding: Binding | None = None) -> RecordSchema:
    """Compile ``cls`` in the record role (cached).

    ``cls`` is a model class or a parametrised generic one (``Page[int]``);
    the schema's fields are then those of the parametrisation.

    Raises:
        TypeError: for a broken rule (see :mod:`eson._internal.schema.rules`) or a
            class that is not a model type.
        NameError: while a forward reference cannot be resolved yet.
    """
    return cached(cls, "record schema", lambda: _compile_record(cls, binding or binding_for(cls)))


def nested_record(cls: type, binding: Binding) -> RecordSchema | None:
    """The record schema of a model class nested in a TOON value, or ``None`` if it has none.

    A class that breaks an ESON rule (a wire name ESON cannot write, say) is
    still fine inside a TOON value; it just takes the untyped path.
    """
    try:
        return record_schema(cls, binding)
    except (TypeError, NameError):
        return None


def document_schema(cls: type) -> DocumentSchema:
    """Compile ``cls`` in the document role (cached).

    Raises:
        TypeError: for a broken rule (see :mod:`eson._internal.schema.rules`) or a
            class that is not a model type.
        NameError: while a forward reference cannot be resolved yet.
    """
    return cached(cls, "document schema", lambda: _compile_document(cls, binding_for(cls)))


def _checked_specs(cls: type, binding: Binding) -> list[FieldSpec]:
    """The fields of ``cls``, after the class-wide checks.

    The rules run in :data:`eson._internal.schema.rules.CHECK_ORDER`: duplicate names
    (msgspec refuses those while creating the class, before anything else),
    then whether the class has a layout at all, then the wire names.
    """
    name = rules.class_name(cls)
    if rules.is_base_class(cls, binding):
        raise TypeError(f"{name}: {rule_table.base_document(name)} [eson-unsupported-type]")
    specs = binding.fields(cls)
    rules.check_duplicate_names(cls, specs, binding.name)
    shape = binding.model_shape(cls)
    if shape != "record":
        kind = "array_like" if shape == "array" else "other"
        raise TypeError(f"{name}: {rule_table.no_layout(name, kind)} [eson-unsupported-type]")
    for spec in specs:
        rules.check_wire_name(cls, spec.attr, spec.wire, binding.name)
    return specs


def _check_types(cls: type, specs: list[FieldSpec], binding: Binding) -> None:
    for spec in specs:
        rules.check_supported_type(cls, spec.attr, spec.annotation, binding)


def _compile_record(cls: type, binding: Binding) -> RecordSchema:
    specs = _checked_specs(cls, binding)
    _check_types(cls, specs, binding)
    fields = tuple(
        FieldSchema(
            spec.attr,
            spec.wire,
            spec.annotation,
            cell_type(spec.annotation, cls, binding),
            required=spec.required,
            output_only=spec.output_only,
        )
        for spec in specs
    )
    uniform, extras = binding.extras(cls)
    declared = None if isinstance(cls, type) else cls
    forms = tuple(_form(item, runtime_class(cls), binding) for item in fields)
    return RecordSchema(runtime_class(cls), binding, fields, uniform, extras, declared, forms)


def _compile_document(cls: type, binding: Binding) -> DocumentSchema:
    specs = _checked_specs(cls, binding)
    number = bool(getattr(runtime_class(cls), NUMBER_ATTRIBUTE, False))
    for spec in specs:  # the shape rules first: they say more than "unsupported"
        rest, _ = strip_none(spec.annotation)
        _entry_kind(cls, spec.attr, rest, binding, spec.annotation)
    _check_types(cls, specs, binding)
    fields = tuple(_entry(cls, spec, binding, number) for spec in specs)
    uniform, extras = binding.extras(cls)
    return DocumentSchema(
        runtime_class(cls),
        binding,
        fields,
        number,
        uniform,
        extras,
        {item.wire: item for item in fields},
        None if isinstance(cls, type) else cls,
        tuple(_form(item, runtime_class(cls), binding) for item in fields),
    )


def _entry(owner: type, spec: FieldSpec, binding: Binding, number: bool) -> FieldSchema:
    annotation = spec.annotation
    rest, nullable = strip_none(annotation)
    kind, record_cls, element = _entry_kind(owner, spec.attr, rest, binding, annotation)
    record: RecordSchema | None = None
    if record_cls is not None:
        record = record_schema(record_cls, binding)
        if kind is EntryKind.RECORD_ARRAY:
            rules.check_reserved_n(owner, spec.attr, record_cls, record.fields, numbered=number)
    cell: CellType
    if kind is EntryKind.SCALAR_ARRAY and element is not None:
        cell = cell_type(element, owner, binding)
    else:
        cell = cell_type(annotation, owner, binding)
    return FieldSchema(
        spec.attr,
        spec.wire,
        annotation,
        cell,
        kind,
        record,
        nullable,
        spec.required,
        spec.output_only,
    )


def _entry_kind(
    owner: type, attr: str, tp: Any, binding: Binding, declared: Any = None
) -> tuple[EntryKind, Any, Any]:
    """The entry kind of a (None-stripped) annotation, its record type, its element type.

    ``declared`` is the field's whole annotation, for messages.
    """
    bare, metadata = unwrap(tp)
    if binding.serialized_annotation(metadata) is not None or is_any(bare):
        return EntryKind.DYNAMIC, None, None
    if bare is NONE_TYPE or bare is None or literal_values(bare) is not None:
        return EntryKind.SCALAR, None, None
    members = union_members(bare)
    if members is not None:
        lists = [member for member in members if container_kind(unwrap(member)[0]) in _LISTS]
        if lists:  # list[A] | tuple[A, ...]: one array, so one element type
            elements = _union_of_elements(tuple(lists))
            others = tuple(member for member in members if member not in lists)
            record = rules.check_record_array(
                owner, attr, elements, binding, alongside=others, declared=declared
            )
            if record is not None:
                return EntryKind.RECORD_ARRAY, record, elements
        kinds = {_entry_kind(owner, attr, member, binding, declared)[:2] for member in members}
        if len(kinds) == 1:
            kind, record = kinds.pop()
            if kind is EntryKind.SCALAR_ARRAY:
                return kind, None, _union_of_elements(members)
            return kind, record, None
        return EntryKind.DYNAMIC, None, None
    container = container_kind(bare)
    if container == "mapping":
        return EntryKind.MAPPING, None, None
    if container is not None:
        args = container_args(bare)
        if container == "tuple" and not (len(args) == 2 and args[1] is Ellipsis):
            element: Any = typing.Union[args] if args else NONE_TYPE  # noqa: UP007
        else:
            element = args[0]
        record = rules.check_record_array(owner, attr, element, binding, declared=declared)
        if record is not None:
            return EntryKind.RECORD_ARRAY, record, element
        return EntryKind.SCALAR_ARRAY, None, element
    shape = binding.model_shape(bare)
    if shape == "record":  # a model class, or a parametrised generic one
        return EntryKind.RECORD, bare, None
    if shape is not None:
        return EntryKind.DYNAMIC, None, None
    return EntryKind.SCALAR, None, None


_LISTS = ("sequence", "set", "tuple")


def _union_of_elements(members: tuple[Any, ...]) -> Any:
    elements: list[Any] = []
    for member in members:
        bare, _ = unwrap(member)
        args = container_args(bare)
        elements.extend(arg for arg in args if arg is not Ellipsis)
    return typing.Union[tuple(elements)] if elements else NONE_TYPE  # noqa: UP007


# -- TOON forms ----------------------------------------------------------------------------


def _never_dict(bare: Any) -> bool:
    """Whether a non-container, non-model annotation's JSON-mode values are never objects."""
    if bare is None or bare is NONE_TYPE or bare in PLAIN_TYPES:
        return True
    if literal_values(bare) is not None:
        return True
    return isinstance(bare, type) and issubclass(bare, (enum.Enum, *CONVERTED_LEAVES))


_FormParts = tuple[Form, "type | None", Any, bool, bool]


def _form_parts(node: TypeNode, depth: int = 0) -> _FormParts:
    """``(kind, record class, element annotation, never_dict, listy)`` of an annotation's node."""
    shape = node.shape
    if depth > 20 or shape is Shape.SERIALIZED or shape is Shape.ANY:
        return Form.OTHER, None, None, False, False
    if shape is Shape.NULL or shape is Shape.CHOICES:
        return Form.LEAF, None, None, True, False
    if shape is Shape.UNION:
        parts = [_form_parts(member, depth + 1) for member in node.children]
        never = all(part[3] for part in parts)
        if all(part[0] is Form.LEAF for part in parts):
            return Form.LEAF, None, None, never, False
        return Form.OTHER, None, None, never, False
    origin = getattr(node.bare, "__origin__", node.bare)
    if shape is Shape.MAPPING:
        args = node.args
        if len(args) == 2 and origin is dict and unwrap(args[0])[0] is str:
            value = node.children[1]
            if not value.nullable and value.shape is Shape.RECORD:
                return Form.RECORD_MAP, value.bare, None, False, False
        return Form.OTHER, None, None, False, False
    if shape is Shape.TUPLE or shape is Shape.LIST:
        # a list or tuple[X, ...] (not a set, a sequence ABC or a fixed tuple)
        if shape is Shape.TUPLE or origin not in (list, tuple):
            return Form.OTHER, None, None, True, True
        element = node.children[0]
        if element.shape is Shape.RECORD:
            if element.nullable:
                return Form.OTHER, None, None, True, True
            return Form.RECORDS, element.bare, None, True, True
        if _form_parts(element, depth + 1)[0] is Form.LEAF:
            return Form.SCALARS, None, element.annotation, True, True
        return Form.OTHER, None, None, True, True
    if shape is Shape.RECORD:
        return Form.RECORD, node.bare, None, False, False
    if shape is Shape.MODEL:
        return Form.OTHER, None, None, False, False
    return Form.LEAF, None, None, _never_dict(node.bare), False


def _form(item: FieldSchema, owner: Any, binding: Binding) -> FieldForm:
    """The TOON form of a compiled field of ``owner`` (see :class:`FieldForm`)."""
    node = type_node(item.annotation, binding)
    kind, record, element, never, listy = _form_parts(node)
    element_cell = cell_type(element, owner, binding) if element is not None else None
    return FieldForm(item, kind, record, element_cell, node.nullable, never, listy)
