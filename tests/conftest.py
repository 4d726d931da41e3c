"""Shared test fixtures: where the conformance data lives.

The official ESON vectors and TOON fixtures are read at run time from
``../shared/conformance`` beside the repository, or from the directory named
by the ``TYPED_ESON_CONFORMANCE`` environment variable.  They are never copied
into this repository.
"""

from __future__ import annotations

import os
from pathlib import Path

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
