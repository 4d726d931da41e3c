"""The front doors of every format are one implementation: ``decode``, ``try_decode``, ``Decoder``.

:mod:`eson`, :mod:`eson.toon` and :mod:`eson.columnar` each declare their
keywords over one reader per format (``eson._internal.api.Front``); these
tests hold the doors to the same behaviour, format by format.
"""

from __future__ import annotations

import pickle
from typing import Any

import msgspec
import pydantic
import pytest

import eson
from eson import columnar, toon
from eson._internal.api import FrontDecoder


class Hit(msgspec.Struct):
    id: int
    title: str


class Page(msgspec.Struct):
    query: str
    hits: list[Hit]


class PHit(pydantic.BaseModel):
    id: int
    title: str

    @pydantic.field_validator("title")
    @classmethod
    def _loud(cls, value: str, info: pydantic.ValidationInfo) -> str:
        if info.context and info.context.get("loud"):
            return value.upper()
        return value


class PPage(pydantic.BaseModel):
    query: str
    hits: list[PHit]


PAGE = Page("q", [Hit(1, "a"), Hit(2, "b")])
MODULES = {"eson": eson, "toon": toon, "columnar": columnar}


@pytest.fixture(params=sorted(MODULES))
def door(request: pytest.FixtureRequest) -> Any:
    return MODULES[request.param]


def test_every_decoder_is_the_one_front_decoder(door: Any) -> None:
    assert issubclass(door.Decoder, FrontDecoder)
    assert "decode" not in vars(door.Decoder)  # written once, in FrontDecoder


def test_round_trip_through_every_door(door: Any) -> None:
    text = door.encode(PAGE)
    assert door.decode(text, type=Page) == PAGE
    assert door.Decoder(Page).decode(text) == PAGE
    assert door.Encoder().encode(PAGE) == text
    result = door.try_decode(text, type=Page)
    assert result.ok and result.value == PAGE
    plain = door.decode(text)
    assert plain == msgspec.to_builtins(PAGE)
    assert door.Decoder().decode(text) == plain
    assert door.try_decode(text).value == plain


def test_bad_text_is_an_err_and_a_bad_type_raises(door: Any) -> None:
    result = door.try_decode("query: [", type=Page)
    assert not result.ok
    assert isinstance(result.error, eson.ESONError)
    with pytest.raises(type(result.error)):
        door.decode("query: [", type=Page)
    with pytest.raises(TypeError):
        door.try_decode("", type=int)
    with pytest.raises(TypeError):
        door.Decoder(int)


def test_validation_options_reach_every_door(door: Any) -> None:
    page = PPage(query="q", hits=[PHit(id=1, title="a"), PHit(id=2, title="b")])
    text = door.encode(page)
    loud = door.decode(text, type=PPage, context={"loud": True})
    assert [hit.title for hit in loud.hits] == ["A", "B"]
    decoder = door.Decoder(PPage, context={"loud": True})
    assert decoder.decode(text) == loud
    assert door.try_decode(text, type=PPage, context={"loud": True}).value == loud
    with pytest.raises(TypeError, match="validation_strict= and context="):
        door.decode(text, context={"loud": True})
    with pytest.raises(TypeError, match="validation_strict= and context="):
        door.Decoder(validation_strict=True)
    with pytest.raises(TypeError, match="context"):
        door.Decoder(Page, context={"loud": True})  # msgspec validation takes none
    strict_page = door.decode(text, type=PPage, validation_strict=True)
    assert strict_page == page


def test_decoder_repr_names_its_format() -> None:
    assert repr(eson.Decoder(Page)) == "Decoder(Page)"
    assert repr(toon.Decoder()) == "toon.Decoder()"
    assert repr(columnar.Decoder(Page)) == "columnar.Decoder(Page)"


def test_decoder_state_is_slotted(door: Any) -> None:
    decoder = door.Decoder(Page)
    with pytest.raises(AttributeError):
        decoder.extra = 1
    assert decoder.type is Page and decoder.strict is True


def test_columnar_names_its_format_for_a_wrong_input() -> None:
    for call in (lambda: columnar.decode(123), lambda: columnar.decode(123, type=Page)):  # type: ignore[call-overload]
        with pytest.raises(TypeError, match="columnar JSON"):
            call()


def test_try_decode_takes_partial_as_decode_does() -> None:
    cut = "!eson/1\nquery=q\nhits[3]{id,title}\n1\ta\n2\tb\n"
    repairs: list[eson.Repair] = []
    result = eson.try_decode(cut, type=Page, strict=False, partial=True, repairs=repairs)
    assert result.ok and result.value == PAGE
    assert [repair.kind for repair in result.repairs] == ["rows-missing"]
    assert list(result.repairs) == repairs
    assert not eson.try_decode(cut, type=Page, strict=False).ok
    with pytest.raises(ValueError, match="partial=True"):
        eson.try_decode(cut, partial=True)
    assert eson.decode(cut, strict=False, partial=True) == eson.try_decode(
        cut, strict=False, partial=True
    ).value


def test_options_do_not_cross_formats() -> None:
    with pytest.raises(ValueError, match="TOON has no such reading"):
        toon.Decoder(options=eson.ReadOptions(mode="lenient", partial=True))
    with pytest.raises(ValueError, match="TOON option"):
        eson.Decoder(options=eson.ReadOptions(indent_size=4))


def test_toon_decoder_options_survive_pickling_and_strict_false_is_lax() -> None:
    options = toon.Decoder(Page, strict=False).options
    assert pickle.loads(pickle.dumps(options)) == options
    assert options.mode == "lax"
