"""The wire-format registry (``eson.agent.formats``): one object per format, looked up by name."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pydantic import BaseModel

import eson
from eson import columnar, toon
from eson.agent.choice import send, send_format
from eson.agent.formats import (
    FLOOR,
    FORMATS,
    PAYLOAD_FORMATS,
    WIRE_FORMATS,
    find_format,
    render,
    short_name,
    wire_format,
)
from eson.agent.media import MEDIA_TYPES, format_of
from eson.agent.negotiation import decode_as, detect_format


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


# -- what each format is: the questions the agent layer asks instead of comparing names ----------


def test_each_format_says_what_it_is() -> None:
    facts = {
        token: (wire.document, wire.json_text, wire.floor, wire.in_replies, wire.lints_as_toon)
        for token, wire in WIRE_FORMATS.items()
    }
    assert facts == {
        "eson/1": (True, False, False, True, False),
        "toon": (True, False, False, True, True),
        "columnar": (False, True, False, False, False),
        "json": (False, True, True, True, False),
    }
    assert FLOOR is WIRE_FORMATS["json"]
    # what the reply readers read is what the registry says models write
    assert tuple(wire.name for wire in WIRE_FORMATS.values() if wire.in_replies) == PAYLOAD_FORMATS
    # the media types come from the registry, and each names its format back
    assert {token: wire.media_type for token, wire in WIRE_FORMATS.items()} == MEDIA_TYPES
    for token, wire in WIRE_FORMATS.items():
        assert format_of(wire.media_type) == token
    assert format_of("text/vnd.eson; version=2") is None  # ESON's media type requires version 1
    assert format_of("text/vnd.eson") == "eson/1"


def test_plain_json_is_read_where_columnar_json_is_allowed() -> None:
    assert WIRE_FORMATS["json"].read_as == ("json", "columnar")
    text = render(HITS, "json")
    assert decode_as(text, Hits, formats=["columnar"]) == HITS
    with pytest.raises(eson.DecodeError, match="not among the allowed formats"):
        decode_as(render(HITS, "columnar"), Hits, formats=["json"])


@pytest.mark.parametrize("token", FORMATS)
def test_each_format_loads_plain_values_and_detects_as_itself(token: str) -> None:
    found = wire_format(token)
    text = found.write(HITS)
    assert detect_format(text) is found
    assert found.load(text) == HITS.model_dump(mode="json")
    # one byte-order mark is ignored, as detect ignores it
    assert found.read("\ufeff" + text, Hits) == HITS
    assert detect_format("just words") is None


def test_toon_writes_with_the_delimiter_asked() -> None:
    assert wire_format("toon").write(HITS, delimiter="|") == toon.encode(HITS, delimiter="|")
    assert wire_format("eson").write(HITS, delimiter="|") == eson.encode(HITS)  # TOON's option


def test_carve_outs_follow_what_each_format_writes_densely() -> None:
    value = {"payments": [{"id": i, "payment": f"x{i}"} for i in range(3)], "api_key": "k"}
    dense = {token: wire.carve_outs(wire.write(value), value) for token, wire in WIRE_FORMATS.items()}
    # ESON and TOON carry the whole value densely; columnar JSON only the array it
    # made a block of; compact JSON nothing
    assert dense == {
        "eson/1": ["payments", "payment", "api_key"],
        "toon": ["payments", "payment", "api_key"],
        "columnar": ["payments"],
        "json": [],
    }


def test_find_format_and_short_name() -> None:
    assert find_format("pretty") is None and find_format(3) is None
    assert find_format("ESON") is WIRE_FORMATS["eson/1"]
    assert short_name("eson/1") == "eson" and short_name("toon") == "toon"
    assert short_name("ESON") == "ESON"  # only exact spellings: the callers report the rest


_NAME_BRANCH = re.compile(r"""(==|!=|\bin) \(?["'](eson|eson/1|toon|json|columnar)["']""")
#: The comparisons left on purpose: detection's own answer, the core's layout text
#: for a JSON payload, and the options each reader takes.
_ALLOWED_BRANCHES = {
    "agent/linter.py": 1,
    "_internal/codecs/feedback.py": 2,
    "_internal/wire/options.py": 1,
}


def test_no_layer_branches_on_a_format_name() -> None:
    """The agent layer, the adapters, eval and the CLI ask the registry, not the name."""
    root = Path(eson.__file__).parent
    found: dict[str, int] = {}
    for path in root.rglob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if _NAME_BRANCH.search(line.split("#")[0]):
                key = path.relative_to(root).as_posix()
                found[key] = found.get(key, 0) + 1
    assert found == _ALLOWED_BRANCHES
