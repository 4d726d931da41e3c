"""Differential tests against the JavaScript ESON reference implementation.

The reference (``../shared/reference/eson/js/index.js``, MIT) runs in one
long-lived node process (``tests/interop/eson_bridge.mjs`` ``require``s it from
where it lives; it is never copied here), many documents per request.  For
seeded, curated and hypothesis-generated documents -- record arrays, the
reserved ``n`` column, nested JSON cells, big integers, Unicode, bare-string
edge cases, empty objects and arrays -- and both ``number`` settings:

- both encoders write the same bytes, except where a documented difference
  applies; there the reference's text must be *exactly* ours rewritten by the
  documented rules (:func:`javascript_form`), and a document none of those
  rules touches must come out byte-equal;
- the reference reads our text to our value (as a JavaScript host holds it);
- we read the reference's text to the original value, up to exactly the
  documented differences (:func:`documented_reading`);
- each side reads its own text back.

The documented differences (docs/eson.md, "Agreement with the JavaScript
reference"), each asserted on its own below: integral floats keep ``.0``;
U+2028/U+2029 are quoted and escaped; strings holding surrogate code points
are quoted; integers beyond 2**53 inside nested JSON cells are refused;
JavaScript orders integer-like object keys first; ``__proto__`` is an ordinary
key on both sides; plus the input-side ones (rows with reordered keys, a
leading byte-order mark, Python's integer digit limit).

Where things are found: node is ``$NODE`` or ``node`` on ``PATH``; the reference
is ``reference/eson/js/index.js`` in the shared directory (``$TYPED_ESON_SHARED``,
by default ``../shared``).
Missing either skips these tests, and fails them under CI (``CI=1``).
"""

from __future__ import annotations

import json
import math
import random
import re
import struct
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO_ROOT, JSNumber, NodeBridge, from_wire, shared_path, to_wire
from curated_strings import WHITE_SPACE, curated_strings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import eson
from eson.errors import DecodeError, EncodeError

SAFE = 2**53 - 1  # Number.MAX_SAFE_INTEGER
CURATED = curated_strings()
NAMES = ["a", "b", "id", "name", "_", "x.y", "a-b", "A9", "__proto__", "constructor", "prototype"]
NAMES += ["toString", "hasOwnProperty", "valueOf", "n_", "rows", "_1", "e.e-e"]
_INDEX_KEY = re.compile(r"0|[1-9][0-9]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_NAME = r"[A-Za-z_][A-Za-z0-9_.-]*"
_SCALAR = re.compile(rf"({_NAME})=(.*)", re.DOTALL)
_SECTION = re.compile(rf"({_NAME})(?:\[([0-9]+)\])?(?:\{{([^}}]*)\}})?", re.DOTALL)


def _reference_entry() -> Path:
    return shared_path("reference", "eson", "js", "index.js")


class Reference:
    """The JavaScript reference in node, asked in batches."""

    def __init__(self, entry: Path) -> None:
        self.bridge = NodeBridge("eson_bridge.mjs", str(entry))

    def batch(self, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return self.bridge.batch(requests)

    @staticmethod
    def encoding(value: Any, number: bool = False) -> dict[str, Any]:
        return {"op": "encode", "value": to_wire(value), "number": number}

    @staticmethod
    def decoding(text: str) -> dict[str, Any]:
        return {"op": "decode", "text": text}

    def encode(self, value: Any, number: bool = False) -> str:
        answer = self.bridge.call(self.encoding(value, number))
        if not answer["ok"]:
            raise RuntimeError(answer["error"])
        text: str = answer["result"]
        return text

    def decode(self, text: str) -> Any:
        answer = self.bridge.call(self.decoding(text))
        if not answer["ok"]:
            raise RuntimeError(answer["error"])
        return from_wire(answer["result"])


@pytest.fixture(scope="module")
def reference() -> Iterator[Reference]:
    entry = _reference_entry()
    running = Reference(entry)
    yield running
    running.bridge.close()


# ------------------------------------------------------------ a model of the documented rules
#
# What the reference writes differs from our text only by these rules.  They
# are written here from the documentation (and JavaScript's specification of
# String.prototype.trim and JSON.stringify), independently of the codec.

#: JavaScript's WhiteSpace and LineTerminator (what String.prototype.trim removes).
JS_SPACE = frozenset("\t\n\v\f\r \xa0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff") | frozenset(
    map(chr, range(0x2000, 0x200B))
)
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def js_bare(text: str) -> bool:
    """The reference's bare-string rule (ESON 1.1 §2 with JavaScript's ``trim``)."""
    return (
        text != ""
        and text[0] not in JS_SPACE
        and text[-1] not in JS_SPACE
        and not any(char in text for char in "\t\r\n")
        and _NUMBER.fullmatch(text) is None
        and text not in ("null", "true", "false")
        and text[0] not in '"[{'
    )


def js_quote(text: str) -> str:
    """``JSON.stringify`` of a string: U+2028/U+2029 raw, lone surrogates as ``\\udxxx``."""
    quoted = json.dumps(text, ensure_ascii=False)
    return _LONE_SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", quoted)


def js_integer(value: float) -> int:
    """The integer JavaScript writes for a whole float below 1e21: its shortest digits,
    padded with zeros (``2.0**60`` gives ``1152921504606847000``, not ``...6976``)."""
    return int(Decimal(repr(value)))


def js_number(value: float) -> str:
    """``JSON.stringify`` of a number inside JSON (``-0`` gives ``0``)."""
    if value == 0:
        return "0"
    if value.is_integer() and abs(value) < 1e21:
        return str(js_integer(value))
    return eson.encode({"x": value})[len("!eson/1\nx=") : -1]  # non-integral: the same text


def js_order(keys: list[str]) -> list[str]:
    """JavaScript's own key order: array-index keys first, ascending, then the rest."""
    first = sorted((k for k in keys if _INDEX_KEY.fullmatch(k) and int(k) < 2**32 - 1), key=int)
    return first + [k for k in keys if k not in first]


def js_stringify(value: Any) -> str:
    """``JSON.stringify`` of a nested value as our decoder reads it from a JSON cell."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, str):
        return js_quote(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return js_number(value)
    if isinstance(value, list):
        return "[" + ",".join(map(js_stringify, value)) + "]"
    return (
        "{"
        + ",".join(f"{js_quote(k)}:{js_stringify(value[k])}" for k in js_order(list(value)))
        + "}"
    )


def javascript_cell(cell: str) -> str:
    """The cell the reference writes for the value we wrote as ``cell``."""
    if re.fullmatch(r"-?[0-9]+\.0", cell):  # an integral float keeps .0 here only
        return cell[:-2]
    if cell[:1] == '"':
        text = json.loads(cell)
        return text if js_bare(text) else js_quote(text)
    if cell[:1] in "[{":
        return js_stringify(json.loads(cell))
    return cell


def sections(text: str) -> Iterator[tuple[str, list[str]]]:
    """(head line, its body lines) of every section of an ESON document (LF only)."""
    lines = text.split("\n")
    assert lines[0] == "!eson/1" and lines[-1] == "", text
    index = 1
    while index < len(lines) - 1:
        head = lines[index]
        if _SCALAR.fullmatch(head):
            yield head, []
            index += 1
            continue
        match = _SECTION.fullmatch(head)
        assert match is not None, head
        count = 1 if match.group(2) is None else int(match.group(2))
        yield head, lines[index + 1 : index + 1 + count]
        index += 1 + count


def javascript_form(ours: str) -> str:
    """Our text rewritten by the documented rules: what the reference must write."""
    lines = ["!eson/1"]
    for head, body in sections(ours):
        scalar = _SCALAR.fullmatch(head)
        if scalar is not None:
            lines.append(f"{scalar.group(1)}={javascript_cell(scalar.group(2))}")
            continue
        lines.append(head)
        has_fields = _SECTION.fullmatch(head).group(3) is not None  # type: ignore[union-attr]
        for line in body:
            if has_fields:
                cells = line.split("\t") if line else []
                lines.append("\t".join(map(javascript_cell, cells)))
            else:
                lines.append(javascript_cell(line))
    return "\n".join(lines) + "\n"


def touched(value: Any) -> bool:
    """Whether any documented rule applies to ``value`` (else both texts are byte-equal)."""
    if isinstance(value, float):
        return value.is_integer() and abs(value) < 1e21
    if isinstance(value, str):
        return any(char in value for char in "\u2028\u2029") or bool(_LONE_SURROGATE.search(value))
    if isinstance(value, (list, tuple)):
        return any(map(touched, value))
    if isinstance(value, dict):
        keys = any(_INDEX_KEY.fullmatch(k) or touched(k) for k in value)
        return keys or any(map(touched, value.values()))
    return False


def documented_reading(value: Any) -> Any:
    """What we read from the reference's text of a value we read as ``value`` from ours:
    integral floats as ``int`` (JavaScript writes ``100``), objects in JavaScript's key
    order (only nested objects can hold index-like keys, names cannot)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return js_integer(value)
    if isinstance(value, list):
        return [documented_reading(item) for item in value]
    if isinstance(value, dict):
        return {key: documented_reading(value[key]) for key in js_order(list(value))}
    return value


def reference_own_reading(document: dict[str, Any]) -> dict[str, Any]:
    """What the reference reads back from its own text of ``document`` (as we read it).

    A whole float of magnitude 2**53 to 1e21 in a cell is written with its shortest
    digits padded with zeros, which the reference then reads as a ``BigInt`` of those
    digits: another number.  Inside a JSON cell ``JSON.parse`` gives the double back.
    """

    def cell(value: Any) -> Any:
        if isinstance(value, float) and value.is_integer() and SAFE < abs(value) < 1e21:
            return js_integer(value)
        return value

    result: dict[str, Any] = {}
    for name, value in as_javascript(document).items():
        if isinstance(value, list):
            value = [
                {k: cell(v) for k, v in item.items()}
                if isinstance(item, dict) and all(isinstance(row, dict) for row in value)
                else cell(item)
                for item in value
            ]
        elif isinstance(value, dict):
            value = {k: cell(v) for k, v in value.items()}
        else:
            value = cell(value)
        result[name] = value
    return result


def as_javascript(value: Any) -> Any:
    """A value as a JavaScript host holds it: objects in JavaScript's key order."""
    if isinstance(value, list):
        return [as_javascript(item) for item in value]
    if isinstance(value, dict):
        return {key: as_javascript(value[key]) for key in js_order(list(value))}
    return value


def exactly(left: Any, right: Any) -> bool:
    """Equality that also compares types (``1 != 1.0``, ``True != 1``) and key order."""
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        return list(left) == list(right) and all(exactly(left[k], right[k]) for k in left)
    if isinstance(left, list):
        return len(left) == len(right) and all(map(exactly, left, right))
    if isinstance(left, float) and left == 0:
        return math.copysign(1, left) == math.copysign(1, right)
    return bool(left == right)


def same_value(ours: Any, theirs: Any) -> bool:
    """Equality across hosts: numbers by exact value (a JavaScript number is a double,
    a BigInt an ``int``), ``bool`` apart, key order significant."""
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


def numbered(document: dict[str, Any], number: bool) -> dict[str, Any]:
    """``document`` as a reader returns it: tuples as lists, ``n`` added to record arrays."""

    def plain(value: Any) -> Any:
        if isinstance(value, (list, tuple)):
            return [plain(item) for item in value]
        if isinstance(value, dict):
            return {key: plain(item) for key, item in value.items()}
        return value

    result = {}
    for name, value in document.items():
        value = plain(value)
        records = isinstance(value, list) and value and all(isinstance(row, dict) for row in value)
        if number and records:
            value = [{"n": index, **row} for index, row in enumerate(value, 1)]
        result[name] = value
    return result


# ------------------------------------------------------------ comparing many documents


class Comparison:
    """Both implementations on many documents, in two bridge round trips."""

    def __init__(self, reference: Reference) -> None:
        self.reference = reference
        self.cases: list[tuple[dict[str, Any], bool]] = []
        self.compared = 0
        self.byte_equal = 0

    def add(self, document: dict[str, Any], number: bool = False) -> None:
        self.cases.append((document, number))

    def run(self) -> list[str]:
        """Return the problems found (empty when everything agrees as documented)."""
        ours = [eson.encode(document, number=number) for document, number in self.cases]
        requests = [Reference.encoding(document, number) for document, number in self.cases]
        requests += [Reference.decoding(text) for text in ours]
        answers = self.reference.batch(requests)
        encoded, read = answers[: len(ours)], answers[len(ours) :]
        theirs_texts = [answer["result"] if answer["ok"] else "" for answer in encoded]
        second = self.reference.batch([Reference.decoding(text) for text in theirs_texts])
        problems: list[str] = []
        for (document, number), text, encoding, by_them, their_own in zip(
            self.cases, ours, encoded, read, second
        ):
            problems += self._check(document, number, text, encoding, by_them, their_own)
        self.compared += len(self.cases)
        self.cases.clear()
        return problems

    def _check(
        self,
        document: dict[str, Any],
        number: bool,
        ours: str,
        encoding: dict[str, Any],
        by_them: dict[str, Any],
        their_own: dict[str, Any],
    ) -> list[str]:
        where = f"document={document!r:.300} number={number}"
        if not encoding["ok"]:
            return [f"reference failed to encode: {encoding['error']} ({where})"]
        theirs: str = encoding["result"]
        problems = []
        ours_read = eson.decode(ours)
        if not exactly(ours_read, numbered(document, number)):
            problems.append(f"we misread our own text {ours!r}: {ours_read!r}")
        # 1. bytes: equal, or ours rewritten by the documented rules
        expected = javascript_form(ours)
        if theirs != expected:
            problems.append(
                f"undocumented encoding difference ({where}):\n  ours     {ours!r}\n  expected {expected!r}\n  theirs   {theirs!r}"
            )
        if theirs == ours:
            self.byte_equal += 1
        elif not touched(document):
            problems.append(f"texts differ with no documented rule applying ({where})")
        # 2. they read our text to our value
        if not by_them["ok"]:
            problems.append(f"reference rejects our text {ours!r}: {by_them['error']}")
        elif not same_value(as_javascript(ours_read), from_wire(by_them["result"])):
            problems.append(
                f"reference misreads our text {ours!r}: {from_wire(by_them['result'])!r}"
            )
        # 3. we read their text to the value, up to the documented differences
        try:
            read_back = eson.decode(theirs)
        except DecodeError as exc:
            problems.append(f"we reject the reference's text {theirs!r}: {exc}")
        else:
            if not exactly(read_back, documented_reading(ours_read)):
                problems.append(f"we misread the reference's text {theirs!r}: {read_back!r}")
        # 4. they read their own text (except the documented U+2028/U+2029 scalar lines)
        if not their_own["ok"]:
            scalar_break = any(
                _SCALAR.fullmatch(line) and ("\u2028" in line or "\u2029" in line)
                for line in theirs.split("\n")
            )
            if not (scalar_break and their_own["error"].startswith("Invalid ESON section: ")):
                problems.append(f"reference rejects its own text {theirs!r}: {their_own['error']}")
        elif not same_value(reference_own_reading(ours_read), from_wire(their_own["result"])):
            problems.append(f"reference misreads its own text {theirs!r}")
        return problems


# ------------------------------------------------------------ seeded documents

PIECES = [*'abcXYZ_.019 -:,|#"\\[]{}eE+=\t', *WHITE_SPACE, "\x00", "\x1f", "\x7f", "\x85"]
PIECES += ["é", "日本", "😀", "\u0301", "\U0001f468\u200d\U0001f469", "\ud800", "\udfff"]
PIECES += ["null", "true", "false", "1e5", "-0", "01", "[]", "{}", '"q"']
FLOATS = [0.0, -0.0, 1.0, -2.0, 100.0, 1e16, 1e20, 1e21, 1e-7, 1.5e-7, 1e-6, 0.1, 1 / 3, 5e-324]
FLOATS += [1.7976931348623157e308, -1e300, 123456789.125, 2.0**53, 2.0**60]
NESTED_KEYS = ["a", "", "0", "1", "10", "01", "-1", "__proto__", "constructor", "x y", "\u2028"]


class Documents:
    """A seeded generator of ESON documents both hosts represent."""

    def __init__(self, seed: int) -> None:
        self.rnd = random.Random(seed)

    def string(self) -> str:
        pick = self.rnd.random()
        if pick < 0.3:
            return self.rnd.choice(CURATED)
        text = "".join(self.rnd.choice(PIECES) for _ in range(self.rnd.randint(0, 6)))
        # no high surrogate right before a low one: Python keeps two code points, JSON makes one
        return re.sub("[\ud800-\udbff](?=[\udc00-\udfff])", "x", text)

    def number(self, safe: bool) -> int | float:
        pick = self.rnd.random()
        if pick < 0.3:
            return self.rnd.randint(-1000, 1000)
        if pick < 0.45:
            limit = SAFE if safe else 10**30
            return self.rnd.randint(-limit, limit)
        if pick < 0.6:
            return self.rnd.choice(FLOATS)
        if pick < 0.8:
            return self.rnd.uniform(-1e6, 1e6)
        number = self.rnd.uniform(-1, 1) * 10.0 ** self.rnd.randint(-30, 30)
        return float(round(number)) if self.rnd.random() < 0.3 else number

    def primitive(self, safe: bool = False) -> Any:
        pick = self.rnd.random()
        if pick < 0.45:
            return self.string()
        if pick < 0.8:
            return self.number(safe)
        return self.rnd.choice([True, False, None])

    def nested(self, depth: int = 0) -> Any:
        """A JSON cell value: lists and dicts (safe integers only, any keys)."""
        pick = self.rnd.random()
        if depth > 3 or pick < 0.4:
            return self.primitive(safe=True)
        if pick < 0.7:
            return [self.nested(depth + 1) for _ in range(self.rnd.randint(0, 3))]
        keys = [
            self.rnd.choice(NESTED_KEYS + [self.string()]) for _ in range(self.rnd.randint(0, 3))
        ]
        return {key: self.nested(depth + 1) for key in keys}

    def cell(self) -> Any:
        return self.nested() if self.rnd.random() < 0.15 else self.primitive()

    def name(self) -> str:
        if self.rnd.random() < 0.7:
            return self.rnd.choice(NAMES)
        first = self.rnd.choice("abcxyzABC_")
        return first + "".join(self.rnd.choice("abc019_.-") for _ in range(self.rnd.randint(0, 5)))

    def fields(self) -> list[str]:
        return list(dict.fromkeys(self.name() for _ in range(self.rnd.randint(0, 4))))

    def entry(self) -> Any:
        pick = self.rnd.random()
        if pick < 0.3:  # a scalar: a primitive, or a JSON cell in a one-item array
            return self.primitive() if self.rnd.random() < 0.8 else [self.nested(), 0]
        if pick < 0.45:  # a scalar array (one item at least is no dict, or it is empty)
            items = [self.cell() for _ in range(self.rnd.randint(0, 4))]
            return items + [self.primitive()] if items else items
        if pick < 0.85:  # a record array, maybe with rows of no fields
            fields = self.fields()
            rows = [{f: self.cell() for f in fields} for _ in range(self.rnd.randint(1, 5))]
            return tuple(rows) if self.rnd.random() < 0.1 else rows
        return {f: self.cell() for f in self.fields()}  # a single record, maybe {}

    def document(self) -> dict[str, Any]:
        names = list(dict.fromkeys(self.name() for _ in range(self.rnd.randint(0, 5))))
        return {name: self.entry() for name in names}


SEEDS = range(10)
PER_SEED = 400


@pytest.mark.parametrize("seed", SEEDS)
def test_generated_documents_agree(reference: Reference, seed: int) -> None:
    documents = Documents(seed)
    comparison = Comparison(reference)
    for _ in range(PER_SEED):
        comparison.add(documents.document(), number=documents.rnd.random() < 0.4)
    problems = comparison.run()
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:5])
    assert comparison.compared == PER_SEED
    assert comparison.byte_equal > PER_SEED // 4  # most documents come out byte-equal


def test_curated_strings_agree_in_every_position(reference: Reference) -> None:
    """Bare-string edge cases as scalars, array items, record cells and inside JSON cells."""
    comparison = Comparison(reference)
    for text in CURATED:
        for number in (False, True):
            comparison.add(
                {
                    "s": text,
                    "items": [text, "x", text],
                    "rows": [{"a": text, "b": 1}, {"a": "y", "b": text}],
                    "one": {"a": text},
                    "json": [{"k": text}, [text]],
                    "keyed": [{text: text}, 0],
                    "cells": [{"j": {text: [text]}}],
                },
                number,
            )
    problems = comparison.run()
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:5])
    assert comparison.compared == 2 * len(CURATED) == 690  # the count docs/eson.md gives


def test_random_floats_and_strings_agree(reference: Reference) -> None:
    """4,000 floats from random bit patterns and 4,000 short strings from a hostile pool,
    as record columns, scalar arrays and JSON cells."""
    rnd = random.Random(20261129)
    comparison = Comparison(reference)
    for _ in range(40):
        floats = []
        while len(floats) < 100:
            value = struct.unpack("<d", struct.pack("<Q", rnd.getrandbits(64)))[0]
            if math.isfinite(value):
                floats.append(value)
        strings = [
            re.sub(
                "[\ud800-\udbff](?=[\udc00-\udfff])",
                "x",
                "".join(rnd.choice(PIECES) for _ in range(rnd.randrange(0, 6))),
            )
            for _ in range(100)
        ]
        comparison.add(
            {
                "rows": [{"f": f, "s": t} for f, t in zip(floats, strings)],
                "fs": [*floats, "x"],
                "ss": strings,
                "j": [[floats[:10], strings[:10]], 0],
            },
            number=rnd.random() < 0.5,
        )
    problems = comparison.run()
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:3])


# ------------------------------------------------------------ hypothesis

names = st.one_of(
    st.sampled_from(NAMES), st.from_regex(r"[A-Za-z_][A-Za-z0-9_.-]{0,8}", fullmatch=True)
)
texts = st.one_of(
    st.text(max_size=12),
    st.lists(st.sampled_from(PIECES), max_size=6).map(
        lambda pieces: re.sub("[\ud800-\udbff](?=[\udc00-\udfff])", "x", "".join(pieces))
    ),
    st.sampled_from(CURATED),
)
floats = st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(FLOATS))
scalars = st.one_of(
    st.none(), st.booleans(), texts, floats, st.integers(), st.integers(-(10**30), 10**30)
)
nested = st.recursive(
    st.one_of(st.none(), st.booleans(), texts, floats, st.integers(-SAFE, SAFE)),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.one_of(st.sampled_from(NESTED_KEYS), texts), children, max_size=3)
    ),
    max_leaves=8,
)
cells = st.one_of(scalars, scalars, nested)


@st.composite
def record_arrays(draw: st.DrawFn) -> list[dict[str, Any]]:
    fields = draw(st.lists(names.filter(lambda name: name != "n"), max_size=4, unique=True))
    rows = draw(
        st.lists(st.fixed_dictionaries(dict.fromkeys(fields, cells)), min_size=1, max_size=4)
    )
    return [{field: row[field] for field in fields} for row in rows]  # one key order


entries = st.one_of(
    scalars,
    st.lists(cells, max_size=4).map(lambda items: [*items, 0]),  # a scalar array
    record_arrays(),
    st.dictionaries(names, cells, max_size=4),  # a single record
)
documents = st.dictionaries(names.filter(lambda name: name != "n"), entries, max_size=5)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=documents, number=st.booleans())
def test_hypothesis_documents_agree(
    reference: Reference, document: dict[str, Any], number: bool
) -> None:
    comparison = Comparison(reference)
    comparison.add(document, number)
    problems = comparison.run()
    assert not problems, "\n".join(problems)


# ------------------------------------------------------------ each documented difference


def test_integral_floats_keep_their_point(reference: Reference) -> None:
    """Ours writes ``100.0`` so Python reads a float back; JavaScript has one number type."""
    document = {"a": 100.0, "b": -0.0, "c": 1e16, "d": [1.0, -0.0, 2.5], "e": 1e21, "f": 3}
    ours, theirs = eson.encode(document), reference.encode(document)
    assert (
        ours
        == "!eson/1\na=100.0\nb=-0.0\nc=10000000000000000.0\nd[3]\n1.0\n-0.0\n2.5\ne=1e+21\nf=3\n"
    )
    assert theirs == "!eson/1\na=100\nb=-0\nc=10000000000000000\nd[3]\n1\n-0\n2.5\ne=1e+21\nf=3\n"
    assert exactly(eson.decode(ours), document)
    assert exactly(
        eson.decode(theirs), {"a": 100, "b": 0, "c": 10**16, "d": [1, 0, 2.5], "e": 1e21, "f": 3}
    )
    assert same_value(document, reference.decode(ours))
    # inside JSON cells JSON.stringify writes -0 as 0
    nested = {"j": [{"x": [1.0, -0.0]}, 0]}
    assert eson.encode(nested) == '!eson/1\nj[2]\n{"x":[1.0,-0.0]}\n0\n'
    assert reference.encode(nested) == '!eson/1\nj[2]\n{"x":[1,0]}\n0\n'


def test_whole_floats_beyond_2_53_are_other_integers_in_the_reference_text(
    reference: Reference,
) -> None:
    """The reference writes the shortest digits padded with zeros; integers read exactly
    (as ``int`` here, as ``BigInt`` there) then give another number."""
    value = 2.0**60  # 1152921504606846976
    ours, theirs = eson.encode({"a": value}), reference.encode({"a": value})
    assert ours == "!eson/1\na=1152921504606847000.0\n"  # the same digits, and the point
    assert theirs == "!eson/1\na=1152921504606847000\n"
    assert eson.decode(ours) == {"a": value}
    assert reference.decode(ours) == {"a": value}
    assert eson.decode(theirs) == {"a": 1152921504606847000} != {"a": value}
    assert reference.decode(theirs) == {"a": 1152921504606847000}  # a BigInt, not the double


def test_line_separators_are_quoted_and_escaped(reference: Reference) -> None:
    """The reference reads a scalar line with a pattern that stops at U+2028/U+2029."""
    for char in ("\u2028", "\u2029"):
        document = {"s": f"x{char}y", "rows": [{"a": f"x{char}y"}], "j": [[char], 0]}
        ours, theirs = eson.encode(document), reference.encode(document)
        escaped = f"\\u{ord(char):04x}"
        assert (
            ours
            == f'!eson/1\ns="x{escaped}y"\nrows[1]{{a}}\n"x{escaped}y"\nj[2]\n["{escaped}"]\n0\n'
        )
        assert theirs == f'!eson/1\ns=x{char}y\nrows[1]{{a}}\nx{char}y\nj[2]\n["{char}"]\n0\n'
        assert reference.decode(ours) == document | {"j": [[char], 0]}
        assert eson.decode(theirs) == eson.decode(ours) == document
        with pytest.raises(RuntimeError, match=f"^Invalid ESON section: s=x{char}y$"):
            reference.decode(theirs)  # the reference cannot read its own scalar back
        body = theirs.replace(f"s=x{char}y\n", "")  # without the scalar it can
        assert reference.decode(body) == {k: v for k, v in document.items() if k != "s"}


def test_surrogate_code_points_are_quoted(reference: Reference) -> None:
    """A lone surrogate cannot be UTF-8: ours escapes it, the reference writes it raw."""
    document = {"s": "a\ud800b", "rows": [{"x": "\udfff"}]}
    ours, theirs = eson.encode(document), reference.encode(document)
    assert ours == '!eson/1\ns="a\\ud800b"\nrows[1]{x}\n"\\udfff"\n'
    assert theirs == "!eson/1\ns=a\ud800b\nrows[1]{x}\n\udfff\n"
    with pytest.raises(UnicodeEncodeError):
        theirs.encode("utf-8")  # the reference's text cannot be sent as UTF-8
    ours.encode("utf-8")
    assert eson.decode(theirs) == eson.decode(ours) == document
    assert reference.decode(ours) == reference.decode(theirs) == document
    # A high and a low surrogate held as two Python code points would be written as
    # two escapes, which JSON and JavaScript read as one character: refused, not
    # changed.  The escaped pair itself is one character to both readers.
    with pytest.raises(EncodeError, match="surrogate pair as two code points"):
        eson.encode({"s": "\ud83d\ude00"})
    escaped = '!eson/1\ns="\\ud83d\\ude00"\n'
    assert eson.decode(escaped) == reference.decode(escaped) == {"s": "😀"}
    assert eson.encode({"s": "😀"}) == "!eson/1\ns=😀\n"


def test_big_integers_inside_json_cells(reference: Reference) -> None:
    """Top-level and record integers are exact on both sides; inside JSON only doubles."""
    big = 2**53 + 1
    document = {"a": big, "rows": [{"id": -big}]}
    text = "!eson/1\na=9007199254740993\nrows[1]{id}\n-9007199254740993\n"
    assert eson.encode(document) == reference.encode(document) == text
    assert eson.decode(text) == reference.decode(text) == document
    with pytest.raises(EncodeError, match="beyond"):
        eson.encode({"j": [[big], 0]})
    answer = reference.batch([Reference.encoding({"j": [[big], 0]})])[0]
    assert answer == {"ok": False, "error": "Unsupported ESON value: bigint", "name": "TypeError"}
    # a document holding one anyway: exact here, rounded by the reference
    nested = "!eson/1\nj=[9007199254740993]\n"
    assert eson.decode(nested) == {"j": [big]}
    assert reference.decode(nested) == {"j": [float(2**53)]}


def test_javascript_orders_integer_like_keys_first(reference: Reference) -> None:
    """Only nested objects can hold such keys (names cannot): JSON cells."""
    document = {"j": [{"b": 1, "10": 2, "a": 3, "2": 4, "01": 5}, 0]}
    ours, theirs = eson.encode(document), reference.encode(document)
    assert ours == '!eson/1\nj[2]\n{"b":1,"10":2,"a":3,"2":4,"01":5}\n0\n'
    assert theirs == '!eson/1\nj[2]\n{"2":4,"10":2,"b":1,"a":3,"01":5}\n0\n'
    assert list(reference.decode(ours)["j"][0]) == ["2", "10", "b", "a", "01"]
    assert list(eson.decode(ours)["j"][0]) == ["b", "10", "a", "2", "01"]
    assert list(eson.decode(theirs)["j"][0]) == ["2", "10", "b", "a", "01"]


def test_proto_and_other_prototype_names_are_ordinary_on_both_sides(reference: Reference) -> None:
    """``__proto__``, ``constructor`` and ``prototype`` as names, fields and nested keys."""
    document = {
        "__proto__": 1,
        "constructor": [{"__proto__": "x", "prototype": 2}],
        "prototype": {"__proto__": None},
        "j": [{"__proto__": {"constructor": 1}}, 0],
    }
    text = (
        "!eson/1\n__proto__=1\nconstructor[1]{__proto__,prototype}\nx\t2\n"
        'prototype{__proto__}\nnull\nj[2]\n{"__proto__":{"constructor":1}}\n0\n'
    )
    assert eson.encode(document) == reference.encode(document) == text
    assert eson.decode(text) == reference.decode(text) == document
    numbered_text = reference.encode(document, number=True)
    assert eson.encode(document, number=True) == numbered_text
    assert reference.decode(numbered_text) == eson.decode(numbered_text)


def test_rows_holding_the_same_keys_in_another_order(reference: Reference) -> None:
    document = {"rows": [{"a": 1, "b": 2}, {"b": 3, "a": 4}]}
    assert eson.encode(document) == "!eson/1\nrows[2]{a,b}\n1\t2\n4\t3\n"
    with pytest.raises(RuntimeError, match="must have one schema"):
        reference.encode(document)


def test_a_first_field_n_that_is_not_the_row_number(reference: Reference) -> None:
    document = {"rows": [{"n": 5, "a": 1}]}
    with pytest.raises(EncodeError, match="reserved"):
        eson.encode(document)
    written = reference.encode(document)
    assert written == "!eson/1\nrows[1]{n,a}\n5\t1\n"
    with pytest.raises(RuntimeError, match="n must be 1-based and sequential"):
        reference.decode(written)
    with pytest.raises(DecodeError, match="reserved n"):
        eson.decode(written)
    # 1.0 reads as row 1 on both sides
    assert eson.decode("!eson/1\nr[1]{n}\n1.0\n") == {"r": [{"n": 1.0}]}
    assert reference.decode("!eson/1\nr[1]{n}\n1.0\n") == {"r": [{"n": 1}]}


def test_a_leading_byte_order_mark(reference: Reference) -> None:
    text = "\ufeff!eson/1\na=1\n"
    assert eson.decode(text) == {"a": 1}
    with pytest.raises(RuntimeError, match="Expected !eson/1"):
        reference.decode(text)


def test_integers_beyond_pythons_digit_limit(reference: Reference) -> None:
    digits = "7" * 5000
    text = f"!eson/1\na={digits}\n"
    with pytest.raises(DecodeError, match="digits"):
        eson.decode(text)
    answer = reference.bridge.call(Reference.decoding(text))  # an exact BigInt
    assert answer == {"ok": True, "result": {"o": [["a", {"i": digits}]]}}


@pytest.mark.parametrize(
    "document",
    [
        {"a": float("nan")},
        {"a": [float("inf"), 0]},
        {"rows": [{"a": float("-inf")}]},
        {"bad name": 1},
        {"1a": 1},
        {"rows": [{"x y": 1}]},
        {"rows": [{"a": 1}, {"b": 2}]},
        {"rows": [{"a": 1}, {"a": 2, "b": 3}]},
    ],
    ids=repr,
)
def test_both_refuse_what_no_reader_could_take(reference: Reference, document: Any) -> None:
    with pytest.raises(EncodeError):
        eson.encode(document)
    answer = reference.batch([Reference.encoding(document)])[0]
    assert not answer["ok"] and answer["name"] == "TypeError", answer


def test_both_refuse_an_n_field_under_number(reference: Reference) -> None:
    for document in ({"rows": [{"n": 1}]}, {"rows": [{"a": 1, "n": 2}]}):
        with pytest.raises(EncodeError, match="already has a field n"):
            eson.encode(document, number=True)
        with pytest.raises(RuntimeError, match="already has a field n"):
            reference.encode(document, number=True)


@pytest.mark.parametrize(
    "text",
    [
        "!eson/1\n",
        "!eson/1\na[0]\nb{}\n\nc[2]{}\n\n\n",
        '!eson/1\na[2]\n[]\n{}\nb=""\n',
        '!eson/1\nr[2]{a,b}\n1\t"x\\ty"\n[1,{"k":[]}]\t{}\n',
        "!eson/1\r\na=1\r\nb[1]\r\n2\r\n",
        "!eson/1\na=1",
        '!eson/1\na=-0\nb=1E+3\nc=0.5e-3\nd="\\u00e9\\ud83d\\ude00"\n',
    ],
)
def test_both_read_hand_written_documents_alike(reference: Reference, text: str) -> None:
    assert same_value(as_javascript(eson.decode(text)), reference.decode(text))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "!eson/2\n",
        "!eson/1\na[2]\nx\n",
        "!eson/1\nr[1]{a,b}\n1\n",
        "!eson/1\na=1\na=2\n",
        "!eson/1\nr[1]{a,a}\n1\t2\n",
        "!eson/1\nr[2]{n}\n1\n3\n",
        "!eson/1\na=[1,\n",
        "!eson/1\na=1e999\n",
        "!eson/1\nbad name=1\n",
    ],
)
def test_both_reject_malformed_documents(reference: Reference, text: str) -> None:
    with pytest.raises(DecodeError):
        eson.decode(text)
    answer = reference.batch([Reference.decoding(text)])[0]
    assert not answer["ok"], answer


def test_the_reference_is_the_one_in_shared() -> None:
    """The tests run the reference where it lives; the repository holds no copy of it."""
    entry = _reference_entry()
    assert "function tryDecode" in entry.read_text(encoding="utf-8")
    bridge = (REPO_ROOT / "tests" / "interop" / "eson_bridge.mjs").read_text(encoding="utf-8")
    assert "createRequire" in bridge and "function encode" not in bridge
    copies = [
        p
        for p in REPO_ROOT.rglob("index.js")
        if ".cache" not in p.parts and "node_modules" not in p.parts
    ]
    assert copies == []
