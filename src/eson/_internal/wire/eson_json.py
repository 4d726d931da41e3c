"""Nested values inside a cell, written and read as compact JSON text.

A list or dict inside a record row (or as an array item) travels as one
compact JSON value.  The writer matches JavaScript's ``JSON.stringify``
byte for byte for values both languages hold -- same escapes (``\\u00xx``
in lower case for control characters, DEL left raw, lone surrogates
escaped), same number formatting -- with two deliberate differences:

- U+2028 and U+2029 are escaped (``\\u2028``), because the JavaScript
  reference reads scalar lines with a pattern that stops at them;
- integers beyond +/-(2**53 - 1) are rejected inside nested values, because
  a JavaScript reader would silently round them.  Keep large ids as
  top-level or record fields, where ESON protects them.

Nesting is limited to :data:`MAX_DEPTH` levels in both directions, so a
hostile document can neither exhaust the stack nor make the writer recurse
without bound.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from eson._internal.accelerator import native
from eson._internal.wire.eson_lexicon import MAX_JSON_DEPTH, lazy_pattern
from eson._internal.wire.eson_numbers import format_float
from eson.errors import EncodeError, echo

if TYPE_CHECKING:
    import json


#: Deepest nesting of lists/dicts accepted inside one cell.
MAX_DEPTH = MAX_JSON_DEPTH

#: Largest integer a JavaScript number holds exactly (2**53 - 1).
MAX_SAFE_INTEGER = 2**53 - 1

_JS_ESCAPES = lazy_pattern("[\u2028\u2029\ud800-\udfff]")
#: A high surrogate directly followed by a low one, as two code points.
_SPLIT_PAIR = lazy_pattern("[\ud800-\udbff][\udc00-\udfff]")


class NestingError(ValueError):
    """A nested value is deeper than :data:`MAX_DEPTH`, cyclic, or otherwise unwritable."""


def _escape_code_point(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def quote(text: str) -> str:
    """Return ``text`` as a JSON string literal, escaped as described above.

    Raises:
        EncodeError: when ``text`` holds a high surrogate directly followed by
            a low one as two code points: their two escapes would read back as
            one character, so the text cannot be written as it is.
    """
    if native is not None and type(text) is str:
        quoted: str | None = native.quote(text)
        if quoted is not None:
            return quoted
    quoted = (_dump_str or _json_codecs()[0])(text)
    if _JS_ESCAPES.search(quoted) is not None:
        pair = _SPLIT_PAIR.search(text)
        if pair is not None:
            high, low = pair.group()[0], pair.group()[1]
            raise EncodeError(
                f"the string holds U+{ord(high):04X} U+{ord(low):04X}, a surrogate pair as two "
                "code points, which JSON reads back as one character; it cannot be written as it is"
            )
        quoted = _JS_ESCAPES.sub(_escape_code_point, quoted)
    return quoted


def dump_json(value: object) -> str:
    """Write a JSON-model value (dict, list, tuple, str, int, float, bool, None) compactly.

    Raises:
        NestingError: for unsupported types, non-string keys, non-finite
            floats, unsafe integers, cycles, or nesting beyond MAX_DEPTH.
    """
    parts: list[str] = []
    _write(value, parts, 0, set())
    return "".join(parts)


def _write(value: object, parts: list[str], depth: int, active: set[int]) -> None:
    kind = type(value)
    if kind is str:
        parts.append(quote(value))  # type: ignore[arg-type]
    elif value is None:
        parts.append("null")
    elif kind is bool:
        parts.append("true" if value else "false")
    elif kind is int or (isinstance(value, int) and not isinstance(value, bool)):
        number = int(value)  # type: ignore[call-overload]
        if -MAX_SAFE_INTEGER <= number <= MAX_SAFE_INTEGER:
            parts.append(int.__repr__(number))
        else:
            raise NestingError(
                f"integer {echo(number)} inside a nested value is beyond +/-(2**53-1), which "
                "JavaScript readers corrupt; move it to a top-level or record field "
                "or send it as a string"
            )
    elif isinstance(value, float):
        try:
            parts.append(format_float(value))
        except ValueError as exc:
            raise NestingError(str(exc)) from None
    elif isinstance(value, str):
        parts.append(quote(str.__str__(value)))
    elif isinstance(value, (list, tuple, dict)):
        if depth >= MAX_DEPTH:
            raise NestingError(f"nested value is deeper than {MAX_DEPTH} levels")
        ident = id(value)
        if ident in active:
            raise NestingError("cyclic value cannot be encoded")
        active.add(ident)
        if isinstance(value, dict):
            parts.append("{")
            first = True
            for key, item in value.items():
                if not isinstance(key, str):
                    raise NestingError(f"object key {echo(key)} is not a string")
                if not first:
                    parts.append(",")
                first = False
                parts.append(quote(str.__str__(key)))
                parts.append(":")
                _write(item, parts, depth + 1, active)
            parts.append("}")
        else:
            parts.append("[")
            for index, item in enumerate(value):
                if index:
                    parts.append(",")
                _write(item, parts, depth + 1, active)
            parts.append("]")
        active.discard(ident)
    else:
        raise NestingError(f"unsupported type {kind.__name__} in a nested value")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    number = float(text)
    if number in (float("inf"), float("-inf")):
        raise ValueError(f"number {text[:40]} is not finite")
    return number


#: The standard library's JSON codecs as this module uses them: made on first
#: use, so that ``import eson`` does not import :mod:`json`
#: (tests/test_startup.py).
_dump_str: Callable[[str], str] | None = None
_decoder: json.JSONDecoder | None = None


def _json_codecs() -> tuple[Callable[[str], str], json.JSONDecoder]:
    global _dump_str, _decoder
    import json

    if _dump_str is None or _decoder is None:
        _decoder = json.JSONDecoder(parse_float=_finite_float, parse_constant=_reject_constant)
        _dump_str = json.JSONEncoder(ensure_ascii=False).encode
    return _dump_str, _decoder


def load_json(text: str) -> Any:
    """Parse one cell's JSON text (strict JSON: finite numbers only, bounded depth).

    Raises:
        ValueError: with a short cause when the text is not one JSON value.
    """
    if text.count("[") + text.count("{") > MAX_DEPTH and nested_deeper_than(text, MAX_DEPTH):
        raise ValueError(f"nested value is deeper than {MAX_DEPTH} levels")
    decoder = _decoder or _json_codecs()[1]
    try:
        return decoder.decode(text)
    except RecursionError:
        raise ValueError("nested value is too deep") from None
    except ValueError as exc:
        from json import JSONDecodeError

        if not isinstance(exc, JSONDecodeError):  # _finite_float's, _reject_constant's
            raise
        raise ValueError(f"malformed JSON ({exc.msg} at column {exc.colno})") from None


def nested_deeper_than(text: str, limit: int) -> bool:
    """Whether JSON text nests brackets deeper than ``limit`` outside string literals.

    One scan for every JSON reader (cells, columnar JSON, replies, the linter);
    it stops at the first bracket past the limit.  Callers run it only on
    suspicious text (more than ``limit`` opening brackets in all).
    """
    return too_deep_at(text, limit) is not None


def too_deep_at(text: str, limit: int) -> int | None:
    """The index of the first bracket that nests deeper than ``limit``, or None.

    Brackets inside JSON string literals do not count.  The depth is checked
    here, not left to the parser's recursion, because CPython's JSON parser
    stops at a depth that depends on the interpreter (3.11 at the recursion
    limit, 3.12 and later at a larger limit of the C stack).
    """
    depth = 0
    in_string = escaped = False
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return index
        elif char in "]}":
            depth -= 1
    return None
