"""The one ESON reader: a whole text's sections decoded at once equal the same rows read one by one.

:meth:`LineReader.read_all` offers each section's rows to the target at
once (:meth:`SectionTarget.section`); only when the decoder declines are
they read row by row (:meth:`SectionTarget._row`), as a stream reads them.
So the whole text and the stream agree by construction only if the two
roads agree wherever both succeed -- the same values and repairs -- and the
row-by-row road gives the error wherever the whole-section one declines.
These properties force the row-by-row road on every document and compare,
untyped and typed, strict and lenient, on generated and mutated text.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import msgspec
import pydantic
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from speedups_support import same_value
from test_eson_hypothesis import documents, mutated_documents

import eson
import eson.msgspec
import eson.pydantic
from eson._internal.wire import eson_line_reader

SETTINGS = settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))


@contextmanager
def row_by_row() -> Iterator[None]:
    """Every section read row by row: the whole-section road declines, and no fast path runs."""
    saved_section = eson_line_reader.SectionTarget.section
    saved_fast = eson_line_reader.read_fast

    def decline(self: Any, head: Any, body: list[str], line: int) -> bool:
        return False

    eson_line_reader.SectionTarget.section = decline  # type: ignore[method-assign]
    eson_line_reader.read_fast = lambda *args: None  # type: ignore[assignment]
    from eson._internal.codecs import eson_decode

    saved_typed_fast = eson_decode.read_fast
    eson_decode.read_fast = lambda *args: None  # type: ignore[assignment]
    try:
        yield
    finally:
        eson_line_reader.SectionTarget.section = saved_section  # type: ignore[method-assign]
        eson_line_reader.read_fast = saved_fast
        eson_decode.read_fast = saved_typed_fast


def outcome(function: Any) -> tuple[str, Any]:
    repairs: list[Any] = []
    try:
        return "ok", (function(repairs), [str(repair) for repair in repairs])
    except eson.ESONError as exc:
        return "error", (type(exc).__name__, str(exc))


def both(function: Any) -> tuple[tuple[str, Any], tuple[str, Any]]:
    whole = outcome(function)
    with row_by_row():
        rows = outcome(function)
    return whole, rows


def check(function: Any) -> None:
    whole, rows = both(function)
    assert whole[0] == rows[0], (whole, rows)
    if whole[0] == "ok":
        assert same_value(whole[1][0], rows[1][0]), (whole, rows)
        assert whole[1][1] == rows[1][1]
    else:
        assert whole[1] == rows[1]


@SETTINGS
@given(documents, st.booleans(), st.booleans())
def test_generated_documents_read_alike(document: dict[str, Any], number: bool, strict: bool) -> None:
    text = eson.encode(document, number=number)
    check(lambda repairs: eson.decode(text, strict=strict, repairs=None if strict else repairs))


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated_documents(), st.booleans())
def test_mutated_documents_read_alike(text: str, strict: bool) -> None:
    check(lambda repairs: eson.decode(text, strict=strict, repairs=None if strict else repairs))


class MRow(eson.msgspec.Record):
    id: int
    kind: str
    score: float | None = None
    tags: list[str] = msgspec.field(default_factory=list)


class MDoc(eson.msgspec.Message):
    title: str = ""
    rows: list[MRow] = msgspec.field(default_factory=list)
    notes: list[str] = msgspec.field(default_factory=list)
    retry: int = 0


class PRow(eson.pydantic.Record):
    id: int
    kind: str
    score: float | None = None
    tags: list[str] = pydantic.Field(default_factory=list)


class PDoc(eson.pydantic.Message, number=True):
    title: str = ""
    rows: list[PRow] = pydantic.Field(default_factory=list)
    notes: list[str] = pydantic.Field(default_factory=list)
    retry: int = 0


LINES = st.sampled_from(
    [
        "title=report",
        'title="a\\tb"',
        "rows[2]{id,kind,score,tags}",
        "rows[2]{n,id,kind,score,tags}",
        "rows[3]{id,kind}",
        "1\tbug\t0.5\t[]",
        "1\tbug\t0.5\t[\"x\"]",
        "2\tnit\tnull\t[]",
        "2\t7\t0.5\t[]",
        "1\ttrue\t1\t[]",
        "2\t2\t7\tnull\t[5]",
        "1\t1\tbug\t0.5\t[]",
        "2\t2\tnit\tnull\t[]",
        "x\tbug\t0.5\t[]",
        "3 \t bug\t1\t[]",
        "1\tbug",
        "notes[2]",
        "notes[1]",
        "a note",
        "retry=3",
        "retry=x",
        "",
        "  ",
    ]
)


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(LINES, max_size=9), st.sampled_from([MDoc, PDoc]), st.booleans(), st.booleans())
def test_typed_documents_read_alike(lines: list[str], cls: type, strict: bool, header: bool) -> None:
    text = ("!eson/1\n" if header else "") + "".join(line + "\n" for line in lines)
    check(
        lambda repairs: eson.decode(
            text, type=cls, strict=strict, repairs=None if strict else repairs
        )
    )
