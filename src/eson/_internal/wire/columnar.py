"""Columnar JSON: compact JSON whose uniform record arrays are written as column blocks.

The wire negotiation (``columnar`` capability) and the reference format
benchmark define it: a list of two or more objects that all have the same
keys in the same order is written once as its column names and then one
array of cells per record, still valid JSON::

    [{"id":1,"ok":true},{"id":2,"ok":false}]
    ->  {"#c":["id","ok"],"#r":[[1,true],[2,false]]}

The rule applies at every depth (cells of a block may hold blocks of their
own); everything else is compact JSON (no spaces, non-ASCII written as is).
Lists of objects without any key stay as they are: a block would only be
longer.

Reading undoes it: every object whose keys are exactly ``#c`` and ``#r``
is a block and becomes a list of objects again.  A block must be well
formed -- ``#c`` a list of distinct strings, ``#r`` a list of lists each as
long as ``#c`` -- or the text is rejected, because a block that does not
match its column list is a damaged payload, never a different value.  For
the same reason the writer refuses a plain object whose keys are exactly
``#c`` and ``#r``: it could not be read back as itself.

One leading byte-order mark is ignored, as the other readers do.

Errors: :class:`~eson.errors.EncodeError` for values JSON cannot hold
(non-finite floats, non-string keys, other types, cycles, nesting deeper
than :data:`MAX_DEPTH`), :class:`~eson.errors.DecodeError` for text that is
not JSON or holds a malformed block; both name the path (``$.findings[2]``).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from eson._internal.wire.eson_json import nested_deeper_than
from eson._internal.wire.eson_lexicon import MAX_JSON_DEPTH
from eson.errors import ECHO_LIMIT, DecodeError, EncodeError, echo, printable

#: The key holding a block's column names.
COLUMNS = "#c"
#: The key holding a block's rows.
ROWS = "#r"
#: Deepest nesting of lists and objects accepted in either direction.
MAX_DEPTH = MAX_JSON_DEPTH

_BLOCK_KEYS = frozenset((COLUMNS, ROWS))
_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode


def uniform_keys(items: list[Any] | tuple[Any, ...]) -> list[str] | None:
    """The shared keys of a uniform record array (2+ objects, same keys, same order), else ``None``."""
    if len(items) < 2:
        return None
    first = items[0]
    if not isinstance(first, dict) or not first:
        return None
    keys = list(first)
    for item in items:
        if not isinstance(item, dict) or len(item) != len(keys) or list(item) != keys:
            return None
    return keys


def is_block(value: object) -> bool:
    """Whether ``value`` is an object whose keys are exactly ``#c`` and ``#r``."""
    return isinstance(value, dict) and len(value) == 2 and value.keys() == _BLOCK_KEYS


def _path(path: tuple[str | int, ...]) -> str:
    """Where in the value, for a message: ``$.a[0].b``, its middle cut when long."""
    text = "$"
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else f".{step}"
    if len(text) > ECHO_LIMIT:  # keep both ends: the root and the deepest steps
        text = f"{text[: ECHO_LIMIT // 2 - 2]}...{text[-(ECHO_LIMIT // 2 - 1) :]}"
    return printable(text, ECHO_LIMIT)


def _clip(text: str, limit: int = ECHO_LIMIT) -> str:
    return printable(text, limit)


def encode_columnar(value: Any) -> str:
    """Write a plain value (the JSON data model) as columnar JSON text.

    Raises:
        EncodeError: for a value JSON cannot hold, or a plain object that
            would read back as a block; the reason names the path.
    """
    try:
        shaped = _columnize(value, (), 0, set())
        return _dumps(shaped)
    except RecursionError:  # a deep value on an already deep stack
        raise EncodeError("value nested too deeply for JSON") from None


def check_json(value: Any) -> None:
    """Check that plain JSON can hold ``value`` (finite numbers, ``str`` keys, no cycles).

    Raises:
        EncodeError: naming the path of the first problem.
    """
    try:
        _columnize(value, (), 0, set(), blocks=False)
    except RecursionError:
        raise EncodeError("value nested too deeply for JSON") from None


def _columnize(
    value: Any, path: tuple[str | int, ...], depth: int, active: set[int], blocks: bool = True
) -> Any:
    """Return ``value`` with every uniform record array turned into a block (checked).

    With ``blocks=False`` only the checks run (the value comes back as plain JSON).
    """
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, int):
        limit = sys.get_int_max_str_digits()
        if limit and value.bit_length() > 3 * limit:  # fewer bits always fit
            try:
                str(value)
            except ValueError as exc:
                raise EncodeError(f"at {_path(path)}: integer too large to write: {exc}") from None
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise EncodeError(f"at {_path(path)}: JSON numbers must be finite, not {echo(value)}")
        return value
    if not isinstance(value, (dict, list, tuple)):
        raise EncodeError(f"at {_path(path)}: unsupported type {type(value).__name__}")
    if depth >= MAX_DEPTH:
        raise EncodeError(f"at {_path(path)}: nested deeper than {MAX_DEPTH} levels")
    ident = id(value)
    if ident in active:
        raise EncodeError(f"at {_path(path)}: cyclic value cannot be encoded")
    active.add(ident)
    try:
        if isinstance(value, dict):
            for key in value:
                if not isinstance(key, str):
                    raise EncodeError(f"at {_path(path)}: object key {echo(key)} is not a string")
            if blocks and is_block(value):
                raise EncodeError(
                    f"at {_path(path)}: an object with exactly the keys {COLUMNS!r} and "
                    f"{ROWS!r} would read back as a columnar block"
                )
            shaped: dict[str, Any] = {}
            for key, item in value.items():  # loops, not comprehensions: one frame a level
                shaped[key] = _columnize(item, (*path, key), depth + 1, active, blocks)
            return shaped
        keys = uniform_keys(value) if blocks else None
        if keys is None:
            items: list[Any] = []
            for index, item in enumerate(value):
                items.append(_columnize(item, (*path, index), depth + 1, active, blocks))
            return items
        for key in keys:
            if not isinstance(key, str):
                raise EncodeError(f"at {_path(path)}[0]: object key {echo(key)} is not a string")
        if len(keys) == 2 and set(keys) == _BLOCK_KEYS:
            raise EncodeError(
                f"at {_path(path)}[0]: an object with exactly the keys {COLUMNS!r} and "
                f"{ROWS!r} would read back as a columnar block"
            )
        rows: list[list[Any]] = []
        for index, record in enumerate(value):
            row: list[Any] = []
            for key in keys:
                row.append(_columnize(record[key], (*path, index, key), depth + 2, active))
            rows.append(row)
        return {COLUMNS: keys, ROWS: rows}
    finally:
        active.discard(ident)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"duplicate object key {_clip(json.dumps(key, ensure_ascii=False))}")
            seen.add(key)
    return result


_decoder = json.JSONDecoder(parse_constant=_reject_constant, object_pairs_hook=_unique_object)


def nested_too_deep(text: str) -> bool:
    """Whether JSON text nests brackets deeper than :data:`MAX_DEPTH` (outside strings)."""
    return nested_deeper_than(text, MAX_DEPTH)


def load_json_text(text: str) -> Any:
    """Parse one JSON text strictly (no NaN/Infinity, no duplicate keys, bounded depth).

    Raises:
        DecodeError: naming the line and column of the problem.
    """
    if text.count("[") + text.count("{") > MAX_DEPTH and nested_too_deep(text):
        raise DecodeError(f"JSON nested deeper than {MAX_DEPTH} levels")
    try:
        return _decoder.decode(text)
    except json.JSONDecodeError as exc:
        raise DecodeError(
            f"invalid JSON: {exc.msg} at column {exc.colno}", line=exc.lineno
        ) from None
    except RecursionError:  # pragma: no cover - bounded by the depth check
        raise DecodeError("JSON nested too deeply") from None
    except ValueError as exc:  # duplicate keys, constants, oversized integers
        raise DecodeError(f"invalid JSON: {_clip(str(exc))}") from None


def decode_columnar(text: str) -> Any:
    """Read columnar JSON text (plain JSON too) into plain values, blocks rebuilt as lists.

    Raises:
        DecodeError: for text that is not JSON or holds a malformed block.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    value = load_json_text(text)
    try:
        return rebuild(value)
    except RecursionError:
        raise DecodeError("JSON nested too deeply") from None


def rebuild(value: Any, path: tuple[str | int, ...] = ()) -> Any:
    """Turn every block inside a parsed JSON value back into a list of objects.

    Raises:
        DecodeError: for a malformed block, naming its path.
    """
    if isinstance(value, list):
        items: list[Any] = []
        for index, item in enumerate(value):  # loops, not comprehensions: one frame a level
            items.append(rebuild(item, (*path, index)))
        return items
    if not isinstance(value, dict):
        return value
    if not is_block(value):
        rebuilt: dict[str, Any] = {}
        for key, item in value.items():
            rebuilt[key] = rebuild(item, (*path, key))
        return rebuilt
    columns = value[COLUMNS]
    rows = value[ROWS]
    where = _path(path)
    if not isinstance(columns, list) or not all(isinstance(name, str) for name in columns):
        raise DecodeError(f"at {where}: columnar block {COLUMNS!r} must be a list of strings")
    if len(set(columns)) != len(columns):
        raise DecodeError(f"at {where}: columnar block {COLUMNS!r} names a column twice")
    if not isinstance(rows, list):
        raise DecodeError(f"at {where}: columnar block {ROWS!r} must be a list of rows")
    width = len(columns)
    records: list[dict[str, Any]] = []
    for index, row in enumerate(rows):
        if not isinstance(row, list):
            raise DecodeError(f"at {where}: columnar row {index + 1} is not a list", row=index + 1)
        if len(row) != width:
            raise DecodeError(
                f"at {where}: columnar row {index + 1} has {len(row)} cells, "
                f"{COLUMNS!r} names {width} columns",
                row=index + 1,
            )
        record: dict[str, Any] = {}
        for name, cell in zip(columns, row):
            record[name] = rebuild(cell, (*path, index, name))
        records.append(record)
    return records
