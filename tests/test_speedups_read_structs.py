"""The one-pass Struct reader: ``native.read_structs`` and the typed reader's fast path.

``DocumentReader._fast_plain`` reads a strict document's record sections
with ``native.read_structs`` (Structs built straight from the text) and
validates with ``Binding.prebuilt_lists``; anything either declines goes the
column path.  Accelerated and pure Python must agree on every document --
values (``1`` vs ``1.0``, ``-0.0`` told apart) and errors (class, message,
line, section, row, field) -- for generated Structs, mutated and hostile
text, ``str`` and ``bytes`` input.  The C function's own contract (what it
declines, the offset it returns, the collector's state) is tested directly.
"""

from __future__ import annotations

import gc
import os
import random
import re
from typing import Annotated, Any, Generic, Literal, TypeVar

import msgspec
import pytest
from accel_fuzzing import _normal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from speedups_support import both, pure, require_accelerator, same_value

import eson
import eson.msgspec
from eson._internal import accelerator
from eson._internal.codecs import eson_decode

pytestmark = pytest.mark.usefixtures("_accelerated")

EXAMPLES = int(os.environ.get("TYPED_ESON_FUZZ_EXAMPLES", "300"))
TYPED = settings(
    max_examples=max(EXAMPLES // 3, 1), deadline=None, suppress_health_check=list(HealthCheck)
)


@pytest.fixture
def _accelerated() -> None:
    require_accelerator()


# -- the models -------------------------------------------------------------------------


class Row(eson.msgspec.Record):
    id: int
    kind: Literal["high", "low", "c d", "1"]
    name: str
    score: float
    ok: bool
    note: str | None
    size: int | float
    extra: Any


class Doc(eson.msgspec.Message):
    title: str
    rows: list[Row]


class Numbered(eson.msgspec.Message, number=True):
    rows: list[Row]


class Frozen(eson.msgspec.Message, frozen=True):
    rows: list[Row]
    tail: int = 0


class Posted(eson.msgspec.Message):
    rows: list[Row]
    seen: int = 0

    def __post_init__(self) -> None:
        self.seen = len(self.rows)


class Short(eson.msgspec.Message):
    rows: Annotated[list[Row], msgspec.Meta(max_length=2)]


class Single(eson.msgspec.Message):
    first: Row
    rows: list[Row]


class NRow(eson.msgspec.Record):
    word: str
    n: int


class HasN(eson.msgspec.Message):
    items: list[NRow]


class Narrow(eson.msgspec.Record):
    word: str


class Words(eson.msgspec.Message):
    words: list[Narrow]
    note: str = ""


class Finalized(eson.msgspec.Record):
    word: str

    def __del__(self) -> None:
        pass


class FinalizedDoc(eson.msgspec.Message):
    rows: list[Finalized]


class PlainRow(msgspec.Struct):
    a: int
    b: str


class PlainDoc(msgspec.Struct):
    rows: list[PlainRow]
    tags: list[str] = []


T = TypeVar("T")


class Item(msgspec.Struct, Generic[T]):
    value: T


class Page(msgspec.Struct, Generic[T]):
    items: list[Item[T]]


DOCS = (Doc, Numbered, Frozen, Posted, Short, Single)


def _reader(cls: type) -> eson_decode.DocumentReader:
    return eson.Decoder(cls)._reader  # type: ignore[attr-defined,return-value]


# -- strategies ---------------------------------------------------------------------------

any_char = st.characters(min_codepoint=0, max_codepoint=0x10FFFF, blacklist_categories=())
tricky = st.sampled_from(
    list(' \t\n"[{}]\\-0123456789.e\u00a0\u2028\ufeff\x00\x7f')
    + ["\ud800", "\udc00", "\U0001f600", "\u00e9", "\u4e2d", "null", "true", "1", "-0", "c d"]
)
texts = st.one_of(
    st.text(any_char, max_size=8), st.lists(st.one_of(tricky, any_char), max_size=6).map("".join)
)
ints = st.one_of(st.integers(-1000, 1000), st.integers(-(2**70), 2**70))
floats = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.0, -0.0, 0.5, 1e16, 1e-7, 5e-324, 1e300]),
)
rows = st.builds(
    Row,
    id=ints,
    kind=st.sampled_from(["high", "low", "c d", "1"]),
    name=texts,
    score=floats,
    ok=st.booleans(),
    note=st.one_of(st.none(), texts),
    size=st.one_of(ints, floats),
    extra=st.one_of(st.none(), st.booleans(), ints, floats, texts, st.lists(ints, max_size=2)),
)


def _build(cls: type, items: list[Row]) -> Any:
    if cls is Doc:
        return Doc(title="t", rows=items)
    if cls is Single:
        return Single(first=items[0], rows=items[1:]) if items else None
    if cls is Short:
        return Short(rows=items)
    return cls(rows=items)


def _mutate(text: str, rng: random.Random) -> str:
    """One edit of the kind that should send the reader to its column path (or error)."""
    lines = text.split("\n")
    at = rng.randrange(1, len(lines)) if len(lines) > 1 else 0
    line = lines[at]
    pick = rng.randrange(9)
    if pick == 0:
        lines[at] = line.replace("\t", "", 1)
    elif pick == 1:
        lines[at] = line + "\tx"
    elif pick == 2:
        cells = line.split("\t")
        cells[rng.randrange(len(cells))] = rng.choice(
            ["true", "1", "1.5", "x", "", '"q\\u0041"', "null", "[1]", "1" * 30, '"\\x"', "c d"]
        )
        lines[at] = "\t".join(cells)
    elif pick == 3:
        del lines[at]
    elif pick == 4:
        lines.insert(at, line)
    elif pick == 5:
        return "\n".join(lines) + rng.choice(["\n", "\n\n", "extra=1\n", "\r\n"])
    elif pick == 6:
        return text[: rng.randrange(len(text) + 1)]
    elif pick == 7:
        lines[at] = line.replace("1", "01", 1)
    else:
        position = rng.randrange(len(text) + 1)
        return text[:position] + rng.choice(["\t", "\n", "\x00", "\ud800", '"']) + text[position:]
    return "\n".join(lines)


def _decode(cls: type, text: str | bytes) -> Any:
    return _normal(eson.decode(text, type=cls))


def _agree(cls: type, text: str | bytes) -> tuple[str, Any]:
    fast, slow = both(lambda: _decode(cls, text))
    assert fast[0] == slow[0], (text, fast, slow)
    if fast[0] == "error":
        assert fast[1] == slow[1], text
    else:
        assert same_value(fast[1], slow[1]), (text, fast, slow)
    return fast


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the rows ``native.read_structs`` builds (0 for a call it declines)."""
    native = accelerator.native
    assert native is not None
    real = native.read_structs
    counted: list[int] = []

    def counting(*args: Any) -> Any:
        done = real(*args)
        counted.append(-1 if done is None else len(done[0]))
        return done

    monkeypatch.setattr(native, "read_structs", counting)
    return counted


# -- the fast path against pure Python -----------------------------------------------------


@TYPED
@given(st.sampled_from(DOCS), st.lists(rows, max_size=6), st.integers(0, 2**32))
def test_generated_documents_agree(cls: type, items: list[Row], seed: int) -> None:
    value = _build(cls, items)
    if value is None:
        return
    try:
        text = eson.encode(value)
    except Exception:
        return  # a value ESON cannot write (a huge int in a float field ...)
    _agree(cls, text)
    _agree(cls, text.encode("utf-8", "surrogatepass"))
    rng = random.Random(seed)
    for _ in range(3):
        _agree(cls, _mutate(text, rng))


def test_fast_path_reads_the_rows(calls: list[int]) -> None:
    items = [Row(i, "high", f"n{i}", i / 4, i % 2 == 0, None, i, None) for i in range(1, 6)]
    for cls in DOCS:
        calls.clear()
        text = eson.encode(_build(cls, items[:2] if cls is Short else items))
        decoded = eson.decode(text, type=cls)
        assert decoded == eson.decode(text.encode(), type=cls)
        with pure():
            assert eson.decode(text, type=cls) == decoded
        assert calls and all(count > 0 for count in calls), (cls, calls)


def test_declined_rows_take_the_column_path(calls: list[int]) -> None:
    items = [
        Row(1, "high", "a", 0.5, True, None, 1, None),
        Row(2, "low", "b", 1.5, False, "x", 2.5, [1]),
    ]
    text = eson.encode(Doc(title="t", rows=items))
    # A nested JSON cell (extra=[1]) is left to the column path, which reads it.
    assert eson.decode(text, type=Doc) == Doc(title="t", rows=items)
    assert calls == [-1]


@pytest.mark.parametrize(
    ("text", "cls"),
    [
        (
            "!eson/1\ntitle=t\nrows[2]{id,kind,name,score,ok,note,size,extra}\n"
            "1\thigh\ta\t0.5\ttrue\tnull\t1\tnull\n",
            Doc,
        ),  # a row short
        (
            "!eson/1\ntitle=t\nrows[1]{id,kind,name,score,ok,note,size,extra}\n"
            "1\tmid\ta\t0.5\ttrue\tnull\t1\tnull\n",
            Doc,
        ),  # not a choice
        (
            "!eson/1\ntitle=t\nrows[1]{id,kind,name,score,ok,note,size,extra}\n"
            "1\thigh\ta\t1\ttrue\tnull\t1\tnull\n",
            Doc,
        ),  # an int in a float field
        (
            "!eson/1\ntitle=t\nrows[1]{id,kind,name,score,ok,note,size,extra}\n"
            "x\thigh\ta\t0.5\ttrue\tnull\t1\tnull\n",
            Doc,
        ),  # a str in an int field
        (
            "!eson/1\ntitle=t\nrows[1]{id,kind,name,score,ok,note,size,extra}\n"
            "1\thigh\t1\t0.5\ttrue\tnull\t1\tnull\n",
            Doc,
        ),  # an int in a str field
        (
            "!eson/1\nrows[2]{n,id,kind,name,score,ok,note,size,extra}\n"
            "1\t1\thigh\ta\t0.5\ttrue\tnull\t1\tnull\n"
            "3\t1\thigh\ta\t0.5\ttrue\tnull\t1\tnull\n",
            Numbered,
        ),  # n out of sequence
        (
            "!eson/1\nrows[1]{n,id,kind,name,score,ok,note,size,extra}\n"
            "1.0\t1\thigh\ta\t0.5\ttrue\tnull\t1\tnull\n",
            Numbered,
        ),  # n spelled oddly
        (
            "!eson/1\nrows[3]{id,kind,name,score,ok,note,size,extra}\n"
            + "1\thigh\ta\t0.5\ttrue\tnull\t1\tnull\n" * 3,
            Short,
        ),  # a list constraint
        (
            "!eson/1\nrows[1]{id,kind,name,score,ok,note,size,extra}\n"
            "1\thigh\ta\t0.5\ttrue\tnull\t1\tnull\nrows=1\n",
            Frozen,
        ),  # a duplicate
        (
            "!eson/1\nrows[1]{id,kind,name,score,ok,note,size,extra}\n"
            "1\thigh\ta\t0.5\ttrue\tnull\t1\tnull\ntail=x\n",
            Frozen,
        ),  # invalid after rows
        ("!eson/1\nwords[2]{word}\nw\nnote=x\n", Words),  # a swallowed entry
        ("!eson/1\nwords[1]{word}\nw\nnote=[\n", Words),  # a bad JSON cell after rows
        ("!eson/1\r\nwords[1]{word}\r\nw\r\n", Words),  # CRLF
        ("\ufeff!eson/1\nwords[1]{word}\nw\n", Words),  # a byte-order mark
        ("!eson/1\nwords[1]{word}\nw", Words),  # no final line feed
        ("!eson/1\nwords[0]{word}\n", Words),  # no rows
        ("!eson/1\nwords[0]{word}", Words),
        ("!eson/1\nwords[1]{word}\n", Words),  # the row missing
        ("!eson/1\nwords[1]{word}\n\n", Words),  # an empty row
        ("!eson/1\nwords{word}\nw\n", Words),  # a single record where an array is due
        ("!eson/1\nwords[1]\nw\n", Words),  # a scalar array
        ("!eson/1\nitems[2]{word,n}\na\t1\nb\t2\n", HasN),  # n is a field
        ("!eson/1\nitems[2]{n,word}\n1\ta\n2\tb\n", HasN),  # fields in another order
        ("!eson/1\nitems[2]{n,word}\n2\ta\n1\tb\n", HasN),
        ("!eson/1\nrows[1]{a,b}\n1\tx\ntags[2]\ny\nz\n", PlainDoc),
        ("!eson/1\nrows[1]{a,b}\n1\tx\ntags[3]\ny\nz\n", PlainDoc),
        ("!eson/1\nrows[1]{word}\nw\n", FinalizedDoc),
    ],
)
def test_edge_documents_agree(text: str, cls: type) -> None:
    _agree(cls, text)
    _agree(cls, text.encode("utf-8"))


def test_str_subclass_input_agrees(calls: list[int]) -> None:
    class Text(str):
        def find(self, *args: Any) -> int:  # type: ignore[override]
            raise AssertionError("a str subclass is read by the column path")

    text = eson.encode(Words(words=[Narrow("a"), Narrow("b")]))
    assert _agree(Words, Text(text))[0] == "value"
    assert calls == []


def test_frozen_document_gets_the_built_list() -> None:
    items = [Row(1, "high", "a", 0.5, True, None, 1, None)]
    decoded = eson.decode(eson.encode(Frozen(rows=items, tail=3)), type=Frozen)
    assert decoded == Frozen(rows=items, tail=3)
    with pytest.raises(AttributeError):
        decoded.tail = 4  # type: ignore[misc]


def test_post_init_sees_the_rows() -> None:
    items = [Row(i, "low", "a", 0.5, True, None, 1, None) for i in range(3)]
    assert eson.decode(eson.encode(Posted(rows=items)), type=Posted).seen == 3
    assert _reader(Posted).prebuilt is None


def test_plans() -> None:
    assert _reader(Doc).struct_entries.keys() == {"rows"}
    assert _reader(Doc).prebuilt is not None
    assert _reader(Short).prebuilt is None  # the list has a constraint
    assert _reader(Single).struct_entries.keys() == {"first", "rows"}
    assert _reader(FinalizedDoc).struct_entries == {}  # rows with a finalizer
    assert _reader(PlainDoc).struct_entries.keys() == {"rows"}


def test_generic_documents_take_the_column_path() -> None:
    text = "!eson/1\nitems[2]{value}\n1\n2\n"
    assert eson.decode(text, type=Page[int]) == Page(items=[Item(1), Item(2)])
    _agree(Page[int], text)
    _agree(Page[str], text)


# -- native.read_structs itself ------------------------------------------------------------


def _native() -> Any:
    native = accelerator.native
    assert native is not None
    return native


SLOTS = tuple(vars(Row)[name] for name in Row.__struct_fields__)
KINDS: tuple[Any, ...] = (
    2,
    {"high": "high", "low": "low", "c d": "c d", '"1"': "1"},
    1,
    4,
    {"true": True, "false": False},
    1 | 16,
    2 | 4,
    31,
)
ROW = '7\thigh\tname\t0.25\ttrue\tnull\t3\t"q"'


def test_read_structs_values_and_offset() -> None:
    native = _native()
    text = "head\n" + ROW + "\n" + ROW.replace("7", "8", 1) + "\nnext"
    rows, end = native.read_structs(text, 5, 2, Row, SLOTS, KINDS, 0)
    assert rows == [
        Row(7, "high", "name", 0.25, True, None, 3, "q"),
        Row(8, "high", "name", 0.25, True, None, 3, "q"),
    ]
    assert text[end:] == "next"
    rows, end = native.read_structs(text, 5, 1, Row, SLOTS, KINDS, 0)
    assert len(rows) == 1 and text[end:].startswith("8\t")
    assert native.read_structs(ROW, 0, 1, Row, SLOTS, KINDS, 0)[1] == len(ROW)
    assert native.read_structs(ROW + "\n", 0, 1, Row, SLOTS, KINDS, 0)[1] == len(ROW) + 1
    assert native.read_structs(ROW + "\n", 0, 2, Row, SLOTS, KINDS, 0) is None
    assert native.read_structs("abc", 3, 0, Row, SLOTS, KINDS, 0) == ([], 3)
    numbered = "1\t" + ROW + "\n2\t" + ROW
    assert len(native.read_structs(numbered, 0, 2, Row, SLOTS, KINDS, 2)[0]) == 2
    assert native.read_structs(numbered, 0, 2, Row, SLOTS, KINDS, 0) is None
    assert native.read_structs("2\t" + ROW, 0, 1, Row, SLOTS, KINDS, 2) is None


@pytest.mark.parametrize("wide", ["\u00e9", "\u4e2d", "\U0001f600", "\ud800"])
def test_read_structs_reads_every_kind_of_text(wide: str) -> None:
    native = _native()
    row = ROW.replace("name", f"n{wide}x").replace('"q"', f'"{wide}\\u0041"')
    (value,), end = native.read_structs(row, 0, 1, Row, SLOTS, KINDS, 0)
    assert value.name == f"n{wide}x" and value.extra == f"{wide}A" and end == len(row)
    with pure():
        text = "!eson/1\nrows[1]{id,kind,name,score,ok,note,size,extra}\n" + row + "\n"
        assert eson.decode(text, type=Frozen) == Frozen(rows=[value])


@pytest.mark.parametrize(
    "row",
    [
        ROW + "\tx",  # a cell too many
        ROW.rsplit("\t", 1)[0],  # a cell short
        ROW.replace("high", "mid"),  # not a choice
        ROW.replace("0.25", "1"),  # an int where only floats are taken
        ROW.replace("0.25", "1e999"),  # not finite: the column path raises
        ROW.replace("7", "1" * 19, 1),  # beyond 18 digits
        ROW.replace("null", "5"),  # an int where str | None is taken
        ROW.replace('"q"', "[1]"),  # nested JSON
        ROW.replace('"q"', '"\\x"'),  # a bad escape
        ROW.replace('"q"', '"q'),  # unterminated
    ],
)
def test_read_structs_declines(row: str) -> None:
    assert _native().read_structs(row, 0, 1, Row, SLOTS, KINDS, 0) is None


def test_read_structs_keeps_the_collector_state() -> None:
    native = _native()
    assert gc.isenabled()
    native.read_structs(ROW, 0, 1, Row, SLOTS, KINDS, 0)
    native.read_structs(ROW + "\tx", 0, 1, Row, SLOTS, KINDS, 0)
    assert gc.isenabled()
    gc.disable()
    try:
        native.read_structs(ROW, 0, 1, Row, SLOTS, KINDS, 0)
        assert not gc.isenabled()
    finally:
        gc.enable()
    (value,), _ = native.read_structs(ROW, 0, 1, Row, SLOTS, KINDS, 0)
    assert not gc.is_tracked(value)  # atomic values only, as msgspec leaves them


def test_read_structs_contract() -> None:
    native = _native()

    class Text(str):
        pass

    with pytest.raises(TypeError):
        native.read_structs(Text(ROW), 0, 1, Row, SLOTS, KINDS, 0)
    with pytest.raises(TypeError):
        native.read_structs(ROW, 0, 1, Row, SLOTS, KINDS[:-1], 0)
    with pytest.raises(TypeError):
        native.read_structs(ROW, 0, 1, Row, SLOTS, KINDS[:-1] + (1.5,), 0)
    with pytest.raises(TypeError):
        native.read_structs(ROW, 0, 1, Row, SLOTS, KINDS, 3)
    with pytest.raises(TypeError):  # slots of another class
        native.read_structs("w", 0, 1, Row, (vars(Narrow)["word"],), (1,), 0)
    with pytest.raises(TypeError):
        native.read_structs("w", 0, 1, Row, ("word",), (1,), 0)
    # Counts and offsets the text cannot back: declined without allocating.
    assert native.read_structs(ROW, 0, 10**18, Row, SLOTS, KINDS, 0) is None
    assert native.read_structs(ROW, len(ROW) + 1, 1, Row, SLOTS, KINDS, 0) is None
    assert native.read_structs(ROW, -1, 1, Row, SLOTS, KINDS, 0) is None

    # A choices dict whose keys are not exact str: those keys are never matched.
    class Key(str):
        def __eq__(self, other: object) -> bool:
            raise AssertionError("no Python code runs")

        __hash__ = str.__hash__

    odd = {Key("w"): "w", 1: "w"}
    assert native.read_structs("w", 0, 1, Narrow, (vars(Narrow)["word"],), (odd,), 0) is None
    assert native.read_structs("w", 0, 1, Narrow, (vars(Narrow)["word"],), ({"w": "v"},), 0)[0] == [
        Narrow("v")
    ]


def test_skip_lines() -> None:
    native = _native()
    assert native.skip_lines("a\nb\nc", 0, 2) == 3
    assert native.skip_lines("a\nb\nc", 0, 3) == 5
    assert native.skip_lines("a\nb\n", 0, 2) == 3
    assert native.skip_lines("a\nb\n", 0, 3) == -1
    assert native.skip_lines("a\n\u4e2d\nc", 2, 1) == 3
    assert native.skip_lines("", 0, 1) == -1
    assert native.skip_lines("ab", 5, 1) == -1
    with pytest.raises(TypeError):
        native.skip_lines("ab", 0, 0)


def _table_rows_end(text: str, start: int, count: int, pad: int) -> int:
    """What skip_lines(text, start, count, pad) gives, read the slow way: the template's rule."""
    row = re.compile(" " * pad + r"[^ \t\n#][^\n]*")
    position, end = start, -1
    for _ in range(count):
        if position >= len(text):
            return -1
        line_end = text.find("\n", position)
        end = len(text) if line_end < 0 else line_end
        if not row.fullmatch(text, position, end):
            return -1
        position = end + 1
    return end


def test_skip_lines_with_a_pad_reads_table_rows() -> None:
    native = _native()
    assert native.skip_lines("  a,b\n  c\n x\n", 0, 2, 2) == 9
    assert native.skip_lines("  a,b\n  c\n x\n", 0, 3, 2) == -1  # too little indentation
    assert native.skip_lines("   a\n", 0, 1, 2) == -1  # too much
    assert native.skip_lines("  #a\n", 0, 1, 2) == -1  # a comment-like line
    assert native.skip_lines("  \t\n", 0, 1, 2) == -1
    assert native.skip_lines("  \n", 0, 1, 2) == -1
    assert native.skip_lines("  ", 0, 1, 2) == -1
    assert native.skip_lines("  \u4e2d\n", 0, 1, 2) == 3
    assert native.skip_lines("x\n", 0, 1, 0) == 1


@given(
    st.text(alphabet=" \t\n#ab,\u00e9\u4e2d\U0001f600", max_size=40),
    st.integers(0, 5),
    st.integers(1, 6),
    st.integers(0, 3),
)
@settings(max_examples=400, deadline=None)
def test_skip_lines_with_a_pad_equals_the_slow_rule(
    text: str, start: int, count: int, pad: int
) -> None:
    native = _native()
    assert native.skip_lines(text, start, count, pad) == _table_rows_end(text, start, count, pad)


# A finalizer run by a collection would empty the choices dict read_structs
# reads through borrowed pointers and free its values.  The collection is set
# to come at the n-th allocation of a tracked object after the call begins,
# for each n in turn: the collector waits while the rows are built, so a call
# gives the rows of the intact dict (the finalizer runs afterwards), or
# declines when the collection came before it.
_FINALIZER_CLEARS_THE_CHOICES = """
import gc
import sys
import msgspec
from eson._internal import accelerator

native = accelerator.native

class R(msgspec.Struct):
    id: int
    kind: str

slots = (vars(R)["id"], vars(R)["kind"])
text = "\\n".join(f"{i}\\t{'ab'[i % 2]}" for i in range(300))
choices = {}

class Finalizer:
    def __del__(self):
        choices.clear()
        junk = [str(i) * 30 for i in range(400)]  # reuses the freed memory

read = 0
for extra in range(12):
    gc.disable()
    gc.collect()  # the last round's finalizers, if they have not run yet
    choices = {"a": "a" * 40, "b": "b" * 40}
    a, b = Finalizer(), Finalizer()
    a.other, b.other = b, a
    del a, b
    gc.set_threshold(gc.get_count()[0] + extra)
    gc.enable()
    got = native.read_structs(text, 0, 300, R, slots, (2, choices), 0)
    gc.disable()
    gc.set_threshold(700)
    if got is None:  # the collection came before the call (the arguments' tuple)
        assert not choices, extra
        continue
    rows, end = got
    if sys.version_info < (3, 12):
        # A collection runs where the allocation that passes the threshold is
        # made: the call disables the collector, so the finalizer has not run.
        assert choices, extra
    # From 3.12 a collection waits for the interpreter's next check between
    # bytecodes, the one just after the call returns, so the finalizer may have
    # run by now; either way the rows were built from the live strings.
    assert end == len(text)
    assert [row.kind for row in rows] == ["ab"[i % 2] * 40 for i in range(300)], extra
    read += 1
assert read, "every collection came before the call"
print("ok")
"""


def test_a_finalizer_cannot_run_while_the_rows_are_built() -> None:
    from accel_fuzzing import run_script

    done = run_script(_FINALIZER_CLEARS_THE_CHOICES)
    assert done.returncode == 0, f"({done.returncode}):\n{done.stderr[-2000:]}"
    assert done.stdout == "ok\n"


# -- dict rows: the untyped whole-text read -----------------------------------------------

KEYS = ("id", "kind", "name", "score", "ok", "note", "size", "extra")


def test_read_structs_builds_dicts() -> None:
    native = _native()
    text = ROW + "\n" + ROW.replace("7", "8", 1)
    rows, end = native.read_structs(text, 0, 2, dict, KEYS, (31,) * 8, 0)
    assert rows == [
        dict(zip(KEYS, (7, "high", "name", 0.25, True, None, 3, "q"))),
        dict(zip(KEYS, (8, "high", "name", 0.25, True, None, 3, "q"))),
    ]
    assert end == len(text)
    assert native.read_structs(ROW.replace('"q"', "[1]"), 0, 1, dict, KEYS, (31,) * 8, 0) is None
    numbered = "1\t" + ROW + "\n2\t" + ROW
    rows, _ = native.read_structs(numbered, 0, 2, dict, ("n", *KEYS), (31,) * 9, 1)
    assert [row["n"] for row in rows] == [1, 2]
    assert not gc.is_tracked(rows[0])  # a dict of atomic values, as CPython leaves it
    with pytest.raises(TypeError):  # keys are exact str: no Python code runs to hash them
        native.read_structs(ROW, 0, 1, dict, (*KEYS[:-1], 1), (31,) * 8, 0)


UNTYPED_CELLS = st.one_of(
    st.sampled_from(["1", "-0", "0.5", "1e999", "true", "null", '"q"', '"\\x"', "[1,2]", "{}", "", "a b", "x"]),
    st.text(alphabet="ab1.-e\"\\ \u00e9", max_size=5),
)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.lists(st.lists(UNTYPED_CELLS, min_size=3, max_size=3), max_size=5),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["", "x=1\n", "rows[0]{a}\n"]),
)
def test_untyped_documents_agree(rows: list[list[str]], numbered: bool, last_newline: bool, tail: str) -> None:
    # The accelerated untyped read (read_fast, dict rows) equals the reference
    # reader (read_text) and pure Python: values, and errors word for word.
    fields = ("n", "b", "c") if numbered else ("a", "b", "c")
    lines = ["\t".join([str(i + 1), *cells[1:]] if numbered else cells) for i, cells in enumerate(rows)]
    text = f"!eson/1\nrows[{len(lines)}]{{{','.join(fields)}}}\n" + "".join(line + "\n" for line in lines) + tail
    if not last_newline:
        text = text.rstrip("\n")
    fast, slow = both(lambda: eson.decode(text))
    assert fast[0] == slow[0], (text, fast, slow)
    if fast[0] == "ok":
        assert same_value(fast[1], slow[1]), text
    else:
        assert str(fast[1]) == str(slow[1])


# -- TOON tables read by read_structs --------------------------------------------------------


class Measure(msgspec.Struct):
    id: int
    score: float
    level: Literal["a", "b"]
    ok: bool
    maybe: float | None
    either: int | float


class Measures(msgspec.Struct):
    name: str
    rows: list[Measure]


_MEASURES = Measures(
    "m",
    [
        Measure(1, 0.0, "a", True, 2.0, 3),
        Measure(2, -0.0, "b", False, None, 3.0),
        Measure(3, 1e16, "a", True, 0.5, -1),
        Measure(4, 2.5, "b", False, 7.0, 0.0),
    ],
)


@pytest.mark.parametrize("format", ["eson", "toon"])
def test_an_int_cell_of_a_float_field_reads_as_a_float(format: str) -> None:
    """TOON writes 0.0 as "0": the row gets 0.0, as msgspec.convert gives, in every mode."""
    module = eson.toon if format == "toon" else eson
    text = module.encode(_MEASURES)
    if format == "toon":
        assert ",0,a," in text  # the float 0.0 is written as the token 0
    else:
        text = text.replace("\t0.0\t", "\t0\t")  # a model may write it so
    # what validating the untyped reading gives (TOON reads -0 as 0)
    expected = msgspec.to_builtins(msgspec.convert(module.decode(text), Measures))
    fast, slow = both(lambda: msgspec.to_builtins(module.decode(text, type=Measures)))
    assert fast[0] == slow[0] == "value", (fast, slow)
    assert same_value(fast[1], expected), fast[1]
    assert same_value(slow[1], expected), slow[1]


def test_read_structs_reads_toon_rows(_accelerated: None) -> None:
    native = _native()
    slots = tuple(vars(Measure)[name] for name in Measure.__struct_fields__)
    mask = accelerator.row_mask
    kinds = (
        mask(int),
        mask(float),
        {"a": "a", "b": "b"},
        {"true": True, "false": False},
        mask(float | None),
        mask(int | float),
    )
    assert kinds[1] & native.INT_AS_FLOAT and not kinds[5] & native.INT_AS_FLOAT
    body = "  1,0,a,true,null,3\n  2, 2.5 ,b,false,1,3.0\n"
    rows, end = native.read_structs(body, 0, 2, Measure, slots, kinds, 0, ",", 2)
    assert end == len(body)
    assert [msgspec.to_builtins(row) for row in rows] == [
        {"id": 1, "score": 0.0, "level": "a", "ok": True, "maybe": None, "either": 3},
        {"id": 2, "score": 2.5, "level": "b", "ok": False, "maybe": 1.0, "either": 3.0},
    ]
    assert type(rows[0].score) is float and type(rows[0].either) is int
    read = lambda text, count=1, delimiter=",": native.read_structs(  # noqa: E731
        text, 0, count, Measure, slots, kinds, 0, delimiter, 2
    )
    assert read("  1|0|a|true|null|3\n", delimiter="|")[0][0].id == 1
    for declined in (
        "  1,0,a,true,null,3",  # no line feed after the row
        " 1,0,a,true,null,3\n",  # too little indentation
        "   1,0,a,true,null,3\n",  # too much
        "  #1,0,a,true,null,3\n",
        '  1,0,a,true,null,"3"\n',  # a quoted cell: the Python reader decides
        "  k: 1,0,a,true,null,3\n",  # a key in the first cell ends a table
        "  1,0,a,true,null\n",  # too few cells
        "  1,0,a,true,null,3,4\n",  # too many
        "  1,0,c,true,null,3\n",  # not a choice
        "  1,x,a,true,null,3\n",  # not a float
        "  1.5,0,a,true,null,3\n",  # not an int
    ):
        assert read(declined) is None, declined
    assert read("  1,0,a,true,null,3\n", count=2) is None  # fewer rows than declared
    with pytest.raises(TypeError):
        native.read_structs(body, 0, 2, Measure, slots, kinds, 1, ",", 2)  # no n column in TOON
    with pytest.raises(TypeError):
        native.read_structs(body, 0, 2, Measure, slots, kinds, 0, ",,", 2)
