"""eson.validate: a plain value into a model with the framework's validation, errors placed."""

from __future__ import annotations

import dataclasses
from typing import Literal

import pydantic
import pytest

import eson
import eson.msgspec


class Hit(eson.Record):
    path: str
    line: int
    severity: Literal["high", "low"]


class Hits(eson.Message):
    query: str
    hits: list[Hit]


class MsgHit(eson.msgspec.Record):
    path: str
    line: int


class MsgHits(eson.msgspec.Message):
    query: str
    hits: list[MsgHit]


@dataclasses.dataclass
class Plain:
    name: str
    size: int


class Tagged(pydantic.BaseModel):
    label: str

    @pydantic.field_validator("label")
    @classmethod
    def _tag(cls, value: str, info: pydantic.ValidationInfo) -> str:
        return f"{(info.context or {}).get('tag', '')}{value}"


def plain_hits() -> dict[str, object]:
    return {
        "query": "auth",
        "hits": [
            {"path": "a.py", "line": 1, "severity": "high"},
            {"path": "b.py", "line": 2, "severity": "low"},
        ],
    }


def test_a_plain_value_becomes_the_model() -> None:
    value = eson.validate(plain_hits(), Hits)
    assert value == Hits(
        query="auth",
        hits=[Hit(path="a.py", line=1, severity="high"), Hit(path="b.py", line=2, severity="low")],
    )
    assert eson.validate(value, Hits) == value  # an instance validates as itself
    assert eson.validate({"query": "q", "hits": [{"path": "x", "line": 3}]}, MsgHits) == MsgHits(
        query="q", hits=[MsgHit("x", 3)]
    )
    assert eson.validate({"name": "n", "size": 2}, Plain) == Plain("n", 2)


def test_a_refused_value_is_a_located_validation_error() -> None:
    data = plain_hits()
    data["hits"][1]["severity"] = "medium"  # type: ignore[index]
    with pytest.raises(eson.ValidationError) as caught:
        eson.validate(data, Hits)
    error = caught.value
    assert (error.section, error.row, error.field) == ("hits", 2, "severity")
    assert str(error).startswith("hits row 2 (severity):") and "\n" not in str(error)
    assert '"severity": one of high, low' in error.feedback  # the layout the model expects
    with pytest.raises(eson.ValidationError) as missing:
        eson.validate({"hits": []}, MsgHits)
    assert missing.value.section == "query"


def test_the_framework_options() -> None:
    lax = {"query": "q", "hits": [{"path": "x", "line": "3", "severity": "low"}]}
    assert eson.validate(lax, Hits).hits[0].line == 3  # Pydantic's lax default
    with pytest.raises(eson.ValidationError) as strict:
        eson.validate(lax, Hits, strict=True)
    assert (strict.value.row, strict.value.field) == (1, "line")
    assert eson.validate({"label": "x"}, Tagged, context={"tag": "t:"}).label == "t:x"
    with pytest.raises(TypeError, match="no context"):
        eson.validate({"query": "q", "hits": []}, MsgHits, context={})
    with pytest.raises(TypeError, match="True, False or None"):
        eson.validate(plain_hits(), Hits, strict="yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        eson.validate({"a": 1}, dict)  # not a model class
