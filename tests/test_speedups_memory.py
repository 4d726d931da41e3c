"""Reference counts and memory stay flat: each C entry point called 100 000 times.

A leaked reference shows as a growing reference count of the objects passed
in (or returned); a leaked object or buffer as growing allocated blocks or
resident memory.  Each entry point runs on small inputs that reach its
interesting branches (quoting, numbers, the "not handled" return, errors
from inner calls).
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import msgspec
import pytest
from speedups_support import require_accelerator

import eson
import eson.msgspec
from eson._internal import accelerator

ROUNDS = 100_000


class Row(eson.msgspec.Record):
    id: int
    kind: Literal["a", "b"]
    name: str
    score: float
    ok: bool
    note: str | None


class Doc(eson.msgspec.Message):
    rows: list[Row]


class PRow(eson.Record):
    id: int
    name: str
    score: float


def _rss_kib() -> int:
    statm = Path("/proc/self/statm")
    if statm.exists():
        pages = int(statm.read_text().split()[1])
        import os

        return pages * os.sysconf("SC_PAGE_SIZE") // 1024
    import resource

    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def _flat(call: Callable[[], Any], watched: list[Any]) -> None:
    for _ in range(1000):  # warm caches, free lists and interned strings
        call()
    gc.collect()
    counts = [sys.getrefcount(item) for item in watched]
    blocks = sys.getallocatedblocks()
    rss = _rss_kib()
    for _ in range(ROUNDS):
        call()
    gc.collect()
    assert [sys.getrefcount(item) for item in watched] == counts
    # A leak of one object per call would add ROUNDS blocks; allow for noise.
    assert sys.getallocatedblocks() - blocks < 2_000
    # A leaked buffer of even 16 bytes per call would add 1.6 MB.
    assert _rss_kib() - rss < 1_024


@pytest.fixture(autouse=True)
def _accelerated() -> None:
    require_accelerator()


def _native() -> Any:
    assert accelerator.native is not None
    return accelerator.native


def test_cell_functions() -> None:
    native = _native()
    plain, quoted, weird = "plain words", 'a\t"b"\\\n\u2028\ud800\U0001f600', "12"
    number = 0.1234
    _flat(
        lambda: (
            native.encode_str(plain),
            native.encode_str(quoted),
            native.encode_str(weird),
            native.quote(quoted),
            native.is_bare(quoted),
            native.format_float(number),
            native.format_float(1e-300),
            native.format_float(float("nan")),
            native.parse_float("1.5e-3"),
            native.parse_float("x"),
            native.encode_str(5),
        ),
        [plain, quoted, weird, number],
    )


def test_column_functions() -> None:
    native = _native()
    values = ["x", 1, 2.5, True, None, "a b", "\ud800", 10**30, -0.0]
    texts = ["x", "1", "-2.5e3", '"q\\"\\ud83d\\ude00"', "null", "true", "", "01", "[1]"]
    good = ["x", "1", "-2.5e3", '"q\\n"', "null", "false", "é中\ud800"]
    _flat(
        lambda: (
            native.encode_cells(values),
            native.encode_cells(values[:6]),
            native.encode_cells(values[:2], 1),
            native.decode_cells(texts),
            native.decode_cells(good),
        ),
        [values, texts, good, *values, *good],
    )


def test_rows() -> None:
    native = _native()
    rows = [
        Row(1, "a", "first row", 0.5, True, None),
        Row(2, "b", 'quoted "name"\t', 1e-9, False, "note"),
    ]
    slots = tuple(vars(Row)[name] for name in Row.__struct_fields__)
    masks = (2, 1, 1, 4, 8, 17)
    dicts = [msgspec.to_builtins(row) for row in rows]
    keys = tuple(Row.__struct_fields__)
    bad = [*rows, "not a row"]
    body = native.encode_rows(rows, Row, 0, slots, masks, True)
    assert body is not None
    lines = body.split("\n")
    choices = {"a": "a", "b": "b"}
    modes = (1, 1, choices, 3, 2, {"true": True, "false": False}, 0)
    odd = [*lines, "3\t3\ta\tx\t1.5\ttrue\t[1]"]
    _flat(
        lambda: (
            native.encode_rows(rows, Row, 0, slots, masks, True),
            native.encode_rows(bad, Row, 0, slots, masks, False),
            native.encode_rows(dicts, None, 2, keys, (31,) * 6, False),
            native.encode_rows(dicts, None, 2, keys[:5], (31,) * 5, False),
            native.decode_rows(lines, 7, modes, 1),
            native.decode_rows(lines, 7, modes, 2),
            native.decode_rows(odd, 7, modes, 1),
            native.decode_rows(lines, 6, modes[:6], 0),
            native.build_dicts(keys[:2], [[1, 2], ["a", "b"]]),
            native.build_records(Row, [[1], ["a"], ["n"], [0.5], [True], [None]]),
        ),
        [rows[0], rows[1], *slots, *dicts, *lines, choices, Row],
    )


def test_read_structs() -> None:
    native = _native()
    rows = [
        Row(1, "a", "first row", 0.5, True, None),
        Row(2, "b", 'quoted "name"\t\u00e9', 1e-9, False, "note"),
    ]
    text = eson.encode(Doc(rows=rows))
    start = text.index("\n", text.index("rows[")) + 1
    slots = tuple(vars(Row)[name] for name in Row.__struct_fields__)
    choices = {"a": "a", "b": "b"}
    kinds = (2, choices, 1, 4, {"true": True, "false": False}, 17)
    wide = text.replace("first", "\U0001f600")
    odd = text.replace("first row", "1")  # declined in the first row (an int for a str)
    late = text.replace("\tnote", "\t[1]")  # declined in the last row, after one row was built
    assert native.read_structs(text, start, 2, Row, slots, kinds, 0)[0] == rows
    assert native.read_structs(odd, start, 2, Row, slots, kinds, 0) is None
    assert native.read_structs(late, start, 2, Row, slots, kinds, 0) is None
    _flat(
        lambda: (
            native.read_structs(text, start, 2, Row, slots, kinds, 0),
            native.read_structs(wide, start, 2, Row, slots, kinds, 0),
            native.read_structs(odd, start, 2, Row, slots, kinds, 0),
            native.read_structs(late, start, 2, Row, slots, kinds, 0),
            native.read_structs(text, start, 3, Row, slots, kinds, 0),
            native.skip_lines(text, start, 2),
        ),
        [text, wide, odd, late, *slots, choices, Row],
    )


def test_pydantic_rows() -> None:
    native = _native()
    rows = [PRow(id=1, name="x y", score=2.5), PRow(id=2, name="\u00e9", score=-0.0)]
    _flat(
        lambda: native.encode_rows(rows, PRow, 1, ("id", "name", "score"), (2, 1, 4), False),
        [*rows, PRow],
    )


def test_public_paths() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    from handoff import make_handoff

    value = make_handoff(3)
    model = msgspec.convert(
        {"rows": [{"id": 1, "kind": "a", "name": "n", "score": 0.25, "ok": True, "note": None}]},
        Doc,
    )
    text = eson.encode(value)
    typed = eson.encode(model)
    decoder = eson.Decoder(Doc)
    _flat(
        lambda: (
            eson.encode(value),
            eson.decode(text),
            eson.encode(model),
            decoder.decode(typed),
            eson.try_decode(text.replace("high", '"\\x"'), type=Doc),
        ),
        [value, model, text, typed],
    )
