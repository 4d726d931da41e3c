"""``strict`` is a ``bool`` wherever it is accepted: anything else is a ``TypeError``.

``strict="false"`` is truthy, so before this check it silently meant *strict*.
"""

# No "from __future__ import annotations": msgspec resolves annotations at module scope.

import io
import sys
from collections.abc import Callable
from typing import Any

import pytest

import eson
import eson.msgspec as em
from eson import toon
from eson._internal.wire.options import strict_flag
from eson._internal.wire.toon_parser import decode_text
from eson.cli import main


class PRow(eson.Record):
    id: int


class PDoc(eson.Message):
    rows: list[PRow]


class MRow(em.Record):
    id: int


class MDoc(em.Message):
    rows: list[MRow]


# Canonical text (the typed template reads it without the untyped parser) and
# text only non-strict decoding accepts (a repeated key).
CANONICAL = "rows[2]{id}:\n  1\n  2"
LENIENT = "rows[1]{id}:\n  1\nrows[1]{id}:\n  2"
NOT_BOOLS = ["false", "true", "", 0, 1, None, 1.0, [], "no"]

Call = Callable[[str, Any], Any]
ENTRY_POINTS: dict[str, Call] = {
    "toon.decode": lambda text, strict: toon.decode(text, strict=strict),
    "toon.decode(type=pydantic)": lambda text, strict: toon.decode(text, type=PDoc, strict=strict),
    "toon.decode(type=msgspec)": lambda text, strict: toon.decode(text, type=MDoc, strict=strict),
    "toon.try_decode": lambda text, strict: toon.try_decode(text, strict=strict),
    "toon.try_decode(type=pydantic)": lambda text, strict: toon.try_decode(
        text, type=PDoc, strict=strict
    ),
    "toon.try_decode(type=msgspec)": lambda text, strict: toon.try_decode(
        text, type=MDoc, strict=strict
    ),
    "toon.Decoder()": lambda text, strict: toon.Decoder(strict=strict).decode(text),
    "toon.Decoder(pydantic)": lambda text, strict: toon.Decoder(PDoc, strict=strict).decode(text),
    "toon.Decoder(msgspec)": lambda text, strict: toon.Decoder(MDoc, strict=strict).decode(text),
    "Message.from_toon": lambda text, strict: PDoc.from_toon(text, strict=strict),
    "msgspec Message.from_toon": lambda text, strict: MDoc.from_toon(text, strict=strict),
    "wire decode_text": lambda text, strict: decode_text(text, strict=strict),
}


# The functional API's readers take ``strict=None`` as "not given" (their
# default, or what ``mode=``/``options=`` say); the other entry points take
# only a bool.
TAKES_NONE = {name for name in ENTRY_POINTS if name.startswith(("toon.decode", "toon.try", "toon.D"))}


@pytest.mark.parametrize("value", NOT_BOOLS, ids=repr)
@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
@pytest.mark.parametrize("text", [CANONICAL, LENIENT], ids=["canonical", "lenient"])
def test_non_bool_strict_is_a_type_error(entry: str, value: Any, text: str) -> None:
    if value is None and entry in TAKES_NONE:
        assert _value(ENTRY_POINTS[entry](CANONICAL, None)) == _value(
            ENTRY_POINTS[entry](CANONICAL, True)
        )
        return
    with pytest.raises(TypeError) as caught:
        ENTRY_POINTS[entry](text, value)
    message = str(caught.value)
    assert message.startswith("strict must be a bool (True or False), not ")
    assert repr(value) in message and "\n" not in message


def _value(result: Any) -> Any:
    if isinstance(result, eson.DecodeResult):
        assert result.ok, result.error
        return result.value
    return result


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_bools_still_choose_the_mode(entry: str) -> None:
    decode = ENTRY_POINTS[entry]
    assert _value(decode(CANONICAL, True)) == _value(decode(CANONICAL, False))
    lenient = _value(decode(LENIENT, False))
    if isinstance(lenient, dict):
        assert lenient == {"rows": [{"id": 2}]}
    else:
        assert [row.id for row in lenient.rows] == [2]
    try:
        result = decode(LENIENT, True)
    except eson.TOONError as exc:
        assert "duplicate key 'rows'" in exc.reason
    else:
        assert isinstance(result, eson.DecodeResult) and not result.ok
        assert isinstance(result.error, eson.TOONError)


def test_the_message_is_bounded() -> None:
    with pytest.raises(TypeError) as caught:
        strict_flag("x" * 10_000)
    assert len(str(caught.value)) < 200
    with pytest.raises(TypeError, match=r"^validation_strict must be a bool"):
        strict_flag("yes", "validation_strict")


class _Stdio:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


@pytest.mark.parametrize(("flags", "expected"), [([], True), (["--no-strict"], False)])
def test_the_cli_passes_a_bool(
    monkeypatch: pytest.MonkeyPatch, flags: list[str], expected: bool
) -> None:
    seen: list[Any] = []
    real = toon.decode

    def spy(text: Any, **options: Any) -> Any:
        seen.append(options.get("strict"))
        return real(text, **options)

    monkeypatch.setattr(toon, "decode", spy)
    monkeypatch.setattr(sys, "stdin", _Stdio(LENIENT.encode()))
    monkeypatch.setattr(sys, "stdout", _Stdio(b""))
    code = main(["toon", "decode", *flags])
    assert seen == [expected] and type(seen[0]) is bool
    assert code == (1 if expected else 0)
