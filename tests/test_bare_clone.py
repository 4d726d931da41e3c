"""A bare clone without ``../shared``: the tests that need it skip with one message, CI fails.

Each case runs pytest in a subprocess on a few test files with
``TYPED_ESON_SHARED`` pointing at a directory that does not exist.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO_ROOT

NEEDS_SHARED = [
    "tests/test_eson_conformance.py",
    "tests/test_toon_conformance.py",
    "tests/test_columnar.py::test_reference_sizes",
    "tests/test_eson_hypothesis.py",
]


def _run(tmp_path: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    env["TYPED_ESON_SHARED"] = str(tmp_path / "no-shared-here")
    env.pop("PYTEST_XDIST_WORKER", None)
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "-p", "no:xdist",
         "-o", "addopts=", *NEEDS_SHARED],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_without_shared_the_tests_that_need_it_skip(tmp_path: Path) -> None:
    done = _run(tmp_path, None)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "no-shared-here" in output and "TYPED_ESON_SHARED" in output
    assert "skipped" in output
    assert "FileNotFoundError" not in output and "RuntimeError" not in output
    # The tests that need nothing from shared/ still ran and passed.
    assert " passed" in output


def test_without_shared_ci_fails(tmp_path: Path) -> None:
    done = _run(tmp_path, "true")
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert "no-shared-here" in output and "required when CI is set" in output


def test_pydantic_comes_with_the_package() -> None:
    """The README's first example uses eson.Message: the plain install brings Pydantic."""
    from importlib.metadata import requires

    plain = [
        requirement
        for requirement in requires("typed-eson") or []
        if "extra ==" not in requirement
    ]
    assert any(requirement.startswith("pydantic") for requirement in plain), plain


def test_import_eson_loads_no_pydantic_until_a_pydantic_class_is_used() -> None:
    code = (
        "import sys, eson\n"
        "eson.encode({'rows': [{'a': 1}]})\n"
        "assert 'pydantic' not in sys.modules, 'import eson loaded pydantic'\n"
        "eson.Message\n"
        "assert 'pydantic' in sys.modules\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
