"""The wire-format registry (``eson.agent.formats``): one object per format, looked up by name."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel

import eson
from eson import columnar, toon
from eson.agent.choice import send, send_format
from eson.agent.formats import FORMATS, WIRE_FORMATS, render, wire_format


class Hit(BaseModel):
    id: int
    title: str


class Hits(BaseModel):
    query: str
    hits: list[Hit]


HITS = Hits(query="q", hits=[Hit(id=i, title=f"t{i}") for i in range(3)])


def test_the_registry_holds_every_format_in_negotiation_order() -> None:
    assert tuple(WIRE_FORMATS) == FORMATS
    assert [f.title for f in WIRE_FORMATS.values()] == ["ESON", "TOON", "columnar JSON", "compact JSON"]
    assert wire_format("eson") is wire_format("eson/1") is wire_format(" ESON/1 ")
    assert wire_format("eson").name == "eson" and wire_format("eson").token == "eson/1"
    assert repr(wire_format("toon")) == "<wire format 'toon'>"


@pytest.mark.parametrize("bad", ["pretty", "yaml", "", 3])
def test_an_unknown_name_is_a_value_error(bad: object) -> None:
    with pytest.raises(ValueError, match="unknown format"):
        wire_format(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown format"):
        render(HITS, bad)  # type: ignore[arg-type]


def test_each_format_writes_what_its_own_encoder_writes() -> None:
    plain = HITS.model_dump(mode="json")
    assert wire_format("eson").write(HITS) == eson.encode(HITS)
    assert wire_format("eson").write(HITS, number=True) == eson.encode(HITS, number=True)
    assert wire_format("toon").write(HITS) == toon.encode(HITS)
    assert wire_format("columnar").write(HITS) == columnar.encode(HITS)
    assert wire_format("json").write(HITS) == json.dumps(plain, separators=(",", ":"))


@pytest.mark.parametrize("token", FORMATS)
def test_each_format_reads_back_what_it_wrote(token: str) -> None:
    found = wire_format(token)
    assert found.read(found.write(HITS), Hits) == HITS


@pytest.mark.parametrize("token", FORMATS)
def test_reading_passes_the_validation_options(token: str) -> None:
    found = wire_format(token)
    text = found.write({"query": "q", "hits": [{"id": "1", "title": "t"}]})
    assert found.read(text, Hits).hits[0].id == 1
    with pytest.raises(eson.ValidationError) as caught:
        found.read(text, Hits, validation_strict=True)
    assert "id" in str(caught.value)


@pytest.mark.parametrize("token", FORMATS)
def test_a_malformed_text_is_the_library_error(token: str) -> None:
    with pytest.raises(eson.ESONError):
        wire_format(token).read("query: [unclosed\n{", Hits)


def test_eson_refuses_a_root_that_is_not_an_object() -> None:
    with pytest.raises(eson.EncodeError, match="ESON documents are objects"):
        wire_format("eson").write([1, 2])


def test_send_format_takes_auto_and_every_name() -> None:
    assert send_format("auto") == "auto"
    assert send_format("eson") == "eson/1"
    assert [send_format(token) for token in FORMATS] == list(FORMATS)
    for bad in ("pretty", "", None):
        with pytest.raises(ValueError, match="format must be 'auto', 'eson'"):
            send_format(bad)  # type: ignore[arg-type]


def test_send_writes_the_format_or_falls_back_to_json() -> None:
    assert send(HITS, "toon") == toon.encode(HITS)
    assert send([1, 2], "eson") == "[1,2]"  # ESON needs an object: compact JSON
    with pytest.raises(eson.EncodeError):
        send(float("nan"), "json")
    with pytest.raises(eson.EncodeError):
        send(float("nan"), "eson")  # neither ESON nor the JSON fallback holds it


def test_send_auto_is_the_densest_accepted() -> None:
    picked = send(HITS, "auto", accept=["toon", "json"], by="chars")
    assert picked == min(toon.encode(HITS), render(HITS, "json"), key=len)
    assert send(HITS, "auto", accept="json", by="bytes") == render(HITS, "json")
