"""Hand-written cases for the untyped TOON codec, one group per spec rule.

The official fixtures live in test_toon_conformance.py; these cases pin the
rules the fixtures do not reach (host types, limits, error locations,
non-strict leniency, the reusable helper functions) and restate the central
ones in our own words.
"""

from __future__ import annotations

import enum
import math
from collections import OrderedDict
from typing import Any

import pytest

from eson import toon
from eson._internal.wire.toon_header import HeaderField, RowLayout, format_header, parse_header
from eson._internal.wire.toon_limits import MAX_DEPTH
from eson._internal.wire.toon_parser import decode_text
from eson._internal.wire.toon_quoting import (
    format_float,
    format_key,
    format_primitive,
    parse_column,
    parse_primitive,
    primitive_formatter,
)
from eson._internal.wire.toon_scanner import find_unquoted, scan_lines, split_cells, split_table
from eson._internal.wire.toon_writer import encode_value
from eson.errors import ESONError, TOONError


def same(left: Any, right: Any) -> bool:
    """Equality that keeps bool, int and float apart and compares key order."""
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        return list(left) == list(right) and all(same(left[k], right[k]) for k in left)
    if isinstance(left, list):
        return len(left) == len(right) and all(map(same, left, right))
    return bool(left == right)


def fails(text: str | bytes, **options: Any) -> TOONError:
    with pytest.raises(TOONError) as info:
        toon.decode(text, **options)
    return info.value


# ------------------------------------------------------------ §2 numbers


@pytest.mark.parametrize(
    ("value", "token"),
    [
        (0, "0"),
        (-0.0, "0"),
        (0.0, "0"),
        (1.0, "1"),
        (-7, "-7"),
        (1.5, "1.5"),
        (1e6, "1000000"),
        (1e-6, "0.000001"),
        (1.5e-5, "0.000015"),
        (1e15, "1000000000000000"),
        (1e16, "10000000000000000"),
        (1.2345678e20, "123456780000000000000"),
        (1e20, "100000000000000000000"),
        (1e21, "1e+21"),
        (1.5e21, "1.5e+21"),
        (1e-7, "1e-7"),
        (1.5e-7, "1.5e-7"),
        (-2.5e-10, "-2.5e-10"),
        (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (0.1 + 0.2, "0.30000000000000004"),
        (1 / 3, "0.3333333333333333"),
        (123.456, "123.456"),
        (2**53 + 1, "9007199254740993"),
        (10**30, "1000000000000000000000000000000"),
        (-(10**25), "-10000000000000000000000000"),
        (float("nan"), "null"),
        (float("inf"), "null"),
        (float("-inf"), "null"),
    ],
)
def test_numbers_use_the_canonical_form(value: Any, token: str) -> None:
    assert toon.encode(value) == token
    assert toon.encode({"n": value}) == f"n: {token}"
    assert format_primitive(value) == token


@pytest.mark.parametrize("value", [1e-7, 1.5e-7, 1e21, 4.35e300, 5e-324, 0.1, 1 / 3, 1e300])
def test_floats_read_back_exactly(value: float) -> None:
    assert toon.decode(toon.encode(value)) == value
    assert toon.decode(format_float(value)) == value


def test_big_integers_are_exact_both_ways() -> None:
    big = 123456789012345678901234567890123456789
    assert toon.encode([big, -big]) == f"[2]: {big},{-big}"
    assert same(toon.decode(f"[2]: {big},{-big}"), [big, -big])


def test_integer_length_limit() -> None:
    with pytest.raises(TOONError, match="4300 digits"):
        toon.encode(10**5000)
    assert fails("n: " + "7" * 5000).line == 1
    assert toon.decode("n: " + "7" * 4300) == {"n": int("7" * 4300)}
    assert toon.decode("-" + "7" * 4300) == -int("7" * 4300)
    assert toon.encode(-int("7" * 4300)) == "-" + "7" * 4300


# ------------------------------------------------------------ §3 host values


class Colour(enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 3


class Mode(str, enum.Enum):
    FAST = "fast"


def test_host_types_that_map_to_json() -> None:
    assert toon.encode((1, "a", None)) == "[3]: 1,a,null"
    assert toon.encode(OrderedDict([("b", 1), ("a", True)])) == "b: 1\na: true"
    assert toon.encode({"level": Level.HIGH, "mode": Mode.FAST}) == "level: 3\nmode: fast"
    assert toon.encode([True, False]) == "[2]: true,false"


@pytest.mark.parametrize(
    "value",
    [b"x", {1, 2}, Colour.RED, object(), 1j, {"a": [bytearray()]}, [None, {"k": {1}}]],
)
def test_foreign_types_raise(value: Any) -> None:
    with pytest.raises(TOONError, match="cannot encode a value of type"):
        toon.encode(value)


def test_non_string_keys_raise() -> None:
    with pytest.raises(TOONError, match="keys must be str"):
        toon.encode({1: "a"})
    with pytest.raises(TOONError, match="keys must be str"):
        toon.encode({"rows": [{1: "a"}, {1: "b"}]})


def test_cycles_raise() -> None:
    loop: dict[str, Any] = {}
    loop["self"] = loop
    with pytest.raises(TOONError, match="circular"):
        toon.encode(loop)
    items: list[Any] = [1]
    items.append(items)
    with pytest.raises(TOONError, match="circular"):
        toon.encode({"items": items})
    row: dict[str, Any] = {"a": {}}
    row["a"]["b"] = row
    with pytest.raises(TOONError):
        toon.encode([row, row])


def test_shared_but_acyclic_values_are_fine() -> None:
    shared = {"x": 1}
    assert toon.encode({"a": shared, "b": shared, "c": 1}) == "a:\n  x: 1\nb:\n  x: 1\nc: 1"
    assert toon.encode({"a": shared, "b": shared}) == "[2:]{x}:\n  a: 1\n  b: 1"
    assert toon.encode([[shared], [shared]]) == "[2]:\n  - [1]:\n    - x: 1\n  - [1]:\n    - x: 1"


def test_surrogates_cannot_be_encoded() -> None:
    with pytest.raises(TOONError, match="surrogate"):
        toon.encode("a\ud800")
    with pytest.raises(TOONError, match="surrogate"):
        toon.encode({"\udfff": 1})


def nest(levels: int, leaf: Any = 1) -> Any:
    value = leaf
    for index in range(levels):
        value = [value] if index % 2 else {"k": value}
    return value


def test_nesting_limit_is_the_same_both_ways() -> None:
    ok = nest(MAX_DEPTH)
    assert toon.decode(toon.encode(ok)) == ok
    with pytest.raises(TOONError, match="deeper than"):
        toon.encode(nest(MAX_DEPTH + 1))
    with pytest.raises(TOONError, match="deeper than"):
        toon.encode(nest(100_000))
    # The root object is level 1, so the value of the n-th nested "k:" is level n + 1.
    fits = "".join("  " * i + "k:\n" for i in range(MAX_DEPTH - 1))
    assert toon.decode(fits)
    assert fails(fits + "  " * (MAX_DEPTH - 1) + "k:").line == MAX_DEPTH


def test_nesting_limit_counts_table_rows_and_field_groups() -> None:
    shallow = {"t": [{"a": {"b": 1}}, {"a": {"b": 2}}]}
    assert toon.encode(shallow) == "t[2]{a{b}}:\n  1\n  2"
    groups = "{" + "g{" * MAX_DEPTH + "x" + "}" * MAX_DEPTH + "}"
    assert "deeper than" in str(fails(f"t[1]{groups}:\n  1"))


# ------------------------------------------------------------ §7.1/§7.2 strings


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("hello world", "hello world"),
        ("Ada_99", "Ada_99"),
        ("café 👋", "café 👋"),
        ("", '""'),
        (" lead", '" lead"'),
        ("trail ", '"trail "'),
        ("\ttab", '"\\ttab"'),
        ("true", '"true"'),
        ("false", '"false"'),
        ("null", '"null"'),
        ("True", "True"),
        ("42", '"42"'),
        ("-3.14", '"-3.14"'),
        ("1e-6", '"1e-6"'),
        ("1E+6", '"1E+6"'),
        ("05", '"05"'),
        ("+1", '"+1"'),
        ("1.", "1."),
        (".5", ".5"),
        ("0x10", "0x10"),
        ("a:b", '"a:b"'),
        ('say "hi"', '"say \\"hi\\""'),
        ("back\\slash", '"back\\\\slash"'),
        ("[x]", '"[x]"'),
        ("{x}", '"{x}"'),
        ("a,b", '"a,b"'),
        ("a|b", "a|b"),
        ("-", '"-"'),
        ("-x", '"-x"'),
        ("x-y", "x-y"),
        ("#", '"#"'),
        ("#tag", '"#tag"'),
        ("a#b", "a#b"),
        ("line\nbreak", '"line\\nbreak"'),
        ("cr\rhere", '"cr\\rhere"'),
        ("bell\x07", '"bell\\u0007"'),
        ("\x1f", '"\\u001f"'),
        # section 7.2: only U+0020 and U+0009 at the edges force quotes
        ("\xa0nbsp", "\xa0nbsp"),
        ("nbsp\u3000", "nbsp\u3000"),
        ("bom\ufeff", "bom\ufeff"),
        ("\u2028sep", "\u2028sep"),
        ("\u3000ideo", "\u3000ideo"),
        ("tab\t", '"tab\\t"'),
        ("mid\xa0dle", "mid\xa0dle"),
        ("\x7f", "\x7f"),
    ],
)
def test_string_quoting_and_escaping(text: str, token: str) -> None:
    assert format_primitive(text) == token
    assert toon.encode(text) == token
    assert toon.decode(token) == text


def test_a_byte_order_mark_opening_the_document_is_quoted() -> None:
    # A leading U+FEFF is dropped by the decoder, so the root token must be quoted.
    assert format_primitive("\ufeffbom") == "\ufeffbom"
    assert toon.encode("\ufeffbom") == '"\ufeffbom"'
    assert toon.decode('"\ufeffbom"') == "\ufeffbom"
    assert toon.decode("\ufeffbom") == "bom"
    assert toon.encode({"k": "\ufeffbom"}) == "k: \ufeffbom"
    assert toon.encode(["\ufeffbom"]) == "[1]: \ufeffbom"


@pytest.mark.parametrize(
    ("delimiter", "quoted", "bare"),
    [(",", "a,b", "a|b c"), ("|", "a|b", "a,b"), ("\t", "a\tb", "a,b|c")],
)
def test_quoting_follows_the_delimiter(delimiter: str, quoted: str, bare: str) -> None:
    assert format_primitive(quoted, delimiter).startswith('"')
    assert format_primitive(bare, delimiter) == bare
    text = toon.encode({"v": [quoted, bare]}, delimiter=delimiter)
    assert toon.decode(text) == {"v": [quoted, bare]}


def test_object_values_quote_for_the_document_delimiter() -> None:
    assert toon.encode({"note": "a,b"}, delimiter="|") == "note: a,b"
    assert toon.encode({"note": "a|b"}, delimiter="|") == 'note: "a|b"'
    text = toon.encode({"x": [{"note": "a|b"}, 1]}, delimiter="|")
    assert text == 'x[2|]:\n  - note: "a|b"\n  - 1'


@pytest.mark.parametrize(
    ("key", "token"),
    [
        ("id", "id"),
        ("_private", "_private"),
        ("user.name", "user.name"),
        ("a1", "a1"),
        ("1a", '"1a"'),
        ("", '""'),
        ("full name", '"full name"'),
        ("a-b", '"a-b"'),
        ("#k", '"#k"'),
        ("é", '"é"'),
        ("a:b", '"a:b"'),
        ("tab\tkey", '"tab\\tkey"'),
        ("__proto__", "__proto__"),
    ],
)
def test_key_quoting(key: str, token: str) -> None:
    assert format_key(key) == token
    assert toon.encode({key: 1}) == f"{token}: 1"
    assert toon.decode(f"{token}: 1") == {key: 1}


@pytest.mark.parametrize(
    ("token", "text"),
    [
        ('"\\u00e9"', "é"),
        ('"\\u00E9"', "é"),
        ('"\\u0000"', "\x00"),
        ('"a\\\\b"', "a\\b"),
        ('"\\"q\\""', '"q"'),
        ('"tab\there"', "tab\there"),
        ('"🚀"', "🚀"),
    ],
)
def test_escapes_decode(token: str, text: str) -> None:
    assert toon.decode(token) == text


@pytest.mark.parametrize(
    ("token", "message"),
    [
        ('"\\x"', "invalid escape"),
        ('"\\u12"', "four hex digits"),
        ('"\\u12G4"', "four hex digits"),
        ('"\\ud83d\\ude80"', "surrogate"),
        ('"\\uDC00"', "surrogate"),
        ('"open', "unterminated"),
        ('"a"b', "after the closing quote"),
        ('"end\\"', "unterminated"),
    ],
)
def test_bad_strings_raise_in_both_modes(token: str, message: str) -> None:
    for strict in (True, False):
        assert message in fails(token, strict=strict).reason
        assert message in fails(f"k: {token}", strict=strict).reason
        assert message in fails(f"k[1]: {token}", strict=strict).reason


# ------------------------------------------------------------ §4 decoding tokens


@pytest.mark.parametrize(
    ("token", "value"),
    [
        ("0", 0),
        ("-0", 0),
        ("42", 42),
        ("-7", -7),
        ("1.5", 1.5),
        ("1.5000", 1.5),
        ("-0.0", 0.0),
        ("0.5", 0.5),
        ("1e3", 1000.0),
        ("-1E+03", -1000.0),
        ("2.5e-3", 0.0025),
        ("0e1", 0.0),
        ("true", True),
        ("false", False),
        ("null", None),
        ("05", "05"),
        ("-05", "-05"),
        ("00.5", "00.5"),
        ("+1", "+1"),
        (".5", ".5"),
        ("1.", "1."),
        ("1e", "1e"),
        ("1_000", "1_000"),
        ("0x1F", "0x1F"),
        ("Infinity", "Infinity"),
        ("NaN", "NaN"),
        ("-", "-"),
        ("١٢", "١٢"),
        ("1٢", "1٢"),
        ("TRUE", "TRUE"),
        ("", ""),
        ('""', ""),
        ('"42"', "42"),
    ],
)
def test_primitive_tokens(token: str, value: Any) -> None:
    assert same(parse_primitive(token), value)


def test_number_types() -> None:
    assert type(toon.decode("1")) is int
    assert type(toon.decode("1.0")) is float
    assert type(toon.decode("1e2")) is float
    assert math.copysign(1.0, toon.decode("-0.0")) == 1.0
    assert "out of the float range" in fails("n: 1e400").reason
    assert toon.decode("n: 1e-400") == {"n": 0.0}


def test_only_spaces_are_trimmed_from_tokens() -> None:
    assert toon.decode("k:   v  ") == {"k": "v"}
    assert toon.decode("k: \xa0v") == {"k": "\xa0v"}
    assert toon.decode("k:\tv") == {"k": "\tv"}
    assert toon.decode("a[3]:  x ,y,  ") == {"a": ["x", "y", ""]}


# ------------------------------------------------------------ §5 root forms


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("", {}),
        ("\n\n  \n", {}),
        ("# only a comment", {}),
        ("hello", "hello"),
        ("  \nhello\n\n", "hello"),
        ("hello world ", "hello world"),
        ("42", 42),
        ('"a:b"', "a:b"),
        ("[]", []),
        ("[2]", "[2]"),
        ("items[2]{a}", "items[2]{a}"),
        ("[0]:", []),
        ("[2]: a,b", ["a", "b"]),
        ("[2|]: a|b", ["a", "b"]),
        ("[1]{a}:\n  1", [{"a": 1}]),
        ("[2:]{v}:\n  x: 1\n  y: 2", {"x": {"v": 1}, "y": {"v": 2}}),
        ("k: v", {"k": "v"}),
        ("k[1]: v", {"k": ["v"]}),
    ],
)
def test_root_forms(text: str, value: Any) -> None:
    assert same(toon.decode(text), value)


def test_root_encodings() -> None:
    assert toon.encode({}) == ""
    assert toon.encode([]) == "[]"
    assert toon.encode([], delimiter="|") == "[]"
    assert toon.encode("a,b") == '"a,b"'
    assert toon.encode("a,b", delimiter="|") == "a,b"
    assert toon.encode(None) == "null"
    assert toon.encode([[]], delimiter="|") == "[1|]:\n  - [0|]:"
    assert toon.encode({"a": {"x": 1}, "b": {"x": 2}}) == "[2:]{x}:\n  a: 1\n  b: 2"


@pytest.mark.parametrize(
    "text",
    ["[]\nk: 1", "[1]: a\nk: 1", "[1]:\n  - a\nb", "[1]{a}:\n  1\nk: 1", "[1:]{a}:\n  k: 1\nz: 2"],
)
def test_trailing_content_after_a_root_array(text: str) -> None:
    assert "after the root" in fails(text).reason
    toon.decode(text, strict=False)


def test_indented_first_line() -> None:
    assert fails("  k: 1").line == 1
    assert toon.decode("  k: 1\n  j: 2", strict=False) == {"k": 1, "j": 2}


# ------------------------------------------------------------ §5.1 comments and §12 lines


def test_comments_are_dropped_everywhere() -> None:
    text = "# head\nusers[2]{id}:\n  # between rows\n  1\n        # odd indent\n  2\nk: v # not a comment"
    assert toon.decode(text) == {"users": [{"id": 1}, {"id": 2}], "k": "v # not a comment"}
    assert toon.decode('k: "#x"\n#x: 1') == {"k": "#x"}
    assert "tab" in fails("k: 1\n\t# tabbed").reason


def test_encoder_never_writes_comment_lines() -> None:
    text = toon.encode({"#": "#", "rows": [{"#": "#a"}, {"#": "b"}], "list": ["#", {"#x": 1}]})
    assert not any(line.lstrip(" ").startswith("#") for line in text.split("\n"))


def test_line_breaks_and_bom() -> None:
    assert toon.decode("a: 1\r\nb: 2\r\n") == {"a": 1, "b": 2}
    assert toon.decode("a: x\ry") == {"a": "x\ry"}
    assert toon.decode("\ufeffa: 1") == {"a": 1}
    assert toon.decode(b"\xef\xbb\xbfa: 1") == {"a": 1}


def test_tabs_are_never_indentation() -> None:
    assert "tab" in fails("a:\n\tb: 1").reason
    assert "tab" in fails("a:\n\tb: 1", strict=False).reason
    # Only U+0020 trims (section 12): a line of spaces and tabs is not blank
    # but tab indentation, an error in strict mode; non-strict reads it as blank.
    assert fails("a: 1\n \t \nb: 2").line == 2
    assert "tab" in fails("a: 1\n\t\nb: 2").reason
    assert toon.decode("a: 1\n \t \nb: 2", strict=False) == {"a": 1, "b": 2}
    assert toon.decode("a: 1\n   \nb: 2") == {"a": 1, "b": 2}


def test_indent_size_option() -> None:
    value = {"a": {"b": [{"c": 1, "d": [1, 2]}, 3]}}
    for size in (1, 3, 4, 8):
        text = toon.encode(value, indent_size=size)
        assert toon.decode(text, indent_size=size) == value
    assert toon.encode({"a": {"b": 1}}, indent_size=4) == "a:\n    b: 1"
    assert "multiple of 4" in fails("a:\n  b: 1", indent_size=4).reason
    assert toon.decode("a:\n   b: 1", strict=False) == {"a": {"b": 1}}


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("a[2]:\n  - x\n\n  - y", 3),
        ("a[2]{v}:\n  1\n\n  2", 3),
        ("a[2:]{v}:\n  x: 1\n  \n  y: 2", 3),
        ("a[1]:\n  - k: 1\n\n    j: 2", 3),
        ("a[2]:\n  - b[1]{v}:\n      1\n\n  - x", 4),
        ("a[1]:\n  - b:\n\n      c: 1", 3),
    ],
)
def test_blank_lines_inside_arrays(text: str, line: int) -> None:
    error = fails(text)
    assert error.line == line and "blank line" in error.reason
    toon.decode(text, strict=False)


def test_blank_lines_outside_arrays_are_ignored() -> None:
    assert toon.decode("a[1]:\n\n  - x\n\nb:\n\n  c: 1\n\n") == {"a": ["x"], "b": {"c": 1}}
    assert toon.decode("a[1]{v}:\n\n  1\n\nb: 2") == {"a": [{"v": 1}], "b": 2}


def test_encoder_whitespace_invariants() -> None:
    value = {"a": [{"b": " x "}, {"c": [1, [], {}]}], "d": {}, "e": [], "f": ""}
    text = toon.encode(value)
    assert not text.endswith("\n")
    assert all(line == line.rstrip(" ") for line in text.split("\n"))
    assert "\t" not in text and "\r" not in text


# ------------------------------------------------------------ §6 headers


@pytest.mark.parametrize(
    ("content", "key", "length", "delimiter", "fields", "keyed", "inline"),
    [
        ("k[3]: a,b,c", "k", 3, ",", None, False, "a,b,c"),
        ("[0]:", None, 0, ",", None, False, ""),
        ("k[2|]:", "k", 2, "|", None, False, ""),
        ("k[2\t]{a\tb}:", "k", 2, "\t", ("a", "b"), False, ""),
        ('"my key"[1]{"x y",z}:', "my key", 1, ",", ("x y", "z"), False, ""),
        ("k[2:]{a}:", "k", 2, ",", ("a",), True, ""),
        ("k[2:|]{a|b{c|d}}:", "k", 2, "|", ("a", ("b", ("c", "d"))), True, ""),
        ('"a:b"[2]: 1,2', "a:b", 2, ",", None, False, "1,2"),
        ("data.meta.items[2]{id}:", "data.meta.items", 2, ",", ("id",), False, ""),
        ('k[1]{"a{b}",c}:', "k", 1, ",", ("a{b}", "c"), False, ""),
    ],
)
def test_parse_header(
    content: str,
    key: str | None,
    length: int,
    delimiter: str,
    fields: Any,
    keyed: bool,
    inline: str,
) -> None:
    def spec(field: HeaderField) -> Any:
        if field.children is None:
            return field.name
        return (field.name, tuple(spec(child) for child in field.children))

    header = parse_header(content)
    assert header is not None
    assert (header.key, header.length, header.delimiter, header.keyed, header.inline) == (
        key,
        length,
        delimiter,
        keyed,
        inline,
    )
    got = None if header.fields is None else tuple(spec(field) for field in header.fields)
    assert got == fields


@pytest.mark.parametrize(
    "content",
    ["k: v", "k: a[1]: b", "foo [2]: x", "[2]", "k[2]{a}", "a:b[2]: x", '"k": [1]', "k[x: 1"],
)
def test_lines_that_are_not_headers(content: str) -> None:
    assert parse_header(content) is None
    assert parse_header(content, strict=False) is None


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("k[]: 1", "bracket"),
        ("k[01]: 1", "bracket"),
        ("k[-1]: 1", "bracket"),
        ("k[1.5]: 1", "bracket"),
        ("k[ 1]: 1", "bracket"),
        ("k[1,]: 1", "bracket"),
        ("k[2|:]{a}:", "bracket"),
        ("k[2:,]{a}:", "bracket"),
        ("k[1] : 1", "expected ':'"),
        ("k[1]x: 1", "expected ':'"),
        ("k[1] {a}:", "expected ':'"),
        ("k[1]{a} :", "expected ':'"),
        ("k[1]{}:", "empty field list"),
        ("k[1]{a,}:", "empty field name"),
        ("k[1]{,a}:", "empty field name"),
        ("k[1]{a{}}:", "empty field list"),
        ("k[1]{{a}}:", "empty field name"),
        ("k[1]{a{b}c}:", "after a nested field group"),
        ("k[1]{a:", "unmatched"),
        ("k[1|]{a,b}:", "different delimiter"),
        ("k[1]{a|b}:", "different delimiter"),
        ("k[1]{a,a}:", "duplicate field"),
        ("k[1]{a{x,x}}:", "duplicate field"),
        ("k[2:]:", "needs a field list"),
        ("k[1]{a}: 1", "no values after"),
    ],
)
def test_malformed_headers(content: str, message: str) -> None:
    with pytest.raises(TOONError) as info:
        parse_header(content)
    assert message in info.value.reason
    lenient = parse_header(content, strict=False)
    if message == "duplicate field":  # non-strict: allowed, rows resolve last-write-wins
        assert lenient is not None
    else:
        assert lenient is None


def test_malformed_headers_fall_through_in_non_strict_mode() -> None:
    assert toon.decode("k[01]: 1", strict=False) == {"k[01]": 1}
    assert toon.decode("k[1]{a,a}:\n  1,2", strict=False) == {"k": [{"a": 2}]}
    assert toon.decode("[2]: x\n", strict=False) == ["x"]
    assert toon.decode("a:\n  [2]: x,y", strict=False) == {"a": {"[2]": "x,y"}}


def test_format_header() -> None:
    fields = (HeaderField("id"), HeaderField("who", (HeaderField("first name"), HeaderField("n"))))
    assert format_header("rows", 2, fields=fields) == 'rows[2]{id,who{"first name",n}}:'
    assert (
        format_header(None, 2, delimiter="\t", fields=fields) == '[2\t]{id\twho{"first name"\tn}}:'
    )
    assert format_header("m", 3, fields=fields[:1], keyed=True, delimiter="|") == "m[3:|]{id}:"
    assert format_header("my key", 0) == '"my key"[0]:'
    header = parse_header(format_header("rows", 2, fields=fields, delimiter="|"))
    assert header is not None and header.fields == fields and header.delimiter == "|"


def test_row_layout() -> None:
    flat = RowLayout((HeaderField("a"), HeaderField("b")))
    assert (flat.width, flat.nesting, flat.names) == (2, 1, ("a", "b"))
    assert flat.build([1, 2]) == {"a": 1, "b": 2}
    nested = RowLayout(
        (
            HeaderField("a"),
            HeaderField("g", (HeaderField("x"), HeaderField("h", (HeaderField("y"),)))),
        )
    )
    assert (nested.width, nested.nesting, nested.names) == (3, 3, None)
    assert nested.build([1, 2, 3]) == {"a": 1, "g": {"x": 2, "h": {"y": 3}}}


# ------------------------------------------------------------ §8 objects


def test_objects() -> None:
    value = {"id": 1, "user": {"name": "Ada", "tags": ["a"], "empty": {}, "none": []}, "z": None}
    text = "id: 1\nuser:\n  name: Ada\n  tags[1]: a\n  empty:\n  none: []\nz: null"
    assert toon.encode(value) == text
    assert same(toon.decode(text), value)


def test_key_order_is_kept() -> None:
    value = {"b": 1, "a": 2, "c": {"z": 1, "y": 2}}
    assert list(toon.decode(toon.encode(value))) == ["b", "a", "c"]
    assert list(toon.decode(toon.encode(value))["c"]) == ["z", "y"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("foo-bar: 1", {"foo-bar": 1}),
        ("2key: x", {"2key": "x"}),
        ("a b: c", {"a b": "c"}),
        ("k: b:c", {"k": "b:c"}),
        ("k:v", {"k": "v"}),
        ('"k" : v', {"k": "v"}),
        ("k: -x", {"k": "-x"}),
        ("k: [1]", {"k": "[1]"}),
        ("k: [] ", {"k": []}),
        ("k: {}", {"k": "{}"}),
        ("- k: v", {"- k": "v"}),
        ('say"hi": x', {'say"hi"': "x"}),
        ("__proto__:\n  admin: true", {"__proto__": {"admin": True}}),
        ("k:\n  j:\nz: 1", {"k": {"j": {}}, "z": 1}),
    ],
)
def test_key_value_lines(text: str, value: Any) -> None:
    assert same(toon.decode(text), value)


def test_duplicate_keys() -> None:
    assert fails("a: 1\nb: 2\na: 3").line == 3
    assert fails("a: 1\na[1]: x").line == 2
    assert fails("m[2:]{v}:\n  k: 1\n  k: 2").row == 2
    assert toon.decode("a: 1\nb: 2\na: 3", strict=False) == {"a": 3, "b": 2}
    assert list(toon.decode("a: 1\nb: 2\na: 3", strict=False)) == ["a", "b"]


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("a:\n    b: 1", 2, "jumps"),
        ("a: 1\n  b: 2", 2, "indented"),
        ("a[1]:\n  - x\n    y: 1", 3, "indented"),
        ("a[1]:\n  - k: 1\n      j: 2", 3, "indented"),
        ("a[1]{v}:\n  1\n    2", 3, "indented"),
        ("a[1]{v}:\n    1", 2, "jumps"),
        ("a:\n  b", 2, "no ':'"),
        ("a\nb: 1", 1, "no ':'"),
        ("a[1]:\n  x", 2, "list item"),
        ('"unterminated: 1', 1, "unterminated"),
        ('"unterminated: 1\nk: 2', 1, "unterminated quoted key"),
        ('"k" x: 1', 1, "expected ':'"),
    ],
)
def test_structure_errors_name_the_line(text: str, line: int, message: str) -> None:
    error = fails(text)
    assert error.line == line
    assert message in error.reason
    assert str(error).startswith(f"line {line}: ")


def test_non_strict_skips_lines_that_belong_to_no_scope() -> None:
    assert toon.decode("a: 1\n  b: 2\nc: 3", strict=False) == {"a": 1, "c": 3}
    assert toon.decode("a:\n    b: 1", strict=False) == {"a": {"b": 1}}
    assert toon.decode("a[2]:\n  - x\n  junk\n  - y", strict=False) == {"a": ["x", "y"]}


# ------------------------------------------------------------ §9 arrays


def test_inline_arrays() -> None:
    assert toon.encode({"t": ["a", 1, True, None, ""]}) == 't[5]: a,1,true,null,""'
    assert toon.decode("t[3]: a,,c") == {"t": ["a", "", "c"]}
    assert toon.decode("t[1]: ,", strict=False) == {"t": ["", ""]}
    assert fails("t[2]: a").reason == "array declares 2 values but has 1"
    assert toon.decode("t[2]: a", strict=False) == {"t": ["a"]}
    assert toon.decode("t[0]:") == {"t": []}
    assert toon.decode("t[2|]: a,b|c") == {"t": ["a,b", "c"]}
    assert toon.decode('t[2]: "a,b",c') == {"t": ["a,b", "c"]}


def test_empty_arrays() -> None:
    assert toon.encode({"e": [], "n": [[], [1]]}) == "e: []\nn[2]:\n  - [0]:\n  - [1]: 1"
    assert toon.decode("e: []\nn[2]:\n  - []\n  - [0]:") == {"e": [], "n": [[], []]}
    assert toon.decode("e[0]:\nf: 1") == {"e": [], "f": 1}
    assert fails("e[0]:\n  - x").line == 1


def test_tabular_arrays() -> None:
    rows = [{"id": 1, "name": "Ada", "ok": True}, {"name": "Bob", "id": 2, "ok": None}]
    text = "rows[2]{id,name,ok}:\n  1,Ada,true\n  2,Bob,null"
    assert toon.encode({"rows": rows}) == text
    assert same(toon.decode(text), {"rows": [rows[0], {"id": 2, "name": "Bob", "ok": None}]})


@pytest.mark.parametrize(
    "rows",
    [
        [{"a": 1}, {"b": 1}],
        [{"a": 1}, {"a": 1, "b": 2}],
        [{"a": 1}, {}],
        [{}, {}],
        [{"a": [1]}, {"a": [2]}],
        [{"a": {"x": 1}}, {"a": None}],
        [{"a": {"x": 1}}, {"a": {"y": 1}}],
        [{"a": {}}, {"a": {}}],
        [{"a": 1}, 2],
    ],
)
def test_non_uniform_arrays_use_list_items(rows: list[Any]) -> None:
    text = toon.encode({"r": rows})
    assert text.startswith(f"r[{len(rows)}]:\n")
    assert toon.decode(text) == {"r": rows}


def test_nested_field_groups() -> None:
    rows = [
        {"id": 1, "who": {"name": "Ada", "geo": {"lat": 1.5, "lon": 2}}, "n": 3},
        {"n": 4, "id": 2, "who": {"geo": {"lon": 5, "lat": 6}, "name": "Bob"}},
    ]
    text = toon.encode({"rows": rows})
    assert text == "rows[2]{id,who{name,geo{lat,lon}},n}:\n  1,Ada,1.5,2,3\n  2,Bob,6,5,4"
    assert toon.decode(text) == {"rows": rows}
    decoded = toon.decode(text)["rows"][1]
    assert list(decoded) == ["id", "who", "n"]
    assert list(decoded["who"]["geo"]) == ["lat", "lon"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "t[2]{a,b}:\n  1,2\n  3,4\nx: 3,4",
            {"t": [{"a": 1, "b": 2}, {"a": 3, "b": 4}], "x": "3,4"},
        ),
        ('t[1]{a,b}:\n  "x:y",2', {"t": [{"a": "x:y", "b": 2}]}),
        ("t[1]{a,b}:\n  x,y:z", {"t": [{"a": "x", "b": "y:z"}]}),
        ("t[1|]{a|b}:\n  x,y|1", {"t": [{"a": "x,y", "b": 1}]}),
        ("t[1]{a}:\n  x y", {"t": [{"a": "x y"}]}),
    ],
)
def test_row_and_key_value_disambiguation(text: str, value: Any) -> None:
    assert toon.decode(text) == value


def test_colon_before_delimiter_ends_rows() -> None:
    assert fails("t[2]{a,b}:\n  1,2\n  k: 3,4").line == 1
    assert toon.decode("t[2]{a,b}:\n  1,2\n  k: 3,4", strict=False) == {"t": [{"a": 1, "b": 2}]}


def test_row_width() -> None:
    error = fails("t[2]{a,b}:\n  1,2\n  3")
    assert (error.line, error.section, error.row) == (3, "t", 2)
    assert toon.decode("t[2]{a,b}:\n  1\n  3,4,5", strict=False) == {
        "t": [{"a": 1, "b": None}, {"a": 3, "b": 4}]
    }


def test_arrays_of_arrays() -> None:
    value = {"m": [[1, 2], ["a", "b,c"], [], [{"x": 1}, [2]]]}
    text = toon.encode(value)
    assert (
        text
        == 'm[4]:\n  - [2]: 1,2\n  - [2]: a,"b,c"\n  - [0]:\n  - [2]:\n    - x: 1\n    - [1]: 2'
    )
    assert toon.decode(text) == value


def test_list_items() -> None:
    value = {
        "items": [1, "x", {}, {"a": 1, "b": {"c": 2}}, [3], {"t": [{"v": 1}, {"v": 2}], "z": 0}]
    }
    text = toon.encode(value)
    assert text == (
        "items[6]:\n  - 1\n  - x\n  -\n  - a: 1\n    b:\n      c: 2\n  - [1]: 3\n"
        "  - t[2]{v}:\n      1\n      2\n    z: 0"
    )
    assert toon.decode(text) == value


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ({"k": []}, "- k: []"),
        ({"k": [1, 2]}, "- k[2]: 1,2"),
        ({"k": [[1]]}, "- k[1]:\n      - [1]: 1"),
        ({"k": [{"a": 1}, {"b": 2}]}, "- k[2]:\n      - a: 1\n      - b: 2"),
        ({"k": {}}, "- k:"),
        ({"k": {"a": 1}}, "- k:\n      a: 1"),
        ({"k": {"a": {"x": 1}, "b": {"x": 2}}}, "- k[2:]{x}:\n      a: 1\n      b: 2"),
        ({"k": None, "j": 2}, "- k: null\n    j: 2"),
    ],
)
def test_first_field_of_a_list_item(value: Any, text: str) -> None:
    assert toon.encode([value, 0]) == f"[2]:\n  {text}\n  - 0"
    assert toon.decode(f"[2]:\n  {text}\n  - 0") == [value, 0]


def test_list_item_counts() -> None:
    assert fails("a[3]:\n  - x\n  - y").reason == "array declares 3 items but has 2"
    assert fails("a[1]:\n  - x\n  - y").line == 1
    assert toon.decode("a[1]:\n  - x\n  - y", strict=False) == {"a": ["x", "y"]}


def test_keyless_headers_in_wrong_places() -> None:
    assert "without a key" in fails("a:\n  [1]: x").reason
    assert "needs a key" in fails("a[1]:\n  - [1]{v}:\n      1").reason
    assert "needs a key" in fails("a[1]:\n  - [2:]{v}:\n      x: 1\n      y: 2").reason


# ------------------------------------------------------------ §9.5 keyed tables


def test_keyed_tables() -> None:
    value = {"servers": {"alpha": {"host": "a", "port": 1}, "beta": {"port": 2, "host": "b"}}}
    text = "servers[2:]{host,port}:\n  alpha: a,1\n  beta: b,2"
    assert toon.encode(value) == text
    assert toon.decode(text) == value
    assert toon.encode({"one": {"only": {"a": 1}}}) == "one:\n  only:\n    a: 1"


def test_keyed_entry_rows() -> None:
    assert toon.decode('m[2:]{v}:\n  "a b": 1\n  c:d: 2') == {
        "m": {"a b": {"v": 1}, "c": {"v": "d: 2"}}
    }
    assert toon.decode("m[1:|]{a|b}:\n  k: x,y|z") == {"m": {"k": {"a": "x,y", "b": "z"}}}
    assert toon.decode("m[0:]{v}:\nz: 1") == {"m": {}, "z": 1}
    assert "entry row" in fails("m[1:]{v}:\n  5").reason
    assert toon.decode("m[2:]{v}:\n  5\n  k: 1", strict=False) == {"m": {"k": {"v": 1}}}
    assert toon.decode("m[1:]{a,b}:\n  k:", strict=False) == {"m": {"k": {"a": None, "b": None}}}


# ------------------------------------------------------------ §11 delimiters


@pytest.mark.parametrize("delimiter", [",", "\t", "|", "comma", "tab", "pipe"])
def test_delimiter_option(delimiter: str) -> None:
    value = {"t": ["a,b", "c|d", "e\tf"], "r": [{"x": "1,2|3"}, {"x": "y"}], "o": "p,q|r"}
    text = toon.encode(value, delimiter=delimiter)
    assert toon.decode(text) == value


def test_delimiter_symbols_in_headers() -> None:
    assert toon.encode([1, 2], delimiter="\t") == "[2\t]: 1\t2"
    assert toon.encode({"r": [{"a": 1, "b": 2}]}, delimiter="|") == "r[1|]{a|b}:\n  1|2"
    assert toon.decode("a[1|]:\n  - b[2]: x,y") == {"a": [{"b": ["x", "y"]}]}


# ------------------------------------------------------------ options, input types, API


@pytest.mark.parametrize("bad", [";", " ", "", ",,", "semicolon"])
def test_bad_delimiter(bad: str) -> None:
    with pytest.raises(ValueError, match="delimiter"):
        toon.encode([1], delimiter=bad)


@pytest.mark.parametrize("bad", [0, -2, True, 2.0])
def test_bad_indent_size(bad: Any) -> None:
    with pytest.raises(ValueError, match="indent_size"):
        toon.encode([1], indent_size=bad)
    with pytest.raises(ValueError, match="indent_size"):
        toon.decode("a: 1", indent_size=bad)


def test_input_types() -> None:
    for data in ("k: é", b"k: \xc3\xa9", bytearray(b"k: \xc3\xa9"), memoryview(b"k: \xc3\xa9")):
        assert toon.decode(data) == {"k": "é"}
    with pytest.raises(TypeError):
        toon.decode(42)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b"a: 1\nb: \xff", 2),
        (b"a: \xc3", 1),
        (b"a: 1\n\n\xed\xa0\x80", 3),
        (b"\xc0\xaf", 1),
        (b"a: \xf4\x90\x80\x80", 1),
    ],
)
def test_invalid_utf8(data: bytes, line: int) -> None:
    error = fails(data)
    assert error.line == line and "UTF-8" in error.reason


def test_errors_are_value_errors_and_pickle() -> None:
    import pickle

    error = fails("a: 1\na: 2")
    assert isinstance(error, ValueError) and isinstance(error, ESONError)
    clone = pickle.loads(pickle.dumps(error))
    assert (clone.reason, clone.line) == (error.reason, error.line)


def test_try_decode() -> None:
    good = toon.try_decode("a: 1")
    assert good.ok and good.value == {"a": 1} and good.error is None
    bad = toon.try_decode("a: 1\na: 2")
    assert not bad.ok and bad.value is None and isinstance(bad.error, TOONError)


def test_wire_functions_match_the_public_api() -> None:
    value = {"a": [{"b": 1}, {"b": 2}]}
    assert encode_value(value, delimiter="|") == toon.encode(value, delimiter="|")
    assert decode_text(toon.encode(value)) == value


# ------------------------------------------------------------ reusable pieces


def test_primitive_formatter() -> None:
    cell = primitive_formatter("|")
    assert [cell(v) for v in ("a|b", "a,b", 1, 2.50, None, True)] == [
        '"a|b"',
        "a,b",
        "1",
        "2.5",
        "null",
        "true",
    ]
    assert cell([1]) is None and cell({}) is None and cell(b"x") is None
    with pytest.raises(TOONError):
        format_primitive([1])


@pytest.mark.parametrize(
    ("text", "delimiter", "cells"),
    [
        ("a,b,c", ",", ["a", "b", "c"]),
        (" a , b ", ",", ["a", "b"]),
        ("a,,", ",", ["a", "", ""]),
        ("", ",", [""]),
        ('"a,b",c', ",", ['"a,b"', "c"]),
        ('"a\\",b",c', ",", ['"a\\",b"', "c"]),
        ('x"a,b"y,c', ",", ['x"a,b"y', "c"]),
        ('"open,c', ",", ['"open,c']),
        ("a|b,c", "|", ["a", "b,c"]),
        ("a\tb", "\t", ["a", "b"]),
        ('"a\tb"\tc', "\t", ['"a\tb"', "c"]),
    ],
)
def test_split_cells(text: str, delimiter: str, cells: list[str]) -> None:
    assert split_cells(text, delimiter) == cells


@pytest.mark.parametrize(
    ("text", "char", "index"),
    [
        ("a:b", ":", 1),
        ('"a:b":c', ":", 5),
        ('"a\\":b":c', ":", 7),
        ('"a:b', ":", -1),
        ("ab", ":", -1),
    ],
)
def test_find_unquoted(text: str, char: str, index: int) -> None:
    assert find_unquoted(text, char) == index


def test_scan_lines() -> None:
    lines = scan_lines("a:\n  b: 1\r\n\n  # note\n\n  c: 2", 2, True)
    assert lines.depths == [0, 1, 1]
    assert lines.contents == ["a:", "b: 1", "c: 2"]
    assert lines.numbers == [1, 2, 6]
    assert lines.blank_before == [0, 0, 3]


@pytest.mark.parametrize(
    "tokens",
    [
        [],
        ["a", "b c", ""],
        ["1", "-2", "0", "-0"],
        ["1.5", "-0.0", "2e3", "1E-2"],
        ["true", "null", "false"],
        ["1", "1.5", "x", '"q"', "null", "", "05"],
        ["truex", "nulls", "-", "-x"],
        ["123456789012345678901234567890", "1"],
        ["1e308", "1e308"],
    ],
)
def test_parse_column_matches_parse_primitive(tokens: list[str]) -> None:
    assert same(parse_column(tokens), [parse_primitive(token) for token in tokens])


def test_parse_column_errors() -> None:
    with pytest.raises(TOONError, match="float range"):
        parse_column(["1.5", "1e400"])
    with pytest.raises(TOONError, match="unterminated"):
        parse_column(["a", '"b'])


@pytest.mark.parametrize(
    ("rows", "delimiter", "columns"),
    [
        (["1,a", "2,b"], ",", [["1", "2"], ["a", "b"]]),
        (["1 , a ", "2,b"], ",", [["1", "2"], ["a", "b"]]),
        (['1,"a,b"', "2,c"], ",", [["1", "2"], ['"a,b"', "c"]]),
        (['"x\\",y",1', "a,b"], ",", [['"x\\",y"', "a"], ["1", "b"]]),
        (["a|b,c"], "|", [["a"], ["b,c"]]),
        ([], ",", [[], []]),
    ],
)
def test_split_table(rows: list[str], delimiter: str, columns: list[list[str]]) -> None:
    assert split_table(rows, delimiter, 2) == columns


def test_split_table_width() -> None:
    with pytest.raises(TOONError) as info:
        split_table(["1,2", "3", "4,5"], ",", 2)
    assert info.value.row == 2 and info.value.line is None
    assert split_table(["1,2,3", "4"], ",", 2, pad=True) == [["1", "4"], ["2", "null"]]
    with pytest.raises(TOONError):
        split_table(['"a,b"'], ",", 2)


def test_nested_field_groups_cannot_amplify_memory() -> None:
    """A deep field group over many one-cell rows is refused at its header, not built."""
    deep = "a{" * 200 + "b" + "}" * 200
    rows = "  1\n" * 1000
    with pytest.raises(TOONError) as info:
        toon.decode(f"rows[1000]{{{deep}}}:\n{rows}")
    assert info.value.line == 1 and info.value.section == "rows"
    assert "objects per character" in info.value.reason
    keyed = "".join(f"  k{i}: 1\n" for i in range(1000))
    with pytest.raises(TOONError, match="objects per character"):
        toon.decode(f"rows[1000:]{{{deep}}}:\n{keyed}")
    # Real nested columns, and small tables of deep ones, are fine.
    nested = toon.decode("o[2]{id,customer{name,country}}:\n  1,Ada,UK\n  2,Bob,US")
    assert nested["o"][1] == {"id": 2, "customer": {"name": "Bob", "country": "US"}}
    assert len(toon.decode(f"rows[10]{{{deep}}}:\n" + "  1\n" * 10)["rows"]) == 10
