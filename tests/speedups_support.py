"""Running the same code with and without the C accelerator, in one process.

Every hot path asks ``eson._internal.accelerator.native`` through a module-level name
``native`` in its own module; :func:`pure` sets all of those to ``None`` for
the duration of a ``with`` block, which is exactly the pure-Python package
(the same as ``TYPED_ESON_NO_SPEEDUPS=1``, without a second process).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import eson
from eson._internal import accelerator


def require_accelerator() -> None:
    """Skip when the accelerator is switched off on purpose; fail under CI when it is missing.

    With ``TYPED_ESON_NO_SPEEDUPS=1`` the suite runs as pure Python (CI's
    second pass) and there is nothing to compare; the first pass runs these.
    """
    if accelerator.DISABLED_BY_ENV:
        pytest.skip("TYPED_ESON_NO_SPEEDUPS is set: the accelerated pass runs these tests")
    if accelerator.native is None:
        message = "the C accelerator eson._speedups is not built"
        if os.environ.get("CI"):
            pytest.fail(message + " (CI must build it)")
        pytest.skip(message)


_patched_cache: tuple[int, list[Any]] = (-1, [])


def _patched_modules() -> list[Any]:
    """The loaded ``eson`` modules holding ``native`` (recomputed when a module was imported)."""
    global _patched_cache
    loaded = len(sys.modules)
    if _patched_cache[0] != loaded:
        modules = [
            module
            for name, module in list(sys.modules.items())
            if (name == "eson" or name.startswith("eson."))
            and module is not None
            and hasattr(module, "native")
            and module is not accelerator
        ]
        _patched_cache = (loaded, modules)
    return [module for module in _patched_cache[1] if module.native is accelerator.native]


@contextmanager
def pure() -> Iterator[None]:
    """Run the block with every accelerated path switched to pure Python."""
    modules = _patched_modules()
    saved = accelerator.native
    for module in modules:
        module.native = None
    try:
        yield
    finally:
        for module in modules:
            module.native = saved


def outcome(function: Callable[[], Any]) -> tuple[str, Any]:
    """What calling ``function`` gives: ``("value", v)`` or ``("error", details)``.

    Errors compare by class, message and every location attribute.
    """
    try:
        return "value", function()
    except Exception as exc:
        details = {
            name: getattr(exc, name, None) for name in ("reason", "line", "section", "row", "field")
        }
        return "error", (type(exc), str(exc), details)


def both(function: Callable[[], Any]) -> tuple[tuple[str, Any], tuple[str, Any]]:
    """The outcome with the accelerator, then with pure Python."""
    fast = outcome(function)
    with pure():
        slow = outcome(function)
    return fast, slow


def same_value(left: Any, right: Any) -> bool:
    """Equality that also tells ``1`` from ``1.0`` and ``True``, and ``-0.0`` from ``0.0``."""
    if type(left) is not type(right):
        return False
    if isinstance(left, float):
        return (left == right and str(left) == str(right)) or (left != left and right != right)
    if isinstance(left, dict):
        return list(left) == list(right) and all(same_value(left[k], right[k]) for k in left)
    if isinstance(left, (list, tuple)):
        return len(left) == len(right) and all(map(same_value, left, right))
    return bool(left == right)


def assert_same(function: Callable[[], Any], *, exact: bool = True) -> Any:
    """Assert the accelerated and pure outcomes agree; return the value (or None)."""
    fast, slow = both(function)
    assert fast[0] == slow[0], (fast, slow)
    if fast[0] == "error":
        assert fast[1] == slow[1]
        return None
    if exact:
        assert same_value(fast[1], slow[1]), (fast[1], slow[1])
    else:
        assert fast[1] == slow[1]
    return fast[1]


__all__ = ["assert_same", "both", "eson", "outcome", "pure", "require_accelerator", "same_value"]
