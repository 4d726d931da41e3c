"""The Pydantic flavour: ``Message`` and ``Record`` base models.

Subclass :class:`Message` for a document (the envelope an agent sends) and
:class:`Record` for the rows of its record arrays::

    from typing import Literal
    from pydantic import Field
    import eson

    class Finding(eson.Record):
        file: str
        line: int
        severity: Literal["high", "medium", "low"]

    class Review(eson.Message, number=True):
        from_: str = Field(alias="from")
        kind: str
        findings: list[Finding]

    text = review.to_eson()
    again = Review.from_eson(text)

Both are plain ``pydantic.BaseModel`` subclasses: validators, ``Field``
constraints, aliases and ``model_config`` work as usual.  The class is
checked against the ESON schema rules (:mod:`eson._internal.schema.rules`) when it is
defined -- or, if it refers to a type defined later, on first use -- and its
codec is compiled once.

Class keywords:
    number: (``Message`` only) record arrays carry the reserved ``n``
        row-number column; inherited by subclasses.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pydantic

from eson._bases import ModelMethods
from eson._internal.schema.compile import NUMBER_ATTRIBUTE, document_schema, record_schema
from eson._internal.schema.rules import check_reserved_n

__all__ = ["Message", "Record"]


def _check_now(cls: type, *, record: bool) -> None:
    """Compile ``cls`` at definition time; wait for first use if it is not complete yet.

    A generic model is checked too, its type parameters standing for their
    bounds (or ``Any``), and so is each parametrisation (``Page[int]`` is a
    class of its own).
    """
    if not cls.__pydantic_complete__:  # type: ignore[attr-defined]
        return  # not complete yet: checked on first use
    try:
        if record:
            schema = record_schema(cls)
            check_reserved_n(cls, None, cls, schema.fields)
        else:
            document_schema(cls)
    except (NameError, pydantic.errors.PydanticUndefinedAnnotation):
        return  # a forward reference: checked again on first use


class Message(ModelMethods, pydantic.BaseModel):
    """Base model of an ESON document (see the module documentation)."""

    __eson_number__: ClassVar[bool] = False
    __eson_base__: ClassVar[bool] = True  # the base itself is no model (see schema.rules)

    def __init_subclass__(cls, *, number: bool | None = None, **kwargs: Any) -> None:
        if number is not None:
            if not isinstance(number, bool):
                raise TypeError(f"{cls.__qualname__}: number must be True or False, not {number!r}")
            setattr(cls, NUMBER_ATTRIBUTE, number)
        super().__init_subclass__(**kwargs)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        kwargs.pop("number", None)
        super().__pydantic_init_subclass__(**kwargs)
        _check_now(cls, record=False)


class Record(ModelMethods, pydantic.BaseModel):
    """Base model of the rows of a record array (see the module documentation).

    A record's fields become the columns of its rows; nested models, lists
    and dicts inside a row travel as compact JSON cells.  A record may also be
    written as a document of its own.
    """

    __eson_base__: ClassVar[bool] = True  # the base itself is no model (see schema.rules)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        _check_now(cls, record=True)
