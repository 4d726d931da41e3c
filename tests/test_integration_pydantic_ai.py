"""eson.integrations.pydantic_ai against real pydantic-ai agents and its own test models.

``FunctionModel`` plays a model that writes a damaged ESON or TOON reply,
reads the feedback pydantic-ai sends back on retry, and fixes the reply;
``TestModel`` plays one that answers at once.  Streaming runs through
``agent.run_stream(...).stream_output()``.  No network.  Without the
``pydantic-ai`` extra the module skips (fails under ``CI=1`` on Python 3.11+,
where the extra installs).
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator
from typing import Any, Literal

import pytest

try:
    import eson.integrations.pydantic_ai  # importing it is the check
except ImportError as exc:  # the extra is not installed
    if os.environ.get("CI") and sys.version_info >= (3, 11):
        pytest.fail(f"CI installs typed-eson[pydantic-ai]: {exc}", pytrace=False)
    pytest.skip(f"needs typed-eson[pydantic-ai] (Python 3.11+): {exc}", allow_module_level=True)

from pydantic_ai import Agent, TextOutput, ToolReturn
from pydantic_ai.exceptions import UnexpectedModelBehavior
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryFeedbackPart,
    RetryPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.test import TestModel

import eson
import eson.msgspec
from eson import toon
from eson.integrations.pydantic_ai import instructions, text_output, tool_return


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
    message: str


class MsgReview(eson.msgspec.Message):
    summary: str
    findings: list[MsgFinding]


ROWS = [
    ("high", "src/auth.py", 42, "token never expires"),
    ("medium", "src/api.py", 18, "no rate limit, so one client can starve the rest"),
    ("low", "src/ui.py", 7, "typo in label"),
]


def review(cls: type[Any] = Review, rows: int = 3) -> Any:
    record = MsgFinding if cls is MsgReview else Finding
    findings = [record(severity=s, file=f, line=n, message=m) for s, f, n, m in (ROWS * 10)[:rows]]
    return cls(summary="three issues", findings=findings)


def write(value: Any, format: str) -> str:
    return eson.encode(value) if format == "eson" else toon.encode(value)


def damage(text: str, format: str) -> str:
    """The reply a model writes when it miscounts its rows, wrapped in chat."""
    damaged = text.replace("findings[3]", "findings[4]", 1)
    assert damaged != text
    return f"Here is the review you asked for:\n\n```{format}\n{damaged.rstrip()}\n```\n\nLet me know!"


def request_text(message: ModelMessage) -> str:
    """What the model reads in one request (user prompts and retry prompts)."""
    assert isinstance(message, ModelRequest)
    texts = []
    for part in message.parts:
        if isinstance(part, RetryPromptPart):
            texts.append(part.model_response())
        elif isinstance(part, UserPromptPart) and isinstance(part.content, str):
            texts.append(part.content)
    return "\n".join(texts)


# -- the retry loop ------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [Review, MsgReview])
@pytest.mark.parametrize("format", ["eson", "toon"])
def test_a_damaged_reply_is_fixed_after_exactly_one_retry(cls: type[Any], format: str) -> None:
    expected = review(cls)
    good = write(expected, format)
    bad = damage(good, format)
    bad_line = next(i for i, line in enumerate(bad.splitlines(), 1) if "findings[4]" in line)
    seen: list[list[ModelMessage]] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(list(messages))
        if len(seen) == 1:
            assert info.instructions == instructions(cls, format=format)
            return ModelResponse(parts=[TextPart(bad)])
        # the model reads pydantic-ai's retry request: our feedback, with the layout
        feedback = request_text(messages[-1])
        assert "declares 4 rows" in feedback
        assert f"line {bad_line}:" in feedback  # a line of the reply as the model wrote it
        assert "findings[N]{severity,file,line,message}" in feedback
        assert "one of high, medium, low" in feedback
        # as the instructions ask: in a closed fence (a bare reply might be cut off)
        return ModelResponse(parts=[TextPart(f"```{format}\n{good.rstrip()}\n```")])

    agent = Agent(
        FunctionModel(model),
        output_type=text_output(cls, format=format),
        instructions=instructions(cls, format=format),
    )
    result = agent.run_sync("Review the diff")
    assert result.output == expected
    assert len(seen) == 2  # one reply, one retry
    retries = [
        part
        for message in result.all_messages()
        for part in message.parts
        if isinstance(part, RetryFeedbackPart)
    ]
    assert len(retries) == 1
    assert "findings[N]{severity,file,line,message}" in str(retries[0].content)


def test_feedback_for_a_value_the_schema_rejects_names_the_allowed_values() -> None:
    expected = review()
    good = expected.to_eson()
    bad = good.replace("\nhigh\t", "\ncritical\t", 1)
    assert bad != good
    replies = [bad, good]
    feedbacks: list[str] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(replies) == 1:
            feedbacks.append(request_text(messages[-1]))
        # a bare reply is read as complete when the provider says the model stopped
        return ModelResponse(parts=[TextPart(replies.pop(0))], finish_reason="stop")

    agent = Agent(FunctionModel(model), output_type=text_output(Review))
    assert agent.run_sync("Review").output == expected
    (feedback,) = feedbacks
    assert "findings row 1 (severity)" in feedback
    assert "high, medium, low" in feedback


def test_a_reply_that_stays_broken_exhausts_the_retries() -> None:
    calls = 0

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        nonlocal calls
        calls += 1
        return ModelResponse(parts=[TextPart("I could not review this, sorry.")])

    agent = Agent(FunctionModel(model), output_type=text_output(Review), retries={"output": 2})
    with pytest.raises(UnexpectedModelBehavior, match="retries"):
        agent.run_sync("Review")
    assert calls == 3


def test_test_model_answering_at_once() -> None:
    expected = review()
    for text in (
        f"```eson\n{expected.to_eson()}```",
        f"```toon\n{expected.to_toon()}\n```",
        expected.model_dump_json(indent=2),  # JSON is its own end mark
    ):
        agent = Agent(TestModel(custom_output_text=text), output_type=text_output(Review))
        assert agent.run_sync("Review").output == expected


def test_formats_limit_what_a_reply_may_be() -> None:
    expected = review()
    replies = [expected.model_dump_json(), expected.to_eson()]

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return ModelResponse(parts=[TextPart(replies.pop(0))], finish_reason="stop")

    agent = Agent(FunctionModel(model), output_type=text_output(Review, formats=("eson",)))
    assert agent.run_sync("Review").output == expected
    assert replies == []  # the JSON reply was refused, the ESON one taken


def test_text_output_is_a_pydantic_ai_text_output_and_checks_its_arguments() -> None:
    spec = text_output(Review, format="toon")
    assert isinstance(spec, TextOutput)
    assert spec.output_function.__name__ == "read_Review_reply"
    with pytest.raises(ValueError, match="format"):
        text_output(Review, format="yaml")
    with pytest.raises(ValueError, match="formats"):
        text_output(Review, formats=())
    with pytest.raises(ValueError, match="formats"):
        text_output(Review, formats=("eson", "xml"))
    assert instructions(Review) == eson.prompt(Review)
    assert instructions(Review, format="toon", example=False) == eson.prompt(
        Review, format="toon", example=False
    )


# -- streaming -------------------------------------------------------------------------------


def chunked(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


@pytest.mark.parametrize("format", ["eson", "toon"])
def test_streamed_output_grows_row_by_row(format: str) -> None:
    expected = review(rows=12)
    reply = f"Sure.\n```{format}\n{write(expected, format).rstrip()}\n```\n"

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        for chunk in chunked(reply, 5):
            yield chunk

    def never(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        raise AssertionError("a streaming run calls the stream function")

    agent = Agent(
        FunctionModel(never, stream_function=stream), output_type=text_output(Review, format=format)
    )

    async def run() -> list[Review]:
        outputs: list[Review] = []
        async with agent.run_stream("Review") as result:
            async for output in result.stream_output(debounce_by=None):
                outputs.append(output)
        return outputs

    outputs = asyncio.run(run())
    assert outputs[-1] == expected
    assert all(isinstance(output, Review) for output in outputs)
    counts = [len(output.findings) for output in outputs]
    assert counts == sorted(counts)
    assert set(range(1, 13)) <= set(counts)  # every row shows up as its line completes
    for output in outputs:  # each partial value holds the expected rows so far
        assert output.findings == expected.findings[: len(output.findings)]
        assert output.summary == expected.summary


def test_streamed_damaged_reply_is_pydantic_ai_s_streaming_error_with_the_feedback() -> None:
    reply = damage(review().to_eson(), "eson")

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        for chunk in chunked(reply, 8):
            yield chunk

    agent = Agent(
        FunctionModel(lambda m, i: ModelResponse(parts=[]), stream_function=stream),
        output_type=text_output(Review),
    )

    async def run() -> list[Review]:
        outputs: list[Review] = []
        async with agent.run_stream("Review") as result:
            async for output in result.stream_output(debounce_by=None):
                outputs.append(output)
        return outputs

    with pytest.raises(UnexpectedModelBehavior) as caught:
        asyncio.run(run())
    assert "findings[N]{severity,file,line,message}" in str(caught.value.__cause__)


# -- tool returns -------------------------------------------------------------------------


def test_tool_return_sends_eson_to_the_model_and_keeps_the_object() -> None:
    found = review()
    seen: list[Any] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        last = messages[-1].parts[-1]
        if isinstance(last, ToolReturnPart):
            seen.append(last.content)
            return ModelResponse(parts=[TextPart(str(last.content))], finish_reason="stop")
        return ModelResponse(parts=[ToolCallPart("lookup", {"path": "src"})])

    agent = Agent(FunctionModel(model), output_type=text_output(Review))

    @agent.tool_plain
    def lookup(path: str) -> ToolReturn:
        """Look the findings up."""
        return tool_return(found)

    result = agent.run_sync("Review")
    assert seen == [found.to_eson()]  # the model read ESON
    parts = [
        part
        for message in result.all_messages()
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    ]
    assert [part.metadata for part in parts] == [found]  # the application keeps the object
    assert result.output == found


def test_tool_return_formats() -> None:
    found = review()
    assert tool_return(found).return_value == found.to_eson()
    assert tool_return(found, format="toon").return_value == found.to_toon()
    assert tool_return(found, format="json").return_value == found.model_dump_json()
    assert tool_return(found, format="columnar").return_value == eson.columnar.encode(found)
    auto = tool_return(found, format="auto", accept=["toon", "json"])
    assert auto.return_value == eson.choose(found, accept=["toon", "json"]).text
    assert auto.metadata is found
    rows = [{"a": 1}, {"a": 2}]  # not an object: ESON cannot hold it, compact JSON can
    assert tool_return(rows).return_value == '[{"a":1},{"a":2}]'
    assert tool_return(found, format="eson", number=True).return_value == eson.encode(
        found, number=True
    )
    with pytest.raises(ValueError, match="format"):
        tool_return(found, format="yaml")  # type: ignore[arg-type]
    with pytest.raises(eson.EncodeError):
        tool_return({"a": float("nan")}, format="json")
