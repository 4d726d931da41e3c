"""The official ESON 1.1 conformance vectors, read from the shared directory at run time."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import conformance_dir, same

import eson

VECTORS: dict[str, Any] = json.loads(
    (conformance_dir() / "eson" / "vectors.json").read_text(encoding="utf-8")
)


def test_vector_file_is_the_expected_version(conformance: Path) -> None:
    assert VECTORS["eson"] == "1"
    assert len(VECTORS["valid"]) >= 19
    assert len(VECTORS["invalid"]) >= 12


@pytest.mark.parametrize("case", VECTORS["valid"], ids=lambda c: c["name"])
def test_valid_encodes_byte_equal(case: dict[str, Any]) -> None:
    assert eson.encode(case["value"]) == case["eson"]


@pytest.mark.parametrize("case", VECTORS["valid"], ids=lambda c: c["name"])
def test_valid_decodes_losslessly(case: dict[str, Any]) -> None:
    assert same(eson.decode(case["eson"]), case["value"])
    assert same(eson.decode(case["eson"].encode("utf-8")), case["value"])


@pytest.mark.parametrize("case", VECTORS["decode_only"], ids=lambda c: c["name"])
def test_decode_only_decodes_losslessly(case: dict[str, Any]) -> None:
    assert same(eson.decode(case["eson"]), case["value"])


@pytest.mark.parametrize("case", VECTORS["invalid"], ids=lambda c: c["name"])
def test_invalid_is_rejected_with_a_line(case: dict[str, Any]) -> None:
    with pytest.raises(eson.DecodeError) as info:
        eson.decode(case["eson"])
    assert info.value.line is not None
    assert str(info.value).startswith(f"line {info.value.line}: ")
    result = eson.try_decode(case["eson"])
    assert not result.ok and result.value is None
    assert isinstance(result.error, eson.DecodeError)
