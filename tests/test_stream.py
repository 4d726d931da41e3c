"""eson.StreamDecoder: events as rows complete, the same message as the whole decode."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Literal

import msgspec
import pydantic
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eson
import eson.msgspec
import eson.toon
from eson import Event, Repair, StreamDecoder

Severity = Literal["high", "medium", "low"]


class MFinding(eson.msgspec.Record):
    severity: Severity
    file: str
    line: int
    score: float = 0.0
    ok: bool = False


class MReview(eson.msgspec.Message, number=True):
    kind: str
    tags: list[str]
    findings: list[MFinding]
    meta: dict[str, Any] = msgspec.field(default_factory=dict)


class PFinding(eson.Record):
    severity: Severity
    file: str
    line: int
    score: float = 0.0
    ok: bool = False


class PReview(eson.Message, number=True):
    kind: str
    tags: list[str]
    findings: list[PFinding]
    meta: dict[str, Any] = pydantic.Field(default_factory=dict)


MODELS = [MReview, PReview]
VALUE = {
    "kind": "review \u00e9\u6f22\U0001f600",
    "tags": ["a", "b c"],
    "findings": [
        {"severity": "high", "file": "src/a.py", "line": 3, "score": 0.5, "ok": True},
        {"severity": "low", "file": "s\u00fcd/b.py", "line": 40, "score": 1.25, "ok": False},
        {"severity": "medium", "file": "c.py", "line": 7, "score": 2.0, "ok": False},
    ],
    "meta": {"x": [1, 2], "y": None},
}


def model_value(model: type) -> Any:
    if issubclass(model, msgspec.Struct):
        return msgspec.convert(VALUE, model)
    return model.model_validate(VALUE)  # type: ignore[attr-defined]


def run(decoder: StreamDecoder[Any], chunks: list[Any]) -> tuple[list[Event], Any]:
    events: list[Event] = []
    for chunk in chunks:
        events.extend(decoder.feed(chunk))
    return events, decoder.close()


def cut(text: str | bytes, points: list[int]) -> list[Any]:
    points = sorted({point % (len(text) + 1) for point in points})
    pieces = []
    start = 0
    for point in [*points, len(text)]:
        pieces.append(text[start:point])
        start = point
    return pieces


# -- equal to the whole decode, for every chunking -------------------------------------


@pytest.mark.parametrize("model", [*MODELS, None])
@pytest.mark.parametrize("fmt", ["eson", "toon"])
@settings(max_examples=40, deadline=None)
@given(
    points=st.lists(st.integers(min_value=0, max_value=10_000), max_size=12),
    as_bytes=st.booleans(),
    crlf=st.booleans(),
)
def test_stream_equals_whole_decode_for_every_chunking(
    model: type | None, fmt: str, points: list[int], as_bytes: bool, crlf: bool
) -> None:
    value = model_value(model or MReview)
    text = value.to_eson() if fmt == "eson" else value.to_toon()
    if crlf:
        text = text.replace("\n", "\r\n")
    if fmt == "eson":
        whole = eson.decode(text, type=model) if model else eson.decode(text)
    else:
        whole = eson.toon.decode(text, type=model) if model else eson.toon.decode(text)
    data: str | bytes = text.encode() if as_bytes else text
    for strict in (True, False):
        events, result = run(StreamDecoder(model, format=fmt, strict=strict), cut(data, points))  # type: ignore[arg-type]
        assert result == whole
        rows = [event.value for event in events if event.section == "findings"]
        assert rows == (list(whole.findings) if model else whole["findings"])  # type: ignore[union-attr]


@pytest.mark.parametrize("model", MODELS)
def test_one_chunk_per_character_and_per_byte(model: type) -> None:
    text = model_value(model).to_eson()
    for data in (list(text), [bytes([byte]) for byte in text.encode()]):
        _, result = run(StreamDecoder(model), data)
        assert result == model_value(model)


def test_bytes_and_str_may_not_mix_inside_a_character() -> None:
    decoder = StreamDecoder(None)
    decoder.feed(b"!eson/1\nkind=")
    decoder.feed("\u00e9".encode()[:1])
    with pytest.raises(TypeError, match="inside a UTF-8 character"):
        decoder.feed("x")


def test_invalid_utf8_is_an_error_with_a_line() -> None:
    decoder = StreamDecoder(None)
    with pytest.raises(eson.DecodeError, match="invalid UTF-8") as info:
        decoder.feed(b"!eson/1\nkind=\xff\n")
    assert info.value.line == 2
    with pytest.raises(eson.DecodeError):
        decoder.close()  # spent: the same error again


def test_a_stream_cut_inside_a_character_is_an_error_at_close() -> None:
    decoder = StreamDecoder(None)
    decoder.feed("!eson/1\nkind=\u00e9".encode()[:-1])
    with pytest.raises(eson.DecodeError, match="invalid UTF-8"):
        decoder.close()


# -- events as lines complete ------------------------------------------------------------


@pytest.mark.parametrize("model", MODELS)
def test_a_rows_event_comes_with_its_line_end(model: type) -> None:
    text = model_value(model).to_eson()
    lines = text.split("\n")
    head = lines.index(next(line for line in lines if line.startswith("findings[")))
    decoder = StreamDecoder(model)
    decoder.feed("\n".join(lines[: head + 1]) + "\n")
    row = lines[head + 1]
    assert decoder.feed(row) == []  # no line end yet
    (event,) = decoder.feed("\n")
    assert event.section == "findings" and event.row == 1
    assert event.value == model_value(model).findings[0]
    assert type(event.value) is type(model_value(model).findings[0])


@pytest.mark.parametrize("model", MODELS)
def test_events_for_scalars_arrays_and_records(model: type) -> None:
    events, result = run(StreamDecoder(model), [model_value(model).to_eson()])
    assert [(event.section, event.row) for event in events] == [
        ("kind", None),
        ("tags", 1),
        ("tags", 2),
        ("findings", 1),
        ("findings", 2),
        ("findings", 3),
        ("meta", None),
    ]
    assert events[0].value == VALUE["kind"]
    assert result == model_value(model)


def test_time_to_the_first_row_does_not_wait_for_the_document() -> None:
    # The first row's event comes out before anything past it is read, whatever the count.
    decoder = StreamDecoder(MReview)
    events = decoder.feed(
        "!eson/1\nkind=x\ntags[0]\nfindings[100000]{n,severity,file,line,score,ok}\n"
    )
    events += decoder.feed("1\thigh\ta.py\t1\t0.5\ttrue\n")
    assert events[-1].section == "findings" and events[-1].row == 1


@pytest.mark.parametrize("model", MODELS)
def test_snapshot_is_the_value_so_far(model: type) -> None:
    text = model_value(model).to_eson()
    decoder = StreamDecoder(model)
    lines = text.split("\n")
    head = next(i for i, line in enumerate(lines) if line.startswith("findings["))
    decoder.feed("\n".join(lines[: head + 3]) + "\n")
    snapshot = decoder.snapshot()
    assert snapshot["kind"] == VALUE["kind"]
    assert snapshot["tags"] == VALUE["tags"]
    assert snapshot["findings"] == list(model_value(model).findings[:2])
    assert "meta" not in snapshot


# -- cut short, partial, errors ----------------------------------------------------------


@pytest.mark.parametrize("model", [*MODELS, None])
def test_a_stream_cut_short_is_an_error_at_close_never_a_short_message(model: type | None) -> None:
    text = model_value(MReview).to_eson()
    cut_at = text.index("2\tlow")
    decoder = StreamDecoder(model)
    decoder.feed(text[: cut_at + 5])
    with pytest.raises(eson.DecodeError, match="declares 3 rows"):
        decoder.close()
    with pytest.raises(eson.DecodeError, match="declares 3 rows"):
        decoder.close()  # the same error again


@pytest.mark.parametrize("model", MODELS)
def test_partial_keeps_complete_rows(model: type) -> None:
    text = model_value(model).to_eson()
    head, _, rest = text.partition("findings[3]")
    cut_text = head + "findings[3]" + rest[: rest.index("2\tlow") + 8]
    decoder = StreamDecoder(model, partial=True)
    _, result = run(decoder, [cut_text])
    assert len(result.findings) == 1
    assert [repair.kind for repair in decoder.repairs] == ["rows-missing"]
    assert result == eson.decode(cut_text, type=model, strict=False, partial=True)


@pytest.mark.parametrize("model", MODELS)
def test_a_bad_row_fails_in_the_feed_that_completes_it(model: type) -> None:
    text = model_value(model).to_eson().replace("\thigh\t", "\tsevere\t")
    decoder = StreamDecoder(model)
    with pytest.raises(eson.ValidationError) as info:
        for line in text.splitlines(keepends=True):
            decoder.feed(line)
    assert (info.value.section, info.value.row, info.value.field) == ("findings", 1, "severity")
    assert (
        info.value.line
        == text.splitlines().index(next(row for row in text.splitlines() if "severe" in row)) + 1
    )
    assert "severity: one of high, medium, low" in info.value.feedback
    with pytest.raises(eson.ValidationError):
        decoder.feed("more")


@pytest.mark.parametrize("model", MODELS)
def test_the_message_is_validated_at_close(model: type) -> None:
    decoder = StreamDecoder(model)
    decoder.feed("!eson/1\nkind=x\nfindings[0]{n,severity,file,line,score,ok}\n")
    with pytest.raises(eson.ValidationError, match="tags"):
        decoder.close()


def test_empty_streams() -> None:
    with pytest.raises(eson.DecodeError, match="empty document"):
        StreamDecoder(None, strict=True).close()
    with pytest.raises(eson.DecodeError, match="no ESON document"):
        StreamDecoder(None).close()
    assert StreamDecoder(None, format="toon", strict=True).close() == {}


# -- lenient repairs and replies ----------------------------------------------------------


@pytest.mark.parametrize("model", MODELS)
def test_lenient_repairs_and_prose_around_the_document(model: type) -> None:
    text = model_value(model).to_eson().replace("kind=", "kind = ").replace("{n,", "{n, ")
    reply = f"Sure, here it is:\n\n```eson\n{text}```\n\nAnything else?"
    for size in (1, 7, 64):
        decoder = StreamDecoder(model)
        _, result = run(decoder, [reply[i : i + size] for i in range(0, len(reply), size)])
        assert result == model_value(model)
        assert result == eson.parse_reply(reply, model)
        log: list[Repair] = []
        eson.parse_reply(reply, model, repairs=log)
        assert decoder.repairs == log


@pytest.mark.parametrize("model", MODELS)
def test_a_stream_read_as_toon_reply(model: type) -> None:
    text = model_value(model).to_toon()
    reply = f"Here you go:\n```toon\n{text}\n```\nDone."
    _, result = run(StreamDecoder(model, format="toon"), list(reply))
    assert result == model_value(model)
    unfenced = f"Here you go:\n{text}\n\nThat is all."
    _, result = run(StreamDecoder(model, format="toon"), [unfenced])
    assert result == model_value(model)


@pytest.mark.parametrize("model", MODELS)
def test_stream_errors_count_lines_of_the_reply(model: type) -> None:
    text = model_value(model).to_eson().replace("\t40\t", "\tforty\t")
    reply = "Intro line one.\nIntro line two.\n```eson\n" + text + "```\n"
    decoder = StreamDecoder(model)
    with pytest.raises(eson.ValidationError) as info:
        run(decoder, [reply])
    with pytest.raises(eson.ValidationError) as whole:
        eson.parse_reply(reply, model)
    assert (
        info.value.line
        == whole.value.line
        == reply.splitlines().index(next(line for line in reply.splitlines() if "forty" in line))
        + 1
    )


# -- helpers around the stream -------------------------------------------------------------


@pytest.mark.parametrize("model", MODELS)
def test_events_and_aevents(model: type) -> None:
    text = model_value(model).to_eson()
    chunks = [text[i : i + 10] for i in range(0, len(text), 10)]
    decoder = StreamDecoder(model)
    events = list(decoder.events(chunks))
    assert decoder.close() == model_value(model)

    async def stream() -> AsyncIterator[str]:
        for chunk in chunks:
            await asyncio.sleep(0)
            yield chunk

    async def consume() -> list[Event]:
        decoder = StreamDecoder(model)
        found = [event async for event in decoder.aevents(stream())]
        assert decoder.close() == model_value(model)
        return found

    assert asyncio.run(consume()) == events


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="format"):
        StreamDecoder(None, format="json")  # type: ignore[call-overload]
    with pytest.raises(TypeError):
        StreamDecoder(None, strict="no")  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="needs strict=False"):
        StreamDecoder(None, strict=True, partial=True)
    decoder = StreamDecoder(None)
    decoder.feed("!eson/1\nkind=x\n")
    decoder.close()
    with pytest.raises(ValueError, match="after close"):
        decoder.feed("x")


def test_keep_false_gives_events_and_checks_the_stream() -> None:
    text = model_value(MReview).to_eson()
    decoder = StreamDecoder(MReview, keep=False)
    events, result = run(decoder, [text])
    assert result is None
    assert len([event for event in events if event.section == "findings"]) == 3
    assert "findings" not in decoder.snapshot()
    decoder = StreamDecoder(MReview, keep=False)
    decoder.feed(text[:-10])
    with pytest.raises(eson.DecodeError):
        decoder.close()


# -- memory: a long stream in bounded memory ---------------------------------------------

MEMORY_SCRIPT = textwrap.dedent(
    """
    import resource, sys
    from typing import Literal
    import eson, eson.msgspec

    class Row(eson.msgspec.Record):
        severity: Literal["high", "low"]
        file: str
        line: int
        message: str

    class Log(eson.msgspec.Message, number=True):
        kind: str
        rows: list[Row]

    def vm_kb():
        for line in open("/proc/self/status"):
            if line.startswith("VmSize:"):
                return int(line.split()[1])

    size_mb = int(sys.argv[1])
    row = "{n}\\thigh\\tsrc/module/file_{n}.py\\t{n}\\ta finding message of moderate length here\\n"
    count = size_mb * 1024 * 1024 // len(row.format(n=100000))
    # Limit the address space to what is mapped now plus 48 MB: keeping the
    # text, or the rows, of a stream this long cannot fit.
    base = vm_kb() * 1024
    resource.setrlimit(resource.RLIMIT_AS, (base + 48 * 1024 * 1024, resource.RLIM_INFINITY))
    decoder = eson.StreamDecoder(Log if sys.argv[2] == "typed" else None, keep=False)
    rows = len(decoder.feed("!eson/1\\nkind=load\\nrows[%d]{n,severity,file,line,message}\\n" % count))
    fed = 0
    chunk = []
    for n in range(1, count + 1):
        chunk.append(row.format(n=n))
        if len(chunk) == 512:
            text = "".join(chunk)
            fed += len(text)
            rows += len(decoder.feed(text))
            chunk = []
    text = "".join(chunk)
    fed += len(text)
    rows += len(decoder.feed(text))
    assert decoder.close() is None
    print(rows, count, fed)
    """
)


@pytest.mark.parametrize("mode", ["typed", "untyped"])
def test_a_long_stream_decodes_in_bounded_memory(mode: str, tmp_path: Path) -> None:
    script = tmp_path / "stream_memory.py"
    script.write_text(MEMORY_SCRIPT, encoding="utf-8")
    size_mb = 50 if mode == "typed" else 20
    env = {**os.environ, "PYTHONPATH": str(Path(eson.__file__).resolve().parent.parent)}
    done = subprocess.run(
        [sys.executable, str(script), str(size_mb), mode],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rows, count, fed = map(int, done.stdout.split())
    assert rows == count + 1 and fed >= size_mb * 1024 * 1024 * 0.9  # the rows, and the scalar


# -- damaged documents: the stream fails exactly when the whole decode fails ---------------


def mutate(text: str, data: st.DataObject) -> str:
    lines = text.split("\n")
    for _ in range(data.draw(st.integers(1, 3))):
        if not lines:
            break
        index = data.draw(st.integers(0, len(lines) - 1))
        action = data.draw(
            st.sampled_from(
                [
                    "delete",
                    "duplicate",
                    "blank",
                    "indent",
                    "space",
                    "count",
                    "tab",
                    "swap",
                    "truncate",
                ]
            )
        )
        line = lines[index]
        if action == "delete":
            del lines[index]
        elif action == "duplicate":
            lines.insert(index, line)
        elif action == "blank":
            lines.insert(index, data.draw(st.sampled_from(["", "  "])))
        elif action == "indent":
            lines[index] = data.draw(st.sampled_from([" ", "  ", "    "])) + line
        elif action == "space":
            lines[index] = line + " "
        elif action == "count":
            lines[index] = line.replace("[3]", f"[{data.draw(st.integers(0, 5))}]")
        elif action == "tab":
            lines[index] = line.replace(",", "\t", 1) if "," in line else line + "\t"
        elif action == "swap" and index + 1 < len(lines):
            lines[index], lines[index + 1] = lines[index + 1], line
        elif action == "truncate":
            lines[index] = line[: data.draw(st.integers(0, max(0, len(line) - 1)))]
    return "\n".join(lines)


def outcome(function: Any) -> tuple[str, Any]:
    try:
        return "ok", function()
    except eson.ESONError as exc:
        return "error", type(exc).__name__
    except Exception as exc:  # anything else is a defect
        return "crash", repr(exc)


@pytest.mark.parametrize("model", [MReview, PReview, None])
@pytest.mark.parametrize("fmt", ["eson", "toon"])
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_damaged_text_fails_in_the_stream_exactly_when_it_fails_whole(
    model: type | None, fmt: str, data: st.DataObject
) -> None:
    value = model_value(model or MReview)
    text = mutate(value.to_eson() if fmt == "eson" else value.to_toon(), data)
    size = data.draw(st.integers(1, 40))
    chunks = [text[i : i + size] for i in range(0, len(text), size)]

    def streamed(strict: bool) -> Any:
        return run(StreamDecoder(model, format=fmt, strict=strict), chunks)[1]  # type: ignore[arg-type]

    if fmt == "eson":
        whole_strict = outcome(
            lambda: eson.decode(text, type=model) if model else eson.decode(text)
        )
    else:
        whole_strict = outcome(
            lambda: eson.toon.decode(text, type=model) if model else eson.toon.decode(text)
        )
    whole_reply = outcome(lambda: eson.parse_reply(text, model, formats=(fmt,)))
    stream_strict = outcome(lambda: streamed(True))
    stream_reply = outcome(lambda: streamed(False))
    assert "crash" not in (stream_strict[0], stream_reply[0]), (stream_strict, stream_reply)
    assert stream_strict[0] == whole_strict[0], (text, stream_strict, whole_strict)
    if stream_strict[0] == "ok":
        assert stream_strict[1] == whole_strict[1]
    assert stream_reply[0] == whole_reply[0], (text, stream_reply, whole_reply)
    if stream_reply[0] == "ok":
        assert stream_reply[1] == whole_reply[1]


# A TOON document with every kind of top-level entry the stream reports:
# scalars, an inline array, a table, a list of mixed items, a nested object.
TOON_ENTRIES = {
    **VALUE,
    "items": [{"a": 1, "b": [1, 2]}, 5, "x", {"c": {"d": 1}, "e": "f"}, [3, 4]],
    "last": {"deep": {"deeper": [{"k": 1}, {"k": 2}]}},
}


def outcome_text(function: Any) -> tuple[str, Any]:
    """``("ok", value)``, or ``("error", the error's class and text)``: its words and place."""
    try:
        return "ok", function()
    except eson.ESONError as exc:
        return "error", (type(exc).__name__, str(exc))


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_a_toon_stream_fails_word_for_word_as_the_whole_text(data: st.DataObject) -> None:
    """The strict TOON stream is the whole-text parser fed each line as it comes.

    So a damaged document gives the same error -- class, words, line,
    section, row -- in every chunking, or the same value.  (A table whose
    count is wrong and which holds a bad cell reports the bad cell in both:
    the stream cannot know the count is wrong before the table ends.)
    """
    text = eson.toon.encode(TOON_ENTRIES)
    text = mutate(text, data)
    if data.draw(st.booleans()):  # a bad cell somewhere
        at = data.draw(st.integers(0, len(text)))
        text = text[:at] + data.draw(st.sampled_from(['"', '\\', ",", ":", "- "])) + text[at:]
    size = data.draw(st.integers(1, 40))
    chunks = [text[i : i + size] for i in range(0, len(text), size)]
    whole = outcome_text(lambda: eson.toon.decode(text))
    streamed = outcome_text(lambda: run(StreamDecoder(format="toon", strict=True), chunks)[1])
    assert streamed == whole, text


@pytest.mark.parametrize("model", [MReview, PReview])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_a_typed_toon_stream_fails_to_parse_word_for_word_as_the_whole_text(
    model: type, data: st.DataObject
) -> None:
    """Typed, the text's errors are the parser's too: a TOONError streamed is the whole text's.

    (Not the other way round: a streamed row is validated as it arrives, so
    a bad value in a table whose count is wrong fails validation in the
    stream before the table's end shows the count, while the whole text is
    parsed before anything is validated.)
    """
    text = mutate(model_value(model).to_toon(), data)
    size = data.draw(st.integers(1, 40))
    chunks = [text[i : i + size] for i in range(0, len(text), size)]
    whole = outcome_text(lambda: eson.toon.decode(text, type=model))
    streamed = outcome_text(lambda: run(StreamDecoder(model, format="toon", strict=True), chunks)[1])
    assert streamed[0] == whole[0], text
    if streamed[0] == "error" and streamed[1][0] == "TOONError":
        assert streamed == whole, text


@pytest.mark.parametrize("size", [1, 5, 64, 10_000])
def test_a_toon_table_with_a_bad_cell_and_a_short_count_reports_the_cell_whole_or_streamed(
    size: int,
) -> None:
    text = 'rows[3]{a,b}:\n  1,2\n  3,"open\nnext: 1\n'
    with pytest.raises(eson.TOONError) as whole:
        eson.toon.decode(text)
    assert whole.value.line == 3 and whole.value.row == 2 and "count" not in str(whole.value)
    chunks = [text[i : i + size] for i in range(0, len(text), size)]
    with pytest.raises(eson.TOONError) as streamed:
        run(StreamDecoder(format="toon", strict=True), chunks)
    assert str(streamed.value) == str(whole.value)


@pytest.mark.parametrize("model", [MReview, PReview])
@pytest.mark.parametrize("size", [1, 7, 10_000])
def test_a_header_after_a_headerless_start_begins_the_document_again(model: Any, size: int) -> None:
    """A reply whose lines look like entries of the schema before the headed document.

    parse_reply reads the headed document (a header wins over a headerless
    start); the stream, which began at the first declared entry, begins
    again at the header, so both give the same value, repairs and errors
    (hypothesis found the difference: a duplicated header line swapped down).
    """
    value = model_value(model)
    document = value.to_eson()
    for prose in ("kind=review\n", "kind=x\ntags[1]\nq\n", "kind=\tbad\n"):
        text = prose + document
        decoder = StreamDecoder(model)
        for start in range(0, len(text), size):
            decoder.feed(text[start : start + size])
        assert decoder.close() == value == eson.parse_reply(text, model)
        assert decoder.repairs == []
        wrong = prose + document.replace("findings[3]", "findings[4]")
        with pytest.raises(eson.CountError) as streamed:
            StreamDecoder(model).feed(wrong, final=True)
        with pytest.raises(eson.CountError) as whole:
            eson.parse_reply(wrong, model)
        assert str(streamed.value) == str(whole.value)
        head = [line.startswith("findings[") for line in document.split("\n")].index(True)
        assert streamed.value.line == whole.value.line == prose.count("\n") + head + 1


def test_a_json_example_before_the_document_is_skipped_by_the_stream() -> None:
    text = model_value(MReview).to_eson()
    reply = (
        'The input was:\n```json\n{"files": ["a.py"]}\n```\nThe review:\n```eson\n' + text + "```\n"
    )
    _, result = run(StreamDecoder(MReview), [reply])
    assert result == model_value(MReview) == eson.parse_reply(reply, MReview)


# -- count errors: the stream words them as the whole-text scanner does -----------------

COUNT_DOCUMENTS = [
    "!eson/1\nsteps[4]{id,path}\n1\ta\n2\tb\n3\tc\ndone=false\nretry=3\n",  # stray entry
    "!eson/1\nsteps[4]{id,path}\n1\ta\n2\tb\n3\tc\n",  # cut short
    "!eson/1\nsteps[2]{id,path}\n1\ta\n2\tb\n3\tc\ndone=false\n",  # leftover rows
    "!eson/1\nnotes[2]{text}\nhi\nretry=3\n",  # one column: swallowed entry (untyped: ok)
    "!eson/1\nnotes[3]{text}\nhi\nretry=3\n",
    "!eson/1\nnotes[1]{text}\nhi\nthere\nretry=3\n",
    "!eson/1\nitem{a,b}\n1\t2\n3\t4\n",
    "!eson/1\nitem{a,b}\n",
    "!eson/1\nrows[3]{n,a}\n1\tx\n3\ty\n",
    "!eson/1\nrows[3]{n,a}\n1\tx\n3\ty\nz=1\n",
    "!eson/1\nrows[2]{n,a}\n1\tx\n3\ty\n",
    "!eson/1\nrows[2]{n,a}\n3\tx\n2\ty\tz\n",  # a cell count before an n
    "!eson/1\nxs[3]\n1\n2\n",
    "!eson/1\nxs[1]\n1\n2\nk=v\n",
    "!eson/1\nxs[0]\n1\nk=v\n",
    "!eson/1\nsteps[3]{a,b}\n1\t2\nq=1\nr[1]{c}\n5\n",
    "!eson/1\nsteps[5]{a,b}\n1\t2\nq=1\nr[1]{c}\n5\n",
    "!eson/1\nsteps[3]{a,b}\n1\t2\nbad line\n3\t4\n",
    "!eson/1\nsteps[4]{a,b}\n1\t2\nbad line\n3\t4\n",
]


def whole_error(text: str) -> str:
    try:
        eson.decode(text)
    except eson.ESONError as exc:
        return f"{type(exc).__name__}: {exc}"
    return "ok"


def stream_error(text: str, size: int) -> str:
    decoder = StreamDecoder(None)
    try:
        for start in range(0, len(text), size):
            decoder.feed(text[start : start + size])
        decoder.close()
    except eson.ESONError as exc:
        return f"{type(exc).__name__}: {exc}"
    return "ok"


@pytest.mark.parametrize("text", COUNT_DOCUMENTS)
def test_count_errors_are_worded_as_the_whole_decode_words_them(text: str) -> None:
    for document in (text, text.rstrip("\n")):
        expected = whole_error(document)
        for size in (1, 7, len(document)):
            assert stream_error(document, size) == expected, (document, size)
    if "declares" in expected:
        assert expected.startswith("CountError")


def test_a_stream_cut_short_names_the_stray_entry_at_close() -> None:
    decoder = StreamDecoder(None)
    decoder.feed("!eson/1\nsteps[5]{a,b}\n1\t2\nq=1\n")
    with pytest.raises(eson.CountError) as info:
        decoder.close()
    assert str(info.value) == "line 2: steps: declares 5 rows, but line 4 is the entry 'q=1'"
    assert (info.value.declared, info.value.actual, info.value.stray_line) == (5, 1, 4)
    assert len(info.value.feedback) <= 800


@pytest.mark.parametrize("model", MODELS)
def test_a_typed_one_column_array_swallowing_an_entry_is_a_count_error(model: type) -> None:
    # As typed whole-text decoding (issue 8 item 9): notes[2] over one note and
    # a field the schema declares and the document otherwise lacks.
    text = model_value(model).to_eson()
    kind_line = text.splitlines()[1]
    damaged = text.replace(kind_line + "\n", "").replace(
        "tags[2]\na\nb c\n", "tags[2]\na\n" + kind_line + "\n"
    )
    with pytest.raises(eson.CountError) as whole:
        eson.decode(damaged, type=model)
    for size in (1, 64, len(damaged)):
        decoder = StreamDecoder(model)
        with pytest.raises(eson.CountError) as streamed:
            for start in range(0, len(damaged), size):
                decoder.feed(damaged[start : start + size])
            decoder.close()
        assert str(streamed.value) == str(whole.value)


@pytest.mark.parametrize(
    "text",
    [
        "rows[3]{a,b}:\n  1,2\n  3,4\nk: v\n",
        "rows[3]{a,b}:\n  1,2\n  3,4\n",
        "rows[1]{a,b}:\n  1,2\n  3,4\nk: v\n",
        "xs[3]: 1,2\n",
        "items[3]:\n  - 1\n  - 2\n",
        "items[1]:\n  - 1\n  - 2\nk: 1\n",
    ],
)
def test_toon_count_errors_are_worded_as_the_whole_decode_words_them(text: str) -> None:
    with pytest.raises(eson.TOONError) as whole:
        eson.toon.decode(text)
    for size in (1, 5, len(text)):
        decoder = StreamDecoder(None, format="toon")
        with pytest.raises(eson.TOONError) as streamed:
            for start in range(0, len(text), size):
                decoder.feed(text[start : start + size])
            decoder.close()
        assert str(streamed.value) == str(whole.value)


# -- events only the end completes; format spellings ----------------------------------


@pytest.mark.parametrize("model", [*MODELS, None])
def test_events_only_the_end_completes_come_from_a_final_feed_or_final_events(
    model: type | None,
) -> None:
    text = model_value(model or MReview).to_eson().rstrip("\n")  # no line break at the end
    whole = list(StreamDecoder(model).events([text]))
    assert whole[-1].section == "meta"
    decoder = StreamDecoder(model)
    during = decoder.feed(text)
    assert during == whole[:-1]  # the last row's line end never came
    assert decoder.final_events == []
    assert decoder.feed("", final=True) == whole[-1:]
    assert decoder.close() == (eson.decode(text, type=model) if model else eson.decode(text))
    assert decoder.final_events == whole[-1:]
    # close() alone: the events are kept for final_events
    decoder = StreamDecoder(model)
    decoder.feed(text)
    decoder.close()
    assert decoder.final_events == whole[-1:]
    with pytest.raises(ValueError, match="after close"):
        decoder.feed("x")


@pytest.mark.parametrize("model", MODELS)
def test_toon_last_list_item_is_a_final_event(model: type) -> None:
    decoder = StreamDecoder(None, format="toon")
    assert decoder.feed("items[2]:\n  - a: 1\n  - a: 2\n") == [eson.Event("items", 1, {"a": 1})]
    assert decoder.feed(b"", final=True) == [eson.Event("items", 2, {"a": 2})]
    typed = StreamDecoder(model, format="toon")
    typed.feed(model_value(model).to_toon())
    assert typed.close() == model_value(model)


def test_a_failing_final_feed_raises_the_close_error() -> None:
    decoder = StreamDecoder(None)
    decoder.feed("!eson/1\nxs[3]\n1\n")
    with pytest.raises(eson.CountError):
        decoder.feed("2\n", final=True)
    with pytest.raises(eson.CountError):
        decoder.close()


@pytest.mark.parametrize("spelling", ["eson", "eson/1"])
def test_eson_may_be_spelled_as_choose_and_detect_spell_it(spelling: str) -> None:
    text = model_value(MReview).to_eson()
    assert eson.detect(text) == "eson/1"
    decoder = StreamDecoder(MReview, format=spelling)  # type: ignore[arg-type]
    assert decoder.format == "eson"
    decoder.feed(text)
    assert decoder.close() == model_value(MReview)
    assert eson.parse_reply(text, MReview, formats=(spelling, "json")) == model_value(MReview)
    assert MReview.from_reply(text, formats=[spelling]) == model_value(MReview)
    with pytest.raises(ValueError, match="'eson' \\(or 'eson/1'\\)"):
        StreamDecoder(MReview, format="eson/2")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'eson' \\(or 'eson/1'\\)"):
        eson.parse_reply(text, MReview, formats=("ESON",))


@pytest.mark.parametrize("strict", [True, False])
def test_a_toon_root_array_streams_as_parse_reply_reads_it(strict: bool) -> None:
    for text in ("[2]: 1,2\n", "[2]:\n  - a: 1\n  - b\n", "Here you go:\n\n[3]: x,y,z\n"):
        if strict and not text.startswith("["):
            continue
        decoder = StreamDecoder(None, format="toon", strict=strict)
        for start in range(0, len(text), 3):
            decoder.feed(text[start : start + 3])
        assert decoder.close() == eson.parse_reply(text, formats=("toon",))


# -- a CR that is not part of a CRLF (fuzz seed 4004, cases 48617 and 54942) -----------


@pytest.mark.parametrize(
    "text",
    [
        ":\r\r\na:",
        "r: \r\r\n:",
        "count: 1\r\r\n",
        "a:\n  b: x\r\r\n  c: 2\r\n",
        "items[2]:\r\n  - x\r\r\n  - y\r",
        "[2]:\r\n  - x\r\r\n  - y\r\r",
        "a: 1\r",
        # A table's row with a CR of its own before the CRLF, in a chunk of
        # many lines: the rows after the table's first go on to the stream
        # core as lines joined by LF, where the CR read as part of a CRLF.
        "t[3]{a}:\r\n  x\r\n  y\r\r\n  z\r\n",
        "t[4]{a}:\r\n  x\r\n  y\r\r\n  z\r\n  w\r\n",
    ],
)
@pytest.mark.parametrize("size", [1, 2, 1 << 20])
def test_toon_stream_keeps_a_lone_cr_as_the_whole_text_reader_does(text: str, size: int) -> None:
    whole = eson.toon.decode(text)
    for data in (text, text.encode("utf-8")):
        decoder = StreamDecoder(None, format="toon", strict=True)
        for start in range(0, len(data), size):
            decoder.feed(data[start : start + size])
        assert decoder.close() == whole


def test_typed_toon_stream_refuses_an_int_with_a_cr_as_the_whole_text_reader_does() -> None:
    class Counted(eson.msgspec.Message):
        count: int

    text = "count: 401565167\r\r\n"
    with pytest.raises(eson.ValidationError) as whole:
        eson.toon.decode(text, type=Counted)
    decoder = StreamDecoder(Counted, format="toon", strict=True)
    decoder.feed(text)
    with pytest.raises(eson.ValidationError) as streamed:
        decoder.close()
    assert str(streamed.value) == str(whole.value)


def test_lenient_toon_stream_ends_at_prose_while_parse_reply_reads_the_later_payload() -> None:
    # Fuzz seed 4004, case 13300: "." is prose, ending the unfenced payload
    # "o:" for the stream (which reads the first payload).  parse_reply reads
    # the last one, and a lone "o:" line is prose to it: it reads "[3]:".
    text = "o:\n.\n[3]:"
    assert eson.extract(text) == "[3]:"
    with pytest.raises(eson.TOONError, match="line 3: array declares 3 items but has 0"):
        eson.parse_reply(text, formats=("toon",))
    decoder = StreamDecoder(None, format="toon")
    decoder.feed(text)
    assert decoder.close() == {"o": {}}


class ToonItem(eson.Record):
    a: int
    b: int = 0


class ToonItems(eson.Message):
    items: list[ToonItem]


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize("typed", [False, True])
@pytest.mark.parametrize(
    "text",
    [
        "items[2]:\n  - a: 1\n\n  - a: 2\n",
        "items[2]:\n  - a: 1\n    b: 2\n\n  - a: 2\n",
        "items[2]:\n  - a: 1\n  # note\n\n  - a: 2\n",
        "items[2]:\n  - a: 1\n\n\n  - a: 2\nk: 1\n",
    ],
)
def test_a_blank_line_between_toon_list_items_is_refused_as_the_whole_decode_refuses_it(
    text: str, typed: bool, strict: bool
) -> None:
    model = ToonItems if typed else None
    with pytest.raises(eson.TOONError) as whole:
        eson.toon.decode(text, type=model) if typed else eson.toon.decode(text)
    with pytest.raises(eson.TOONError) as reply:
        eson.parse_reply(text, model, formats=("toon",))
    assert str(reply.value) == str(whole.value)
    for size in (1, 7, len(text)):
        decoder = StreamDecoder(model, format="toon", strict=strict)
        with pytest.raises(eson.TOONError) as streamed:
            for start in range(0, len(text), size):
                decoder.feed(text[start : start + size])
            decoder.close()
        assert str(streamed.value) == str(whole.value)


# -- a bad row and the count of its section: the stream says what the whole decode says --


class CountRow(eson.Record):
    a: int
    b: str


class CountDoc(eson.Message):
    kind: str
    rows: list[CountRow]
    nums: list[int]
    tail: str = ""


_COUNT_BASE = "!eson/1\nkind=k\nrows[2]{a,b}\n1\tx\n2\ty\nnums[2]\n1\n2\ntail=t\n"
# Damage to one section: a bad cell (bad JSON; a cell the type refuses), then
# a row past the count, a row short of it, a row of the wrong width, or nothing.
_BAD_CELLS = {
    "rows": [("1\tx\n", '"x\tx\n'), ("1\tx\n", "zz\tx\n"), ("1\tx\n", "1\t[1,\n")],
    "nums": [("nums[2]\n1\n", 'nums[2]\n"x\n'), ("nums[2]\n1\n", "nums[2]\nzz\n")],
}
_COUNT_DAMAGE = {
    "rows": ["", "3\tz\n", "3\tz\n4\tw\n", "drop", "3\n"],
    "nums": ["", "3\n", "3\n4\n", "drop"],
}


def _damaged_documents() -> list[str]:
    texts = []
    for section, bad_cells in _BAD_CELLS.items():
        last_row = "2\ty\n" if section == "rows" else "nums[2]\n1\n2\n"
        for good, bad in bad_cells:
            for damage in _COUNT_DAMAGE[section]:
                text = _COUNT_BASE.replace(good, bad, 1)
                if damage == "drop":
                    text = text.replace("2\ty\n" if section == "rows" else "\n2\ntail", "" if section == "rows" else "\ntail", 1)
                else:
                    end = text.index("nums[2]") if section == "rows" else text.index("tail=")
                    text = text[:end] + damage + text[end:]
                texts.append(text)
                texts.append(text[: text.index("tail=")])  # the section is the last one
        assert last_row
    return texts


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize("model", [None, CountDoc])
@pytest.mark.parametrize("text", _damaged_documents())
def test_a_bad_row_before_a_count_error_streams_as_the_whole_decode_reads_it(
    text: str, model: type | None, strict: bool
) -> None:
    try:
        expected: Any = eson.decode(text, type=model, strict=strict) if model else eson.decode(
            text, strict=strict
        )
    except eson.ESONError as exc:
        expected = exc
    for size in (1, 6, len(text)):
        decoder = StreamDecoder(model, strict=strict)
        try:
            for start in range(0, len(text), size):
                decoder.feed(text[start : start + size])
            got: Any = decoder.close()
        except eson.ESONError as exc:
            got = exc
        if isinstance(expected, eson.ESONError):
            assert type(got) is type(expected), (size, got)
            assert str(got) == str(expected)
        else:
            assert got == expected


# -- wide headers: work bounded per header byte ----------------------------------------


def _wide_model(width: int) -> type:
    row = pydantic.create_model(  # type: ignore[call-overload]
        f"WideRow{width}", __base__=eson.Record, **{f"f{i}": (int, 0) for i in range(width)}
    )
    return pydantic.create_model(  # type: ignore[call-overload,no-any-return]
        f"Wide{width}", __base__=eson.Message, rows=(list[row], ...), note=(str, "")
    )


def _wide_text(width: int, rows: int = 2) -> str:
    fields = ",".join(f"f{i}" for i in range(width))
    body = "".join("\t".join(str(r * width + i) for i in range(width)) + "\n" for r in range(rows))
    return f"!eson/1\nrows[{rows}]{{{fields}}}\n{body}note=x\n"


@pytest.mark.parametrize("typed", [False, True])
def test_a_wide_header_generates_no_code(typed: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    import eson._internal.codecs.eson_stream as builder_module

    compiled: list[str] = []
    original = builder_module.compile_function

    def counting(name: str, source: str, namespace: dict[str, Any], label: str) -> Any:
        compiled.append(source)
        return original(name, source, namespace, label)

    monkeypatch.setattr(builder_module, "compile_function", counting)
    sizes = {}
    cap = getattr(builder_module, "GENERATED_FIELDS", 64)
    for width in (cap + 1, 8 * cap):
        model = _wide_model(width) if typed else None
        text = _wide_text(width)
        decoder = StreamDecoder(model)
        decoder.feed(text)
        expected = eson.decode(text, type=model) if model else eson.decode(text)
        assert decoder.close() == expected
        sizes[width] = len(compiled)
    assert list(sizes.values()) == [0, 0]  # no generated source, whatever the width
    # a narrow section still gets its generated row function (once per layout)
    fresh = f"g{id(compiled)}_"  # a layout no earlier stream cached
    narrow = _wide_text(3).replace("f0,f1,f2", f"{fresh}0,{fresh}1,{fresh}2")
    decoder = StreamDecoder(None)
    decoder.feed(narrow)
    decoder.close()
    assert len(compiled) == 1


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize("typed", [False, True])
@pytest.mark.parametrize(
    "damage",
    ["", "bad-cell", "text-cell", "extra-row"],
)
def test_a_wide_section_streams_as_the_whole_decode_reads_it(
    typed: bool, strict: bool, damage: str
) -> None:
    width = 100
    model = _wide_model(width) if typed else None
    text = _wide_text(width)
    if damage == "bad-cell":
        text = text.replace("\t5\t", '\t"x\t', 1)
    elif damage == "text-cell":
        text = text.replace("\t5\t", "\tfive\t", 1)
    elif damage == "extra-row":
        text = text.replace("note=x", "\t".join(["1"] * width) + "\nnote=x")
    try:
        expected: Any = eson.decode(text, type=model, strict=strict) if model else eson.decode(
            text, strict=strict
        )
    except eson.ESONError as exc:
        expected = exc
    for size in (7, len(text)):
        decoder = StreamDecoder(model, strict=strict)
        try:
            events = []
            for start in range(0, len(text), size):
                events += decoder.feed(text[start : start + size])
            got: Any = decoder.close()
        except eson.ESONError as exc:
            got = exc
        if isinstance(expected, eson.ESONError):
            assert type(got) is type(expected) and str(got) == str(expected)
        else:
            assert got == expected
            assert [event.row for event in events + decoder.final_events] == [1, 2, None]


def test_toon_stream_places_a_validation_error_of_a_document_held_as_a_root_array() -> None:
    # Fuzz seed 25001 case 5470: a first line beginning with "[" is held as a
    # root array; read as an object after all, its keys' lines still place errors.
    class Done(eson.msgspec.Message):
        done: bool = False

    text = "[rows: []\ndone: fa- lse"
    with pytest.raises(eson.ValidationError) as streamed:
        list(StreamDecoder(Done, format="toon", strict=True).events([text]))
    with pytest.raises(eson.ValidationError) as whole:
        eson.toon.decode(text, type=Done)
    assert streamed.value.line == whole.value.line == 2
    assert str(streamed.value) == str(whole.value)


def test_a_failed_array_still_counts_as_present_for_the_swallowed_entry_check() -> None:
    # Fuzz seed 25003 case 80876: "tags=1" inside tags[2]'s rows names the
    # array itself, which the document has (its head was read, though its
    # rows failed): no swallowed-entry count error, in whole text or stream.
    class Doc(eson.msgspec.Message):
        tags: list[str] = []  # noqa: RUF012
        kind: str | None = None

    text = "!eson/1\ntags[2]\n[x\ntags=1\nkind=null\n"
    with pytest.raises(eson.DecodeError) as whole:
        eson.decode(text, type=Doc)
    with pytest.raises(eson.DecodeError) as streamed:
        list(StreamDecoder(Doc, strict=True).events([text]))
    assert str(whole.value) == str(streamed.value)
    assert whole.value.line == 3 and "malformed JSON" in str(whole.value)


# -- a reply's blank lines of tabs (hypothesis, test_damaged_text_..., a last line "\t") -------


@pytest.mark.parametrize(
    "after",
    ["\t", "\t\n", " \t \n\n", "\u00a0", "\t\n\nThat is all.\n", "\t\n  \nDone, thanks.", "\n\t\n"],
)
@pytest.mark.parametrize("size", [1, 5, 1 << 20])
def test_a_toon_reply_s_blank_lines_after_the_document_are_the_reply_s(after: str, size: int) -> None:
    """White space lines the reply locator leaves out of the payload, the stream leaves out too.

    parse_reply takes blank lines into a TOON document only when a line of
    it follows; a line of tabs at the reply's end, or before the prose that
    ends the document, is the reply's, not a malformed line of the document.
    """
    document = model_value(MReview).to_toon()
    text = document + "\n" + after
    expected = eson.parse_reply(text, formats=("toon",))
    assert expected == eson.toon.decode(document)
    for mode in ("lenient", "lax"):
        decoder = StreamDecoder(None, format="toon", mode=mode)  # type: ignore[arg-type]
        for start in range(0, len(text), size):
            decoder.feed(text[start : start + size])
        assert decoder.close() == expected, mode
    # Inside the document a line of tabs is the document's, and fails as it does whole.
    inside = document.replace("\nmeta:", "\n\t\nmeta:")
    with pytest.raises(eson.TOONError) as whole:
        eson.parse_reply(inside, formats=("toon",))
    with pytest.raises(eson.TOONError) as streamed:
        run(StreamDecoder(None, format="toon"), [inside[i : i + size] for i in range(0, len(inside), size)])
    assert str(streamed.value) == str(whole.value)


# -- repairs read before an error (hypothesis, test_stream_core under ASan, 6000 examples) ----


class _CutRow(eson.msgspec.Record):
    id: int
    kind: str
    name: str
    score: float
    ok: bool
    note: str | None


class _CutDoc(eson.msgspec.Message):
    title: str
    rows: list[_CutRow]
    tail: int = 0


@pytest.mark.parametrize("size", [1, 7, 1 << 20])
def test_the_repairs_read_before_an_error_do_not_depend_on_the_chunks(size: int) -> None:
    """A chunk that fails keeps the repairs its lines recorded before the error.

    They were dropped when the failing chunk had recorded them itself, so a
    reply fed whole lost the ``missing-header`` repair that the same reply
    fed line by line kept.
    """
    text = (
        '```\r!eson/1\ntitle=""\nrows[1]{id,kind,name,score,ok,note}\n'
        '\r0\thigh\t""\t0.0\tfalse\tnull\ntail=0\n'
    )

    decoder = StreamDecoder(_CutDoc)
    with pytest.raises(eson.ValidationError, match="line 4"):
        for start in range(0, len(text), size):
            decoder.feed(text[start : start + size])
    assert [repair.kind for repair in decoder.repairs] == ["missing-header"]
    assert decoder.repairs[0].line == 2
