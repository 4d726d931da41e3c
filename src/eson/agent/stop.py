"""Why a model stopped writing: the provider's stop reason, read as complete, cut or unknown.

A reply cut off by the output limit can still read as a valid document --
a last cell cut from ``zebra`` to ``zeb`` -- so the reply readers
(:func:`eson.parse_reply`, :class:`eson.StreamDecoder`, the adapters) take
the provider's stop reason and refuse a reply that stopped for length.
:func:`stop_kind` is the one place that reads its many spellings:

==================  ======================================================
``"cut"``           OpenAI and compatible APIs ``finish_reason="length"``
                    (also pydantic-ai's ``ModelResponse.finish_reason``,
                    Ollama's ``done_reason``, Mistral's ``model_length``);
                    Anthropic ``stop_reason="max_tokens"`` (and
                    ``model_context_window_exceeded``); Gemini
                    ``finish_reason``/``finishReason`` ``MAX_TOKENS`` (a
                    string or an enum member of that name); MCP sampling
                    ``stopReason="maxTokens"``; the OpenAI Responses API's
                    ``incomplete_details.reason="max_output_tokens"``.
``"complete"``      ``stop``, ``end_turn``, ``stop_sequence``, ``endTurn``,
                    ``stopSequence``, Gemini ``STOP``.
``"unknown"``       ``None`` and every other reason (``tool_calls``,
                    ``content_filter``, ``SAFETY``, ...): not read as a
                    cut; the reply's own end mark (its closing fence)
                    decides.
==================  ======================================================

Besides a string or an enum member, :func:`stop_kind` takes the response
objects that carry the reason: an object or mapping with one of the
attributes or keys ``finish_reason``, ``finishReason``, ``stop_reason``,
``stopReason``, ``done_reason`` (an Anthropic ``Message``, an MCP
``CreateMessageResult``, a pydantic-ai ``ModelResponse``), a LangChain
message (``response_metadata``) or generation (``generation_info``,
``message``), and the first of ``choices`` (OpenAI) or ``candidates``
(Gemini).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any, Literal

__all__ = ["StopKind", "stop_kind", "stop_text"]

#: What a stop reason says about the reply: it ended, it was cut, or nobody knows.
StopKind = Literal["complete", "cut", "unknown"]

# Spellings compared lowercased, without "_", "-" and spaces.
_CUT = frozenset(
    {
        "length",
        "maxtokens",
        "maxoutputtokens",
        "modellength",
        "modelcontextwindowexceeded",
    }
)
_COMPLETE = frozenset({"stop", "endturn", "stopsequence", "eos"})
_ATTRIBUTES = ("finish_reason", "finishReason", "stop_reason", "stopReason", "done_reason")
_NESTED = ("response_metadata", "generation_info", "message")
_FIRST_OF = ("choices", "candidates")
_DEPTH = 4


def stop_text(reason: object) -> str | None:
    """The stop reason in ``reason`` as the provider spelled it (``None`` when there is none).

    ``reason`` is a string, an enum member (its name), or a response object
    or mapping that carries one (see the module documentation).
    """
    return _find(reason, _DEPTH)


def stop_kind(reason: object) -> StopKind:
    """Whether ``reason`` says the reply is complete, was cut off, or neither (see the module).

    Unknown spellings are ``"unknown"``, never ``"cut"``: a reader then
    relies on the reply's own end mark.
    """
    text = stop_text(reason)
    if text is None:
        return "unknown"
    if "." in text:  # "FinishReason.MAX_TOKENS", the str() of some SDKs' enums
        text = text.rsplit(".", 1)[1]
    key = text.lower().replace("_", "").replace("-", "").replace(" ", "")
    if key in _CUT:
        return "cut"
    if key in _COMPLETE:
        return "complete"
    return "unknown"


def _field(container: object, name: str) -> Any:
    if isinstance(container, Mapping):
        return container.get(name)
    return getattr(container, name, None)


def _find(reason: object, depth: int) -> str | None:
    if reason is None or depth <= 0:
        return None
    if isinstance(reason, enum.Enum):
        return reason.name if reason.name else str(reason.value)
    if isinstance(reason, str):
        return reason or None
    if isinstance(reason, (bytes, int, float)):
        return None
    for name in _ATTRIBUTES:
        found = _find(_field(reason, name), depth - 1)
        if found is not None:
            return found
    details = _field(reason, "incomplete_details")  # OpenAI Responses API
    if details is not None:
        found = _find(_field(details, "reason"), depth - 1)
        if found is not None:
            return found
    for name in _NESTED:
        found = _find(_field(reason, name), depth - 1)
        if found is not None:
            return found
    for name in _FIRST_OF:
        items = _field(reason, name)
        if isinstance(items, (list, tuple)) and items:
            found = _find(items[0], depth - 1)
            if found is not None:
                return found
    return None
