"""The official TOON v4.0 conformance fixtures, read from the shared directory at run time.

Every fixture is its own test: encode fixtures must be byte-equal, decode
fixtures value-equal (numbers by value, ``bool`` never equal to a number, key
order significant), and ``shouldError`` fixtures must raise
:class:`eson.TOONError` with a line number.  Each fixture's options are
honoured; an option this suite does not know fails the test rather than
being ignored.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import conformance_dir

from eson import toon
from eson.errors import TOONError

SPEC_VERSION = (4, 0)
FIXTURE_ROOT = conformance_dir() / "toon" / "fixtures"


def _load(category: str) -> list[Any]:
    cases = []
    for path in sorted((FIXTURE_ROOT / category).glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["category"] == category, path
        for test in data["tests"]:
            test_id = f"{path.stem}: {test['name']}"
            cases.append(pytest.param(test, id=test_id))
    return cases


ENCODE_CASES = _load("encode")
DECODE_CASES = _load("decode")


def json_equal(left: Any, right: Any) -> bool:
    """JSON-model equality: numbers by value, bool kept apart, key order significant."""
    if isinstance(left, bool) or isinstance(right, bool):
        return type(left) is type(right) and left == right
    if isinstance(left, (int, float)) and isinstance(right, (int, float)):
        return left == right
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        return list(left) == list(right) and all(json_equal(left[k], right[k]) for k in left)
    if isinstance(left, list):
        return len(left) == len(right) and all(map(json_equal, left, right))
    return bool(left == right)


def _skip_newer(test: dict[str, Any]) -> None:
    wanted = test.get("minSpecVersion")
    if wanted and tuple(int(part) for part in wanted.split(".")) > SPEC_VERSION:
        pytest.skip(f"fixture needs spec {wanted}; this codec implements 4.0")


def encode_options(options: dict[str, Any]) -> dict[str, Any]:
    kwargs: dict[str, Any] = {}
    for name, value in options.items():
        if name == "delimiter":
            kwargs["delimiter"] = value
        elif name in ("indentSize", "indent"):
            kwargs["indent_size"] = value
        else:
            pytest.fail(f"unknown encode option {name!r} in fixture")
    return kwargs


def decode_options(options: dict[str, Any]) -> dict[str, Any]:
    kwargs: dict[str, Any] = {}
    for name, value in options.items():
        if name == "strict":
            kwargs["strict"] = value
        elif name in ("indentSize", "indent"):
            kwargs["indent_size"] = value
        else:
            pytest.fail(f"unknown decode option {name!r} in fixture")
    return kwargs


def test_fixture_suite_is_complete(conformance: Path) -> None:
    assert len(ENCODE_CASES) + len(DECODE_CASES) == 516
    for path in (conformance / "toon" / "fixtures").glob("*/*.json"):
        assert json.loads(path.read_text(encoding="utf-8"))["version"] == "4.0"


@pytest.mark.parametrize("test", ENCODE_CASES)
def test_encode_fixture(test: dict[str, Any]) -> None:
    _skip_newer(test)
    kwargs = encode_options(test.get("options", {}))
    if test.get("shouldError"):
        with pytest.raises(TOONError):
            toon.encode(test["input"], **kwargs)
        return
    assert toon.encode(test["input"], **kwargs) == test["expected"]


@pytest.mark.parametrize("test", DECODE_CASES)
def test_decode_fixture(test: dict[str, Any]) -> None:
    _skip_newer(test)
    kwargs = decode_options(test.get("options", {}))
    text = test["input"]
    if test.get("shouldError"):
        with pytest.raises(TOONError) as info:
            toon.decode(text, **kwargs)
        error = info.value
        assert error.line is not None and error.line >= 1
        assert str(error).startswith(f"line {error.line}: ")
        assert not toon.try_decode(text, **kwargs).ok
        return
    assert json_equal(toon.decode(text, **kwargs), test["expected"])
    assert json_equal(toon.decode(text.encode("utf-8"), **kwargs), test["expected"])
