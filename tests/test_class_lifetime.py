"""No class is kept alive by the library's caches (issue 18, item 7).

Every compiled artefact of a model class (schemas, ESON/TOON/columnar
readers and writers, layouts, stream plans, Pydantic adapters) lives in the
class's own cache (:mod:`eson._internal.schema.class_cache`), so a class built per
request is freed once the caller drops it.
"""

# No "from __future__ import annotations": the classes below are local, and msgspec
# resolves string annotations at module scope.

import gc
import typing
import weakref
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import msgspec
import pydantic

import eson
import eson.msgspec as em
from eson import columnar, toon
from eson._internal.schema.class_cache import ATTRIBUTE, cached

T = TypeVar("T")


def _use_everything(message_type: type, message: Any) -> None:
    """Encode and decode ``message`` through every reader and writer that compiles its class."""
    for delimiter in (",", "\t"):
        text = toon.encode(message, delimiter=delimiter)  # type: ignore[arg-type]
        assert toon.decode(text, type=message_type) == message
    text = eson.encode(message)
    assert eson.decode(text, type=message_type) == message
    assert eson.decode(text, type=message_type, strict=False, repairs=[]) == message
    assert eson.parse_reply(f"Here:\n```eson\n{text}```\n", message_type) == message
    assert eson.parse_reply(toon.encode(message), message_type, formats=("toon",)) == message
    for fmt, payload in (("eson", text), ("toon", toon.encode(message))):
        decoder = eson.StreamDecoder(message_type, format=fmt)  # type: ignore[call-overload]
        decoder.feed(payload)
        assert decoder.close() == message
        # a stream left unfinished (the accelerator's core armed in the rows
        # -- TOON's once a table's first row is read --, holding the decoder:
        # a cycle the collector frees)
        abandoned = eson.StreamDecoder(message_type, format=fmt)  # type: ignore[call-overload]
        for line in payload.splitlines(keepends=True)[:-1]:
            abandoned.feed(line)
        abandoned.feed(payload.splitlines()[-1][:2])
        core = abandoned._core
        assert core is None or core.armed  # the last entry is a record array: its rows
    assert columnar.decode(columnar.encode(message), type=message_type) == message
    assert eson.prompt(message_type)
    assert eson.prompt(message_type, format="toon")


def _pydantic_classes() -> tuple[list[type], Callable[[], tuple[type, Any]]]:
    class Hit(eson.Record):
        rank: int
        title: str
        score: float

    class Page(pydantic.BaseModel):
        number: int

    class Results(eson.Message, number=True):
        query: str
        page: Page
        hits: list[Hit]

    def build() -> tuple[type, Any]:
        return Results, Results(
            query="q",
            page=Page(number=2),
            hits=[Hit(rank=rank, title="a", score=0.5) for rank in range(1, 4)],
        )

    return [Hit, Page, Results], build


def _msgspec_classes() -> tuple[list[type], Callable[[], tuple[type, Any]]]:
    class Hit(em.Record):
        rank: int
        title: str

    class Page(msgspec.Struct):
        number: int

    class Box(msgspec.Struct, Generic[T]):
        item: T

    class Results(em.Message):
        query: str
        page: Page
        box: Box[int]
        hits: list[Hit]

    def build() -> tuple[type, Any]:
        hits = [Hit(rank=rank, title="a") for rank in range(1, 6)]
        return Results, Results(query="q", page=Page(number=2), box=Box(item=3), hits=hits)

    return [Hit, Page, Box, Results], build


def _collected(make: Callable[[], tuple[list[type], Callable[[], tuple[type, Any]]]]) -> list[str]:
    classes, build = make()
    message_type, message = build()
    _use_everything(message_type, message)
    refs = [weakref.ref(cls) for cls in classes]
    del classes, build, message_type, message
    # Python's own typing module caches parametrised generics (``Box[int]``)
    # in bounded LRU caches: empty them, as a long-running process does by
    # eviction, so that only references held by this library could remain.
    for clear in typing._cleanups:  # type: ignore[attr-defined]
        clear()
    for _ in range(3):
        gc.collect()
    return [ref().__qualname__ for ref in refs if ref() is not None]  # type: ignore[union-attr]


def test_a_pydantic_message_and_its_records_are_freed() -> None:
    assert _collected(_pydantic_classes) == []


def test_a_msgspec_message_and_its_records_are_freed() -> None:
    assert _collected(_msgspec_classes) == []


def test_the_cache_lives_on_the_class_itself() -> None:
    _, build = _pydantic_classes()
    message_type, message = build()
    eson.encode(message)
    assert vars(message_type)[ATTRIBUTE][0] is message_type

    class Child(message_type):  # type: ignore[misc, valid-type]
        extra: int = 0

    # a subclass has its own cache (compiled when it is defined), never its parent's
    assert eson.decode(eson.encode(Child(**dict(message), extra=1)), type=Child).extra == 1
    assert vars(Child)[ATTRIBUTE][1] is not vars(message_type)[ATTRIBUTE][1]


def test_cached_builds_once_and_not_for_immutable_types() -> None:
    calls: list[int] = []

    class Holder:
        pass

    def build() -> str:
        calls.append(1)
        return "built"

    assert cached(Holder, "k", build) == "built"
    assert cached(Holder, "k", build) == "built"
    assert len(calls) == 1
    # int's attributes cannot be set: nothing is kept, the build runs each time
    assert cached(int, "k", build) == "built"
    assert cached(int, "k", build) == "built"
    assert len(calls) == 3
    assert not hasattr(int, ATTRIBUTE)
