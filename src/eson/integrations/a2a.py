"""A2A agents that exchange typed payloads in ESON or TOON (``typed-eson[a2a]``).

On the A2A SDK (``a2a-sdk`` 1.x), where the protocol already carries what
is needed:

- **Advertising.**  An agent card lists the media types an agent reads and
  writes in ``default_input_modes`` / ``default_output_modes``
  (:func:`modes`: ``text/vnd.eson; version=1``, ``text/toon``,
  ``application/json``; the table is :mod:`eson.agent.media`), and the
  capability tokens of the negotiation rules in the agent extension
  :data:`WIRE_EXTENSION` (:func:`agent_extension`: ``params = {"accept":
  ["eson/1", "toon", "json"]}``).  A client says what it reads with the
  ``accepted_output_modes`` of its request (``ClientConfig(
  accepted_output_modes=modes())``).
- **Sending.**  :func:`reply_part` is the part for a typed value in the
  format the requesting client accepts (:func:`accepted_by_client`): the
  densest by exact token count (:func:`eson.choose`) or the one asked for,
  labelled with its media type.  A client whose request names neither ESON
  nor TOON gets compact JSON (Wire Profile W8), as a text part labelled
  ``application/json`` (a ``data`` part would turn every integer into a
  float).
- **Reading.**  :func:`read_part`, :func:`read_message`,
  :func:`read_artifact` and :func:`read_task` read a payload into a model:
  a part labelled with a known media type is read in that format only, an
  unlabelled (or ``text/plain``) one by detection (:func:`eson.detect`:
  ESON, TOON, else JSON), a ``data`` part by :func:`eson.validate`.  Counts
  and checksums are always checked: a damaged payload raises an
  :class:`eson.ESONError` and is never answered from (Wire Profile W4);
  :func:`refusal` is the agent message that tells the sender what to fix
  (the error's :attr:`~eson.ESONError.feedback`), for ``TaskUpdater.reject``.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable
from typing import Any, TypeVar

from eson.integrations import require

require("a2a", "a2a")

from a2a.helpers.proto_helpers import get_data_parts  # noqa: E402
from a2a.server.agent_execution import RequestContext  # noqa: E402
from a2a.types import AgentExtension, Artifact, Message, Part, Role, Task  # noqa: E402

from eson._internal.api import validate  # noqa: E402
from eson.agent.choice import Measure, SendFormat, send_format, send_to  # noqa: E402
from eson.agent.formats import PAYLOAD_FORMATS, WIRE_FORMATS, Format  # noqa: E402
from eson.agent.media import MEDIA_TYPES, format_of  # noqa: E402
from eson.agent.negotiation import accepted_formats  # noqa: E402
from eson.agent.replies import parse_reply  # noqa: E402
from eson.errors import DecodeError, ESONError  # noqa: E402

__all__ = [
    "DEFAULT_ACCEPT",
    "WIRE_EXTENSION",
    "PartFormat",
    "accepted_by_client",
    "agent_extension",
    "modes",
    "payload_part",
    "read_artifact",
    "read_message",
    "read_part",
    "read_task",
    "refusal",
    "reply_part",
]

T = TypeVar("T")

#: The agent extension (its URI) whose ``params`` list the capability tokens an
#: agent reads, ``{"accept": ["eson/1", "toon", "json"]}``.
WIRE_EXTENSION = "urn:typed-eson:wire:1"

#: What an agent reads and writes by default, densest first.
DEFAULT_ACCEPT: tuple[Format, ...] = ("eson/1", "toon", "json")

#: ``"auto"`` (the densest the client accepts, by :func:`eson.choose`) or one format.
PartFormat = SendFormat

#: The ``metadata`` keys (of a part, artifact, message or task) that may hold
#: the stop reason of the model that wrote the payload.
_STOP_KEYS = ("stop_reason", "finish_reason")


def _tokens(accept: str | Iterable[str]) -> tuple[Format, ...]:
    found = accepted_formats(accept)
    return found if "json" in found else (*found, "json")


def modes(accept: str | Iterable[str] = DEFAULT_ACCEPT) -> list[str]:
    """The media types of ``accept`` (JSON always among them), for input and output modes.

    For an agent card's ``default_input_modes`` / ``default_output_modes``,
    an ``AgentSkill``'s modes, or a client's ``accepted_output_modes``.
    """
    return [MEDIA_TYPES[format] for format in _tokens(accept)]


def agent_extension(accept: str | Iterable[str] = DEFAULT_ACCEPT) -> AgentExtension:
    """The agent card extension listing the capability tokens an agent reads.

    Put it in ``AgentCapabilities(extensions=[...])``.
    """
    return AgentExtension(
        uri=WIRE_EXTENSION,
        description="Wire formats this agent reads (typed-eson negotiation rules)",
        params={"accept": list(_tokens(accept))},
    )


def accepted_by_client(context: RequestContext) -> tuple[Format, ...]:
    """The formats the requesting client accepts, in its order; ``()``: it said nothing (JSON).

    Read from the request's ``accepted_output_modes`` (media types; the
    ones that name no format, ``text/plain`` say, are ignored).
    """
    configuration = context.configuration
    if configuration is None:
        return ()
    found: list[Format] = []
    for mode in configuration.accepted_output_modes:
        format = format_of(mode)
        if format is not None and format not in found:
            found.append(format)
    return tuple(found)


def payload_part(
    value: Any,
    accept: str | Iterable[str] | None,
    *,
    format: PartFormat = "auto",
    by: Measure = "tokens",
    number: bool | None = None,
) -> Part:
    """A text part holding ``value`` in a format of ``accept``, labelled with its media type.

    Args:
        value: A model instance or plain data.
        accept: The formats the receiver reads (capability tokens); empty
            or ``None``: compact JSON (W8).
        format: ``"auto"``: the densest of ``accept`` by ``by``; or one
            format, sent when the receiver accepts it (else ``"auto"``).
        by: What ``"auto"`` minimises: ``"tokens"`` (exact; the ``a2a``
            extra brings the counter), ``"bytes"`` or ``"chars"``.
        number: ESON only: number record arrays.

    Raises:
        eson.EncodeError: for a value not even JSON can hold.
    """
    sent = send_to(value, send_format(format), accepted_formats(accept), by=by, number=number)
    return Part(text=sent.text, media_type=MEDIA_TYPES[sent.format])


def reply_part(
    value: Any,
    context: RequestContext,
    *,
    format: PartFormat = "auto",
    by: Measure = "tokens",
    number: bool | None = None,
) -> Part:
    """The part answering the request of ``context`` with ``value`` (see :func:`payload_part`)."""
    return payload_part(value, accepted_by_client(context), format=format, by=by, number=number)


def refusal(error: ESONError, context: RequestContext | None = None) -> Message:
    """The agent message refusing a damaged or invalid payload, with what to fix.

    Its one text part is the error's :attr:`~eson.ESONError.feedback`; pass
    it to ``TaskUpdater.reject(message=...)`` (or ``failed``).
    """
    return Message(
        message_id=_new_id(),
        role=Role.ROLE_AGENT,
        parts=[Part(text=error.feedback, media_type="text/plain")],
        context_id=context.context_id or "" if context is not None else "",
        task_id=context.task_id or "" if context is not None else "",
    )


def _new_id() -> str:
    import uuid

    return uuid.uuid4().hex


# -- reading ------------------------------------------------------------------------------


def _stop_reason(*holders: Any) -> str | None:
    """The model's stop reason, if the sender put one in a ``metadata`` (nearest first)."""
    for holder in holders:
        if holder is None or not holder.HasField("metadata"):
            continue
        fields = holder.metadata.fields
        for key in _STOP_KEYS:
            if key in fields and fields[key].WhichOneof("kind") == "string_value":
                reason: str = fields[key].string_value
                return reason
    return None


def _read(
    text: str, type: builtins.type[T], format: Format | None, *, stop_reason: str | None
) -> T:
    """Read a text payload: the one place every reply text of this adapter goes through.

    A part is a whole payload, not a model's reply: no closing fence is
    required; a stop reason in its metadata (``stop_reason`` /
    ``finish_reason``) is passed on, so a payload a model wrote into the
    token limit is never read as complete.
    """
    if format is None:
        return parse_reply(text, type, formats=PAYLOAD_FORMATS, stop_reason=stop_reason)
    wire = WIRE_FORMATS[format]
    if not wire.in_replies:  # columnar JSON: a whole JSON text, never a model's reply
        return wire.read(text, type)
    return parse_reply(text, type, formats=(wire.name,), stop_reason=stop_reason)


def read_part(part: Part, type: builtins.type[T], *, _holders: tuple[Any, ...] = ()) -> T:
    """Read one part into a validated ``type``.

    A ``data`` part is validated as it is; a text part by its media type
    (:func:`eson.agent.media.format_of`), or, unlabelled or ``text/plain``,
    by detection.

    Raises:
        eson.DecodeError: a part that is neither text nor data, or a
            malformed payload (:class:`eson.TOONError` for TOON, an
            :class:`eson.CountError` for a count that disagrees).
        eson.ValidationError: a payload the model rejects.
    """
    kind = part.WhichOneof("content")
    if kind == "data":
        return validate(get_data_parts([part])[0], type)
    if kind != "text":
        raise DecodeError(f"an A2A {kind or 'empty'} part holds no ESON, TOON or JSON text")
    label = part.media_type
    format = format_of(label)
    if format is None and label and not label.lower().startswith("text/plain"):
        raise DecodeError(f"the part's media type {label!r} is not ESON, TOON or JSON")
    return _read(part.text, type, format, stop_reason=_stop_reason(part, *_holders))


def _read_parts(parts: Iterable[Part], type: builtins.type[T], holders: tuple[Any, ...]) -> T:
    candidates = [part for part in parts if part.WhichOneof("content") in ("text", "data")]
    if not candidates:
        raise DecodeError("no text or data part to read")
    labelled = [part for part in candidates if format_of(part.media_type) is not None]
    return read_part((labelled or candidates)[0], type, _holders=holders)


def read_message(message: Message, type: builtins.type[T]) -> T:
    """Read a message's payload (its first part in a known format, else its first text part)."""
    return _read_parts(message.parts, type, (message,))


def read_artifact(artifact: Artifact, type: builtins.type[T], *, task: Task | None = None) -> T:
    """Read an artifact's payload (its first part in a known format, else its first text part)."""
    return _read_parts(artifact.parts, type, (artifact, task))


def read_task(task: Task, type: builtins.type[T], *, name: str | None = None) -> T:
    """Read a task's artifact (the one called ``name``, else the last) into ``type``.

    Raises:
        eson.DecodeError: the task has no such artifact, or it does not read.
        eson.ValidationError: the payload does not fit ``type``.
    """
    artifacts = [item for item in task.artifacts if name is None or item.name == name]
    if not artifacts:
        which = f"an artifact named {name!r}" if name is not None else "an artifact"
        raise DecodeError(f"the task has no {which}")
    return read_artifact(artifacts[-1], type, task=task)
