"""MCP tool results in ESON or TOON for the model, JSON for programs (``typed-eson[mcp]``).

An MCP tool result has two places for data: ``content``, the blocks the
model reads, and ``structured_content``, the JSON a program reads (checked
against the tool's output schema).  :class:`ToolResults` fills both from one
value -- a model instance or plain data::

    from typing import Annotated

    from mcp.server.mcpserver import Context, MCPServer
    from mcp.types import CallToolResult

    from eson.integrations.mcp import ToolResults

    server = MCPServer("reviews")
    results = ToolResults()                     # the server's default: "auto"

    @server.tool()
    def review(path: str, ctx: Context) -> Annotated[CallToolResult, Review]:
        return results.result(build_review(path), ctx)

- ``content`` is one :class:`~mcp.types.TextContent` in the format chosen
  for this call: ``"auto"`` (the densest format the client accepts, by exact
  token count: :func:`eson.choose`), or ``"eson"``, ``"toon"``,
  ``"columnar"``, ``"json"``;
- ``structured_content`` is the JSON-mode dump of the value (a value that is
  not an object is wrapped as ``{"result": value}``, as the SDK does), so
  the tool can declare an output schema (``Annotated[CallToolResult, Review]``)
  and programs read JSON as always;
- ``_meta`` says which format the text is in (:data:`WIRE_EXTENSION`).

**Negotiation.**  A client says which formats it reads by advertising the
client extension :data:`WIRE_EXTENSION` with its capability tokens
(:func:`advertise`: ``Client(server, extensions=[advertise()])``), the
``"wire": {"accept": [...]}`` of the negotiation rules.  The accepted
formats of a call are, first found: the ``accept=`` given to
:meth:`ToolResults.result`; the client's advertisement (read from the
tool's context, under ``extensions`` or ``experimental``); the server's
assumption (``ToolResults(assume=...)`` or the environment variable
:data:`ACCEPT_ENV`, the operator's switch for clients that cannot
advertise); else nothing -- and then the text is compact JSON (Wire Profile
W8: capability unknown means JSON).  An explicit format the client does not
accept is never sent: the call falls back to the densest one it does.

**Reading results back** (the client side): :func:`read_result` takes the
structured content when there is one and otherwise reads the text
(:func:`eson.parse_reply`; columnar JSON by :mod:`eson.columnar`);
:func:`call_tool` calls a tool and reads its result into a model.  A result
flagged ``is_error`` raises :class:`ToolResultError` with the text the
server sent; :func:`error_result` builds such a result on the server from an
exception (an :class:`eson.ESONError` gives its
:attr:`~eson.ESONError.feedback`, for a model that sent a bad argument).
"""

from __future__ import annotations

import builtins
import os
from collections.abc import Iterable, Mapping
from typing import Any, Literal, TypeAlias, TypeVar, overload

from eson.integrations import require

require("mcp", "mcp")

from mcp.client import Client, ClientExtension, ClientSession  # noqa: E402
from mcp.client import advertise as _advertise  # noqa: E402
from mcp.server.context import ServerRequestContext  # noqa: E402
from mcp.server.mcpserver import Context  # noqa: E402
from mcp.types import CallToolResult, ClientCapabilities, TextContent  # noqa: E402

from eson._internal.api import validate  # noqa: E402
from eson.agent.choice import Measure, SendFormat, send_format, send_to  # noqa: E402
from eson.agent.formats import Format, plain_value  # noqa: E402
from eson.agent.negotiation import accepted_formats, detect_format  # noqa: E402
from eson.agent.replies import parse_reply  # noqa: E402
from eson.errors import ESONError  # noqa: E402

__all__ = [
    "ACCEPT_ENV",
    "WIRE_EXTENSION",
    "Caller",
    "ResultFormat",
    "ToolResultError",
    "ToolResults",
    "accepted_by_client",
    "advertise",
    "call_tool",
    "error_result",
    "read_result",
]

T = TypeVar("T")

#: The client extension (SEP-2133 identifier) under which a client lists the
#: formats it reads, ``{"accept": ["eson/1", "toon", "json"]}``, and the
#: ``_meta`` key of a result that says which format its text is in.
WIRE_EXTENSION = "io.github.typed-eson/wire"

#: The environment variable a server reads for the formats to assume when a
#: client advertises none (capability tokens, comma-separated: ``"toon"``).
ACCEPT_ENV = "TYPED_ESON_MCP_ACCEPT"

#: ``"auto"`` (the densest accepted format, by :func:`eson.choose`) or one format.
ResultFormat = SendFormat

#: Where a tool learns who calls it: its :class:`~mcp.server.mcpserver.Context`, a
#: low-level handler's request context, the client's capabilities, or nothing.
Caller: TypeAlias = Context[Any, Any] | ServerRequestContext[Any, Any] | ClientCapabilities | None

#: What a client advertises by default: every format this library reads.
DEFAULT_ACCEPT: tuple[str, ...] = ("eson/1", "toon", "columnar", "json")


def advertise(accept: Iterable[str] = DEFAULT_ACCEPT) -> ClientExtension:
    """The client extension that tells servers which formats this client reads.

    Pass it to the client: ``Client(server, extensions=[advertise()])``.
    ``accept`` lists capability tokens in order of preference; unknown ones
    are kept (servers ignore what they do not know).
    """
    tokens = [accept] if isinstance(accept, str) else list(accept)
    for token in tokens:
        if not isinstance(token, str):
            raise TypeError(f"capability tokens are str, not {type(token).__name__}")
    return _advertise(WIRE_EXTENSION, {"accept": tokens})


def _capabilities(caller: Caller) -> ClientCapabilities | None:
    if caller is None or isinstance(caller, ClientCapabilities):
        return caller
    if isinstance(caller, Context):
        try:
            request = caller.request_context
        except ValueError:  # outside a request (the tool function called directly)
            return None
        return request.session.client_capabilities
    return caller.session.client_capabilities


def _advertised(settings: object) -> tuple[Format, ...] | None:
    if not isinstance(settings, Mapping):
        return None
    accept = settings.get("accept")
    if isinstance(accept, str) or (
        isinstance(accept, list) and all(isinstance(token, str) for token in accept)
    ):
        return accepted_formats(accept)
    return None


def accepted_by_client(caller: Caller) -> tuple[Format, ...] | None:
    """The formats the calling client advertised, in its order; ``None`` if it said nothing.

    Looks in the client's capabilities for :data:`WIRE_EXTENSION` under
    ``extensions`` (where the SDK's ``Client(extensions=...)`` puts it), then
    under ``experimental``, then for the negotiation rules' ``"wire"`` entry
    in ``experimental``.  A malformed entry counts as nothing said.
    """
    capabilities = _capabilities(caller)
    if capabilities is None:
        return None
    places: list[object] = []
    if capabilities.extensions:
        places.append(capabilities.extensions.get(WIRE_EXTENSION))
    if capabilities.experimental:
        places.append(capabilities.experimental.get(WIRE_EXTENSION))
        places.append(capabilities.experimental.get("wire"))
    for settings in places:
        found = _advertised(settings)
        if found is not None:
            return found
    return None


class ToolResults:
    """Builds a tool's :class:`~mcp.types.CallToolResult` in the negotiated format.

    One per server, holding its defaults; see the module documentation.

    Args:
        format: The default format: ``"auto"`` (the densest the client
            accepts, by exact token count), or ``"eson"``, ``"toon"``,
            ``"columnar"``, ``"json"``.
        assume: The formats to assume a client reads when it advertises
            none (capability tokens, a list or one comma-separated string).
            ``None`` reads the environment variable ``env``; nothing there
            means unknown, that is compact JSON.
        env: The environment variable read when ``assume`` is ``None``
            (``None``: read none).
        by: What ``"auto"`` minimises: ``"tokens"`` (exact, needs the
            token counter the ``mcp`` extra installs), ``"bytes"`` or
            ``"chars"``.
        encoding: The token encoding (``"o200k_base"`` or ``"cl100k_base"``).
        number: ESON only: number record arrays (``None``: the model's own
            option).
    """

    def __init__(
        self,
        format: ResultFormat = "auto",
        *,
        assume: str | Iterable[str] | None = None,
        env: str | None = ACCEPT_ENV,
        by: Measure = "tokens",
        encoding: str = "o200k_base",
        number: bool | None = None,
    ) -> None:
        #: The server's default format (``"eson"`` normalised to ``"eson/1"``).
        self.format: Literal["auto"] | Format = send_format(format)
        if assume is None and env is not None:
            assume = os.environ.get(env) or None
        #: The formats assumed for a client that advertises none (``()``: JSON only).
        self.assume: tuple[Format, ...] = accepted_formats(assume)
        if by not in ("tokens", "bytes", "chars"):
            raise ValueError(f"by must be 'tokens', 'bytes' or 'chars', not {by!r}")
        self.by: Measure = by
        self.encoding = encoding
        self.number = number

    def accepted(
        self,
        caller: Caller,
    ) -> tuple[Format, ...]:
        """The formats this server may send to ``caller``: advertised, else assumed."""
        advertised = accepted_by_client(caller)
        return advertised if advertised is not None else self.assume

    def result(
        self,
        value: Any,
        caller: Caller = None,
        *,
        format: ResultFormat | None = None,
        accept: str | Iterable[str] | None = None,
    ) -> CallToolResult:
        """The tool result for ``value``: text in the chosen format, structured content as JSON.

        Args:
            value: A model instance or plain data (the JSON data model).
            caller: The tool's context (or the client's capabilities), to
                read what the client accepts.
            format: This call's format, overriding the server default.
            accept: This call's accepted formats, overriding what the
                client advertised and the server's assumption.

        Raises:
            eson.EncodeError: for a value not even JSON can hold (``NaN``,
                non-string keys).
        """
        chosen = self.format if format is None else send_format(format)
        accepted = accepted_formats(accept) if accept is not None else self.accepted(caller)
        sent = send_to(
            value,
            chosen,
            accepted,
            by=self.by,
            encoding=self.encoding,
            number=self.number,
            floor_if_unchosen=True,
        )
        text, wire, tokens = sent.text, sent.format, sent.tokens
        plain = plain_value(value)
        wrapped = not isinstance(plain, dict)
        note: dict[str, Any] = {"format": wire}
        if tokens is not None:
            note["tokens"] = tokens
        if wrapped:
            note["wrapped"] = True
        result = CallToolResult(
            content=[TextContent(text=text)],
            structured_content={"result": plain} if wrapped else plain,
        )
        result.meta = {WIRE_EXTENSION: note}
        return result

    def __repr__(self) -> str:
        return f"ToolResults(format={self.format!r}, assume={self.assume!r}, by={self.by!r})"


def error_result(error: BaseException | str) -> CallToolResult:
    """A tool result flagged ``is_error`` that tells the model what went wrong.

    An :class:`eson.ESONError` (say, from reading an argument the model wrote
    in ESON) gives its :attr:`~eson.ESONError.feedback`, which says what to
    fix; any other exception its message; a string is used as it is.
    """
    if isinstance(error, ESONError):
        text = error.feedback
    elif isinstance(error, BaseException):
        text = str(error) or type(error).__name__
    else:
        text = error
    return CallToolResult(content=[TextContent(text=text)], is_error=True)


class ToolResultError(RuntimeError):
    """A tool result flagged ``is_error``, or one with nothing to read.

    Attributes:
        result: The :class:`~mcp.types.CallToolResult` as received.
        text: The text the server sent (its text blocks joined).
    """

    def __init__(self, message: str, result: CallToolResult, text: str) -> None:
        super().__init__(message)
        self.result = result
        self.text = text


def _text_of(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))


def _note(result: CallToolResult) -> Mapping[str, Any]:
    meta = result.meta or {}
    note = meta.get(WIRE_EXTENSION)
    return note if isinstance(note, Mapping) else {}


@overload
def read_result(
    result: CallToolResult, type: None = None, *, strict: None = None, context: None = None
) -> Any: ...


@overload
def read_result(
    result: CallToolResult,
    type: builtins.type[T],
    *,
    strict: bool | None = None,
    context: Any = None,
) -> T: ...


def read_result(
    result: CallToolResult,
    type: builtins.type[T] | None = None,
    *,
    strict: bool | None = None,
    context: Any = None,
) -> T | Any:
    """Read a tool result into a validated ``type`` (or plain values).

    Uses the structured content when present (unwrapping ``{"result": ...}``
    when the result says it wrapped a value), validated as it is by
    :func:`eson.validate`; else reads the text: columnar JSON with
    :func:`eson.columnar.decode`, anything else with :func:`eson.parse_reply`
    (ESON, TOON or JSON).  ``strict`` and ``context`` are the framework's
    validation options (``model_validate(strict=..., context=...)``).

    Raises:
        ToolResultError: the result is flagged ``is_error`` (its text is the
            server's message), or has neither structured content nor text.
        eson.ESONError: the content does not read or validate as ``type``
            (its ``feedback`` says what is wrong).
    """
    text = _text_of(result)
    if result.is_error:
        clipped = text if len(text) <= 200 else text[:197] + "..."
        raise ToolResultError(
            f"the tool failed: {' '.join(clipped.split()) or '(no message)'}", result, text
        )
    data = result.structured_content
    if data is not None:
        if _note(result).get("wrapped") and isinstance(data, dict) and set(data) == {"result"}:
            data = data["result"]
        if type is None:
            return data
        return validate(data, type, strict=strict, context=context)
    if not text.strip():
        raise ToolResultError("the tool result has neither structured content nor text", result, "")
    wire = detect_format(text)
    if wire is not None and not wire.in_replies:  # columnar JSON: a JSON text, no reply
        if type is None:
            return wire.load(text)
        return wire.read(text, type, validation_strict=strict, context=context)
    if type is None:
        return parse_reply(text)
    return parse_reply(text, type, validation_strict=strict, context=context)


@overload
async def call_tool(
    client: Client | ClientSession,
    name: str,
    arguments: dict[str, Any] | None = None,
    *,
    type: None = None,
) -> Any: ...


@overload
async def call_tool(
    client: Client | ClientSession,
    name: str,
    arguments: dict[str, Any] | None = None,
    *,
    type: builtins.type[T],
) -> T: ...


async def call_tool(
    client: Client | ClientSession,
    name: str,
    arguments: dict[str, Any] | None = None,
    *,
    type: builtins.type[T] | None = None,
) -> T | Any:
    """Call a tool and read its result (see :func:`read_result`).

    Raises:
        ToolResultError: the tool failed.
        eson.ESONError: the result does not read as ``type``.
        mcp.MCPError: a protocol error (an unknown tool, say).
    """
    result = await client.call_tool(name, arguments)
    return read_result(result) if type is None else read_result(result, type)
