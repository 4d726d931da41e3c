"""eson.integrations.langchain in real LangChain chains with langchain-core's fake chat models.

Every chain is ``prompt | model | parser`` built from langchain-core's own
classes; ``FakeListChatModel`` streams its reply one character per chunk,
``GenericFakeChatModel`` word by word.  Without the ``langchain`` extra the
module skips (fails under ``CI=1`` on Python 3.11+, where the extra installs).
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any, Literal

import pytest

try:
    import eson.integrations.langchain  # importing it is the check
except ImportError as exc:  # the extra is not installed
    if os.environ.get("CI") and sys.version_info >= (3, 11):
        pytest.fail(f"CI installs typed-eson[langchain]: {exc}", pytrace=False)
    pytest.skip(f"needs typed-eson[langchain] (Python 3.11+): {exc}", allow_module_level=True)

from langchain_core.exceptions import ModelRefusalError, OutputParserException
from langchain_core.language_models.fake_chat_models import (
    FakeListChatModel,
    GenericFakeChatModel,
)
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.output_parsers import BaseCumulativeTransformOutputParser, BaseOutputParser
from langchain_core.outputs import ChatGeneration, Generation
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.runnables import Runnable

import eson
import eson.msgspec
from eson import toon
from eson.integrations import partial as partial_module
from eson.integrations.langchain import ESONOutputParser


class Finding(eson.Record):
    """One problem in the code."""

    severity: Literal["high", "medium", "low"]
    file: str
    line: int
    message: str


class Review(eson.Message):
    summary: str
    findings: list[Finding]


class MsgFinding(eson.msgspec.Record):
    severity: Literal["high", "medium", "low"]
    file: str
    line: int


class MsgReview(eson.msgspec.Message):
    summary: str
    findings: list[MsgFinding]


def review(rows: int = 3) -> Review:
    base = [
        ("high", "src/auth.py", 42, "token never expires"),
        ("medium", "src/api.py", 18, "no rate limit, so one client can starve the rest"),
        ("low", "src/ui.py", 7, "typo in label"),
    ]
    findings = [
        Finding(severity=s, file=f, line=n + 100 * (i // 3), message=m)  # type: ignore[arg-type]
        for i, (s, f, n, m) in enumerate((base * 20)[:rows])
    ]
    return Review(summary=f"{rows} issues", findings=findings)


def write(value: Any, format: str) -> str:
    return eson.encode(value) if format == "eson" else toon.encode(value) + "\n"


def fenced(text: str, format: str = "eson") -> str:
    """A reply as the format instructions ask for it: the document in a closed fence."""
    return f"```{format}\n{text.rstrip()}\n```"


PROMPT = ChatPromptTemplate.from_messages(
    [("system", "{format_instructions}"), MessagesPlaceholder("history"), ("human", "{request}")]
)


def chain(parser: ESONOutputParser[Any], *replies: str) -> Runnable[dict[str, Any], Any]:
    prompt = PROMPT.partial(format_instructions=parser.get_format_instructions())
    return prompt | FakeListChatModel(responses=list(replies)) | parser


ASK = {"request": "Review the diff", "history": []}


# -- invoke ------------------------------------------------------------------------------


@pytest.mark.parametrize("format", ["eson", "toon"])
def test_chain_invoke_reads_the_reply_into_the_model(format: str) -> None:
    expected = review()
    parser = ESONOutputParser(Review, format=format)
    assert isinstance(parser, BaseOutputParser)
    assert isinstance(parser, BaseCumulativeTransformOutputParser)
    # A bare document has no end mark: it may be cut off, so by default it is refused ...
    with pytest.raises(OutputParserException) as caught:
        chain(parser, write(expected, format)).invoke(ASK)
    assert isinstance(caught.value.__cause__, eson.TruncatedError)
    # ... and read when the parser is told not to require one.
    bare = ESONOutputParser(Review, format=format, require_end=False)
    assert chain(bare, write(expected, format)).invoke(ASK) == expected
    for reply in (
        fenced(write(expected, format), format),
        f"Here is my review.\n\n```{format}\n{write(expected, format)}```\nAnything else?",
        expected.model_dump_json(indent=2),  # JSON instead: allowed by default
    ):
        assert chain(parser, reply).invoke(ASK) == expected


def test_format_instructions_are_eson_prompt_and_reach_the_model() -> None:
    parser = ESONOutputParser(Review)
    assert parser.get_format_instructions() == eson.prompt(Review)
    assert ESONOutputParser(Review, format="toon").get_format_instructions() == eson.prompt(
        Review, format="toon"
    )
    prompt = PROMPT.partial(format_instructions=parser.get_format_instructions())
    messages = prompt.invoke(ASK).to_messages()
    assert messages[0].content == eson.prompt(Review)
    assert parser.OutputType is Review
    assert ESONOutputParser(MsgReview).OutputType is MsgReview


def test_msgspec_models() -> None:
    expected = MsgReview(
        summary="two", findings=[MsgFinding("high", "a.py", 1), MsgFinding("low", "b.py", 2)]
    )
    parser = ESONOutputParser(MsgReview)
    assert chain(parser, fenced(eson.encode(expected))).invoke(ASK) == expected
    streamed = list(chain(parser, fenced(eson.encode(expected))).stream(ASK))
    assert streamed[-1] == expected
    assert [len(part.findings) for part in streamed] == [1, 2]


# -- errors and the retry loop --------------------------------------------------------------


def test_a_bad_reply_raises_output_parser_exception_with_the_feedback() -> None:
    good = review().to_eson()
    bad = fenced(good.replace("\nmedium\t", "\nurgent\t", 1))
    assert bad != fenced(good)
    with pytest.raises(OutputParserException) as caught:
        chain(ESONOutputParser(Review), bad).invoke(ASK)
    error = caught.value
    cause = error.__cause__
    assert isinstance(cause, eson.ValidationError)
    assert error.observation == cause.feedback
    assert str(error).startswith(cause.feedback)
    assert error.llm_output == bad
    assert error.send_to_llm is True
    assert "findings row 2 (severity)" in cause.feedback
    assert "one of high, medium, low" in cause.feedback


def test_the_feedback_fixes_the_reply_in_one_retry() -> None:
    good = review().to_eson()
    damaged = "Sure!\n" + fenced(good.replace("findings[3]", "findings[2]", 1))
    parser = ESONOutputParser(Review)
    model = FakeListChatModel(responses=[damaged, fenced(good)])
    prompt = PROMPT.partial(format_instructions=parser.get_format_instructions())
    steps = prompt | model
    history: list[BaseMessage] = []
    attempts = 0
    while True:
        attempts += 1
        reply = steps.invoke({"request": "Review the diff", "history": history})
        try:
            result = parser.invoke(reply)
            break
        except OutputParserException as error:
            assert error.observation is not None
            assert "findings[N]{severity,file,line,message}" in error.observation
            history += [reply, HumanMessage(error.observation)]
    assert attempts == 2
    assert result == review()


def test_a_refusal_is_langchain_s_refusal_error() -> None:
    refusal = AIMessage(content=[{"type": "refusal", "refusal": "I cannot review this."}])
    with pytest.raises(ModelRefusalError):
        ESONOutputParser(Review).invoke(refusal)


def test_parse_result_partial_never_raises() -> None:
    parser = ESONOutputParser(Review)
    text = review().to_eson()
    cut = text[: text.index("src/api.py")]
    value = parser.parse_result([Generation(text=cut)], partial=True)
    assert value == Review(summary="3 issues", findings=review().findings[:1])
    assert parser.parse_result([Generation(text="nonsense")], partial=True) is None
    assert parser.parse_result([Generation(text="!eson/1\nsummary=x\n")], partial=True) is None
    # a bare reply is complete when the message's stop reason says the model stopped
    done = AIMessage(text, response_metadata={"finish_reason": "stop"})
    assert parser.parse_result([ChatGeneration(message=done)]) == review()
    with pytest.raises(OutputParserException):
        parser.parse_result([Generation(text=cut)])


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="format"):
        ESONOutputParser(Review, format="yaml")
    with pytest.raises(ValueError, match="formats"):
        ESONOutputParser(Review, formats=["eson", "xml"])
    with pytest.raises(ValueError, match="formats"):
        ESONOutputParser(Review, formats=[])
    only = ESONOutputParser(Review, formats="eson")
    with pytest.raises(OutputParserException):
        only.parse(review().model_dump_json())


# -- streaming ------------------------------------------------------------------------------


@pytest.mark.parametrize("format", ["eson", "toon"])
def test_streaming_yields_the_value_so_far_row_by_row(format: str) -> None:
    expected = review(rows=15)
    reply = f"Here it is:\n```{format}\n{write(expected, format)}```\n"
    parser = ESONOutputParser(Review, format=format)
    parts = list(chain(parser, reply).stream(ASK))
    assert all(isinstance(part, Review) for part in parts)
    assert [len(part.findings) for part in parts] == list(range(1, 16))
    for part in parts:
        assert part.summary == expected.summary
        assert part.findings == expected.findings[: len(part.findings)]
    assert parts[-1] == expected == chain(parser, reply).invoke(ASK)


def test_async_streaming_and_word_chunks() -> None:
    expected = review(rows=6)
    parser = ESONOutputParser(Review)

    async def collect() -> list[Review]:
        return [part async for part in chain(parser, fenced(expected.to_eson())).astream(ASK)]

    parts = asyncio.run(collect())
    assert [len(part.findings) for part in parts] == list(range(1, 7))
    assert parts[-1] == expected
    # a model that streams word by word (chunks split at spaces, TABs and newlines)
    words = GenericFakeChatModel(messages=iter([fenced(expected.to_eson())]))
    prompt = PROMPT.partial(format_instructions=parser.get_format_instructions())
    streamed = list((prompt | words | parser).stream(ASK))
    assert streamed[-1] == expected
    assert [len(part.findings) for part in streamed] == list(range(1, 7))


@pytest.mark.parametrize("format", ["eson", "toon"])
def test_diff_streaming_yields_each_entry_and_row_once(format: str) -> None:
    expected = review(rows=5)
    reply = write(expected, format).rstrip("\n")  # the last row ends the stream, not a line
    parser = ESONOutputParser(Review, format=format, diff=True, require_end=False)
    batches = list(chain(parser, reply).stream(ASK))
    events = [event for batch in batches for event in batch]
    assert all(isinstance(event, eson.Event) for event in events)
    assert [(event.section, event.row) for event in events] == [("summary", None)] + [
        ("findings", row) for row in range(1, 6)
    ]
    assert [event.value for event in events[1:]] == expected.findings
    whole = eson.StreamDecoder(Review, format=format)
    assert list(whole.events([reply])) == events


def test_streaming_feeds_each_character_once(monkeypatch: pytest.MonkeyPatch) -> None:
    fed: list[str] = []
    original = partial_module.PartialReply.feed

    def feed(self: partial_module.PartialReply[Any], chunk: str) -> list[eson.Event]:
        fed.append(chunk)
        return original(self, chunk)

    monkeypatch.setattr(partial_module.PartialReply, "feed", feed)
    reply = fenced(review(rows=40).to_eson())
    parts = list(chain(ESONOutputParser(Review), reply).stream(ASK))
    assert len(parts) == 40
    assert "".join(fed) == reply  # each chunk read once: linear, not the text so far again


def test_a_stream_cut_short_or_damaged_raises_at_the_end() -> None:
    text = review(rows=4).to_eson()
    parser = ESONOutputParser(Review, require_end=False)  # the cuts read as they stand
    for cut, reason in (
        (text[: text.rstrip("\n").rindex("\n") + 1], "declares 4 rows"),  # stopped after a row
        (text[: text.rindex("src/")], "row 4: expected 4 cells, got 2"),  # ... or in one
    ):
        seen: list[Review] = []
        with pytest.raises(OutputParserException) as caught:
            for part in chain(parser, cut).stream(ASK):
                seen.append(part)
        assert [len(part.findings) for part in seen] == [1, 2, 3]  # never a short final value
        cause = caught.value.__cause__
        assert isinstance(cause, eson.DecodeError)
        assert cause.section == "findings"
        assert reason in str(cause)
        # the stream's end is read as invoke() reads the whole reply: the same error
        with pytest.raises(OutputParserException) as invoked:
            chain(parser, cut).invoke(ASK)
        assert str(invoked.value) == str(caught.value)
    damaged = text.replace("\t42\t", "\tforty-two\t")
    with pytest.raises(OutputParserException) as caught:
        list(chain(parser, damaged).stream(ASK))
    assert isinstance(caught.value.__cause__, eson.ValidationError)
    assert caught.value.__cause__.field == "line"


def test_a_json_reply_streams_to_the_same_value_as_invoke() -> None:
    expected = review()
    reply = expected.model_dump_json(indent=2)
    parser = ESONOutputParser(Review)
    assert list(chain(parser, reply).stream(ASK)) == [expected]
    assert list(chain(ESONOutputParser(Review, diff=True), reply).stream(ASK)) == []
