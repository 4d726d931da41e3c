"""pydantic-ai agents that answer in ESON or TOON (``typed-eson[pydantic-ai]``).

Three pieces, each on pydantic-ai's own extension points::

    from pydantic_ai import Agent

    from eson.integrations.pydantic_ai import instructions, text_output, tool_return

    agent = Agent(
        model,
        output_type=text_output(Review),        # parse the reply, retry with feedback
        instructions=instructions(Review),      # what to write: eson.prompt(Review)
    )
    result = agent.run_sync("Review src/auth.py")
    result.output                               # a validated Review

- :func:`text_output` is a :class:`pydantic_ai.TextOutput`: the model
  answers in plain text (no output tool, no JSON schema), and its output
  function reads the reply with :func:`eson.parse_reply` -- code fences,
  prose around the document, the safe lenient repairs, a JSON reply when
  JSON is allowed.  A reply that does not read or validate raises
  :class:`pydantic_ai.ModelRetry` with the error's
  :attr:`~eson.ESONError.feedback`, so the agent's output retries send the
  model exactly what to fix (the line, and the header lines the schema
  expects).  While a run streams (``agent.run_stream(...)``, then
  ``stream_output()``), the same function gives the value so far: the rows
  complete up to now, read incrementally by one :class:`eson.StreamDecoder`
  per response, as a validated ``T`` once every entry ``T`` requires has
  arrived.
- :func:`instructions` is the writer prompt, :func:`eson.prompt`.
- :func:`tool_return` is a tool's :class:`pydantic_ai.ToolReturn`: the
  value as ESON (or TOON, or the densest format by :func:`eson.choose`)
  for the model, the object itself in ``metadata`` for the application.
"""

from __future__ import annotations

import builtins
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, TypeVar

from eson.integrations import require

require("pydantic_ai", "pydantic-ai")

from pydantic_ai import ModelRetry, RunContext, TextOutput, ToolReturn  # noqa: E402
from pydantic_ai.messages import ModelResponse  # noqa: E402

from eson.agent.choice import SendFormat, send  # noqa: E402
from eson.agent.prompts import prompt  # noqa: E402
from eson.agent.replies import parse_reply  # noqa: E402
from eson.errors import ESONError  # noqa: E402
from eson.integrations.partial import (  # noqa: E402
    PartialReply,
    ReplyFormat,
    reply_format,
    reply_formats,
)

__all__ = ["instructions", "text_output", "tool_return"]

T = TypeVar("T")

#: Streams followed at once by one output function (runs streaming in parallel);
#: the oldest is dropped beyond this (a run abandoned mid-stream never ends its own).
_MAX_STREAMS = 64


def instructions(model: builtins.type[Any], *, format: str = "eson", example: Any = True) -> str:
    """What the model needs to write a valid ``model``: :func:`eson.prompt`, for ``instructions=``.

    Args:
        model: The model class the agent's output is.
        format: ``"eson"`` or ``"toon"``.
        example: As for :func:`eson.prompt`: ``True`` for a made-up example
            that decodes into ``model``, ``False`` for none, or an instance.
    """
    return prompt(model, format=reply_format(format), example=example)


class _Streams:
    """The :class:`PartialReply` of each response being streamed, by run and step."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._replies: OrderedDict[tuple[str | None, int], PartialReply[Any]] = OrderedDict()

    def reply(
        self, key: tuple[str | None, int], model: builtins.type[T], format: ReplyFormat
    ) -> PartialReply[T]:
        with self._lock:
            found = self._replies.get(key)
            if found is None:
                found = self._replies[key] = PartialReply(model, format=format)
                while len(self._replies) > _MAX_STREAMS:
                    self._replies.popitem(last=False)
            return found

    def end(self, key: tuple[str | None, int]) -> None:
        with self._lock:
            self._replies.pop(key, None)


def _finish_reason(ctx: RunContext[Any]) -> object:
    """The ``finish_reason`` of the response being read, when pydantic-ai has it.

    For a run that does not stream, the response is the last message; while
    a run streams it is not among the messages yet (the last is a request).
    """
    messages = ctx.messages
    if messages and isinstance(messages[-1], ModelResponse):
        return messages[-1].finish_reason
    return None


def text_output(
    model: builtins.type[T],
    *,
    format: str = "eson",
    formats: Sequence[str] | None = None,
    require_end: bool = True,
) -> TextOutput[T]:
    """An agent output that reads the model's text reply into a validated ``model``.

    Pass it as ``output_type=``, with :func:`instructions` as the agent's
    instructions.  See the module documentation for retries and streaming.

    Args:
        model: The model class (Pydantic model, msgspec Struct, dataclass).
        format: ``"eson"`` or ``"toon"``: the format asked for, read first,
            and the one streamed.
        formats: The formats a reply may be in, most preferred first;
            default: ``format``, then the other one, then JSON.
        require_end: An ESON or TOON reply must close its code fence (the
            end mark :func:`instructions` asks for), unless the response's
            ``finish_reason`` says it ended; without it the reply counts as
            cut off and is retried with feedback.

    A response whose ``finish_reason`` is ``"length"`` (the model hit its
    output limit) is never read as complete: it raises
    :class:`pydantic_ai.ModelRetry` with the feedback of an
    :class:`eson.TruncatedError` ("cut off after row k of N").  pydantic-ai
    gives the output function the response's ``finish_reason`` for a
    request, not for a streamed run's last call: there the closing fence
    decides.

    Returns:
        A :class:`pydantic_ai.TextOutput` whose function raises
        :class:`pydantic_ai.ModelRetry` with the error's feedback for a reply
        that does not read or validate.
    """
    chosen = reply_format(format)
    allowed = reply_formats(chosen, formats)
    streams = _Streams()
    name = getattr(model, "__name__", "output")

    def read_reply(ctx: RunContext[Any], text: str) -> T:
        key = (ctx.run_id, ctx.run_step)
        if ctx.partial_output:
            reply = streams.reply(key, model, chosen)
            reply.update(text)
            value = reply.partial()
            if value is None:
                # pydantic-ai skips a partial output that raises: nothing to show yet
                raise ModelRetry(f"the {name} reply is not complete yet")
            return value
        streams.end(key)
        try:
            return parse_reply(
                text,
                model,
                formats=allowed,
                stop_reason=_finish_reason(ctx),
                require_end=require_end,
            )
        except ESONError as error:
            raise ModelRetry(error.feedback) from error

    read_reply.__name__ = f"read_{name}_reply"
    read_reply.__qualname__ = read_reply.__name__
    read_reply.__doc__ = f"Read the model's {chosen.upper()} reply into a {name}."
    return TextOutput(read_reply)


ToolFormat = SendFormat


def tool_return(
    value: Any,
    *,
    format: ToolFormat = "eson",
    accept: Sequence[str] | None = None,
    number: bool | None = None,
) -> ToolReturn[str]:
    """A tool's return: ``value`` as text for the model, the object itself for the application.

    The model reads ``return_value``, the text; the application finds the
    object in the ``metadata`` of the run's ``ToolReturnPart`` (pydantic-ai
    never sends ``metadata`` to the model).

    Args:
        value: A model instance or plain data.
        format: ``"eson"`` (default), ``"toon"``, ``"columnar"``, ``"json"``,
            or ``"auto"``: the densest of ``accept`` by exact token count
            (:func:`eson.choose`; needs the ``tokens`` extra).  A value a
            format cannot hold (ESON needs an object) goes as compact JSON.
        accept: For ``"auto"``: the formats the model reads (default: ESON,
            TOON, columnar JSON, JSON).
        number: ESON only: number record arrays (``None``: the model's own
            option).

    Raises:
        eson.EncodeError: for a value not even JSON can hold.
    """
    text = send(value, format, accept=accept, number=number)
    return ToolReturn(return_value=text, metadata=value)
