"""Interop with the TypeScript reference implementation, ``@toon-format/toon``.

For many generated values and every option combination, both encoders must
produce byte-identical text, and each decoder must read the other's output
back to the original value.  The reference runs in node through
``tests/interop/toon_bridge.mjs``.

The package is looked up in ``$TOON_JS_DIR`` (an ``npm install --prefix``
directory, or the package directory itself), else ``<repo>/.cache/toon-js``.
Install it with::

    npm install --prefix .cache/toon-js --no-save @toon-format/toon@4.0.0

Without node or the package these tests skip, except under CI (``$CI`` set),
where they fail and name the missing install command.

Generated values stay inside what both hosts share: integers within
``±2**53`` (JavaScript numbers are doubles), no whole floats at or above
``2**53`` (written with exact digits here, see docs/toon.md), and no object
keys that look like array indices (JavaScript objects move such keys to the
front).
"""

from __future__ import annotations

import json
import math
import os
import random
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO_ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eson import toon

REFERENCE_VERSION = "4.0.0"
INSTALL_COMMAND = (
    f"npm install --prefix .cache/toon-js --no-save @toon-format/toon@{REFERENCE_VERSION}"
)
BRIDGE = Path(__file__).resolve().parent / "interop" / "toon_bridge.mjs"
SAFE_INT = 2**53
INDEX_LIKE = re.compile(r"0|[1-9][0-9]*")


def _package_dir() -> Path:
    base = Path(os.environ.get("TOON_JS_DIR") or REPO_ROOT / ".cache" / "toon-js")
    if (base / "dist" / "index.mjs").is_file():
        return base
    return base / "node_modules" / "@toon-format" / "toon"


def _unavailable(reason: str) -> None:
    message = f"{reason}; install the reference implementation with `{INSTALL_COMMAND}`"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def _transportable(value: Any) -> Any:
    """Replace NaN and infinities (not JSON) by the strings the bridge revives."""
    if isinstance(value, float) and not math.isfinite(value):
        return "\u0000" + ("NaN" if value != value else "Infinity" if value > 0 else "-Infinity")
    if isinstance(value, dict):
        return {key: _transportable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_transportable(item) for item in value]
    return value


class Reference:
    """A running node process that answers encode/decode requests."""

    def __init__(self, node: str, entry: Path) -> None:
        self.process = subprocess.Popen(
            [node, str(BRIDGE), str(entry)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(_transportable(request)) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the node bridge exited")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def encode(self, value: Any, delimiter: str, indent: int) -> dict[str, Any]:
        return self._ask({"op": "encode", "value": value, "delimiter": delimiter, "indent": indent})

    def decode(self, text: str, indent: int, strict: bool = True) -> dict[str, Any]:
        return self._ask({"op": "decode", "text": text, "strict": strict, "indent": indent})

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def reference() -> Iterator[Reference]:
    node = shutil.which("node")
    if node is None:
        _unavailable("node is not on PATH")
    assert node is not None
    package = _package_dir()
    entry = package / "dist" / "index.mjs"
    if not entry.is_file():
        _unavailable(f"@toon-format/toon not found at {package}")
    version = json.loads((package / "package.json").read_text(encoding="utf-8"))["version"]
    if version != REFERENCE_VERSION:
        _unavailable(f"found @toon-format/toon {version}, need {REFERENCE_VERSION} (spec v4.0)")
    bridge = Reference(node, entry)
    yield bridge
    bridge.close()


def same_value(ours: Any, theirs: Any) -> bool:
    """Equality across hosts: numbers by value, bool apart, key order significant."""
    if isinstance(ours, bool) or isinstance(theirs, bool):
        return type(ours) is type(theirs) and ours == theirs
    if isinstance(ours, (int, float)) and isinstance(theirs, (int, float)):
        return ours == theirs
    if type(ours) is not type(theirs):
        return False
    if isinstance(ours, dict):
        return list(ours) == list(theirs) and all(same_value(ours[k], theirs[k]) for k in ours)
    if isinstance(ours, list):
        return len(ours) == len(theirs) and all(map(same_value, ours, theirs))
    return bool(ours == theirs)


def same_content(value: Any, decoded: Any) -> bool:
    """Whether ``decoded`` holds ``value`` (object key order may follow a table header)."""
    if isinstance(value, float) and not math.isfinite(value):
        return decoded is None
    if isinstance(value, dict):
        return (
            isinstance(decoded, dict)
            and value.keys() == decoded.keys()
            and all(same_content(value[k], decoded[k]) for k in value)
        )
    if isinstance(value, list):
        return (
            isinstance(decoded, list)
            and len(value) == len(decoded)
            and all(map(same_content, value, decoded))
        )
    return same_value(value, decoded)


def check(reference: Reference, value: Any, delimiter: str, indent: int) -> list[str]:
    """Compare both implementations on one value; return the differences found."""
    problems = []
    ours = toon.encode(value, delimiter=delimiter, indent_size=indent)
    theirs = reference.encode(value, delimiter, indent)
    where = f"value={json.dumps(value)[:300]} delimiter={delimiter!r} indent={indent}"
    if not theirs["ok"]:
        return [f"reference failed to encode: {theirs['error']} ({where})"]
    if theirs["result"] != ours:
        problems.append(
            f"encodings differ ({where}):\n  ours   {ours!r}\n  theirs {theirs['result']!r}"
        )
    read_by_them = reference.decode(ours, indent)
    if not read_by_them["ok"]:
        problems.append(f"reference rejects our text {ours!r}: {read_by_them['error']}")
    else:
        read_by_us = toon.decode(ours, indent_size=indent)
        if not same_value(read_by_us, read_by_them["result"]):
            problems.append(
                f"decoders disagree on {ours!r}: {read_by_us!r} vs {read_by_them['result']!r}"
            )
        if not same_content(value, read_by_them["result"]):
            problems.append(f"reference misreads our text {ours!r} ({where})")
    if not same_content(value, toon.decode(theirs["result"], indent_size=indent)):
        problems.append(f"we misread the reference's text {theirs['result']!r} ({where})")
    return problems


# ------------------------------------------------------------ seeded generator

PIECES = [*list('abcXYZ_.019 -#:,|\t\n\r"\\[]{}eE+'), "\x01", "\xa0", "é", "😀", "\u2028", "\ufeff"]
WORDS = ["", "true", "false", "null", "42", "-3.14", "1e5", "05", "+1", "-", "#", "a b", " a"]
WORDS += ["a ", "[]", "- x", "NaN", ".5", "1.", "0x10", "__proto__", "k: v", "x,y", "p|q"]
KEYS = ["a", "b", "id", "name", "x.y", "_k", "", "a b", "a-b", "#k", "k:v", "01", "1a", "__proto__"]
FLOATS = [0.0, -0.0, 1e-7, 1.5e-7, 1e-6, 1e21, 1e20, 123e-20, 5e-324, 0.1, 1e15, 2.5e-5, 1 / 3]
FLOATS += [1.7976931348623157e308, float("nan"), float("inf"), -float("inf"), -1e300]


class Values:
    """A seeded generator of JSON values both hosts represent the same way."""

    def __init__(self, seed: int) -> None:
        self.rnd = random.Random(seed)

    def string(self) -> str:
        if self.rnd.random() < 0.25:
            return self.rnd.choice(WORDS)
        return "".join(self.rnd.choice(PIECES) for _ in range(self.rnd.randint(0, 6)))

    def key(self) -> str:
        while True:
            key = self.rnd.choice(KEYS) if self.rnd.random() < 0.7 else self.string()
            if not INDEX_LIKE.fullmatch(key):
                return key

    def number(self) -> int | float:
        pick = self.rnd.random()
        if pick < 0.3:
            return self.rnd.randint(-1000, 1000)
        if pick < 0.4:
            return self.rnd.randint(-SAFE_INT, SAFE_INT)
        if pick < 0.6:
            return self.rnd.uniform(-1e6, 1e6)
        if pick < 0.7:
            return self.rnd.choice(FLOATS)
        number = self.rnd.uniform(-1, 1) * 10 ** self.rnd.randint(-30, 30)
        if number.is_integer() and abs(number) >= SAFE_INT:
            number += 0.5 if abs(number) < SAFE_INT * 2 else 0.0
            if number.is_integer():
                return self.rnd.randint(-SAFE_INT, SAFE_INT)
        return number

    def primitive(self) -> Any:
        pick = self.rnd.random()
        if pick < 0.4:
            return self.string()
        if pick < 0.7:
            return self.number()
        return self.rnd.choice([True, False, None])

    def rows(self) -> list[dict[str, Any]]:
        names = list(dict.fromkeys(self.key() for _ in range(self.rnd.randint(1, 3))))
        nested = self.rnd.random() < 0.4
        inner = list(dict.fromkeys(self.key() for _ in range(2)))
        rows = []
        for _ in range(self.rnd.randint(1, 4)):
            row: dict[str, Any] = {}
            for index, name in enumerate(names):
                if nested and index == 0:
                    row[name] = {sub: self.primitive() for sub in inner}
                else:
                    row[name] = self.primitive()
            if self.rnd.random() < 0.3:  # a different key order per row
                row = dict(reversed(list(row.items())))
            rows.append(row)
        return rows

    def value(self, depth: int = 0) -> Any:
        pick = self.rnd.random()
        if depth > 4 or pick < 0.35:
            return self.primitive()
        if pick < 0.55:
            return [self.value(depth + 1) for _ in range(self.rnd.randint(0, 4))]
        if pick < 0.68:
            return self.rows()
        if pick < 0.78:
            rows = self.rows()
            return {f"{self.key()}#{index}": row for index, row in enumerate(rows)}
        return {self.key(): self.value(depth + 1) for _ in range(self.rnd.randint(0, 4))}


def test_reference_is_the_spec_4_0_release(reference: Reference) -> None:
    reply = reference.encode({"users": [{"id": 1}, {"id": 2}]}, ",", 2)
    assert reply == {"ok": True, "result": "users[2]{id}:\n  1\n  2"}


@pytest.mark.parametrize("seed", range(6))
def test_generated_values_agree(reference: Reference, seed: int) -> None:
    values = Values(seed)
    problems: list[str] = []
    for _ in range(150):
        value = values.value()
        if values.rnd.random() < 0.4:
            value = {"root": value}
        delimiter = values.rnd.choice([",", "\t", "|"])
        indent = values.rnd.choice([2, 2, 4, 1])
        problems += check(reference, value, delimiter, indent)
    assert not problems, "\n".join(problems[:5])


# ------------------------------------------------------------ hypothesis

js_numbers = st.one_of(
    st.integers(min_value=-SAFE_INT, max_value=SAFE_INT),
    st.floats(allow_nan=True, allow_infinity=True).filter(
        lambda f: not (f.is_integer() and abs(f) >= SAFE_INT)
    ),
)
js_keys = st.text(max_size=6).filter(lambda key: not INDEX_LIKE.fullmatch(key))
js_primitives = st.one_of(
    st.none(), st.booleans(), js_numbers, st.text(max_size=10), st.sampled_from(WORDS)
)
js_values = st.recursive(
    js_primitives,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(js_keys, children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    value=js_values, delimiter=st.sampled_from([",", "\t", "|"]), indent=st.sampled_from([1, 2, 4])
)
def test_hypothesis_values_agree(
    reference: Reference, value: Any, delimiter: str, indent: int
) -> None:
    problems = check(reference, value, delimiter, indent)
    assert not problems, "\n".join(problems)


def test_whole_floats_from_2_53_are_a_documented_difference(reference: Reference) -> None:
    value = 6.789915120274291e16
    ours = toon.encode(value)
    theirs = reference.encode(value, ",", 2)["result"]
    assert (ours, theirs) == ("67899151202742912", "67899151202742910")
    # Both texts name the same double; only the exact digits are the same int.
    assert float(reference.decode(ours, 2)["result"]) == value
    assert float(reference.decode(theirs, 2)["result"]) == value
    assert toon.decode(ours) == value
    assert toon.decode(theirs) != value
