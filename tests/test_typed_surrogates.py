"""Lone surrogates reaching typed cells: always the library's error, never a foreign one.

A lone surrogate (U+D800..U+DFFF) is a valid ``str`` code point but not valid
Unicode text: it cannot be UTF-8.  It reaches a typed field raw (in a ``str``
document) or as a JSON escape (``"\\ud800"``).  msgspec encodes strings it
converts to UTF-8 and so raised ``UnicodeEncodeError``, and the typed column
decoders hand cells to ``msgspec.json``; both must end as a located
``eson.ValidationError`` whose message is one encodable line, and
``try_decode`` must return it instead of raising.
"""

# No "from __future__ import annotations": msgspec resolves annotations at module scope.

import datetime
import uuid
from typing import Any

import msgspec
import pydantic
import pytest

import eson
import eson.toon

#: Field types whose values are parsed from strings, with a valid cell of each.
LEAVES: dict[str, tuple[Any, str]] = {
    "int": (int, "1"),
    "float": (float, "1.5"),
    "uuid": (uuid.UUID, "12345678-1234-5678-1234-567812345678"),
    "datetime": (datetime.datetime, "2020-01-02T03:04:05Z"),
    "bool": (bool, "true"),
    "bytes": (bytes, "AAAA"),
}


def _pydantic_types(leaf: Any) -> type:
    row = pydantic.create_model("Row", q=(leaf, ...))
    return pydantic.create_model("Doc", rows=(list[row], []), q=(leaf | None, None))  # type: ignore[valid-type]


def _msgspec_types(leaf: Any) -> type:
    row = msgspec.defstruct("Row", [("q", leaf)])
    return msgspec.defstruct("Doc", [("rows", list[row], []), ("q", leaf | None, None)])  # type: ignore[valid-type]


TYPES = [
    pytest.param(build(leaf), good, id=f"{flavour}-{name}")
    for name, (leaf, good) in LEAVES.items()
    for flavour, build in (("pydantic", _pydantic_types), ("msgspec", _msgspec_types))
]

# {good} is a valid cell for the field, so the error is the surrogate's.
ESON_TEXTS = {
    "raw in a record column": ("!eson/1\nrows[1]{{q}}\n1\ud800\n", 3, "rows", 1),
    "escaped in a record column": ('!eson/1\nrows[1]{{q}}\n"\\ud800"\n', 3, "rows", 1),
    "second row of a column": ('!eson/1\nrows[2]{{q}}\n{good}\n"2\\udfff"\n', 4, "rows", 2),
    "raw scalar": ("!eson/1\nq=1\ud800\n", 2, "q", None),
    "escaped scalar": ('!eson/1\nq="\\ud800"\n', 2, "q", None),
}
TOON_TEXTS = {
    "raw in a table": ("rows[1]{{q}}:\n  1\ud800", 2, "rows", 1),
    "raw scalar": ("q: 1\ud800", 1, "q", None),
    "raw in a list item": ("rows[2]:\n  - q: {good}\n  - q: 2\ud800", 3, "rows", 2),
}


def _check(error: eson.ESONError, line: int, section: str, row: int | None) -> None:
    assert isinstance(error, eson.ValidationError)
    assert (error.line, error.section, error.row) == (line, section, row)
    message = str(error)
    message.encode("utf-8")  # never raises
    assert "\n" not in message
    assert "\\ud800" in message or "\\udfff" in message


@pytest.mark.parametrize(("cls", "good"), TYPES)
@pytest.mark.parametrize("case", ESON_TEXTS)
def test_eson_surrogate_in_a_typed_cell(cls: type, good: str, case: str) -> None:
    template, line, section, row = ESON_TEXTS[case]
    text = template.format(good=good)
    with pytest.raises(eson.ValidationError) as info:
        eson.decode(text, type=cls)
    _check(info.value, line, section, row)
    result = eson.try_decode(text, type=cls)
    assert not result.ok and result.error is not None
    _check(result.error, line, section, row)
    with pytest.raises(eson.ValidationError):
        eson.Decoder(cls).decode(text)


@pytest.mark.parametrize(("cls", "good"), TYPES)
@pytest.mark.parametrize("case", TOON_TEXTS)
def test_toon_surrogate_in_a_typed_cell(cls: type, good: str, case: str) -> None:
    template, line, section, row = TOON_TEXTS[case]
    text = template.format(good=good)
    with pytest.raises(eson.ValidationError) as info:
        eson.toon.decode(text, type=cls)
    _check(info.value, line, section, row)
    result = eson.toon.try_decode(text, type=cls)
    assert not result.ok and result.error is not None
    _check(result.error, line, section, row)


@pytest.mark.parametrize("flavour", ["pydantic", "msgspec"])
def test_surrogates_stay_where_a_str_takes_them(flavour: str) -> None:
    """Both frameworks accept lone surrogates in ``str`` fields: so do the typed decoders."""
    cls = (_pydantic_types if flavour == "pydantic" else _msgspec_types)(str)
    text = '!eson/1\nrows[2]{q}\n1\ud800\n"\\udfff"\nq="\\ud800"\n'
    value = eson.decode(text, type=cls)
    assert [row.q for row in value.rows] == ["1\ud800", "\udfff"]
    assert value.q == "\ud800"
    assert eson.toon.decode("q: a\ud800", type=cls).q == "a\ud800"


def test_untyped_validation_of_the_same_text_fails_too() -> None:
    """The typed result equals validating the untyped one, or both fail: here both fail."""
    cls = _msgspec_types(float)
    plain = eson.decode("!eson/1\nq=1\ud800\n")
    with pytest.raises(UnicodeEncodeError):
        msgspec.convert(plain, cls)
    with pytest.raises(eson.ValidationError, match=r"line 2: q: expected float \| null"):
        eson.decode("!eson/1\nq=1\ud800\n", type=cls)


def test_pydantic_messages_with_surrogates_are_encodable() -> None:
    class Picky(pydantic.BaseModel):
        name: str

        @pydantic.field_validator("name")
        @classmethod
        def no_x(cls, value: str) -> str:
            raise ValueError(f"bad name {value}\nsecond line")

    with pytest.raises(eson.ValidationError) as info:
        eson.decode('!eson/1\nname="\\ud800"\n', type=Picky)
    message = str(info.value)
    message.encode("utf-8")
    assert "\n" not in message and "\\ud800" in message and "\\n" in message
    assert all("\n" not in str(entry["msg"]) for entry in info.value.errors)
    str(info.value.errors[0]["msg"]).encode("utf-8")


class _PTagged(eson.Record):
    tags: dict[str, int]
    a: int


class _PKeys(eson.Message):
    d: dict[str, str]
    m: dict[str, dict[str, int]]
    rows: list[_PTagged]


class _MTagged(eson.msgspec.Record):
    tags: dict[str, int]
    a: int


class _MKeys(eson.msgspec.Message):
    d: dict[str, str]
    m: dict[str, dict[str, int]]
    rows: list[_MTagged]


def _keyed_value(flavour: str, key_in_d: bool) -> Any:
    cls, row = (_PKeys, _PTagged) if flavour == "pydantic" else (_MKeys, _MTagged)
    if key_in_d:
        return cls(d={"k\ud800": "v"}, m={}, rows=[])
    return cls(d={"k": "v\ud800"}, m={"a": {"k\ud800": 1}}, rows=[row(tags={"t\udfff": 2}, a=1)])


@pytest.mark.parametrize("flavour", ["pydantic", "msgspec"])
def test_a_dict_key_with_a_surrogate_is_kept_as_values_are(flavour: str) -> None:
    """model_dump(mode="json") writes such a key as U+FFFD: the library gives it back."""
    value = _keyed_value(flavour, False)
    text = eson.encode(value)
    assert "\ufffd" not in text
    assert text == eson.encode(_keyed_value("msgspec", False))  # both flavours alike
    assert eson.decode(text, type=type(value)) == value
    columnar = eson.columnar.encode(value)
    assert "\ufffd" not in columnar
    assert columnar == eson.columnar.encode(_keyed_value("msgspec", False))
    assert eson.columnar.decode(columnar, type=type(value)) == value
    # where a key must be a name, the same located error in both flavours
    with pytest.raises(eson.EncodeError) as caught:
        eson.encode(_keyed_value(flavour, True))
    assert str(caught.value) == "d: invalid field name 'k\\ud800': names match [A-Za-z_][A-Za-z0-9_.-]*"
    assert eson.columnar.encode(_keyed_value(flavour, True)) == '{"d":{"k\ud800":"v"},"m":{},"rows":[]}'
