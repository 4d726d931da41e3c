"""OpenAI Agents SDK agents that answer in ESON or TOON (``typed-eson[openai-agents]``).

Four pieces on the SDK's own objects::

    from agents import Agent, function_tool

    from eson.integrations.openai_agents import instructions, run, tool_output

    @function_tool
    def search(query: str) -> str:
        \"\"\"Find the places in the code that match the query.\"\"\"
        return tool_output(find(query))             # the typed value, as ESON for the model

    agent = Agent(name="reviewer", instructions=instructions(Review), tools=[search])
    review = await run(agent, "Review src/auth.py", Review)   # a validated Review

- :func:`instructions` is the writer prompt, :func:`eson.prompt`: the agent
  answers in plain text (no JSON schema is sent: a structured-output
  schema would force the model to write JSON).
- :func:`tool_output` is a function tool's return value: the typed value as
  ESON, TOON, columnar or compact JSON, or the densest of them by exact
  token count (:func:`eson.choose`).
- :func:`run` runs the agent (``Runner.run``) and reads its final answer
  into the model (:func:`read_output`, through :func:`eson.parse_reply`).
  The SDK has no retry for a final output that does not validate (its
  ``invalid_final_output`` error handler can only substitute one), so a
  reply that does not read is retried here, the SDK's way of continuing a
  conversation: the run's items (``result.to_input_list()``) plus one user
  message, the error's :attr:`~eson.ESONError.feedback`; after ``retries``
  failed retries the last :class:`eson.ESONError` is raised.
- :func:`stream` runs it streamed (``Runner.run_streamed``) and yields the
  value so far each time a row of the answer completes (one
  :class:`eson.StreamDecoder` per response), then the validated whole.

Tracing is the SDK's business: turn it off with
``agents.set_tracing_disabled(True)`` where nothing should be exported.
"""

from __future__ import annotations

import builtins
from collections.abc import AsyncIterator, Sequence
from typing import Any, TypeVar

from eson.integrations import require

require("agents", "openai-agents")

from agents import Agent, Runner  # noqa: E402
from agents.items import ModelResponse, TResponseInputItem  # noqa: E402
from agents.result import RunResult, RunResultStreaming  # noqa: E402
from openai.types.responses import (  # noqa: E402
    ResponseCreatedEvent,
    ResponseOutputMessage,
    ResponseTextDeltaEvent,
)

from eson.agent.choice import SendFormat, send  # noqa: E402
from eson.agent.prompts import prompt  # noqa: E402
from eson.agent.replies import parse_reply  # noqa: E402
from eson.errors import ESONError  # noqa: E402
from eson.integrations.partial import (  # noqa: E402
    PartialReply,
    reply_format,
    reply_formats,
)

__all__ = [
    "ToolFormat",
    "instructions",
    "read_output",
    "run",
    "stop_reason",
    "stream",
    "tool_output",
]

T = TypeVar("T")

#: ``"auto"`` (the densest of ``accept`` by :func:`eson.choose`) or one format.
ToolFormat = SendFormat


def instructions(model: builtins.type[Any], *, format: str = "eson", example: Any = True) -> str:
    """What the model needs to write a valid ``model``: :func:`eson.prompt`, for ``instructions=``.

    Args:
        model: The model class the agent's answer is.
        format: ``"eson"`` or ``"toon"``.
        example: As for :func:`eson.prompt`.
    """
    return prompt(model, format=reply_format(format), example=example)


def tool_output(
    value: Any,
    *,
    format: ToolFormat = "eson",
    accept: Sequence[str] | None = None,
    number: bool | None = None,
) -> str:
    """A function tool's return value: ``value`` as text for the model.

    Args:
        value: A model instance or plain data.
        format: ``"eson"`` (default), ``"toon"``, ``"columnar"``, ``"json"``,
            or ``"auto"``: the densest of ``accept`` by exact token count
            (needs the ``tokens`` extra).  A value ESON cannot hold (ESON
            needs an object) goes as compact JSON.
        accept: For ``"auto"``: the formats the model reads (default: ESON,
            TOON, columnar JSON, JSON).
        number: ESON only: number record arrays.

    Raises:
        eson.EncodeError: for a value not even JSON can hold.
    """
    return send(value, format, accept=accept, number=number)


def stop_reason(response: ModelResponse | None) -> str | None:
    """Why the model stopped writing its last message: ``"completed"``, ``"incomplete"`` or ``None``.

    The SDK keeps no finish reason on a :class:`~agents.items.ModelResponse`;
    what it keeps is the status of each output message (the Responses API
    marks a message cut off by the output token limit ``"incomplete"``).
    """
    if response is None:
        return None
    for item in reversed(response.output):
        if isinstance(item, ResponseOutputMessage):
            return item.status
    return None


def _read(
    text: str, type: builtins.type[T], formats: tuple[str, ...], *, stop_reason: str | None
) -> T:
    """Read a final answer: the one place every reply of this adapter goes through.

    The message status is the SDK's only stop signal: ``"incomplete"`` (the
    Responses API's mark for a message cut by the output limit) reads as
    stopped for length, ``"completed"`` as ended.  As the other model
    adapters do, a reply with neither a closing fence nor a status saying it
    ended counts as cut off (``require_end``).
    """
    reason = {"incomplete": "length", "completed": "stop"}.get(stop_reason or "")
    return parse_reply(text, type, formats=formats, stop_reason=reason, require_end=True)


def read_output(
    result: RunResult | RunResultStreaming,
    type: builtins.type[T],
    *,
    format: str = "eson",
    formats: Sequence[str] | None = None,
) -> T:
    """Read a run's final answer (``result.final_output``, text) into a validated ``type``.

    Raises:
        eson.ESONError: the answer does not read or validate (its
            ``feedback`` says what to fix).
        TypeError: the agent's output is not text (an ``output_type`` was set).
    """
    allowed = reply_formats(reply_format(format), formats)
    output = result.final_output
    if not isinstance(output, str):
        raise TypeError(
            f"the agent's final output is {builtins.type(output).__name__}, not text: "
            "leave the agent's output_type unset"
        )
    last = result.raw_responses[-1] if result.raw_responses else None
    return _read(output, type, allowed, stop_reason=stop_reason(last))


def _retry_input(
    result: RunResult | RunResultStreaming, error: ESONError
) -> list[TResponseInputItem]:
    items = result.to_input_list()
    items.append({"role": "user", "content": error.feedback})
    return items


async def run(
    agent: Agent[Any],
    input: str | list[TResponseInputItem],
    type: builtins.type[T],
    *,
    format: str = "eson",
    formats: Sequence[str] | None = None,
    retries: int = 2,
    **options: Any,
) -> T:
    """Run ``agent`` (``Runner.run``) and read its final answer into ``type``, retrying with feedback.

    Args:
        agent: The agent (give it :func:`instructions` and no ``output_type``).
        input: The run's input, as for ``Runner.run``.
        type: The model class of the answer.
        format: ``"eson"`` or ``"toon"``: the format asked for, read first.
        formats: The formats an answer may be in; default ``format``, the
            other one, then JSON.
        retries: How many times an answer that does not read is sent back
            with the error's feedback.
        options: Passed to ``Runner.run`` (``context``, ``max_turns``,
            ``run_config`` ...).

    Raises:
        eson.ESONError: the last answer still did not read or validate.
    """
    if retries < 0:
        raise ValueError(f"retries must be >= 0, not {retries!r}")
    attempt = 0
    while True:
        result = await Runner.run(agent, input, **options)
        try:
            return read_output(result, type, format=format, formats=formats)
        except ESONError as error:
            if attempt >= retries:
                raise
            attempt += 1
            input = _retry_input(result, error)
            agent = result.last_agent


async def stream(
    agent: Agent[Any],
    input: str | list[TResponseInputItem],
    type: builtins.type[T],
    *,
    format: str = "eson",
    formats: Sequence[str] | None = None,
    **options: Any,
) -> AsyncIterator[T]:
    """Run ``agent`` streamed and yield the answer so far, then the validated whole.

    Each value before the last holds the rows complete so far, once every
    entry ``type`` requires has arrived; the last is the whole answer read
    as :func:`read_output` reads it (so a stream cut short raises, never
    ends on a short value).  Passing ``options`` to ``Runner.run_streamed``.

    Raises:
        eson.ESONError: the whole answer does not read or validate.
    """
    chosen = reply_format(format)
    allowed = reply_formats(chosen, formats)
    result = Runner.run_streamed(agent, input, **options)
    reply: PartialReply[T] = PartialReply(type, format=chosen)
    async for event in result.stream_events():
        if event.type != "raw_response_event":
            continue
        if isinstance(event.data, ResponseCreatedEvent):  # a new model response: a new reply
            reply = PartialReply(type, format=chosen)
        elif isinstance(event.data, ResponseTextDeltaEvent) and reply.feed(event.data.delta):
            value = reply.partial()
            if value is not None:
                yield value
    yield read_output(result, type, format=chosen, formats=allowed)
