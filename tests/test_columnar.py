"""Columnar JSON (``eson.columnar``): the blocks, strict reading, and the typed path.

- the five reference documents come out byte for byte as long as the
  published table says (FORMATS.md: 417, 8158, 148, 836 and 3645 bytes);
- any JSON value round-trips (hypothesis), and the text is valid JSON that
  ``json.loads`` reads;
- a block that does not match its columns, and a plain object that would
  read back as a block, are errors, never a different value;
- typed encoding is the untyped encoding of the JSON-mode dump, typed
  decoding equals validating the untyped result, over the test zoo.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pydantic
import pytest
import test_typed_equivalence as zoo
from conftest import bench_datasets
from hypothesis import given, settings
from hypothesis import strategies as st

import eson
import eson.toon
from eson import columnar

keys = st.text(max_size=5)
leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
)


def _uniform(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[list[dict[str, Any]]]:
    return st.lists(keys, min_size=1, max_size=3, unique=True).flatmap(
        lambda names: st.lists(
            st.fixed_dictionaries(dict.fromkeys(names, inner)), min_size=0, max_size=4
        )
    )


values = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(keys.filter(lambda k: k not in ("#c", "#r")), inner, max_size=3)
    | _uniform(inner),
    max_leaves=25,
)


def _has_block_lookalike(value: Any) -> bool:
    if isinstance(value, dict):
        return set(value) == {"#c", "#r"} or any(map(_has_block_lookalike, value.values()))
    if isinstance(value, list):
        return any(map(_has_block_lookalike, value))
    return False


@settings(max_examples=300, deadline=None)
@given(values)
def test_round_trip(value: Any) -> None:
    text = columnar.encode(value)
    # Valid, compact JSON: what json.dumps writes for what json.loads reads.
    assert text == json.dumps(json.loads(text), separators=(",", ":"), ensure_ascii=False)
    assert columnar.decode(text) == value
    assert columnar.decode(text.encode()) == value


def test_reference_sizes() -> None:
    documents = bench_datasets()
    sizes = {name: len(columnar.encode(value).encode()) for name, value in documents.items()}
    assert sizes == {
        "small review": 417,
        "large review": 8158,
        "scalar envelope": 148,
        "nested context": 836,
        "tool results": 3645,
    }
    for value in documents.values():
        assert columnar.decode(columnar.encode(value)) == value


def test_block_rules() -> None:
    two = [{"id": 1, "ok": True}, {"id": 2, "ok": False}]
    assert columnar.encode(two) == '{"#c":["id","ok"],"#r":[[1,true],[2,false]]}'
    assert columnar.encode([{"id": 1}]) == '[{"id":1}]'  # one record: plain JSON
    assert columnar.encode([{"a": 1}, {"b": 1}]) == '[{"a":1},{"b":1}]'  # not uniform
    assert columnar.encode([{"a": 1, "b": 2}, {"b": 2, "a": 1}]) == '[{"a":1,"b":2},{"b":2,"a":1}]'
    assert columnar.encode([{}, {}]) == "[{},{}]"  # no columns: a block only adds bytes
    nested = {"x": [{"a": [{"b": 1}, {"b": 2}]}, {"a": []}]}
    assert columnar.encode(nested) == '{"x":{"#c":["a"],"#r":[[{"#c":["b"],"#r":[[1],[2]]}],[[]]]}}'
    assert columnar.encode({"s": "é\u2028", "big": 10**30}) == '{"s":"é\u2028","big":1000000000000000000000000000000}'
    assert columnar.decode("\ufeff[1]") == [1]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"a": float("nan")}, "at $.a: JSON numbers must be finite"),
        ({1: "x"}, "object key 1 is not a string"),
        ({"a": {1, 2}}, "at $.a: unsupported type set"),
        ({"x": {"#c": [], "#r": []}}, "at $.x: an object with exactly the keys '#c' and '#r'"),
        ([{"#c": 1, "#r": 2}, {"#c": 3, "#r": 4}], "would read back as a columnar block"),
    ],
)
def test_encode_errors(value: Any, message: str) -> None:
    with pytest.raises(eson.EncodeError, match=message.replace("$", r"\$").replace("[", r"\[")):
        columnar.encode(value)


def test_cycles_and_depth() -> None:
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(eson.EncodeError, match="cyclic"):
        columnar.encode(loop)
    deep: Any = 1
    for _ in range(600):
        deep = [deep]
    with pytest.raises(eson.EncodeError, match="deeper than 500"):
        columnar.encode(deep)
    with pytest.raises(eson.DecodeError, match="deeper than 500"):
        columnar.decode("[" * 600 + "]" * 600)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a":', "invalid JSON: Expecting value at column 6"),
        ('{"a":NaN}', "NaN is not valid JSON"),
        ('{"a":1,"a":2}', 'duplicate object key "a"'),
        ('{"x":{"#c":["a","b"],"#r":[[1,2],[3]]}}', "at $.x: columnar row 2 has 1 cells, '#c' names 2 columns"),
        ('{"#c":["a","a"],"#r":[]}', "names a column twice"),
        ('{"#c":"a","#r":[]}', "'#c' must be a list of strings"),
        ('{"#c":["a"],"#r":{}}', "'#r' must be a list of rows"),
        ('{"#c":["a"],"#r":[1]}', "columnar row 1 is not a list"),
        ('"\\ud800', "invalid JSON"),
    ],
)
def test_decode_errors(text: str, message: str) -> None:
    with pytest.raises(eson.DecodeError) as info:
        columnar.decode(text)
    assert message in str(info.value)
    assert "\n" not in str(info.value)
    assert not columnar.try_decode(text).ok


def test_blocks_with_extra_keys_are_plain_objects() -> None:
    # Only an object whose keys are exactly #c and #r is a block.
    text = '{"#c":["a"],"#r":[[1]],"more":1}'
    assert columnar.decode(text) == json.loads(text)


# -- typed ---------------------------------------------------------------------------------


class Row(eson.Record):
    severity: str
    line: int


class Review(eson.Message, number=True):
    kind: str
    rows: list[Row]


class MRow(msgspec.Struct):
    a: int
    b: str = "x"


class MDoc(msgspec.Struct):
    title: str
    rows: list[MRow] = []


def test_typed_round_trip_and_equivalence() -> None:
    review = Review(kind="k", rows=[Row(severity="high", line=1), Row(severity="low", line=2)])
    text = columnar.encode(review)
    assert text == columnar.encode(review.model_dump(mode="json", by_alias=True))
    assert text == '{"kind":"k","rows":{"#c":["severity","line"],"#r":[["high",1],["low",2]]}}'
    assert columnar.decode(text, type=Review) == review
    doc = MDoc("t", [MRow(1), MRow(2, "y")])
    assert columnar.decode(columnar.encode(doc), type=MDoc) == doc
    assert columnar.try_decode(columnar.encode(doc), type=MDoc).value == doc


def test_typed_validation_errors_are_placed() -> None:
    text = '{"kind":"k","rows":{"#c":["severity","line"],"#r":[["high",1],["low","two"]]}}'
    with pytest.raises(eson.ValidationError) as info:
        columnar.decode(text, type=Review)
    error = info.value
    assert (error.section, error.row, error.field) == ("rows", 2, "line")
    assert str(error) == 'rows row 2 (line): expected int, got "two"'
    with pytest.raises(eson.ValidationError, match=r'^rows row 1 \(a\): expected int, got "x"$'):
        columnar.decode('{"title":"t","rows":[{"a":"x"}]}', type=MDoc)
    result = columnar.try_decode('{"title":1}', type=MDoc)
    assert not result.ok and isinstance(result.error, eson.ValidationError)
    with pytest.raises(TypeError, match="not a model type"):
        columnar.decode("{}", type=int)


ZOO_CASES = [
    (zoo.PEnvelope, zoo.envelope_data(zoo.pydantic_cells)),
    (zoo.MEnvelope, zoo.envelope_data(zoo.msgspec_cells)),
]


@pytest.mark.parametrize(("cls", "strategy"), ZOO_CASES, ids=lambda item: getattr(item, "__name__", ""))
def test_typed_is_the_untyped_path(cls: type, strategy: st.SearchStrategy[Any]) -> None:
    @settings(max_examples=60, deadline=None)
    @given(strategy)
    def check(data: dict[str, Any]) -> None:
        instance = zoo.build(cls, data)
        plain = zoo.dump(instance)
        try:
            expected = columnar.encode(plain)
        except eson.EncodeError:
            with pytest.raises(eson.EncodeError):
                columnar.encode(instance)
            return
        assert columnar.encode(instance) == expected
        back = columnar.decode(expected, type=cls)
        if isinstance(instance, pydantic.BaseModel):
            assert back == cls.model_validate(columnar.decode(expected))  # type: ignore[attr-defined]
        else:
            assert back == msgspec.convert(columnar.decode(expected), cls)

    check()


@pytest.mark.parametrize(
    ("value", "path"),
    [
        ({"x": 10**5000}, "$.x"),
        ({"rows": [{"a": 1}, {"a": -(10**5000)}]}, "$.rows[1].a"),
        ({"a": [[10**5000]]}, "$.a[0][0]"),
        ([10**5000], "$[0]"),
    ],
)
def test_an_integer_past_the_digit_limit_is_an_encode_error(value: object, path: str) -> None:
    # json.dumps raises a bare ValueError there (Python's 4300-digit limit)
    with pytest.raises(eson.EncodeError, match="integer too large to write") as caught:
        eson.columnar.encode(value)
    assert f"at {path}:" in str(caught.value)
    assert eson.columnar.decode(eson.columnar.encode({"x": 10**4000})) == {"x": 10**4000}


@pytest.mark.parametrize(
    ("decode", "label"),
    [
        (eson.columnar.decode, "columnar JSON"),
        (eson.columnar.try_decode, "columnar JSON"),
        (eson.toon.decode, "TOON"),
        (eson.decode, "ESON"),
    ],
)
def test_input_of_another_type_is_named_by_its_format(decode: Any, label: str) -> None:
    with pytest.raises(TypeError, match=f"^{label} input must be str or bytes-like, not int$"):
        decode(123)
