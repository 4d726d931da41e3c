"""Property tests: round trips of generated documents, column = per-cell, and hostile text."""

from __future__ import annotations

import string
from typing import Any

from conftest import same
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import eson
from eson._internal.wire.eson_cells import decode_cell, decode_column, encode_cell, encode_column

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_.\-]{0,8}", fullmatch=True)
# Text with lone high surrogates (never a high+low pair, which JSON would join),
# the JS/Python white-space differences and the characters that force quotes.
tricky_chars = st.sampled_from(
    list(" \t\r\n\"[{}]\\-0123456789.eE\u00a0\u1680\u2028\u2029\ufeff\x85\x1c\x00\x7f")
    + ["\ud800", "\udbff", "null", "true", "false", "1e3", "-0"]
)
texts = st.one_of(
    st.text(max_size=12),
    st.lists(st.one_of(tricky_chars, st.characters(max_codepoint=0x2FFF)), max_size=8).map(
        "".join
    ),
)
floats = st.floats(allow_nan=False, allow_infinity=False)
scalars = st.one_of(st.none(), st.booleans(), st.integers(), floats, texts)
safe_ints = st.integers(min_value=-(2**53 - 1), max_value=2**53 - 1)
nested_scalars = st.one_of(st.none(), st.booleans(), safe_ints, floats, texts)
nested = st.recursive(
    nested_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(texts, inner, max_size=4)
    ),
    max_leaves=12,
)
cells = st.one_of(scalars, st.lists(nested, max_size=3), st.dictionaries(texts, nested, max_size=3))


@st.composite
def record_arrays(draw: st.DrawFn) -> list[dict[str, Any]]:
    fields = draw(st.lists(names.filter(lambda f: f != "n"), unique=True, max_size=5))
    count = draw(st.integers(min_value=1, max_value=6))
    return [{field: draw(cells) for field in fields} for _ in range(count)]


entries = st.one_of(
    cells.filter(lambda v: not isinstance(v, (list, dict))),
    st.lists(scalars, max_size=5),
    record_arrays(),
    st.dictionaries(names, cells, max_size=4),
)
documents = st.dictionaries(names, entries, max_size=6)


@SETTINGS
@given(documents)
def test_documents_round_trip(document: dict[str, Any]) -> None:
    text = eson.encode(document)
    assert text.startswith("!eson/1\n") and text.endswith("\n")
    assert same(eson.decode(text), document)
    # Surrogates are always escaped, so the text is valid UTF-8.
    assert same(eson.decode(text.encode("utf-8")), document)


@SETTINGS
@given(documents)
def test_numbered_documents_round_trip(document: dict[str, Any]) -> None:
    decoded = eson.decode(eson.encode(document, number=True))
    for name, value in document.items():
        if isinstance(value, list) and value and all(isinstance(r, dict) for r in value):
            value = [{"n": i + 1, **row} for i, row in enumerate(value)]
        assert same(decoded[name], value)


@SETTINGS
@given(st.lists(scalars, max_size=8))
def test_encode_column_equals_per_cell(values: list[Any]) -> None:
    assert encode_column(values) == [encode_cell(v) for v in values]


@SETTINGS
@given(st.lists(st.one_of(texts, st.sampled_from(["1", "-2", "3.5", "1e2", "true", "x"]))))
def test_string_columns_equal_per_cell(values: list[str]) -> None:
    assert encode_column(values) == [encode_cell(v) for v in values]


cell_texts = st.one_of(
    st.text(alphabet=st.characters(blacklist_characters="\t\n"), max_size=10),
    st.from_regex(r"-?(0|[1-9][0-9]{0,20})(\.[0-9]{1,5})?([eE][+-]?[0-9]{1,3})?", fullmatch=True),
    st.sampled_from(["null", "true", "false", "", "[1]", '"x"', "{", "1e999"]),
)


@SETTINGS
@given(st.lists(cell_texts, max_size=8))
def test_decode_column_equals_per_cell(texts_: list[str]) -> None:
    try:
        expected: Any = [decode_cell(t) for t in texts_]
    except eson.DecodeError:
        expected = eson.DecodeError
    try:
        got: Any = decode_column(texts_)
    except eson.DecodeError:
        got = eson.DecodeError
    assert got is expected if expected is eson.DecodeError else same(got, expected)


def _decode_or_error(text: str | bytes) -> None:
    try:
        result = eson.decode(text)
    except eson.DecodeError as error:
        assert error.line is not None and error.line >= 1
    else:
        assert isinstance(result, dict)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("!eson/1\n\r\t=[]{},\"n0123-x .e\\")), max_size=60))
def test_arbitrary_text_only_raises_decode_error(text: str) -> None:
    _decode_or_error(text)
    _decode_or_error("!eson/1\n" + text)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=80))
def test_arbitrary_bytes_only_raise_decode_error(data: bytes) -> None:
    _decode_or_error(data)
    _decode_or_error(b"!eson/1\n" + data)


@st.composite
def mutated_documents(draw: st.DrawFn) -> str:
    text = eson.encode(draw(documents), number=draw(st.booleans()))
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        position = draw(st.integers(min_value=0, max_value=len(text)))
        action = draw(st.sampled_from(["insert", "delete", "replace", "drop_line", "dup_line"]))
        piece = draw(st.sampled_from(list("\n\t\r\"[]{}=,0-n ") + ["\\", "x", "1e999", "[" * 50]))
        if action == "insert":
            text = text[:position] + piece + text[position:]
        elif action == "delete":
            text = text[:position] + text[position + 1 :]
        elif action == "replace":
            text = text[:position] + piece + text[position + 1 :]
        else:
            lines = text.split("\n")
            index = min(position, len(lines) - 1)
            if action == "drop_line":
                del lines[index]
            else:
                lines.insert(index, lines[index])
            text = "\n".join(lines)
    return text


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_documents())
def test_mutated_documents_only_raise_decode_error(text: str) -> None:
    _decode_or_error(text)


@SETTINGS
@given(st.lists(st.sampled_from(string.ascii_letters), min_size=1, max_size=3), st.integers(0, 9))
def test_any_count_that_the_text_does_not_back_is_rejected(letters: list[str], extra: int) -> None:
    name = "".join(letters)
    text = f"!eson/1\n{name}[{extra + 3}]{{a}}\n1\n2\n"
    result = eson.try_decode(text)
    assume(extra + 3 != 2)
    assert not result.ok and result.error is not None and result.error.line == 2
