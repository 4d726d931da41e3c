"""The rules a model type must follow to have a fixed ESON layout.

Each rule is one function here, checked when a ``Message``/``Record`` class
is defined (or when a plain model type is first compiled).  A broken rule
raises :class:`TypeError` naming the class, the field and the rule's code in
brackets, e.g. ``Review.findings: ... [eson-record-array]``.  The codes are
stable: the mypy plugin (:mod:`eson.mypy`) reports the same ones.

=========================  ===================================================
code                       rule
=========================  ===================================================
``eson-record-array``      a list field's element type is one concrete record
                           type, or a type that is never a record (no
                           ``list[A | B]``, ``list[Any]``, ``list[dict]``,
                           ``list[R | None]``, ``list[T]`` for a type variable
                           ``T`` that may be a record); a record array has its
                           field to itself (no ``list[A] | A``)
``eson-wire-name``         every wire name matches ESON's name production
``eson-reserved-n``        no record type whose first field is ``n`` serves as
                           a record array (or is a ``Record``); in a
                           ``number=True`` message no record array's type has
                           an ``n`` field at all
``eson-duplicate-name``    wire names are unique after aliases and renames
``eson-unsupported-type``  every field type is one the model framework can
                           write as JSON (no callables, arbitrary classes ...)
=========================  ===================================================

A class that breaks several rules raises for the first of them in
:data:`CHECK_ORDER`; the mypy plugin reports each broken rule, at most one per
field (the first in the same order), so the first of its codes in that order
is the one the runtime raises.
"""

from __future__ import annotations

import collections.abc as abc
import enum
import typing
from collections.abc import Sequence
from typing import Any

from eson.schema.annotations import (
    NONE_TYPE,
    container_args,
    container_kind,
    describe,
    is_any,
    literal_values,
    type_var_stands_for,
    union_members,
    unwrap,
)
from eson.schema.binding import Binding, FieldSpec
from eson.wire.eson_names import NAME_PATTERN, is_name

__all__ = [
    "CHECK_ORDER",
    "RULES",
    "check_duplicate_names",
    "check_record_array",
    "check_reserved_n",
    "check_supported_type",
    "check_wire_name",
]

#: Every rule code with a one-line summary (for docs and tools).
RULES: dict[str, str] = {
    "eson-record-array": "a record array's element type must be one concrete record type",
    "eson-wire-name": "wire names must match ESON's name production",
    "eson-reserved-n": "record arrays reserve a first field named n",
    "eson-duplicate-name": "wire names must be unique",
    "eson-unsupported-type": "field types must be serializable as JSON values",
}


#: The order in which a class is checked.  A class breaking several rules
#: raises for the first of them; a class whose instances have no ESON layout
#: at all (an ``array_like`` Struct, a ``RootModel``: ``eson-unsupported-type``)
#: is refused right after the duplicate names, before its fields are looked at.
CHECK_ORDER: tuple[str, ...] = (
    "eson-duplicate-name",
    "eson-wire-name",
    "eson-record-array",
    "eson-unsupported-type",
    "eson-reserved-n",
)


def class_name(cls: object) -> str:
    """A class's qualified name without the ``<locals>`` of enclosing functions.

    ``cls`` may also be a parametrised generic (``Page[int]``) or, for a class
    that does not exist yet, its qualified name.
    """
    if isinstance(cls, str):
        return cls.rsplit("<locals>.", 1)[-1]
    if isinstance(cls, type):
        return cls.__qualname__.rsplit("<locals>.", 1)[-1]
    return describe(cls)


#: Class attribute (in the class's own namespace) marking typed-eson's model bases
#: (``eson.Message``, ``eson.msgspec.Record`` ...) as base classes, not models.
BASE_MARKER = "__eson_base__"


def is_base_class(tp: object, binding: Binding) -> bool:
    """Whether ``tp`` is a model *base class*: the framework's or typed-eson's.

    ``pydantic.BaseModel``, ``msgspec.Struct``, ``eson.Message``,
    ``eson.Record`` and their msgspec twins have no fields and stand for
    their subclasses.  A field declared with one would write a subclass
    instance without its fields (Pydantic) or read every value back as an
    empty instance (msgspec), so the rules reject them: data would be lost.
    """
    if not isinstance(tp, type):
        return False
    return tp in binding.base_classes or vars(tp).get(BASE_MARKER) is True


def base_class_reason(tp: type) -> str:
    """Why a field cannot be declared with the base class ``tp``."""
    name = class_name(tp)
    return (
        f"{name} is a base class with no fields: a value would be written without its "
        f"own fields and read back as an empty {name}; declare the concrete model class"
    )


def _fail(owner: object, attr: str | None, reason: str, code: str) -> typing.NoReturn:
    where = class_name(owner) if attr is None else f"{class_name(owner)}.{attr}"
    raise TypeError(f"{where}: {reason} [{code}]")


def check_wire_name(owner: type, attr: str, wire: str) -> None:
    """Rule ``eson-wire-name``: ``wire`` matches ``[A-Za-z_][A-Za-z0-9_.-]*``."""
    if not is_name(wire):
        _fail(
            owner,
            attr,
            f"wire name {wire!r} is not an ESON name ({NAME_PATTERN}); "
            "choose another alias or rename",
            "eson-wire-name",
        )


def check_duplicate_names(owner: type | str, fields: Sequence[FieldSpec]) -> None:
    """Rule ``eson-duplicate-name``: no two fields share a wire name.

    ``owner`` is the class, or its qualified name while the class cannot be
    created (msgspec refuses duplicate names before the class exists).
    """
    seen: dict[str, str] = {}
    for spec in fields:
        other = seen.get(spec.wire)
        if other is not None:
            _fail(
                owner,
                spec.attr,
                f"wire name {spec.wire!r} is already used by field {other!r}; give one "
                "of them another wire name (an alias, or msgspec.field(name=...))",
                "eson-duplicate-name",
            )
        seen[spec.wire] = spec.attr


def check_reserved_n(
    owner: type,
    attr: str | None,
    record: Any,
    wire_names: Sequence[str],
    *,
    numbered: bool = False,
) -> None:
    """Rule ``eson-reserved-n`` for a record type used as rows.

    ESON reserves a record array's first field ``n`` for row numbers, so
    ``record``'s first wire name must not be ``n``; when the document is
    numbered (``number=True``) the writer adds that column itself, so
    ``record`` must have no ``n`` field at all.

    Args:
        owner: The class being checked (the message, or the record itself).
        attr: The field of ``owner`` holding the records (``None`` when the
            record class is checked on its own).
        record: The record type (a model class, or a parametrised generic one).
        wire_names: The record type's wire names, in order.
        numbered: Whether the document numbers its record arrays.
    """
    if wire_names and wire_names[0] == "n":
        what = "its" if record is owner else f"record type {class_name(record)}'s"
        _fail(
            owner,
            attr if attr is not None else "n",
            f"{what} first field is named 'n', which ESON reserves for row numbers "
            "in record arrays; rename it or move it",
            "eson-reserved-n",
        )
    if numbered and "n" in wire_names:
        _fail(
            owner,
            attr,
            f"record type {class_name(record)} has a field named 'n', which clashes with "
            "the row-number column number=True adds; rename it",
            "eson-reserved-n",
        )


def check_record_array(
    owner: type, attr: str, element: Any, binding: Binding, *, alongside: Sequence[Any] = ()
) -> Any:
    """Rule ``eson-record-array``: classify the element type of a list field.

    Args:
        owner: The class being checked.
        attr: The list field.
        element: The element type (for ``list[A] | tuple[A, ...]``, the union
            of the arrays' element types).
        binding: The framework of ``owner``.
        alongside: The field's other types, besides its arrays and ``None``
            (``A`` in ``list[A] | A``).  A record array must have its field to
            itself, or the field would have no single layout.

    Returns:
        The record type when the list is a record array (a model class, or a
        parametrised generic one such as ``Page[int]``), ``None`` when its
        elements are never records (a scalar array).

    Raises:
        TypeError: when elements may or may not be records, or are records of
            more than one type (a type variable included) -- the writer could
            not give the list one layout -- or when a record array shares its
            field with other types.
    """
    verdict = _record_verdict(element, binding)
    if verdict is None:
        return None
    if isinstance(verdict, _TypeVarReason):
        _fail(
            owner,
            attr,
            f"list element type {describe(element)} is not one concrete record type "
            f"({verdict}), so the array could hold records of more than one type; "
            "declare the field with one concrete record type, list[R], and use one array "
            "per record type (a generic Message cannot leave a record array's type to a "
            "type parameter)",
            "eson-record-array",
        )
    if isinstance(verdict, str):
        _fail(
            owner,
            attr,
            f"list element type {describe(element)} is not one concrete record type "
            f"({verdict}); use list[R] for one model type R, split a mixed batch into "
            "one list per type, or use scalar elements",
            "eson-record-array",
        )
    if alongside:
        others = " | ".join(describe(tp) for tp in alongside)
        _fail(
            owner,
            attr,
            f"a record array of {describe(verdict)} cannot share its field with {others}: "
            "the field would have no single layout; declare the record array and the "
            "other value as separate fields",
            "eson-record-array",
        )
    return verdict


class _TypeVarReason(str):
    """Why an element type is ambiguous, when the reason is a type variable."""

    __slots__ = ()


def _record_verdict(element: Any, binding: Binding) -> Any:
    """A record type, ``None`` (never a record), or why the element is ambiguous (a str)."""
    bare, metadata = unwrap(element, keep_type_vars=True)
    serialized = binding.serialized_annotation(metadata)
    if serialized is not None:
        if is_any(serialized):
            return "a custom serializer without a declared return type may write objects"
        return _never_record(serialized, binding)
    if isinstance(bare, typing.TypeVar):
        return _type_var_reason(bare, binding)
    if is_base_class(bare, binding):
        return base_class_reason(bare)
    if binding.model_shape(bare) == "record":
        return bare
    return _never_record(bare, binding)


def _type_var_reason(var: typing.TypeVar, binding: Binding) -> _TypeVarReason | None:
    """Why a type variable may be a record (``None`` when what it stands for never is).

    Unbound, it may be anything; bound to a record type it admits every
    subclass, each a schema of its own; constrained, it may be each constraint.
    """
    stands_for = type_var_stands_for(var)
    verdict = _record_verdict(stands_for, binding)
    if verdict is None:
        return None
    if var.__bound__ is not None:
        what = f"bound to {describe(var.__bound__)}, so it admits every subclass"
    elif var.__constraints__:
        what = "constrained to " + ", ".join(describe(c) for c in var.__constraints__)
    else:
        what = "unbound, so it may be any type"
    return _TypeVarReason(f"type variable {var.__name__} is {what}")


def _never_record(tp: Any, binding: Binding) -> str | None:
    """``None`` when values of ``tp`` are never JSON objects, else the reason."""
    bare, metadata = unwrap(tp, keep_type_vars=True)
    serialized = binding.serialized_annotation(metadata)
    if serialized is not None:
        if is_any(serialized):
            return "a custom serializer without a declared return type may write objects"
        return _never_record(serialized, binding)
    if isinstance(bare, typing.TypeVar):
        return _type_var_reason(bare, binding)
    if is_any(bare):
        return "any value may be an object"
    if bare is NONE_TYPE or bare is None or literal_values(bare) is not None:
        return None
    members = union_members(bare)
    if members is not None:
        for member in members:
            reason = _never_record(member, binding)
            if isinstance(reason, _TypeVarReason):
                return reason
            if reason is not None:
                return f"a union member may be an object: {reason}"
        return None
    if is_base_class(bare, binding):
        return base_class_reason(bare)
    shape = binding.model_shape(bare)
    if shape == "record":
        return f"{describe(bare)} is a record type mixed with other types"
    if shape == "other":
        return f"{describe(bare)} may write an object"
    kind = container_kind(bare)
    if kind == "mapping":
        return "a dict is an object with no fixed fields"
    if getattr(bare, "_is_protocol", False):
        return f"protocol {describe(bare)} may be implemented by records of any type"
    return None


_CALLABLES = {abc.Callable, typing.Callable}


def check_supported_type(owner: type, attr: str, annotation: Any, binding: Binding) -> None:
    """Rule ``eson-unsupported-type``: the framework can write every value as JSON.

    Walks the whole annotation, including the fields of nested model types.
    """
    reason = _unsupported(annotation, owner, binding, set())
    if reason is not None:
        _fail(owner, attr, reason, "eson-unsupported-type")


def _unsupported(tp: Any, owner: type, binding: Binding, seen: set[int]) -> str | None:
    bare, metadata = unwrap(tp)
    serialized = binding.serialized_annotation(metadata)
    if serialized is not None:
        return None  # the framework's serializer decides; it was accepted at definition
    if isinstance(bare, (str, typing.ForwardRef)):
        raise NameError(f"unresolved forward reference {describe(bare)}")
    if is_any(bare) or bare is NONE_TYPE or bare is None or literal_values(bare) is not None:
        return None
    members = union_members(bare)
    if members is not None:
        for member in members:
            reason = _unsupported(member, owner, binding, seen)
            if reason is not None:
                return reason
        return None
    origin = typing.get_origin(bare)
    if origin in _CALLABLES or bare in _CALLABLES:
        return f"type {describe(bare)} is a callable, which has no JSON form"
    if container_kind(bare) is not None:
        for arg in container_args(bare):
            if arg is not Ellipsis:
                reason = _unsupported(arg, owner, binding, seen)
                if reason is not None:
                    return reason
        return None
    if is_base_class(bare, binding):
        return base_class_reason(bare)
    shape = binding.model_shape(bare)
    if shape is not None:  # a model class, or a parametrised generic one
        if id(bare) in seen:
            return None
        seen.add(id(bare))
        for spec in binding.fields(bare):
            reason = _unsupported(spec.annotation, bare, binding, seen)
            if reason is not None:
                return f"in nested {class_name(bare)}.{spec.attr}: {reason}"
        return None
    if isinstance(bare, type) and issubclass(bare, enum.Enum):
        return None
    if isinstance(bare, type) and binding.leaf_plain(owner, bare) is not None:
        return None
    return (
        f"type {describe(bare)} cannot be written as a JSON value by {binding.name}; "
        "use a supported type (str, int, float, bool, None, Literal, Enum, datetime, "
        "UUID, Decimal, bytes, models, lists, tuples, sets, dicts)"
    )
