"""``try_decode`` results: ``Ok[T] | Err`` at run time and for type checkers.

The files in ``tests/typing`` are checked, not imported: mypy --strict must
find nothing in either, Pyright nothing in ``result_narrowing.py`` and, in
``result_narrowing_mypy.py``, exactly the lines marked ``# pyright-only-miss``
(Pyright does not narrow a union on ``if result.ok:``, by design).
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest
from mypy import api as mypy_api

import eson
import eson.toon

TYPING = Path(__file__).resolve().parent / "typing"
BOTH = TYPING / "result_narrowing.py"
MYPY_ONLY = TYPING / "result_narrowing_mypy.py"


class Point(eson.Message):
    x: int


def test_ok_and_err_at_run_time() -> None:
    good = eson.try_decode("!eson/1\nx=1\n", type=Point)
    bad = eson.try_decode("!eson/1\nx=one\n", type=Point)
    assert isinstance(good, eson.Ok) and isinstance(bad, eson.Err)
    assert (good.ok, good.value, good.error) == (True, Point(x=1), None)
    assert bad.ok is False and bad.value is None
    assert isinstance(bad.error, eson.ValidationError)
    assert bool(good) is True and bool(bad) is False
    assert repr(good) == "Ok(value=Point(x=1))"
    assert repr(bad).startswith("Err(error=ValidationError(")
    assert good == eson.Ok(Point(x=1)) and good != eson.Ok(Point(x=2))
    with pytest.raises(FrozenInstanceError):
        good.value = Point(x=3)  # type: ignore[misc]
    match bad:
        case eson.Err(error=error):
            assert error.line == 2
        case _:
            pytest.fail("an Err matches Err(error=...)")
    again = pickle.loads(pickle.dumps(bad))
    assert str(again.error) == str(bad.error)


def test_untyped_and_toon_results() -> None:
    assert eson.try_decode("!eson/1\na=1\n") == eson.Ok({"a": 1})
    failed = eson.try_decode("nope")
    assert not failed and isinstance(failed.error, eson.DecodeError)
    assert eson.toon.try_decode("a: 1") == eson.toon.Ok({"a": 1})
    assert eson.toon.Ok is eson.Ok and eson.toon.Err is eson.Err
    toon_failed = eson.toon.try_decode("a:\n\tb: 1")
    assert isinstance(toon_failed, eson.Err) and isinstance(toon_failed.error, eson.TOONError)


def test_the_alias_names_the_union() -> None:
    assert eson.DecodeResult[int] == eson.Ok[int] | eson.Err


def _mypy(*files: Path) -> str:
    stdout, stderr, status = mypy_api.run(
        ["--strict", "--no-incremental", "--no-error-summary", "--show-error-codes", *map(str, files)]
    )
    assert not stderr.strip(), stderr
    return stdout if status else ""


def test_mypy_narrows_every_form() -> None:
    assert _mypy(BOTH, MYPY_ONLY) == ""


def _pyright() -> str:
    pyright = shutil.which("pyright")
    if pyright is None:
        if os.environ.get("CI"):
            pytest.fail("CI must install pyright (see .ci/run: npm install ... pyright)")
        pytest.skip("pyright is not installed (npm install pyright, or pip install pyright)")
    return pyright


def test_pyright_narrows_the_forms_it_supports() -> None:
    done = subprocess.run(
        [_pyright(), "--outputjson", "--pythonpath", sys.executable, str(BOTH), str(MYPY_ONLY)],
        capture_output=True,
        text=True,
        check=False,
    )
    report = json.loads(done.stdout)
    found = {
        (Path(d["file"]).name, d["range"]["start"]["line"] + 1)
        for d in report["generalDiagnostics"]
        if d["severity"] == "error"
    }
    expected = {
        (MYPY_ONLY.name, number)
        for number, line in enumerate(MYPY_ONLY.read_text().splitlines(), start=1)
        if line.endswith("# pyright-only-miss")
    }
    assert len(expected) == 3
    assert found == expected


def test_every_exported_symbol_is_typed_and_documented() -> None:
    """``pyright --verifytypes eson``: every symbol the package exports has a known type and docs.

    ``--ignoreexternal``: a symbol is not held against this package for the
    types of the libraries it builds on (Pydantic's metaclass, the MCP,
    A2A and LangChain models), which are theirs to complete.
    """
    pyright = _pyright()
    # --verifytypes finds the package through the first python on PATH (it
    # ignores --pythonpath): this interpreter's, as in an activated venv.
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    done = subprocess.run(
        [pyright, "--outputjson", "--verifytypes", "eson", "--ignoreexternal"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PATH": path},
    )
    completeness = json.loads(done.stdout)["typeCompleteness"]
    unknown = [
        (symbol["name"], [d["message"] for d in symbol["diagnostics"]][:2])
        for symbol in completeness["symbols"]
        if symbol["isExported"] and not symbol["isTypeKnown"]
    ]
    assert unknown == []
    assert completeness["exportedSymbolCounts"]["withKnownType"] > 600
    assert completeness["missingFunctionDocStringCount"] == 0
    assert completeness["missingClassDocStringCount"] == 0
    assert completeness["completenessScore"] == 1
