"""eson.integrations.openai_agents against the real OpenAI Agents SDK, with no network.

The model is the SDK's own test double, ``agents.testing.ScriptedModel``
(an implementation of the SDK's ``Model`` interface that answers from a
script): no API key, no request leaves the process, tracing is off.  The
runs are the SDK's real ``Runner`` with real function tools.  Without the
``openai-agents`` extra the module skips (fails under ``CI=1``).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from typing import Any, Literal

import pytest

try:
    from eson.integrations import openai_agents as eson_agents
except ImportError as exc:  # the extra is not installed
    if os.environ.get("CI"):
        pytest.fail(f"CI installs typed-eson[openai-agents]: {exc}", pytrace=False)
    pytest.skip(f"needs typed-eson[openai-agents]: {exc}", allow_module_level=True)

from agents import Agent, Runner, function_tool, set_tracing_disabled
from agents.items import ModelResponse
from agents.testing import ScriptedModel, assistant_message, function_call
from agents.usage import Usage
from openai.types.responses import ResponseTextDeltaEvent

import eson
import eson.msgspec
from eson import toon
from eson.integrations.openai_agents import (
    instructions,
    read_output,
    run,
    stop_reason,
    stream,
    tool_output,
)

set_tracing_disabled(True)


class Finding(eson.Record):
    severity: Literal["high", "medium", "low"]
    file: str
    line: int


class Review(eson.Message):
    summary: str
    findings: list[Finding]


class MsgFinding(eson.msgspec.Record):
    file: str
    line: int


class MsgReview(eson.msgspec.Message):
    summary: str
    findings: list[MsgFinding]


def review(rows: int) -> Review:
    return Review(
        summary="two problems" if rows == 2 else f"{rows} findings",
        findings=[
            Finding(severity=("high", "medium", "low")[i % 3], file=f"src/f{i}.py", line=i + 1)
            for i in range(rows)
        ],
    )


def agent(model: ScriptedModel, **kwargs: Any) -> Agent[Any]:
    return Agent(name="reviewer", instructions=instructions(Review), model=model, **kwargs)


def last_user_text(model: ScriptedModel, call: int) -> str:
    items = model.calls[call].input
    assert isinstance(items, list)
    content = items[-1]["content"]
    assert isinstance(content, str)
    return content


@pytest.mark.parametrize("format", ["eson", "toon", "auto"])
def test_a_function_tool_sends_its_typed_return_as_eson_or_toon(format: str) -> None:
    found = review(6)

    @function_tool
    def lookup(path: str) -> str:
        """The findings in a file."""
        return tool_output(found, format=format)  # type: ignore[arg-type]

    model = ScriptedModel(
        [
            [function_call("lookup", {"path": "src"}, call_id="call-1")],
            [assistant_message(found.to_eson())],
        ]
    )
    result = asyncio.run(run(agent(model, tools=[lookup]), "Review src", Review))
    assert result == found
    sent = model.calls[1].input
    assert isinstance(sent, list)
    (output,) = [item for item in sent if item.get("type") == "function_call_output"]
    text = output["output"]
    expected = {
        "eson": found.to_eson(),
        "toon": found.to_toon(),
        "auto": eson.choose(found).text,
    }[format]
    assert text == expected
    assert eson.detect(text) in ("eson/1", "toon")
    read = (
        eson.decode(text, type=Review)
        if text.startswith("!eson/1")
        else toon.decode(text, type=Review)
    )
    assert read == found


def test_tool_output_of_a_value_eson_cannot_hold_is_json() -> None:
    assert tool_output([1, 2]) == "[1,2]"
    with pytest.raises(ValueError, match="format must be"):
        tool_output({}, format="yaml")  # type: ignore[arg-type]


@pytest.mark.parametrize("format", ["eson", "toon"])
def test_a_typed_final_output_from_an_eson_or_toon_answer(format: str) -> None:
    expected = review(4)
    text = expected.to_eson() if format == "eson" else expected.to_toon() + "\n"
    fenced = f"Here is the review:\n\n```\n{text}```\n"
    model = ScriptedModel([[assistant_message(fenced)]])
    assert asyncio.run(run(agent(model), "Review", Review, format=format)) == expected
    assert model.calls[0].system_instructions == instructions(Review)
    assert model.calls[0].output_schema is None  # plain text: no JSON schema forced on it


def test_a_damaged_reply_is_sent_back_with_feedback_and_the_fixed_one_read() -> None:
    expected = review(2)
    damaged = expected.to_eson().replace("findings[2]", "findings[3]")  # one row missing
    model = ScriptedModel([[assistant_message(damaged)], [assistant_message(expected.to_eson())]])
    assert asyncio.run(run(agent(model), "Review", Review)) == expected
    assert len(model.calls) == 2
    feedback = last_user_text(model, 1)
    assert "findings" in feedback and "3" in feedback  # what to fix
    history = model.calls[1].input
    assert isinstance(history, list) and len(history) == 3  # the question, the bad answer, the fix


def test_retries_run_out_with_the_last_error() -> None:
    bad = "!eson/1\nsummary=s\nfindings[1]{severity,file,line}\nsevere\ta.py\t1\n"
    model = ScriptedModel([[assistant_message(bad)], [assistant_message(bad)]])
    with pytest.raises(eson.ValidationError) as caught:
        asyncio.run(run(agent(model), "Review", Review, retries=1))
    assert "severity" in caught.value.feedback
    assert len(model.calls) == 2
    once = ScriptedModel([[assistant_message(bad)]])
    with pytest.raises(eson.ValidationError):
        asyncio.run(run(agent(once), "Review", Review, retries=0))
    with pytest.raises(ValueError, match="retries"):
        asyncio.run(run(agent(once), "Review", Review, retries=-1))


def test_msgspec_answers_and_read_output() -> None:
    value = MsgReview(summary="m", findings=[MsgFinding("a.py", 1)])
    model = ScriptedModel([[assistant_message(toon.encode(value))]])
    result = asyncio.run(Runner.run(agent(model), "Review"))
    assert read_output(result, MsgReview, format="toon") == value
    with pytest.raises(ValueError, match="format must be"):
        read_output(result, MsgReview, format="yaml")


class ChunkedModel(ScriptedModel):
    """The SDK's scripted model, streaming each text delta in pieces of ``size`` characters."""

    def __init__(self, *args: Any, size: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.size = size

    async def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        async for event in super().stream_response(*args, **kwargs):
            if isinstance(event, ResponseTextDeltaEvent):
                text = event.delta
                for start in range(0, len(text), self.size):
                    yield event.model_copy(update={"delta": text[start : start + self.size]})
            else:
                yield event


async def collect(agent_: Agent[Any], type: type[Any], **kwargs: Any) -> list[Any]:
    return [value async for value in stream(agent_, "Review", type, **kwargs)]


@pytest.mark.parametrize("format", ["eson", "toon"])
def test_streaming_yields_the_rows_so_far_then_the_whole(format: str) -> None:
    expected = review(9)
    text = expected.to_eson() if format == "eson" else expected.to_toon() + "\n"
    model = ChunkedModel([[assistant_message(text)]], size=5)
    values = asyncio.run(collect(agent(model), Review, format=format))
    assert values[-1] == expected
    sizes = [len(value.findings) for value in values[:-1]]
    assert sizes == sorted(sizes) and len(set(sizes)) > 3  # rows arrived one by one
    for value in values[:-1]:
        assert value.findings == expected.findings[: len(value.findings)]


def test_a_stream_cut_short_raises_at_the_end() -> None:
    text = review(5).to_eson()
    cut = text[: text.index("src/f3.py")]
    model = ChunkedModel([[assistant_message(cut)]], size=8)
    with pytest.raises(eson.CountError):
        asyncio.run(collect(agent(model), Review))


def test_stop_reason_is_the_status_of_the_last_message() -> None:
    message = assistant_message("!eson/1\nsummary=s\n")
    assert (
        stop_reason(ModelResponse(output=[message], usage=Usage(), response_id="r")) == "completed"
    )
    cut = message.model_copy(update={"status": "incomplete"})
    assert stop_reason(ModelResponse(output=[cut], usage=Usage(), response_id="r")) == "incomplete"
    assert stop_reason(ModelResponse(output=[], usage=Usage(), response_id="r")) is None
    assert stop_reason(None) is None


def test_a_final_answer_cut_by_the_output_limit_is_never_complete() -> None:
    """The status "incomplete" is the SDK's stop signal for length (issue 16)."""
    from eson.integrations.openai_agents import _read

    cut = "!eson/1\nsummary=s\nfindings[2]{severity,file,line}\nhigh\ta.py\t1\nlow\tb.py\t2"
    with pytest.raises(eson.TruncatedError):
        _read(cut, Review, ("eson",), stop_reason="incomplete")
    with pytest.raises(eson.TruncatedError):  # no status, no closing fence: counted as cut
        _read(cut, Review, ("eson",), stop_reason=None)
    assert len(_read(cut, Review, ("eson",), stop_reason="completed").findings) == 2


def test_an_agent_with_an_output_type_is_not_text() -> None:
    model = ScriptedModel([[assistant_message('{"summary": "s", "findings": []}')]])
    result = asyncio.run(Runner.run(agent(model, output_type=Review), "Review"))
    with pytest.raises(TypeError, match="output_type"):
        read_output(result, Review)
    assert eson_agents.__name__ == "eson.integrations.openai_agents"
