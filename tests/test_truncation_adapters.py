"""Truncation through the framework adapters: each passes the stop reason and wants the fence.

The core rules are tested in ``tests/test_truncation.py``; here the same
replies, cut at every character, go through the pydantic-ai output
function, LangChain's parser (whole and streamed) with the stop reason in
the framework's own response objects, and through LangChain's ``parse``
with no stop reason at all (the closing fence the adapters require
decides).  Without the extras the module skips (fails under ``CI=1`` on
Python 3.11+, where they install).
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest

try:  # importing them is the check
    import eson.integrations.langchain
    import eson.integrations.mcp
    import eson.integrations.pydantic_ai
except ImportError as exc:  # the extras are not installed
    if os.environ.get("CI") and sys.version_info >= (3, 11):
        pytest.fail(f"CI installs the framework extras: {exc}", pytrace=False)
    pytest.skip(f"needs the framework extras (Python 3.11+): {exc}", allow_module_level=True)

from langchain_core.exceptions import OutputParserException
from langchain_core.messages import AIMessage, AIMessageChunk
from langchain_core.outputs import ChatGeneration, Generation
from mcp.types import CreateMessageResult, TextContent
from pydantic_ai import Agent, ModelRetry
from pydantic_ai.messages import ModelMessage, ModelResponse, RetryFeedbackPart, TextPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from test_truncation import CASES, CUT_POINTS, ISSUE_REPLY, Case, Review, Rows, review, tally

import eson
from eson import Repair
from eson.agent.stop import stop_kind
from eson.integrations.langchain import ESONOutputParser
from eson.integrations.pydantic_ai import text_output

CUT = "length"


def test_the_stop_reason_of_each_framework_s_response() -> None:
    for cut in (
        ModelResponse(parts=[TextPart("x")], finish_reason="length"),
        AIMessage("x", response_metadata={"finish_reason": "length"}),
        AIMessage("x", response_metadata={"stop_reason": "max_tokens"}),
        ChatGeneration(message=AIMessage("x", response_metadata={"finish_reason": "length"})),
        Generation(text="x", generation_info={"finish_reason": "length"}),
        CreateMessageResult(
            role="assistant",
            content=TextContent(type="text", text="x"),
            model="m",
            stopReason="maxTokens",
        ),
    ):
        assert stop_kind(cut) == "cut", cut
    assert stop_kind(AIMessage("x")) == "unknown"
    assert stop_kind(ModelResponse(parts=[TextPart("x")], finish_reason="stop")) == "complete"


def test_adapters_require_the_closing_fence_by_default() -> None:
    whole = ISSUE_REPLY + "ra\n"
    with pytest.raises(OutputParserException) as caught:
        ESONOutputParser(Rows).parse(whole)
    assert isinstance(caught.value.__cause__, eson.TruncatedError)
    assert ESONOutputParser(Rows).parse(f"```eson\n{whole}```").rows[2].b == "zebra"
    read = text_output(Rows).output_function
    with pytest.raises(ModelRetry, match="ended too early"):
        read(_context(None), whole)  # type: ignore[call-arg]
    assert read(_context("stop"), whole).rows[2].b == "zebra"  # type: ignore[call-arg]




# -- the stop reason, from each framework's response -------------------------------------------


def _context(reason: object) -> Any:
    """The part of pydantic-ai's RunContext the output function reads (a response was read)."""
    response = ModelResponse(parts=[TextPart("")], finish_reason=reason)  # type: ignore[arg-type]
    return SimpleNamespace(run_id="run", run_step=1, partial_output=False, messages=[response])


def test_pydantic_ai_retries_a_reply_that_stopped_for_length() -> None:
    expected = review(Review)
    good = f"```eson\n{expected.to_eson()}```"
    cut = good[: good.index("typo in la") + 10]
    replies = [
        ModelResponse(parts=[TextPart(cut)], finish_reason="length"),
        ModelResponse(parts=[TextPart(good)]),
    ]

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return replies.pop(0)

    agent = Agent(FunctionModel(model), output_type=text_output(Review, require_end=False))
    result = agent.run_sync("Review")
    assert result.output == expected
    feedback = [
        str(part.content)
        for message in result.all_messages()
        for part in message.parts
        if isinstance(part, RetryFeedbackPart)
    ]
    (text,) = feedback
    assert "cut off after row 2 of 3 of 'findings'" in text
    assert "stop reason 'length'" in text


def test_langchain_reads_the_stop_reason_of_a_generation_and_of_a_stream() -> None:
    parser = ESONOutputParser(Rows, require_end=False)
    message = AIMessage(ISSUE_REPLY, response_metadata={"finish_reason": "length"})
    with pytest.raises(OutputParserException) as caught:
        parser.parse_result([ChatGeneration(message=message)])
    assert isinstance(caught.value.__cause__, eson.TruncatedError)
    chunks = [AIMessageChunk(content=ISSUE_REPLY[i : i + 4]) for i in range(0, len(ISSUE_REPLY), 4)]
    chunks.append(AIMessageChunk(content="", response_metadata={"stop_reason": "max_tokens"}))
    with pytest.raises(OutputParserException) as streamed:
        list(parser.transform(iter(chunks)))
    assert isinstance(streamed.value.__cause__, eson.TruncatedError)

    async def collect() -> list[Any]:
        async def source() -> Any:
            for chunk in chunks:
                yield chunk

        return [part async for part in parser.atransform(source())]

    with pytest.raises(OutputParserException):
        asyncio.run(collect())


def test_mcp_sampling_results_carry_their_stop_reason() -> None:
    result = CreateMessageResult(
        role="assistant",
        content=TextContent(type="text", text=ISSUE_REPLY),
        model="m",
        stopReason="maxTokens",
    )
    assert isinstance(result.content, TextContent)
    with pytest.raises(eson.TruncatedError):
        eson.parse_reply(result.content.text, Rows, stop_reason=result)




def _pydantic_ai(case: Case, text: str) -> tuple[Any, list[Repair]]:
    read: Callable[..., Any] = text_output(case.model, format=case.format).output_function
    return read(_context(CUT), text), []


def _langchain(case: Case, text: str) -> tuple[Any, list[Repair]]:
    parser = ESONOutputParser(case.model, format=case.format)
    message = AIMessage(text, response_metadata={"finish_reason": CUT})
    return parser.parse_result([ChatGeneration(message=message)]), []


def _langchain_stream(case: Case, text: str) -> tuple[Any, list[Repair]]:
    parser = ESONOutputParser(case.model, format=case.format)

    def chunks() -> Iterator[AIMessageChunk]:
        for start in range(0, len(text), 11):
            yield AIMessageChunk(content=text[start : start + 11])
        yield AIMessageChunk(content="", response_metadata={"finish_reason": CUT})

    parts = list(parser.transform(chunks()))
    return (parts[-1] if parts else None), []


def _langchain_no_stop_reason(case: Case, text: str) -> tuple[Any, list[Repair]]:
    # parse() gets text only: the closing fence the adapter requires decides
    return ESONOutputParser(case.model, format=case.format).parse(text), []


READERS = {
    "pydantic-ai text_output": _pydantic_ai,
    "LangChain parse_result": _langchain,
    "LangChain stream": _langchain_stream,
    "LangChain parse (no stop reason)": _langchain_no_stop_reason,
}
EVERY = {"LangChain stream": 3}  # the slowest reader reads every third cut point


def test_every_cut_point_of_every_reply_through_every_adapter() -> None:
    counts = tally(READERS, EVERY, (OutputParserException, ModelRetry))
    for name, found in counts.items():
        step = EVERY.get(name, 1)
        assert sum(found.values()) == sum(len(range(0, len(c.reply) + 1, step)) for c in CASES)
        assert found["silent"] == 0
        assert found["error"] > 0
        assert found["whole"] > 0  # the fenced replies, once their fence closed
    assert counts["LangChain parse_result"]["error"] + counts["LangChain parse_result"][
        "whole"
    ] == CUT_POINTS
