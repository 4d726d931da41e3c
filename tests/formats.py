"""ESON and TOON as one test parameter: what a test that holds for both needs of each.

The ``wire_format`` fixture (``tests/conftest.py``) runs a test once with
:data:`ESON` and once with :data:`TOON`.  Each is a :class:`WireCodec`: the
format's public codec (``encode``, ``decode``, ``try_decode``), its compiled
typed reader, its error classes, the writer options a property test draws,
the untyped reading a typed decode must equal, and how to damage a text.
(The library's own format table, ``eson.agent.formats.WireFormat``, is what
the agent layer asks; these are the codecs as the tests drive them.)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from fuzzing import swallowed_entry, unmodelled_n_columns
from hypothesis import strategies as st

import eson
import eson.toon
from eson._internal.codecs import eson_typed, toon_typed

#: Writer options: keywords of ``encode`` (``{}`` is the defaults).
Options = dict[str, Any]


@dataclasses.dataclass(frozen=True)
class WireCodec:
    """One text format, as the shared tests see it."""

    #: ``"eson"`` or ``"toon"`` (the test id).
    name: str
    encode: Callable[..., str]
    decode: Callable[..., Any]
    try_decode: Callable[..., Any]
    #: The compiled typed reader of a class: ``.decode(text, ReadOptions, repairs)``.
    reader_for: Callable[[type], Any]
    #: What malformed text raises (``eson.ValidationError`` apart).
    error: type[eson.ESONError]
    #: What a value the writer cannot write raises.
    encode_error: type[eson.ESONError]
    #: The keywords of the reading a model's reply gets: repairs made and
    #: recorded, declared counts still checked.
    lenient: dict[str, Any]
    #: ``layouts(numbers)``: writer options to draw; ``numbers`` are the
    #: values of ESON's ``number=`` to try (TOON has no row numbers).
    layouts: Callable[[Sequence[bool | None]], st.SearchStrategy[Options]]
    #: The writer options for the plain dump of an instance of a class,
    #: given the typed call's options.
    plain_options: Callable[[type, Options], Options]
    #: The reader keywords that go with writer options.
    reading: Callable[[Options], dict[str, Any]]
    #: ``reference(cls, text, strict, reading)``: the untyped document that
    #: validating must turn into the typed decode's value.
    reference: Callable[[type, str, bool, dict[str, Any]], Any]
    #: ``damage(text, data)``: the text with one small change a model might make.
    damage: Callable[[str, st.DataObject], str]
    #: The ``strict`` flag to read a damaged text with.
    damaged_strictness: st.SearchStrategy[bool]
    #: ``swallowed(text, error)``: whether a typed decode's ``error`` is a
    #: check only the schema can make, which the untyped reading cannot.
    swallowed: Callable[[str, BaseException], bool]

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(self.name)  # hypothesis's reports name the format, not every field


# -- ESON --------------------------------------------------------------------------------


def _eson_plain_options(cls: type, options: Options) -> Options:
    """The dump is numbered as the typed call is: by its ``number``, else the class's."""
    number = options.get("number")
    return {"number": bool(getattr(cls, "__eson_number__", False)) if number is None else number}


def _eson_reference(cls: type, text: str, strict: bool, reading: dict[str, Any]) -> Any:
    """``eson.decode(text)`` with the reserved ``n`` column dropped where ``cls`` has no ``n``."""
    assert strict and not reading  # ESON's damaged texts are read strictly
    document = eson.decode(text)
    for name in unmodelled_n_columns(cls, text):
        for row in document[name]:
            del row["n"]
    return document


# Odd cell texts to swap in: every cell kind, plus ones validation rejects.
ODD_CELLS = [
    "abc", "1", "-7", "1.5", "1e3", "1e999", "01", "null", "true", "false", '"quoted"', '"1"',
    "[1,2]", '{"a":1}', "{bad", "", " x", "2024-01-02T03:04:05Z", "aGk=", "0.5", "x", "review",
    "red", "y z", '"y z"', "99999999999999999999999",
]


def _eson_damage(text: str, data: st.DataObject) -> str:
    """Swap one cell for an odd value, or drop or duplicate a line."""
    lines = text.split("\n")
    if len(lines) <= 2:
        return text
    index = data.draw(st.integers(1, len(lines) - 2))
    action = data.draw(st.sampled_from(["cell", "cell", "cell", "drop", "duplicate"]))
    if action == "drop":
        del lines[index]
    elif action == "duplicate":
        lines.insert(index, lines[index])
    else:
        line = lines[index]
        head, sep, _ = line.partition("=")
        if sep and "\t" not in line and "{" not in head and "[" not in head:
            lines[index] = head + "=" + data.draw(st.sampled_from(ODD_CELLS))
        else:
            cells = line.split("\t")
            position = data.draw(st.integers(0, len(cells) - 1))
            cells[position] = data.draw(st.sampled_from(ODD_CELLS))
            lines[index] = "\t".join(cells)
    return "\n".join(lines)


ESON = WireCodec(
    name="eson",
    encode=eson.encode,
    decode=eson.decode,
    try_decode=eson.try_decode,
    reader_for=eson_typed.reader_for,
    error=eson.DecodeError,
    encode_error=eson.EncodeError,
    lenient={"strict": False},
    layouts=lambda numbers: st.sampled_from(list(numbers)).map(lambda number: {"number": number}),
    plain_options=_eson_plain_options,
    reading=lambda options: {},
    reference=_eson_reference,
    damage=_eson_damage,
    damaged_strictness=st.just(True),
    swallowed=swallowed_entry,
)

# -- TOON --------------------------------------------------------------------------------

#: Every delimiter, and several indent sizes (2, the default, most often).
TOON_LAYOUTS = st.builds(
    lambda delimiter, indent: {"delimiter": delimiter, "indent_size": indent},
    st.sampled_from([",", "\t", "|"]),
    st.sampled_from([2, 2, 1, 4]),
)

ODD_TOKENS = [
    "abc", "1", "-7", "1.5", "1e3", "1e999", "01", "-0", "null", "true", "false", '"quoted"',
    '"1"', '"unterminated', '"bad \\q"', "[]", "", "x: y", "2024-01-02T03:04:05Z", "aGk=",
    "red", "dark blue", '"dark blue"', "paid", "a,b", '"a,b"', "99999999999999999999999",
]


def _toon_damage(text: str, data: st.DataObject) -> str:
    """Swap a token for an odd one, or drop, double, re-indent or comment a line, or miscount."""
    lines = text.split("\n")
    if len(lines) < 2:
        return text
    index = data.draw(st.integers(0, len(lines) - 1))
    action = data.draw(
        st.sampled_from(
            ["token", "token", "token", "drop", "double", "indent", "comment", "blank", "count"]
        )
    )
    line = lines[index]
    if action == "drop":
        del lines[index]
    elif action == "double":
        lines.insert(index, line)
    elif action == "indent":
        lines[index] = data.draw(st.sampled_from([" ", "  ", "\t"])) + line
    elif action == "comment":
        lines.insert(index, line[: len(line) - len(line.lstrip(" "))] + "# note")
    elif action == "blank":
        lines.insert(index, "")
    elif action == "count":
        head, sep, tail = line.partition("[")
        digits = tail[: len(tail) - len(tail.lstrip("0123456789"))]
        if sep and digits:
            lines[index] = (
                f"{head}[{int(digits) + data.draw(st.sampled_from([-1, 1]))}{tail[len(digits) :]}"
            )
    else:
        odd = data.draw(st.sampled_from(ODD_TOKENS))
        head, sep, _ = line.partition(": ")
        if sep:
            lines[index] = head + sep + odd
        else:
            indent = line[: len(line) - len(line.lstrip(" "))]
            delimiter = data.draw(st.sampled_from([",", "\t", "|"]))
            cells = line.lstrip(" ").split(delimiter)
            cells[data.draw(st.integers(0, len(cells) - 1))] = odd
            lines[index] = indent + delimiter.join(cells)
    return "\n".join(lines)


TOON = WireCodec(
    name="toon",
    encode=eson.toon.encode,
    decode=eson.toon.decode,
    try_decode=eson.toon.try_decode,
    reader_for=toon_typed.reader_for,
    error=eson.TOONError,
    encode_error=eson.TOONError,
    # strict=False is TOON's lax reading (the spec's non-strict mode): counts unchecked
    lenient={"mode": "lenient"},
    layouts=lambda numbers: TOON_LAYOUTS,
    plain_options=lambda cls, options: options,
    reading=lambda options: {"indent_size": options.get("indent_size", 2)},
    reference=lambda cls, text, strict, reading: eson.toon.decode(text, strict=strict, **reading),
    damage=_toon_damage,
    # lax reading too: it reads a bare number or boolean in a string field as its text
    damaged_strictness=st.booleans(),
    swallowed=lambda text, error: False,
)

FORMATS = {wire_format.name: wire_format for wire_format in (ESON, TOON)}
