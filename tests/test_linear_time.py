"""Every decoder stays linear in its input: hostile shapes, compared at two sizes.

Nothing is timed.  Each shape is built at size ``n`` and ``4 n`` and decoded
(or rejected) by each of the six decoders -- ESON and TOON, untyped and typed
on Pydantic and on msgspec -- while a counter adds up the work the
interpreter does: every Python line executed and every call (Python and
built-in), through ``sys.settrace`` and ``sys.setprofile`` (both on Python
3.10+); ``tracemalloc`` records the peak memory of the same run.  The counts
are deterministic, so the test cannot flake under load.  Linear work grows
about 4x; the larger input may take at most LIMIT (6) times the work and the
peak memory MEMORY_LIMIT (10) times (tables grow in steps) -- quadratic work
grows 16x.  For a shape whose text grows more than 4x (deep indentation),
both limits are scaled by its character ratio over 4.
``test_the_counter_catches_quadratic_work`` proves the check fails for
deliberately quadratic helpers.

What a count cannot see: work inside one call of C code (a regular
expression that backtracks, the accelerator's row loops, ``str.count`` over
a long text) counts as one call whatever its cost.  Quadratic behaviour in
those is left to the C code's own reviews and to the regexes' shapes.

The shapes are the ones that made a decoder quadratic once (typed TOON list
items whose template backtracked over a long line; the ESON duplicate-field
check) and the others a hostile sender can build: long lines, many entries,
long field lists, deep or long JSON cells, long indentation runs, many list
items, long quoted strings full of escapes, unterminated quotes, counts that
disagree with their rows ...
"""

# No "from __future__ import annotations": msgspec resolves annotations at module scope.

import contextlib
import gc
import sys
import tracemalloc
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

import msgspec
import pydantic
import pytest

import eson
import eson.toon

FACTOR = 4
LIMIT = 6  # linear work gives at most ~FACTOR (fixed costs make it less), quadratic ~FACTOR**2
# Memory grows in steps (a dict doubles its table), so 4x the entries can take up
# to 8x the bytes when n sits just below a step and 4n just above one.
MEMORY_LIMIT = 10


# -- the models the typed decoders read into ------------------------------------------
# A typed reader takes its fast path (a template of the canonical layout) only
# when the text holds exactly the model's fields, so each shape names the
# fields it holds and gets models of just those.


class PItem(pydantic.BaseModel):
    a: str
    b: int = 0


class PRow(pydantic.BaseModel):
    id: int
    name: str
    score: float


class PInner(pydantic.BaseModel):
    x: str = ""
    y: int = 0


class MItem(msgspec.Struct):
    a: str
    b: int = 0


class MRow(msgspec.Struct):
    id: int
    name: str
    score: float


class MInner(msgspec.Struct):
    x: str = ""
    y: int = 0


#: Every field a shape may hold: (Pydantic type, msgspec type, default).
FIELDS: dict[str, tuple[Any, Any, Any]] = {
    "name": (str, str, ""),
    "items": (list[PItem], list[MItem], []),
    "rows": (list[PRow], list[MRow], []),
    "tags": (list[str], list[str], []),
    "inner": (PInner | None, MInner | None, None),
    "data": (Any, Any, None),
    "retry": (int | None, int | None, None),
}


def _attempt(decode: Callable[[str], Any]) -> Callable[[str], None]:
    def run(text: str) -> None:
        with contextlib.suppress(eson.ESONError):  # rejecting the text is fine,
            decode(text)  # rejecting it slowly is not

    return run


def _decoders(module: Any, fields: tuple[str, ...]) -> dict[str, Callable[[str], None]]:
    """The untyped and the two typed decoders of ``module`` for documents of ``fields``."""
    pydantic_model = pydantic.create_model(  # type: ignore[call-overload]
        "Doc", **{name: (FIELDS[name][0], FIELDS[name][2]) for name in fields}
    )
    msgspec_model = msgspec.defstruct(
        "Doc", [(name, FIELDS[name][1], FIELDS[name][2]) for name in fields]
    )
    prefix = module.__name__.rsplit(".", 1)[-1]
    return {
        prefix: _attempt(module.decode),
        f"{prefix}-pydantic": _attempt(module.Decoder(pydantic_model).decode),
        f"{prefix}-msgspec": _attempt(module.Decoder(msgspec_model).decode),
    }


# -- the shapes: each builds a document of about n units, and names its fields --------

H = "!eson/1\n"
Shape = tuple[Callable[[int], str], tuple[str, ...]]


def _fields(n: int) -> str:
    return ",".join(f"f{i}" for i in range(n))


ESON_SHAPES: dict[str, Shape] = {
    "duplicate field at the end of a long header": (
        lambda n: H + "rows[1]{" + _fields(n) + f",f{n - 1}}}\n" + "1\t" * n + "1\n",
        ("rows",),
    ),
    "long field list": (
        lambda n: H + "rows[1]{" + _fields(n) + "}\n" + "\t".join(["1"] * n) + "\n",
        ("rows",),
    ),
    "long bare scalar": (lambda n: H + "name=" + "ab cd " * n + "x\n", ("name",)),
    "long quoted scalar full of escapes": (
        lambda n: H + 'name="' + '\\n\\t\\u00e9\\"' * n + '"\n',
        ("name",),
    ),
    "unterminated quoted scalar": (lambda n: H + 'name="' + "\\\\" * n + "\n", ("name",)),
    "many scalar entries": (lambda n: H + "".join(f"k{i}=v{i}\n" for i in range(n)), ()),
    "many rows": (
        lambda n: (
            H
            + f"rows[{n}]{{id,name,score}}\n"
            + "".join(f"{i}\tname {i}\t{i}.5\n" for i in range(n))
        ),
        ("rows",),
    ),
    "many one-column rows, a swallowed entry": (
        lambda n: H + f"tags[{n + 1}]\n" + "t\n" * n + "retry=3\n",
        ("tags", "retry"),
    ),
    "many rows, count too high, entries after": (
        lambda n: H + f"rows[{2 * n}]{{id,name,score}}\n" + "1\tx\t1.5\n" * n + "k=1\n" * n,
        ("rows",),
    ),
    "many rows, count too low": (
        lambda n: H + "rows[1]{id,name,score}\n" + "1\tx\t1.5\n" * n,
        ("rows",),
    ),
    "long row of tabs": (lambda n: H + "rows[1]{id,name,score}\n" + "\t" * n + "\n", ("rows",)),
    "deep JSON cell": (
        lambda n: H + "data=" + "[" * n + "]" * n + "\n",
        ("data",),
    ),
    "many deep JSON cells": (
        lambda n: H + f"tags[{n // 50}]\n" + ("[" * 50 + "]" * 50 + "\n") * (n // 50),
        ("tags",),
    ),
    "too deep JSON cell": (lambda n: H + "data=" + "[" * n + "\n", ("data",)),
    "long JSON cell": (
        lambda n: H + "data=[" + ",".join(['{"a":"x\\ny"}'] * n) + "]\n",
        ("data",),
    ),
    "JSON cell of quotes": (lambda n: H + "data=" + '"' * n + "\n", ("data",)),
    "numbered rows out of order": (
        lambda n: H + f"items[{n}]{{n,a}}\n" + "".join(f"{n - i}\tx\n" for i in range(n)),
        ("items",),
    ),
    "long header line": (lambda n: H + "x" * n + "[1]\n1\n", ()),
    "long count": (lambda n: H + "rows[" + "9" * n + "]{a}\n1\n", ("rows",)),
    "many lines after a bad header": (lambda n: "!eson/2\n" + "a=1\n" * n, ()),
}

TOON_SHAPES: dict[str, Shape] = {
    "list item holding fake list items": (
        lambda n: "items[1]:\n  - a: " + "x  - a: " * n + "x",
        ("items",),
    ),
    "many list items": (lambda n: f"items[{n}]:\n" + "  - a: x\n    b: 1\n" * n, ("items",)),
    "many list items, count wrong": (
        lambda n: f"items[{n + 1}]:\n" + "  - a: x\n    b: 1\n" * n,
        ("items",),
    ),
    "many list items, one field missing": (
        lambda n: f"items[{n}]:\n" + "  - a: x\n" * n,
        ("items",),
    ),
    "many tabular rows": (
        lambda n: (
            f"rows[{n}]{{id,name,score}}:\n" + "".join(f"  {i},name {i},{i}.5\n" for i in range(n))
        ),
        ("rows",),
    ),
    "tabular rows, count wrong": (
        lambda n: f"rows[{n + 1}]{{id,name,score}}:\n" + "  1,x,1.5\n" * n,
        ("rows",),
    ),
    "long field list": (
        lambda n: "rows[1]{" + _fields(n) + "}:\n  " + ",".join(["1"] * n),
        ("rows",),
    ),
    "many rows under nested field groups": (
        lambda n: f"rows[{n}]{{id,name{{first,last{{x,y}}}},score}}:\n" + "  1,a,b,c,1.5\n" * n,
        ("rows",),
    ),
    "many rows under too deep field groups": (
        lambda n: f"rows[{n}]{{" + "a{" * 100 + "b" + "}" * 100 + "}:\n" + "  1\n" * n,
        ("rows",),
    ),
    "long indentation run": (lambda n: "inner:\n" + " " * (2 * n) + "x: 1", ("inner",)),
    "long odd indentation": (lambda n: "inner:\n" + " " * (2 * n + 1) + "x: 1", ("inner",)),
    "deep objects": (
        lambda n: "".join("  " * i + f"k{i}:\n" for i in range(n)) + "  " * n + "v: 1",
        (),
    ),
    "many keys": (lambda n: "".join(f"k{i}: v{i}\n" for i in range(n)), ()),
    "long quoted string full of escapes": (
        lambda n: 'name: "' + '\\n\\t\\"\\\\' * n + '"',
        ("name",),
    ),
    "unterminated quoted string": (lambda n: 'name: "' + "\\\\" * n, ("name",)),
    "many quoted cells": (lambda n: f"tags[{n}]: " + ",".join(['"a,b"'] * n), ("tags",)),
    "quotes and a colon at the end of a row": (
        lambda n: "rows[1]{id,name,score}:\n  " + '"x",' * n + "1:",
        ("rows",),
    ),
    "unbalanced quotes in a row": (
        lambda n: "rows[1]{id,name,score}:\n  " + '"' * n,
        ("rows",),
    ),
    "keyed table": (
        lambda n: f"data[{n}:]{{x,y}}:\n" + "".join(f"  k{i}: a,{i}\n" for i in range(n)),
        ("data",),
    ),
    "inline array": (lambda n: f"tags[{n}]: " + ",".join(["t"] * n), ("tags",)),
    "many blank lines in an array": (
        lambda n: "items[2]:\n  - a: x\n" + "\n" * n + "  - a: y\n",
        ("items",),
    ),
    "many comments": (lambda n: "# c\n" * n + "name: x", ("name",)),
    "long key": (lambda n: "k" * n + ": 1", ()),
    "long header key": (lambda n: "k" * n + "[1]: 1", ()),
    "long bracket segment": (lambda n: "tags[" + "1" * n + "]: 1", ("tags",)),
    "line of tabs": (lambda n: "name: " + "\t" * n, ("name",)),
    "list item with many extra lines": (
        lambda n: "items[1]:\n  - a: x\n    b: 1\n" + "    c: d\n" * n,
        ("items",),
    ),
    "duplicate keys": (lambda n: "name: x\n" * n, ("name",)),
}

#: Units of the shapes whose size is fixed by a nesting limit (500 levels of JSON
#: in a cell, 256 of TOON): their large input stays within it.  Others start at
#: DEFAULT_SIZE.
SIZES = {"deep JSON cell": 60, "deep objects": 30}
#: Shapes whose unit is larger than one line start larger (many deep JSON cells:
#: one cell per 50 units).
LARGER = {"many deep JSON cells": 5000}
DEFAULT_SIZE = 1000


@pytest.fixture(autouse=True, scope="module")
def _frozen_heap() -> Iterator[None]:
    """Move what the worker holds before these tests out of the collector's sight.

    ``_work`` collects before each count; under pytest-xdist a worker may come
    here holding hundreds of MB from earlier tests, and walking that heap on
    every collection would make this module take minutes.  Frozen objects are
    skipped.
    """
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


class _Counter:
    """Counts trace events (Python calls, lines, returns) and built-in calls."""

    def __init__(self) -> None:
        self.events = 0

    def trace(self, frame: FrameType, event: str, arg: Any) -> Any:
        self.events += 1
        return self.trace

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "c_call":
            self.events += 1


def _work(run: Callable[[str], None], text: str) -> tuple[int, int]:
    """The interpreter events of ``run(text)`` and its peak traced memory in bytes."""
    counter = _Counter()
    old_trace, old_profile = sys.gettrace(), sys.getprofile()
    gc.collect()
    gc.disable()  # no collector (and no finalizers) inside the count
    tracemalloc.start()
    try:
        sys.setprofile(counter.profile)
        sys.settrace(counter.trace)
        try:
            run(text)
        finally:
            sys.settrace(old_trace)
            sys.setprofile(old_profile)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        gc.enable()
    return counter.events, peak


def _assert_linear(run: Callable[[str], None], build: Callable[[int], str], n: int) -> None:
    small, large = build(n), build(n * FACTOR)
    run(small)  # warm up: compile the typed reader, fill caches
    small_work, small_peak = _work(run, small)
    large_work, large_peak = _work(run, large)
    # Linear means linear in characters.  A shape whose text grows faster than its
    # unit (deep objects: each level is indented further, so 4x the levels is
    # ~16x the characters) gets a limit scaled by that growth.
    growth = max(1.0, len(large) / len(small) / FACTOR)
    limit, memory_limit = LIMIT * growth, MEMORY_LIMIT * growth
    work_ratio = large_work / max(small_work, 1)
    peak_ratio = large_peak / max(small_peak, 1)
    if work_ratio > limit or peak_ratio > memory_limit:
        pytest.fail(
            f"{len(large) / len(small):.1f}x the characters took {work_ratio:.1f}x the work "
            f"({small_work} -> {large_work} events) and {peak_ratio:.1f}x the peak memory "
            f"({small_peak} -> {large_peak} bytes), limits {limit:.0f}x and {memory_limit:.0f}x: "
            "not linear "
            f"({len(small)} and {len(large)} characters)"
        )


def _cases(shapes: dict[str, Shape], module: Any) -> list[Any]:
    cases = []
    for shape, (build, fields) in shapes.items():
        for decoder, run in _decoders(module, fields).items():
            size = SIZES.get(shape, LARGER.get(shape, DEFAULT_SIZE))
            cases.append(pytest.param(run, build, size, id=f"{shape}-{decoder}"))
    return cases


Run = Callable[[str], None]
Build = Callable[[int], str]


@pytest.mark.parametrize(("run", "build", "n"), _cases(ESON_SHAPES, eson))
def test_eson_decoders_are_linear(run: Run, build: Build, n: int) -> None:
    _assert_linear(run, build, n)


@pytest.mark.parametrize(("run", "build", "n"), _cases(TOON_SHAPES, eson.toon))
def test_toon_decoders_are_linear(run: Run, build: Build, n: int) -> None:
    _assert_linear(run, build, n)


def test_caches_keyed_by_headers_stay_bounded() -> None:
    """A stream of documents with ever new table headers cannot grow a reader without bound."""
    from eson._internal.codecs import toon_decode
    from eson._internal.codecs.toon_typed import reader_for

    model = pydantic.create_model("Doc", rows=(list[PRow], []))
    decoder = eson.toon.Decoder(model)
    for index in range(toon_decode._MAX_CACHED + 100):
        fields = f"id,name,score,x{index}"
        with contextlib.suppress(eson.ESONError):
            decoder.decode(f"rows[1]{{{fields}}}:\n  1,a,1.5,{index}")
    reader = reader_for(model)
    records = reader._template.fields[0]  # type: ignore[union-attr]
    assert isinstance(records, toon_decode._Records)
    assert 0 < len(records.compiler.layouts) <= toon_decode._MAX_CACHED
    assert 0 < len(records.decoders) <= toon_decode._MAX_CACHED + 4


# -- issue 9: the readers of model output -------------------------------------------------
# Lenient ESON decoding, parse_reply (finding the payload among prose and fences)
# and StreamDecoder (fed in small chunks), each untyped and typed on both
# frameworks, on the shapes a model's reply (or a hostile one) can take.

FENCE = "`" * 3


def _stream_run(model: Any, text: str, size: int = 16) -> Any:
    decoder = eson.StreamDecoder(model)
    for start in range(0, len(text), size):
        decoder.feed(text[start : start + size])
    return decoder.close()


def _reader_decoders(reader: str, fields: tuple[str, ...]) -> dict[str, Callable[[str], None]]:
    """The untyped and two typed runs of one reader for documents of ``fields``."""
    models: dict[str, Any] = {
        "plain": None,
        "pydantic": pydantic.create_model(  # type: ignore[call-overload]
            "Doc", **{name: (FIELDS[name][0], FIELDS[name][2]) for name in fields}
        ),
        "msgspec": msgspec.defstruct(
            "Doc", [(name, FIELDS[name][1], FIELDS[name][2]) for name in fields]
        ),
    }
    runs: dict[str, Callable[[str], None]] = {}
    for label, model in models.items():
        if reader == "lenient":
            decoder: Any = (
                eson.Decoder(model, strict=False) if model else eson.Decoder(strict=False)
            )
            runs[f"lenient-{label}"] = _attempt(decoder.decode)
        elif reader == "reply":
            runs[f"parse_reply-{label}"] = _attempt(
                lambda text, model=model: eson.parse_reply(text, model)
            )
        else:
            runs[f"stream-{label}"] = _attempt(lambda text, model=model: _stream_run(model, text))
    return runs


READER_SHAPES: dict[str, tuple[str, Callable[[int], str], tuple[str, ...]]] = {
    "many blank lines between entries": (
        "lenient",
        lambda n: H + "name=x\n" + "\n" * n + "tags[1]\nt\n",
        ("name", "tags"),
    ),
    "many trailing spaces": ("lenient", lambda n: H + "name=x" + " " * n + "\n", ("name",)),
    "many rows with spaces around cells": (
        "lenient",
        lambda n: H + f"rows[{n}]{{id, name, score}}\n" + "1 \t x \t 1.5  \n" * n,
        ("rows",),
    ),
    "long spaced field list": (
        "lenient",
        lambda n: (
            H
            + "rows[1]{"
            + ", ".join(f"f{i}" for i in range(n))
            + "}\n"
            + "\t".join(["1"] * n)
            + "\n"
        ),
        ("rows",),
    ),
    "spaces around = in many scalars": (
        "lenient",
        lambda n: H + "".join(f"k{i} = v{i} \n" for i in range(n)),
        (),
    ),
    "long prose before a fence": (
        "reply",
        lambda n: "Sure, " + "here is the review " * n + f"\n\n{FENCE}eson\n{H}name=x\n{FENCE}\n",
        ("name",),
    ),
    "many prose lines before the document": (
        "reply",
        lambda n: "".join(f"Line {i} of my thoughts.\n" for i in range(n)) + f"\n{H}name=x\n",
        ("name",),
    ),
    "many fences": (
        "reply",
        lambda n: f"{FENCE}python\nx = 1\n{FENCE}\n" * n + f"{FENCE}eson\n{H}name=x\n{FENCE}\n",
        ("name",),
    ),
    "an unterminated fence": (
        "reply",
        lambda n: f"Here:\n{FENCE}eson\n{H}rows[{n}]{{id,name,score}}\n" + "1\tx\t1.5\n" * n,
        ("rows",),
    ),
    "many fence openings": ("reply", lambda n: f"{FENCE}eson\n" * n + f"{H}name=x\n", ("name",)),
    "many rows in small chunks": (
        "stream",
        lambda n: (
            H
            + f"rows[{n}]{{id,name,score}}\n"
            + "".join(f"{i}\tname {i}\t{i}.5\n" for i in range(n))
        ),
        ("rows",),
    ),
    "a long line in small chunks": (
        "stream",
        lambda n: H + "name=" + "ab cd " * n + "x\n",
        ("name",),
    ),
    "many blank lines in small chunks": (
        "stream",
        lambda n: H + "name=x\n" + "\n" * n + "tags[1]\nt\n",
        ("name", "tags"),
    ),
    "long prose before a streamed document": (
        "stream",
        lambda n: "".join(f"Line {i} of my thoughts.\n" for i in range(n)) + f"\n{H}name=x\n",
        ("name",),
    ),
}


def _reader_cases() -> list[Any]:
    cases = []
    for shape, (reader, build, fields) in READER_SHAPES.items():
        for decoder, run in _reader_decoders(reader, fields).items():
            cases.append(pytest.param(run, build, DEFAULT_SIZE, id=f"{shape}-{decoder}"))
    return cases


@pytest.mark.parametrize(("run", "build", "n"), _reader_cases())
def test_the_readers_of_model_output_are_linear(run: Run, build: Build, n: int) -> None:
    _assert_linear(run, build, n)


# -- the counter itself: it fails quadratic work and passes linear work ----------------


def _quadratic_loops(text: str) -> None:
    """Compares every line with every earlier one: quadratic Python lines, no calls."""
    lines = text.split("\n")
    repeats = 0
    for i, line in enumerate(lines):
        for earlier in lines[:i]:
            if earlier == line:
                repeats += 1


def _quadratic_calls(text: str) -> None:
    """A call per pair of lines."""
    lines = text.split("\n")
    for i in range(len(lines)):
        for j in range(i):
            max(i, j)


def _quadratic_memory(text: str) -> None:
    """Keeps every prefix of the text: linear events, quadratic memory."""
    prefixes = [text[:i] for i in range(0, len(text), 64)]
    del prefixes


def _linear_loops(text: str) -> None:
    """The same per-line work as ``_quadratic_loops`` without the inner loop."""
    seen = set()
    for line in text.split("\n"):
        if line in seen:
            continue
        seen.add(line)


def _lines(n: int) -> str:
    return "".join(f"line {i}\n" for i in range(n))


@pytest.mark.parametrize("quadratic", [_quadratic_loops, _quadratic_calls, _quadratic_memory])
def test_the_counter_catches_quadratic_work(quadratic: Run) -> None:
    with pytest.raises(pytest.fail.Exception, match="not linear"):
        _assert_linear(quadratic, _lines, 300)


def test_the_counter_passes_linear_work() -> None:
    _assert_linear(_linear_loops, _lines, 300)


def test_the_counts_are_deterministic() -> None:
    """The same decode counted twice gives the same events (what makes the test unflaky)."""
    build, fields = ESON_SHAPES["many rows"]
    for run in _decoders(eson, fields).values():
        text = build(500)
        run(text)
        assert _work(run, text)[0] == _work(run, text)[0]
