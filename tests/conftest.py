"""Shared test fixtures: where the conformance data and the JavaScript peers live.

The official ESON vectors and TOON fixtures are read at run time from
``../shared/conformance`` beside the repository, or from the directory named
by the ``TYPED_ESON_CONFORMANCE`` environment variable.  They are never copied
into this repository.  The JavaScript implementations the interop tests run
are found as described under "JavaScript peers" below.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any, NoReturn

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


def conformance_dir() -> Path:
    """Return the conformance directory, failing loudly when it is absent."""
    override = os.environ.get("TYPED_ESON_CONFORMANCE")
    path = Path(override) if override else REPO_ROOT.parent / "shared" / "conformance"
    if not path.is_dir():
        raise RuntimeError(
            f"conformance data not found at {path}; set TYPED_ESON_CONFORMANCE "
            "to the directory holding eson/vectors.json and toon/fixtures/"
        )
    return path


@pytest.fixture(scope="session")
def conformance() -> Path:
    """The conformance directory (``eson/vectors.json``, ``toon/fixtures/``)."""
    return conformance_dir()


# ---------------------------------------------------------------- JavaScript peers
#
# The interop tests run real JavaScript implementations in node: the ESON
# reference (``../shared/reference/eson/js/index.js``, read where it lives) and
# ``@toon-format/toon`` from npm (installed by ``.ci/run`` into ``.cache``).
# Where they are found:
#
# - node: ``$NODE`` if set, else ``node`` on ``PATH``;
# - the ESON reference: ``$ESON_JS_DIR`` if set, else ``../shared/reference/eson/js``;
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
