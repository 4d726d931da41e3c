"""Reading modes: one :class:`eson.ReadOptions`, the same reading whole or streamed.

For every mode a format has, every document below is decoded whole (``str``
and ``bytes``) and streamed (fed in every split into two chunks, and one
character or byte at a time): each gives the same value and repairs, or the
same error class and message.  The options' own checks each raise one
message, written once in :mod:`eson._internal.wire.options`.
"""

# No "from __future__ import annotations": pydantic resolves annotations at class creation.

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

import eson
from eson import ReadOptions, toon
from eson._internal.wire.options import read_options

SRC = Path(__file__).resolve().parent.parent / "src" / "eson"


class Row(BaseModel):
    id: int
    name: str


class Doc(BaseModel):
    rows: list[Row]
    note: str = ""


# -- the documents ----------------------------------------------------------------------

TOON_PLAIN = [
    "items[3]: a,b\n",  # short inline array: only lax reads it
    "t[2]{a,b}:\n  1,x\n  2,y\n",  # canonical
    "t[3]{a,b}:\n  1,x\n  2,y\nk: v\n",  # a table short of its count
    "t[2]{a,b}:\n  1\n  2,y,z\n",  # rows of the wrong width
    "l[2]:\n  - a: 1\n    b: \u00e9t\u00e9\n  - x\n",  # a list, non-ASCII text
    "k: 1\nk: 2\n",  # a duplicate key
    "t[2]{a}:\n  1\n\n  2\n",  # a blank line inside an array
    "o:\n   a: 1\n",  # indentation that is no multiple of 2
    "[2]: 1,2",  # a root array, no final line break
    "a: 1\r\nb[2]: x,y\r\n",  # CRLF
]

TOON_TYPED = [
    "rows[2]{id,name}:\n  1,12345\n  2,true\n",  # numbers in a string field: the text rule
    "rows[3]{id,name}:\n  1,ann\n  2,bob\n",  # short of its count
    "rows[2]{id,name}:\n  1,ann\n  x,bob\n",  # a value the model rejects
    "rows[1]{id,name}:\n  1,ann\nnote: 42\n",  # a scalar entry by the text rule
]

ESON_PLAIN = [
    "!eson/1\nkind=review\nfindings[2]{file,line}\na.py\t3\nb \u00e9\t4\n",
    "!eson/1\nkind = review  \nn=3\n",  # lenient repairs: spaces around =, at the line end
    "!eson/1\ntags[3]\nx\ny\n",  # a count that disagrees, in every mode
    "!eson/1\nmeta{}\n  \nnext=1\n",  # a blank-looking row
    "kind=review\n",  # no header
]

ESON_TYPED = [
    "!eson/1\nrows[2]{id,name}\n1\tann\n2\tbob\n",
    "rows[2]{id,name}\n1\tann\n2\t12345\n",  # headerless, a number in a string field
    "!eson/1\nrows[2]{id,name}\n1\tann\nx\tbob\n",  # a value the model rejects
]

MODES = {"eson": ("strict", "lenient"), "toon": ("strict", "lenient", "lax")}


# -- reading ------------------------------------------------------------------------------


def outcome(read: Callable[[list[eson.Repair]], Any]) -> tuple[Any, ...]:
    """``("ok", value, repairs)`` or ``("error", class, message)``."""
    log: list[eson.Repair] = []
    try:
        value = read(log)
    except eson.ESONError as exc:
        # A stream raises at the first row the model rejects, as soon as it is
        # read; a whole-text decode validates every row and counts the others.
        return ("error", type(exc), re.sub(r" \(and \d+ more\)$", "", str(exc)))
    if isinstance(value, BaseModel):
        value = value.model_dump()
    return ("ok", value, [repr(repair) for repair in log])


def whole(fmt: str, text: str | bytes, options: ReadOptions, model: Any) -> tuple[Any, ...]:
    decode = eson.decode if fmt == "eson" else toon.decode
    return outcome(lambda log: decode(text, type=model, options=options, repairs=log))


def streamed(fmt: str, chunks: list[Any], options: ReadOptions, model: Any) -> tuple[Any, ...]:
    def read(log: list[eson.Repair]) -> Any:
        decoder = eson.StreamDecoder(model, format=fmt, options=options)  # type: ignore[arg-type]
        try:
            for chunk in chunks:
                decoder.feed(chunk)
            return decoder.close()
        finally:
            log.extend(decoder.repairs)

    return outcome(read)


def chunkings(data: str | bytes) -> Iterator[list[Any]]:
    """The whole text as one chunk, in every split into two, and one unit at a time."""
    yield [data]
    for cut in range(1, len(data)):
        yield [data[:cut], data[cut:]]
    yield [data[i : i + 1] for i in range(len(data))]


CASES = [
    (fmt, mode, text, model)
    for fmt, texts in (("eson", ESON_PLAIN), ("toon", TOON_PLAIN))
    for mode in MODES[fmt]
    for text in texts
    for model in (None,)
] + [
    (fmt, mode, text, Doc)
    for fmt, texts in (("eson", ESON_TYPED), ("toon", TOON_TYPED))
    for mode in MODES[fmt]
    for text in texts
]


@pytest.mark.parametrize("as_bytes", [False, True], ids=["str", "bytes"])
@pytest.mark.parametrize(
    ("fmt", "mode", "text", "model"),
    CASES,
    ids=[f"{f}-{m}-{'typed' if d else 'plain'}-{i}" for i, (f, m, _, d) in enumerate(CASES)],
)
def test_stream_reads_what_whole_text_reads(
    fmt: str, mode: str, text: str, model: Any, as_bytes: bool
) -> None:
    options = ReadOptions(mode=mode)  # type: ignore[arg-type]
    data: str | bytes = text.encode() if as_bytes else text
    expected = whole(fmt, data, options, model)
    assert whole(fmt, text, options, model) == expected  # str and bytes agree
    for chunks in chunkings(data):
        assert streamed(fmt, chunks, options, model) == expected, chunks


def test_the_modes_differ_where_they_should() -> None:
    # TOON: lax reads a short array; strict and lenient refuse it, whole or streamed.
    assert toon.decode("items[3]: a,b\n", mode="lax") == {"items": ["a", "b"]}
    assert toon.decode("items[3]: a,b\n", strict=False) == {"items": ["a", "b"]}
    for mode in ("strict", "lenient"):
        with pytest.raises(eson.CountError if False else eson.TOONError, match="declares 3"):
            toon.decode("items[3]: a,b\n", mode=mode)  # type: ignore[call-overload]
    stream = eson.StreamDecoder(format="toon", mode="lax")
    stream.feed("items[3]: a,b\n")
    assert stream.close() == {"items": ["a", "b"]}
    # Lenient TOON reads numbers in string fields as text, and records it; strict refuses.
    text = TOON_TYPED[0]
    log: list[eson.Repair] = []
    doc = toon.decode(text, type=Doc, mode="lenient", repairs=log)
    assert [row.name for row in doc.rows] == ["12345", "true"] and len(log) == 2
    with pytest.raises(eson.ValidationError):
        toon.decode(text, type=Doc, mode="strict")
    # ESON lenient repairs and strict refuses; counts are checked in both.
    assert eson.decode(ESON_PLAIN[1], mode="lenient") == {"kind": "review", "n": 3}
    with pytest.raises(eson.DecodeError):
        eson.decode(ESON_PLAIN[1], mode="strict")
    for mode in MODES["eson"]:
        with pytest.raises(eson.CountError):
            eson.decode(ESON_PLAIN[2], mode=mode)  # type: ignore[call-overload]


def test_strict_keeps_its_meaning_at_each_entry_point() -> None:
    assert read_options(format="eson", strict=False).mode == "lenient"
    assert read_options(format="toon", strict=False, loose="lax").mode == "lax"
    assert eson.Decoder(strict=False).options == ReadOptions(mode="lenient")
    assert toon.Decoder(strict=False).options == ReadOptions(mode="lax")
    assert eson.StreamDecoder().options == ReadOptions(mode="lenient", reply=True)
    assert eson.StreamDecoder(strict=True).options == ReadOptions()
    assert eson.StreamDecoder(format="toon", mode="lax").options == ReadOptions(
        mode="lax", reply=True
    )
    assert eson.StreamDecoder(mode="lenient", reply=False).options == ReadOptions(mode="lenient")


def test_options_and_keywords_read_the_same() -> None:
    text = "o:\n    a: 1\n"
    assert toon.decode(text, indent_size=4) == toon.decode(
        text, options=ReadOptions(indent_size=4)
    )
    decoder = eson.StreamDecoder(format="toon", strict=True, indent_size=4)
    decoder.feed(text)
    assert decoder.close() == {"o": {"a": 1}}
    assert toon.Decoder(indent_size=4).indent_size == 4
    assert eson.try_decode(ESON_PLAIN[1], options=ReadOptions(mode="lenient")).ok
    assert toon.try_decode("items[3]: a,b\n", options=ReadOptions(mode="lax")).ok


def test_reading_options_are_frozen_and_replace_checks() -> None:
    options = ReadOptions(mode="lenient")
    with pytest.raises(AttributeError):
        options.mode = "strict"  # type: ignore[misc]
    assert options.replace(partial=True).partial
    with pytest.raises(ValueError, match="needs strict=False"):
        ReadOptions().replace(partial=True)
    assert eson.ReadOptions is toon.ReadOptions is ReadOptions


# -- the checks of the options, one message each ---------------------------------------

BAD: list[tuple[Callable[[], Any], type[Exception], str]] = [
    (lambda: ReadOptions(mode="loose"), ValueError, "mode must be 'strict', 'lenient' or 'lax'"),  # type: ignore[arg-type]
    (lambda: ReadOptions(mode=1), TypeError, "mode must be 'strict', 'lenient' or 'lax'"),  # type: ignore[arg-type]
    (lambda: eson.decode("", mode="STRICT"), ValueError, "mode must be"),  # type: ignore[call-overload]
    (lambda: ReadOptions(indent_size=0), ValueError, "indent_size must be a positive int"),
    (lambda: ReadOptions(indent_size=True), ValueError, "indent_size must be a positive int"),
    (lambda: ReadOptions(indent_size="2"), ValueError, "indent_size must be a positive int"),  # type: ignore[arg-type]
    (lambda: ReadOptions(indent_size=2.0), ValueError, "indent_size must be a positive int"),  # type: ignore[arg-type]
    (lambda: toon.decode("a: 1", indent_size=-1), ValueError, "indent_size must be a positive int"),
    (lambda: toon.encode({"a": 1}, indent_size=0), ValueError, "indent_size must be a positive int"),
    (lambda: toon.Encoder(indent_size=0), ValueError, "indent_size must be a positive int"),
    (
        lambda: eson.StreamDecoder(format="toon", indent_size=0),
        ValueError,
        "indent_size must be a positive int",
    ),
    (lambda: ReadOptions(partial=1), TypeError, "partial must be a bool"),  # type: ignore[arg-type]
    (lambda: ReadOptions(reply="yes"), TypeError, "reply must be a bool"),  # type: ignore[arg-type]
    (lambda: ReadOptions(require_end=None), TypeError, "require_end must be a bool"),  # type: ignore[arg-type]
    (lambda: eson.decode("", strict="no"), TypeError, "strict must be a bool"),  # type: ignore[call-overload]
    (lambda: ReadOptions(partial=True), ValueError, "needs strict=False"),
    (lambda: ReadOptions(mode="lax", partial=True), ValueError, "needs strict=False"),
    (lambda: eson.Decoder(strict=True, partial=True), ValueError, "needs strict=False"),
    (lambda: ReadOptions(require_end=True), ValueError, "needs reply=True"),
    (lambda: eson.StreamDecoder(strict=True, require_end=True), ValueError, "needs reply=True"),
    (lambda: eson.decode("", mode="lax"), ValueError, "mode='lax' is TOON's"),
    (lambda: eson.Decoder(options=ReadOptions(mode="lax")), ValueError, "mode='lax' is TOON's"),
    (lambda: eson.StreamDecoder(mode="lax"), ValueError, "mode='lax' is TOON's"),
    (
        lambda: eson.decode("", options=ReadOptions(indent_size=4)),
        ValueError,
        "indent_size=4 is a TOON option",
    ),
    (
        lambda: toon.decode("", options=ReadOptions(mode="lenient", partial=True)),
        ValueError,
        "TOON has no such reading",
    ),
    (
        lambda: eson.decode("", strict=True, mode="lenient"),
        ValueError,
        "strict=True and mode='lenient' disagree",
    ),
    (
        lambda: toon.decode("", strict=False, mode="strict"),
        ValueError,
        "strict=False and mode='strict' disagree",
    ),
    (
        lambda: eson.decode("", options=ReadOptions(), strict=True),
        ValueError,
        "either as options= or as keywords, not both (options= and strict=)",
    ),
    (
        lambda: toon.Decoder(options=ReadOptions(), indent_size=2, mode="lax"),
        ValueError,
        "(options= and mode=, indent_size=)",
    ),
    (lambda: eson.decode("", options={"mode": "strict"}), TypeError, "options must be an eson.ReadOptions"),  # type: ignore[call-overload]
    (
        lambda: eson.decode("", options=ReadOptions(mode="lenient", reply=True)),
        ValueError,
        "reply=True reads a model's reply",
    ),
    (lambda: eson.StreamDecoder(keep="no"), TypeError, "keep must be a bool"),  # type: ignore[call-overload]
    (
        lambda: toon.decode("a: 1", validation_strict=True),  # type: ignore[call-overload]
        TypeError,
        "options of typed decoding; pass type= too",
    ),
    (
        lambda: eson.StreamDecoder(context={}),  # type: ignore[call-overload]
        TypeError,
        "options of typed decoding; pass type= too",
    ),
]


@pytest.mark.parametrize(("call", "error", "message"), BAD, ids=[m for _, _, m in BAD])
def test_every_bad_option_raises_its_one_message(
    call: Callable[[], Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as caught:
        call()
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


MESSAGES = [
    "indent_size must be a positive int",
    "must be a bool (True or False)",
    "mode must be 'strict', 'lenient' or 'lax'",
    "reads a cut-off document leniently",
    "reads a reply's code fence",
    "options of typed decoding; pass type= too",
    "is TOON's non-strict reading",
    "as options= or as keywords",
]


@pytest.mark.parametrize("message", MESSAGES)
def test_each_message_is_written_once(message: str) -> None:
    found = [
        path.relative_to(SRC).as_posix()
        for path in SRC.rglob("*.py")
        for _ in re.finditer(re.escape(message), path.read_text(encoding="utf-8"))
    ]
    assert found == ["_internal/wire/options.py"], found


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(st.tuples(st.integers(-5, 99), st.sampled_from(["a", "b c", "12", "\u00e9"])), max_size=4),
    declared=st.integers(0, 5),
    cuts=st.lists(st.integers(0, 80), max_size=4),
    mode=st.sampled_from(["strict", "lenient", "lax"]),
)
def test_toon_tables_of_any_count_read_alike(
    rows: list[tuple[int, str]], declared: int, cuts: list[int], mode: str
) -> None:
    lines = [f"t[{declared}]{{a,b}}:"] + [f"  {a},{b}" for a, b in rows] + ["k: v"]
    text = "\n".join(lines) + "\n"
    options = ReadOptions(mode=mode)  # type: ignore[arg-type]
    marks = sorted({min(cut, len(text)) for cut in cuts})
    chunks = [text[i:j] for i, j in zip([0, *marks], [*marks, len(text)])]
    assert streamed("toon", chunks, options, None) == whole("toon", text, options, None)


FENCE = "`" * 3


@pytest.mark.parametrize(
    "reply",
    [
        f"Here it is\n{FENCE}toon\nitems[3]: a,b\nt[2]{{a}}:\n  1\n{FENCE}\nThanks.\n",
        "items[3]: a,b\nt[2]{a}:\n  1\nThat is all, thanks.\n",
    ],
    ids=["fenced", "prose-after"],
)
def test_a_lax_reply_stream_skips_the_prose_as_a_lenient_one_does(reply: str) -> None:
    document = "items[3]: a,b\nt[2]{a}:\n  1"
    for chunks in chunkings(reply):
        decoder = eson.StreamDecoder(format="toon", mode="lax")
        for chunk in chunks:
            decoder.feed(chunk)
        assert decoder.close() == toon.decode(document, mode="lax")
    lenient = eson.StreamDecoder(format="toon")
    with pytest.raises(eson.TOONError, match="declares 3 values but has 2"):
        lenient.feed(reply)
        lenient.close()
