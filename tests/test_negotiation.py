"""Wire negotiation: accepted formats (W8) and payload detection, extended to TOON."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eson
from eson import columnar, toon
from eson.agent.negotiation import accepted_formats, decode_as, detect


def test_accepted_formats() -> None:
    assert accepted_formats(["eson/1", "columnar", "json"]) == ("eson/1", "columnar", "json")
    assert accepted_formats("eson/1, JSON toon") == ("eson/1", "json", "toon")
    assert accepted_formats(["eson", "eson/1", "ESON/1"]) == ("eson/1",)
    assert accepted_formats(["eson/2", "yaml", ""]) == ()
    assert accepted_formats([]) == accepted_formats(None) == accepted_formats("") == ()
    with pytest.raises(TypeError, match="capability tokens are str"):
        accepted_formats([1])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("!eson/1\nkind=review\n", "eson/1"),
        ("!eson/1\nrows[3]{a}\n1\n", "eson/1"),  # claims ESON; decoding then rejects it
        ("\ufeff!eson/1\na=1\n", "eson/1"),
        (b"!eson/1\na=1\n", "eson/1"),
        ('{"a":1}', "json"),
        ("  [1, 2]\n", "json"),
        ("42", "json"),
        ('{"a":{"#c":["x"],"#r":[[1],[2]]}}', "columnar"),
        ('[{"#c":["x","y"],"#r":[[1,2]]}]', "columnar"),
        ('{"a":{"#c":["x"],"#r":[[1,2]]}}', "json"),  # rows do not match #c: not a block
        ("kind: review\nrows[2]{a,b}:\n  1,x\n  2,y", "toon"),
        ("rows[3]{a}:\n  1\n  2", "toon"),  # damaged count: still TOON, then rejected
        ("tags[2]: a,b", "toon"),
        ("[2]: 1,2", "toon"),
        ("Note: done", "toon"),  # one key: value line is a TOON document
        ('a:\n  "\ud800": 1\nb: 2\n', "toon"),  # a key no encoder writes (found by the fuzzer)
        ("Here are the results: all good", "prose"),
        ("Sure! Here is the review.\n\nfindings: 3", "prose"),
        ("I found 3 issues:\n- one\n- two", "prose"),
        ("hello", "prose"),
        ("", "prose"),
        ("   \n", "prose"),
        (b"\xff\xfe", "prose"),
    ],
)
def test_detect(text: str | bytes, kind: str) -> None:
    assert detect(text) == kind


def test_detect_rejects_other_types() -> None:
    with pytest.raises(TypeError, match="detect reads str or bytes"):
        detect(1)  # type: ignore[arg-type]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=10,
)
objects = st.dictionaries(st.from_regex(r"[a-z][a-z0-9_]{0,5}", fullmatch=True), json_values, min_size=1, max_size=4)


@settings(max_examples=150, deadline=None)
@given(objects)
def test_every_format_detects_as_itself(value: dict[str, Any]) -> None:
    with contextlib.suppress(eson.EncodeError):  # a nested key ESON cannot name
        assert detect(eson.encode(value)) == "eson/1"
    assert detect(json.dumps(value)) in ("json", "columnar")
    text = columnar.encode(value)
    assert detect(text) == ("json" if text == json.dumps(value, separators=(",", ":"), ensure_ascii=False) else "columnar")
    assert detect(toon.encode(value)) == "toon"


class Row(eson.Record):
    a: int


class Doc(eson.Message):
    rows: list[Row]


def test_decode_as() -> None:
    doc = Doc(rows=[Row(a=1), Row(a=2)])
    for text in (doc.to_eson(), doc.to_toon(), columnar.encode(doc), doc.model_dump_json()):
        assert decode_as(text, Doc) == doc
    with pytest.raises(eson.DecodeError, match="not an ESON, TOON or JSON payload"):
        decode_as("hello there", Doc)
    with pytest.raises(eson.DecodeError, match="the payload is toon, which is not among"):
        decode_as(doc.to_toon(), Doc, formats=("eson/1", "json"))
    with pytest.raises(eson.DecodeError, match="the payload is columnar"):
        decode_as(columnar.encode(doc), Doc, formats=("json",))
    assert decode_as(doc.model_dump_json(), Doc, formats=("columnar",)) == doc
    with pytest.raises(eson.DecodeError, match="declares 3"):
        decode_as("!eson/1\nrows[3]{a}\n1\n", Doc)
    with pytest.raises(eson.TOONError):
        decode_as("rows[3]{a}:\n  1\n  2", Doc)
    with pytest.raises(eson.ValidationError):
        decode_as('{"rows":[{"a":"x"}]}', Doc)
