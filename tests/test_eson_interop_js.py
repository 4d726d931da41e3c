"""Interoperability with JavaScript, the language of the ESON reference implementation.

The reference (Green-PT/honey-eson, js/index.js) decides bareness with
``String.prototype.trim``, quotes with ``JSON.stringify`` and writes numbers
with ``Number.prototype.toString``.  These tests run node on thousands of
seeded strings and floats and check that our cells agree with what those
JavaScript primitives produce, and that JavaScript reads our cells back to the
same value.  The documented, deliberate differences are asserted explicitly:
U+2028/U+2029 are escaped, and integral floats keep a ``.0``.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import random
import shutil
import struct
import subprocess
from typing import Any

import pytest

from eson.wire.eson_cells import encode_str, is_bare
from eson.wire.eson_json import quote
from eson.wire.eson_numbers import format_float

NODE = shutil.which("node")
if NODE is None:
    if os.environ.get("CI"):
        raise RuntimeError("node is required for the JavaScript interop tests in CI")
    pytest.skip("node is not installed", allow_module_level=True)

# Our own JavaScript: it applies the spec's bare-string rule with JavaScript's
# primitives and reports what those primitives make of each input.
SCRIPT = r"""
const units = (s) => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));
const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const strings = input.strings.map((units) => String.fromCharCode(...units));
const out = {
  strings: strings.map((s) => ({
    bare: Boolean(s) && s === s.trim() && !/[\t\r\n]/.test(s) && !NUMBER.test(s) &&
      !["null", "true", "false"].includes(s) && !/^["[{]/.test(s),
    stringify: units(JSON.stringify(s)),
  })),
  ours: input.ours.map((text) => units(JSON.parse(text))),
  floats: input.floats.map((bits) => {
    const view = new DataView(new ArrayBuffer(8));
    view.setBigUint64(0, BigInt(bits));
    return String(view.getFloat64(0));
  }),
  readBack: input.floatTexts.map((text) => {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, Number(text));
    return view.getBigUint64(0).toString();
  }),
};
process.stdout.write(JSON.stringify(out));
"""


def _units(text: str) -> list[int]:
    return list(struct.unpack(f"<{len(text.encode('utf-16-le', 'surrogatepass')) // 2}H",
                              text.encode("utf-16-le", "surrogatepass")))


def _from_units(units: list[int]) -> str:
    return struct.pack(f"<{len(units)}H", *units).decode("utf-16-le", "surrogatepass")


def _has_surrogate_pair(text: str) -> bool:
    return any(
        0xD800 <= ord(a) <= 0xDBFF and 0xDC00 <= ord(b) <= 0xDFFF for a, b in itertools.pairwise(text)
    )


def _bits(value: float) -> int:
    return int(struct.unpack("<Q", struct.pack("<d", value))[0])


def _random_string(rng: random.Random) -> str:
    pool = (
        list(" \t\r\n\v\f\"[{\\-0123456789.eE+ax/é🚀")
        + ["\u00a0", "\u1680", "\u2000", "\u200a", "\u200b", "\u202f", "\u205f", "\u3000",
           "\ufeff", "\x85", "\x1c", "\x1f", "\x00", "\x01", "\x7f", "\ud800", "\udfff",
           "null", "true", "false", "1e3", "-0", "01"]
    )
    return "".join(rng.choice(pool) for _ in range(rng.randrange(0, 6)))


def _random_float(rng: random.Random) -> float:
    choice = rng.randrange(4)
    if choice == 0:
        return struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]  # type: ignore[no-any-return]
    if choice == 1:
        return rng.uniform(-1e6, 1e6)
    if choice == 2:
        return float(rng.randrange(-(10**22), 10**22)) * 10.0 ** rng.randrange(-30, 30)
    return round(rng.uniform(-100, 100), rng.randrange(0, 8))


@pytest.fixture(scope="module")
def javascript() -> dict[str, Any]:
    rng = random.Random(20261129)
    strings = [_random_string(rng) for _ in range(4000)]
    floats = [f for f in (_random_float(rng) for _ in range(4000)) if math.isfinite(f)]
    floats += [0.0, -0.0, 1e-7, 1e-6, 1e21, 1e20, 1e16, 5e-324, 1.7976931348623157e308]
    payload = {
        "strings": [_units(s) for s in strings],
        "ours": [quote(s) for s in strings],
        "floats": [str(_bits(f)) for f in floats],
        "floatTexts": [format_float(f) for f in floats],
    }
    assert NODE is not None
    done = subprocess.run(
        [NODE, "-e", SCRIPT], input=json.dumps(payload), capture_output=True, text=True,
        check=True, timeout=120,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    result["inputs"] = strings
    result["input_floats"] = floats
    return result


def test_bare_decision_matches_javascript(javascript: dict[str, Any]) -> None:
    for text, js in zip(javascript["inputs"], javascript["strings"]):
        if any(c in text for c in "\u2028\u2029") or any(0xD800 <= ord(c) <= 0xDFFF for c in text):
            # Deliberate: we always quote these (see eson.wire.eson_json).
            assert not is_bare(text)
            continue
        assert is_bare(text) == js["bare"], repr(text)


def test_quoting_matches_json_stringify(javascript: dict[str, Any]) -> None:
    for text, js in zip(javascript["inputs"], javascript["strings"]):
        if _has_surrogate_pair(text):
            # A Python str may hold the two halves of a pair as separate code
            # points; JavaScript sees one character there.  We escape both.
            continue
        expected = _from_units(js["stringify"])
        expected = expected.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
        assert quote(text) == expected, repr(text)
        if not is_bare(text):
            assert encode_str(text) == expected


def test_javascript_reads_our_strings_back(javascript: dict[str, Any]) -> None:
    for text, units in zip(javascript["inputs"], javascript["ours"]):
        assert units == _units(text), repr(text)


def test_float_text_matches_number_to_string(javascript: dict[str, Any]) -> None:
    for value, js in zip(javascript["input_floats"], javascript["floats"]):
        ours = format_float(value)
        if value == 0 or (value.is_integer() and abs(value) < 1e21):
            # Deliberate: integral floats keep ".0" so Python reads a float back.
            assert ours == ("-" if math.copysign(1, value) < 0 and js == "0" else "") + js + ".0"
        else:
            assert ours == js, value


def test_javascript_reads_our_floats_back_exactly(javascript: dict[str, Any]) -> None:
    for value, bits in zip(javascript["input_floats"], javascript["readBack"]):
        if value == 0:
            continue  # JavaScript's Number("-0.0") is -0 too, but 0 == -0 in the bit test below
        assert int(bits) == _bits(value), value
