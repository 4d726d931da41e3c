"""A surrogate pair held as two code points is refused, never written as one character.

A Python ``str`` may hold a high surrogate directly followed by a low one as
two separate code points (``"\\udbff\\udfff"``), as it may hold one lone
surrogate.  ESON writes surrogates as JSON escapes, and JSON reads the two
escapes ``\\udbff\\udfff`` back as the one character U+10FFFF: the value read
would differ from the value written.  Every ESON writer (untyped, Pydantic,
msgspec; accelerated and pure) refuses such a string with a located
``EncodeError``; a lone surrogate, or a low one before a high one, still
round-trips (fuzz seed 12012 case 8128: ``eson.choose`` picked a text that
read back otherwise).
"""

# No "from __future__ import annotations": msgspec resolves annotations at module scope.

import itertools
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from speedups_support import pure, require_accelerator

import eson
import eson.msgspec
from eson._internal.accelerator import native


class Row(eson.Record):
    a: str


class Doc(eson.Message):
    rows: list[Row]
    s: str


class MRow(eson.msgspec.Record):
    a: str


class MDoc(eson.msgspec.Message):
    rows: list[MRow]
    s: str


PAIR = "\udbff\udfff"
REASON = "the string holds U+DBFF U+DFFF, a surrogate pair as two code points"


def _untyped(value: Any) -> str:
    return eson.encode(value)


@pytest.mark.parametrize("accelerated", [True, False])
@pytest.mark.parametrize(
    ("value", "where"),
    [
        ({"a": PAIR}, "a: "),
        ({"a": "x" + PAIR + "y"}, "a: "),
        ({"r": [{"k": 1, "a": PAIR}]}, "r row 1 (a): "),
        ({"a": {"k": [PAIR]}}, "a (k): "),
        ({"a": [PAIR, "b"]}, "a"),
        ({"a": [[{PAIR: 1}]]}, "a"),
        ({"a": "\U0001f600" + PAIR}, "a: "),  # in a UCS-4 str too
    ],
)
def test_untyped_values_holding_a_split_pair_are_refused(
    value: dict[str, Any], where: str, accelerated: bool
) -> None:
    if accelerated:
        require_accelerator()
    with pytest.raises(eson.EncodeError) as info:
        if accelerated:
            _untyped(value)
        else:
            with pure():
                _untyped(value)
    assert REASON in str(info.value)
    assert str(info.value).startswith(where)


@pytest.mark.parametrize("accelerated", [True, False])
@pytest.mark.parametrize(
    ("model", "where"),
    [
        (Doc(rows=[Row(a="x" + PAIR)], s="ok"), "rows row 1 (a): "),
        (Doc(rows=[Row(a="ok")], s=PAIR), "s: "),
        (MDoc(rows=[MRow(a="x" + PAIR)], s="ok"), "rows row 1 (a): "),
        (MDoc(rows=[MRow(a="ok")], s=PAIR), "s: "),
    ],
    ids=["pydantic row", "pydantic scalar", "msgspec row", "msgspec scalar"],
)
def test_typed_models_holding_a_split_pair_are_refused_where_it_is(
    model: Any, where: str, accelerated: bool
) -> None:
    if accelerated:
        require_accelerator()
    with pytest.raises(eson.EncodeError) as info:
        if accelerated:
            model.to_eson()
        else:
            with pure():
                model.to_eson()
    assert str(info.value).startswith(where + REASON)


def test_the_accelerator_declines_a_split_pair_and_writes_the_rest() -> None:
    require_accelerator()
    assert native is not None
    assert native.quote(PAIR) is None
    assert native.encode_str("x" + PAIR) is None
    assert native.quote("\U0001f600" + PAIR) is None
    # a lone surrogate, or a low one before a high one, is written escaped
    assert native.quote("\udbff") == '"\\udbff"'
    assert native.quote("x\udfff\udbff") == '"x\\udfff\\udbff"'


@given(st.lists(st.sampled_from(["a", "\ud800", "\udbff", "\udc00", "\udfff", "\U0010ffff", "\t"]),
                max_size=6).map("".join))
def test_strings_of_surrogates_round_trip_or_are_refused(text: str) -> None:
    split = any(
        "\ud800" <= high <= "\udbff" and "\udc00" <= low <= "\udfff"
        for high, low in itertools.pairwise(text)
    )
    for typed in (False, True):
        for accelerated in (True, False) if native is not None else (False,):
            def write(typed: bool = typed) -> str:
                return Doc(rows=[Row(a=text)], s=text).to_eson() if typed else eson.encode({"s": text})

            try:
                if accelerated:
                    written = write()
                else:
                    with pure():
                        written = write()
            except eson.EncodeError as error:
                assert split, error
                continue
            assert not split, written
            back = Doc.from_eson(written) if typed else eson.decode(written)
            assert back == (Doc(rows=[Row(a=text)], s=text) if typed else {"s": text})
