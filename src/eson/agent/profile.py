"""The Wire Profile's per-message rules, as data checks: the one rule table.

Two rules of the Wire Profile (``PROFILE.md``) look at the *shape* of a
value, and more than one part of the library needs them:

- **W5** (SHOULD): a uniform record array of three or more rows should not
  repeat its keys per row (:func:`undeduped_arrays`);
- **W6** (MUST): a field that names an irreversible action (auth, secrets,
  money, migrations, deletes, revocations ...) must not travel inside a
  dense encoding -- ESON, TOON, or a columnar block
  (:func:`carve_out_keys`, :data:`CARVE_OUT`).

:mod:`eson.agent.linter` reports them; :mod:`eson.agent.choice` uses W6 to
keep such values out of dense formats.  The walks follow the reference
linter's semantics exactly, including JavaScript's property order (keys that
are array indices come first, in numeric order), so findings come out in the
same order as the reference's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from eson._internal.wire.eson_lexicon import COUNT_SOURCE

__all__ = [
    "CARVE_OUT",
    "carve_out_keys",
    "is_carve_out",
    "is_columnar_block",
    "js_items",
    "undeduped_arrays",
]

#: Field names that announce an irreversible action (matched whole, ASCII
#: case-insensitively, with an optional plural ``s``).
CARVE_OUT = re.compile(
    r"(?:auth|secret|password|credential|payment|transfer|migration|delete|drop|revoke"
    r"|api_?key|bearer|jwt|(?:auth|access|refresh)_token)s?",
    re.IGNORECASE | re.ASCII,
)

_ARRAY_INDEX = re.compile(COUNT_SOURCE)
_MAX_INDEX = 2**32 - 2


def is_carve_out(key: str) -> bool:
    """Whether a field name is a W6 carve-out (``payment``, ``api_keys``, ``JWT`` ...)."""
    return CARVE_OUT.fullmatch(key) is not None


def _is_index(key: str) -> bool:
    # An index has at most 10 digits (2**32 - 2): a longer key is no index, and
    # int() of it could pass Python's digit limit (a ValueError).
    return len(key) <= 10 and _ARRAY_INDEX.fullmatch(key) is not None and int(key) <= _MAX_INDEX


def js_items(value: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """The items of an object in JavaScript's property order.

    Keys that are array indices (``"0"``, ``"17"``) come first in ascending
    numeric order, then the other keys in insertion order -- the order
    ``Object.entries`` gives for an object ``JSON.parse`` built.
    """
    indices = [key for key in value if _is_index(key)]
    if not indices:
        yield from value.items()
        return
    for key in sorted(indices, key=int):
        yield key, value[key]
    for key, item in value.items():
        if not _is_index(key):
            yield key, item


def _js_keys(value: dict[str, Any]) -> list[str]:
    return [key for key, _ in js_items(value)]


def is_columnar_block(value: object) -> bool:
    """Whether ``value`` is shaped like a columnar block, as the negotiation detects one.

    An object with a ``#c`` list of strings and a ``#r`` list of rows, each
    row a list as long as ``#c`` (other keys allowed, as the reference
    linter allows them).
    """
    if not isinstance(value, dict):
        return False
    columns = value.get("#c")
    rows = value.get("#r")
    if not isinstance(columns, list) or not isinstance(rows, list):
        return False
    if not all(isinstance(name, str) for name in columns):
        return False
    width = len(columns)
    return all(isinstance(row, list) and len(row) == width for row in rows)


def undeduped_arrays(value: Any, path: str = "$") -> list[str]:
    """Paths of uniform record arrays (3+ objects, same keys) that repeat their keys (W5).

    Columnar blocks are skipped, and so is everything inside them.
    """
    found: list[str] = []
    _undeduped(value, path, found)
    return found


def _undeduped(value: Any, path: str, found: list[str]) -> None:
    if isinstance(value, list):
        if (
            len(value) >= 3
            and all(isinstance(item, dict) for item in value)
            and not any(is_columnar_block(item) for item in value)
        ):
            keys = _js_keys(value[0])
            if all(_js_keys(item) == keys for item in value):
                found.append(path)
        for index, item in enumerate(value):
            _undeduped(item, f"{path}[{index}]", found)
    elif isinstance(value, dict) and not is_columnar_block(value):
        for key, item in js_items(value):
            _undeduped(item, f"{path}.{key}", found)


def carve_out_keys(value: Any, dense: bool) -> list[str]:
    """W6: carve-out field names whose values travel densely, first occurrence first.

    Args:
        value: The decoded payload.
        dense: The whole value is already dense (an ESON or TOON document);
            otherwise only columnar blocks inside it are.
    """
    found: dict[str, None] = {}
    _carve_outs(value, dense, found)
    return list(found)


def _carve_outs(value: Any, dense: bool, found: dict[str, None]) -> None:
    if isinstance(value, list):
        for item in value:
            _carve_outs(item, dense, found)
    elif isinstance(value, dict):
        for key, item in js_items(value):
            item_dense = dense or is_columnar_block(item)
            if item_dense and is_carve_out(key):
                found.setdefault(key)
            _carve_outs(item, item_dense, found)
