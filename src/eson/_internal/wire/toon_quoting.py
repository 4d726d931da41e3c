"""One TOON token to and from one primitive value.

Writing: :func:`format_primitive` turns ``None``/``bool``/``int``/``float``/
``str`` into the token TOON puts on the wire, quoting a string only when the
spec requires it (section 7.2, see below), and :func:`format_key` does the
same for object keys and field names.  Numbers use
the canonical decimal form: no exponent inside ``1e-6 <= |x| < 1e21``, no
trailing zeros, ``-0`` as ``0``, NaN and infinities as ``null``.

Reading: :func:`parse_primitive` turns one token (already split off its line
and trimmed of spaces) back into a value, applying the decoder's number
grammar and the escape rules of quoted strings.

Leading and trailing white space means U+0020 and U+0009 only (spec v4.0
§7.2, the rule the v4.0 changelog fixed to match §12's token trimming): a
string that starts or ends with a no-break space, an ideographic space, a
byte-order mark, U+2028 or any other Unicode white space is written bare,
because a decoder trims only U+0020 and so reads it back unchanged.  The
TypeScript reference (``@toon-format/toon`` 4.4.0) decides the same way.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from eson._internal.accelerator import native
from eson._internal.wire.toon_lexicon import (
    ALWAYS_UNSAFE_CLASS,
    DELIMITERS,
    DIGITS,
    EDGE_SPACE,
    EXPONENT_SOURCE,
    FRACTION_SOURCE,
    INT_SOURCE,
    LITERAL_SOURCE,
    LITERALS,
    NUMBER_SOURCE,
    NUMBER_START,
    NUMBER_START_CLASS,
    NUMERIC_LIKE_SOURCE,
    QUOTED_SOURCE,
    SAFE_KEY_SOURCE,
    SHORT_INT_SOURCE,
    UNSAFE_FIRST_CLASS,
)
from eson._internal.wire.toon_limits import MAX_INT_DIGITS
from eson.errors import TOONError

_ALWAYS_UNSAFE = ALWAYS_UNSAFE_CLASS
_EDGE_SPACE = EDGE_SPACE


def _safe_pattern(delimiter: str) -> re.Pattern[str]:
    bad = _ALWAYS_UNSAFE + re.escape(delimiter)
    return re.compile(
        rf"(?!(?:{LITERAL_SOURCE})\Z)"
        rf"(?!{NUMERIC_LIKE_SOURCE}\Z)"
        rf"[^{UNSAFE_FIRST_CLASS}{_EDGE_SPACE}{bad}](?:[^{bad}]*[^{_EDGE_SPACE}{bad}])?"
    )


# fullmatch() succeeds exactly when a string may be written without quotes.
_SAFE_STRING = {d: _safe_pattern(d) for d in DELIMITERS}


def _safe_lines_pattern(delimiter: str) -> re.Pattern[str]:
    """Like :func:`_safe_pattern`, for many strings joined by LF (one a line)."""
    bad = _ALWAYS_UNSAFE + re.escape(delimiter)
    end = r"(?:\n|\Z)"
    line = (
        rf"(?!(?:{LITERAL_SOURCE}){end})"
        rf"(?!{NUMERIC_LIKE_SOURCE}{end})"
        rf"[^{UNSAFE_FIRST_CLASS}{_EDGE_SPACE}{bad}](?:[^{bad}]*[^{_EDGE_SPACE}{bad}])?"
    )
    return re.compile(rf"{line}(?:\n{line})*")


# fullmatch() of the LF-joined strings succeeds exactly when none needs quotes
# (an LF inside a string is unsafe, and is caught by counting the LFs).
_SAFE_LINES = {d: _safe_lines_pattern(d) for d in DELIMITERS}
_SAFE_KEY = re.compile(SAFE_KEY_SOURCE)
_SURROGATE = re.compile(r"[\ud800-\udfff]")

_ESCAPES: dict[int, str] = {i: f"\\u{i:04x}" for i in range(0x20)}
_ESCAPES.update(
    {ord("\\"): "\\\\", ord('"'): '\\"', ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t"}
)


def quote(text: str) -> str:
    """Return ``text`` as a quoted TOON string, escaping per the spec.

    Raises:
        TOONError: if ``text`` holds a surrogate code point, which no TOON
            escape can carry.
    """
    if _SURROGATE.search(text) is not None:
        raise TOONError("cannot encode a string holding a surrogate code point")
    return '"' + text.translate(_ESCAPES) + '"'


def format_string(text: str, delimiter: str = ",") -> str:
    """Return the token for string ``text``, quoted only when necessary.

    ``delimiter`` is the delimiter in force where the token goes: a string
    containing it must be quoted.
    """
    if _SAFE_STRING[delimiter].fullmatch(text) is not None:
        return text
    return quote(text)


def format_str_column(values: Sequence[str], delimiter: str = ",") -> list[str]:
    """Return the tokens of a column of strings: ``format_string`` of each, faster.

    The whole column is checked in one pass (the accelerator's
    ``toon_bare_strings``, else one regular-expression scan); only when some
    string needs quotes is each one looked at on its own.

    Raises:
        TypeError: if a value is not a ``str`` (subclasses count as ``str``).
        TOONError: for a string holding a surrogate code point.
    """
    bare = None
    if native is not None and type(values) in (list, tuple):
        bare = native.toon_bare_strings(values, delimiter)  # type: ignore[arg-type]
    if bare is True:
        return list(values)
    if bare is None:
        joined = "\n".join(values)
        if joined.count("\n") == len(values) - 1 and _SAFE_LINES[delimiter].fullmatch(joined):
            return list(values)
    safe = _SAFE_STRING[delimiter].fullmatch
    return [value if safe(value) is not None else quote(value) for value in values]


def table_rows(columns: list[Any], delimiter: str, pad: str) -> list[str]:
    """The lines of a table's rows: ``pad`` and each row's cells joined by ``delimiter``.

    ``columns`` holds the cells (``str``) column by column.
    """
    if native is not None:
        rows = native.join_rows(columns, delimiter, pad)
        if rows is not None:
            return rows
    join = delimiter.join
    return [pad + join(row) for row in zip(*columns)]


def format_key(key: str) -> str:
    """Return the token for an object key or tabular field name.

    Keys matching ``[A-Za-z_][A-Za-z0-9_.]*`` stay bare; all others are quoted.

    Raises:
        TOONError: if ``key`` is not a ``str``.
    """
    if not isinstance(key, str):
        raise TOONError(f"object keys must be str, got {type(key).__name__}")
    if _SAFE_KEY.fullmatch(key) is not None:
        return key
    return quote(key)


def format_int(value: int) -> str:
    """Return the canonical decimal form of an ``int`` (exact, any size).

    Raises:
        TOONError: for integers longer than ``MAX_INT_DIGITS`` digits.
    """
    try:
        return int.__repr__(value)
    except ValueError:  # CPython's int-to-str digit limit
        raise TOONError(f"integer has more than {MAX_INT_DIGITS} digits") from None


def format_float(value: float) -> str:
    """Return the canonical form of a ``float``, as the reference encoder writes it.

    The shortest digits that read back as the same float, with no exponent
    when ``1e-6 <= |value| < 1e21`` and JavaScript-style exponent form
    (``1e+21``, ``1.5e-7``) outside that range.  ``-0.0`` becomes ``0``; an
    integral value loses its ``.0``; NaN and infinities become ``null``.

    One deliberate difference from the reference encoder: a whole float of
    magnitude ``2**53 <= |value| < 1e21`` is written with its exact digits
    (``6.789915120274291e16`` gives ``67899151202742912``, where the reference
    writes ``67899151202742910``).  Both read back as the same float in a
    double-based decoder, but only the exact digits read back as the same
    number when integer tokens decode to exact ``int``, as they do here.
    """
    if not math.isfinite(value):
        return "null"
    if value == 0.0:
        return "0"
    text = float.__repr__(value)
    if "e" not in text:
        return text[:-2] if text.endswith(".0") else text
    if -1e21 < value < 1e21 and value.is_integer():
        # A whole float from 2**53 up: write its exact digits, because integer
        # tokens decode to exact ints here (see the docstring).
        return int.__repr__(int(value))
    return _relayout(text)


def _relayout(text: str) -> str:
    """Rewrite Python's exponent form of a float in the canonical layout."""
    sign = ""
    if text[0] == "-":
        sign, text = "-", text[1:]
    mantissa, _, exponent = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).rstrip("0") or "0"
    point = len(whole) + int(exponent)  # value = 0.<digits> * 10**point
    count = len(digits)
    if count <= point <= 21:
        body = digits + "0" * (point - count)
    elif 0 < point <= 21:
        body = digits[:point] + "." + digits[point:]
    elif -6 < point <= 0:
        body = "0." + "0" * -point + digits
    else:
        power = point - 1
        body = digits[0] + ("." + digits[1:] if count > 1 else "")
        body += ("e+" if power >= 0 else "e-") + str(abs(power))
    return sign + body


def format_primitive(value: Any, delimiter: str = ",") -> str:
    """Return the TOON token for one primitive value.

    Args:
        value: ``None``, ``bool``, ``int``, ``float`` or ``str`` (subclasses
            such as ``IntEnum`` members or ``str`` enums are accepted).
        delimiter: The delimiter in force where the token goes (``","``,
            ``"\\t"`` or ``"|"``); strings containing it are quoted.

    Raises:
        TOONError: for any other type, for strings holding surrogates and
            for integers beyond ``MAX_INT_DIGITS`` digits.
    """
    kind = type(value)
    if kind is str:
        if _SAFE_STRING[delimiter].fullmatch(value) is not None:
            return value  # type: ignore[no-any-return]
        return quote(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return format_int(value)
    if kind is float:
        return format_float(value)
    if isinstance(value, str):
        return format_string(value, delimiter)
    if isinstance(value, int):
        return format_int(value)
    if isinstance(value, float):
        return format_float(value)
    raise TOONError(f"cannot encode a value of type {kind.__name__} as a TOON primitive")


def primitive_formatter(delimiter: str = ",") -> Callable[[Any], str | None]:
    """Return a fast one-argument :func:`format_primitive` bound to ``delimiter``.

    The returned function gives the token for a primitive and ``None`` for
    anything else (containers and foreign types), so callers can try a whole
    column of cells and fall back when one is not a primitive.  It raises
    :class:`TOONError` only for surrogates and over-long integers.
    """
    safe = _SAFE_STRING[delimiter].fullmatch

    def format_cell(value: Any) -> str | None:
        kind = type(value)
        if kind is str:
            return value if safe(value) is not None else quote(value)
        if value is None:
            return "null"
        if kind is bool:
            return "true" if value else "false"
        if kind is int:
            try:
                return int.__repr__(value)
            except ValueError:  # CPython's int-to-str digit limit
                return format_int(value)
        if kind is float:
            return format_float(value)
        if isinstance(value, (str, int, float)):
            return format_primitive(value, delimiter)
        return None

    return format_cell


# ---------------------------------------------------------------- decoding

_NUMBER = re.compile(NUMBER_SOURCE)
_QUOTED = re.compile(f'"({QUOTED_SOURCE[1:-1]})"', re.S)
_ESCAPE = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|(.))", re.S)
_SIMPLE_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", '"': '"'}
_LITERALS = LITERALS
_NUMBER_START = NUMBER_START


def _unescape_one(match: re.Match[str]) -> str:
    hexdigits = match.group(1)
    if hexdigits is not None:
        code = int(hexdigits, 16)
        if 0xD800 <= code <= 0xDFFF:
            raise TOONError(
                f"escape \\u{hexdigits} is a surrogate; write characters above U+FFFF literally"
            )
        return chr(code)
    char = match.group(2)
    replacement = _SIMPLE_ESCAPES.get(char)
    if replacement is None:
        if char == "u":
            raise TOONError("\\u must be followed by four hex digits")
        raise TOONError(f"invalid escape sequence \\{char}")
    return replacement


def unescape(body: str) -> str:
    """Resolve the escapes in the body of a quoted string (without its quotes).

    Raises:
        TOONError: for an escape other than ``\\\\ \\" \\n \\r \\t \\uXXXX``, or a
            ``\\uXXXX`` naming a surrogate.
    """
    if "\\" in body:
        return _ESCAPE.sub(_unescape_one, body)
    return body


def parse_quoted(token: str) -> str:
    """Decode a token that starts with ``"``: the whole token must be one quoted string.

    Raises:
        TOONError: for an unterminated string, text after the closing quote,
            or an escape the spec does not allow.
    """
    match = _QUOTED.match(token)
    if match is None:
        raise TOONError("unterminated string")
    if match.end() != len(token):
        raise TOONError("unexpected text after the closing quote")
    body = match.group(1)
    if "\\" in body:
        return _ESCAPE.sub(_unescape_one, body)
    return body


def _integer(token: str) -> int:
    if len(token) > MAX_INT_DIGITS and len(token) - (token[0] == "-") > MAX_INT_DIGITS:
        raise TOONError(f"integer has more than {MAX_INT_DIGITS} digits")
    return int(token)


def _float(token: str) -> float:
    number = float(token)
    if number - number != 0.0:  # infinite (NaN cannot come from the grammar)
        raise TOONError(f"number {token[:40]} is out of the float range")
    return number if number else 0.0  # -0.0 becomes 0.0


def _number(token: str) -> int | float | str:
    """Decode a token that starts with ``-`` or a digit: a number, or else the string."""
    body = token[1:] if token[0] == "-" else token
    # Fast paths for plain integers and plain decimals; the regex covers the rest.
    if body.isdigit():
        if body.isascii() and (body[0] != "0" or len(body) == 1):
            return _integer(token)
        return token
    whole, dot, fraction = body.partition(".")
    if dot and whole.isdigit() and fraction.isdigit() and body.isascii():
        return _float(token) if whole[0] != "0" or len(whole) == 1 else token
    if _NUMBER.fullmatch(token) is None:
        return token
    if "e" in token or "E" in token or "." in token:
        return _float(token)
    return _integer(token)


def parse_primitive(token: str) -> Any:
    """Decode one primitive token.

    ``token`` must already be trimmed of surrounding spaces.  ``true``,
    ``false`` and ``null`` become ``True``/``False``/``None``; a token matching
    the decoder number grammar (no leading zeros, no ``+``, ASCII digits)
    becomes an ``int`` when it has neither fraction nor exponent and a
    ``float`` otherwise; a quoted token is unescaped; anything else is the
    string itself.  The empty token is the empty string.

    Raises:
        TOONError: for a malformed quoted string, an integer longer than
            ``MAX_INT_DIGITS`` digits or a number beyond the float range.
    """
    if not token:
        return ""
    first = token[0]
    if first == '"':
        return parse_quoted(token)
    if first in _NUMBER_START:
        return _number(token)
    return _LITERALS.get(token, token)


# Whole-column shapes, matched against the column's tokens joined by LF (a
# token never holds a line break), so one regex scan classifies every token.
_NOT_PLAIN = re.compile(rf'\n(?:[{NUMBER_START_CLASS}"]|(?:{LITERAL_SOURCE})(?:\n|\Z))')
_NOT_PLAIN_FIRST = NUMBER_START | {'"'}
_INT_COLUMN = re.compile(rf"{SHORT_INT_SOURCE}(?:\n{SHORT_INT_SOURCE})*")
_FRACTION = rf"{INT_SOURCE}(?:{FRACTION_SOURCE}(?:{EXPONENT_SOURCE})?|{EXPONENT_SOURCE})"
_FLOAT_COLUMN = re.compile(rf"{_FRACTION}(?:\n{_FRACTION})*")
_LITERAL_COLUMN = re.compile(rf"(?:{LITERAL_SOURCE})(?:\n(?:{LITERAL_SOURCE}))*")
# Integers and decimals mixed (``0``, ``0.25``, ``1e3``): JSON reads these
# exactly as the TOON number grammar does.
_MIXED_NUMBERS = msgspec.json.Decoder(list[int | float])
# str.translate() with this leaves nothing iff only number characters remain.
_NUMBER_CHARS = str.maketrans("", "", DIGITS + ".-+eE\n")
_MAX_NUMBER_CHARS = 40  # any int this long is far below MAX_INT_DIGITS


def parse_column(tokens: Sequence[str]) -> list[Any]:
    """Decode a list of tokens, like ``[parse_primitive(t) for t in tokens]`` but faster.

    Tokens must be trimmed and hold no line break (true of any token taken
    from one line).  Columns of plain strings, integers, floats or literals
    are recognised in one pass and converted without a Python call per token;
    anything else falls back to :func:`parse_primitive` per token.

    Raises:
        TOONError: as :func:`parse_primitive` does, for the first bad token.
    """
    if len(tokens) == 1:  # a stream's row: one call beats the column's setup
        return [parse_primitive(tokens[0])]
    return _parse_joined(tokens, "\n".join(tokens))


def parse_cells(cells: Sequence[str]) -> list[Any]:
    """:func:`parse_column` of ``cells`` trimmed of spaces, for cells split but not trimmed.

    Checking the whole column for spaces at cell edges is cheaper than
    trimming every cell, and most columns have none.
    """
    joined = "\n".join(cells)
    if " " in joined and (
        joined[:1] == " " or joined[-1:] == " " or "\n " in joined or " \n" in joined
    ):
        cells = [cell.strip(" ") for cell in cells]
        joined = "\n".join(cells)
    return _parse_joined(cells, joined)


def _parse_joined(tokens: Sequence[str], joined: str) -> list[Any]:
    if joined.count("\n") != len(tokens) - 1:  # a token with a line break: be careful
        return list(map(parse_primitive, tokens))
    first = joined[:1]
    if (
        first not in _NOT_PLAIN_FIRST
        and _NOT_PLAIN.search(joined) is None
        and tokens[0] not in _LITERALS
    ):  # no number, literal or quoted token
        return list(tokens)
    if not joined.translate(_NUMBER_CHARS) and max(map(len, tokens)) <= _MAX_NUMBER_CHARS:
        # Only number characters, so each token is a JSON number or JSON fails
        # (the two grammars are the same); short ones are read exactly.
        try:
            values: list[Any] = _MIXED_NUMBERS.decode("[" + ",".join(tokens) + "]")
        except msgspec.DecodeError:  # malformed, or beyond the float range
            return list(map(parse_primitive, tokens))  # strings, or the error
        if 0.0 in values:  # -0.0 reads as 0.0, as parse_primitive does
            return [0.0 if type(v) is float and not v else v for v in values]
        return values
    if _INT_COLUMN.fullmatch(joined) is not None:
        return list(map(int, tokens))
    if _FLOAT_COLUMN.fullmatch(joined) is not None:
        numbers = list(map(float, tokens))
        if not math.isfinite(sum(numbers)):  # maybe a token overflowed to infinity
            return list(map(parse_primitive, tokens))  # which then raises
        return [number if number else 0.0 for number in numbers] if 0.0 in numbers else numbers
    if _LITERAL_COLUMN.fullmatch(joined) is not None:
        return list(map(_LITERALS.__getitem__, tokens))
    return list(map(parse_primitive, tokens))
