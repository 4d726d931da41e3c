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
    assert comparison.compared == 13407  # the count docs/toon.md gives
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


# ------------------------------------------------------------ documented decode differences
#
# Text no encoder writes can be read differently.  Each case below is one
# entry of docs/toon.md ("Reading hand-written text"), asserted on both sides.


def outcome(reference: Reference, text: str, strict: bool = True) -> tuple[Any, Any]:
    """(our reading, the reference's reading); an error as the string ``"error: ..."``."""
    try:
        ours: Any = toon.decode(text, strict=strict)
    except TOONError as exc:
        ours = f"error: {exc.reason}"
    try:
        theirs: Any = reference.decode(text, strict=strict)
    except RuntimeError as exc:
        theirs = f"error: {exc}"
    return ours, theirs


@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lenient"])
def test_a_space_or_quote_in_a_key_makes_a_key_value_line(
    reference: Reference, strict: bool
) -> None:
    """§5.2 (4) names `foo [2]: bar` a key-value line; §6's header key allows no space or quote."""
    ours, theirs = outcome(reference, "foo [2]: x", strict)
    assert ours == {"foo [2]": "x"}
    assert theirs == "error: Line 1: Unexpected whitespace between key and bracket segment"
    ours, theirs = outcome(reference, "ro ot[2]: x,y", strict)
    assert (ours, theirs) == ({"ro ot[2]": "x,y"}, {"ro ot": ["x", "y"]})
    ours, theirs = outcome(reference, 'a"b"[2]: x,y', strict)
    assert (ours, theirs) == ({'a"b"[2]': "x,y"}, {'a"b"': ["x", "y"]})


@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lenient"])
def test_a_quote_inside_a_token_is_an_ordinary_character(
    reference: Reference, strict: bool
) -> None:
    """§7.4: an unquoted key is everything before the first colon; only a token *starting*
    with `"` is a quoted string (§7.1), so a later `"` opens nothing.  A quoted field name
    left open is a malformed header (§6: unmatched braces), not a scalar line."""
    ours, theirs = outcome(reference, 'r"oot: x', strict)
    assert (ours, theirs) == ({'r"oot': "x"}, 'r"oot: x')  # theirs: one root string
    ours, theirs = outcome(reference, 'a"b[2]: x,y', strict)
    assert (ours, theirs) == ({'a"b[2]': "x,y"}, 'a"b[2]: x,y')
    ours, theirs = outcome(reference, 'm[1:]{v}:\n  a"b: 1', strict)
    assert ours == {"m": {'a"b': {"v": 1}}}
    assert theirs == "error: Line 2: Expected entry row inside keyed tabular object"
    ours, theirs = outcome(reference, '|"k:v": 1', strict)
    assert (ours, theirs) == ({'|"k': 'v": 1'}, {'|"k:v"': 1})
    # a closed pair reads the same in both
    assert outcome(reference, 'a"b": 1', strict) == ({'a"b"': 1}, {'a"b"': 1})
    # a quote left open: the reference lets it hide the colon, making the line one root string
    ours, theirs = outcome(reference, 'k[1]{a,"b}:', strict)
    assert theirs == 'k[1]{a,"b}:'
    assert ours == ("error: unmatched '{' in field list" if strict else {'k[1]{a,"b}': {}})


@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lenient"])
def test_an_unclosed_bracket_in_a_key_makes_a_key_value_line(
    reference: Reference, strict: bool
) -> None:
    """§5.2 (3, 4) with §7.4: `ro[ot: 1` matches no header grammar, so its key is `ro[ot`."""
    ours, theirs = outcome(reference, "ro[ot: 1", strict)
    assert (ours, theirs) == ({"ro[ot": 1}, "error: Line 1: Unterminated bracket segment")
    ours, theirs = outcome(reference, "r[oot: []", strict)
    assert (ours, theirs) == ({"r[oot": []}, "error: Line 1: Missing colon after array header")


def test_spaces_around_field_names_are_trimmed_everywhere(reference: Reference) -> None:
    """§12 trims U+0020 around tokens; the reference refuses only a space before a nested group."""
    assert outcome(reference, "k[1]{a, b}:\n  1,2") == (
        {"k": [{"a": 1, "b": 2}]},
        {"k": [{"a": 1, "b": 2}]},
    )
    ours, theirs = outcome(reference, "k[1]{a {b}}:\n  1")
    assert ours == {"k": [{"a": {"b": 1}}]}
    assert theirs == "error: Line 1: Unexpected whitespace before nested field group"


def test_numbers_outside_the_float_range_are_rejected(reference: Reference) -> None:
    """§4 lets a decoder reject out-of-range numbers when it documents that policy."""
    ours, theirs = outcome(reference, "a: 1e400")
    assert (ours, theirs) == ("error: number 1e400 is out of the float range", {"a": "1e400"})
    big = "1" * 5000
    ours, theirs = outcome(reference, f"a: {big}")
    assert (ours, theirs) == ("error: integer has more than 4300 digits", {"a": big})


def test_non_strict_recovery_differs(reference: Reference) -> None:
    """Where the spec leaves non-strict decoding open, each side recovers in its own way."""
    lenient = {
        # §8: "In non-strict mode, decoders MAY skip" a line that belongs to no scope
        "a: 1\n  b: 2\nc: 3": ({"a": 1, "c": 3}, "Over-indented line"),
        # §12 non-strict indentation (floor division); an indented first line is dedented
        "  a: 1\n  b: 2": ({"a": 1, "b": 2}, "Over-indented line"),
        # §5: after a root array "in non-strict mode, decoders MAY ignore" trailing content
        "[1]: x\ny: 1": (["x"], "Unexpected content after the document root"),
        # §14.1: row widths are checked in strict mode only; short rows are padded
        "t[1]{a,b}:\n  1": ({"t": [{"a": 1, "b": None}]}, "Expected 2 tabular row values"),
        # §6: "non-strict decoders MAY parse the line as a key-value line"
        "k[03]: 1": ({"k[03]": 1}, "Invalid array length"),
        "k[2] : 1": ({"k[2]": 1}, "Unexpected whitespace between bracket segment and colon"),
        "k[1]{a,}:": ({"k[1]{a,}": {}}, "Empty field name in field list"),
        "k[1]x: 1": ({"k[1]x": 1}, 'Unexpected content "x" between bracket segment and colon'),
    }
    for text, (expected, message) in lenient.items():
        ours, theirs = outcome(reference, text, strict=False)
        assert ours == expected, text
        assert isinstance(theirs, str) and message in theirs, (text, theirs)
        assert outcome(reference, text, strict=True)[0].startswith("error: "), text
    # §12: "Implementations MAY accept tab characters in indentation ... MUST document
    # their tab policy": tabs are never indentation here
    ours, theirs = outcome(reference, "a:\n\tb: 1", strict=False)
    assert (ours, theirs) == ("error: tab character in indentation", {"a": {"b": 1}})


def test_agreements_that_earlier_releases_lacked(reference: Reference) -> None:
    """4.4.0 reads these as we do (they were differences against 4.0.0)."""
    for text, value in {
        "\ufeffa: 1": {"a": 1},  # a leading byte-order mark is dropped
        "t[2]{a}:\n  1\n  2\n  3": {"t": [{"a": 1}, {"a": 2}, {"a": 3}]},  # non-strict keeps rows
        "a[1]:\n  - x\n  - y": {"a": ["x", "y"]},
    }.items():
        assert outcome(reference, text, strict=False) == (value, value)
    for text in ("  a: 1", 'k[2]{"a}:\n  1', "a:\n  \t\n  b: 1"):
        ours, theirs = outcome(reference, text)
        assert ours.startswith("error: ") and theirs.startswith("error: "), text


# The classes above, recognised in a disagreement by the text or the reference's message.
_INDEX_KEY = re.compile(r"0|[1-9][0-9]*")
_LENIENT_MESSAGES = (
    "Over-indented line",
    "Unexpected content after the document root",
    "tabular row values",
    "Invalid array length",
    "Unexpected whitespace",
    "Unexpected content",
    "Empty field name",
    "Missing colon after array header",
    "Unterminated bracket segment",
)


def js_view(value: Any) -> Any:
    """Our reading as a JavaScript host holds it: doubles, index-like keys first (ascending)."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, list):
        return [js_view(item) for item in value]
    first = sorted((k for k in value if _INDEX_KEY.fullmatch(k) and int(k) < 2**32 - 1), key=int)
    return {key: js_view(value[key]) for key in first + [k for k in value if k not in first]}


def _line_contents(text: str) -> Iterator[str]:
    for line in text.replace("\r\n", "\n").split("\n"):
        content = line.lstrip(" ")
        if content and content[0] != "#":
            yield content
            if content.startswith("- "):
                yield content[2:].lstrip(" ")


def _stray_quote(text: str) -> bool:
    """A `"` that cannot open a quoted token (after an ordinary character, or inside a key),
    or one left open to the end of its line."""
    for content in _line_contents(text):
        if len(re.findall(r'(?<!\\)"', content)) % 2:
            return True
        colon, bracket = content.find(":"), content.find("[")
        for index, char in enumerate(content):
            if char != '"' or not index:
                continue
            in_key = index < colon and (bracket < 0 or index < bracket) and content[0] != '"'
            if in_key or content[index - 1] not in ' ,|\t:[{"\\':
                return True
    return False


def _unclosed_bracket(text: str) -> bool:
    for content in _line_contents(text):
        colon = content.find(":")
        head = content if colon < 0 else content[:colon]
        if "[" in head and "]" not in head[head.rindex("[") :]:
            return True
    return False


def _space_or_quote_in_a_header_key(text: str) -> bool:
    for content in _line_contents(text):
        bracket = content.find("[")
        key = content[:bracket]
        if bracket > 0 and key[0] != '"' and ":" not in key and (" " in key or '"' in key):
            return True
    return False


def documented_class(
    text: str, strict: bool, ours: Any, our_error: str | None, theirs: Any, their_error: str | None
) -> str | None:
    """The documented difference a disagreement falls under, or ``None``."""
    if our_error is None and their_error is None and same_value(js_view(ours), theirs):
        return "host numbers and key order"
    if our_error is not None and ("out of the float range" in our_error or "digits" in our_error):
        return "out-of-range numbers"
    if their_error is not None and "whitespace before nested field group" in their_error:
        return "spaces around field names"
    if their_error is not None and "whitespace between key and bracket" in their_error:
        return "space or quote in a header key"
    if not strict:
        if their_error is not None and any(m in their_error for m in _LENIENT_MESSAGES):
            return "non-strict recovery"
        if our_error is not None and "tab character in indentation" in our_error:
            return "non-strict recovery"
    if _stray_quote(text):
        return "quote inside a token or left open"
    if _unclosed_bracket(text):
        return "unclosed bracket in a key"
    if _space_or_quote_in_a_header_key(text):
        return "space or quote in a header key"
    return None


_INSERTS = [" ", "\t", ":", ",", "|", '"', "[", "]", "{", "}", "#", "-", "\\", "\xa0", "\r"]
_INSERTS += ["\\u", ": ", "- ", "[]", "1", "0", "e", '""', ",,"]


def damaged(text: str, rnd: random.Random) -> str:
    """``text`` with one or two grammar-aware edits (lines, characters, counts, delimiters)."""
    lines = text.split("\n")
    for _ in range(rnd.randint(1, 2)):
        index = rnd.randrange(len(lines))
        line = lines[index]
        edit = rnd.randrange(12)
        if edit == 0:
            lines.insert(index, line)
        elif edit == 1 and len(lines) > 1:
            del lines[index]
        elif edit in (2, 3, 4):
            at = rnd.randrange(len(line) + 1)
            lines[index] = line[:at] + rnd.choice(_INSERTS) + line[at:]
        elif edit in (5, 6) and line:
            at = rnd.randrange(len(line))
            lines[index] = line[:at] + line[at + 1 :]
        elif edit == 7:
            lines[index] = re.sub(
                r"\[(\d+)",
                lambda m: f"[{max(0, int(m.group(1)) + rnd.choice([-1, 1]))}",
                line,
                count=1,
            )
        elif edit == 8:
            lines.insert(index, rnd.choice(["# c", "  # c", "", "  ", "-", "[]", "a: 1"]))
        elif edit == 9:
            lines[index] = rnd.choice(["  ", " "]) + line
        elif edit == 10:
            lines[index] = line.replace(",", "|", 1).replace('"', "", 1)
        else:
            lines[index] = line + rnd.choice(_INSERTS)
    return "\n".join(lines)


@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lenient"])
def test_decoders_differ_only_in_documented_ways(reference: Reference, strict: bool) -> None:
    """Damaged documents: both read them alike, both reject them, or a documented class applies."""
    rnd = random.Random(20260801 + strict)
    values = Values(4242)
    texts = []
    for _ in range(3000):
        value = values.value()
        texts.append(damaged(toon.encode({"root": value}, delimiter=rnd.choice(DELIMITERS)), rnd))
    answers = reference.batch([Reference.decoding(text, 2, strict) for text in texts])
    tally: dict[str | None, int] = {}
    undocumented = []
    for text, answer in zip(texts, answers):
        try:
            ours, our_error = toon.decode(text, strict=strict), None
        except TOONError as exc:
            ours, our_error = None, str(exc)
        theirs, their_error = (
            (from_wire(answer["result"]), None) if answer["ok"] else (None, answer["error"])
        )
        if our_error is not None and their_error is not None:
            kind: str | None = "both reject"
        elif our_error is None and their_error is None and same_value(ours, theirs):
            kind = "agree"
        else:
            kind = documented_class(text, strict, ours, our_error, theirs, their_error)
            if kind is None:
                undocumented.append(
                    f"{text!r}:\n  ours   {ours if our_error is None else our_error!r:.200}\n  theirs {theirs if their_error is None else their_error!r:.200}"
                )
        tally[kind] = tally.get(kind, 0) + 1
    assert not undocumented, f"{len(undocumented)} undocumented: {tally}\n" + "\n".join(
        undocumented[:6]
    )
    assert tally["agree"] > 1000 and tally["both reject"] > 300, tally
    print(f"strict={strict}: {tally}")
