"""Model instances in rows and columns, shared by both back ends.

:func:`record_getter` reads a list of instances column by column (the
writers); :func:`struct_plan` says how the accelerator may build a record
type's rows straight from the text (the readers).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any

from eson._internal.accelerator import native, row_mask
from eson._internal.schema.model import RecordSchema

#: What ``native.read_structs`` takes after the text, start and count: the
#: class, its slots and one kind per column.
StructPlan = tuple[type, tuple[object, ...], tuple[int | dict[str, Any], ...]]


def record_getter(attrs: Sequence[str]) -> Callable[[list[Any]], Sequence[Sequence[Any]]]:
    """Return a function reading the columns ``attrs`` of a list of records.

    Attribute access only (``attrgetter``), so it works for any model
    framework; bindings may offer something faster (``columns_reader``).
    """
    if len(attrs) == 1:
        getter = attrgetter(attrs[0])

        def one(records: list[Any]) -> Sequence[Sequence[Any]]:
            return [list(map(getter, records))]

        return one
    many = attrgetter(*attrs)

    def columns(records: list[Any]) -> Sequence[Sequence[Any]]:
        return list(zip(*map(many, records)))

    return columns


def struct_plan(
    record: RecordSchema, native_mode: Callable[[str], tuple[Any, bool, int]]
) -> StructPlan | None:
    """How ``native.read_structs`` may build this record's rows from the text, or ``None``.

    Only for classes the binding lets the accelerator make by setting slots
    (:meth:`~eson._internal.schema.binding.Binding.row_slots`) and without a
    finalizer (rows built before a cell the accelerator declines are
    dropped), and only when every column has a kind whose values are valid
    as they are: the trusted choices of a ``Literal`` or ``bool`` field
    (every cell one of them), or the type bits of
    :func:`~eson._internal.accelerator.row_mask`.  ``native_mode(wire)`` is
    the ``native_mode`` of the field's column decoder (its mode, whether
    that mode's values are trusted, its exact type bit).  The rows are then
    exactly those the column path builds.
    """
    if native is None or not record.fields or record.declared is not None:
        return None
    cls = record.cls
    if getattr(cls, "__del__", None) is not None:
        return None
    slots = record.binding.row_slots(cls, record.fields)
    if slots is None:
        return None
    kinds: list[int | dict[str, Any]] = []
    for item in record.fields:
        mode, trusted, _ = native_mode(item.wire)
        if isinstance(mode, dict) and trusted:
            kinds.append(mode)
            continue
        mask = row_mask(item.annotation)
        if not mask:
            return None
        kinds.append(mask)
    return cls, slots, tuple(kinds)
