"""``validation_strict=`` and ``context=``: the frameworks' own validation options.

Typed decoding validates with the framework, so it takes the framework's
options as ``model_validate`` / ``msgspec.convert`` do: ``validation_strict``
(Pydantic ``strict=``, msgspec ``strict=``) and ``context`` (Pydantic only).
``strict`` itself is the wire option (TOON's strict mode), hence the name.
A typed decode with options equals validating the untyped result with them.
"""

# No "from __future__ import annotations": msgspec resolves annotations at module scope.

from typing import Any

import msgspec
import pydantic
import pytest

import eson
import eson.msgspec as em
import eson.toon

ESON_TEXT = '!eson/1\ncount="5"\nrows[1]{v}\n"7"\n'
TOON_TEXT = 'count: "5"\nrows[1]{v}:\n  "7"'


class PRow(eson.Record):
    v: int


class PDoc(eson.Message):
    count: int
    rows: list[PRow]

    @pydantic.field_validator("count")
    @classmethod
    def scaled(cls, value: int, info: pydantic.ValidationInfo) -> int:
        factor = (info.context or {}).get("factor", 1)
        return value * factor


class MRow(em.Record):
    v: int


class MDoc(em.Message):
    count: int
    rows: list[MRow]


class PlainStruct(msgspec.Struct):
    count: int
    rows: list[MRow]


def _decoders(cls: type) -> list[Any]:
    """Every way to decode typed text, each taking the validation options."""
    calls = [
        lambda text, **options: eson.decode(text, type=cls, **options),
        lambda text, **options: eson.Decoder(cls, **options).decode(text),
        lambda text, **options: _unwrap(eson.try_decode(text, type=cls, **options)),
    ]
    if hasattr(cls, "from_eson"):
        calls.append(lambda text, **options: cls.from_eson(text, **options))
    calls += _reply_decoders(cls, "eson")
    return calls


def _reply_decoders(cls: type, fmt: str) -> list[Any]:
    """The agent layer's readers (issue 9) take the same options."""
    calls = [
        lambda text, **options: eson.parse_reply(text, cls, formats=(fmt,), **options),
        _stream_call(cls, fmt, True),
        _stream_call(cls, fmt, False),
    ]
    if hasattr(cls, "from_reply"):
        calls.append(lambda text, **options: cls.from_reply(text, formats=(fmt,), **options))
    return calls


def _stream_call(cls: type, fmt: str, strict: bool) -> Any:
    """A StreamDecoder run (lenient: the document after a line of prose).

    A stream validates each row as it arrives, so a bad row fails before
    the message is validated as a whole: its error lists that row alone.
    """

    def decode(text: str, **options: Any) -> Any:
        if not strict:
            text = "Here it is:\n\n" + text
        decoder = eson.StreamDecoder(cls, format=fmt, strict=strict, **options)
        for start in range(0, len(text), 5):
            decoder.feed(text[start : start + 5])
        return decoder.close()

    decode.streamed = True  # type: ignore[attr-defined]
    return decode


def _toon_decoders(cls: type) -> list[Any]:
    calls = [
        lambda text, **options: eson.toon.decode(text, type=cls, **options),
        lambda text, **options: eson.toon.Decoder(cls, **options).decode(text),
        lambda text, **options: _unwrap(eson.toon.try_decode(text, type=cls, **options)),
    ]
    if hasattr(cls, "from_toon"):
        calls.append(lambda text, **options: cls.from_toon(text, **options))
    calls += _reply_decoders(cls, "toon")
    return calls


def _unwrap(result: Any) -> Any:
    if not result:
        raise result.error
    return result.value


@pytest.mark.parametrize(("text", "decoders"), [(ESON_TEXT, _decoders), (TOON_TEXT, _toon_decoders)])
def test_pydantic_strict_and_context(text: str, decoders: Any) -> None:
    untyped = eson.decode(text) if text is ESON_TEXT else eson.toon.decode(text)
    for decode in decoders(PDoc):
        lax = decode(text)  # Pydantic's default: "5" is an int
        assert lax == PDoc.model_validate(untyped) == PDoc(count=5, rows=[PRow(v=7)])
        with pytest.raises(eson.ValidationError) as info:
            decode(text, validation_strict=True)
        with pytest.raises(pydantic.ValidationError) as reference:
            PDoc.model_validate(untyped, strict=True)
        if getattr(decode, "streamed", False):
            assert (info.value.section, info.value.row, info.value.field) == ("rows", 1, "v")
        else:
            assert len(info.value.errors) == reference.value.error_count() == 2
            assert info.value.section == "count"
        scaled = decode(text, context={"factor": 3})
        assert scaled.count == 15 == PDoc.model_validate(untyped, context={"factor": 3}).count
        assert decode(text, validation_strict=False, context={"factor": 2}).count == 10


@pytest.mark.parametrize("cls", [MDoc, PlainStruct], ids=["message", "struct"])
@pytest.mark.parametrize(("text", "decoders"), [(ESON_TEXT, _decoders), (TOON_TEXT, _toon_decoders)])
def test_msgspec_strict(cls: type, text: str, decoders: Any) -> None:
    untyped = eson.decode(text) if text is ESON_TEXT else eson.toon.decode(text)
    for decode in decoders(cls):
        with pytest.raises(eson.ValidationError) as info:
            decode(text)  # msgspec's default is strict: "5" is no int
        assert info.value.section == ("rows" if getattr(decode, "streamed", False) else "count")
        with pytest.raises(eson.ValidationError):
            decode(text, validation_strict=True)
        lax = decode(text, validation_strict=False)
        assert lax == msgspec.convert(untyped, cls, strict=False)
        assert (lax.count, lax.rows[0].v) == (5, 7)


def test_msgspec_refuses_a_context() -> None:
    """msgspec validation takes no context: asking for one is an error, never ignored."""
    with pytest.raises(TypeError, match="context= is a Pydantic validation option"):
        eson.decode(ESON_TEXT, type=MDoc, context={"factor": 3})
    with pytest.raises(TypeError, match="msgspec"):
        eson.try_decode(ESON_TEXT, type=PlainStruct, context={})  # raised, not returned
    with pytest.raises(TypeError, match="context="):
        eson.Decoder(MDoc, context=1)
    with pytest.raises(TypeError, match="context="):
        eson.toon.decode(TOON_TEXT, type=MDoc, context={"factor": 3})
    with pytest.raises(TypeError, match="context="):
        eson.toon.Decoder(PlainStruct, context=1)
    with pytest.raises(TypeError, match="context="):
        MDoc.from_eson(ESON_TEXT, context={})
    with pytest.raises(TypeError, match="context="):
        MDoc.from_reply(ESON_TEXT, context={})
    with pytest.raises(TypeError, match="context="):
        eson.parse_reply(ESON_TEXT, PlainStruct, context={})
    with pytest.raises(TypeError, match="context="):
        eson.StreamDecoder(MDoc, context={})
    # The check comes before the text is read: bad text does not hide it.
    with pytest.raises(TypeError, match="context="):
        eson.decode("not eson", type=MDoc, context={})


@pytest.mark.parametrize("value", ["yes", 1, 0, "false"])
def test_validation_strict_must_be_a_bool(value: object) -> None:
    for call in (
        lambda: eson.decode(ESON_TEXT, type=PDoc, validation_strict=value),  # type: ignore[arg-type]
        lambda: eson.Decoder(MDoc, validation_strict=value),  # type: ignore[arg-type]
        lambda: eson.toon.decode(TOON_TEXT, type=PDoc, validation_strict=value),  # type: ignore[arg-type]
        lambda: PDoc.from_toon(TOON_TEXT, validation_strict=value),  # type: ignore[arg-type]
        lambda: PDoc.from_reply(ESON_TEXT, validation_strict=value),  # type: ignore[arg-type]
        lambda: eson.parse_reply(ESON_TEXT, MDoc, validation_strict=value),  # type: ignore[arg-type]
        lambda: eson.StreamDecoder(PDoc, validation_strict=value),  # type: ignore[call-overload]
    ):
        with pytest.raises(TypeError, match="validation_strict must be True, False or None"):
            call()


def test_options_need_a_type() -> None:
    """Untyped decoding validates nothing: options there would be silently ignored."""
    for call in (
        lambda: eson.decode(ESON_TEXT, validation_strict=True),  # type: ignore[call-overload]
        lambda: eson.try_decode(ESON_TEXT, context={}),  # type: ignore[call-overload]
        lambda: eson.Decoder(validation_strict=False),  # type: ignore[call-overload]
        lambda: eson.toon.decode(TOON_TEXT, context={}),  # type: ignore[call-overload]
        lambda: eson.toon.Decoder(validation_strict=True),  # type: ignore[call-overload]
        lambda: eson.parse_reply(ESON_TEXT, validation_strict=True),  # type: ignore[call-overload]
        lambda: eson.StreamDecoder(None, context={}),  # type: ignore[call-overload]
    ):
        with pytest.raises(TypeError, match="options of typed decoding"):
            call()
