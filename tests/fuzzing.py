"""A seed-driven, grammar-aware mutation fuzzer for every decoder.

The decoders under test are ESON and TOON, each untyped and typed on both
frameworks (Pydantic and msgspec), TOON in strict and lenient mode.  Each case
starts from a valid document -- a random model instance or plain value, written
by the library's own encoders -- and applies a few mutations that know the
grammars: declared counts edited, lines duplicated, deleted, swapped or cut,
TAB / CR / LF / NUL / BOM / U+2028 inserted, quotes and brackets deleted or
added, indentation changed, deep nesting, lone surrogates raw and as ``\\u``
escapes, field lists and delimiters changed, an entry renamed to a field of the
schema, invalid UTF-8 in bytes input.

What must hold for every case (:func:`check`):

- a decoder returns, or raises the library's error (``eson.ESONError``);
  nothing else escapes;
- the error's message is one line of at most 1000 characters that encodes as
  UTF-8, and it names a line (a validation error may instead name a missing
  field, which has no line);
- a typed decode gives exactly what validating the untyped result gives
  (``model_validate`` / ``msgspec.convert``), or both fail -- with the one
  allowed difference that typed ESON decoding reports a count that swallowed
  an entry of the schema (``eson.CountError``);
- (issue 9, :func:`check_replies`) the readers of model output hold to the
  same: ESON's lenient decode (``strict=False``), ``eson.parse_reply`` (of
  the text, and of the text inside a fence after prose) and
  ``eson.StreamDecoder`` (strict and lenient, in random chunks, ``str`` or
  ``bytes``) raise only bounded, located library errors; lenient reading of
  text the strict reader accepts gives the same value, and never accepts
  what it refused for its count; a stream ends as the whole-text reading
  of the same text does (the value, or an error), and a count error is
  worded as the whole-text reader words it;
- (issue 17, :func:`check_agent`) the agent surfaces on the same case:
  ``eson.lint`` of the text returns a report (never raises); for a text that
  decodes, ``eson.columnar`` and every format ``eson.choose`` may pick write
  it (or raise ``eson.EncodeError``), and what they wrote reads back as the
  same value; the CLI (``eson decode``, ``eson toon decode``, ``eson lint``)
  exits 0 or 1 with at most one line on standard error, never a traceback.

Everything is reproducible from ``(seed, index)``: :func:`run` reports each
failure with the text that caused it, shrunk.  ``tools/fuzz.py`` runs long
campaigns; ``tests/test_fuzz.py`` a bounded number of cases in the suite.
"""

# No "from __future__ import annotations": msgspec resolves annotations at module scope.

import contextlib
import datetime
import io
import json
import math
import os
import random
import re
import sys
import tempfile
import traceback
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec
import pydantic

import eson
import eson.columnar
import eson.msgspec as em
import eson.toon
from eson._internal.schema import EntryKind, document_schema
from eson._internal.wire.eson_line_reader import scan_sections
from eson.agent.payload import locate
from eson.cli import main as cli_main

MESSAGE_LIMIT = 1000
MAX_TEXT = 30_000
# Values nest up to 500 levels (JSON cells); comparing them recurses that deep.
sys.setrecursionlimit(max(sys.getrecursionlimit(), 6000))

# -- the models: one set per framework, the same shapes --------------------------------


class PItem(eson.Record):
    id: int
    name: str
    score: float
    ok: bool
    tag: Literal["a", "b", "c"] = "a"


class PNote(eson.Record):
    text: str


class PInner(pydantic.BaseModel):
    x: int = 0
    y: str = ""


class PDoc(eson.Message):
    kind: str
    count: int = 0
    ratio: float | None = None
    when: datetime.datetime | None = None
    uid: uuid.UUID | None = None
    items: list[PItem] = []  # noqa: RUF012 (the framework copies defaults)
    notes: list[PNote] = []  # noqa: RUF012
    tags: list[str] = []  # noqa: RUF012
    nums: list[int] = []  # noqa: RUF012
    inner: PInner | None = None
    meta: dict[str, Any] = {}  # noqa: RUF012
    extra: Any = None
    retry: int | None = None


class PNumbered(eson.Message, number=True):
    rows: list[PItem] = []  # noqa: RUF012
    done: bool = False


class MItem(em.Record):
    id: int
    name: str
    score: float
    ok: bool
    tag: Literal["a", "b", "c"] = "a"


class MNote(em.Record):
    text: str


class MInner(msgspec.Struct):
    x: int = 0
    y: str = ""


class MDoc(em.Message):
    kind: str
    count: int = 0
    ratio: float | None = None
    when: datetime.datetime | None = None
    uid: uuid.UUID | None = None
    items: list[MItem] = []  # noqa: RUF012
    notes: list[MNote] = []  # noqa: RUF012
    tags: list[str] = []  # noqa: RUF012
    nums: list[int] = []  # noqa: RUF012
    inner: MInner | None = None
    meta: dict[str, Any] = {}  # noqa: RUF012
    extra: Any = None
    retry: int | None = None


class MNumbered(em.Message, number=True):
    rows: list[MItem] = []  # noqa: RUF012
    done: bool = False


#: The typed decoders' targets, each paired with its twin in the other framework.
MODELS: tuple[type, ...] = (PDoc, MDoc, PNumbered, MNumbered)
FIELD_NAMES = ("kind", "count", "ratio", "when", "uid", "items", "notes", "tags", "nums",
               "inner", "meta", "extra", "retry", "rows", "done", "n")


# -- random values -------------------------------------------------------------------

_TRICKY = [
    "", " ", "a b", "a,b", "a|b", "a:b", "a\tb", "a\nb", "a\rb", '"q"', "'s'", "\\", "[x]",
    "{y}", "-", "- x", "#c", "null", "true", "false", "0", "01", "-0", "1e5", "1.5", "é",
    "日本", "\u2028", "\u00a0x", "x\u3000", "\ufeffb", "\x00", "\x7f", "😀", "n", "kind",
]


def _text(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.35:
        return rng.choice(_TRICKY)
    if roll < 0.5:
        return "".join(rng.choice(_TRICKY) for _ in range(rng.randint(1, 3)))
    alphabet = "abcdefghij klm,:|\t-_./\"'\\é😀"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))


def _number(rng: random.Random) -> Any:
    return rng.choice([
        0, 1, -1, 7, 2**53 + 1, -(10**20), 10**30,
        0.0, -0.0, 0.5, 1.5, -2.25, 1e-7, 1e21, 1e300, 3.141592653589793,
        rng.randint(-1000, 1000), rng.uniform(-1e6, 1e6),
    ])


def _plain(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 3 or roll < 0.4:
        return rng.choice([None, True, False, _number(rng), _text(rng), _text(rng)])
    if roll < 0.7:
        return [_plain(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {_text(rng) or "k": _plain(rng, depth + 1) for _ in range(rng.randint(0, 3))}


def _item(rng: random.Random, cls: type) -> Any:
    return cls(
        id=rng.randint(-5, 10**6),
        name=_text(rng),
        score=float(_number(rng)),
        ok=rng.random() < 0.5,
        tag=rng.choice(["a", "b", "c"]),
    )


def instance(rng: random.Random, cls: type) -> Any:
    """A random instance of one of :data:`MODELS`."""
    pydantic_flavour = issubclass(cls, pydantic.BaseModel)
    item = PItem if pydantic_flavour else MItem
    if cls in (PNumbered, MNumbered):
        return cls(rows=[_item(rng, item) for _ in range(rng.randint(0, 4))], done=rng.random() < 0.5)
    note, inner = (PNote, PInner) if pydantic_flavour else (MNote, MInner)
    optional = rng.random
    return cls(
        kind=_text(rng),
        count=rng.randint(-3, 10**9),
        ratio=float(_number(rng)) if optional() < 0.6 else None,
        when=datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc) if optional() < 0.4 else None,
        uid=uuid.UUID(int=rng.getrandbits(128)) if optional() < 0.4 else None,
        items=[_item(rng, item) for _ in range(rng.randint(0, 4))],
        notes=[note(text=_text(rng)) for _ in range(rng.randint(0, 3))],
        tags=[_text(rng) for _ in range(rng.randint(0, 3))],
        nums=[rng.randint(-100, 10**12) for _ in range(rng.randint(0, 3))],
        inner=inner(x=rng.randint(0, 9), y=_text(rng)) if optional() < 0.5 else None,
        meta={_text(rng) or "m": _plain(rng) for _ in range(rng.randint(0, 2))},
        extra=_plain(rng) if optional() < 0.5 else None,
        retry=rng.randint(0, 5) if optional() < 0.5 else None,
    )


def seed_document(rng: random.Random) -> tuple[str, str]:
    """A valid document: ``(format, text)``, written by the library's own encoders."""
    fmt = rng.choice(["eson", "toon"])
    for _ in range(20):
        if rng.random() < 0.7:
            value: Any = instance(rng, rng.choice(MODELS))
        else:
            value = {rng.choice(FIELD_NAMES[:13]): _plain(rng) for _ in range(rng.randint(1, 5))}
        try:
            if fmt == "eson":
                return fmt, eson.encode(value, number=rng.random() < 0.2 if isinstance(value, dict) else None)
            return fmt, eson.toon.encode(value, delimiter=rng.choice([",", "\t", "|"]))
        except (eson.ESONError, TypeError):
            continue  # a value the format cannot hold (a surrogate in TOON, a bad name ...)
    return fmt, "!eson/1\nkind=x\n" if fmt == "eson" else "kind: x"


# -- mutations -----------------------------------------------------------------------

Mutation = Callable[[random.Random, str, str], str]
_COUNT = re.compile(r"\[(\d+)")
_INSERTS = ["\t", "\r", "\n", "\r\n", "\x00", "\ufeff", "\u2028", "\u2029", "\ud800", "\udfff",
            '"', "'", "\\", "[", "]", "{", "}", ":", ",", "|", "=", "#", "- ", "  ", "\xa0", "😀"]


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _line_index(rng: random.Random, fmt: str, lines: list[str]) -> int:
    """A line to mutate: rarely the ESON header, which would only hide the rest."""
    if fmt == "eson" and len(lines) > 1 and rng.random() < 0.95:
        return rng.randrange(1, len(lines))
    return rng.randrange(len(lines))


def _edit_count(rng: random.Random, fmt: str, text: str) -> str:
    found = list(_COUNT.finditer(text))
    if not found:
        return text
    match = rng.choice(found)
    number = int(match.group(1))
    new = rng.choice([number + 1, number - 1, number + 2, 0, 10**18, 10**40, 99999])
    digits = rng.choice([str(max(new, 0)), "0" + str(number), "x", ""])
    return text[: match.start(1)] + digits + text[match.end(1):]


def _duplicate_line(rng: random.Random, fmt: str, text: str) -> str:
    lines = _lines(text)
    index = _line_index(rng, fmt, lines)
    copies = rng.choice([1, 1, 2, 50])
    lines[index:index] = [lines[index]] * copies
    return "\n".join(lines)


def _delete_line(rng: random.Random, fmt: str, text: str) -> str:
    lines = _lines(text)
    if len(lines) > 1:
        del lines[_line_index(rng, fmt, lines)]
    return "\n".join(lines)


def _swap_lines(rng: random.Random, fmt: str, text: str) -> str:
    lines = _lines(text)
    if len(lines) > 2:
        a, b = _line_index(rng, fmt, lines), _line_index(rng, fmt, lines)
        lines[a], lines[b] = lines[b], lines[a]
    return "\n".join(lines)


def _insert(rng: random.Random, fmt: str, text: str) -> str:
    position = rng.randint(0, len(text))
    return text[:position] + rng.choice(_INSERTS) + text[position:]


def _delete_char(rng: random.Random, fmt: str, text: str) -> str:
    targets = [i for i, char in enumerate(text) if char in '"[]{}:,|=\t\\-']
    if not targets:
        return text
    position = rng.choice(targets)
    return text[:position] + text[position + 1:]


def _indent(rng: random.Random, fmt: str, text: str) -> str:
    lines = _lines(text)
    index = _line_index(rng, fmt, lines)
    line = lines[index]
    roll = rng.random()
    if roll < 0.4:
        lines[index] = " " * rng.choice([1, 2, 3, 4, 200]) + line
    elif roll < 0.7:
        lines[index] = line[rng.randint(1, 2):] if line.startswith(" ") else line
    else:
        lines[index] = "\t" + line
    return "\n".join(lines)


def _deep(rng: random.Random, fmt: str, text: str) -> str:
    depth = rng.choice([10, 100, 255, 256, 257, 499, 500, 501, 2000])
    if fmt == "eson":
        cell = "[" * depth + "]" * depth if rng.random() < 0.7 else '{"a":' * depth + "1" + "}" * depth
        return text.rstrip("\n") + f"\nextra={cell}\n"
    nested = "".join("  " * i + f"k{i}:\n" for i in range(depth)) + "  " * depth + "v: 1"
    return text + "\nextra:\n" + "\n".join("  " + line for line in nested.split("\n"))


def _surrogate(rng: random.Random, fmt: str, text: str) -> str:
    quotes = [m.end() for m in re.finditer('"', text)]
    raw = rng.random() < 0.5
    piece = rng.choice(["\ud800", "\udfff", "\udbff"]) if raw else rng.choice(["\\ud800", "\\udfff", "\\ud83d"])
    inside = quotes and rng.random() < 0.7
    position = rng.choice(quotes) if inside else rng.randint(0, len(text))
    return text[:position] + piece + text[position:]


def _field_list(rng: random.Random, fmt: str, text: str) -> str:
    found = list(re.finditer(r"\{([^{}\n]*)\}", text))
    if not found:
        return text
    match = rng.choice(found)
    fields = re.split(r"[,\t|]", match.group(1))
    roll = rng.random()
    if roll < 0.3 and fields:
        fields.append(rng.choice(fields))
    elif roll < 0.6 and len(fields) > 1:
        del fields[rng.randrange(len(fields))]
    elif roll < 0.8:
        fields.insert(0, "n")
    else:
        rng.shuffle(fields)
    separator = "," if fmt == "eson" or "," in match.group(1) else rng.choice([",", "\t", "|"])
    return text[: match.start(1)] + separator.join(fields) + text[match.end(1):]


def _delimiter(rng: random.Random, fmt: str, text: str) -> str:
    old, new = rng.sample(["\t", ",", "|"], 2)
    return text.replace(old, new, rng.choice([1, 3, -1]))


def _rename(rng: random.Random, fmt: str, text: str) -> str:
    """Turn a line into an entry (or key) named after a field of the schema."""
    lines = _lines(text)
    index = _line_index(rng, fmt, lines)
    name = rng.choice(FIELD_NAMES)
    value = rng.choice(["3", "x", "null", "[]", '"s"'])
    lines[index] = f"{name}={value}" if fmt == "eson" else f"{name}: {value}"
    return "\n".join(lines)


def _header(rng: random.Random, fmt: str, text: str) -> str:
    """Change the ESON version line (or put one on a TOON document)."""
    replacement = rng.choice(["!eson/2", "!eson/1 ", "!ESON/1", "", "!eson/1\r", "\ufeff!eson/1"])
    if fmt == "eson":
        return text.replace("!eson/1", replacement, 1)
    return replacement + "\n" + text


_TOKENS = [
    "1.0", "01", "-0", "-0.0", "1e5", "1E+5", "1e-7", "true", "false", "null", "", " x", "x ",
    '"x"', '""', "[1]", "[]", "{}", '{"a":1}', "9" * 30, "9" * 5000, "1_000", "0x10", "+1", ".5",
    "5.", "NaN", "Infinity", '"\\u00e9"', '"\\ud800"', "\u0661\u0662", "\uff11", "²", "12:00",
    "a,b", "a|b", "- x", "#x", "2024-01-02T03:04:05Z", "12345678-1234-5678-1234-567812345678",
    "a", "b", "c", "yes", "True", "1", "0", "-1",
]


def _cell(rng: random.Random, fmt: str, text: str) -> str:
    """Replace one cell or value token by a tricky one (the structure stays)."""
    spans = [m.span() for m in re.finditer(r"(?<=[\t,|:=\n])[^\t,|:=\n]*", text)]
    if not spans:
        return text
    start, end = rng.choice(spans)
    token = rng.choice(_TOKENS)
    if fmt == "toon" and text[start - 1 : start] == ":" and token and rng.random() < 0.8:
        token = " " + token
    return text[:start] + token + text[end:]


def _line_ends(rng: random.Random, fmt: str, text: str) -> str:
    """CRLF line ends (everywhere, or on one line), spaces at line ends."""
    roll = rng.random()
    if roll < 0.4:
        return text.replace("\n", "\r\n")
    lines = _lines(text)
    index = _line_index(rng, fmt, lines)
    lines[index] += "\r" if roll < 0.7 else rng.choice([" ", "  ", "\t"])
    return "\n".join(lines)


def _truncate(rng: random.Random, fmt: str, text: str) -> str:
    return text[: rng.randint(0, len(text))]


def _repeat(rng: random.Random, fmt: str, text: str) -> str:
    lines = _lines(text)
    index = _line_index(rng, fmt, lines)
    lines[index] = lines[index] * rng.choice([2, 10, 300])
    return "\n".join(lines)


MUTATIONS: tuple[Mutation, ...] = (
    _edit_count, _edit_count, _duplicate_line, _delete_line, _swap_lines, _insert, _insert,
    _delete_char, _delete_char, _indent, _deep, _surrogate, _surrogate, _field_list,
    _delimiter, _rename, _rename, _truncate, _repeat, _header, _cell, _cell, _cell, _cell,
    _line_ends,
)


@dataclass(frozen=True)
class Case:
    """One fuzz case: the format and the input (``str``, or ``bytes`` that may be bad UTF-8)."""

    seed: int
    index: int
    fmt: str
    data: str | bytes


def make_case(seed: int, index: int) -> Case:
    """The case ``index`` of the campaign ``seed`` (deterministic)."""
    rng = random.Random(f"{seed}:{index}")
    fmt, text = seed_document(rng)
    if rng.random() < 0.5:
        # Values only: the structure stays, so the typed fast paths still run and
        # must agree with validating the untyped reading.
        for _ in range(rng.choice([1, 1, 2, 3, 5])):
            text = _cell(rng, fmt, text)
    else:
        for _ in range(rng.choice([0, 1, 1, 1, 1, 2, 2, 3])):
            text = rng.choice(MUTATIONS)(rng, fmt, text)
    if len(text) > MAX_TEXT:
        text = text[:MAX_TEXT]
    data: str | bytes = text
    if rng.random() < 0.1:
        raw = text.encode("utf-8", "surrogatepass")
        if rng.random() < 0.5:
            position = rng.randint(0, len(raw))
            raw = raw[:position] + rng.choice([b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xe2\x82"]) + raw[position:]
        data = raw
    return Case(seed, index, fmt, data)


# -- the oracle ----------------------------------------------------------------------


@dataclass
class Failure:
    """A property that did not hold, with everything needed to reproduce it."""

    case: Case
    decoder: str
    problem: str
    detail: str = ""
    known: str | None = None  # an issue that is already being fixed elsewhere

    def __str__(self) -> str:
        where = f"seed {self.case.seed} case {self.case.index} ({self.case.fmt}, {self.decoder})"
        known = f" [known: {self.known}]" if self.known else ""
        return f"{where}: {self.problem}{known}\n  input: {self.case.data!r}\n  {self.detail}"


@dataclass
class Outcome:
    ok: bool
    value: Any = None
    error: BaseException | None = None


def _run(call: Callable[[], Any]) -> Outcome:
    try:
        return Outcome(True, call())
    except Exception as exc:
        return Outcome(False, error=exc)


#: Failures that belong to work in progress elsewhere, each a predicate and the
#: issue item that fixes it: the fuzzer counts them apart instead of failing.
#: Empty now -- issue 8 item 3 (a KeyError from Positions.line_of in lenient
#: TOON with a key twice) was one, and is fixed.
KNOWN: list[tuple[Callable[[BaseException], bool], str]] = []


def _known(error: BaseException) -> str | None:
    """The issue item of a known failure, or ``None``."""
    return next((item for matches, item in KNOWN if matches(error)), None)


def message_problems(error: BaseException) -> list[str]:
    """What is wrong with an error's message (one line, bounded, encodable, located)."""
    problems = []
    if not isinstance(error, eson.ESONError):
        return [f"foreign exception {type(error).__name__}: {error!r}"[:500]]
    messages = [str(error)]
    if isinstance(error, eson.ValidationError):
        messages += [str(entry.get("msg")) for entry in error.errors]
    for message in messages:
        if "\n" in message or "\r" in message:
            problems.append(f"message spans lines: {message[:300]!r}")
        if len(message) > MESSAGE_LIMIT:
            problems.append(f"message of {len(message)} characters")
        try:
            message.encode("utf-8")
        except UnicodeEncodeError:
            problems.append(f"message not encodable: {message[:300]!a}")
    if error.line is None and not _unplaceable(error):
        problems.append(f"error without a line: {str(error)[:300]!r}")
    return problems


def _unplaceable(error: eson.ESONError) -> bool:
    """A validation error with no line to name: a field missing, or the document as a whole."""
    if not isinstance(error, eson.ValidationError) or not error.errors:
        return False
    first = error.errors[0]
    return first.get("type") in ("missing", "string_unicode") or not first.get("loc")


def unmodelled_n_columns(cls: type, text: str) -> list[str]:
    """The record arrays of ESON ``text`` numbered with the reserved ``n`` column ``cls``'s
    record has no field for: a typed decode checks that column and drops it, so the untyped
    reading a typed decode must equal drops it too.

    Raises:
        eson.ESONError: for a text whose sections do not scan.
    """
    schema = document_schema(cls)
    names = []
    for section in scan_sections(text):
        item = schema.by_wire.get(section.name)
        if (
            item is not None
            and item.entry is EntryKind.RECORD_ARRAY
            and item.record is not None
            and section.kind == "records"
            and section.numbered
            and "n" not in item.record.wire_names
        ):
            names.append(section.name)
    return names


def _validate(cls: type, document: Any, text: str | None) -> Outcome:
    """``validate(untyped)``: the reference a typed decode must equal."""
    if text is not None:  # ESON: a record array's reserved n column is checked and dropped
        try:
            names = unmodelled_n_columns(cls, text)
        except eson.ESONError:
            names = []
        for name in names:
            if isinstance(document.get(name), list):
                rows = [{k: v for k, v in row.items() if k != "n"} for row in document[name]]
                document = {**document, name: rows}
    if issubclass(cls, pydantic.BaseModel):
        return _run(lambda: cls.model_validate(document))
    return _run(lambda: msgspec.convert(document, cls))


def swallowed_entry(text: str, error: BaseException) -> bool:
    """Whether a typed ESON error is the count check untyped decoding cannot make."""
    if not isinstance(error, eson.CountError) or error.stray_line is None:
        return False
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").split("\n")
    if error.stray_line > len(lines):
        return False
    name = re.split(r"[=\[{]", lines[error.stray_line - 1], maxsplit=1)[0]
    try:
        names = {section.name for section in scan_sections(text)}
    except eson.ESONError:
        return False
    return name not in names and error.section in names


def _same(a: Any, b: Any) -> bool:
    """Equal, and equal in kind: ``1`` is not ``1.0``, ``-0.0`` is not ``0.0``."""
    return _normal(a) == _normal(b)


def _normal(value: Any) -> Any:
    """A value spelled out for exact comparison: types, float signs and key order kept."""
    if isinstance(value, float):
        return ("float", "nan" if math.isnan(value) else float.__repr__(value))
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return ("int", int(value))
    if isinstance(value, pydantic.BaseModel):
        return (type(value).__name__, [(k, _normal(v)) for k, v in value.__dict__.items()])
    if isinstance(value, msgspec.Struct):
        return (type(value).__name__, [(k, _normal(getattr(value, k))) for k in value.__struct_fields__])
    if isinstance(value, dict):
        return ("dict", [(k, _normal(v)) for k, v in value.items()])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_normal(v) for v in value])
    return (type(value).__name__, value)


def check(case: Case) -> list[Failure]:
    """Run every decoder on a case and return what did not hold."""
    failures: list[Failure] = []
    text: str | None
    if isinstance(case.data, str):
        text = case.data
    else:
        try:
            text = case.data.decode("utf-8")
        except UnicodeDecodeError:
            text = None  # every decoder rejects it: no reference to compare with
    modes: list[tuple[str, Callable[..., Any], dict[str, Any]]]
    if case.fmt == "eson":
        modes = [("eson", eson.decode, {})]
    else:
        modes = [("toon", eson.toon.decode, {"strict": True}), ("toon lenient", eson.toon.decode, {"strict": False})]
    for label, decode, options in modes:
        untyped = _run(lambda decode=decode, options=options: decode(case.data, **options))
        if not untyped.ok:
            assert untyped.error is not None
            for problem in message_problems(untyped.error):
                failures.append(Failure(case, label, problem, _trace(untyped.error), _known(untyped.error)))
        for cls in MODELS:
            name = f"{label} -> {cls.__name__}"
            log: list[eson.Repair] = []
            typed_options = {**options, "repairs": log} if label == "toon lenient" else options
            typed = _run(lambda decode=decode, options=typed_options, cls=cls: decode(case.data, type=cls, **options))
            if not typed.ok:
                assert typed.error is not None
                known = _known(typed.error)
                for problem in message_problems(typed.error):
                    failures.append(Failure(case, name, problem, _trace(typed.error), known))
                if known:
                    continue
            if not untyped.ok:
                if typed.ok:
                    failures.append(Failure(case, name, "typed decode accepted text the untyped decoder rejects",
                                            f"untyped: {untyped.error!r}"[:500]))
                continue
            reference = _validate(cls, untyped.value, text if case.fmt == "eson" else None)
            if reference.ok and typed.ok:
                if not _same(typed.value, reference.value) or type(typed.value) is not type(reference.value):
                    failures.append(Failure(case, name, "typed result differs from validate(untyped)",
                                            f"typed: {typed.value!r}\n  reference: {reference.value!r}"[:2000]))
            elif reference.ok and not typed.ok:
                if case.fmt == "eson" and text is not None and swallowed_entry(text, typed.error):
                    continue  # the schema shows a count too high: allowed, and wanted
                failures.append(Failure(case, name, "typed decode failed where validate(untyped) succeeded",
                                        f"typed: {typed.error!r}"[:500]))
            elif typed.ok and log:
                continue  # lenient typed TOON read a number or boolean as a string field's text (issue 9)
            elif typed.ok:
                failures.append(Failure(case, name, "typed decode succeeded where validate(untyped) failed",
                                        f"reference: {reference.error!r}"[:500]))
    if text is not None:
        failures += check_replies(case, text)
        failures += check_agent(case, text)
    return failures


def _problems(case: Case, name: str, outcome: Outcome) -> list[Failure]:
    if outcome.ok:
        return []
    assert outcome.error is not None
    known = _known(outcome.error)
    return [Failure(case, name, problem, _trace(outcome.error), known)
            for problem in message_problems(outcome.error)]


def _attempt(function: Callable[..., Any], *args: Any, **options: Any) -> Outcome:
    try:
        return Outcome(True, function(*args, **options))
    except Exception as exc:
        return Outcome(False, error=exc)


def _kind(outcome: Outcome) -> str:
    return "ok" if outcome.ok else "error"


def _stream(cls: type | None, fmt: str, data: str | bytes, strict: bool, size: int) -> Any:
    decoder = eson.StreamDecoder(cls, format=fmt, strict=strict)  # type: ignore[call-overload]
    for start in range(0, len(data), size):
        decoder.feed(data[start : start + size])
    return decoder.close()


def _located(text: str, fmt: str, cls: type | None) -> str:
    """The payload ``eson.parse_reply(text, cls, formats=(fmt,))`` reads."""
    names = None
    if cls is not None:
        schema = document_schema(cls)
        names = frozenset(item.wire for item in schema.fields if not item.output_only)
    return locate(text, (fmt,), names).text


_FENCE = "`" * 3


def check_replies(case: Case, text: str) -> list[Failure]:
    """The readers of model output on a case (see the module documentation)."""
    failures: list[Failure] = []
    rng = random.Random(f"replies:{case.seed}:{case.index}")
    fmt = case.fmt
    whole_decode: Callable[..., Any] = eson.decode if fmt == "eson" else eson.toon.decode
    for cls in (None, *rng.sample(MODELS, 2)):
        label = f"{fmt} -> {cls.__name__ if cls else 'plain'}"
        typed: dict[str, Any] = {"type": cls} if cls is not None else {}
        strict = _attempt(whole_decode, text, **typed)
        if fmt == "eson":
            log: list[eson.Repair] = []
            lenient = _attempt(eson.decode, text, strict=False, repairs=log, **typed)
            failures += _problems(case, f"lenient {label}", lenient)
            # A repair applies only where strict reading fails: a text strict
            # reading accepts has that one reading leniently too (issue 17 item 8).
            if strict.ok and not (lenient.ok and _same(lenient.value, strict.value)):
                failures.append(Failure(case, f"lenient {label}", "lenient reading differs from strict",
                                        f"strict: {strict.value!r}\n  lenient: {lenient.value if lenient.ok else lenient.error!r}"[:2000]))
            # ... and with nothing repaired (parse_reply reads strictly first on that
            # ground), but the missing n column of a number=True type, which strict
            # reading accepts and lenient reading records.
            if strict.ok and lenient.ok and any(repair.kind != "missing-n" for repair in log):
                failures.append(Failure(case, f"lenient {label}", "lenient reading repaired what strict reading accepts",
                                        f"repairs: {log!r}"[:500]))
            # (a repair may make a line the strict reader took for a row an entry)
            if isinstance(strict.error, eson.CountError) and lenient.ok and not log:
                failures.append(Failure(case, f"lenient {label}", "lenient reading accepted a count error",
                                        f"strict: {strict.error!r}"[:500]))
        reply = _attempt(eson.parse_reply, text, cls, formats=(fmt,))
        failures += _problems(case, f"parse_reply {label}", reply)
        # A valid document reads the same fenced after prose (a broken one
        # may not: outside a fence a document ends where prose begins).
        whole_payload = reply.ok and _attempt(eson.extract, text).value == text.strip("\n")
        # (A text ending in a CR of data is left out: the line break the fence
        # needs after it would make that CR part of a CRLF: seed 7007 case 56512.)
        if strict.ok and whole_payload and _FENCE not in text and not text.endswith("\r"):
            body = text.removeprefix("\ufeff")  # a byte-order mark belongs at the start only
            body = body if body.endswith("\n") else body + "\n"
            wrapped = f"Here is the result:\n\n{_FENCE}{fmt}\n{body}{_FENCE}\n\nAnything else?"
            again = _attempt(eson.parse_reply, wrapped, cls, formats=(fmt,))
            if not (again.ok and _same(again.value, reply.value)):
                failures.append(Failure(case, f"parse_reply {label}", "a fenced reply reads otherwise",
                                        f"bare: {reply.value!r}\n  fenced: {again.value if again.ok else again.error!r}"[:2000]))
        surrogates = any("\ud800" <= char <= "\udfff" for char in text)
        # bytes only for text that is UTF-8: a lone surrogate is not
        data: str | bytes = text if surrogates or rng.random() < 0.5 else text.encode("utf-8")
        size = rng.choice([1, 3, 16, 64, 1 << 20])
        # A stream reads the first payload, parse_reply the last in its format:
        # compare them where the reply is one payload.
        # parse_reply's payload may be a later part of the reply than the
        # stream's (prose such as "." ends an unfenced TOON payload, and a
        # lone "key:" line before it is prose to parse_reply): compare the
        # lenient stream only where parse_reply read the whole text.
        located = _attempt(_located, text, fmt, cls)
        part = located.ok and located.value != text.removeprefix("\ufeff").strip("\n")
        for wire_strict, whole in ((True, strict), (False, reply)):
            if not wire_strict and ((not whole_payload and reply.ok) or part):
                continue
            name = f"stream{'' if wire_strict else ' lenient'} {label}"
            streamed = _attempt(_stream, cls, fmt, data, wire_strict, size)
            failures += _problems(case, name, streamed)
            if (
                not wire_strict
                and cls is None
                and fmt == "toon"
                and not whole.ok
                and "no TOON document found" in str(whole.error)
            ):
                # One allowed difference: untyped, parse_reply takes a lone
                # "word: words" line for prose; a stream cannot wait to see
                # whether a second line follows (docs/replies.md, Limits).
                continue
            if _kind(streamed) != _kind(whole):
                failures.append(Failure(case, name, "the stream ends otherwise than the whole text",
                                        f"stream: {streamed.value if streamed.ok else streamed.error!r}\n  "
                                        f"whole: {whole.value if whole.ok else whole.error!r}"[:2000]))
            elif streamed.ok and not _same(streamed.value, whole.value):
                failures.append(Failure(case, name, "the stream gives another value",
                                        f"stream: {streamed.value!r}\n  whole: {whole.value!r}"[:2000]))
            elif wire_strict and _worded_otherwise(fmt, whole.error, streamed.error):
                failures.append(Failure(case, name, "the stream words an error otherwise",
                                        f"stream: {streamed.error}\n  whole: {whole.error}"[:2000]))
    return failures


def _cli(argv: list[str], data: str) -> Outcome:
    """Run the command line in process on ``data``; the exit status, or what escaped."""
    handle, path = tempfile.mkstemp(suffix=".txt")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", errors="surrogatepass", newline="") as file:
            file.write(data)
        errors = io.StringIO()
        output = [] if argv[0] == "lint" else ["-o", os.devnull]  # lint writes its report only
        with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
            status = cli_main([*argv, path, *output])
        return Outcome(True, (status, errors.getvalue()))
    except BaseException as exc:  # a traceback, SystemExit included, is what must not happen
        return Outcome(False, error=exc)
    finally:
        os.unlink(path)


def check_agent(case: Case, text: str) -> list[Failure]:
    """The agent surfaces on a case: lint, columnar, choose and the CLI (see the module docs)."""
    failures: list[Failure] = []
    rng = random.Random(f"agent:{case.seed}:{case.index}")
    linted = _attempt(eson.lint, text)
    if not linted.ok:
        failures.append(Failure(case, "lint", f"lint raised {type(linted.error).__name__}",
                                f"{linted.error!r}"[:500]))
    decode: Callable[..., Any] = eson.decode if case.fmt == "eson" else eson.toon.decode
    value = _attempt(decode, text)
    if value.ok:
        written = _attempt(eson.columnar.encode, value.value)
        if written.ok:
            back = _attempt(eson.columnar.decode, written.value)
            if not (back.ok and _same(back.value, value.value)):
                failures.append(Failure(case, "columnar", "columnar does not read back what it wrote",
                                        f"wrote: {written.value!r}\n  read: {back.value if back.ok else back.error!r}"[:2000]))
        elif not isinstance(written.error, eson.EncodeError):
            failures.append(Failure(case, "columnar", f"columnar.encode raised {type(written.error).__name__}",
                                    f"{written.error!r}"[:500]))
        chosen = _attempt(eson.choose, value.value, by="chars")
        if chosen.ok:
            failures += _check_choice(case, value.value, chosen.value)
        elif not isinstance(chosen.error, eson.EncodeError):
            failures.append(Failure(case, "choose", f"choose raised {type(chosen.error).__name__}",
                                    f"{chosen.error!r}"[:500]))
    if rng.random() < 0.25:  # the CLI costs a file per call: a quarter of the cases
        commands = [["decode"], ["lint"]] if case.fmt == "eson" else [["toon", "decode"], ["lint"]]
        for argv in commands:
            ran = _cli(argv, text)
            name = "cli " + " ".join(argv)
            if not ran.ok:
                failures.append(Failure(case, name, f"the CLI let {type(ran.error).__name__} escape",
                                        _trace(ran.error) if ran.error else ""))
                continue
            status, errors = ran.value
            if status not in (0, 1):
                failures.append(Failure(case, name, f"the CLI exited {status}", errors[:500]))
            if errors.count("\n") > 1 or len(errors) > 1100:
                failures.append(Failure(case, name, "the CLI wrote more than one line of error", errors[:500]))
    return failures


def _whole_floats_as_ints(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _whole_floats_as_ints(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_whole_floats_as_ints(item) for item in value]
    return value


def _check_choice(case: Case, value: Any, choice: Any) -> list[Failure]:
    readers: dict[str, Callable[[str], Any]] = {
        "eson/1": eson.decode,
        "toon": eson.toon.decode,
        "json": json.loads,
        "columnar": eson.columnar.decode,
    }
    reader = readers.get(choice.format)
    if reader is None:
        return [Failure(case, "choose", f"choose picked an unknown format {choice.format!r}", "")]
    back = _attempt(reader, choice.text)
    if back.ok and _same(back.value, value):
        return []
    if (
        back.ok
        and choice.format in ("toon", "json", "columnar")
        and _same(_whole_floats_as_ints(back.value), _whole_floats_as_ints(value))
    ):
        # TOON writes a whole float without its ".0" (spec §2; docs/toon.md), and
        # choose writes JSON's numbers as JavaScript does (so that eson.lint's W1
        # passes: docs/agents.md): 1.0 reads back as 1, an equal number.
        return []
    return [Failure(case, "choose", f"the {choice.format} text choose picked does not read back",
                    f"text: {choice.text!r}\n  read: {back.value if back.ok else back.error!r}"[:2000])]


def _worded_otherwise(fmt: str, whole: BaseException | None, streamed: BaseException | None) -> bool:
    """Whether a stream's error differs from the whole text's where they must agree.

    ESON: one reader reads both (eson._internal.wire.eson_line_reader.LineReader), so
    every error of the text is the same, word for word; only validation, which
    the stream does record by record and the whole decode at the end, may name
    another problem of the same message.  TOON: count errors agree.
    """
    if fmt == "eson":
        def wire(error: BaseException | None) -> bool:
            return isinstance(error, eson.DecodeError) and not isinstance(
                error, (eson.ValidationError, eson.TruncatedError)
            )

        return wire(whole) and wire(streamed) and str(streamed) != str(whole)
    return (
        isinstance(whole, eson.CountError)
        and isinstance(streamed, eson.CountError)
        and str(streamed) != str(whole)
    )


def _trace(error: BaseException) -> str:
    frames = traceback.extract_tb(error.__traceback__)[-3:]
    return " <- ".join(f"{frame.filename.rsplit('/', 1)[-1]}:{frame.lineno} {frame.name}" for frame in reversed(frames))


# -- shrinking and campaigns -----------------------------------------------------------


def shrink(case: Case, failure: Failure, budget: int = 300) -> Failure:
    """The failure on a smaller input with the same problem (line, then character deletions)."""
    if not isinstance(case.data, str):
        return failure

    def same(found: Failure) -> bool:
        return found.problem.split(":")[0] == failure.problem.split(":")[0] and (
            found.decoder == failure.decoder
        )

    def same_problem(candidate: Case) -> bool:
        return any(same(found) for found in check(candidate))

    best = case
    tries = 0
    for unit in ("line", "char"):
        changed = True
        while changed and tries < budget:
            changed = False
            text = best.data
            assert isinstance(text, str)
            pieces = text.split("\n") if unit == "line" else list(text)
            joiner = "\n" if unit == "line" else ""
            chunk = max(1, len(pieces) // 2)
            while chunk >= 1 and tries < budget:
                for start in range(0, len(pieces), chunk):
                    candidate_text = joiner.join(pieces[:start] + pieces[start + chunk:])
                    tries += 1
                    candidate = Case(case.seed, case.index, case.fmt, candidate_text)
                    if candidate_text != text and same_problem(candidate):
                        best, changed = candidate, True
                        break
                if changed:
                    break
                chunk //= 2
    return next((found for found in check(best) if same(found)), failure)


@dataclass
class Report:
    """What a campaign ran and found."""

    cases: int = 0
    decodes: int = 0
    failures: list[Failure] = field(default_factory=list)

    @property
    def new(self) -> list[Failure]:
        return [failure for failure in self.failures if failure.known is None]

    @property
    def known(self) -> list[Failure]:
        return [failure for failure in self.failures if failure.known is not None]


def run(seed: int, cases: Iterator[int] | range, *, keep: int = 20, minimize: bool = True) -> Report:
    """Run the cases of campaign ``seed``; keep (and shrink) the first ``keep`` new failures."""
    report = Report()
    seen: set[tuple[str, str]] = set()
    for index in cases:
        case = make_case(seed, index)
        report.cases += 1
        report.decodes += (1 if case.fmt == "eson" else 2) * (1 + len(MODELS))
        for failure in check(case):
            signature = (failure.decoder.split(" -> ")[0], failure.problem[:60])
            if signature in seen:
                continue
            seen.add(signature)
            if failure.known is None and len(report.new) < keep and minimize:
                failure = shrink(case, failure)
            report.failures.append(failure)
    return report
