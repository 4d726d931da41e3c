"""Whether the optional C accelerator :mod:`eson._speedups` is in use.

The accelerator only speeds up what it fully understands: each hot path in
the pure-Python modules asks it first, in one place, and runs its own code
whenever the answer is ``None`` ("not handled").  The Python code stays the
reference and raises every error, so results and messages are the same with
and without it.

Set ``TYPED_ESON_NO_SPEEDUPS=1`` in the environment (before ``import eson``)
to force pure Python; :data:`eson.speedups` tells which one is running.
"""

from __future__ import annotations

import os
import types
import typing
from types import ModuleType
from typing import TYPE_CHECKING

#: ``TYPED_ESON_NO_SPEEDUPS`` is set (to anything but ``""`` or ``"0"``).
DISABLED_BY_ENV = os.environ.get("TYPED_ESON_NO_SPEEDUPS", "") not in ("", "0")


def _load() -> ModuleType | None:
    if DISABLED_BY_ENV:
        return None
    try:
        import eson._speedups as _speedups
    except ImportError:  # not built (no compiler, a pure wheel, another interpreter)
        return None
    if not hasattr(_speedups, "SHORT_INT_DIGITS"):  # a stale build without its constants
        return None
    return _speedups


if TYPE_CHECKING:  # typed by src/eson/_speedups.pyi; None at run time when not in use
    import eson._speedups as native
else:
    #: The accelerator module, or ``None`` when pure Python is running.
    native = _load()

enabled: bool = native is not None
"""Whether the optional C accelerator is in use (``eson.speedups``).

``False`` when it is not built (no C compiler at install time, the pure
wheel, another interpreter) or when ``TYPED_ESON_NO_SPEEDUPS=1`` is set.
Results are the same either way; see the accelerator page.
"""


# -- the constants the C functions take, as the C module exports them ------------


def _exported(name: str) -> int:
    """The C module's constant ``name``; -1 without the module (then nothing reads it)."""
    return -1 if native is None else int(getattr(native, name))


#: ``encode_rows`` access: msgspec-style slots (member descriptors), read by offset.
ACCESS_SLOTS = _exported("ACCESS_SLOTS")
#: ``encode_rows`` access: attributes read from the instance ``__dict__`` (Pydantic).
ACCESS_INSTANCE_DICT = _exported("ACCESS_INSTANCE_DICT")
#: ``encode_rows`` access: the records are plain ``dict`` objects.
ACCESS_DICT = _exported("ACCESS_DICT")

#: ``decode_rows`` modes of a column (a ``dict`` of cell text -> value is the fourth).
MODE_GENERIC = _exported("MODE_GENERIC")
MODE_INT = _exported("MODE_INT")
MODE_NUMBER = _exported("MODE_NUMBER")
MODE_STR = _exported("MODE_STR")

#: ``decode_rows`` flag of a column the C code left as cell texts.
RAW = _exported("RAW")

#: ``read_structs`` kind bit: an int cell becomes the float of its value.
INT_AS_FLOAT = _exported("INT_AS_FLOAT")

_TYPE_BITS: dict[type, int] = {
    str: _exported("TYPE_STR"),
    int: _exported("TYPE_INT"),
    float: _exported("TYPE_FLOAT"),
    bool: _exported("TYPE_BOOL"),
    type(None): _exported("TYPE_NONE"),
}


def type_mask(types: frozenset[type] | set[type]) -> int:
    """The bit mask of plain value types the C cell writer may take for a column."""
    mask = 0
    for kind in types:
        mask |= _TYPE_BITS.get(kind, 0)
    return mask


#: The plain value types: a value of one of them converts to itself.
_PLAIN_TYPES = (str, int, float, bool, type(None))

#: ``read_structs`` kinds: a column taking any cell ``read_cell`` reads, and one taking text only.
ANY_PLAIN = type_mask(set(_PLAIN_TYPES))
TEXT_ONLY = type_mask({str})


def plain_mask(annotation: object) -> int:
    """The type bits of the cell values valid as they are for ``annotation``, or 0.

    For ``Any``, the plain types and unions of them (no metadata): a value
    of one of those types converts to itself (``msgspec.convert`` returns
    it as it is), so a column of them needs no conversion.
    """
    if annotation is typing.Any:
        return type_mask(frozenset(_PLAIN_TYPES))
    if annotation in _PLAIN_TYPES:
        return type_mask(frozenset({annotation}))
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        members = typing.get_args(annotation)
        if all(member in _PLAIN_TYPES for member in members):
            return type_mask(frozenset(members))
    return 0


def row_mask(annotation: object) -> int:
    """The ``read_structs`` kind of a field of a msgspec row class, or 0 (no kind).

    :func:`plain_mask`, and for a field that takes a ``float`` but no
    ``int`` the :data:`INT_AS_FLOAT` bit as well: msgspec takes an ``int``
    for a ``float`` field and gives its float (TOON writes ``0.0`` as ``0``),
    so the row holds what ``msgspec.convert`` would make of it.
    """
    mask = plain_mask(annotation)
    bits = _TYPE_BITS
    if mask & bits[float] and not mask & bits[int]:
        mask |= INT_AS_FLOAT
    return mask


def exact_mask(annotation: object) -> int:
    """The type bit of a bare ``int``/``float``/``str``/``bool`` annotation, else 0.

    A decoded column whose values all have exactly this type (the mask the
    C row readers return) is valid as it is for the field.
    """
    if annotation in (str, int, float, bool):
        return _TYPE_BITS[annotation]
    return 0
