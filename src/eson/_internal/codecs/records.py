"""Reading a list of model instances column by column, shared by both back ends."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any


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
