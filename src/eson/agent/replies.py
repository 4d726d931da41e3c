"""Reading a model's reply into a validated value: :func:`parse_reply`.

One call does what every agent framework's output parser does by hand:

1. **extract** the payload from the reply (:func:`eson.agent.payload.locate`:
   code fences, prose around it, the format it is in);
2. **decode leniently**: ESON with ``strict=False`` (the safe repairs of
   :mod:`eson._internal.wire.eson_lenient` and :mod:`eson._internal.codecs.lenient`); TOON with
   the spec's strict checks plus the typed text rule (TOON's own non-strict
   mode ignores counts, which a reply reader must not); JSON as JSON, pretty
   or compact, rejecting duplicate keys and ``NaN``;
3. **validate** into the type with the framework's own validator.

Between 1 and 2, the signals that the reply was **cut off** (the provider's
``stop_reason``, a fence never closed, ``require_end``) are checked: a cut
reply raises :class:`eson.TruncatedError`, or with ``partial=True`` keeps
its complete rows (:mod:`eson.agent.cutoff`).

Every failure is an :class:`eson.ESONError` whose lines point into the
reply as given and whose :attr:`~eson.ESONError.feedback` is ready to send
back to the model.  Repairs, also with reply lines, go to the caller's
``repairs`` list.
"""

from __future__ import annotations

import builtins
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar, overload

from eson._internal.codecs import toon_typed
from eson._internal.codecs.eson_typed import reader_for
from eson._internal.codecs.feedback import attach_expected
from eson._internal.codecs.validation import check_options, plain_place, validation_error
from eson._internal.schema.compile import document_schema
from eson._internal.wire.eson_json import too_deep_at
from eson._internal.wire.eson_lexicon import MAX_JSON_DEPTH
from eson._internal.wire.eson_line_reader import decode_document
from eson._internal.wire.eson_reader import text_of
from eson._internal.wire.options import STRICT, ReadOptions, read_options, untyped_options
from eson._internal.wire.repairs import Repair
from eson._internal.wire.toon_parser import decode_text
from eson.agent.cutoff import (
    Progress,
    cut_repair,
    cut_signal,
    eson_progress,
    toon_progress,
    truncated,
)
from eson.agent.formats import PAYLOAD_FORMATS, wire_format
from eson.agent.payload import Payload, locate
from eson.agent.stop import stop_kind
from eson.errors import DecodeError, ESONError, TruncatedError, echo

__all__ = ["parse_reply"]

T = TypeVar("T")

Data = str | bytes | bytearray | memoryview


@overload
def parse_reply(
    text: Data,
    type: None = None,
    *,
    formats: Sequence[str] = PAYLOAD_FORMATS,
    partial: bool = False,
    repairs: list[Repair] | None = None,
    validation_strict: None = None,
    context: None = None,
    stop_reason: object = None,
    require_end: bool = False,
) -> Any: ...


@overload
def parse_reply(
    text: Data,
    type: builtins.type[T],
    *,
    formats: Sequence[str] = PAYLOAD_FORMATS,
    partial: bool = False,
    repairs: list[Repair] | None = None,
    validation_strict: bool | None = None,
    context: Any = None,
    stop_reason: object = None,
    require_end: bool = False,
) -> T: ...


def parse_reply(
    text: Data,
    type: builtins.type[T] | None = None,
    *,
    formats: Sequence[str] = PAYLOAD_FORMATS,
    partial: bool = False,
    repairs: list[Repair] | None = None,
    validation_strict: bool | None = None,
    context: Any = None,
    stop_reason: object = None,
    require_end: bool = False,
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
        partial: Accept an ESON reply cut off inside its last array: the
            complete rows are kept, a last line without a line break is
            dropped (it may be cut), and a ``rows-missing`` or ``cut-off``
            repair records it; never the default.
        repairs: A list to which each repair is appended, its line counted
            in the reply as given.
        validation_strict: The framework's strict mode for the validation
            (``model_validate(strict=...)``, ``msgspec.convert(strict=...)``);
            ``None`` keeps the framework's default.  Not called ``strict``,
            which is the wire option (a reply is always read leniently).
        context: Passed to Pydantic validators (``model_validate(context=...)``);
            a ``TypeError`` for a msgspec type, whose validation takes none.
        stop_reason: Why the model stopped, as the provider said it: a
            string in any provider's spelling (``"length"``,
            ``"max_tokens"``, ``"MAX_TOKENS"``), an enum member, or the
            response object itself (see :mod:`eson.agent.stop`).  A reply
            that stopped for length is never returned as complete.
        require_end: The reply must end its ESON or TOON payload with the
            closing line of a code fence (the end mark :func:`eson.prompt`
            asks for); without it the reply counts as cut off.  The
            adapters set it.

    A reply is **cut off** when its stop reason says so, when its payload's
    code fence was opened and never closed, or (``require_end``) when its
    payload is outside a closed fence; a payload whose fence closed is
    complete, and a stop reason that says the reply ended outweighs a
    missing closing fence (see :mod:`eson.agent.cutoff`).  A cut-off reply
    raises :class:`eson.TruncatedError`, or with ``partial=True`` (ESON)
    gives the complete rows and a ``cut-off`` repair.  Without any signal
    (an unfenced reply, no stop reason) a cut inside the last cell of the
    last row cannot be seen: pass the stop reason, or ``require_end=True``.

    Returns:
        The validated value.

    Raises:
        eson.DecodeError: no payload found, or malformed ESON or JSON.
        eson.TruncatedError: (a ``DecodeError``) the reply was cut off.
        eson.TOONError: malformed TOON.
        eson.ValidationError: well-formed text the type rejects.
        TypeError: a ``type`` that is not a model class, or validation
            options that do not apply (without ``type``; ``context`` for msgspec).

    Every error's lines are lines of ``text``, and its ``feedback`` says what
    to fix, with the layout ``type`` expects.
    """
    read = read_options(
        format="eson",
        mode="lenient",
        reply=True,
        partial=partial,
        require_end=require_end,
        replies=True,
    )
    partial, require_end = read.partial, read.require_end
    names = _names(type)
    if type is None:
        untyped_options(validation_strict, context)
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
    cut: list[Repair] = []  # the cut-off repair, recorded after the repairs of the reading
    try:
        try:
            payload = _check_cut(payload, stop_reason, require_end, partial, cut)
        except TruncatedError:
            _raise_content_error(payload, type, options)
            raise
        if not partial and _READINGS[payload.format].strictly and not _numbered(type):
            value = _read_strictly(payload, type, options)
            if value is not _NOT_STRICT:
                return value
        return _decode(payload, type, partial, log, options)
    except ESONError as exc:
        if type is not None:
            attach_expected(exc, type, payload.format)
        elif exc.format is None:
            exc.format = payload.format
        raise exc.moved(offset) from None
    finally:
        log.extend(cut)
        if repairs is not None:
            repairs.extend(repair.moved(offset) for repair in log)


def _check_cut(
    payload: Payload, stop_reason: object, require_end: bool, partial: bool, log: list[Repair]
) -> Payload:
    """The payload to read, after the signals that the reply was cut off.

    Raises :class:`eson.TruncatedError` for a cut reply, unless ``partial``
    reads an ESON one: then its last line, when it had no line break, is
    dropped and a ``cut-off`` repair recorded.  A stop reason saying the
    reply ended makes its last line complete.
    """
    stop = stop_kind(stop_reason)
    signal = cut_signal(
        stop,
        closed=payload.closed,
        fenced=payload.fenced,
        require_end=require_end,
        ends_itself=wire_format(payload.format).json_text,
    )
    if signal is None:
        if stop == "complete" and not payload.terminated:
            return replace(payload, terminated=True)
        return payload
    lines = payload.lines
    reading = _READINGS[payload.format]
    if not partial or not reading.partial:
        progress: Progress = (
            (len(lines), None, None, None)
            if reading.progress is None
            else reading.progress(lines, payload.terminated)
        )
        raise truncated(signal, stop_reason, progress, payload.format)
    dropped = not payload.terminated and bool(lines)
    log.append(cut_repair(signal, stop_reason, len(lines), dropped))
    if dropped:
        return replace(payload, lines=lines[:-1], terminated=True)
    return payload


def _raise_content_error(payload: Payload, type: Any, options: tuple[bool | None, Any]) -> None:
    """(a cut ESON reply) Raise the error of a line before the cut, if one is wrong.

    The cut can only have damaged the last line: a malformed line or a bad
    row before it is the model's to fix, and a stream reports it as soon as
    it reads it, so the whole reply reports it too.  An error without a line
    (a missing field the cut may have taken) leaves the cut to be reported.
    """
    if not _READINGS[payload.format].partial:
        return
    lines = payload.lines if payload.terminated else payload.lines[:-1]
    complete = replace(payload, lines=lines, terminated=True)
    try:
        _decode(complete, type, True, [], options)
    except ESONError as exc:
        if exc.line is not None:
            raise
    return


def _check_first(formats: Sequence[str]) -> str:
    for name in formats:
        return str(name)
    return "eson"


def _names(type: Any) -> frozenset[str] | None:
    if type is None:
        return None
    schema = document_schema(type)
    return frozenset(item.wire for item in schema.fields if not item.output_only)


def _numbered(type: Any) -> bool:
    """Whether ``type``'s record arrays carry the reserved ``n`` column (``number=True``).

    Strict reading accepts such an array without its ``n`` column; lenient
    reading accepts it too but records the ``missing-n`` repair, so a
    numbered type is always read leniently.
    """
    return type is not None and document_schema(type).number


#: What :func:`_read_strictly` returns for a payload strict reading refuses.
_NOT_STRICT: Any = object()

#: A reply's readings: lenient, with its counts checked (and a cut-off last array kept).
_LENIENT = ReadOptions(mode="lenient")
_PARTIAL = ReadOptions(mode="lenient", partial=True)


def _read_strictly(payload: Payload, type: Any, options: tuple[bool | None, Any]) -> Any:
    """(ESON) The payload read strictly, or :data:`_NOT_STRICT` when strict reading refuses it.

    A text that strict reading accepts has that one reading leniently too,
    with nothing repaired (issue 17 item 8; the fuzzer checks it on every
    case; a ``number=True`` type, whose missing ``n`` column strict reading
    accepts and lenient reading records, is left out by the caller), so a
    well-formed reply takes the strict reader and its C fast
    paths: the lenient reader, which logs repairs line by line in Python,
    reads only what strict reading refuses.  Any refusal (malformed text,
    a value the lenient repairs would have read otherwise, failed
    validation) leaves the reply to the lenient reader, which gives the
    error, located and with its feedback.
    """
    # One join, with the final line feed of a terminated payload (an empty last item).
    text = "\n".join([*payload.lines, ""] if payload.terminated else payload.lines)
    if "\r" in text:  # a CR of data: the lenient reader keeps it as the reply had it
        return _NOT_STRICT
    validation_strict, context = options
    try:
        if type is None:
            return decode_document(text, strict=True)
        return reader_for(type).decode(
            text, STRICT, None, validation_strict=validation_strict, context=context
        )
    except ESONError:
        return _NOT_STRICT


Options = tuple[bool | None, Any]  # validation_strict, context


def _decode(
    payload: Payload,
    type: Any,
    partial: bool,
    log: list[Repair],
    options: Options = (None, None),
) -> Any:
    return _READINGS[payload.format].decode(payload, type, partial, log, options)


def _decode_eson(
    payload: Payload, type: Any, partial: bool, log: list[Repair], options: Options
) -> Any:
    if type is None:
        return decode_document(payload.split, strict=False, repairs=log, partial=partial)
    validation_strict, context = options
    read = _PARTIAL if partial else _LENIENT
    return reader_for(type).decode(
        payload.split, read, log, validation_strict=validation_strict, context=context
    )


def _decode_toon(
    payload: Payload, type: Any, partial: bool, log: list[Repair], options: Options
) -> Any:
    if type is None:
        return decode_text(payload.text, strict=True)
    # the spec's strict checks plus the typed text rule: TOON's lenient reading
    validation_strict, context = options
    return toon_typed.reader_for(type).decode(
        payload.text, _LENIENT, log, validation_strict=validation_strict, context=context
    )


def _decode_json_payload(
    payload: Payload, type: Any, partial: bool, log: list[Repair], options: Options
) -> Any:
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
    if text.count("[") + text.count("{") > MAX_JSON_DEPTH:
        at = too_deep_at(text, MAX_JSON_DEPTH)
        if at is not None:
            line = text.count("\n", 0, at) + 1
            raise DecodeError(
                f"invalid JSON: nested too deeply (more than {MAX_JSON_DEPTH} levels)",
                line=line,
            )
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
        error = validation_error(problems, value, plain_place)
        error.format = "json"
        raise attach_expected(error, schema.model_type, "json") from exc


@dataclass(frozen=True)
class _Reading:
    """How a payload in one format is read from a reply.

    Attributes:
        decode: Reads the payload (leniently; ``partial``: a cut-off last
            array kept), recording repairs in the log.
        strictly: Reads a well-formed payload by the strict reader first, and
            its C fast paths (see :func:`_read_strictly`).
        progress: Where a cut-off payload stands, for the ``TruncatedError``;
            ``None`` where only its lines can be counted.
        partial: A cut-off payload's complete lines can be read
            (``partial=True``), and an error before the cut is the model's.
    """

    decode: Callable[[Payload, Any, bool, list[Repair], Options], Any]
    strictly: bool
    progress: Callable[[list[str], bool], Progress] | None
    partial: bool


_READINGS: dict[str, _Reading] = {
    "eson": _Reading(_decode_eson, True, eson_progress, True),
    "toon": _Reading(_decode_toon, False, toon_progress, False),
    "json": _Reading(_decode_json_payload, False, None, False),
}
