"""The schema rules as data: codes, order, messages and the name production.

Two enforcers check the same rules: the runtime, when a class is defined or
first compiled (:mod:`eson._internal.schema.rules`, raising ``TypeError``), and the
mypy plugin, at type-check time (:mod:`eson.mypy`).  Everything the two must
agree on lives here, once: the rule codes and what they mean
(:data:`RULES`), the order in which a class is checked (:data:`CHECK_ORDER`),
ESON's ``name`` production (:func:`is_name`, :func:`suggest_name`), the
names of the model base classes, and the wording of every diagnostic -- the
functions below, which each enforcer fills with its own spelling of types
(a runtime annotation, or mypy's).  A runtime error is ``Owner.attr:
<message> [code]``; the plugin reports ``<Message>  [code]`` at the line.

This module imports only the standard library and the leaves of this
package (the name production, the error wording), never Pydantic or msgspec:
the mypy plugin imports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from eson._internal.wire.eson_names import NAME_PATTERN as NAME_PATTERN
from eson._internal.wire.eson_names import is_name as is_name
from eson.errors import ECHO_LIMIT, printable

#: Every rule code with a one-line summary (for docs, tools and mypy's code list).
RULES: Final[dict[str, str]] = {
    "eson-record-array": "a record array must hold one concrete record type",
    "eson-wire-name": "a wire name must match ESON's name production",
    "eson-reserved-n": "the first field of a record array is reserved for row numbers",
    "eson-duplicate-name": "wire names must be unique within a class",
    "eson-unsupported-type": "every field type must be one that can be written as JSON",
}

#: The order in which a class is checked.  A class breaking several rules is
#: refused (runtime) for the first of them; the plugin reports each field once,
#: for the first rule it breaks in this order, so the first of a class's codes
#: in this order is the one the runtime raises.  A class whose instances have
#: no ESON layout at all (an ``array_like`` Struct, a ``RootModel``) is refused
#: right after the duplicate names, before its fields are looked at.
CHECK_ORDER: Final[tuple[str, ...]] = (
    "eson-duplicate-name",
    "eson-wire-name",
    "eson-record-array",
    "eson-unsupported-type",
    "eson-reserved-n",
)

#: The model base classes, fully qualified: they have no fields and stand for
#: their subclasses, so no field may be declared with one (``eson-record-array``
#: for ``list[eson.Record]``, ``eson-unsupported-type`` for a ``BaseModel`` field).
BASE_CLASS_NAMES: Final[frozenset[str]] = frozenset(
    {
        "pydantic.main.BaseModel",
        "msgspec.Struct",
        "eson.pydantic.Message",
        "eson.pydantic.Record",
        "eson.msgspec.Message",
        "eson.msgspec.Record",
    }
)

#: What the supported field types are, for ``eson-unsupported-type``.
SUPPORTED_TYPES_HINT: Final = (
    "use str, int, float, bool, None, a Literal, an Enum, a date/time, UUID, Decimal, "
    "bytes, a model, or a list, tuple, set or dict of those"
)


def quoted(text: str) -> str:
    """A name or type in a message: in double quotes, one line, clipped."""
    return f'"{printable(text, ECHO_LIMIT)}"'


def capitalized(message: str) -> str:
    """The message as a sentence of its own (the plugin's form)."""
    return message[:1].upper() + message[1:]


def suggest_name(name: str) -> str:
    """An ESON name close to ``name``: other characters become ``_``."""
    fixed = "".join(c if c.isascii() and (c.isalnum() or c in "_.-") else "_" for c in name)
    if not fixed or not (fixed[0].isalpha() or fixed[0] == "_"):
        fixed = "_" + fixed
    return fixed


def setter(framework: str, value: str = "...") -> str:
    """How a framework sets a field's wire name: ``Field(alias=...)``, ``msgspec.field(name=...)``."""
    if framework == "msgspec":
        return f"msgspec.field(name={value})"
    return f"Field(alias={value})"


def field_ref(name: str, wire: str | None) -> str:
    """``field "x"``, with its wire name when an alias or a renaming changes it."""
    if wire is None or wire == name:
        return f"field {quoted(name)}"
    return f"field {quoted(name)} (wire name {quoted(wire)})"


def first_n(name: str) -> str:
    """How to name a leading ``n``: itself, or the field whose wire name is ``n``."""
    return '"n"' if name == "n" else f'"n" (the wire name of field {quoted(name)})'


# -- eson-wire-name and eson-duplicate-name -------------------------------------------


def wire_name(field: str, wire: str, framework: str) -> str:
    """A wire name outside the ``name`` production (``eson-wire-name``)."""
    what = (
        f"field name {quoted(field)}"
        if wire == field
        else f"wire name {quoted(wire)} of field {quoted(field)}"
    )
    example = setter(framework, quoted(suggest_name(wire[: 2 * ECHO_LIMIT])))
    return (
        f'{what} is not an ESON name; use ASCII letters, digits, "_", "." or "-", starting '
        f'with a letter or "_" (for example {example})'
    )


def duplicate_name(field: str, wire: str, other: str, framework: str) -> str:
    """Two fields with one wire name (``eson-duplicate-name``)."""
    return (
        f"wire name {quoted(wire)} of field {quoted(field)} is already used by field "
        f"{quoted(other)}; give one of them a distinct wire name with {setter(framework)}"
    )


# -- eson-record-array -----------------------------------------------------------------


class Hint:
    """Why a record array's element type is not one concrete record type, and what to do."""

    SPLIT: Final = "split it into one array per record type"
    DECLARE: Final = 'declare a Record class for the rows and use "list[ThatRecord]"'
    SHARED: Final = (
        "a record array cannot share its field with other types, so declare them as "
        "separate fields"
    )
    NULL_ROWS: Final = "rows cannot be null, so drop None from the element type"
    PROTOCOL: Final = "use a concrete Record class instead of a protocol"
    SERIALIZER: Final = (
        "a custom serializer without a declared return type may write objects, so give "
        "it a return type"
    )

    @staticmethod
    def type_var(name: str, bound: str | None, constraints: Sequence[str]) -> str:
        """A type variable that may stand for a record type (or for any type)."""
        if bound is not None:
            what = f"is bound to {quoted(bound)} (it admits every subclass)"
        elif constraints:
            what = "is constrained to " + ", ".join(map(quoted, constraints))
        else:
            what = "is unbound (it may be any type)"
        return (
            f"type variable {quoted(name)} {what}, so the rows could be of more than one "
            'record type; declare them as one concrete Record class ("list[ThatRecord]"), '
            "one array per record type"
        )

    @staticmethod
    def base_class(name: str) -> str:
        """A model base class as the element type."""
        return (
            f"{quoted(name)} is a base class with no fields, so every row would be read "
            'back empty; declare a Record class for the rows and use "list[ThatRecord]"'
        )


def record_array(field: str, declared: str, hint: str) -> str:
    """A record array without one concrete record type (``eson-record-array``)."""
    return (
        f"record array {quoted(field)} must hold one concrete record type, not "
        f"{quoted(declared)}; {hint}"
    )


# -- eson-reserved-n -------------------------------------------------------------------


def reserved_n_first(record: str, first: str) -> str:
    """A Record class whose first field is ``n``; ``first`` is :func:`first_n`'s text."""
    return (
        f"record {quoted(record)} has {first} as its first field, which ESON reserves for "
        "row numbers; rename the field or move it after another field"
    )


def reserved_n_rows(field: str, record: str, first: str) -> str:
    """A record array whose record type's first field is ``n``."""
    return (
        f"record array {quoted(field)} has record type {quoted(record)}, whose first "
        f"field is {first}, which ESON reserves for row numbers; rename that field or move "
        "it after another field"
    )


def reserved_n_numbered(field: str, record: str, clash: str) -> str:
    """A record array of a ``number=True`` message whose record type has a field ``n``."""
    return (
        f"record array {quoted(field)} is numbered, so its record type {quoted(record)} "
        f'cannot have a field named "n" (number=True adds that column itself); rename {clash}'
    )


# -- eson-unsupported-type -------------------------------------------------------------


class Why:
    """Why a part of a field's type cannot be written as JSON."""

    CALLABLE: Final = "a callable"
    CLASS_OBJECT: Final = "a class object"
    NO_CODEC: Final = "a class without an ESON codec"
    PROTOCOL: Final = "a protocol"
    BASE_CLASS: Final = "a base class with no fields of its own"


def unsupported(field: str, declared: str, part: str, why: str) -> str:
    """A field type (or a part of it, ``part``) that cannot be written as JSON."""
    reason = why if part == declared else f"{quoted(part)} is {why}"
    return (
        f"field {quoted(field)} has type {quoted(declared)}, which ESON cannot encode "
        f"({reason}); {SUPPORTED_TYPES_HINT}"
    )


def unsupported_nested(field: str, declared: str, path: str, part: str, why: str) -> str:
    """A field type holding a model whose field ``path`` (``Model.attr``) cannot be written."""
    return (
        f"field {quoted(field)} has type {quoted(declared)}, which ESON cannot encode "
        f"(field {quoted(path)} has type {quoted(part)}, {why}); {SUPPORTED_TYPES_HINT}"
    )


def no_layout(name: str, kind: str) -> str:
    """A class whose instances are not one object with fixed fields.

    ``kind`` is ``"array_like"`` (a msgspec ``array_like`` Struct) or
    ``"other"`` (a Pydantic ``RootModel``, or a model with a model serializer).
    """
    if kind == "array_like":
        return (
            f"{quoted(name)} is array_like, so its instances are written as JSON arrays with "
            "no field names and have no ESON layout; drop array_like=True"
        )
    return (
        f"{quoted(name)} is a root model or has a model serializer, so its instances are not "
        "written as one object with fixed fields and have no ESON layout"
    )


def base_document(name: str) -> str:
    """A model base class used as the document type itself."""
    return (
        f"{quoted(name)} is a base class with no fields of its own, so nothing could be "
        "written or read; use a concrete model class"
    )
