"""ESON 1.1 sections 1, 4, 5 and 8: document structure, names, reserved n, errors."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

import eson
from eson._internal.wire.eson_line_reader import scan_sections


def test_entry_kinds() -> None:
    value = {
        "from": "reviewer",
        "tags": ["a", 1, None, [1, 2]],
        "findings": [{"file": "a.py", "line": 3}, {"file": "b.py", "line": None}],
        "meta": {"complete": True},
        "empty": [],
        "nothing": {},
    }
    text = eson.encode(value)
    assert text == (
        "!eson/1\nfrom=reviewer\ntags[4]\na\n1\nnull\n[1,2]\n"
        "findings[2]{file,line}\na.py\t3\nb.py\tnull\nmeta{complete}\ntrue\n"
        "empty[0]\nnothing{}\n\n"
    )
    assert eson.decode(text) == value
    kinds = [(s.name, s.kind, s.line, s.count) for s in scan_sections(text)]
    assert kinds == [
        ("from", "scalar", 2, 1),
        ("tags", "array", 3, 4),
        ("findings", "records", 8, 2),
        ("meta", "record", 11, 1),
        ("empty", "array", 13, 0),
        ("nothing", "record", 14, 1),
    ]


def test_tuples_are_arrays_and_mixed_arrays_are_scalar_rows() -> None:
    assert eson.encode({"x": (1, 2)}) == "!eson/1\nx[2]\n1\n2\n"
    assert eson.encode({"x": [{"a": 1}, 2]}) == '!eson/1\nx[2]\n{"a":1}\n2\n'


def test_number_option_adds_the_reserved_column() -> None:
    value = {"rows": [{"x": "a"}, {"x": "b"}], "single": {"n": 5}, "xs": [1]}
    text = eson.encode(value, number=True)
    assert text == "!eson/1\nrows[2]{n,x}\n1\ta\n2\tb\nsingle{n}\n5\nxs[1]\n1\n"
    assert eson.decode(text)["rows"] == [{"n": 1, "x": "a"}, {"n": 2, "x": "b"}]


def test_number_option_refuses_an_existing_n_field() -> None:
    with pytest.raises(eson.EncodeError, match="already has a field n") as info:
        eson.encode({"rows": [{"x": 1, "n": 2}]}, number=True)
    assert info.value.section == "rows"


def test_first_field_n_must_be_the_row_number_on_encode() -> None:
    assert eson.encode({"r": [{"n": 1}, {"n": 2}]}) == "!eson/1\nr[2]{n}\n1\n2\n"
    with pytest.raises(eson.EncodeError, match="reserved first field n") as info:
        eson.encode({"r": [{"n": 1, "x": 0}, {"n": 7, "x": 0}]})
    assert (info.value.section, info.value.row, info.value.field) == ("r", 2, "n")
    # n elsewhere is ordinary data.
    assert eson.decode(eson.encode({"r": [{"x": 0, "n": 9}]})) == {"r": [{"x": 0, "n": 9}]}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("!eson/1\nr[2]{n,x}\n1\ta\n1\tb\n", "line 4: r row 2 (n): reserved n is '1', expected 2"),
        ("!eson/1\nr[1]{n}\ntrue\n", "line 3: r row 1 (n): reserved n is 'true', expected 1"),
        ("!eson/1\nr[1]{n}\nx\n", "reserved n is 'x'"),
        ('!eson/1\nr[1]{n}\n"1"\n', "reserved n is '\"1\"'"),
        ("!eson/1\nr[1]{n}\n[1\n", "line 3: r row 1 (n): malformed JSON"),
    ],
)
def test_reserved_n_is_checked_on_decode(text: str, message: str) -> None:
    with pytest.raises(eson.DecodeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        eson.decode(text)


def test_reserved_n_applies_only_to_a_first_field_of_record_arrays() -> None:
    assert eson.decode("!eson/1\nr{n,x}\n9\t1\n") == {"r": {"n": 9, "x": 1}}
    assert eson.decode("!eson/1\nr[1]{x,n}\n1\t9\n") == {"r": [{"x": 1, "n": 9}]}
    assert eson.decode("!eson/1\nn=4\n") == {"n": 4}
    # JavaScript compares numerically, so 1.0 is accepted as row 1.
    assert eson.decode("!eson/1\nr[1]{n}\n1.0\n") == {"r": [{"n": 1.0}]}


@pytest.mark.parametrize(
    "name", ["1abc", "has space", "café", "a=b", "", "a,b", "x[1]", "-a", ".a", "a\tb"]
)
def test_invalid_names_are_rejected_on_encode(name: str) -> None:
    with pytest.raises(eson.EncodeError, match="invalid name"):
        eson.encode({name: 1})
    with pytest.raises(eson.EncodeError, match="invalid field name") as info:
        eson.encode({"rows": [{name: 1}]})
    assert info.value.section == "rows"
    with pytest.raises(eson.EncodeError, match="invalid field name"):
        eson.encode({"one": {name: 1}})


@pytest.mark.parametrize("name", ["a", "_", "A9", "a.b-c_d", "from", "n", "__proto__"])
def test_valid_names(name: str) -> None:
    value = {name: 1, "r": [{"first": 0, name: 2}]}
    assert eson.decode(eson.encode(value)) == value


def test_non_string_keys_are_rejected() -> None:
    with pytest.raises(eson.EncodeError, match="invalid name 1"):
        eson.encode({1: 1})  # type: ignore[dict-item]


def test_root_must_be_a_mapping() -> None:
    with pytest.raises(eson.EncodeError, match="root must be a dict"):
        eson.encode([1, 2])  # type: ignore[arg-type]


def test_record_arrays_need_one_schema() -> None:
    with pytest.raises(eson.EncodeError, match="share one key set") as info:
        eson.encode({"rows": [{"a": 1}, {"a": 1}, {"b": 1}]})
    assert (info.value.section, info.value.row) == ("rows", 3)
    # The same key set in another order is one schema, written in the first row's order.
    assert eson.encode({"r": [{"a": 1, "b": 2}, {"b": 3, "a": 4}]}) == (
        "!eson/1\nr[2]{a,b}\n1\t2\n4\t3\n"
    )


def test_encode_errors_name_the_row_and_field() -> None:
    with pytest.raises(eson.EncodeError) as info:
        eson.encode({"rows": [{"a": 1.0}, {"a": float("nan")}]})
    assert (info.value.section, info.value.row, info.value.field) == ("rows", 2, "a")
    assert str(info.value).startswith("rows row 2 (a): non-finite")
    with pytest.raises(eson.EncodeError) as info:
        eson.encode({"xs": [1, object()]})
    assert (info.value.section, info.value.row) == ("xs", 2)
    with pytest.raises(eson.EncodeError) as info:
        eson.encode({"one": {"a": object()}})
    assert (info.value.section, info.value.field) == ("one", "a")


def test_empty_forms() -> None:
    assert eson.decode("!eson/1\n") == {}
    assert eson.encode({}) == "!eson/1\n"
    assert eson.decode("!eson/1\nr[0]{a,b}\n") == {"r": []}
    assert eson.decode("!eson/1\nxs[0]\n") == {"xs": []}
    assert eson.decode("!eson/1\nr[2]{}\n\n\n") == {"r": [{}, {}]}
    with pytest.raises(eson.DecodeError, match="expected an empty row"):
        eson.decode("!eson/1\nr{}\nx\n")
    # An empty line in a scalar array is the empty string, as in the reference.
    assert eson.decode("!eson/1\nxs[1]\n\n") == {"xs": [""]}


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("", 1, "expected the header !eson/1, got an empty document"),
        ("\n", 1, "got ''"),
        ("!eson/1 \na=1\n", 1, "got '!eson/1 '"),
        ("!ESON/1\n", 1, "expected the header"),
        ("!eson/2\n", 1, "unsupported version header '!eson/2'"),
        ("!eson/1.1\n", 1, "unsupported version header"),
        ("!eson/1\na=1\n\n", 3, "invalid entry ''"),
        ("!eson/1\na = 1\n", 2, "invalid entry 'a = 1'"),
        ("!eson/1\nrows[x]{a}\n", 2, "invalid entry"),
        ("!eson/1\nrows[1]{a}x\n1\n", 2, "invalid entry"),
        ("!eson/1\nrows{a,}\n1\t\n", 2, "invalid field name ''"),
        ("!eson/1\nrows{a b}\n1\n", 2, "invalid field name 'a b'"),
        ("!eson/1\nrows{a,a}\n1\t2\n", 2, "duplicate field 'a'"),
        ("!eson/1\na=1\na[0]\n", 3, "duplicate name 'a'"),
        ("!eson/1\nrows[3]{a}\n1\n2\n", 2, "declares 3 rows, but only 2 lines follow"),
        ("!eson/1\nrows[2]{a,b}\n1\t2\n1\n", 4, "rows row 2: expected 2 cells, got 1"),
        ("!eson/1\nrows[1]{a}\n1\t2\n", 3, "rows row 1: expected 1 cells, got 2"),
        ("!eson/1\nr{a,b}\n1\n", 3, "r row 1: expected 2 cells, got 1"),
        ("!eson/1\nxs[2]\n1\n[\n", 4, "xs row 2: malformed JSON"),
        ("!eson/1\nr[2]{a,b}\n1\t2\n3\t{\n", 4, "r row 2 (b): malformed JSON"),
    ],
)
def test_decode_errors_name_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(eson.DecodeError) as info:
        eson.decode(text)
    assert info.value.line == line
    assert message in str(info.value)
    assert str(info.value).startswith(f"line {line}: ")


def test_hostile_counts_are_rejected_without_allocating() -> None:
    with pytest.raises(eson.DecodeError, match="only 2 lines follow"):
        eson.decode("!eson/1\nrows[999999999999]{a}\n1\n2\n")
    with pytest.raises(eson.DecodeError, match="only 1 line follows"):
        eson.decode("!eson/1\nxs[" + "9" * 100_000 + "]\n1\n")
    # Leading zeros are allowed and do not count as magnitude.
    assert eson.decode("!eson/1\nxs[" + "0" * 50 + "1]\n7\n") == {"xs": [7]}


def test_line_endings_and_bom() -> None:
    assert eson.decode("!eson/1\r\na=1\r\nb=x") == {"a": 1, "b": "x"}
    assert eson.decode("\ufeff!eson/1\na=1\n") == {"a": 1}
    assert eson.decode(b"\xef\xbb\xbf!eson/1\na=1\n") == {"a": 1}
    # A lone CR is data, not a line ending.
    assert eson.decode('!eson/1\na="x\\ry"\nb=p\rq\n') == {"a": "x\ry", "b": "p\rq"}
    # Characters str.splitlines() would split on are text in ESON.
    text = "!eson/1\na=x\x85y\x0bz\x1c\nb=w\n"
    assert eson.decode(text) == {"a": "x\x85y\x0bz\x1c", "b": "w"}


def test_bytes_input() -> None:
    text = eson.encode({"s": "café", "r": [{"a": "ü"}]})
    for data in (text.encode(), bytearray(text.encode()), memoryview(text.encode())):
        assert eson.decode(data) == {"s": "café", "r": [{"a": "ü"}]}
    with pytest.raises(eson.DecodeError, match="invalid UTF-8") as info:
        eson.decode(b"!eson/1\na=1\nb=\xff\n")
    assert info.value.line == 3
    with pytest.raises(TypeError):
        eson.decode(42)  # type: ignore[arg-type]


def test_try_decode() -> None:
    good = eson.try_decode("!eson/1\na=1\n")
    assert good.ok and good.value == {"a": 1} and good.error is None
    bad = eson.try_decode("nope")
    assert not bad.ok and bad.value is None
    assert isinstance(bad.error, eson.DecodeError) and bad.error.line == 1


def test_errors_are_value_errors_and_pickle() -> None:
    with pytest.raises(ValueError):
        eson.decode("x")
    error = eson.DecodeError("bad", line=3, section="s", row=2, field="f")
    assert str(error) == "line 3: s row 2 (f): bad"
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is eson.DecodeError and str(again) == str(error)
    assert (again.line, again.section, again.row, again.field) == (3, "s", 2, "f")
    assert str(eson.EncodeError("why")) == "why"
    assert str(eson.ESONError("why", row=4)) == "row 4: why"


def test_validation_errors_pickle_with_their_details() -> None:
    error = eson.ValidationError(
        "expected int", line=4, section="rows", row=2, field="a",
        errors=[{"loc": ("rows", 1, "a"), "msg": "expected int"}],
    )
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is eson.ValidationError and str(again) == str(error)
    assert again.errors == error.errors


def test_a_list_of_dicts_with_different_keys_says_how_to_fix_it() -> None:
    """docs/eson.md quotes this error; the docs and the encoder must agree."""
    with pytest.raises(eson.EncodeError) as info:
        eson.encode({"tasks": [{"id": 1, "owner": "a"}, {"id": 2, "due": "x"}]})
    message = str(info.value)
    assert (info.value.section, info.value.row) == ("tasks", 2)
    assert "one array per key set" in message and "optional" in message
    docs = (Path(__file__).resolve().parent.parent / "docs" / "eson.md").read_text()
    assert message in docs.splitlines()
    wide = {f"k{i}": i for i in range(50)}
    with pytest.raises(eson.EncodeError) as info:
        eson.encode({"t": [wide, {**wide, "x" * 10000: 1}]})
    assert len(str(info.value)) < 1000 and "(51 in all)" in str(info.value)
