"""Reading type annotations: unwrapping, unions, literals, shapes and the leaf types.

Framework-independent helpers; whatever needs framework knowledge (is this a
model class? can it serialize that class?) is asked of a
:class:`~eson._internal.schema.binding.Binding`.
"""

from __future__ import annotations

import collections
import collections.abc as abc
import datetime
import decimal
import enum
import types
import typing
import uuid
from collections.abc import Iterator
from typing import Any, NamedTuple

import typing_extensions

from eson._internal.schema.binding import Binding
from eson._internal.schema.model import CellType

NONE_TYPE: type = type(None)
PLAIN_TYPES: frozenset[type] = frozenset({str, int, float, bool, NONE_TYPE})


# -- the leaf types -----------------------------------------------------------------------
# Classes whose values are one cell on the wire, in one table.  Every reader of a
# type that needs its leaves -- the TOON shapes (a leaf is never a nested object),
# the layout a prompt shows (the type in words), the example a prompt writes --
# reads LEAVES; the mypy plugin's eson.mypy.SCALAR_TYPES names the same classes
# (a test holds the two together).  None, Literal, enums, models and Any are not
# in it: they are handled structurally.


class Leaf(NamedTuple):
    """One leaf type.

    Attributes:
        cls: The class (a subclass counts as it).
        fullname: Its name as mypy spells it (``"datetime.date"``).
        words: The type in a prompt's words (``"date (YYYY-MM-DD string)"``).
        example: A value of it in JSON mode, for an example document
            (``None``: made up another way, from the field's constraints).
    """

    cls: type
    fullname: str
    words: str
    example: Any = None


LEAVES: tuple[Leaf, ...] = (
    Leaf(str, "builtins.str", "string"),
    Leaf(int, "builtins.int", "integer"),
    Leaf(float, "builtins.float", "number"),
    Leaf(bool, "builtins.bool", "boolean"),
    Leaf(
        datetime.datetime,
        "datetime.datetime",
        "date-time (ISO 8601 string)",
        "2026-01-31T12:00:00Z",
    ),
    Leaf(datetime.date, "datetime.date", "date (YYYY-MM-DD string)", "2026-01-31"),
    Leaf(datetime.time, "datetime.time", "time (HH:MM:SS string)", "12:00:00"),
    Leaf(
        datetime.timedelta,
        "datetime.timedelta",
        "duration (ISO 8601 string, e.g. PT1H30M)",
        "PT1H",
    ),
    Leaf(uuid.UUID, "uuid.UUID", "UUID string", "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f"),
    Leaf(decimal.Decimal, "decimal.Decimal", "decimal number (as a string)", "12.5"),
    Leaf(bytes, "builtins.bytes", "bytes (as a string)"),
    # msgspec's alone (Pydantic has no schema for it): eson.mypy lists it for that flavour.
    Leaf(bytearray, "builtins.bytearray", "bytes (as a string)"),
)

#: The leaf classes other than the JSON primitives (str, int, float, bool):
#: their JSON-mode values are strings (or numbers), never objects.
CONVERTED_LEAVES: frozenset[type] = frozenset(leaf.cls for leaf in LEAVES[4:])

#: Each leaf class's words (see :class:`Leaf`).
LEAF_WORDS: dict[type, str] = {leaf.cls: leaf.words for leaf in LEAVES}

#: The leaf classes with a fixed example value, and the value.
LEAF_EXAMPLES: dict[type, Any] = {
    leaf.cls: leaf.example for leaf in LEAVES if leaf.example is not None
}

_UNION_ORIGINS = {typing.Union, types.UnionType}
_ANY = {typing.Any, typing_extensions.Any, object}
_ALIAS_TYPES: tuple[type, ...] = tuple(
    {t for t in (getattr(typing, "TypeAliasType", None), typing_extensions.TypeAliasType) if t}
)
_LITERALS = {typing.Literal, typing_extensions.Literal}
_WRAPPERS = {
    typing_extensions.Required,
    typing_extensions.NotRequired,
    typing_extensions.ReadOnly,
    typing.Final,
}

ContainerKind = typing.Literal["sequence", "tuple", "set", "mapping"]

_SEQUENCES = {
    list,
    abc.Sequence,
    abc.MutableSequence,
    abc.Collection,
    abc.Iterable,
    typing.List,  # noqa: UP006
    typing.Sequence,
    collections.deque,
}
_SETS = {set, frozenset, abc.Set, abc.MutableSet, typing.Set, typing.FrozenSet}  # noqa: UP006
_MAPPINGS = {
    dict,
    abc.Mapping,
    abc.MutableMapping,
    typing.Dict,  # noqa: UP006
    typing.Mapping,
    collections.OrderedDict,
    collections.defaultdict,
}


def unwrap(tp: Any, *, keep_type_vars: bool = False) -> tuple[Any, list[Any]]:
    """Strip ``Annotated``, ``NewType``, type aliases and TypedDict wrappers.

    A type variable stands for its bound, the union of its constraints, or
    ``Any``; with ``keep_type_vars`` it is returned as it is instead.

    Returns the bare type and the ``Annotated`` metadata met on the way
    (outermost first).
    """
    metadata: list[Any] = []
    for _ in range(100):
        origin = typing.get_origin(tp)
        if origin is typing.Annotated or origin is typing_extensions.Annotated:
            metadata.extend(tp.__metadata__)
            tp = tp.__origin__
        elif origin in _WRAPPERS:
            tp = typing.get_args(tp)[0]
        elif isinstance(tp, typing.NewType):
            tp = tp.__supertype__
        elif _ALIAS_TYPES and isinstance(tp, _ALIAS_TYPES):
            tp = getattr(tp, "__value__", Any)
        elif _ALIAS_TYPES and isinstance(origin, _ALIAS_TYPES):
            tp = getattr(origin, "__value__", Any)  # an alias applied to arguments: its body
        elif isinstance(tp, typing.TypeVar) and not keep_type_vars:
            tp = type_var_stands_for(tp)
        else:
            return tp, metadata
    return tp, metadata


def is_any(tp: Any) -> bool:
    """Whether ``tp`` (unwrapped) admits any value."""
    return tp in _ANY


def union_members(tp: Any) -> tuple[Any, ...] | None:
    """The members of a union type, or ``None`` when ``tp`` is not a union."""
    if typing.get_origin(tp) in _UNION_ORIGINS:
        return typing.get_args(tp)
    return None


def strip_none(tp: Any) -> tuple[Any, bool]:
    """Remove ``None`` from a union: ``(rest, had_none)``.

    ``rest`` is the single remaining member, or a union of the remaining ones.
    """
    bare, _ = unwrap(tp)
    members = union_members(bare)
    if members is None:
        return tp, bare is NONE_TYPE or bare is None
    rest = [member for member in members if unwrap(member)[0] not in (NONE_TYPE, None)]
    had_none = len(rest) != len(members)
    if not rest:
        return NONE_TYPE, True
    if len(rest) == 1:
        return rest[0], had_none
    return typing.Union[tuple(rest)], had_none  # noqa: UP007


def literal_values(tp: Any) -> tuple[Any, ...] | None:
    """The values of a ``Literal`` (nested literals flattened), else ``None``."""
    if typing.get_origin(tp) not in _LITERALS:
        return None
    values: list[Any] = []
    for arg in typing.get_args(tp):
        nested = literal_values(arg)
        values.extend(nested if nested is not None else (arg,))
    return tuple(values)


def container_kind(tp: Any) -> ContainerKind | None:
    """Whether ``tp`` (unwrapped) is a sequence, tuple, set or mapping type."""
    origin = typing.get_origin(tp) or tp
    if origin is tuple or origin is typing.Tuple:  # noqa: UP006
        return "tuple"
    if origin in _SEQUENCES:
        return "sequence"
    if origin in _SETS:
        return "set"
    if origin in _MAPPINGS:
        return "mapping"
    if typing_extensions.is_typeddict(origin):
        return "mapping"
    if isinstance(origin, type) and issubclass(origin, tuple) and hasattr(origin, "_fields"):
        return "tuple"  # NamedTuple
    return None


def container_args(tp: Any) -> tuple[Any, ...]:
    """The element annotations of a container type (``Any`` when bare).

    Sequences and sets give one element type; mappings give the key and value
    types; tuples give their items (``(X, Ellipsis)`` for ``tuple[X, ...]``);
    a TypedDict or NamedTuple gives its field annotations.
    """
    origin = typing.get_origin(tp) or tp
    args = typing.get_args(tp)
    if typing_extensions.is_typeddict(origin):
        return tuple(typing.get_type_hints(origin, include_extras=True).values())
    if isinstance(origin, type) and issubclass(origin, tuple) and hasattr(origin, "_fields"):
        hints = typing.get_type_hints(origin, include_extras=True)
        return tuple(hints.get(name, Any) for name in origin._fields)
    kind = container_kind(tp)
    if kind == "mapping":
        return args if len(args) == 2 else (Any, Any)
    if kind == "tuple":
        return args if args else (Any, Ellipsis)
    return args[:1] if args else (Any,)


def describe(tp: Any) -> str:
    """A short readable spelling of an annotation for error messages."""
    if tp is NONE_TYPE:
        return "None"
    if isinstance(tp, type) and not typing.get_args(tp):
        return tp.__qualname__.rsplit("<locals>.", 1)[-1]
    if isinstance(tp, typing.TypeVar):
        return tp.__name__
    if isinstance(tp, list):  # the parameters of a Callable
        return "[" + ", ".join(describe(item) for item in tp) + "]"
    members = union_members(tp)
    if members is not None:
        return " | ".join(describe(member) for member in members)
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is not None and args and isinstance(origin, type):
        inner = ", ".join("..." if arg is Ellipsis else describe(arg) for arg in args)
        return f"{describe(origin)}[{inner}]"
    text = repr(tp)
    return text.replace("typing.", "").replace("typing_extensions.", "")


def type_var_stands_for(tp: typing.TypeVar) -> Any:
    """What a type variable may be: its bound, the union of its constraints, or ``Any``."""
    if tp.__bound__ is not None:
        return tp.__bound__
    if tp.__constraints__:
        return typing.Union[tp.__constraints__]  # noqa: UP007
    return Any


def generic_parameters(tp: Any) -> tuple[type, dict[Any, Any]] | None:
    """Split a parametrised generic class ``C[X, ...]`` into ``C`` and ``{T: X, ...}``.

    ``None`` when ``tp`` is not a parametrisation of a generic class (a plain
    class, a builtin container such as ``list[int]``, or an arity mismatch).
    """
    origin = typing.get_origin(tp)
    if not isinstance(origin, type):
        return None
    parameters = getattr(origin, "__parameters__", None)
    args = typing.get_args(tp)
    if not isinstance(parameters, tuple) or not parameters or len(parameters) != len(args):
        return None
    return origin, dict(zip(parameters, args))


def substitute(annotation: Any, bindings: dict[Any, Any]) -> Any:
    """Replace the type variables of ``annotation`` by their values in ``bindings``."""
    if isinstance(annotation, typing.TypeVar):
        return bindings.get(annotation, annotation)
    if isinstance(annotation, type):
        return annotation  # a bare generic class stays as it is declared
    parameters = getattr(annotation, "__parameters__", None)
    if not isinstance(parameters, tuple) or not parameters:
        return annotation
    try:
        return annotation[tuple(bindings.get(p, p) for p in parameters)]
    except TypeError:  # not subscriptable after all
        return annotation


def walk(tp: Any) -> Iterator[Any]:
    """Yield every annotation nested in ``tp`` (itself first), unwrapped."""
    bare, _ = unwrap(tp)
    yield bare
    if literal_values(bare) is not None:
        return
    members = union_members(bare)
    if members is not None:
        for member in members:
            yield from walk(member)
        return
    if container_kind(bare) is not None:
        for arg in container_args(bare):
            if arg is not Ellipsis:
                yield from walk(arg)


def cell_type(annotation: Any, owner: type, binding: Binding) -> CellType:
    """Describe the values of ``annotation`` as cells.

    The annotation must already have passed
    :func:`eson._internal.schema.rules.check_supported_type`.
    """
    bare, metadata = unwrap(annotation)
    if binding.serialized_annotation(metadata) is not None:
        return CellType(annotation, frozenset(), None, structured=True)
    plain, choices, structured = _cell_facts(bare, owner, binding, 0)
    return CellType(annotation, plain, choices, structured)


def _cell_facts(
    bare: Any, owner: type, binding: Binding, depth: int
) -> tuple[frozenset[type], frozenset[str] | None, bool]:
    if depth > 50:
        return frozenset(), None, True
    if is_any(bare):
        return PLAIN_TYPES, None, True
    if bare is None or bare is NONE_TYPE:
        return frozenset({NONE_TYPE}), None, False
    values = literal_values(bare)
    if values is not None:
        kinds = {type(value) for value in values}
        strings = frozenset(values) if kinds == {str} else None
        return frozenset(kinds & PLAIN_TYPES), strings, False
    members = union_members(bare)
    if members is not None:
        plain_all: set[type] = set()
        structured = False
        choices: set[str] | None = set()
        for member in members:
            inner, inner_meta = unwrap(member)
            if binding.serialized_annotation(inner_meta) is not None:
                return frozenset(), None, True
            m_plain, m_choices, m_structured = _cell_facts(inner, owner, binding, depth + 1)
            plain_all |= m_plain
            structured = structured or m_structured
            if choices is not None and m_choices is not None:
                choices |= m_choices
            elif m_plain != {NONE_TYPE}:
                choices = None
        return frozenset(plain_all), frozenset(choices) if choices else None, structured
    if container_kind(bare) is not None or binding.model_shape(bare) is not None:
        return frozenset(), None, True
    if isinstance(bare, type) and issubclass(bare, enum.Enum):
        return frozenset(), None, False
    if isinstance(bare, type):
        plain = binding.leaf_plain(owner, bare)
        return plain or frozenset(), None, False
    return frozenset(), None, True
