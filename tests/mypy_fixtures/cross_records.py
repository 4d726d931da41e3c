"""Record types for ``cross_message.py``, in a module of their own.

mypy keeps no class bodies for modules other than the one it is analysing, so the
plugin reads these classes from the metadata it stored when it checked them (or
from mypy's dataclass metadata for plain models): the same path the incremental
cache takes.
"""

import msgspec
from pydantic import BaseModel, Field

import eson
from eson.msgspec import Record as StructRecord


class Shouting(StructRecord, rename="upper"):
    """Wire names ``CODE`` and ``TEXT``; subclasses inherit the renaming."""

    code: int
    text: str


class Ranked(BaseModel):
    """A plain model whose first wire name is ``n`` through an alias."""

    rank: int = Field(alias="n")
    label: str


class Tagged(eson.Record):
    label: str
    n: int


class Point(msgspec.Struct):
    x: float
    y: float
