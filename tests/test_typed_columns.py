"""The typed column fast paths agree with the generic cell codecs, cell for cell."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eson._internal.codecs.eson_columns import (
    decode_bare_strings,
    decode_integers,
    decode_numbers,
    encode_booleans,
    encode_numbers,
)
from eson._internal.wire.eson_cells import (
    decode_column,
    encode_column,
    encode_str,
    encode_str_column,
)
from eson._internal.wire.eson_reader import Section, split_columns, split_rows
from eson.errors import DecodeError, EncodeError

FAST = settings(max_examples=300, deadline=None)

scalars = st.one_of(
    st.integers(),
    st.integers(-(10**25), 10**25),
    st.floats(),
    st.floats(-1e22, 1e22),
    st.booleans(),
    st.none(),
    st.sampled_from(["1", "x", ""]),
)
number_texts = st.one_of(
    st.integers().map(str),
    st.floats(allow_nan=False).map(repr),
    st.from_regex(r"-?(0|[1-9][0-9]{0,30})(\.[0-9]{1,5})?([eE][+-]?[0-9]{1,4})?", fullmatch=True),
    st.sampled_from(
        [
            "01",
            "1.",
            ".5",
            "+1",
            " 1",
            "1 ",
            "-",
            "1e999",
            "-0",
            "NaN",
            "Infinity",
            "1,2",
            "[1]",
            "[1",
            "2]",
            "true",
            "null",
            "",
            "\u0661",
        ]
    ),
)
cell_texts = st.one_of(
    number_texts, st.text(max_size=6), st.sampled_from(['"x"', "{}", "[]", "null", "true", "false"])
)


def generic_encode(values: list[Any]) -> list[str] | None:
    try:
        return encode_column(values)
    except EncodeError:
        return None


def generic_decode(texts: list[str]) -> list[Any] | None:
    try:
        return decode_column(texts)
    except DecodeError:
        return None


def same(left: list[Any], right: list[Any]) -> bool:
    """Equal values of equal types (so 1 != 1.0 != True)."""
    return len(left) == len(right) and all(
        type(a) is type(b) and (a == b or (a != a and b != b)) for a, b in zip(left, right)
    )


@FAST
@given(st.lists(scalars, max_size=8), st.booleans(), st.booleans())
def test_encode_numbers_matches_encode_column(values: list[Any], ints: bool, floats: bool) -> None:
    cells = encode_numbers(values, ints=ints, floats=floats)
    if cells is not None:
        assert cells == generic_encode(values)
        if values and not ints:
            assert {type(value) for value in values} == {float}
        if values and not floats:
            assert {type(value) for value in values} <= {int}


@FAST
@given(st.lists(st.integers(), min_size=1, max_size=8))
def test_encode_numbers_takes_plain_int_columns(values: list[int]) -> None:
    assert encode_numbers(values, floats=False) == generic_encode(values)


@FAST
@given(
    st.lists(
        st.floats(-1e15, 1e15).filter(lambda x: x == 0 or abs(x) >= 1e-4), min_size=1, max_size=8
    )
)
def test_encode_numbers_takes_ordinary_float_columns(values: list[float]) -> None:
    assert encode_numbers(values, ints=False) == generic_encode(values)


JS_SPACES = "\t\n\v\f\r \u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\u200b\x85"
strings = st.one_of(
    st.text(max_size=8),
    st.text(alphabet=JS_SPACES + 'ab-1"[{\ud800', max_size=4),
    st.sampled_from(["null", "true", "false", "01", "-", "1e3", "x", "a b", ""]),
)


@FAST
@given(st.lists(strings, max_size=8))
def test_encode_str_column_matches_encode_str(values: list[str]) -> None:
    assert list(encode_str_column(values)) == [encode_str(value) for value in values]


@FAST
@given(st.lists(scalars, max_size=8))
def test_encode_booleans_matches_encode_column(values: list[Any]) -> None:
    cells = encode_booleans(values)
    if cells is not None:
        assert cells == generic_encode(values)
    if values and all(type(value) is bool for value in values):
        assert cells is not None


@FAST
@given(st.lists(cell_texts, max_size=8))
def test_decode_fast_paths_match_decode_column(texts: list[str]) -> None:
    expected = generic_decode(texts)
    for fast in (decode_integers, decode_numbers, decode_bare_strings):
        values = fast(texts)
        if values is not None:
            assert expected is not None, (fast.__name__, texts)
            assert same(values, expected), (fast.__name__, texts, values, expected)


@FAST
@given(st.lists(st.integers(-(10**40), 10**40), min_size=1, max_size=8))
def test_decode_integers_takes_integer_columns(values: list[int]) -> None:
    texts = [str(value) for value in values]
    assert decode_integers(texts) == values
    assert same(decode_numbers(texts) or [], values)


@FAST
@given(
    st.lists(
        st.text(alphabet="abc xyz/._", min_size=1, max_size=8).filter(lambda s: s.strip() == s),
        min_size=1,
        max_size=8,
    )
)
def test_decode_bare_strings_takes_plain_text(texts: list[str]) -> None:
    assert decode_bare_strings(texts) == texts


rows = st.lists(
    st.lists(st.sampled_from(["1", "2", "a", "", "x y", "3"]), min_size=0, max_size=4),
    min_size=0,
    max_size=5,
)


@FAST
@given(rows, st.integers(0, 4), st.booleans())
def test_split_columns_matches_split_rows(
    body: list[list[str]], width: int, numbered: bool
) -> None:
    fields = ["n", "b", "c", "d"][:width] if numbered else ["a", "b", "c", "d"][:width]
    lines = ["\t".join(cells) for cells in body]
    # A section as the reader hands it over, its rows unchecked.
    section = Section("rows", "records", 2, tuple(fields), len(lines), lines)
    try:
        expected: Any = [list(column) for column in zip(*split_rows(section))]
        if not expected:
            expected = [[] for _ in fields]
    except DecodeError as exc:
        expected = str(exc)
    try:
        got: Any = split_columns(section)
    except DecodeError as exc:
        got = str(exc)
    if isinstance(expected, list) and body and width:
        assert got == expected
    else:
        assert got == expected or (got == [[] for _ in fields] and expected == [])


@pytest.mark.parametrize("texts", [["1", "2"], ["-0", "10"], []])
def test_small_integer_columns(texts: list[str]) -> None:
    assert decode_integers(texts) == decode_column(texts)
