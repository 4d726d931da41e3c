"""The value so far of a reply that is still streaming, for the framework adapters.

Frameworks hand a streaming reply to their output code in one of two ways:
chunk by chunk (LangChain's transform parsers), or as the whole text so far,
again and again (pydantic-ai's streamed output calls the output function
with the accumulated text).  :class:`PartialReply` takes either, feeds only
the new text to one :class:`eson.StreamDecoder` (so a long reply costs
linear time, not quadratic), and says what has been read:

- :meth:`PartialReply.update` / :meth:`PartialReply.feed` return the
  :class:`eson.Event` of each entry and row completed;
- :meth:`PartialReply.partial` is the value so far as a validated ``T``
  (the rows read so far, every complete entry), or ``None`` while the
  entries ``T`` requires have not all arrived;
- :meth:`PartialReply.close` is the whole reply's validated value, or the
  error (a reply cut short is an error, never a short value).

Nothing here imports a framework.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any, Generic, Literal, TypeVar

from eson._internal.codecs.stream import Event
from eson._internal.schema.compile import document_schema
from eson.agent.formats import PAYLOAD_FORMATS, document_format
from eson.agent.stream import StreamDecoder
from eson.errors import ESONError

__all__ = ["PartialReply", "ReplyFormat", "reply_format", "reply_formats"]

T = TypeVar("T")

#: The formats a streamed reply may be read in.
ReplyFormat = Literal["eson", "toon"]


def reply_format(format: str) -> ReplyFormat:
    """The format an adapter asks the model to write (``"eson/1"`` is ESON's other name).

    Raises:
        ValueError: for anything but ESON or TOON.
    """
    return document_format(format)


def reply_formats(format: ReplyFormat, formats: Sequence[str] | None) -> tuple[str, ...]:
    """The formats an adapter reads a reply in: ``formats``, or ``format`` first, then the others.

    Raises:
        ValueError: for an empty ``formats`` or a name that is not a reply format.
    """
    if formats is None:
        return (format, *(other for other in PAYLOAD_FORMATS if other != format))
    chosen = (formats,) if isinstance(formats, str) else tuple(formats)
    if not chosen or any(item not in PAYLOAD_FORMATS for item in chosen):
        raise ValueError(
            f"formats is a non-empty sequence of 'eson', 'toon', 'json', not {formats!r}"
        )
    return chosen


class PartialReply(Generic[T]):
    """Follow one streaming reply (see the module documentation).

    Args:
        type: The model class the reply holds.
        format: ``"eson"`` or ``"toon"``.
        require_end: The reply must close its code fence (the end mark the
            prompts ask for); the adapters set it (see
            :class:`eson.StreamDecoder`).
    """

    __slots__ = ("_decoder", "_error", "_seen", "_validate", "format", "require_end", "type")

    def __init__(
        self, type: builtins.type[T], *, format: ReplyFormat = "eson", require_end: bool = False
    ) -> None:
        self.type: builtins.type[T] = type
        self.format: ReplyFormat = format
        self.require_end: bool = require_end
        schema = document_schema(type)
        self._validate = schema.binding.validator(schema.model_type)
        self._decoder: StreamDecoder[T] = StreamDecoder(
            type, format=format, require_end=require_end
        )
        self._seen: str | None = ""  # the text update() was given; None once fed by chunks
        self._error: ESONError | None = None

    @property
    def error(self) -> ESONError | None:
        """The error the text so far already shows (the decoder stops there)."""
        return self._error

    def feed(self, chunk: str) -> list[Event]:
        """Read the next piece of the reply; the events of what it completed.

        After an error the reply is spent: this returns no events and
        :attr:`error` (and :meth:`close`) hold the error.
        """
        self._seen = None
        return self._read(chunk)

    def _read(self, chunk: str) -> list[Event]:
        if self._error is not None or not chunk:
            return []
        try:
            return self._decoder.feed(chunk)
        except ESONError as exc:
            self._error = exc
            return []

    def update(self, text: str) -> list[Event]:
        """Read the reply as it stands now (the whole text so far).

        When ``text`` extends what was read, only the new part is fed; when
        it does not (the framework started a new reply, or rewrote this
        one), reading starts over.
        """
        seen = self._seen
        if seen is not None and text.startswith(seen):
            self._seen = text
            return self._read(text[len(seen) :])
        self._decoder = StreamDecoder(self.type, format=self.format, require_end=self.require_end)
        self._seen = text
        self._error = None
        return self._read(text)

    def snapshot(self) -> dict[str, Any]:
        """The entries and rows read so far, not yet validated as a whole."""
        return self._decoder.snapshot()

    def partial(self) -> T | None:
        """The value so far as a validated ``T``, or ``None`` if it is not one yet.

        ``None`` while an entry ``T`` requires has not arrived, and after an
        error.  Rows are the complete rows so far, each already validated.
        """
        if self._error is not None:
            return None
        found = self._decoder.snapshot()
        if not found:
            return None
        try:
            value: T = self._validate(found)
        except Exception:
            return None
        return value

    @property
    def final_events(self) -> list[Event]:
        """The events only the end of the reply completed (empty before :meth:`close`).

        See :attr:`eson.StreamDecoder.final_events`: a last row without a
        line break, TOON's last list item.
        """
        return self._decoder.final_events

    def close(self, *, stop_reason: object = None) -> T:
        """End the reply; its validated value.

        ``stop_reason`` is the provider's, when the framework has it (see
        :meth:`eson.StreamDecoder.close`).

        Raises:
            eson.ESONError: the reply is malformed, cut short or invalid (its
                ``feedback`` says what to fix).
            eson.TruncatedError: the reply was cut off.
        """
        if self._error is not None:
            raise self._error
        return self._decoder.close(stop_reason=stop_reason)
