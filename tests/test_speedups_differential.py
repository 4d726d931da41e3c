"""Differential tests: the C accelerator against the pure-Python reference.

For generated cells, documents and model instances -- and for hostile and
mutated text -- the accelerated package and the pure-Python package (the
same code with the accelerator switched off, see ``speedups_support.pure``)
must give byte-identical text, equal values (``1`` vs ``1.0`` and ``-0.0``
told apart) and identical errors (class, message, line, section, row,
field).  ``TYPED_ESON_FUZZ_EXAMPLES`` raises the example counts (the
sanitizer job in CI runs a bounded campaign with it).
"""

from __future__ import annotations

import enum
import os
import random
import struct
from collections.abc import Iterator
from functools import partial
from typing import Any, Literal

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from speedups_support import assert_same, pure, require_accelerator, same_value

import eson
import eson.msgspec
import eson.toon
from eson._internal import accelerator
from eson._internal.wire import eson_cells, eson_json, eson_numbers

pytestmark = pytest.mark.usefixtures("_accelerated")

EXAMPLES = int(os.environ.get("TYPED_ESON_FUZZ_EXAMPLES", "300"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
# Model tests cost more per example (two frameworks, validation, errors).
TYPED = settings(SETTINGS, max_examples=max(EXAMPLES // 3, 1))


@pytest.fixture
def _accelerated() -> None:
    require_accelerator()


# -- strategies ------------------------------------------------------------------

# Every code point, lone surrogates included (hypothesis leaves them out by default).
any_char = st.characters(min_codepoint=0, max_codepoint=0x10FFFF, blacklist_categories=())
tricky = st.sampled_from(
    list(' \t\r\n"[{}]\\/-+0123456789.eEbfnrtu\u00a0\u1680\u2028\u2029\ufeff\x85\x0b\x0c\x00\x7f')
    + ["\ud800", "\udbff", "\udc00", "\U0001f600", "\u00e9", "\u4e2d"]
    + ["null", "true", "false", "1e3", "-0", "0.5", "01", "1.", "\\u", "\\ud83d\\ude00"]
)
texts = st.one_of(
    st.text(any_char, max_size=12),
    st.lists(st.one_of(tricky, any_char), max_size=10).map("".join),
)


def _bits_float(bits: int) -> float:
    return float(struct.unpack("<d", bits.to_bytes(8, "little"))[0])


floats = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(0, 2**64 - 1).map(_bits_float).filter(lambda v: v - v == 0),
    st.builds(round, st.floats(-1e6, 1e6), st.integers(0, 9)),
    st.builds(lambda m, e: m * 10.0**e, st.integers(-(10**6), 10**6), st.integers(-30, 30)),
    st.sampled_from([0.0, -0.0, 1e-7, 1e-6, 1e21, 1e16, 2.0**52, 2.0**53, 5e-324, 0.1 + 0.2]),
)
ints = st.one_of(st.integers(), st.integers(-(2**63), 2**63), st.integers(-1000, 1000))
scalars = st.one_of(st.none(), st.booleans(), ints, floats, texts)
nested = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**53) + 1, 2**53 - 1), floats, texts),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(texts, inner, max_size=3)),
    max_leaves=8,
)
cells = st.one_of(scalars, scalars, st.lists(nested, max_size=3))
names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_.\-]{0,6}", fullmatch=True)


@st.composite
def record_arrays(draw: st.DrawFn) -> list[dict[str, Any]]:
    fields = draw(st.lists(names.filter(lambda f: f != "n"), unique=True, max_size=5))
    count = draw(st.integers(min_value=1, max_value=8))
    column = {
        field: draw(st.sampled_from([scalars, ints, floats, texts, cells])) for field in fields
    }
    return [{field: draw(column[field]) for field in fields} for _ in range(count)]


entries = st.one_of(scalars, st.lists(scalars, max_size=5), record_arrays(), record_arrays())
documents = st.dictionaries(names, entries, max_size=5)


# -- cells -----------------------------------------------------------------------


@SETTINGS
@given(floats)
def test_float_text_is_the_reference(value: float) -> None:
    assert accelerator.native is not None
    fast = accelerator.native.format_float(value)
    with pure():
        slow = eson_numbers.format_float(value)
    assert fast == slow


def test_float_text_seeded_sweep() -> None:
    """Half a million seeded doubles of every shape, against repr-based formatting."""
    assert accelerator.native is not None
    rng = random.Random(20261201)
    with pure():
        for index in range(500_000):
            shape = index % 4
            if shape == 0:
                value = round(rng.random() * 10 ** rng.randrange(-7, 16), rng.randrange(0, 12))
            elif shape == 1:
                value = _bits_float(rng.getrandbits(64))
            elif shape == 2:
                value = rng.random() * 10 ** rng.randrange(-9, 23)
            else:
                value = rng.randrange(-(10**9), 10**9) / 10 ** rng.randrange(0, 10)
            if value - value != 0:
                continue
            assert accelerator.native.format_float(value) == eson_numbers.format_float(value), value


# The accelerator starts its float search at the digit count of the float it
# wrote last; the text must not depend on what came before.
PRIMERS = [0.5, 0.25, 0.125, 0.0625, 1.5e-5, 0.1 + 0.2, 3.0, 123456.789, 1e-6, 7.1e-5]


@SETTINGS
@given(st.lists(floats, min_size=1, max_size=8))
def test_float_text_does_not_depend_on_the_previous_float(values: list[float]) -> None:
    assert accelerator.native is not None
    for value in values:
        expected = eson_numbers.format_float(value) if value - value == 0 else None
        if expected is None:
            continue
        for primer in [*PRIMERS, *values]:
            accelerator.native.format_float(primer)
            assert accelerator.native.format_float(value) == expected, (primer, value)


@SETTINGS
@given(texts)
def test_string_cells_are_the_reference(text: str) -> None:
    assert accelerator.native is not None
    assert_same(lambda: eson_cells.encode_str(text))
    assert_same(lambda: eson_json.quote(text))
    assert accelerator.native.is_bare(text) == eson_cells.is_bare(text)


# Long enough for the accelerator's block scans (16 bytes at a time): runs of
# one width with the escaped characters at every offset of a block.
long_texts = st.lists(st.one_of(tricky, any_char, st.sampled_from("abcdefgh")), max_size=80).map(
    "".join
)
# Each short escape (\" \\ \n \r \t \b \f), controls written as \u00XX, and the
# wide characters written as \uXXXX.
ESCAPED = [
    '"', "\\", "\n", "\r", "\t", "\b", "\f", "\x00", "\x0b", "\x1f", "\x7f",
    "\u2028", "\u2029", "\ud800", "\udfff",
]
BASES = ["a", "\u00e9", "\u4e2d", "\U0001f600", "\ufffd"]


@SETTINGS
@given(long_texts)
def test_long_string_cells_are_the_reference(text: str) -> None:
    assert accelerator.native is not None
    assert_same(lambda: eson_json.quote(text))
    assert_same(lambda: eson_cells.encode_str(text))
    # After a wide cell the output is wide: the same text copied across kinds.
    assert_same(lambda: eson_cells.encode_str_column(["\U0001f600", text, "\u4e2d", text]))


@pytest.fixture(params=["8 a block", "4 a block"])
def block_width(request: pytest.FixtureRequest, _accelerated: None) -> Iterator[None]:
    """UCS-4 text quoted 8 characters a block (AVX2, where the CPU has it) and 4 (SSE2)."""
    assert accelerator.native is not None
    before = accelerator.native.wide_blocks(request.param == "8 a block")
    try:
        yield
    finally:
        accelerator.native.wide_blocks(before)


@pytest.mark.usefixtures("block_width")
def test_escapes_at_every_block_offset() -> None:
    for base in BASES:
        for special in ESCAPED:
            for length in (7, 8, 9, 15, 16, 17, 33, 40):
                for at in range(length):
                    text = base * at + special + base * (length - at - 1)
                    assert_same(partial(eson_json.quote, text))
                    assert accelerator.native.is_bare(text) == eson_cells.is_bare(text), text
                    for column in (["\U0001f600", text], ["\u4e2d", text], [text, text]):
                        assert_same(partial(eson_cells.encode_str_column, column))


@pytest.mark.usefixtures("block_width")
def test_escape_pairs_at_every_block_offset() -> None:
    """Two escaped characters side by side (a surrogate pair among them) at each offset."""
    pairs = ['"\\', "\t\n", "\ud800\udc00", "\udc00\ud800", "\u2028\x00", '\\"']
    for base in ("a", "\u4e2d", "\U0001f600"):
        for pair in pairs:
            for at in range(18):
                text = base * at + pair + base * (17 - at)
                assert_same(partial(eson_json.quote, text))
                assert_same(partial(eson_cells.encode_str, text))
                assert accelerator.native.is_bare(text) == eson_cells.is_bare(text), text


@SETTINGS
@given(st.lists(cells, max_size=6))
def test_cell_columns_are_the_reference(values: list[Any]) -> None:
    assert_same(lambda: eson_cells.encode_column(values))
    strings = [value for value in values if type(value) is str]
    assert_same(lambda: eson_cells.encode_str_column(strings))
    texts_ = assert_same(lambda: [eson_cells.encode_cell(value) for value in values])
    if texts_ is not None:
        assert_same(lambda: eson_cells.decode_column(texts_))


cell_texts = st.one_of(
    texts,
    st.from_regex(r"-?(0|[1-9][0-9]{0,25})(\.[0-9]{1,20})?([eE][+-]?[0-9]{1,4})?", fullmatch=True),
    st.builds(lambda body: '"' + body + '"', texts),
    st.builds(lambda text: eson_json.quote(text), texts),
)


@SETTINGS
@given(st.lists(cell_texts.filter(lambda t: "\t" not in t and "\n" not in t), max_size=6))
def test_cell_decoding_is_the_reference(texts_: list[str]) -> None:
    assert_same(lambda: eson_cells.decode_column(texts_))
    assert_same(lambda: [eson_cells.decode_cell(text) for text in texts_])


# -- untyped documents ---------------------------------------------------------------


@SETTINGS
@given(documents, st.booleans())
def test_documents_encode_and_decode_the_same(value: dict[str, Any], number: bool) -> None:
    text = assert_same(lambda: eson.encode(value, number=number))
    if text is not None:
        assert_same(lambda: eson.decode(text))


MUTATIONS = [
    "\t",
    "\n",
    "\r\n",
    '"',
    "\\",
    "[",
    "{",
    "-",
    "0",
    "1",
    ".",
    "e",
    "n",
    " ",
    "\ud800",
    "\u2028",
    "\x00",
    "null",
    "9" * 30,
    "\\u12",
    "\\ud83d",
    "=",
    ",",
    "}",
    "]",
]


@st.composite
def mutated(draw: st.DrawFn, base: st.SearchStrategy[str]) -> str:
    """A document with a few insertions, deletions and replacements."""
    text = draw(base)
    for _ in range(draw(st.integers(1, 4))):
        position = draw(st.integers(0, len(text)))
        action = draw(st.integers(0, 2))
        piece = draw(st.one_of(st.sampled_from(MUTATIONS), st.text(any_char, max_size=2)))
        if action == 0:
            text = text[:position] + piece + text[position:]
        elif action == 1:
            text = text[:position] + text[position + draw(st.integers(1, 6)) :]
        else:
            text = text[:position] + piece + text[position + len(piece) :]
    return text


def _encoded(value: Any) -> str | None:
    """The document's ESON text, or None for one no ESON writer writes.

    A str holding a surrogate pair as two code points is refused (JSON would read
    the pair back as one character); tests/test_surrogate_pairs.py tests that.
    """
    try:
        return eson.encode(value)
    except eson.EncodeError as exc:
        if "surrogate pair as two code points" not in str(exc):
            raise
        return None


def _encoded_texts(values: st.SearchStrategy[Any]) -> st.SearchStrategy[str]:
    return values.map(_encoded).filter(lambda text: text is not None)  # type: ignore[arg-type]


encoded_documents = _encoded_texts(documents)


@SETTINGS
@given(mutated(encoded_documents))
def test_mutated_documents_decode_or_fail_the_same(text: str) -> None:
    assert_same(lambda: eson.decode(text))
    assert_same(lambda: eson.decode(text.encode("utf-8", "surrogatepass")))


# -- typed models ------------------------------------------------------------------------


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class MRow(eson.msgspec.Record):
    id: int
    kind: Literal["a", "b", "c d", "1"]
    name: str
    score: float
    ok: bool
    note: str | None
    size: int | float
    tags: list[str]
    color: Color
    extra: Any


class MDoc(eson.msgspec.Message):
    title: str
    rows: list[MRow]
    one: MRow | None = None


class PRow(eson.Record):
    id: int
    kind: Literal["a", "b", "c d", "1"]
    name: str
    score: float
    ok: bool
    note: str | None
    size: int | float
    tags: list[str]
    color: Color
    extra: Any


class PDoc(eson.Message, number=True):
    title: str
    rows: list[PRow]
    one: PRow | None = None


row_fields = {
    "id": ints,
    "kind": st.sampled_from(["a", "b", "c d", "1"]),
    "name": texts,
    "score": floats,
    "ok": st.booleans(),
    "note": st.none() | texts,
    "size": st.one_of(ints, floats),
    "tags": st.lists(texts, max_size=2),
    "color": st.sampled_from(list(Color)),
    "extra": scalars,
}
row_values = st.fixed_dictionaries(row_fields)


@st.composite
def documents_of(draw: st.DrawFn, cls: type) -> Any:
    row_type = MRow if cls is MDoc else PRow
    rows = [row_type(**values) for values in draw(st.lists(row_values, max_size=6))]
    one = draw(st.none() | row_values.map(lambda values: row_type(**values)))
    return cls(title=draw(texts), rows=rows, one=one)


@TYPED
@given(st.sampled_from([MDoc, PDoc]).flatmap(documents_of))
def test_typed_models_encode_and_decode_the_same(model: Any) -> None:
    cls = type(model)
    text = assert_same(lambda: eson.encode(model))
    if text is None:
        return
    # (Round trips are tested elsewhere; here both paths must agree.)
    assert_same(lambda: eson.decode(text, type=cls), exact=False)
    assert_same(lambda: eson.decode(text.encode("utf-8", "surrogatepass"), type=cls), exact=False)


@TYPED
@given(
    st.sampled_from([MDoc, PDoc]).flatmap(
        lambda cls: st.tuples(st.just(cls), mutated(_encoded_texts(documents_of(cls))))
    )
)
def test_typed_mutations_fail_or_decode_the_same(case: tuple[type, str]) -> None:
    cls, text = case
    assert_same(lambda: eson.decode(text, type=cls), exact=False)
    # Lenient reads (repairs) and the untyped reader of the same text.
    assert_same(lambda: eson.decode(text, type=cls, strict=False), exact=False)
    assert_same(lambda: eson.decode(text, strict=False))


# Plain columns only, the record array last: the accelerator writes the whole
# document (the lines before it, the rows and the final line break) in one str.
class MFlat(eson.msgspec.Record):
    id: int
    kind: Literal["a", "b", "c d", "1"]
    name: str
    score: float
    ok: bool
    note: str | None
    size: int | float


class MFlatDoc(eson.msgspec.Message):
    title: str
    rows: list[MFlat]


class PFlat(eson.Record):
    id: int
    kind: Literal["a", "b", "c d", "1"]
    name: str
    score: float
    ok: bool
    note: str | None
    size: int | float


class PFlatDoc(eson.Message, number=True):
    title: str
    rows: list[PFlat]


flat_row_values = st.fixed_dictionaries({key: row_fields[key] for key in MFlat.__struct_fields__})


@st.composite
def flat_documents_of(draw: st.DrawFn, cls: type) -> Any:
    row_type = MFlat if cls is MFlatDoc else PFlat
    rows = [row_type(**values) for values in draw(st.lists(flat_row_values, max_size=6))]
    return cls(title=draw(texts), rows=rows)


@pytest.mark.filterwarnings("ignore:Pydantic serializer warnings")
@TYPED
@given(st.sampled_from([MFlatDoc, PFlatDoc]).flatmap(flat_documents_of), st.booleans())
def test_documents_ending_in_a_record_array_are_the_reference(model: Any, number: bool) -> None:
    cls = type(model)
    text = assert_same(lambda: eson.encode(model, number=number))
    assert_same(lambda: eson.encode(model))
    if text is not None:
        assert_same(lambda: eson.decode(text, type=cls), exact=False)
    if model.rows:  # a foreign value in the last row: the whole document from the reference
        row = model.rows[-1]
        if isinstance(row, msgspec.Struct):
            row.score = "not a float"
        else:
            object.__setattr__(row, "score", "not a float")
        assert_same(lambda: eson.encode(model, number=number))


def test_the_accelerator_writes_whole_documents(monkeypatch: pytest.MonkeyPatch) -> None:
    # The path above is the accelerator's, not a fallback: it gets the lines before the rows.
    from eson._internal.codecs import eson_encode

    calls: list[tuple[object, object]] = []
    real = accelerator.native

    class Recording:
        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

        def encode_rows(self, *args: Any) -> Any:
            calls.append(args[-2:])
            return real.encode_rows(*args)

    monkeypatch.setattr(eson_encode, "native", Recording())
    for cls, row in ((MFlatDoc, MFlat), (PFlatDoc, PFlat)):
        rows = [row(id=1, kind="a", name="x y", score=0.5, ok=True, note=None, size=2)] * 3
        model = cls(title="t", rows=rows)
        for number in (False, True):
            calls.clear()
            text = eson.encode(model, number=number)
            assert calls and calls[-1][1] == "\n", calls
            with pure():
                assert eson.encode(model, number=number) == text


@pytest.mark.filterwarnings("ignore:Pydantic serializer warnings")
@TYPED
@given(st.sampled_from([MDoc, PDoc]).flatmap(documents_of))
def test_typed_rows_of_the_wrong_type_take_the_reference_path(model: Any) -> None:
    # A subclass instance, a missing attribute, a foreign value: the reference decides.
    if not model.rows:
        return
    if isinstance(model, msgspec.Struct):
        model.rows[0].score = "not a float"  # msgspec does not validate assignment
    else:
        object.__setattr__(model.rows[0], "score", "not a float")
    assert_same(lambda: eson.encode(model))


def test_handoff_is_byte_identical_both_ways() -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    from handoff import make_handoff

    value = make_handoff(500)
    for number in (False, True):
        text = assert_same(lambda number=number: eson.encode(value, number=number))
        decoded = assert_same(lambda text=text: eson.decode(text))
        if not number:
            assert same_value(decoded, value)


# -- typed TOON tables -------------------------------------------------------------------


class TRow(eson.msgspec.Record):
    id: int
    kind: Literal["a", "b", "c d", "1"]
    name: str
    score: float
    ok: bool
    note: str | None
    size: int | float


class TDoc(eson.msgspec.Message):
    title: str
    rows: list[TRow]


class PTRow(eson.Record):
    id: int
    kind: Literal["a", "b", "c d", "1"]
    name: str
    score: float
    ok: bool
    note: str | None
    size: int | float


class PTDoc(eson.Message):
    title: str
    rows: list[PTRow]


flat_values = st.fixed_dictionaries(
    {
        "id": ints,
        "kind": st.sampled_from(["a", "b", "c d", "1"]),
        "name": texts,
        "score": floats,
        "ok": st.booleans(),
        "note": st.none() | texts,
        "size": st.one_of(ints, floats),
    }
)


@st.composite
def tables_of(draw: st.DrawFn, cls: type) -> Any:
    row_type = TRow if cls is TDoc else PTRow
    rows = [row_type(**values) for values in draw(st.lists(flat_values, max_size=8))]
    return cls(title=draw(texts), rows=rows)


delimiters = st.sampled_from([",", "\t", "|"])


@TYPED
@given(st.sampled_from([TDoc, PTDoc]).flatmap(tables_of), delimiters)
def test_toon_tables_encode_and_decode_the_same(model: Any, delimiter: str) -> None:
    cls = type(model)
    text = assert_same(lambda: eson.toon.encode(model, delimiter=delimiter))
    if text is None:
        return
    assert_same(lambda: eson.toon.decode(text, type=cls), exact=False)
    assert_same(lambda: eson.toon.decode(text), exact=True)


@TYPED
@given(
    st.sampled_from([TDoc, PTDoc]).flatmap(
        lambda cls: st.tuples(
            st.just(cls),
            mutated(
                st.tuples(tables_of(cls), delimiters).map(
                    lambda pair: _toon_or_empty(pair[0], pair[1])
                )
            ),
        )
    )
)
def test_toon_mutations_fail_or_decode_the_same(case: tuple[type, str]) -> None:
    cls, text = case
    assert_same(lambda: eson.toon.decode(text, type=cls), exact=False)
    assert_same(lambda: eson.toon.decode(text, strict=False, type=cls), exact=False)


def _toon_or_empty(model: Any, delimiter: str) -> str:
    try:
        return eson.toon.encode(model, delimiter=delimiter)
    except eson.ESONError:
        return ""


@pytest.mark.parametrize("cls", [TDoc, PTDoc])
def test_toon_columns_of_the_exact_type_only_are_trusted(cls: type) -> None:
    # A column is taken as valid without the binding's check only when every
    # value has the field's exact type; one foreign value anywhere and the
    # check (and its error or conversion) is the reference's.
    good = "title: t\nrows[2]{id,kind,name,score,ok,note,size}:\n  1,a,x,0.5,true,null,2\n  2,b,y,1.5,false,n,2.5\n"
    assert_same(lambda: eson.toon.decode(good, type=cls), exact=False)
    for old, new in [
        ("x,0.5", "12,0.5"),  # an int in a str column
        ("y,1.5", "true,1.5"),  # a bool in a str column
        ("x,0.5", "x,1"),  # an int in a float column (converted)
        ("x,0.5", "x,null"),  # null in a float column
        ("1,a", "1.5,a"),  # a float in an int column
        ("true,null", "1,null"),  # an int in a bool column
        ("null,2", "3,2"),  # an int in a str | None column
    ]:
        text = good.replace(old, new, 1)
        assert text != good
        assert_same(lambda text=text: eson.toon.decode(text, type=cls), exact=False)


def test_toon_bare_string_test_at_every_block_offset() -> None:
    # The accelerator tests Latin-1 TOON strings 16 characters at a time.
    specials = [":", '"', "\\", "[", "]", "{", "}", ",", "|", "\t", "\n", "\x00", "\x1f", " ", "\xe9"]
    for delimiter in (",", "\t", "|"):
        names = []
        for special in specials:
            for length in (16, 17, 33):
                names.extend("a" * at + special + "b" * (length - at - 1) for at in range(length))
        rows = [
            TRow(id=i, kind="a", name=name, score=0.5, ok=True, note=name, size=1)
            for i, name in enumerate(names)
        ]
        model = TDoc(title="t", rows=rows)
        text = assert_same(partial(eson.toon.encode, model, delimiter=delimiter))
        assert text is not None
        assert_same(partial(eson.toon.decode, text, type=TDoc), exact=False)


# -- TOON: which strings stand without quotes ---------------------------------------------

TOON_STRINGS = st.one_of(
    st.sampled_from(
        ["", " a", "a ", "-a", "#a", "a-", "true", "false", "null", "True", "1", "+1", "-1", "01",
         "1.5", "1.", ".5", "1e5", "1E+5", "1e", "1e+", "1.5e-3x", "a:b", 'a"b', "a\\b", "[a", "a]",
         "{a", "a}", "a,b", "a|b", "a\tb", "\x7f", "\x1f", "\ud800", "caf\u00e9", "\U0001f600", "a b"]
    ),
    st.text(alphabet="ab01+-.eE #:,|\t\"\\[]{}\x00\u00e9\ud800\U0001f600", max_size=6),
    st.text(max_size=6),
)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(TOON_STRINGS, max_size=6), st.sampled_from([",", "\t", "|"]))
def test_toon_bare_strings_equals_the_lexicon_pattern(values: list[str], delimiter: str) -> None:
    # The C check equals toon_quoting's _SAFE_STRING, string by string.
    from eson._internal.wire.toon_quoting import _SAFE_STRING

    native = accelerator.native
    assert native is not None
    expected = all(_SAFE_STRING[delimiter].fullmatch(value) is not None for value in values)
    assert native.toon_bare_strings(values, delimiter) is expected
    for value in values:
        assert native.toon_bare_strings([value], delimiter) is (
            _SAFE_STRING[delimiter].fullmatch(value) is not None
        ), value
    assert native.toon_bare_strings((*values, 1), delimiter) in (None, False)
    assert native.toon_bare_strings(iter(values), delimiter) is None


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.integers(1, 4).flatmap(
        lambda width: st.lists(st.lists(st.text(max_size=4), min_size=width, max_size=width), max_size=5)
    ),
    st.sampled_from([",", "\t", "|", "\u00e9", "\U0001f600"]),
    st.sampled_from(["", "  ", "\u4e2d "]),
    st.booleans(),
)
def test_join_rows_equals_joining_in_python(
    rows: list[list[str]], delimiter: str, pad: str, tuples: bool
) -> None:
    native = accelerator.native
    assert native is not None
    width = len(rows[0]) if rows else 1
    columns: list[Any] = [[row[j] for row in rows] for j in range(width)]
    if tuples:
        columns = [tuple(column) for column in columns]
    assert native.join_rows(columns, delimiter, pad) == [pad + delimiter.join(row) for row in zip(*columns)]


def test_join_rows_declines_what_it_does_not_join() -> None:
    native = accelerator.native
    assert native is not None
    assert native.join_rows([], ",", "") is None
    assert native.join_rows([["a"], ["b", "c"]], ",", "") is None  # lengths differ
    assert native.join_rows([["a"], [1]], ",", "") is None  # not a str
    assert native.join_rows([iter(["a"])], ",", "") is None  # not a list or tuple

    class Text(str):
        pass

    assert native.join_rows([[Text("a")]], ",", "") is None
    with pytest.raises(TypeError):
        native.join_rows((["a"],), ",", "")


# -- TOON string cells and whole documents ------------------------------------------------------

#: What forces TOON quotes inside a token, and what does at its ends only.
TOON_INSIDE = [":", '"', "\\", "[", "]", "{", "}", ",", "|", "\t", "\n", "\x00", "\x1f"]
TOON_ENDS = [" ", "-", "#"]


class MNamed(msgspec.Struct):
    name: str
    id: int


class MNamedDoc(msgspec.Struct):
    title: str
    rows: list[MNamed]
    after: str = "end"


class MNamedLast(msgspec.Struct):
    title: str
    rows: list[MNamed]


@pytest.mark.parametrize("delimiter", [",", "|", "\t"])
def test_toon_string_cells_at_every_block_offset(delimiter: str) -> None:
    """The accelerator copies a Latin-1 cell while it checks it: a bad character anywhere quotes it."""
    require_accelerator()
    for base in ("a", "\u00e9"):
        for special in TOON_INSIDE:
            for length in (1, 15, 16, 17, 32, 33):
                names = [base * at + special + base * (length - at - 1) for at in range(length)]
                rows = [MNamed(name, index) for index, name in enumerate(names)]
                for cls in (MNamedDoc, MNamedLast):
                    doc = cls("t", rows)
                    text = assert_same(partial(eson.toon.encode, doc, delimiter=delimiter))
                    assert eson.toon.decode(text, type=cls) == doc
    for special in TOON_ENDS + ["true", "null", "12", "+1", "1e5", "", "  x"]:
        for name in (special, special + "abc" * 6, "abc" * 6 + special):
            doc = MNamedDoc("t", [MNamed(name, 1), MNamed("plain", 2)])
            text = assert_same(partial(eson.toon.encode, doc))
            assert eson.toon.decode(text, type=MNamedDoc) == doc


@SETTINGS
@given(
    st.lists(st.text(alphabet="ab \u00e9\u4e2d:,|\"\\-#[]{}\t\n", max_size=40), max_size=5),
    st.sampled_from([",", "|", "\t"]),
)
def test_toon_documents_are_the_reference(names: list[str], delimiter: str) -> None:
    """A table first, last or between entries: written alike by the accelerator and the reference."""
    for cls in (MNamedDoc, MNamedLast):
        doc = cls("t", [MNamed(name, index) for index, name in enumerate(names)])
        text = assert_same(partial(eson.toon.encode, doc, delimiter=delimiter))
        assert text is not None and eson.toon.decode(text, type=cls) == doc
