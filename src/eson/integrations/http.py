"""HTTP content negotiation for Starlette and FastAPI: ESON, TOON or JSON (``typed-eson[http]``).

A route answers with a model in the format the client's ``Accept`` asks
for, and reads a request body in any of them by its ``Content-Type``::

    from typing import Annotated

    from fastapi import Depends, FastAPI, Request

    from eson.integrations.http import body, openapi, respond

    app = FastAPI()

    @app.post("/search", openapi_extra=openapi(request=Query, response=Hits))
    async def search(request: Request, query: Annotated[Query, Depends(body(Query))]):
        return respond(request, run(query))

- :func:`respond` builds the response: the media types of
  :mod:`eson.agent.media` (``text/vnd.eson; version=1``, ``text/toon``,
  ``application/json``), chosen by :func:`eson.agent.media.negotiate` --
  ``q``-values honoured, ESON and TOON only when the client names them,
  JSON when nothing named matches, and ``406 Not Acceptable`` only when the
  client refuses JSON too.  Every answer carries ``Vary: Accept``.
- :func:`read_body` (plain Starlette) and :func:`body` (a FastAPI
  dependency) read the request body by ``Content-Type`` into the model: the
  strict decoders for ESON and TOON, :func:`eson.validate` for JSON.  A
  body that does not read or validate is ``422`` with the library's one-line
  located message (``hits row 2 (line): expected int, got "x"``); a type
  that is no format is ``415``.  These are :class:`BodyError`, Starlette's
  ``HTTPException``: FastAPI answers ``{"detail": message}``.
- :func:`openapi` is a route's ``openapi_extra``: the request body and the
  answer listed under each media type, with the model's JSON Schema.

FastAPI 0.165 needs Python 3.11+ (Starlette 1.x installs on 3.10 too).
"""

from __future__ import annotations

import builtins
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, TypeVar

from eson.integrations import require

require("starlette", "http")

from starlette.exceptions import HTTPException  # noqa: E402
from starlette.requests import Request  # noqa: E402
from starlette.responses import Response  # noqa: E402

from eson.agent.formats import WIRE_FORMATS, Format, render  # noqa: E402
from eson.agent.media import MEDIA_TYPES, content_type, format_of, negotiate  # noqa: E402
from eson.agent.negotiation import accepted_formats  # noqa: E402
from eson.errors import ESONError  # noqa: E402

__all__ = [
    "DEFAULT_FORMATS",
    "BodyError",
    "body",
    "negotiated_format",
    "openapi",
    "read_body",
    "respond",
]

T = TypeVar("T")

#: What a route offers by default, densest first.
DEFAULT_FORMATS: tuple[Format, ...] = ("eson/1", "toon", "json")


def _offered(formats: Iterable[str]) -> tuple[Format, ...]:
    found = accepted_formats(formats)
    return found if "json" in found else (*found, "json")


class BodyError(HTTPException):
    """A request body the route cannot read: ``422`` (bad content) or ``415`` (unknown type).

    Attributes:
        error: The library's error for a ``422`` (its ``feedback`` says what to fix).
    """

    def __init__(self, status_code: int, detail: str, error: ESONError | None = None) -> None:
        super().__init__(status_code=status_code, detail=detail)
        self.error = error


def negotiated_format(request: Request, formats: Iterable[str] = DEFAULT_FORMATS) -> Format | None:
    """The format the request's ``Accept`` asks for among ``formats``; ``None``: none (406)."""
    return negotiate(request.headers.get("accept"), _offered(formats))


def respond(
    request: Request,
    value: Any,
    *,
    formats: Iterable[str] = DEFAULT_FORMATS,
    status_code: int = 200,
    headers: Mapping[str, str] | None = None,
    number: bool | None = None,
) -> Response:
    """The response for ``value`` (a model instance or plain data) in the negotiated format.

    Args:
        request: The request, for its ``Accept`` header.
        value: What to send.
        formats: The formats offered, densest first (JSON is always offered).
        status_code: The status of a successful answer.
        headers: More response headers.
        number: ESON only: number record arrays (``None``: the model's own option).

    Returns:
        A :class:`~starlette.responses.Response` with ``Content-Type`` and
        ``Vary: Accept``; ``406`` listing the media types offered when the
        client refuses every one, JSON included.  A value ESON cannot hold
        (ESON needs an object) goes as the next format the client takes.
    """
    offered: tuple[Format, ...] = _offered(formats)
    vary = {"vary": "Accept"}
    chosen = negotiate(request.headers.get("accept"), offered)
    while chosen is not None:
        try:
            text = render(value, chosen, number=number)
        except ESONError:
            if WIRE_FORMATS[chosen].floor:
                raise
            skipped = chosen
            offered = tuple(format for format in offered if format != skipped)
            chosen = negotiate(request.headers.get("accept"), offered)
            continue
        return Response(
            text,
            status_code=status_code,
            headers={**(headers or {}), **vary},
            media_type=content_type(chosen),
        )
    listed = ", ".join(MEDIA_TYPES[format] for format in offered)
    return Response(
        f"none of the media types offered is acceptable: {listed}",
        status_code=406,
        headers=vary,
        media_type="text/plain; charset=utf-8",
    )


def _read(text: str, format: Format, type: builtins.type[T], strict: Any, context: Any) -> T:
    return WIRE_FORMATS[format].read(text, type, validation_strict=strict, context=context)


async def read_body(
    request: Request,
    type: builtins.type[T],
    *,
    formats: Iterable[str] = DEFAULT_FORMATS,
    strict: bool | None = None,
    context: Any = None,
) -> T:
    """Read the request body by its ``Content-Type`` into a validated ``type``.

    A body without ``Content-Type`` is read as JSON.

    Args:
        request: The request.
        type: The model class.
        formats: The formats accepted (JSON always is).
        strict: The framework's strict mode for the validation.
        context: Passed to Pydantic validators.

    Raises:
        BodyError: ``415`` for a media type that is not an accepted format;
            ``422`` with the library's located message for a body that does
            not decode or validate (not UTF-8 included).
    """
    label = request.headers.get("content-type")
    format = format_of(label) if label else "json"
    accepted = _offered(formats)
    if format is None or format not in accepted:
        listed = ", ".join(MEDIA_TYPES[known] for known in accepted)
        raise BodyError(415, f"unsupported media type {label!r}; send one of: {listed}")
    raw = await request.body()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BodyError(422, f"the body is not UTF-8 text (byte {exc.start})") from None
    try:
        return _read(text, format, type, strict, context)
    except ESONError as error:
        raise BodyError(422, str(error), error) from error


def body(
    type: builtins.type[T],
    *,
    formats: Iterable[str] = DEFAULT_FORMATS,
    strict: bool | None = None,
    context: Any = None,
) -> Callable[[Request], Awaitable[T]]:
    """A FastAPI dependency reading the body into ``type``: ``Depends(body(Query))``.

    See :func:`read_body`; list the body in the OpenAPI document with
    :func:`openapi` (FastAPI does not see a dependency's body).
    """
    accepted = _offered(formats)

    async def read(request: Request) -> T:
        return await read_body(request, type, formats=accepted, strict=strict, context=context)

    read.__name__ = f"read_{getattr(type, '__name__', 'body')}_body"
    return read


def _json_schema(type: builtins.type[Any]) -> dict[str, Any]:
    """The JSON Schema of ``type`` with its definitions inlined (an OpenAPI operation has no ``$defs``)."""
    from eson._internal.schema.compile import binding_for

    if binding_for(type).name == "pydantic":
        from pydantic import TypeAdapter

        schema: dict[str, Any] = TypeAdapter(type).json_schema()
    else:
        import msgspec

        schema = msgspec.json.schema(type)
    definitions = schema.pop("$defs", {})

    def inline(node: Any, depth: int) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith(("#/$defs/", "#/definitions/")):
                name = ref.rsplit("/", 1)[1]
                if name in definitions and depth < 32:
                    return inline(definitions[name], depth + 1)
            return {key: inline(item, depth) for key, item in node.items()}
        if isinstance(node, list):
            return [inline(item, depth) for item in node]
        return node

    inlined: dict[str, Any] = inline(schema, 0)
    return inlined


def openapi(
    *,
    request: builtins.type[Any] | None = None,
    response: builtins.type[Any] | None = None,
    formats: Iterable[str] = DEFAULT_FORMATS,
    status_code: int = 200,
) -> dict[str, Any]:
    """A route's ``openapi_extra``: its request body and answer under each media type.

    Each media type of ``formats`` gets the model's JSON Schema (the
    document the text holds, whatever its format); the answer lists ``406``.
    """
    offered = _offered(formats)
    extra: dict[str, Any] = {}
    if request is not None:
        schema = _json_schema(request)
        extra["requestBody"] = {
            "required": True,
            "content": {MEDIA_TYPES[format]: {"schema": schema} for format in offered},
        }
    if response is not None:
        schema = _json_schema(response)
        extra["responses"] = {
            str(status_code): {
                "description": "The answer, in the format the Accept header asks for",
                "headers": {"Vary": {"schema": {"type": "string"}}},
                "content": {MEDIA_TYPES[format]: {"schema": schema} for format in offered},
            },
            "406": {"description": "The client refuses every media type offered, JSON too"},
        }
    return extra
