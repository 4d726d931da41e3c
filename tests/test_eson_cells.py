"""ESON 1.1 section 2 and 3: when a cell is bare, how numbers and JSON cells behave."""

from __future__ import annotations

import sys

import pytest

import eson
from eson._internal.wire.eson_cells import decode_cell, encode_cell, encode_str, is_bare


@pytest.mark.parametrize(
    "text",
    ["hello world", "01", "1.", ".5", "+1", "1e", "0x10", "NaN", "Infinity", "nulls", "True",
     "a\u00a0b", "k=v", "x[2]{y}", "!eson/1", "café 🚀", "back\\slash", "-", "--1", "1-2",
     "a\x85", "ctl\x01", "\x85a", "a\x1c", "2024-01-01", "a\"b", "\x7f"],
)
def test_bare_strings(text: str) -> None:
    assert is_bare(text)
    assert encode_str(text) == text
    assert decode_cell(text) == text


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ("", '""'),
        ("null", '"null"'),
        ("true", '"true"'),
        ("false", '"false"'),
        ("42", '"42"'),
        ("-0", '"-0"'),
        ("1e3", '"1e3"'),
        ("1.0", '"1.0"'),
        (" lead", '" lead"'),
        ("trail ", '"trail "'),
        ("a\tb", '"a\\tb"'),
        ("a\nb", '"a\\nb"'),
        ("a\rb", '"a\\rb"'),
        ('"q', '"\\"q"'),
        ("[x", '"[x"'),
        ("{x", '"{x"'),
        ("\u00a0nbsp", '"\u00a0nbsp"'),  # JS trim set: NBSP is white space
        ("bom\ufeff", '"bom\ufeff"'),  # JS trim set: BOM is white space
        ("\u3000ideo", '"\u3000ideo"'),
        ("line\u2028sep", '"line\\u2028sep"'),  # escaped so the JS reader can read it
        ("para\u2029sep", '"para\\u2029sep"'),
        ("lone\ud800", '"lone\\ud800"'),  # JSON.stringify's well-formed escape
        (" \x01", "\" \\u0001\""),
    ],
)
def test_quoted_strings(text: str, cell: str) -> None:
    assert not is_bare(text)
    assert encode_str(text) == cell
    assert decode_cell(cell) == text


def test_python_only_whitespace_stays_bare() -> None:
    # str.strip() would strip these; JavaScript's trim (the reference) does not.
    for text in ["\x1cfs", "gs\x1d", "\x85nel", "nel\x85"]:
        assert encode_str(text) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0, "0"),
        (-7, "-7"),
        (9007199254740993, "9007199254740993"),
        (-(10**40), "-" + "1" + "0" * 40),
        (3.14, "3.14"),
        (-2.5, "-2.5"),
        (100.0, "100.0"),
        (-0.0, "-0.0"),
        (1e-7, "1e-7"),
        (1.5e-7, "1.5e-7"),
        (1e-5, "0.00001"),
        (1.25e-6, "0.00000125"),
        (1e16, "10000000000000000.0"),
        (1.5e17, "150000000000000000.0"),
        (1e21, "1e+21"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (5e-324, "5e-324"),
        (True, "true"),
        (False, "false"),
        (None, "null"),
    ],
)
def test_number_and_literal_cells(value: object, text: str) -> None:
    assert encode_cell(value) == text
    back = decode_cell(text)
    assert back == value and type(back) is type(value)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_non_finite_floats_are_rejected(value: float) -> None:
    with pytest.raises(eson.EncodeError, match="non-finite"):
        eson.encode({"x": value})
    with pytest.raises(eson.EncodeError):
        eson.encode({"x": [[value]]})


@pytest.mark.parametrize("text", ["1e999", "-1e999", "1" + "0" * 400 + ".5"])
def test_non_finite_number_cells_are_rejected(text: str) -> None:
    with pytest.raises(eson.DecodeError, match="not finite"):
        eson.decode(f"!eson/1\nx={text}\n")
    with pytest.raises(eson.DecodeError, match="not finite"):
        eson.decode(f"!eson/1\nxs[2]\n1.5\n{text}\n")


def test_json_constants_are_not_numbers() -> None:
    for cell in ["[NaN]", "[Infinity]", "[-Infinity]", "[1e999]"]:
        with pytest.raises(eson.DecodeError):
            eson.decode(f"!eson/1\nx={cell}\n")


def test_big_integers_never_pass_through_a_float() -> None:
    big = 2**200 + 1
    text = eson.encode({"id": big, "rows": [{"id": big}], "ids": [big, -big]})
    assert eson.decode(text) == {"id": big, "rows": [{"id": big}], "ids": [big, -big]}
    assert f"id={big}\n" in text


def test_big_integers_inside_nested_cells_are_rejected_on_encode() -> None:
    assert eson.encode({"x": [[2**53 - 1]]}) == "!eson/1\nx[1]\n[9007199254740991]\n"
    with pytest.raises(eson.EncodeError, match="2\\*\\*53"):
        eson.encode({"x": [[2**53]]})
    with pytest.raises(eson.EncodeError):
        eson.encode({"rows": [{"cfg": {"id": -(2**53)}}]})


def test_integer_digit_limit_is_an_eson_error() -> None:
    limit = sys.get_int_max_str_digits()
    if limit == 0:
        pytest.skip("interpreter has no integer digit limit")
    huge = "9" * (limit + 1)
    with pytest.raises(eson.DecodeError):
        eson.decode(f"!eson/1\nx={huge}\n")
    with pytest.raises(eson.DecodeError) as info:
        eson.decode(f"!eson/1\nxs[2]\n1\n{huge}\n")
    assert info.value.row == 2 and info.value.line == 4
    with pytest.raises(eson.EncodeError):
        eson.encode({"x": 10 ** (limit + 1)})
    with pytest.raises(eson.EncodeError):
        eson.encode({"rows": [{"a": 1}, {"a": 10 ** (limit + 1)}]})


def test_json_cells() -> None:
    value = {"cfg": {"tags": ["a", "b"], "limits": {"rps": 10, "f": 0.5, "none": None}}}
    text = eson.encode({"rows": [value]})
    assert text == (
        '!eson/1\nrows[1]{cfg}\n{"tags":["a","b"],"limits":{"rps":10,"f":0.5,"none":null}}\n'
    )
    assert eson.decode(text) == {"rows": [value]}
    # Tuples travel as arrays; nested strings use JSON escapes.
    assert eson.encode({"x": [("a\u2028", 1)]}) == '!eson/1\nx[1]\n["a\\u2028",1]\n'


def test_json_cell_with_surrounding_space_decodes() -> None:
    assert eson.decode('!eson/1\nx="a" \n') == {"x": "a"}


@pytest.mark.parametrize(
    "cell", ['{"a":1', "[1,]", '"unterminated', "[1] x", "{'a':1}", '"\\x"', "[01]"]
)
def test_malformed_json_cells(cell: str) -> None:
    with pytest.raises(eson.DecodeError, match="malformed JSON") as info:
        eson.decode(f"!eson/1\nok=1\nx={cell}\n")
    assert info.value.line == 3 and info.value.section == "x"


def test_deep_nesting_is_rejected_both_ways() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(eson.DecodeError, match="deeper"):
        eson.decode(f"!eson/1\nx={deep}\n")
    with pytest.raises(eson.DecodeError):
        eson.decode(f"!eson/1\nx={'[' * 100_000}\n")
    nested: list[object] = []
    for _ in range(2000):
        nested = [nested]
    with pytest.raises(eson.EncodeError, match="deeper"):
        eson.encode({"x": nested})
    ok: list[object] = []
    for _ in range(400):
        ok = [ok]
    assert eson.decode(eson.encode({"x": ok})) == {"x": ok}


def test_cycles_are_rejected() -> None:
    loop: list[object] = []
    loop.append(loop)
    with pytest.raises(eson.EncodeError, match="cyclic"):
        eson.encode({"x": [loop]})
    shared = [1]
    assert eson.decode(eson.encode({"x": [[shared, shared]]})) == {"x": [[[1], [1]]]}


@pytest.mark.parametrize("value", [object(), b"bytes", {1, 2}, 1j])
def test_unsupported_types(value: object) -> None:
    with pytest.raises(eson.EncodeError, match="unsupported type"):
        eson.encode({"x": value})
    with pytest.raises(eson.EncodeError, match="unsupported type"):
        eson.encode({"rows": [{"a": [value]}]})


def test_non_string_keys_in_nested_values() -> None:
    with pytest.raises(eson.EncodeError, match="not a string"):
        eson.encode({"x": [[{1: "a"}]]})


def test_scalar_subclasses_travel_as_their_value() -> None:
    import enum

    class Color(str, enum.Enum):
        RED = "red"

    class Level(enum.IntEnum):
        HIGH = 3

    assert eson.encode({"c": Color.RED, "l": Level.HIGH}) == "!eson/1\nc=red\nl=3\n"
