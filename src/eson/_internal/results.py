"""The outcomes of ``try_decode``: :class:`Ok` and :class:`Err`.

Shared by :func:`eson.try_decode`, :func:`eson.toon.try_decode` and
:func:`eson.columnar.try_decode`, re-exported as ``eson.Ok`` and ``eson.Err``
(and from :mod:`eson._internal.api`).  They are dataclasses, and :mod:`dataclasses`
costs :mod:`inspect` with it, so this module is loaded on first use, not by
``import eson`` (tests/test_startup.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

from eson._internal.wire.repairs import Repair
from eson.errors import ESONError

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Ok(Generic[T]):
    """A successful :func:`eson.try_decode`: ``ok`` is ``True``, ``value`` the decoded value.

    ``error`` is ``None``.  An ``Ok`` is truthy, so ``if result:`` means the
    same as ``if result.ok:``.  ``repairs`` holds the :class:`eson.Repair`
    of each fix a lenient read (``strict=False``) made, in line order
    (empty for a strict read or canonical text).
    """

    value: T
    repairs: tuple[Repair, ...] = field(default=(), kw_only=True, repr=False, compare=False)
    ok: Literal[True] = field(default=True, init=False, repr=False)
    error: None = field(default=None, init=False, repr=False)

    def __bool__(self) -> Literal[True]:
        return True


@dataclass(frozen=True, slots=True)
class Err:
    """A failed :func:`eson.try_decode`: ``ok`` is ``False``, ``error`` what stopped it.

    ``value`` is ``None``.  An ``Err`` is falsy.  ``repairs`` holds what a
    lenient read had repaired before it failed (see :class:`Ok`).
    """

    error: ESONError
    repairs: tuple[Repair, ...] = field(default=(), kw_only=True, repr=False, compare=False)
    ok: Literal[False] = field(default=False, init=False, repr=False)
    value: None = field(default=None, init=False, repr=False)

    def __bool__(self) -> Literal[False]:
        return False
