"""Property tests for the untyped TOON codec.

- Any JSON-model value round-trips through encode/decode, for every
  delimiter and indent size, and re-encoding the decoded value reproduces the
  text exactly (the encoder's output is canonical).
- Decoding anything (random text, random bytes, structure-shaped garbage,
  mutated valid documents) either succeeds or raises ``TOONError``: never
  another exception.  Whatever it accepts round-trips again.
"""

from __future__ import annotations

import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eson import toon
from eson._internal.wire.toon_quoting import parse_column, parse_primitive
from eson._internal.wire.toon_scanner import split_cells, split_table
from eson.errors import TOONError

SETTINGS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ------------------------------------------------------------ value strategies

TRICKY = [*list(' -:,|\t"\\[]{}#\n\r.e0123456789+'), "\x00", "\x1f", "\xa0", "é", "👋", "\u2028"]
tricky_text = st.text(alphabet=st.sampled_from(TRICKY), max_size=8)
special_strings = st.sampled_from(
    ["", "true", "false", "null", "42", "-3.14", "1e5", "05", "+1", "-", "#", "[]", "- x", " a"]
)
strings = st.one_of(st.text(max_size=10), tricky_text, special_strings)
keys = st.one_of(
    st.from_regex(r"[A-Za-z_][A-Za-z0-9_.]{0,6}", fullmatch=True), st.text(max_size=6), tricky_text
)
numbers = st.one_of(
    st.integers(min_value=-(2**64), max_value=2**64),
    st.integers(min_value=-(10**60), max_value=10**60),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 1e-7, 1e-6, 1e21, 1e20, 5e-324, 1.5, 100.0]),
)
primitives = st.one_of(st.none(), st.booleans(), numbers, strings)
cells = st.one_of(st.none(), st.booleans(), st.integers(-1000, 1000), st.floats(), strings)


@st.composite
def uniform_rows(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Rows sharing one key set, sometimes with a nested uniform column."""
    names = draw(st.lists(keys, min_size=1, max_size=4, unique=True))
    shape: dict[str, Any] = dict.fromkeys(names, cells)
    if draw(st.booleans()):
        inner = draw(st.lists(keys, min_size=1, max_size=3, unique=True))
        shape[draw(keys)] = st.fixed_dictionaries(dict.fromkeys(inner, cells))
    return draw(st.lists(st.fixed_dictionaries(shape), min_size=1, max_size=5))


@st.composite
def keyed_objects(draw: st.DrawFn) -> dict[str, Any]:
    rows = draw(uniform_rows())
    names = draw(st.lists(keys, min_size=len(rows), max_size=len(rows), unique=True))
    return dict(zip(names, rows))


def containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(keys, children, max_size=5),
        st.tuples(children, children),
    )


json_values = st.recursive(
    st.one_of(primitives, uniform_rows(), keyed_objects()), containers, max_leaves=25
)
delimiters = st.sampled_from([",", "\t", "|"])


def expected_value(value: Any) -> Any:
    """What decoding the encoding of ``value`` must give (up to number types)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, (list, tuple)):
        return [expected_value(item) for item in value]
    if isinstance(value, dict):
        return {key: expected_value(item) for key, item in value.items()}
    return value


def model_equal(left: Any, right: Any) -> bool:
    """JSON-model equality: numbers by value, bool apart, object key order ignored."""
    if isinstance(left, bool) or isinstance(right, bool):
        return type(left) is type(right) and left == right
    if isinstance(left, (int, float)) and isinstance(right, (int, float)):
        return left == right
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(model_equal(left[k], right[k]) for k in left)
    if isinstance(left, list):
        return len(left) == len(right) and all(map(model_equal, left, right))
    return bool(left == right)


# ------------------------------------------------------------ round trips


@SETTINGS
@given(value=json_values, delimiter=delimiters, indent=st.integers(min_value=1, max_value=4))
def test_round_trip(value: Any, delimiter: str, indent: int) -> None:
    text = toon.encode(value, delimiter=delimiter, indent_size=indent)
    back = toon.decode(text, indent_size=indent)
    assert model_equal(back, expected_value(value))
    assert toon.encode(back, delimiter=delimiter, indent_size=indent) == text
    assert model_equal(toon.decode(text.encode("utf-8"), indent_size=indent), back)
    assert model_equal(toon.decode(text, strict=False, indent_size=indent), back)


@SETTINGS
@given(rows=uniform_rows(), delimiter=delimiters)
def test_uniform_rows_become_a_table(rows: list[dict[str, Any]], delimiter: str) -> None:
    text = toon.encode({"rows": rows}, delimiter=delimiter)
    assert text.split("\n", 1)[0].endswith("}:")
    assert model_equal(toon.decode(text), {"rows": expected_value(rows)})


@SETTINGS
@given(value=keyed_objects(), delimiter=delimiters)
def test_uniform_objects_become_a_keyed_table(value: dict[str, Any], delimiter: str) -> None:
    text = toon.encode({"m": value}, delimiter=delimiter)
    if len(value) >= 2:
        assert text.startswith(f"m[{len(value)}:")
    assert model_equal(toon.decode(text), {"m": expected_value(value)})


# ------------------------------------------------------------ hostile input


def decode_or_error(data: str | bytes, strict: bool) -> None:
    """Decode; if that succeeds, the value must survive another round trip."""
    try:
        value = toon.decode(data, strict=strict)
    except TOONError as error:
        assert error.line is None or error.line >= 1
        return
    assert model_equal(toon.decode(toon.encode(value)), value)


@FUZZ
@given(text=st.text(max_size=120), strict=st.booleans())
def test_random_text(text: str, strict: bool) -> None:
    decode_or_error(text, strict)


@FUZZ
@given(text=st.lists(st.sampled_from([*TRICKY, "  ", "- ", ": "]), max_size=80).map("".join))
def test_random_structural_text(text: str) -> None:
    decode_or_error(text, True)
    decode_or_error(text, False)


@FUZZ
@given(data=st.binary(max_size=120), strict=st.booleans())
def test_random_bytes(data: bytes, strict: bool) -> None:
    decode_or_error(data, strict)


line_content = st.one_of(
    st.sampled_from(
        ["- ", "-", "k:", "k: v", "- k:", "- k: 1", "[]", "- []", "x", "1,2", "a: 1,2", "k: []"]
    ),
    st.builds(
        lambda key, count, mark, fields, tail: f"{key}[{count}{mark}]{fields}:{tail}",
        st.sampled_from(["", "k", '"q k"', "- ", "- k"]),
        st.sampled_from(["0", "1", "2", "3", "01", "", "x", "99999999999999999999"]),
        st.sampled_from(["", ":", "|", "\t", ":|", "|:"]),
        st.sampled_from(["", "{a}", "{a,b}", "{a|b}", "{a{b,c}}", "{}", "{a,a}", "{a{"]),
        st.sampled_from(["", " 1", " 1,2", " a|b", " ,", " []"]),
    ),
    tricky_text,
)
documents = st.lists(
    st.tuples(st.integers(min_value=0, max_value=6), line_content), max_size=12
).map(lambda lines: "\n".join(" " * indent + content for indent, content in lines))


@FUZZ
@given(text=documents, strict=st.booleans())
def test_structure_shaped_garbage(text: str, strict: bool) -> None:
    decode_or_error(text, strict)


@st.composite
def mutated_documents(draw: st.DrawFn) -> str:
    text = toon.encode(draw(json_values), delimiter=draw(delimiters))
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        lines = text.split("\n")
        row = draw(st.integers(min_value=0, max_value=len(lines) - 1))
        edit = draw(st.sampled_from(["insert", "delete", "dup", "drop", "indent", "dedent"]))
        line = lines[row]
        if edit == "insert":
            at = draw(st.integers(min_value=0, max_value=len(line)))
            lines[row] = (
                line[:at] + draw(st.sampled_from([*TRICKY, "  ", "[2]", "{a}"])) + line[at:]
            )
        elif edit == "delete" and line:
            at = draw(st.integers(min_value=0, max_value=len(line) - 1))
            lines[row] = line[:at] + line[at + 1 :]
        elif edit == "dup":
            lines.insert(row, line)
        elif edit == "drop" and len(lines) > 1:
            del lines[row]
        elif edit == "indent":
            lines[row] = "  " + line
        elif edit == "dedent":
            lines[row] = line[2:] if line.startswith("  ") else line[1:]
        text = "\n".join(lines)
    return text


@FUZZ
@given(text=mutated_documents(), strict=st.booleans())
def test_mutated_documents(text: str, strict: bool) -> None:
    decode_or_error(text, strict)


# ------------------------------------------------------------ helper equivalences

tokens = st.one_of(
    st.sampled_from(["", "0", "-0", "12", "-7", "05", "1.5", "-0.0", "1e3", "1E+400", "true"]),
    st.sampled_from(["null", "false", "x", "a b", '"q"', '"a\\"b"', '"open', "-", "1.", ".5"]),
    st.from_regex(r"-?[0-9]{1,25}(\.[0-9]{1,5})?([eE][+-]?[0-9]{1,4})?", fullmatch=True),
    st.text(alphabet=st.sampled_from(TRICKY), max_size=5).filter(lambda t: "\n" not in t),
)


def outcome(function: Any, argument: Any) -> Any:
    try:
        return ("ok", function(argument))
    except TOONError as error:
        return ("error", error.reason)


@FUZZ
@given(column=st.lists(tokens.map(lambda t: t.strip(" ")), max_size=8))
def test_parse_column_is_parse_primitive_per_token(column: list[str]) -> None:
    fast = outcome(parse_column, column)
    slow = outcome(lambda cells: [parse_primitive(cell) for cell in cells], column)
    assert fast[0] == slow[0]
    if fast[0] == "ok":
        assert [type(v) for v in fast[1]] == [type(v) for v in slow[1]]
        assert fast[1] == slow[1]


@FUZZ
@given(
    rows=st.lists(st.text(alphabet=st.sampled_from(list('ab ,|"\\')), max_size=10), max_size=6),
    delimiter=st.sampled_from([",", "|"]),
    width=st.integers(min_value=1, max_value=3),
)
def test_split_table_is_split_cells_per_row(rows: list[str], delimiter: str, width: int) -> None:
    expected = [split_cells(row, delimiter) for row in rows]
    if all(len(cells) == width for cells in expected):
        columns = split_table(rows, delimiter, width)
        assert [list(row) for row in zip(*columns)] == expected or not rows
    else:
        try:
            split_table(rows, delimiter, width)
        except TOONError as error:
            assert error.row is not None
            assert len(expected[error.row - 1]) != width
        else:
            raise AssertionError("a row of the wrong width was accepted")
