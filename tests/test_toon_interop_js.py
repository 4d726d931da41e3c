"""Interop with the TypeScript reference implementation, ``@toon-format/toon`` 4.4.0.

For seeded, curated and hypothesis-generated values and every option, both
encoders must write byte-identical text, and each decoder must read the
other's text back: the reference reads our text as we do, to the original
value, and we read the reference's text to the original value.  The
reference runs in one long-lived node process
(``tests/interop/toon_bridge.mjs``), many documents per request.

The package is looked up in ``$TOON_JS_DIR`` (an ``npm install --prefix``
directory, or the package directory itself), else ``<repo>/.cache/toon-js``;
``.ci/run`` installs it with::

    npm install --prefix .cache/toon-js --no-save @toon-format/toon@4.4.0

Without node or the package these tests skip, except under CI (``CI=1``),
where they fail and name the missing install command.

Generated values stay inside what both hosts hold alike: integers within
``±2**53`` (JavaScript numbers are doubles), no whole floats at or above
``2**53``, no object keys that look like array indices (JavaScript objects
move them to the front), no surrogate code points (neither encoder accepts
them).  Each of those cases is a documented difference (docs/toon.md,
"Differences from the reference"), asserted exactly by a test of its own
below, as is every documented difference in reading hand-written text.
"""

from __future__ import annotations

import json
import math
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO_ROOT, JSNumber, NodeBridge, from_wire, to_wire, unavailable
from curated_strings import (
    DELIMITER_STRINGS,
    LITERAL_LOOKALIKES,
    NUMBER_LOOKALIKES,
    WHITE_SPACE,
    curated_strings,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eson import toon
from eson.errors import TOONError

REFERENCE_VERSION = "4.4.0"
INSTALL_COMMAND = (
    f"npm install --prefix .cache/toon-js --no-save @toon-format/toon@{REFERENCE_VERSION}"
)
SAFE_INT = 2**53 - 1  # Number.MAX_SAFE_INTEGER
INDEX_LIKE = re.compile(r"0|[1-9][0-9]*")
DELIMITERS = (",", "\t", "|")


def _package_dir() -> Path:
    base = Path(os.environ.get("TOON_JS_DIR") or REPO_ROOT / ".cache" / "toon-js")
    if (base / "dist" / "index.mjs").is_file():
        return base
    return base / "node_modules" / "@toon-format" / "toon"


class Reference:
    """The reference implementation in node, asked in batches."""

    def __init__(self, entry: Path) -> None:
        self.bridge = NodeBridge("toon_bridge.mjs", str(entry))

    def batch(self, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return self.bridge.batch(requests)

    @staticmethod
    def encoding(value: Any, delimiter: str = ",", indent: int = 2) -> dict[str, Any]:
        return {
            "op": "encode",
            "value": to_wire(value),
            "delimiter": delimiter,
            "indentSize": indent,
        }

    @staticmethod
    def decoding(text: str, indent: int = 2, strict: bool = True) -> dict[str, Any]:
        return {"op": "decode", "text": text, "strict": strict, "indentSize": indent}

    def encode(self, value: Any, delimiter: str = ",", indent: int = 2) -> str:
        answer = self.bridge.call(self.encoding(value, delimiter, indent))
        assert answer["ok"], answer["error"]
        text: str = answer["result"]
        return text

    def decode(self, text: str, indent: int = 2, strict: bool = True) -> Any:
        """The reference's reading of ``text``; its error message as a ``RuntimeError``."""
        answer = self.bridge.call(self.decoding(text, indent, strict))
        if not answer["ok"]:
            raise RuntimeError(answer["error"])
        return from_wire(answer["result"])


@pytest.fixture(scope="module")
def reference() -> Iterator[Reference]:
    package = _package_dir()
    entry = package / "dist" / "index.mjs"
    if not entry.is_file():
        unavailable(
            f"@toon-format/toon not found at {package}; install it with `{INSTALL_COMMAND}`"
        )
    version = json.loads((package / "package.json").read_text(encoding="utf-8"))["version"]
    if version != REFERENCE_VERSION:
        unavailable(
            f"found @toon-format/toon {version} at {package}, need {REFERENCE_VERSION}; "
            f"install it with `{INSTALL_COMMAND}`"
        )
    running = Reference(entry)
    yield running
    running.bridge.close()


# ------------------------------------------------------------ comparing values


def same_value(ours: Any, theirs: Any) -> bool:
    """Equality across hosts: numbers by value (a JS number is a double), bool apart, key order kept."""
    if isinstance(ours, bool) or isinstance(theirs, bool):
        return type(ours) is type(theirs) and ours == theirs
    if isinstance(ours, (int, float)) and isinstance(theirs, (int, float)):
        return bool(ours == theirs)
    if isinstance(theirs, JSNumber) or type(ours) is not type(theirs):
        return False
    if isinstance(ours, dict):
        return list(ours) == list(theirs) and all(same_value(ours[k], theirs[k]) for k in ours)
    if isinstance(ours, list):
        return len(ours) == len(theirs) and all(map(same_value, ours, theirs))
    return bool(ours == theirs)


def same_content(value: Any, decoded: Any) -> bool:
    """Whether ``decoded`` holds ``value`` (NaN and infinities read as null; object key
    order may follow a table header, as spec §2 allows)."""
    if isinstance(value, float) and not math.isfinite(value):
        return decoded is None
    if isinstance(value, dict):
        return (
            isinstance(decoded, dict)
            and value.keys() == decoded.keys()
            and all(same_content(value[k], decoded[k]) for k in value)
        )
    if isinstance(value, (list, tuple)):
        return (
            isinstance(decoded, list)
            and len(value) == len(decoded)
            and all(map(same_content, value, decoded))
        )
    return same_value(value, decoded)


class Comparison:
    """Compare both implementations on many values with two bridge round trips."""

    def __init__(self, reference: Reference) -> None:
        self.reference = reference
        self.cases: list[tuple[Any, str, int]] = []
        self.compared = 0

    def add(self, value: Any, delimiter: str = ",", indent: int = 2) -> None:
        self.cases.append((value, delimiter, indent))

    def run(self) -> list[str]:
        """Return the problems found (empty when both agree everywhere)."""
        ours = [toon.encode(v, delimiter=d, indent_size=i) for v, d, i in self.cases]
        requests = [Reference.encoding(v, d, i) for v, d, i in self.cases]
        requests += [Reference.decoding(text, i) for text, (_, _, i) in zip(ours, self.cases)]
        answers = self.reference.batch(requests)
        count = len(self.cases)
        problems: list[str] = []
        for (value, delimiter, indent), text, encoded, read in zip(
            self.cases, ours, answers[:count], answers[count:]
        ):
            where = f"value={value!r:.300} delimiter={delimiter!r} indent={indent}"
            if not encoded["ok"]:
                problems.append(f"reference failed to encode: {encoded['error']} ({where})")
                continue
            theirs = encoded["result"]
            if theirs != text:
                problems.append(
                    f"encodings differ ({where}):\n  ours   {text!r}\n  theirs {theirs!r}"
                )
            if not read["ok"]:
                problems.append(f"reference rejects our text {text!r}: {read['error']}")
            else:
                by_them = from_wire(read["result"])
                by_us = toon.decode(text, indent_size=indent)
                if not same_value(by_us, by_them):
                    problems.append(f"decoders disagree on {text!r}: {by_us!r} vs {by_them!r}")
                if not same_content(value, by_them):
                    problems.append(f"reference misreads our text {text!r} ({where})")
            if not same_content(value, toon.decode(theirs, indent_size=indent)):
                problems.append(f"we misread the reference's text {theirs!r} ({where})")
        self.compared += count
        self.cases.clear()
        return problems


# ------------------------------------------------------------ curated strings

CURATED = curated_strings()


def key_safe(text: str) -> bool:
    return not INDEX_LIKE.fullmatch(text)


def curated_documents(text: str) -> list[Any]:
    """``text`` in every position TOON has: values, cells, items, keys, field names, root."""
    documents: list[Any] = [
        text,
        [text],
        [text, "x", text],
        {"v": text},
        {"arr": [text, "x"], "list": [text, [text, 1], {"a": text}]},
        {"rows": [{"a": text, "b": 1}, {"a": "y", "b": text}]},
        {"deep": [{"id": 1, "c": {"n": text, "m": 2}}, {"id": 2, "c": {"n": "q", "m": 3}}]},
        {"keyed": {"k1": {"a": text, "b": 1}, "k2": {"a": "z", "b": 2}}},
        {"items": [{"first": text, "more": [1, 2]}, {"first": 1}]},
    ]
    if key_safe(text):
        documents += [
            {text: 1, "b": text},
            {"t": [{text: 1, "x": 2}, {text: 3, "x": 4}]},
            {"keyed": {text: {"a": 1, "b": 2}, "other": {"a": 3, "b": 4}}},
            {"nest": {text: {text: [text]}}},
        ]
    return documents


def test_reference_is_version_4_4_0(reference: Reference) -> None:
    assert reference.bridge.call({"op": "version"}) == {"ok": True, "result": REFERENCE_VERSION}
    assert reference.encode({"users": [{"id": 1}, {"id": 2}]}) == "users[2]{id}:\n  1\n  2"


def test_curated_strings_agree_everywhere(reference: Reference) -> None:
    comparison = Comparison(reference)
    problems: list[str] = []
    for text in CURATED:
        for delimiter in DELIMITERS:
            for document in curated_documents(text):
                comparison.add(document, delimiter, 2)
        problems += comparison.run()
    assert comparison.compared > 8000
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:8])


@pytest.mark.parametrize("char", WHITE_SPACE, ids=lambda c: f"U+{ord(c):04X}")
def test_only_space_and_tab_at_the_edges_force_quotes(reference: Reference, char: str) -> None:
    """§7.2: leading/trailing white space means U+0020 and U+0009; §12 trims only U+0020."""
    for value in (char + "x", "x" + char):
        ours = toon.encode({"v": value})
        assert ours == reference.encode({"v": value})
        must_quote = char in " \t" or ord(char) < 0x20
        assert (ours == "v: " + value) is not must_quote, ours
        assert ours.startswith('v: "') is must_quote, ours
        assert toon.decode(ours) == {"v": value}


# ------------------------------------------------------------ seeded generator

PIECES = [*'abcXYZ_.019 -#:,|\t\n\r"\\[]{}eE+', *WHITE_SPACE[6:], "\x01", "\x7f", "é", "😀"]
WORDS = [*NUMBER_LOOKALIKES, *LITERAL_LOOKALIKES, *DELIMITER_STRINGS, "__proto__", "constructor"]
KEYS = ["a", "b", "id", "name", "x.y", "_k", "", "a b", "a-b", "#k", "k:v", "01", "1a", "__proto__"]
KEYS += ["\xa0k", "k\u3000", "\ufeffk", "k\u2028", "prototype", "constructor"]
FLOATS = [0.0, -0.0, 1e-7, 1.5e-7, 1e-6, 1e21, 1e20, 123e-20, 5e-324, 0.1, 1e15, 2.5e-5, 1 / 3]
FLOATS += [1.7976931348623157e308, float("nan"), float("inf"), -float("inf"), -1e300]


class Values:
    """A seeded generator of JSON values both hosts represent the same way."""

    def __init__(self, seed: int) -> None:
        self.rnd = random.Random(seed)

    def string(self) -> str:
        pick = self.rnd.random()
        if pick < 0.2:
            return self.rnd.choice(WORDS)
        if pick < 0.35:
            return self.rnd.choice(CURATED)
        return "".join(self.rnd.choice(PIECES) for _ in range(self.rnd.randint(0, 6)))

    def key(self) -> str:
        while True:
            key = self.rnd.choice(KEYS) if self.rnd.random() < 0.7 else self.string()
            if key_safe(key):
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
        if number.is_integer() and SAFE_INT < abs(number) < 1e21:
            return self.rnd.randint(-SAFE_INT, SAFE_INT)
        return number

    def primitive(self) -> Any:
        pick = self.rnd.random()
        if pick < 0.45:
            return self.string()
        if pick < 0.75:
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


SEEDS = range(8)
PER_SEED = 300


@pytest.mark.parametrize("seed", SEEDS)
def test_generated_values_agree(reference: Reference, seed: int) -> None:
    values = Values(seed)
    comparison = Comparison(reference)
    for _ in range(PER_SEED):
        value = values.value()
        if values.rnd.random() < 0.4:
            value = {"root": value}
        comparison.add(value, values.rnd.choice(DELIMITERS), values.rnd.choice([2, 2, 4, 1]))
    problems = comparison.run()
    assert comparison.compared == PER_SEED
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:5])


# ------------------------------------------------------------ hypothesis

js_numbers = st.one_of(
    st.integers(min_value=-SAFE_INT, max_value=SAFE_INT),
    st.floats(allow_nan=True, allow_infinity=True).filter(
        lambda f: not (f.is_integer() and SAFE_INT < abs(f) < 1e21)
    ),
)
js_strings = st.one_of(
    st.text(max_size=10),
    st.text(alphabet=st.sampled_from(PIECES), max_size=8),
    st.sampled_from(CURATED),
)
js_keys = st.one_of(st.text(max_size=6), st.sampled_from(KEYS)).filter(key_safe)
js_primitives = st.one_of(st.none(), st.booleans(), js_numbers, js_strings)


@st.composite
def js_tables(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Arrays of objects sharing one key set (tables, maybe with a nested group)."""
    names = draw(st.lists(js_keys, min_size=1, max_size=3, unique=True))
    shape: dict[str, Any] = dict.fromkeys(names, js_primitives)
    if draw(st.booleans()):
        inner = draw(st.lists(js_keys, min_size=1, max_size=2, unique=True))
        shape[draw(js_keys)] = st.fixed_dictionaries(dict.fromkeys(inner, js_primitives))
    return draw(st.lists(st.fixed_dictionaries(shape), min_size=1, max_size=4))


js_values = st.recursive(
    st.one_of(js_primitives, js_tables()),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(js_keys, children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=js_values, delimiter=st.sampled_from(DELIMITERS), indent=st.sampled_from([1, 2, 4]))
def test_hypothesis_values_agree(
    reference: Reference, value: Any, delimiter: str, indent: int
) -> None:
    comparison = Comparison(reference)
    comparison.add(value, delimiter, indent)
    problems = comparison.run()
    assert not problems, "\n".join(problems)


# ------------------------------------------------------------ documented encode differences


def test_whole_floats_from_2_53_are_written_with_exact_digits(reference: Reference) -> None:
    """Difference 1: exact digits here, shortest-digits-then-zeros there; the same double."""
    value = 6.789915120274291e16
    ours, theirs = toon.encode(value), reference.encode(value)
    assert (ours, theirs) == ("67899151202742912", "67899151202742910")
    assert reference.decode(ours) == value and reference.decode(theirs) == value
    assert toon.decode(ours) == value
    assert toon.decode(theirs) == 67899151202742910 != value  # exact int: another number
    for whole in (2.0**53, 2.0**60, 1e20, -(2.0**64)):
        ours = toon.encode(whole)
        assert int(ours) == whole and float(reference.encode(whole)) == whole


def test_integers_beyond_2_53_are_exact(reference: Reference) -> None:
    """Difference 2: a big int is a number here; the reference gets a BigInt and quotes it."""
    big = 2**53 + 1
    assert toon.encode({"a": big}) == "a: 9007199254740993"
    assert reference.encode({"a": big}) == 'a: "9007199254740993"'
    assert toon.decode("a: 9007199254740993") == {"a": big}
    assert reference.decode("a: 9007199254740993") == {"a": float(2**53)}  # rounded


def test_integer_tokens_decode_to_int(reference: Reference) -> None:
    """Difference 3: ``3.0`` encodes as ``3`` in both, and reads back as an int here."""
    assert toon.encode({"a": 3.0}) == reference.encode({"a": 3.0}) == "a: 3"
    assert type(toon.decode("a: 3")["a"]) is int
    assert type(toon.decode("a: 1e3")["a"]) is float


def test_index_like_keys_keep_their_order(reference: Reference) -> None:
    """Difference 4: JavaScript moves integer-like keys first, ascending; Python keeps order."""
    value = {"b": 1, "10": 2, "a": 3, "2": 4}
    ours = toon.encode(value)
    assert ours == 'b: 1\n"10": 2\na: 3\n"2": 4'
    assert reference.encode(value) == '"2": 4\n"10": 2\nb: 1\na: 3'
    assert list(toon.decode(ours)) == ["b", "10", "a", "2"]
    assert list(reference.decode(ours)) == ["2", "10", "b", "a"]
    # keys that are not canonical array indices keep their place in both
    other = {"b": 1, "01": 2, "-1": 3, "4294967295": 4}
    assert toon.encode(other) == reference.encode(other)


def test_a_root_string_starting_with_a_byte_order_mark_is_quoted(reference: Reference) -> None:
    """Both decoders drop a leading U+FEFF, so both encoders quote a root string opening with one."""
    value = "\ufeffbom"
    ours = toon.encode(value)
    assert ours == reference.encode(value) == '"\ufeffbom"'
    assert toon.decode(ours) == reference.decode(ours) == value
    assert toon.decode(value) == reference.decode(value) == "bom"  # what the bare form would give
    # anywhere but the very start of the document, U+FEFF needs no quotes
    for inside in ({"v": value}, [value], ["x", value], {"\ufeffk": 1}, {"v": [value]}):
        text = toon.encode(inside)
        assert text == reference.encode(inside)
        assert '"' not in text.replace('"\ufeffk"', "")
        assert toon.decode(text) == reference.decode(text) == inside


def test_neither_encoder_takes_a_lone_surrogate(reference: Reference) -> None:
    for value in ("a\ud800", {"k": "\udfff"}, {"\ud800": 1}):
        with pytest.raises(TOONError, match="surrogate"):
            toon.encode(value)
        answer = reference.batch([Reference.encoding(value)])[0]
        assert not answer["ok"] and "unpaired surrogate" in answer["error"]
    pair = "\U0001f600"
    assert toon.encode({"e": pair}) == reference.encode({"e": pair}) == f"e: {pair}"
