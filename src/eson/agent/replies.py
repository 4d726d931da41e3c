"""Reading a model's reply into a validated value: :func:`parse_reply`.

One call does what every agent framework's output parser does by hand:

1. **extract** the payload from the reply (:func:`eson.agent.payload.locate`:
   code fences, prose around it, the format it is in);
2. **decode leniently**: ESON with ``strict=False`` (the safe repairs of
   :mod:`eson.wire.eson_lenient` and :mod:`eson.codecs.lenient`); TOON with
   the spec's strict checks plus the typed text rule (TOON's own non-strict
   mode ignores counts, which a reply reader must not); JSON as JSON, pretty
   or compact, rejecting duplicate keys and ``NaN``;
3. **validate** into the type with the framework's own validator.

Every failure is an :class:`eson.ESONError` whose lines point into the
reply as given and whose :attr:`~eson.ESONError.feedback` is ready to send
back to the model.  Repairs, also with reply lines, go to the caller's
``repairs`` list.
"""

from __future__ import annotations

import builtins
import json
from collections.abc import Sequence
from typing import Any, TypeVar, overload

from eson.agent.payload import FORMATS, Payload, locate
from eson.api import check_reading
from eson.codecs import toon_typed
from eson.codecs.eson_typed import reader_for
from eson.codecs.feedback import attach_expected
from eson.codecs.validation import Place, check_options, validation_error
from eson.errors import DecodeError, ESONError, echo
from eson.schema.binding import Problem
from eson.schema.compile import document_schema
from eson.wire.eson_reader import decode_document, text_of
from eson.wire.repairs import Repair
from eson.wire.toon_parser import decode_text

__all__ = ["parse_reply"]

T = TypeVar("T")

Data = str | bytes | bytearray | memoryview


@overload
def parse_reply(
    text: Data,
    type: None = None,
    *,
    formats: Sequence[str] = FORMATS,
    partial: bool = False,
    repairs: list[Repair] | None = None,
    validation_strict: None = None,
    context: None = None,
) -> Any: ...


@overload
def parse_reply(
    text: Data,
    type: builtins.type[T],
    *,
    formats: Sequence[str] = FORMATS,
    partial: bool = False,
    repairs: list[Repair] | None = None,
    validation_strict: bool | None = None,
    context: Any = None,
) -> T: ...


def parse_reply(
    text: Data,
    type: builtins.type[T] | None = None,
    *,
    formats: Sequence[str] = FORMATS,
    partial: bool = False,
    repairs: list[Repair] | None = None,
    validation_strict: bool | None = None,
    context: Any = None,
) -> T | Any:
    """Read a model's reply into a validated instance of ``type`` (or plain values).

    Finds the payload (in a code fence or between prose), detects its format
    among ``formats``, decodes it leniently and validates it; see the module
    documentation for each step.

    Args:
        text: The reply, as the model wrote it.
        type: The model class to validate into (Pydantic model, msgspec
            Struct, dataclass), or ``None`` for plain values.
        formats: The formats the reply may be in, most preferred first
            (``"eson"``, ``"toon"``, ``"json"``); when the reply holds
            several payloads, the one in the earliest listed format wins.
        partial: Accept an ESON reply cut off inside its last array (see
            :func:`eson.decode`); never the default.
        repairs: A list to which each repair is appended, its line counted
            in the reply as given.
        validation_strict: The framework's strict mode for the validation
            (``model_validate(strict=...)``, ``msgspec.convert(strict=...)``);
            ``None`` keeps the framework's default.  Not called ``strict``,
            which is the wire option (a reply is always read leniently).
        context: Passed to Pydantic validators (``model_validate(context=...)``);
            a ``TypeError`` for a msgspec type, whose validation takes none.

    Returns:
        The validated value.

    Raises:
        eson.DecodeError: no payload found, or malformed ESON or JSON.
        eson.TOONError: malformed TOON.
        eson.ValidationError: well-formed text the type rejects.
        TypeError: a ``type`` that is not a model class, or validation
            options that do not apply (without ``type``; ``context`` for msgspec).

    Every error's lines are lines of ``text``, and its ``feedback`` says what
    to fix, with the layout ``type`` expects.
    """
    check_reading(False, partial)
    names = _names(type)
    if type is None:
        if validation_strict is not None or context is not None:
            raise TypeError(
                "validation_strict= and context= are options of typed decoding; pass type= too"
            )
    else:
        check_options(document_schema(type).binding, validation_strict, context)
    options = (validation_strict, context)
    try:
        payload = locate(text, formats, names)
    except ESONError as exc:
        if type is not None:
            fmt = _check_first(formats)
            attach_expected(exc, type, fmt, read=False)
        raise
    offset = payload.first_line - 1
    log: list[Repair] = []
    try:
        return _decode(payload, type, partial, log, options)
    except ESONError as exc:
        if type is not None:
            attach_expected(exc, type, payload.format)
        elif exc.format is None:
            exc.format = payload.format
        raise exc.moved(offset) from None
    finally:
        if repairs is not None:
            repairs.extend(repair.moved(offset) for repair in log)


def _check_first(formats: Sequence[str]) -> str:
    for name in formats:
        return str(name)
    return "eson"


def _names(type: Any) -> frozenset[str] | None:
    if type is None:
        return None
    schema = document_schema(type)
    return frozenset(item.wire for item in schema.fields if not item.output_only)


def _decode(
    payload: Payload,
    type: Any,
    partial: bool,
    log: list[Repair],
    options: tuple[bool | None, Any] = (None, None),
) -> Any:
    validation_strict, context = options
    if payload.format == "eson":
        if type is None:
            return decode_document(payload.split, strict=False, repairs=log, partial=partial)
        return reader_for(type).decode(
            payload.split,
            False,
            log,
            partial,
            validation_strict=validation_strict,
            context=context,
        )
    if payload.format == "toon":
        if type is None:
            return decode_text(payload.text, strict=True)
        return toon_typed.reader_for(type).decode(
            payload.text,
            True,
            log,
            True,
            validation_strict=validation_strict,
            context=context,
        )
    return _decode_json(payload.text, type, options)


# -- JSON replies ---------------------------------------------------------------------


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"duplicate key {echo(key)}")
        result[key] = value
    return result


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _load_json(text: str) -> Any:
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise DecodeError(
            f"invalid JSON: {exc.msg} (column {exc.colno})", line=exc.lineno
        ) from None
    except ValueError as exc:  # from the hooks
        raise DecodeError(f"invalid JSON: {exc}", line=1) from None
    except RecursionError:
        raise DecodeError("invalid JSON: nested too deeply", line=1) from None


def _json_place(problem: Problem) -> tuple[Place, int]:
    loc = problem.loc
    place: Place = {"line": None, "section": None, "row": None, "field": None}
    if not loc or not isinstance(loc[0], str):
        return place, 0
    place["section"] = loc[0]
    used = 1
    rest = loc[1:]
    if rest and isinstance(rest[0], int):
        place["row"] = rest[0] + 1
        used += 1
        rest = rest[1:]
    if rest and isinstance(rest[0], str):
        place["field"] = rest[0]
        used += 1
    return place, used


def _decode_json(
    text: str, type: Any, options: tuple[bool | None, Any] = (None, None)
) -> Any:
    value = _load_json(text_of(text))
    if type is None:
        return value
    schema = document_schema(type)
    validate = schema.binding.validator(schema.model_type)
    try:
        return validate(value, *options)
    except Exception as exc:
        problems = schema.binding.problems(exc)
        if problems is None:
            raise
        error = validation_error(problems, value, _json_place)
        error.format = "json"
        raise attach_expected(error, schema.model_type, "json") from exc
