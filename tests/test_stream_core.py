"""The accelerator's stream core (``_speedups.StreamRows``) against the Python stream.

With the accelerator, :class:`eson.StreamDecoder` reads the plain rows of a
record array in C and hands every other line to its Python ``feed``, the
reference.  Every feed's events, the message, the repairs and every error
(class, message, line, section, row, field) must be those of the pure
Python stream -- on generated documents, mutated with the characters that
make the core decline a line (CR, VT, FF, TAB and space at a cell's edge,
backticks, tildes, non-ASCII), cut into chunks of every size, ``str``,
``bytes`` or both, strict and lenient, bare and inside a reply.  The core's
own contract (what it refuses, what it hands back) is tested directly, and
a count of the Python feed's calls shows that the rows do go through C.
"""

from __future__ import annotations

import os
from functools import partial
from typing import Any, Literal

import msgspec
import pydantic
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from speedups_support import outcome, pure, require_accelerator, same_value

import eson
import eson.msgspec
from eson import StreamDecoder
from eson._internal import accelerator
from eson._internal.accelerator import ANY_PLAIN
from eson._internal.wire import eson_line_reader, toon_stream

pytestmark = pytest.mark.usefixtures("_accelerated")

EXAMPLES = int(os.environ.get("TYPED_ESON_FUZZ_EXAMPLES", "300"))
STREAMS = settings(
    max_examples=max(EXAMPLES // 2, 1), deadline=None, suppress_health_check=list(HealthCheck)
)


@pytest.fixture
def _accelerated() -> None:
    require_accelerator()


class Row(eson.msgspec.Record):
    id: int
    kind: Literal["high", "low", "c d"]
    name: str
    score: float
    ok: bool
    note: str | None


class Doc(eson.msgspec.Message):
    title: str
    rows: list[Row]
    tail: int = 0


class Numbered(eson.msgspec.Message, number=True):
    rows: list[Row]
    more: list[Row] = msgspec.field(default_factory=list)


class PRow(eson.Record):
    id: int
    name: str
    ok: bool


class PDoc(eson.Message):
    title: str
    rows: list[PRow]


NAMES = st.text(st.characters(codec="utf-8"), min_size=0, max_size=12)  # no lone surrogates


def _value(draw: st.DrawFn, model: type | None, count: int) -> Any:
    """A value of ``model`` (``None``: the plain data of a ``Doc``) with ``count`` rows."""
    if model is PDoc:
        rows_p = [
            PRow(id=draw(st.integers(-5, 10**6)), name=draw(NAMES), ok=draw(st.booleans()))
            for _ in range(count)
        ]
        return PDoc(title=draw(NAMES), rows=rows_p)
    rows = [
        Row(
            id=draw(st.integers(-(10**12), 10**12)),
            kind=draw(st.sampled_from(["high", "low", "c d"])),
            name=draw(NAMES),
            score=draw(st.floats(allow_nan=False, allow_infinity=False)),
            ok=draw(st.booleans()),
            note=draw(st.none() | NAMES),
        )
        for _ in range(count)
    ]
    if model is Numbered:
        return Numbered(rows=rows, more=rows[:3])
    value = Doc(title=draw(NAMES), rows=rows, tail=draw(st.integers(0, 9)))
    return msgspec.to_builtins(value) if model is None else value


@st.composite
def documents(draw: st.DrawFn) -> tuple[type | None, str]:
    """A model (``None``: untyped) and the ESON text of a value of it."""
    model = draw(st.sampled_from([Doc, Numbered, PDoc, None]))
    return model, eson.encode(_value(draw, model, draw(st.integers(0, 12))))


def _reply_chunks(
    draw: st.DrawFn, text: str, noise: list[str], tag: str, after: str
) -> tuple[str, str, list[Any]]:
    """``text`` damaged with ``noise``, maybe fenced (```` ```tag ````) or among prose, in chunks.

    Returns how it was wrapped, the reply and its chunks (``str``, ``bytes``
    or both). ``after`` is the prose after an unfenced document.
    """
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(noise)) + text[at:]
    wrap = draw(st.sampled_from(["bare", "fenced", "prose"]))
    if wrap == "fenced":
        text = f"Here it is:\n```{tag}\n{text}```\nDone."
    elif wrap == "prose":
        text = f"Sure.\n\n{text}{after}"
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=40)))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])]
    kinds = draw(st.sampled_from(["str", "bytes", "mixed"]))
    chunks: list[Any] = [
        piece.encode() if kinds == "bytes" or (kinds == "mixed" and draw(st.booleans())) else piece
        for piece in pieces
    ]
    return wrap, text, chunks


# What makes the core decline a line, and what makes a row wrong.
NOISE = [
    *"\r\v\f\t `~é\n\"\\0-x",
    *("\U0001f600", "\u00a0", "\u2028", "\u3000", "\ufeff", "\u0085"),
    *(" \t", "\t ", "```", "1\t", "\r\n", "\n\n"),
]


@st.composite
def streams(draw: st.DrawFn) -> tuple[type | None, str, list[Any], dict[str, Any], Any]:
    """A model, a reply text, its chunks, the decoder's options and how the stream ends."""
    model, text = draw(documents())
    _, text, chunks = _reply_chunks(draw, text, NOISE, "eson", "")
    options = {
        "strict": draw(st.sampled_from([True, False])),
        "keep": draw(st.booleans()),
    }
    if not options["strict"]:
        options["partial"] = draw(st.booleans())
    end = draw(st.sampled_from(["close", "final", "length"]))
    return model, text, chunks, options, end


def run(model: type | None, chunks: list[Any], options: dict[str, Any], end: str) -> list[Any]:
    """Every feed's outcome, then the close's, then the repairs."""
    decoder: StreamDecoder[Any] = StreamDecoder(model, **options)
    seen: list[Any] = []
    for index, chunk in enumerate(chunks):
        last = index == len(chunks) - 1
        final = last and end == "final"
        seen.append(outcome(partial(decoder.feed, chunk, final=final)))
        if seen[-1][0] == "error":
            break
    stop = "length" if end == "length" else None
    seen.append(outcome(lambda: decoder.close(stop_reason=stop)))
    seen.append(("repairs", list(decoder.repairs)))
    return seen


def assert_runs_agree(model: type | None, chunks: list[Any], options: dict[str, Any], end: str) -> None:
    """The stream read with the core and by pure Python: every outcome the same.

    Values compare with every model instance spelt out (:func:`_plain`), so
    that ``1`` and ``1.0`` differ inside a Struct too.
    """
    fast = run(model, chunks, options, end)
    with pure():
        slow = run(model, chunks, options, end)
    assert len(fast) == len(slow)
    for got, want in zip(fast, slow):
        assert got[0] == want[0], (got, want)
        if got[0] == "error":
            assert got[1] == want[1]
        else:
            assert same_value(_plain(got[1]), _plain(want[1])), (got[1], want[1])


@STREAMS
@given(streams())
def test_the_core_reads_a_stream_as_the_python_stream_does(
    case: tuple[type | None, str, list[Any], dict[str, Any], Any],
) -> None:
    model, _, chunks, options, end = case
    assert_runs_agree(model, chunks, options, end)


def count_lines_read(monkeypatch: pytest.MonkeyPatch, reader: type) -> list[int]:
    """Count the lines the Python line reader ``reader`` reads from now on (the list's one item)."""
    read = [0]
    python_lines = reader.lines

    def counted_lines(self: Any, lines: list[str]) -> None:
        read[0] += len(lines)
        python_lines(self, lines)

    monkeypatch.setattr(reader, "lines", counted_lines)
    return read


def _text(rows: int, model: type = Doc) -> str:
    value = Doc(
        title="t",
        rows=[
            Row(id=i, kind="low", name=f"name {i}", score=i / 4, ok=i % 2 == 0, note=None)
            for i in range(rows)
        ],
    )
    return eson.encode(value)


@pytest.mark.parametrize("model", [Doc, None])
@pytest.mark.parametrize(("strict", "wrap"), [(True, "bare"), (False, "bare"), (False, "fenced")])
@pytest.mark.parametrize("size", [64, 1 << 20, -4096])
def test_the_rows_go_through_the_core(
    model: type | None, strict: bool, wrap: str, size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Python feed runs for the lines around the rows, not for each row (work counted).

    Fed in one chunk, the Python feed reads the lines up to the section's
    head and hands the rest of the chunk to the core.
    """
    text = _text(500)
    if wrap == "fenced":
        text = f"```eson\n{text}```\n"
    chunks: list[Any] = [text[at : at + abs(size)] for at in range(0, len(text), abs(size))]
    if size < 0:  # bytes: each chunk is decoded by Python, its rows read by the core
        chunks = [chunk.encode() for chunk in chunks]
    calls = 0
    python_feed = StreamDecoder.feed

    def counted(self: StreamDecoder[Any], *args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return python_feed(self, *args, **kwargs)

    monkeypatch.setattr(StreamDecoder, "feed", counted)
    read = count_lines_read(monkeypatch, eson_line_reader.LineReader)
    decoder: StreamDecoder[Any] = StreamDecoder(model, strict=strict)
    events = [event for chunk in chunks for event in decoder.feed(chunk)]
    result = decoder.close()
    assert [event.row for event in events if event.section == "rows"] == list(range(1, 501))
    assert len(chunks) > 200 or len(chunks) < 10
    # the header, the entries, the first chunk of rows, the fence
    assert calls <= (len(chunks) + 4 if size < 0 else 8), calls
    if wrap == "fenced" and size == 1 << 20:
        # the chunk holds the closing fence too: the reply is read by Python
        # (what came after the fence is dropped before the rows are read)
        assert read[0] == 504, read
    else:  # the header, the title, the head, the rows of the first chunk (bytes: a row each)
        assert read[0] <= (len(chunks) + 4 if size < 0 else 6), read
    with pure():
        assert result == eson.decode(text if wrap == "bare" else text[8:-4], type=model)


def test_a_subclass_with_its_own_feed_is_read_by_python() -> None:
    """A subclass that overrides ``feed`` sees every chunk: the core stays out of its way."""
    seen: list[Any] = []

    class Logged(StreamDecoder[Any]):
        def feed(self, chunk: Any, *, final: bool = False, stop_reason: object = None) -> Any:
            seen.append(chunk)
            return super().feed(chunk, final=final, stop_reason=stop_reason)

    text = _text(20)
    decoder = Logged(Doc)
    for line in text.splitlines(keepends=True):
        decoder.feed(line)
    assert len(seen) == text.count("\n")
    assert decoder.close() == eson.decode(text, type=Doc)


def test_the_unfinished_line_goes_back_to_python_at_close() -> None:
    """A last row without a line break, held by the core, is read by close."""
    text = _text(10).rstrip("\n")
    decoder: StreamDecoder[Any] = StreamDecoder(Doc, strict=True)
    cut = text.rindex("\n") + 5
    decoder.feed(text[:cut])
    decoder.feed(text[cut:])
    assert decoder.close() == eson.decode(text, type=Doc)


def test_bytes_after_str_hand_the_held_line_back() -> None:
    text = _text(10)
    decoder: StreamDecoder[Any] = StreamDecoder(Doc, strict=True)
    middle = text.index("name 5") + 2
    decoder.feed(text[:middle])
    decoder.feed(text[middle:].encode())
    assert decoder.close() == eson.decode(text, type=Doc)


def test_an_error_after_rows_read_in_c_counts_those_rows() -> None:
    """The line of an error after rows the core read is the line it is on."""
    lines = _text(10).split("\n")
    lines[9] = lines[9].replace("low", "LOW")  # the seventh row (line 10)
    text = "\n".join(lines)
    fast = run(Doc, [text[at : at + 7] for at in range(0, len(text), 7)], {"strict": True}, "close")
    with pure():
        slow = run(
            Doc, [text[at : at + 7] for at in range(0, len(text), 7)], {"strict": True}, "close"
        )
    assert fast == slow
    errors = [item for item in fast if item[0] == "error"]
    assert errors and errors[0][1][2]["line"] == 10


# -- the core's contract ------------------------------------------------------------------


def test_the_core_checks_what_it_is_armed_with() -> None:
    native = accelerator.native
    assert native is not None
    core = native.StreamRows(lambda text: [])
    assert core.take() is None
    assert not core.armed
    with pytest.raises(TypeError):
        native.StreamRows(42)
    reading = _dict_reading(2)
    bad: tuple[Any, ...]
    for bad in [
        ("rows", eson.Event, [], [], 0, 2, 0, reading, False, False, ""),  # no row left
        ("rows", eson.Event, [], [], -1, 2, 5, reading, False, False, ""),
        ("rows", int, [], [], 0, 2, 5, reading, False, False, ""),  # not a tuple type
        ("rows", eson.Event, [], [], 0, 2, 5, reading, False, False, "a\nb"),  # not one line
        ("rows", eson.Event, [], [], 0, 2, 5, (dict, ("a",), (31, 31), 0), False, False, ""),
        ("rows", eson.Event, [], [], 0, 2, 5, (dict, (1, 2), (31, 31), 0), False, False, ""),
        ("rows", eson.Event, [], [], 0, 2, 5, (dict, ("a", "b"), (31, 31), 2**32 + 1), False, False, ""),
        ("rows", eson.Event, [], [], 0, 2, 5, (dict, ("a", "b"), (31, 31), 2**70), False, False, ""),
    ]:
        with pytest.raises(TypeError):
            core.arm(*bad)
        assert not core.armed
    core.arm("rows", eson.Event, [], [], 0, 2, 5, reading, False, False, "1\t")
    assert core.armed
    with pytest.raises(TypeError):  # armed already: take() first
        core.arm("rows", eson.Event, [], [], 0, 2, 5, reading, False, False, "")
    assert core.feed("2\n3\t4\n") == [
        eson.Event("rows", 1, {"a": 1, "b": 2}),
        eson.Event("rows", 2, {"a": 3, "b": 4}),
    ]
    assert core.take() == (2, "", None)
    assert core.take() is None


def _armed_core(
    lenient: bool, fenced: bool, *, width: int = 2, left: int = 10, answer: tuple[Any, ...] = ()
) -> tuple[Any, list[str]]:
    """A core armed for dict rows of ``width`` columns ("a", "b", ...), ``left`` rows to go.

    Also the list of the texts it hands to Python, which returns ``answer``.
    """
    native = accelerator.native
    assert native is not None
    handed: list[str] = []

    def slow(text: str) -> list[Any]:
        handed.append(text)
        return list(answer)

    core = native.StreamRows(slow)
    core.arm("rows", eson.Event, None, None, 0, 1, left, _dict_reading(width), lenient, fenced, "")
    return core, handed


def _dict_reading(width: int) -> tuple[Any, ...]:
    return dict, tuple("abc"[:width]), (ANY_PLAIN,) * width, 0


def test_the_core_hands_a_declined_line_and_what_follows_to_python() -> None:
    core, handed = _armed_core(True, True, answer=("python",))
    events = core.feed("1\t2\n3\t`4\n5\t6\npart")
    assert events == [eson.Event("rows", 1, {"a": 1, "b": 2}), "python"]
    assert handed == ["3\t`4\n5\t6\npart"]
    assert not core.armed
    assert core.take() == (1, "", None)
    # after the section's last row, the rest of the chunk is Python's
    core.arm("rows", eson.Event, None, None, 0, 1, 2, _dict_reading(2), False, False, "")
    assert core.feed("1\t2\n3\t4\nk=1\n") == [
        eson.Event("rows", 1, {"a": 1, "b": 2}),
        eson.Event("rows", 2, {"a": 3, "b": 4}),
        "python",
    ]
    assert handed[-1] == "k=1\n"
    assert core.take() == (2, "", None)


@pytest.mark.parametrize(
    ("line", "lenient"),
    [
        ("", False),
        ("1\t2\r", False),
        (" 1\t2", True),
        ("1\t2 ", True),
        ("1 \t2", True),
        ("1\t 2", True),
        ("1\t\v2", True),
        ("1\t\u00a02", True),
        ("1\t2\u3000", True),
        ("\t1\t2", True),
    ],
)
def test_lines_a_lenient_repair_may_touch_are_declined(line: str, lenient: bool) -> None:
    core, handed = _armed_core(lenient, False)
    assert core.feed(line + "\n") == []
    assert handed == [line + "\n"]


def test_a_lenient_core_reads_non_ascii_rows() -> None:
    """Only white space can be repaired: other non-ASCII text is read by the core."""
    core, _ = _armed_core(True, False, answer=("python",))
    events = core.feed("1\tcafé \U0001f600 東京\n")
    assert events == [eson.Event("rows", 1, {"a": 1, "b": "café \U0001f600 東京"})]


def test_streamed_pydantic_rows_are_model_instances() -> None:
    text = eson.encode(PDoc(title="x", rows=[PRow(id=i, name="n", ok=True) for i in range(5)]))
    decoder: StreamDecoder[Any] = StreamDecoder(PDoc)
    for line in text.splitlines(keepends=True):
        decoder.feed(line)
    assert decoder.close() == eson.decode(text, type=PDoc)
    assert isinstance(decoder.close().rows[0], pydantic.BaseModel)


@pytest.mark.parametrize("noise", NOISE)
@pytest.mark.parametrize(("strict", "fenced"), [(True, False), (False, False), (False, True)])
def test_every_noise_at_every_place_of_the_rows(noise: str, strict: bool, fenced: bool) -> None:
    """Each character the core refuses, put at each place of a section's rows (all of them)."""
    text = _text(4)
    start = text.index("\n0\t") + 1
    for at in range(start, len(text) + 1):
        noisy = text[:at] + noise + text[at:]
        head, rows = noisy[:start], noisy[start:]
        if fenced:
            head, rows = "```eson\n" + head, rows + "```\n"
        chunks = [head, rows]  # the rows arrive as one chunk, the core armed
        fast = run(Doc, chunks, {"strict": strict}, "close")
        with pure():
            slow = run(Doc, chunks, {"strict": strict}, "close")
        assert len(fast) == len(slow)
        for got, want in zip(fast, slow):
            assert got[0] == want[0], (at, got, want)
            assert got[1] == want[1] if got[0] == "error" else same_value(got[1], want[1])


@pytest.mark.parametrize(
    ("mark", "lenient", "fenced"),
    [
        ("\r", False, False), ("`", False, True), ("~", False, True),
        (" ", True, False), ("\v", True, False), ("\f", True, False), ("\u00a0", True, False),
        ("\u3000", True, False),
    ],
)
def test_a_refused_character_is_found_at_every_offset(mark: str, lenient: bool, fenced: bool) -> None:
    """The block-at-a-time scan and its tail find it wherever it stands; harmless text passes.

    CR and (fenced) the fence characters decline a line wherever they are;
    (lenient) white space declines it beside a TAB, where a repair would
    strip it, and is a cell's text anywhere else.
    """
    def declined(line: str) -> bool:
        core, handed = _armed_core(lenient, fenced, width=3)
        events = core.feed(line + "\n")
        assert (events == [] and handed == [line + "\n"]) or (len(events) == 1 and not handed)
        return not events

    for length in (20, 40, 70):
        for at in range(1, length):
            head, tail = "1\tx" + "y" * at, "z" * (length - at)
            assert not declined(head + tail + "\tq")
            if lenient:  # beside the TAB between the second and third cells
                assert declined(head + mark + "\tq" + tail), (at, length)
                assert declined(head + "\t" + mark + "q" + tail), (at, length)
                assert not declined(head + mark + tail + "\tq"), (at, length)
            else:
                assert declined(head + mark + tail + "\tq"), (at, length)


def test_a_stop_reason_without_final_is_refused_after_a_chunk_of_rows() -> None:
    """The chunk handed to the core mid-way still ends with the Python feed's checks."""
    text = _text(10)
    fast: StreamDecoder[Any] = StreamDecoder(Doc, strict=True)
    with pytest.raises(TypeError, match="final=True"):
        fast.feed(text, stop_reason="length")
    with pure():
        slow: StreamDecoder[Any] = StreamDecoder(Doc, strict=True)
        with pytest.raises(TypeError, match="final=True"):
            slow.feed(text, stop_reason="length")
    assert fast.close() == slow.close()



class Checked(eson.Record):
    """A Pydantic record whose validator counts its calls and refuses a negative score."""

    id: int
    name: str
    score: float

    @pydantic.field_validator("score")
    @classmethod
    def _count(cls, value: float) -> float:
        CALLS.append(value)
        if value < 0:
            raise ValueError("negative score")
        return value


class CheckedDoc(eson.Message):
    title: str
    rows: list[Checked]


CALLS: list[float] = []


@pytest.mark.parametrize("bad", [None, 1, 7, 20])
@pytest.mark.parametrize("size", [1, 7, 64, 1 << 20])
@pytest.mark.parametrize("strict", [True, False])
def test_pydantic_rows_are_validated_once_each_as_python_does(
    bad: int | None, size: int, strict: bool
) -> None:
    """The core validates each Pydantic row's dict with the record's own check: same calls, same error."""
    rows = [
        Checked(id=i, name=f"row {i}", score=float(i)) for i in range(1, 21)
    ]
    text = eson.encode(CheckedDoc(title="t", rows=rows))
    if bad is not None:
        text = text.replace(f"\t{float(bad)}\n", f"\t-{float(bad)}\n")
    chunks = [text[at : at + size] for at in range(0, len(text), size)]
    CALLS.clear()
    fast = run(CheckedDoc, chunks, {"strict": strict}, "close")
    fast_calls = list(CALLS)
    CALLS.clear()
    with pure():
        slow = run(CheckedDoc, chunks, {"strict": strict}, "close")
    assert fast_calls == CALLS  # every row validated once, in order, as in Python
    assert len(fast) == len(slow)
    for got, want in zip(fast, slow):
        assert got[0] == want[0]
        assert got[1] == want[1]
    if bad is not None:
        error = next(item for item in fast if item[0] == "error")[1]
        assert error[2]["row"] == bad and error[2]["field"] == "score"


def test_pydantic_rows_go_through_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [Checked(id=i, name="n", score=0.5) for i in range(300)]
    text = eson.encode(CheckedDoc(title="t", rows=rows))
    read = count_lines_read(monkeypatch, eson_line_reader.LineReader)
    decoder: StreamDecoder[Any] = StreamDecoder(CheckedDoc)
    for at in range(0, len(text), 64):
        decoder.feed(text[at : at + 64])
    assert decoder.close() == eson.decode(text, type=CheckedDoc)
    assert read[0] <= 8, read  # of 303 lines: the header, the title, the head, the first chunk


def test_a_chunk_of_lines_the_core_declines_does_not_nest_calls() -> None:
    """Rows the core declines (a space beside a TAB): Python reads them, with no chain of calls."""
    import sys

    count = 3 * sys.getrecursionlimit()
    text = _text(count)
    head = text.index("\n0\t") + 1
    spaced = text[:head] + text[head:].replace("\tname ", "\t name ")
    decoder: StreamDecoder[Any] = StreamDecoder(Doc, strict=False)
    decoder.feed(spaced[:head])  # the core armed
    events = decoder.feed(spaced[head:])
    assert len(events) == count + 1  # the rows and tail=0
    assert decoder.close() == eson.decode(spaced, type=Doc, strict=False)


# -- TOON tables --------------------------------------------------------------------------

TOON_NOISE = [
    *"\"\\:#,|\t \r`~-0e.\n",
    *("\u00a0", "\u3000", "\U0001f600", "é", "\ufeff"),
    *("  ", "\n\n", "\r\n", "\n  ", "true", "null", "05", "1e3", "-0", "\t\n", "9" * 19),
    *("\n  \u00a0", "\n  \t", "\n   "),
]


def _plain(value: Any) -> Any:
    """A value with every model instance spelt out (class and fields), for :func:`same_value`."""
    if isinstance(value, msgspec.Struct):
        return (type(value), [_plain(item) for item in msgspec.structs.astuple(value)])
    if isinstance(value, pydantic.BaseModel):
        return (type(value), {key: _plain(item) for key, item in value})
    if isinstance(value, eson.Event):
        return ("event", value.section, value.row, _plain(value.value))
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(item) for item in value)
    return value


@st.composite
def toon_streams(draw: st.DrawFn) -> tuple[type | None, list[Any], dict[str, Any], str]:
    """A model, the chunks of a TOON reply, the decoder's options and how the stream ends."""
    model = draw(st.sampled_from([Doc, PDoc, None]))
    value = _value(draw, model, draw(st.integers(1, 10)))
    text = eson.toon.encode(value, delimiter=draw(st.sampled_from([",", "\t", "|"])))
    wrap, _, chunks = _reply_chunks(draw, text + "\n", TOON_NOISE, "toon", "\nThat is all.")
    # every reading mode with and without reply mode (a bare document only
    # strictly without it)
    mode, reply = draw(
        st.sampled_from(
            [("lenient", True), ("lenient", False), ("strict", True)]
            + ([("strict", False)] if wrap == "bare" else [])
        )
    )
    options = {"format": "toon", "mode": mode, "reply": reply, "keep": draw(st.booleans())}
    return model, chunks, options, draw(st.sampled_from(["close", "final", "length"]))


@STREAMS
@given(toon_streams())
def test_the_core_reads_a_toon_stream_as_the_python_stream_does(
    case: tuple[type | None, list[Any], dict[str, Any], str],
) -> None:
    model, chunks, options, end = case
    assert_runs_agree(model, chunks, options, end)


def _toon_text(rows: int, delimiter: str = ",") -> str:
    value = Doc(
        title="t",
        rows=[
            Row(id=i, kind="low", name=f"name {i}", score=i / 4, ok=i % 2 == 0, note=None)
            for i in range(rows)
        ],
    )
    return eson.toon.encode(value, delimiter=delimiter)


@pytest.mark.parametrize("noise", TOON_NOISE)
@pytest.mark.parametrize("model", [Doc, PDoc, None])
@pytest.mark.parametrize(("mode", "reply"), [("strict", False), ("strict", True), ("lenient", True)])
def test_every_noise_at_every_place_of_a_toon_table(
    noise: str, model: type | None, mode: str, reply: bool
) -> None:
    """Each character that may change a TOON row, put at each place of a table's rows."""
    if model is PDoc:
        value = PDoc(title="t", rows=[PRow(id=i, name=f"n {i}", ok=True) for i in range(4)])
        text = eson.toon.encode(value)
    else:
        text = _toon_text(4)
    start = text.index("\n  ") + 1
    for at in range(start, len(text) + 1):
        damaged = text[:at] + noise + text[at:]
        chunks = [damaged[i : i + 9] for i in range(0, len(damaged), 9)]
        options = {"format": "toon", "mode": mode, "reply": reply}
        fast = run(model, chunks, options, "close")
        with pure():
            slow = run(model, chunks, options, "close")
        assert _plain(fast) == _plain(slow), (damaged, fast, slow)


@pytest.mark.parametrize("model", [Doc, PDoc, None])
@pytest.mark.parametrize("delimiter", [",", "\t", "|"])
@pytest.mark.parametrize("size", [64, 1 << 20, -4096])
def test_toon_rows_go_through_the_core(
    model: type | None, delimiter: str, size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The TOON reader reads a table's first row and the lines around it, the core the rest.

    Work counted: lines the Python TOON reader reads, and the Pydantic
    check's calls (once a row, as in Python).
    """
    if model is PDoc:
        value: Any = PDoc(title="t", rows=[PRow(id=i, name=f"n {i}", ok=True) for i in range(500)])
        text = eson.toon.encode(value, delimiter=delimiter)
    else:
        text = _toon_text(500, delimiter)
    chunks: list[Any] = [text[at : at + abs(size)] for at in range(0, len(text), abs(size))]
    if size < 0:
        chunks = [chunk.encode() for chunk in chunks]
    read = count_lines_read(monkeypatch, toon_stream.LineReader)
    decoder: StreamDecoder[Any] = StreamDecoder(model, format="toon", strict=True)
    events = [event for chunk in chunks for event in decoder.feed(chunk)]
    result = decoder.close()
    events += decoder.final_events  # the last row, with no line break, ends with the text
    assert [event.row for event in events if event.section == "rows"] == list(range(1, 501))
    # the title, the table's head, its first row (bytes: a row a chunk), the last line
    assert read[0] <= (len(chunks) + 4 if size < 0 else 6), read
    with pure():
        assert _plain(result) == _plain(eson.toon.decode(text, type=model))


def test_a_toon_table_read_in_c_fails_where_python_fails() -> None:
    """A bad row after rows the core read: the same error, on the same line, as pure Python."""
    text = _toon_text(10).replace("7,low", "7,LOW").replace("8,low,", "8,low,x,")
    for model in (Doc, None):
        chunks = [text[at : at + 7] for at in range(0, len(text), 7)]
        fast = run(model, chunks, {"format": "toon", "strict": True}, "close")
        with pure():
            slow = run(model, chunks, {"format": "toon", "strict": True}, "close")
        assert fast == slow
        errors = [item for item in fast if item[0] == "error"]
        assert errors and errors[0][1][2]["line"] == (10 if model is Doc else 11)


def test_the_core_reads_a_toon_reading() -> None:
    native = accelerator.native
    assert native is not None
    handed: list[str] = []
    core = native.StreamRows(lambda text: handed.append(text) or ["python"])
    reading = (dict, ("a", "b"), (ANY_PLAIN, ANY_PLAIN), 0, ",", 2)
    for bad in [
        (dict, ("a", "b"), (ANY_PLAIN, ANY_PLAIN), 0, ",", 0),  # no pad
        (dict, ("a", "b"), (ANY_PLAIN, ANY_PLAIN), 0, ",,", 2),  # not one character
        (dict, ("a", "b"), (ANY_PLAIN, ANY_PLAIN), 0, '"', 2),
        (dict, ("a", "b"), (ANY_PLAIN, ANY_PLAIN), 0, "\n", 2),
        (dict, ("a", "b"), (ANY_PLAIN, ANY_PLAIN), 1, ",", 2),  # an n column
        (dict, ("a", "b"), (ANY_PLAIN, ANY_PLAIN), 0, ",", "2"),
    ]:
        with pytest.raises(TypeError):
            core.arm("rows", eson.Event, None, None, 1, 3, 5, bad, False, False, "")
    core.arm("rows", eson.Event, None, None, 1, 3, 5, reading, True, False, "  1,")
    assert core.feed("x y\n  -0, 2.50 \n  05,true\n") == [
        eson.Event("rows", 2, {"a": 1, "b": "x y"}),
        eson.Event("rows", 3, {"a": 0, "b": 2.5}),
        eson.Event("rows", 4, {"a": "05", "b": True}),
    ]
    # declined: a quote, a key, a deeper or shallower line, a comment, a
    # blank line of a reply (white space after the pad)
    for line in ('  "a",1', "  a: 1,2", "   1,2", " 1,2", "  #,1", "  \u00a0", "1,2", "  1"):
        core.take()
        core.arm("rows", eson.Event, None, None, 1, 3, 5, reading, True, False, "")
        handed.clear()
        assert core.feed(line + "\n  3,4\n") == ["python"], line
        assert handed == [line + "\n  3,4\n"]


def test_a_toon_table_declaring_more_rows_than_an_index_holds() -> None:
    """A count past ``Py_ssize_t``: the core reads the rows that come (hypothesis found it)."""
    text = "title: t\nrows[99999999999999999992]{id,name,ok}:\n  0,a,false\n  1,b,true\n  2,c,true\n"
    for model in (PDoc, None):
        chunks = [text[at : at + 5] for at in range(0, len(text), 5)]
        fast = run(model, chunks, {"format": "toon", "strict": True}, "close")
        with pure():
            slow = run(model, chunks, {"format": "toon", "strict": True}, "close")
        assert _plain(fast) == _plain(slow)
        assert fast[-2][0] == "error" and "rows" in fast[-2][1][1]


@pytest.mark.parametrize(("mode", "reply"), [("strict", True), ("lenient", True), ("lenient", False)])
def test_a_white_space_line_in_a_toon_table_is_read_as_python_reads_it(mode: str, reply: bool) -> None:
    """A reply holds a line of white space back as blank; the core leaves it to Python.

    Review found it: a strict reply armed the core without the reply flag,
    which read the no-break space as a fourth row where the reply has three
    (a count error).
    """
    for text in ("xs[4]{a}:\n  1\n  2\n  3\n  \u00a0\n", "xs[4]{a}:\n  1\n  2\n  3\n  \u00a0\n  4\n"):
        for size in (1, 3, 100):
            chunks = [text[at : at + size] for at in range(0, len(text), size)]
            options = {"format": "toon", "mode": mode, "reply": reply}
            fast = run(None, chunks, options, "close")
            with pure():
                slow = run(None, chunks, options, "close")
            assert _plain(fast) == _plain(slow), (text, size)
