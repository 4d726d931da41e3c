"""The rules a model type must follow to have a fixed ESON layout, checked at run time.

Each rule is one function here, checked when a ``Message``/``Record`` class
is defined (or when a plain model type is first compiled).  A broken rule
raises :class:`TypeError` naming the class, the field and the rule's code in
brackets, e.g. ``Review.findings: record array "findings" must hold ...
[eson-record-array]``.  The codes, their order, their wording and the name
production come from :mod:`eson._internal.schema.rule_table`, which the mypy plugin
(:mod:`eson.mypy`) reads too, so both report the same rules the same way.

=========================  ===================================================
code                       rule
=========================  ===================================================
``eson-record-array``      a list field's element type is one concrete record
                           type, or a type that is never a record (no
                           ``list[A | B]``, ``list[Any]``, ``list[dict]``,
                           ``list[R | None]``, ``list[T]`` for a type variable
                           ``T`` that may be a record, ``list[eson.Record]``);
                           a record array has its field to itself (no
                           ``list[A] | A``)
``eson-wire-name``         every wire name matches ESON's name production
``eson-reserved-n``        no record type whose first field is ``n`` serves as
                           a record array (or is a ``Record``); in a
                           ``number=True`` message no record array's type has
                           an ``n`` field at all
``eson-duplicate-name``    wire names are unique after aliases and renames
``eson-unsupported-type``  every field type is one the model framework can
                           write as JSON (no callables, arbitrary classes,
                           model base classes ...)
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
from typing import Any, Protocol

from eson._internal.schema import rule_table
from eson._internal.schema.annotations import (
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
from eson._internal.schema.binding import Binding, FieldSpec
from eson._internal.schema.rule_table import CHECK_ORDER as CHECK_ORDER
from eson._internal.schema.rule_table import RULES as RULES
from eson._internal.schema.rule_table import Hint, Why


class Named(Protocol):
    """A field with a Python name and a wire name (a ``FieldSpec``, a ``FieldSchema``)."""

    @property
    def attr(self) -> str: ...

    @property
    def wire(self) -> str: ...


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
    ``eson.Record`` and their msgspec twins (:data:`rule_table.BASE_CLASS_NAMES`)
    have no fields and stand for their subclasses.  A field declared with one
    would write a subclass instance without its fields (Pydantic) or read
    every value back as an empty instance (msgspec), so the rules reject
    them: data would be lost.
    """
    if not isinstance(tp, type):
        return False
    return tp in binding.base_classes or vars(tp).get(BASE_MARKER) is True


def _fail(owner: object, attr: str | None, message: str, code: str) -> typing.NoReturn:
    where = class_name(owner) if attr is None else f"{class_name(owner)}.{attr}"
    raise TypeError(f"{where}: {message} [{code}]")


def check_wire_name(owner: type, attr: str, wire: str, framework: str = "pydantic") -> None:
    """Rule ``eson-wire-name``: ``wire`` matches ``[A-Za-z_][A-Za-z0-9_.-]*``."""
    if not rule_table.is_name(wire):
        _fail(owner, attr, rule_table.wire_name(attr, wire, framework), "eson-wire-name")


def check_duplicate_names(
    owner: type | str, fields: Sequence[FieldSpec], framework: str = "pydantic"
) -> None:
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
                rule_table.duplicate_name(spec.attr, spec.wire, other, framework),
                "eson-duplicate-name",
            )
        seen[spec.wire] = spec.attr


def check_reserved_n(
    owner: type,
    attr: str | None,
    record: Any,
    fields: Sequence[Named],
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
        fields: The record type's fields (``attr`` and ``wire``), in order.
        numbered: Whether the document numbers its record arrays.
    """
    clash = next((item for item in fields if item.wire == "n"), None) if numbered else None
    if clash is not None:  # numbered: any n clashes, the first field's included
        _fail(
            owner,
            attr,
            rule_table.reserved_n_numbered(
                attr or clash.attr,
                class_name(record),
                rule_table.field_ref(clash.attr, clash.wire),
            ),
            "eson-reserved-n",
        )
    if fields and fields[0].wire == "n":
        first = rule_table.first_n(fields[0].attr)
        if attr is None:
            message = rule_table.reserved_n_first(class_name(record), first)
        else:
            message = rule_table.reserved_n_rows(attr, class_name(record), first)
        _fail(owner, attr if attr is not None else fields[0].attr, message, "eson-reserved-n")


def check_record_array(
    owner: type,
    attr: str,
    element: Any,
    binding: Binding,
    *,
    alongside: Sequence[Any] = (),
    declared: Any = None,
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
        declared: The field's annotation, for the message (default: a list
            of ``element``).

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
    shown = describe(declared) if declared is not None else f"list[{describe(element)}]"
    if isinstance(verdict, str):
        _fail(owner, attr, rule_table.record_array(attr, shown, verdict), "eson-record-array")
    if alongside:
        _fail(owner, attr, rule_table.record_array(attr, shown, Hint.SHARED), "eson-record-array")
    return verdict


def _flat(tp: Any, binding: Binding) -> list[Any]:
    """The members of a (possibly nested) union, keeping type variables and serializers."""
    bare, metadata = unwrap(tp, keep_type_vars=True)
    if binding.serialized_annotation(metadata) is not None:
        return [tp]
    members = union_members(bare)
    if members is None:
        return [tp]
    found: list[Any] = []
    for member in members:
        for item in _flat(member, binding):
            if not any(item is seen or item == seen for seen in found):
                found.append(item)
    return found


def _record_verdict(element: Any, binding: Binding, depth: int = 0) -> Any:
    """A record type, ``None`` (never a record), or the :class:`Hint` of why not.

    The same classification as the mypy plugin's: one record type is a
    record array; several types among which a record, or anything that may
    be an object (``Any``, a dict, a type variable ...), are not.
    """
    items = _flat(element, binding)
    if depth > 24:
        return None
    if len(items) == 1:
        if _is_row(items[0], binding):
            return unwrap(items[0], keep_type_vars=True)[0]
        return _may_be_object(items[0], binding, depth)
    problems = [(item, _may_be_object(item, binding, depth)) for item in items]
    for item, problem in problems:
        if problem is not None and isinstance(unwrap(item, keep_type_vars=True)[0], typing.TypeVar):
            return problem
    if any(_is_row(item, binding) for item in items):
        if len(items) == 2 and any(unwrap(item)[0] in (NONE_TYPE, None) for item in items):
            return Hint.NULL_ROWS
        return Hint.SPLIT
    return next((problem for _, problem in problems if problem is not None), None)


def _is_row(tp: Any, binding: Binding) -> bool:
    bare, metadata = unwrap(tp, keep_type_vars=True)
    if binding.serialized_annotation(metadata) is not None or isinstance(bare, typing.TypeVar):
        return False
    return not is_base_class(bare, binding) and binding.model_shape(bare) == "record"


def _may_be_object(tp: Any, binding: Binding, depth: int) -> str | None:
    """The :class:`Hint` of why values of ``tp`` (no union) may be JSON objects, or ``None``."""
    bare, metadata = unwrap(tp, keep_type_vars=True)
    serialized = binding.serialized_annotation(metadata)
    if serialized is not None:
        if is_any(serialized):
            return Hint.SERIALIZER
        verdict = _record_verdict(serialized, binding, depth + 1)
        return verdict if verdict is None or isinstance(verdict, str) else Hint.DECLARE
    if isinstance(bare, typing.TypeVar):
        stands_for = type_var_stands_for(bare)
        if _record_verdict(stands_for, binding, depth + 1) is None:
            return None  # it stands for types that are never records
        bound = describe(bare.__bound__) if bare.__bound__ is not None else None
        return Hint.type_var(bare.__name__, bound, [describe(c) for c in bare.__constraints__])
    if is_any(bare) or container_kind(bare) == "mapping":
        return Hint.DECLARE
    if bare is NONE_TYPE or bare is None or literal_values(bare) is not None:
        return None
    if is_base_class(bare, binding):
        return Hint.base_class(class_name(bare))
    shape = binding.model_shape(bare)
    if shape == "record":
        return Hint.SPLIT  # a record type among other types
    if shape == "other":
        return Hint.DECLARE
    if getattr(bare, "_is_protocol", False):
        return Hint.PROTOCOL
    return None


_CALLABLES = {abc.Callable, typing.Callable}


class _Unsupported(typing.NamedTuple):
    """Where a type has no codec: the part, why, and the fields leading there."""

    part: str
    why: str
    path: tuple[tuple[str, str], ...] = ()  # (attr, owner) of nested model fields


def check_supported_type(owner: type, attr: str, annotation: Any, binding: Binding) -> None:
    """Rule ``eson-unsupported-type``: the framework can write every value as JSON.

    Walks the whole annotation, including the fields of nested model types.
    """
    found = _unsupported(annotation, owner, binding, set())
    if found is None:
        return
    declared = describe(annotation)
    if found.path:
        dotted = ".".join([found.path[0][1]] + [name for name, _ in found.path])
        message = rule_table.unsupported_nested(attr, declared, dotted, found.part, found.why)
    else:
        message = rule_table.unsupported(attr, declared, found.part, found.why)
    _fail(owner, attr, message, "eson-unsupported-type")


def _unsupported(tp: Any, owner: type, binding: Binding, seen: set[int]) -> _Unsupported | None:
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
            found = _unsupported(member, owner, binding, seen)
            if found is not None:
                return found
        return None
    origin = typing.get_origin(bare)
    if origin in _CALLABLES or bare in _CALLABLES:
        return _Unsupported(describe(bare), Why.CALLABLE)
    if origin is type or bare is type:
        return _Unsupported(describe(bare), Why.CLASS_OBJECT)
    if container_kind(bare) is not None:
        for arg in container_args(bare):
            if arg is not Ellipsis:
                found = _unsupported(arg, owner, binding, seen)
                if found is not None:
                    return found
        return None
    if is_base_class(bare, binding):
        return _Unsupported(describe(bare), Why.BASE_CLASS)
    shape = binding.model_shape(bare)
    if shape is not None:  # a model class, or a parametrised generic one
        if id(bare) in seen:
            return None
        seen.add(id(bare))
        for spec in binding.fields(bare):
            found = _unsupported(spec.annotation, bare, binding, seen)
            if found is not None:
                path = ((spec.attr, class_name(typing.get_origin(bare) or bare)), *found.path)
                return _Unsupported(found.part, found.why, path)
        return None
    if isinstance(bare, type) and issubclass(bare, enum.Enum):
        return None
    if getattr(bare, "_is_protocol", False):
        return _Unsupported(describe(bare), Why.PROTOCOL)
    if isinstance(bare, type) and binding.leaf_plain(owner, bare) is not None:
        return None
    return _Unsupported(describe(bare), Why.NO_CODEC)
