"""Shared test fixtures: where the project's shared data and the JavaScript peers live.

Some tests read the project's ``shared/`` directory at run time: the official
ESON vectors and TOON fixtures (``conformance/``), the JavaScript ESON
reference and its linter (``reference/eson/js/``) and the five published
documents (``reference/eson/bench-datasets.json``).  Nothing of it is copied
into this repository.  One setting says where it is: the ``TYPED_ESON_SHARED``
environment variable, by default ``../shared`` beside the repository.

When it is absent (a bare clone), the tests that need it skip, each with one
message naming the missing path and the setting; every other test runs.
Under CI (``CI`` set) a missing ``shared/`` fails the run at start instead.
The JavaScript peers installed from npm are found as described under
"JavaScript peers" below.
"""

from __future__ import annotations

import functools
import json
import math
import os
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import pytest

if TYPE_CHECKING:
    from formats import WireCodec

REPO_ROOT = Path(__file__).resolve().parent.parent

#: The environment variable naming the project's shared directory.
SHARED_SETTING = "TYPED_ESON_SHARED"


def shared_dir() -> Path:
    """The project's shared directory: ``$TYPED_ESON_SHARED``, else ``../shared``."""
    override = os.environ.get(SHARED_SETTING)
    return Path(override) if override else REPO_ROOT.parent / "shared"


def _missing(path: Path) -> str:
    return (
        f"{path} is missing: these tests read the project's shared directory; put it "
        f"beside the repository as ../shared or set {SHARED_SETTING} to it"
    )


def shared_path(*parts: str) -> Path:
    """A path inside the shared directory, or skip (under CI: fail) the test when it is absent."""
    path = shared_dir().joinpath(*parts)
    if not path.exists():
        unavailable(_missing(path))
    return path


def shared_path_at_collection(*parts: str) -> Path | None:
    """For module-level loading: the path, or ``None`` after skipping the module's tests.

    Call it at a test module's top level; when the path is absent the
    module is skipped (under CI: a collection error) with one message.
    """
    path = shared_dir().joinpath(*parts)
    if path.exists():
        return path
    if under_ci():
        pytest.fail(_missing(path) + " (required when CI is set)", pytrace=False)
    pytest.skip(_missing(path), allow_module_level=True)
    return None  # pragma: no cover - pytest.skip raises


def conformance_dir() -> Path:
    """The conformance directory (``eson/vectors.json``, ``toon/fixtures/``), or skip the module."""
    path = shared_path_at_collection("conformance")
    assert path is not None
    return path


@functools.cache
def bench_datasets() -> dict[str, Any]:
    """The five published documents of FORMATS.md (``reference/eson/bench-datasets.json``)."""
    path = shared_path("reference", "eson", "bench-datasets.json")
    documents: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return documents


def have_shared(*parts: str) -> bool:
    """Whether a path inside the shared directory exists (for optional test data)."""
    return shared_dir().joinpath(*parts).exists()


def pytest_sessionstart(session: pytest.Session) -> None:
    """Under CI, a missing shared directory fails the run at once: nothing may skip for it."""
    if under_ci() and not shared_dir().is_dir():
        raise pytest.UsageError(_missing(shared_dir()) + " (required when CI is set)")


def same(left: Any, right: Any) -> bool:
    """Deep equality that keeps bool, int and float apart (1 != 1.0 != True)."""
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        return list(left) == list(right) and all(same(left[k], right[k]) for k in left)
    if isinstance(left, list):
        return len(left) == len(right) and all(map(same, left, right))
    return bool(left == right)


@pytest.fixture(scope="session")
def conformance() -> Path:
    """The conformance directory (``eson/vectors.json``, ``toon/fixtures/``)."""
    return shared_path("conformance")


# ---------------------------------------------------------------- JavaScript peers
#
# The interop tests run real JavaScript implementations in node: the ESON
# reference (``../shared/reference/eson/js/index.js``, read where it lives) and
# ``@toon-format/toon`` from npm (installed by ``.ci/run`` into ``.cache``).
# Where they are found:
#
# - node: ``$NODE`` if set, else ``node`` on ``PATH``;
# - the ESON reference and linter: ``reference/eson/js`` in the shared directory;
# - the TOON package: ``$TOON_JS_DIR`` if set, else ``.cache/toon-js``.
#
# A missing piece skips those tests on a developer machine and fails them
# under CI (``CI`` set to anything but ``""``, ``0``, ``false`` or ``no``).

BRIDGES = REPO_ROOT / "tests" / "interop"


def under_ci() -> bool:
    """Whether the tests run under CI, where a missing real component is a failure."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def unavailable(reason: str) -> NoReturn:
    """Skip (or, under CI, fail) a test whose real component is missing."""
    if under_ci():
        pytest.fail(f"{reason} (required when CI is set)", pytrace=False)
    pytest.skip(reason)


def node_executable() -> str:
    """The node binary, or skip/fail the test (see :func:`unavailable`)."""
    node = os.environ.get("NODE") or shutil.which("node")
    if not node or not Path(node).is_file():
        unavailable("node is not installed (set NODE or put node on PATH)")
    return node


def to_wire(value: Any) -> Any:
    """A Python value as the tagged JSON the bridges read (see tests/interop/transport.mjs)."""
    if value is None or isinstance(value, (bool, str)):
        return str.__str__(value) if isinstance(value, str) else value
    if isinstance(value, int):
        return {"i": int.__repr__(int(value))}
    if isinstance(value, float):
        if math.isnan(value):
            return {"f": "NaN"}
        if math.isinf(value):
            return {"f": "Infinity" if value > 0 else "-Infinity"}
        return {"f": float.__repr__(value)}
    if isinstance(value, (list, tuple)):
        return {"a": [to_wire(item) for item in value]}
    if isinstance(value, dict):
        return {"o": [[key, to_wire(item)] for key, item in value.items()]}
    raise TypeError(f"cannot send {type(value).__name__} to node")


class JSNumber(float):
    """A JavaScript number read back from node (a double: ``5`` and ``5.0`` are one value)."""

    __slots__ = ()


class Undefined:
    """JavaScript's ``undefined``, read back from node."""

    def __repr__(self) -> str:
        return "undefined"


UNDEFINED = Undefined()


def from_wire(value: Any) -> Any:
    """A tagged answer from a bridge as Python: numbers as :class:`JSNumber`, BigInt as ``int``."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if "n" in value:
        return JSNumber(value["n"])
    if "i" in value:
        return int(value["i"])
    if "a" in value:
        return [from_wire(item) for item in value["a"]]
    if "o" in value:
        return {key: from_wire(item) for key, item in value["o"]}
    if "u" in value:
        return UNDEFINED
    raise ValueError(f"unknown tagged value {value!r}")


class NodeBridge:
    """One long-lived node process running a bridge script; requests go in batches."""

    def __init__(self, script: str, *arguments: str) -> None:
        self.process = subprocess.Popen(
            [node_executable(), str(BRIDGES / script), *arguments],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        self.requests = 0

    def batch(self, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Send ``requests`` in one line; return their answers, in order."""
        if not requests:
            return []
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(requests, ensure_ascii=True) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the node bridge exited with status {self.process.wait()}")
        answers: list[dict[str, Any]] = json.loads(line)
        assert len(answers) == len(requests)
        self.requests += len(requests)
        return answers

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        """Send one request; return its answer."""
        return self.batch([request])[0]

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)
def token_backends_or_skip() -> tuple[str, ...]:
    """The installed token counting backends; skip without any (fail under CI).

    The ``typed-eson[tokens]`` extra installs them; CI installs the extra, so
    there a missing backend is a broken install, not a reason to skip.
    """
    from eson.agent.tokens import token_backends

    backends = token_backends()
    if not backends:
        unavailable("needs the typed-eson[tokens] extra: pip install -e '.[tokens]'")
    return backends


@pytest.fixture(scope="session")
def token_backends() -> tuple[str, ...]:
    """The installed token backends (skips the test without the ``tokens`` extra)."""
    return token_backends_or_skip()


# ---------------------------------------------------------------- the two formats
#
# A test that holds for ESON and TOON alike takes ``wire_format`` and runs once
# per format (ids "eson" and "toon"); tests/formats.py says what each gives.


@pytest.fixture(scope="session", params=["eson", "toon"])
def wire_format(request: pytest.FixtureRequest) -> WireCodec:
    """The format under test: :data:`formats.ESON` or :data:`formats.TOON`."""
    from formats import FORMATS  # imported here: conftest itself loads no eson

    return FORMATS[request.param]
