"""A LangChain output parser for ESON and TOON replies (``typed-eson[langchain]``).

:class:`ESONOutputParser` is a ``BaseOutputParser[T]`` for any chain::

    from langchain_core.prompts import ChatPromptTemplate

    from eson.integrations.langchain import ESONOutputParser

    parser = ESONOutputParser(Review)
    prompt = ChatPromptTemplate.from_messages(
        [("system", "{format_instructions}"), ("human", "{request}")]
    ).partial(format_instructions=parser.get_format_instructions())
    chain = prompt | model | parser
    review = chain.invoke({"request": "Review src/auth.py"})   # a validated Review

- **Parsing**: :meth:`~ESONOutputParser.parse` is :func:`eson.parse_reply`
  (code fences and prose around the document, the safe lenient repairs, a
  JSON reply when allowed).  A reply that does not read or validate raises
  :class:`~langchain_core.exceptions.OutputParserException` whose message,
  ``observation`` and ``send_to_llm`` carry the error's
  :attr:`~eson.ESONError.feedback` (what is wrong, where, and the header
  lines the schema expects), with the reply as ``llm_output``; the
  :class:`eson.ESONError` is its ``__cause__``.
- **Format instructions**: :meth:`~ESONOutputParser.get_format_instructions`
  is :func:`eson.prompt`: a short primer, the exact header lines, each
  field's type, and an example that decodes into the model.
- **Streaming**: the parser is a ``BaseCumulativeTransformOutputParser``:
  ``chain.stream(...)`` yields the value so far each time a row completes
  -- a validated ``T`` holding the rows read up to now, once every entry
  ``T`` requires has arrived -- and ends with the whole reply's validated
  value.  With ``diff=True`` it yields instead the list of
  :class:`eson.Event` (section, row, value) each chunk completed.  The
  stream is read by one :class:`eson.StreamDecoder`, fed only the new text
  of each chunk (linear in the reply, where the base class re-parses the
  whole text so far at every chunk); the end is validated like
  :meth:`~ESONOutputParser.parse`, so a stream cut short raises, never
  yields a short value as its last.
"""

from __future__ import annotations

import builtins
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any, ClassVar, Generic, Literal, TypeVar, overload

from eson.integrations import require

require("langchain_core", "langchain")

from langchain_core.exceptions import ModelRefusalError, OutputParserException  # noqa: E402
from langchain_core.messages import BaseMessage  # noqa: E402
from langchain_core.output_parsers import BaseCumulativeTransformOutputParser  # noqa: E402
from langchain_core.outputs import ChatGeneration, Generation  # noqa: E402
from pydantic import ConfigDict, SkipValidation  # noqa: E402
from typing_extensions import override  # noqa: E402

from eson.agent.prompts import prompt  # noqa: E402
from eson.agent.replies import parse_reply  # noqa: E402
from eson.agent.stop import stop_text  # noqa: E402
from eson.errors import ESONError  # noqa: E402
from eson.integrations.partial import (  # noqa: E402
    PartialReply,
    ReplyFormat,
    reply_format,
    reply_formats,
)

__all__ = ["ESONOutputParser"]

T = TypeVar("T")


def _chunk_text(chunk: str | BaseMessage) -> str:
    if isinstance(chunk, BaseMessage):
        return chunk.text
    return chunk


def _refused(message: BaseMessage) -> None:
    """Raise LangChain's refusal error when the model refused instead of answering."""
    for block in message.content_blocks:
        if block["type"] == "refusal":
            raise ModelRefusalError.from_refusal(block, raw_message=message)


def _note_stop(message: BaseMessage, stop: list[object]) -> None:
    """Keep the stop reason a streamed chunk carries (the last chunk's, usually)."""
    reason = stop_text(message)
    if reason is not None:
        stop[:] = [reason]


class ESONOutputParser(BaseCumulativeTransformOutputParser[T], Generic[T]):
    """Parse a model's ESON or TOON reply into a validated ``T`` (see the module documentation).

    Args:
        model: The model class (Pydantic model, msgspec Struct, dataclass).
        format: ``"eson"`` or ``"toon"``: the format the instructions ask
            for, read first, and the one streamed.
        formats: The formats a reply may be in, most preferred first;
            default: ``format``, then the other one, then JSON.
        diff: Stream the events each chunk completed instead of the value
            so far.
        require_end: An ESON or TOON reply must close its code fence (the
            end mark :meth:`get_format_instructions` asks for), unless the
            message's stop reason says it ended; without it the reply
            counts as cut off.

    A reply whose stop reason (``response_metadata["finish_reason"]`` or
    ``["stop_reason"]``, or ``generation_info``) says it hit the output
    limit is never read as complete: :meth:`parse_result` and the stream
    raise an ``OutputParserException`` with the feedback of an
    :class:`eson.TruncatedError`.  :meth:`parse` gets text only, so there
    the closing fence decides.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(arbitrary_types_allowed=True)

    model: SkipValidation[builtins.type[T]]
    """The model class replies are validated into."""
    format: ReplyFormat = "eson"
    """The format asked for and streamed."""
    formats: tuple[Literal["eson", "toon", "json"], ...] | None = None
    """The formats a reply may be in (``None``: ``format``, the other, JSON)."""
    require_end: bool = True
    """An ESON or TOON reply must close its code fence (unless its stop reason says it ended)."""

    def __init__(
        self,
        model: builtins.type[T],
        *,
        format: str = "eson",
        formats: Sequence[str] | None = None,
        diff: bool = False,
        require_end: bool = True,
        **kwargs: Any,
    ) -> None:
        format = reply_format(format)  # "eson/1" is ESON's other name
        if formats is not None:
            formats = reply_formats(format, formats)
        fields: dict[str, Any] = {
            "model": model,
            "format": format,
            "formats": formats,
            "require_end": require_end,
        }
        super().__init__(diff=diff, **fields, **kwargs)

    # -- what the parser is ----------------------------------------------------------------

    @property
    def _type(self) -> str:
        return f"{self.format}_output_parser"

    @property
    @override
    def OutputType(self) -> builtins.type[T]:
        """The model class."""
        return self.model

    def _allowed(self) -> tuple[str, ...]:
        return reply_formats(self.format, self.formats)

    def get_format_instructions(self) -> str:
        """What the model needs to write a valid ``T``: :func:`eson.prompt` for the format."""
        return prompt(self.model, format=self.format)

    # -- parsing a whole reply -------------------------------------------------------------

    def _exception(self, error: ESONError, text: str) -> OutputParserException:
        feedback = error.feedback
        exception = OutputParserException(
            feedback, observation=feedback, llm_output=text, send_to_llm=True
        )
        exception.__cause__ = error
        return exception

    def parse(self, text: str) -> T:
        """Read a whole reply into a validated ``T``.

        Raises:
            OutputParserException: the reply does not read or validate; the
                message is the error's feedback for the model.
        """
        return self._parse(text, None)

    def _parse(self, text: str, stop_reason: object) -> T:
        try:
            return parse_reply(
                text,
                self.model,
                formats=self._allowed(),
                stop_reason=stop_reason,
                require_end=self.require_end,
            )
        except ESONError as error:
            raise self._exception(error, text) from error

    @overload  # type: ignore[override]  # partial=True gives T | None, as the base class expects
    def parse_result(self, result: list[Generation], *, partial: Literal[False] = False) -> T: ...

    @overload
    def parse_result(self, result: list[Generation], *, partial: bool = False) -> T | None: ...

    @override
    def parse_result(  # pyright: ignore[reportIncompatibleMethodOverride]
        self, result: list[Generation], *, partial: bool = False
    ) -> T | None:
        """Parse the first generation; with ``partial=True``, the value so far or ``None``.

        A partial read never raises: ``None`` means there is no valid
        ``T`` in the text yet (or the text is already wrong).

        Raises:
            OutputParserException: (``partial=False``) the reply does not
                read or validate.
            langchain_core.exceptions.ModelRefusalError: the model refused.
        """
        generation = result[0]
        if isinstance(generation, ChatGeneration):
            _refused(generation.message)
        text = generation.text
        if not partial:
            return self._parse(text, generation)  # its stop reason: see eson.agent.stop
        reply: PartialReply[T] = PartialReply(self.model, format=self.format)
        reply.feed(text)
        return reply.partial()

    # -- streaming -------------------------------------------------------------------------

    def _finish(self, reply: PartialReply[T], texts: list[str], stop: list[object]) -> T:
        stop_reason = stop[0] if stop else None
        if reply.error is None:
            try:
                return reply.close(stop_reason=stop_reason)
            except ESONError:
                pass  # the whole text decides, as parse() would (a JSON reply, say)
        return self._parse("".join(texts), stop_reason)

    def _step(
        self, reply: PartialReply[T], chunk: str, texts: list[str], last: list[Any]
    ) -> Any | None:
        """What to yield for one chunk (``None``: nothing new)."""
        texts.append(chunk)
        events = reply.feed(chunk)
        if not events:
            return None
        if self.diff:
            return events
        # an entry or row completed, so the value so far differs from the last one yielded
        value = reply.partial()
        if value is None:
            return None
        last[:] = [value]
        return value

    def _end(
        self, reply: PartialReply[T], texts: list[str], last: list[Any], stop: list[object]
    ) -> Any | None:
        if self.diff:
            self._finish(reply, texts, stop)  # the whole reply validated: raises if it is wrong
            return reply.final_events or None
        value = self._finish(reply, texts, stop)
        if last and value == last[0]:
            return None
        return value

    @override
    def _transform(self, input: Iterator[str | BaseMessage]) -> Iterator[Any]:
        reply: PartialReply[T] = PartialReply(
            self.model, format=self.format, require_end=self.require_end
        )
        texts: list[str] = []
        last: list[Any] = []
        stop: list[object] = []
        for chunk in input:
            if isinstance(chunk, BaseMessage):
                _refused(chunk)
                _note_stop(chunk, stop)
            out = self._step(reply, _chunk_text(chunk), texts, last)
            if out is not None:
                yield out
        out = self._end(reply, texts, last, stop)
        if out is not None:
            yield out

    @override
    async def _atransform(self, input: AsyncIterator[str | BaseMessage]) -> AsyncIterator[Any]:
        reply: PartialReply[T] = PartialReply(
            self.model, format=self.format, require_end=self.require_end
        )
        texts: list[str] = []
        last: list[Any] = []
        stop: list[object] = []
        async for chunk in input:
            if isinstance(chunk, BaseMessage):
                _refused(chunk)
                _note_stop(chunk, stop)
            out = self._step(reply, _chunk_text(chunk), texts, last)
            if out is not None:
                yield out
        out = self._end(reply, texts, last, stop)
        if out is not None:
            yield out
