"""TOON's lenient typed rule: a bare number or boolean in a string field is read as its text."""

from __future__ import annotations

import msgspec
import pytest

import eson
import eson.msgspec
import eson.toon
from eson import ReadOptions, Repair
from eson._internal.codecs.toon_typed import reader_for


class MFinding(eson.msgspec.Record):
    id: str
    line: int


class MReview(eson.msgspec.Message):
    kind: str
    tags: list[str]
    findings: list[MFinding]


class PFinding(eson.Record):
    id: str
    line: int


class PReview(eson.Message):
    kind: str
    tags: list[str]
    findings: list[PFinding]


TABLE = "kind: 1.50\ntags[2]: 1,true\nfindings[2]{id,line}:\n  007,3\n  1e3,4\n"
LIST = "kind: x\ntags[0]:\nfindings[2]:\n  - id: 5\n    line: 3\n  - id: -0\n    line: 4\n"


def dump(value: object) -> object:
    if isinstance(value, msgspec.Struct):
        return msgspec.to_builtins(value)
    return value.model_dump()  # type: ignore[attr-defined]


@pytest.mark.parametrize("model", [MReview, PReview])
def test_numbers_and_booleans_in_string_fields_are_read_as_their_tokens(model: type) -> None:
    log: list[Repair] = []
    value = eson.toon.decode(TABLE, type=model, strict=False, repairs=log)
    assert dump(value) == {
        "kind": "1.50",  # the token, not str(1.5)
        "tags": ["1", "true"],
        "findings": [{"id": "007", "line": 3}, {"id": "1e3", "line": 4}],
    }
    assert [(r.line, r.kind, r.section, r.row, r.field) for r in log] == [
        (1, "number-as-text", "kind", None, None),
        (2, "number-as-text", "tags", 1, None),
        (2, "boolean-as-text", "tags", 2, None),
        (5, "number-as-text", "findings", 2, "id"),
    ]
    with pytest.raises(eson.ValidationError):
        eson.toon.decode(TABLE, type=model)


@pytest.mark.parametrize("model", [MReview, PReview])
def test_list_items_too(model: type) -> None:
    log: list[Repair] = []
    value = eson.toon.Decoder(model, strict=False).decode(LIST, repairs=log)
    assert dump(value)["findings"] == [{"id": "5", "line": 3}, {"id": "-0", "line": 4}]  # type: ignore[index]
    assert [(r.line, r.row) for r in log] == [(4, 1), (6, 2)]


@pytest.mark.parametrize("model", [MReview, PReview])
def test_with_strict_wire_checks_the_counts_stay_checked(model: type) -> None:
    # what the reply reader uses: the spec's strict checks plus the typed rule
    reader = reader_for(model)
    log: list[Repair] = []
    value = reader.decode(TABLE, ReadOptions(mode="lenient"), log)
    assert dump(value)["kind"] == "1.50" and len(log) == 4  # type: ignore[index]
    with pytest.raises(eson.TOONError, match="declares 3 rows"):
        reader.decode(TABLE.replace("[2]{", "[3]{"), ReadOptions(mode="lenient"), [])
    # the relaxed TOON reading, by contrast, ignores the count
    assert (
        len(eson.toon.decode(TABLE.replace("[2]{", "[3]{"), type=model, strict=False).findings) == 2
    )


@pytest.mark.parametrize("model", [MReview, PReview])
def test_canonical_text_needs_no_repair(model: type) -> None:
    value = eson.toon.decode(TABLE, type=model, strict=False)
    log: list[Repair] = []
    text = eson.toon.encode(value)
    assert eson.toon.decode(text, type=model, strict=False, repairs=log) == value
    assert log == []


@pytest.mark.parametrize("model", [MReview, PReview])
def test_try_decode_results_carry_the_repairs(model: type) -> None:
    log: list[Repair] = []
    result = eson.toon.try_decode(TABLE, type=model, strict=False, repairs=log)
    assert result.ok
    assert result.value == eson.toon.decode(TABLE, type=model, strict=False)
    assert result.repairs == tuple(log) and len(log) == 4
    strict = eson.toon.try_decode(TABLE, type=model)
    assert not strict.ok and strict.repairs == ()
