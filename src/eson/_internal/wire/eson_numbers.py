"""Numbers on the ESON wire: the JSON number grammar and float formatting.

Integers are written with ``int.__repr__`` and read with ``int`` -- never
through a binary float -- so they keep any magnitude (up to the interpreter's
``sys.get_int_max_str_digits()`` guard, which bounds the work a hostile
document can cause; raise it with ``sys.set_int_max_str_digits`` if needed).

Floats are written the way JavaScript's ``Number.prototype.toString`` writes
them (the shortest digits that round-trip, exponent only below 1e-6 or from
1e21 up, exponent without leading zeros), so a float both languages hold
encodes to the same bytes.  The one Python-only choice: a float with an
integral value keeps a ``.0`` (``100.0``, ``-0.0``) so that it decodes back to
a ``float`` and not an ``int``.
"""

from __future__ import annotations

import math

from eson._internal.accelerator import native
from eson._internal.wire.eson_lexicon import NUMBER_RE as NUMBER_RE
from eson.errors import ECHO_LIMIT, printable

_float_repr = float.__repr__


def format_float(value: float) -> str:
    """Return the canonical text of a finite float.

    Raises:
        ValueError: if ``value`` is NaN or infinite (ESON numbers are finite).
    """
    if native is not None:
        fast = native.format_float(value)
        if fast is not None:
            return fast
    text = _float_repr(value)
    if "e" not in text:
        if "n" in text:  # 'nan', 'inf', '-inf'
            raise ValueError(f"non-finite number {text} cannot be encoded")
        return text
    return _javascript_exponent_form(text)


def _javascript_exponent_form(text: str) -> str:
    """Rewrite Python's exponent repr (``1e-05``, ``1.5e+16``) in JS's rules."""
    sign = ""
    if text[0] == "-":
        sign, text = "-", text[1:]
    mantissa, _, exponent_text = text.partition("e")
    digits = mantissa.replace(".", "")
    count = len(digits)
    point = int(exponent_text) + 1  # digits[:point] is the integer part
    if count <= point <= 21:
        return f"{sign}{digits}{'0' * (point - count)}.0"
    if 0 < point <= 21:
        return f"{sign}{digits[:point]}.{digits[point:]}"
    if -6 < point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    exponent = point - 1
    exponent_sign = "+" if exponent >= 0 else "-"
    body = digits if count == 1 else f"{digits[0]}.{digits[1:]}"
    return f"{sign}{body}e{exponent_sign}{abs(exponent)}"


def parse_number(text: str) -> int | float:
    """Convert text that already matched :data:`NUMBER_RE` to ``int`` or ``float``.

    Raises:
        ValueError: if the number is not finite (``1e999``) or an integer has
            more digits than ``sys.get_int_max_str_digits()`` allows.
    """
    if "." in text or "e" in text or "E" in text:
        number = float(text)
        if math.isinf(number):
            raise ValueError(f"number {printable(text, ECHO_LIMIT)} is not finite")
        return number
    return int(text)
