"""Feedback with no dead ends (issue 16): every failed reply tells the model what to change.

Fences read by their content, a closing fence at the end of a row, a literal
``findings[N]``, spaces in place of TABs, "or null" on the right level, and
``eson.choose`` agreeing with ``eson.lint``.
"""

from __future__ import annotations

from typing import Literal

import pytest

import eson
import eson.msgspec

Severity = Literal["high", "medium", "low"]


class PFinding(eson.Record):
    severity: Severity
    file: str
    line: int
    message: str


class PReview(eson.Message, number=True):
    kind: str
    findings: list[PFinding]


class MFinding(eson.msgspec.Record):
    severity: Severity
    file: str
    line: int
    message: str


class MReview(eson.msgspec.Message, number=True):
    kind: str
    findings: list[MFinding]


MODELS = [PReview, MReview]
HEAD = "!eson/1\nkind=review\nfindings[2]{n,severity,file,line,message}\n"
ROWS = "1\thigh\ta.py\t3\tbad\n2\tlow\tb.py\t4\tzeta\n"
DOC = HEAD + ROWS
VALUE = {
    "kind": "review",
    "findings": [
        {"severity": "high", "file": "a.py", "line": 3, "message": "bad"},
        {"severity": "low", "file": "b.py", "line": 4, "message": "zeta"},
    ],
}


def dump(value: object) -> object:
    if isinstance(value, eson.msgspec.Message):
        import msgspec

        return msgspec.to_builtins(value)
    return value.model_dump()  # type: ignore[attr-defined]


def streamed(model: type, reply: str, size: int) -> object:
    decoder = eson.StreamDecoder(model)
    for start in range(0, len(reply), size):
        decoder.feed(reply[start : start + size])
    return decoder.close()


def stream_error(model: type, reply: str, size: int) -> eson.ESONError:
    decoder = eson.StreamDecoder(model)
    with pytest.raises(eson.ESONError) as info:
        for start in range(0, len(reply), size):
            decoder.feed(reply[start : start + size])
        decoder.close()
    return info.value


# -- fences are read by their content, not their label -------------------------------


@pytest.mark.parametrize("tag", ["yaml", "yml", "tsv", "csv", "text", "md", "none", "result"])
@pytest.mark.parametrize("model", MODELS)
def test_a_fence_with_a_data_label_is_read_by_its_content(tag: str, model: type) -> None:
    reply = f"Here is the review:\n```{tag}\n{DOC}```\nDone."
    assert eson.extract(reply) == DOC
    assert dump(eson.parse_reply(reply, model)) == VALUE
    for size in (1, 7, 200):
        assert dump(streamed(model, reply, size)) == VALUE


@pytest.mark.parametrize("model", MODELS)
def test_a_headerless_document_in_a_yaml_fence_is_read(model: type) -> None:
    reply = "```yaml\n" + DOC.removeprefix("!eson/1\n") + "```\n"
    assert dump(eson.parse_reply(reply, model)) == VALUE
    assert dump(streamed(model, reply, 3)) == VALUE


def test_a_toon_document_in_a_yaml_fence_is_toon() -> None:
    reply = (
        "```yaml\nkind: review\nfindings[1]{severity,file,line,message}:\n  high,a.py,3,bad\n```"
    )
    payload = eson.agent.payload.locate(reply)
    assert payload.format == "toon"
    value = eson.parse_reply(reply, PReview)
    assert value.findings[0].message == "bad"


@pytest.mark.parametrize("tag", ["python", "bash", "sql", "js"])
def test_a_fence_in_a_programming_language_stays_code(tag: str) -> None:
    reply = f"```{tag}\n{DOC}```\n"
    with pytest.raises(eson.DecodeError) as info:
        eson.extract(reply)
    assert str(info.value) == (
        "line 1: no ESON, TOON or JSON document found in the reply: "
        f"a ```{tag} block (code, never read as a payload): '!eson/1'"
    )
    error = stream_error(PReview, reply, 5)
    assert "(code, never read as a payload): '!eson/1'" in str(error)


def test_a_yaml_fence_that_holds_no_payload_is_named_in_the_feedback() -> None:
    reply = "Here you go:\n```yaml\n---\nkind: review\nfindings:\n  - file: a.py\n```\n"
    with pytest.raises(eson.DecodeError) as info:
        eson.parse_reply(reply, PReview)
    message = (
        "line 1: no ESON, TOON or JSON document found in the reply: "
        "a ```yaml block that is neither ESON, TOON nor JSON: '---'"
    )
    assert str(info.value) == message
    assert message in info.value.feedback
    assert "findings[N]{n,severity,file,line,message}" in info.value.feedback
    with pytest.raises(eson.DecodeError) as only:
        eson.parse_reply(reply, PReview, formats=("eson", "toon"))
    assert str(only.value).endswith("a ```yaml block that is neither ESON nor TOON: '---'")
    error = stream_error(PReview, reply, 4)
    assert "no ESON document found in the reply: a ```yaml block that is not ESON: '---'" in str(
        error
    )


def test_a_yaml_fence_without_a_payload_lets_a_later_fence_be_read() -> None:
    reply = f"Config:\n```yaml\nretries: 3\n```\nAnswer:\n```text\n{DOC}```\n"
    assert dump(eson.parse_reply(reply, PReview, formats=("eson",))) == VALUE
    assert dump(streamed(PReview, reply, 5)) == VALUE


def test_the_named_fence_is_clipped() -> None:
    reply = "```" + "y" * 200 + "\n" + "- " + "x" * 500 + "\n```\n"
    with pytest.raises(eson.DecodeError) as info:
        eson.extract(reply)
    assert len(str(info.value)) < 300


# -- a closing fence on the same line as the last row --------------------------------


@pytest.mark.parametrize("after", ["", " hope this helps", "  Let me know!", "\t"])
@pytest.mark.parametrize("model", MODELS)
def test_a_closing_fence_after_the_last_row_ends_the_payload(after: str, model: type) -> None:
    reply = f"Here:\n```eson\n{HEAD}1\thigh\ta.py\t3\tbad\n2\tlow\tb.py\t4\tzeta```{after}\nBye."
    assert eson.extract(reply) == DOC
    assert dump(eson.parse_reply(reply, model)) == VALUE
    for size in (1, 4, 500):
        assert dump(streamed(model, reply, size)) == VALUE


def test_a_closing_fence_after_the_last_row_of_a_tilde_fence() -> None:
    reply = f"~~~eson\n{HEAD}1\thigh\ta.py\t3\tbad\n2\tlow\tb.py\t4\tzeta~~~ that is all\n"
    assert eson.extract(reply) == DOC


def test_prose_after_an_inline_closing_fence_is_never_data() -> None:
    # Without the rule the prose became part of the last cell (message 'zeta``` ...').
    reply = f"```\n{HEAD}1\thigh\ta.py\t3\tbad\n2\tlow\tb.py\t4\tzeta``` and\nmore words\n"
    value = eson.parse_reply(reply, PReview)
    assert value.findings[-1].message == "zeta"
    assert streamed(PReview, reply, 2) == value


def test_a_shorter_marker_inside_a_longer_fence_does_not_close_it() -> None:
    reply = f"````eson\n{HEAD}1\thigh\ta.py\t3\tbad\n2\tlow\tb.py\t4\tzeta\n````\n"
    assert eson.extract(reply) == DOC
    inner = f"````eson\n{HEAD}1\thigh\ta.py\t3\tuse ```\n2\tlow\tb.py\t4\tzeta\n````\n"
    assert eson.parse_reply(inner, PReview).findings[0].message == "use ```"


# -- a literal findings[N] ----------------------------------------------------------------


@pytest.mark.parametrize("count", ["N", "n", "count", "...", ""])
@pytest.mark.parametrize("model", [*MODELS, None])
def test_a_count_copied_from_the_layout_says_what_n_is(count: str, model: type | None) -> None:
    text = HEAD.replace("[2]", f"[{count}]") + ROWS
    expected = (
        f"line 3: findings: invalid entry 'findings[{count}]{{n,severity,file,line,message}}': "
        f"the count [{count}] must be the number of rows that follow, in digits: "
        "write findings[3] for 3 rows"
    )
    readers = [lambda: eson.decode(text, type=model, strict=True)]  # type: ignore[call-overload]
    readers.append(lambda: eson.decode(text, type=model, strict=False))  # type: ignore[call-overload]
    if model is not None:
        readers.append(lambda: eson.parse_reply(f"```eson\n{text}```", model))
        readers.append(lambda: streamed(model, f"Here:\n{text}", 3))
    for index, read in enumerate(readers):
        with pytest.raises(eson.DecodeError) as info:
            read()
        line = 3 if index < 2 else 4  # the reply's first line is a fence or prose
        assert str(info.value) == expected.replace("line 3", f"line {line}")
        assert (info.value.line, info.value.section) == (line, "findings")
        if model is not None:
            assert str(info.value) in info.value.feedback


def test_a_digit_count_is_no_placeholder() -> None:
    from eson._internal.wire.eson_reader import placeholder_count_error

    assert placeholder_count_error("findings[2]{a}", 3) is None
    assert placeholder_count_error("findings[ 2 ]{a}", 3) is None
    assert placeholder_count_error("not a head", 3) is None
    sizes = set()
    for length in (300, 3000):
        error = placeholder_count_error(f"{'x' * length}[{'N' * length}]", 1)
        assert error is not None
        sizes.add(len(str(error)))
    assert len(sizes) == 1 and max(sizes) < 400  # bounded: clipped, whatever the line


def test_a_toon_count_copied_from_the_layout_says_what_n_is() -> None:
    reply = (
        "```toon\nkind: review\nfindings[N]{severity,file,line,message}:\n  high,a.py,3,bad\n```"
    )
    with pytest.raises(eson.ESONError) as info:
        eson.parse_reply(reply, PReview)
    assert str(info.value) == (
        "line 3: invalid bracket segment '[N]': the count must be the number of rows or "
        "items that follow, in digits: write findings[3] for 3 of them"
    )


# -- spaces in place of TABs, a trailing TAB ---------------------------------------------


SPACED = {
    "runs of spaces": "1    high    a.py    3    bad",
    "single spaces": "1 high a.py 3 bad",
    "some spaces": "1\thigh  a.py\t3\tbad",
}


@pytest.mark.parametrize("name", list(SPACED))
@pytest.mark.parametrize("model", [*MODELS, None])
def test_spaces_for_tabs_are_named_in_the_error(name: str, model: type | None) -> None:
    row = SPACED[name]
    text = HEAD.replace("[2]", "[1]") + row + "\n"
    got = row.count("\t") + 1
    where = "in place of some TABs" if "\t" in row else "instead"
    expected = (
        f"line 4: findings row 1: expected 5 cells, got {got}: cells are separated by TAB "
        f"characters, and this row uses spaces {where}; put one TAB between cells"
    )
    readers = [lambda: eson.decode(text, type=model, strict=True)]  # type: ignore[call-overload]
    readers.append(lambda: eson.decode(text, type=model, strict=False))  # type: ignore[call-overload]
    if model is not None:
        readers.append(lambda: eson.parse_reply(f"Sure.\n```eson\n{text}```", model))
        readers.append(lambda: streamed(model, text, 4))
    for read in readers:
        with pytest.raises(eson.DecodeError) as info:
            read()
        message = str(info.value)
        assert message.replace("line 6", "line 4") == expected, message
        if model is not None:
            assert message in info.value.feedback


@pytest.mark.parametrize("model", [*MODELS, None])
def test_a_trailing_tab_is_named_in_the_error(model: type | None) -> None:
    text = HEAD + "1\thigh\ta.py\t3\tbad\t\n2\tlow\tb.py\t4\tzeta\n"
    expected = (
        "line 4: findings row 1: expected 5 cells, got 6: cells are separated by TAB "
        "characters, and this row ends with a TAB (it starts an empty extra cell); "
        "remove the TAB after the last cell"
    )
    for read in (
        lambda: eson.decode(text, type=model, strict=True),  # type: ignore[call-overload]
        lambda: eson.decode(text, type=model, strict=False),  # type: ignore[call-overload]
    ):
        with pytest.raises(eson.DecodeError) as info:
            read()
        assert str(info.value) == expected
    if model is not None:
        with pytest.raises(eson.DecodeError) as streamed_error:
            streamed(model, text, 5)
        assert str(streamed_error.value) == expected


def test_the_corpus_row_with_spaces_gets_the_hint() -> None:
    from pathlib import Path

    raw = (Path(__file__).parent / "replies" / "eson-20-spaces-instead-of-tabs.reply").read_text()
    reply = raw.partition("\n--- reply ---\n")[2]
    with pytest.raises(eson.DecodeError) as info:
        eson.parse_reply(reply, PReview)
    assert "this row uses spaces instead; put one TAB between cells" in info.value.feedback


def test_a_short_row_without_spaces_gets_no_hint() -> None:
    text = HEAD.replace("[2]", "[1]") + "1\thigh\ta.py\n"
    with pytest.raises(eson.DecodeError) as info:
        eson.decode(text)
    assert str(info.value) == "line 4: findings row 1: expected 5 cells, got 3"
    from eson._internal.wire.eson_reader import width_hint

    assert width_hint("a b c", 1, 1) == ""
    assert width_hint("1 high a.py 3 a very long message", 5, 1).endswith("(only spaces)")


# -- eson.choose never picks a text that fails eson.lint -------------------------------


def test_the_readme_choice_lints_clean() -> None:
    message = {"from": "planner", "kind": "task", "priority": 2, "blocking": False}
    choice = eson.choose(message, accept=["eson/1", "toon", "columnar", "json"], by="bytes")
    assert choice.format == "toon"
    assert eson.lint(choice.text, toon=True).ok


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ({"score": 1.0}, '{"score":1}'),
        ({"a": 1e-07, "b": "1.0 stays"}, '{"a":1e-7,"b":"1.0 stays"}'),
        ([-0.0, 2.5], "[0,2.5]"),
        ({'k"1.0': [3.0]}, '{"k\\"1.0":[3]}'),
    ],
)
def test_compact_json_is_written_as_javascript_writes_its_numbers(value: object, text: str) -> None:
    import json

    before = eson.agent.formats.compact_json(value)
    assert not eson.lint(before).ok  # W1: longer than JSON.stringify's text
    for accept in (None, ["json"], "columnar"):
        choice = eson.choose(value, accept=accept, by="bytes")
        assert choice.text == text and eson.lint(choice.text).ok
        assert json.loads(choice.text) == json.loads(before)


def test_a_value_no_format_writes_lint_clean_is_an_encode_error() -> None:
    with pytest.raises(eson.EncodeError) as info:
        eson.choose({"id": 10**30}, accept=["json"], by="bytes")
    assert str(info.value).startswith(
        "no accepted format writes this value so that eson.lint passes; compact JSON: ERROR W1:"
    )
    with pytest.raises(eson.EncodeError):
        eson.choose({"x": 6.653746584590746e16}, accept=None, by="bytes")
    choice = eson.choose({"id": 10**30}, by="bytes")  # ESON and TOON hold it exactly
    assert choice.format in ("eson/1", "toon") and "compact JSON (lint W1)" in choice.reason


def test_a_toon_text_that_lint_rejects_is_left_out() -> None:
    choice = eson.choose("hello", accept=["toon", "json"], by="bytes")
    assert choice.format == "json" and choice.text == '"hello"'
    assert "left out TOON (lint W1)" in choice.reason
    assert not eson.lint(eson.toon.encode("hello"), toon=True).ok


# -- "or null" on the level it belongs to ------------------------------------------------


class PCell(eson.Record):
    x: int
    tags: list[str] | None
    notes: list[str | None]


class PNulls(eson.Message):
    items: list[str | None]
    cells: list[PCell]
    maybe: list[str] | None = None


class MCell(eson.msgspec.Record):
    x: int
    tags: list[str] | None
    notes: list[str | None]


class MNulls(eson.msgspec.Message):
    items: list[str | None]
    cells: list[MCell]
    maybe: list[str] | None = None


NULL_LINES = {
    "eson": [
        "items[N]    N values, each string or null",
        "maybe[N]    N values, each string; or maybe=null for no list; optional, default null",
        "  tags: list of strings, or null for no list",
        "  notes: list of (strings or null)",
    ],
    "toon": [
        "items[N]: <values>    N values, each string or null",
        "maybe[N]: <values>    N values, each string; or maybe: null for no list; "
        "optional, default null",
        "  tags: list of strings, or null for no list",
        "  notes: list of (strings or null)",
    ],
}


@pytest.mark.parametrize("format", ["eson", "toon"])
@pytest.mark.parametrize("model", [PNulls, MNulls])
def test_the_prompt_says_or_null_on_its_level(model: type, format: str) -> None:
    lines = eson.prompt(model, format=format).splitlines()  # type: ignore[arg-type]
    for line in NULL_LINES[format]:
        assert line in lines, (line, lines)
    assert "each string or null; optional" not in "\n".join(lines)  # the old, wrong level


def test_type_words_keep_null_inside_containers() -> None:
    from typing import Optional

    from eson._internal.codecs.layout import type_words
    from eson._internal.schema.compile import document_schema

    binding = document_schema(PNulls).binding
    assert type_words(list[str | None], binding) == "list of (strings or null)"
    assert type_words(list[str] | None, binding) == "list of strings"  # the caller says null
    spelled = Optional[list[Optional[int]]]  # noqa: UP045 -- the old spelling, on purpose
    assert type_words(spelled, binding) == "list of (integers or null)"
    assert type_words(tuple[int, str | None], binding) == "list [integer, (string or null)]"
    assert type_words(list[list[str | None]], binding) == "list of list of (strings or null)"
    assert type_words(dict[str, int | None], binding) == "object of (integer or null) values by key"


@pytest.mark.parametrize("model", [PNulls, MNulls])
def test_a_value_written_as_the_prompt_says_is_read_so(model: type) -> None:
    import eson.toon

    eson_text = (
        '!eson/1\nitems[2]\nx\nnull\ncells[1]{x,tags,notes}\n1\tnull\t["a",null]\nmaybe=null\n'
    )
    toon_text = (
        "items[2]: x,null\ncells[1]:\n  - x: 1\n    tags: null\n    notes[2]: a,null\nmaybe: null\n"
    )
    for value in (
        eson.decode(eson_text, type=model),
        eson.toon.decode(toon_text, type=model),
        eson.parse_reply(f"```eson\n{eson_text}```", model),
    ):
        assert value.items == ["x", None]  # type: ignore[attr-defined]
        assert value.maybe is None  # type: ignore[attr-defined]
        assert value.cells[0].tags is None  # type: ignore[attr-defined]
        assert value.cells[0].notes == ["a", None]  # type: ignore[attr-defined]
    # and null on the other level is refused, as the prompt says
    wrong_item = "!eson/1\nitems[0]\ncells[0]{x,tags,notes}\nmaybe[2]\nx\nnull\n"
    with pytest.raises(eson.ESONError, match="maybe row 2: expected str, got null"):
        eson.decode(wrong_item, type=model)
    wrong_list = "!eson/1\nitems=null\ncells[0]{x,tags,notes}\n"
    with pytest.raises(eson.ESONError, match="items"):
        eson.decode(wrong_list, type=model)
    wrong_cell = "!eson/1\nitems[0]\ncells[1]{x,tags,notes}\n1\t[null]\tnull\n"
    with pytest.raises(eson.ESONError, match=r"cells row 1 \(tags\)"):
        eson.decode(wrong_cell, type=model)


def test_a_marker_in_code_or_in_a_quoted_string_closes_nothing() -> None:
    code = "```python\nprint('```')\nx = 1\n```\n"
    reply = f"{code}Answer:\n```eson\n{DOC}```\n"
    assert eson.extract(reply) == DOC
    assert dump(streamed(PReview, reply, 3)) == VALUE
    quoted = HEAD.replace("[2]", "[1]") + '1\thigh\ta.py\t3\t"use ``` fences"\n'
    value = eson.parse_reply(f"```eson\n{quoted}```\n", PReview)
    assert value.findings[0].message == "use ``` fences"
    assert streamed(PReview, f"```eson\n{quoted}```\n", 4) == value
    json_reply = '```json\n{"kind": "review", "findings": [\n{"severity": "low", "file": "```x", '
    json_reply += '"line": 1, "message": "m"}]}\n```\n'
    assert eson.parse_reply(json_reply, PReview).findings[0].file == "```x"


BODIES = {
    "document": DOC,
    "headerless": DOC.removeprefix("!eson/1\n"),
    "prose": "hello: world, this is not it\nand more\n",
}


@pytest.mark.parametrize(
    "tag", ["", "eson", "toon", "json", "yaml", "text", "csv", "made-up", "python", "sh"]
)
@pytest.mark.parametrize("close", ["```\n", "``` thanks!\n", ""])
@pytest.mark.parametrize("body", list(BODIES))
def test_locate_and_the_stream_read_fences_alike(tag: str, close: str, body: str) -> None:
    text = BODIES[body]
    inner = text[:-1] + close if close != "```\n" else text + close  # mid-line or own line
    reply = f"Here it is:\n```{tag}\n{inner}Bye.\n" if close else f"```{tag}\n{text}"
    try:
        whole: object = dump(eson.parse_reply(reply, PReview, formats=("eson",)))
    except eson.ESONError as exc:
        whole = type(exc)
    for size in (1, 6):
        try:
            stream: object = dump(streamed(PReview, reply, size))
        except eson.ESONError as exc:
            stream = type(exc)
        assert stream == whole, (reply, size)
    # An unclosed fence means the reply was cut (issue 16, truncation): never a value.
    expected_value = body != "prose" and tag not in ("python", "sh") and close != ""
    assert (whole == VALUE) is expected_value, reply
    if close == "" and body != "prose" and tag not in ("python", "sh"):
        assert whole is eson.TruncatedError


# -- the loop: a model that fixes only what the feedback tells it -------------------------


class SlipModel:
    """Copies ``[N]``, writes spaces for TABs and a trailing TAB, in a ```yaml fence.

    It fixes a slip only when the feedback names it, so the loop ends only
    if every feedback text says what to change.
    """

    def __init__(self) -> None:
        self.count = False  # writes the number of rows, not N
        self.tabs = False  # separates cells by TABs
        self.trail = True  # ends the first row with a TAB

    def reply(self, feedback: str | None) -> str:
        if feedback is not None:
            self.count = self.count or "must be the number of rows that follow" in feedback
            self.tabs = self.tabs or "this row uses spaces" in feedback
            self.trail = self.trail and "this row ends with a TAB" not in feedback
        rows = [["1", "high", "a.py", "3", "bad"], ["2", "low", "b.py", "4", "zeta"]]
        lines = [("\t" if self.tabs else "  ").join(row) for row in rows]
        if self.trail:
            lines[0] += "\t"
        head = HEAD if self.count else HEAD.replace("[2]", "[N]")
        return "Here you go:\n```yaml\n" + head + "\n".join(lines) + "\n```\nHope this helps!"


@pytest.mark.parametrize("model", MODELS)
def test_every_slip_is_fixed_from_the_feedback_alone(model: type) -> None:
    fake = SlipModel()
    feedback: str | None = None
    texts: list[str] = []
    for _ in range(4):
        try:
            value = eson.parse_reply(fake.reply(feedback), model)
        except eson.ESONError as error:
            feedback = error.feedback
            texts.append(str(error))
            continue
        assert dump(value) == VALUE
        break
    else:
        pytest.fail(f"the loop did not end: {texts}")
    assert len(texts) == 3, texts  # one round per slip: [N], spaces, the trailing TAB


def test_an_empty_fence_is_skipped_alike() -> None:
    reply = f"```eson\n```\nNow the real one:\n```eson\n{DOC}```\n"
    assert dump(eson.parse_reply(reply, PReview)) == VALUE
    assert dump(streamed(PReview, reply, 3)) == VALUE


def test_the_toon_stream_reads_a_fence_by_its_content_too() -> None:
    toon_text = "kind: review\nfindings[1]{severity,file,line,message}:\n  high,a.py,3,bad\n"
    reply = f"```eson\n{DOC}```\n```yaml\n{toon_text}```\n"
    decoder = eson.StreamDecoder(PReview, format="toon")
    decoder.feed(reply)
    assert decoder.close() == eson.parse_reply(reply, PReview, formats=("toon",))
