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
