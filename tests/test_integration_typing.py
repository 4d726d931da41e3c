"""The adapters' public API types the same under mypy --strict and Pyright.

A small user module calls each adapter; both checkers must accept it
without errors and reveal the same types (the model class flows through
``read_result``, ``text_output`` and ``ESONOutputParser``).  Pyright and a
plain ``mypy --strict`` (without pyproject's overrides for missing
frameworks) also check the adapter modules themselves.  Needs every extra and Pyright
(CI installs both: there a missing one fails).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "eson" / "integrations"

USER_MODULE = '''
from __future__ import annotations

from mcp.types import CallToolResult

import eson
from eson.integrations.langchain import ESONOutputParser
from eson.integrations.mcp import ToolResults, read_result
from eson.integrations.pydantic_ai import text_output, tool_return


class Row(eson.Record):
    a: int


class Doc(eson.Message):
    rows: list[Row]


def check(result: CallToolResult) -> None:
    reveal_type(read_result(result, Doc))
    reveal_type(read_result(result))
    reveal_type(ToolResults().result(Doc(rows=[])))
    reveal_type(text_output(Doc))
    reveal_type(tool_return(Doc(rows=[])))
    parser = ESONOutputParser(Doc)
    reveal_type(parser)
    reveal_type(parser.parse(""))
    reveal_type(parser.invoke(""))
'''

EXPECTED = [
    "Doc",
    "Any",
    "CallToolResult",
    "TextOutput[Doc]",
    "ToolReturn[str]",
    "ESONOutputParser[Doc]",
    "Doc",
    "Doc",
]


def _frameworks_or_skip() -> None:
    missing = [
        name
        for name in ("mcp", "pydantic_ai", "langchain_core", "starlette", "a2a", "agents")
        if importlib.util.find_spec(name) is None
    ]
    if missing:
        reason = f"needs the framework extras (missing: {missing})"
        if os.environ.get("CI") and sys.version_info >= (3, 11):
            pytest.fail(f"CI installs them: {reason}")
        pytest.skip(reason)


def _short(type_text: str) -> str:
    return re.sub(r"\b(?:\w+\.)+(\w+)", r"\1", type_text)


def test_mypy_strict_accepts_and_reveals(tmp_path: Path) -> None:
    """Plain ``--strict``: with the frameworks installed, pyproject's relaxations are not needed."""
    _frameworks_or_skip()
    from mypy import api as mypy_api

    (tmp_path / "user.py").write_text(USER_MODULE, encoding="utf-8")
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nstrict = True\npython_version = 3.11\n", encoding="utf-8")
    stdout, stderr, _ = mypy_api.run(
        [
            "--config-file",
            str(config),
            "--no-incremental",
            "--cache-dir",
            os.devnull,
            str(tmp_path / "user.py"),
            *sorted(str(path) for path in SRC.glob("*.py")),
        ]
    )
    assert not stderr, stderr
    assert " error: " not in stdout, stdout
    revealed = re.findall(r'Revealed type is "(.*)"', stdout)
    assert [_short(found) for found in revealed] == EXPECTED, stdout


def test_pyright_accepts_and_reveals(tmp_path: Path) -> None:
    _frameworks_or_skip()
    pyright = shutil.which("pyright")
    if pyright is None:
        if os.environ.get("CI"):
            pytest.fail("CI must install pyright (see .ci/run: npm install ... pyright)")
        pytest.skip("pyright is not installed (npm install pyright)")
    (tmp_path / "user.py").write_text(USER_MODULE, encoding="utf-8")
    result = subprocess.run(
        [
            pyright,
            "--outputjson",
            "--pythonpath",
            sys.executable,
            str(tmp_path / "user.py"),
            *sorted(str(path) for path in SRC.glob("*.py")),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    report = json.loads(result.stdout)
    problems = [d for d in report["generalDiagnostics"] if d["severity"] != "information"]
    assert problems == []
    revealed = [
        re.sub(r'^Type of ".*" is "(.*)"$', r"\1", d["message"])
        for d in report["generalDiagnostics"]
        if d["file"].endswith("user.py")
    ]
    assert revealed == EXPECTED
