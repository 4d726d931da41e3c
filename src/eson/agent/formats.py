"""The wire formats an agent can send, by capability token, and how to write each.

One place knows the formats the negotiation names (``NEGOTIATION.md``, plus
TOON) and how a value -- plain data or a model instance -- is written in
each; :func:`eson.choose`, ``eson stats`` and the linter's ``type`` check
all go through it.

======================  ===============================================
token                   text
======================  ===============================================
``"eson/1"``            ESON (:func:`eson.encode`), the model's own
                        ``number`` option unless told otherwise
``"toon"``              TOON v4.0 (:func:`eson.toon.encode`)
``"columnar"``          columnar JSON (:func:`eson.columnar.encode`)
``"json"``              compact JSON (no spaces, non-ASCII as is)
======================  ===============================================

Pretty JSON (two-space indent, the form models write unprompted) is not a
wire format -- the profile forbids it (W1) -- but ``eson stats`` shows it as
the baseline it is.

Each format is one :class:`WireFormat` in :data:`WIRE_FORMATS` (looked up by
any of its names with :func:`wire_format`): its token, its short name, what
people call it, how a value is written in it and how a text in it is read
into a model.  The agent layer, the adapters and ``eson eval`` look a format
up there instead of branching on its name.  The formats an adapter sends a
value in are those four or ``"auto"`` (:data:`SendFormat`,
:func:`send_format`, :func:`send`).
"""

from __future__ import annotations

import builtins
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from eson._internal.schema.compile import binding_for, model_class_of
from eson.errors import EncodeError, echo

if TYPE_CHECKING:
    from eson._internal.codecs.layout import LayoutFormat

__all__ = [
    "ESON_MEDIA_TYPE",
    "FLOOR",
    "FORMATS",
    "FORMAT_NAMES",
    "PAYLOAD_FORMATS",
    "TOON_MEDIA_TYPE",
    "WIRE_FORMATS",
    "DocumentFormat",
    "Format",
    "PayloadFormat",
    "WireFormat",
    "compact_json",
    "document_format",
    "find_format",
    "normalize_format",
    "plain_value",
    "pretty_json",
    "render",
    "short_name",
    "wire_format",
]

T = TypeVar("T")

Format = Literal["eson/1", "toon", "columnar", "json"]

#: Every format, densest-first as the negotiation ranks them.
FORMATS: tuple[Format, ...] = ("eson/1", "toon", "columnar", "json")

#: The formats of a payload found in a model's reply, by short name
#: (:attr:`WireFormat.name`): what :func:`eson.parse_reply` and the adapters
#: read.  Columnar JSON is a format agents send each other, not one models
#: are asked to write.
PayloadFormat = Literal["eson", "toon", "json"]

#: The payload formats, in the default order of preference.
PAYLOAD_FORMATS: tuple[PayloadFormat, ...] = ("eson", "toon", "json")

#: A format a document is streamed in, or a prompt teaches: ESON (``"eson"``
#: or its token ``"eson/1"``) or TOON.
DocumentFormat = Literal["eson", "eson/1", "toon"]

_ALIASES: dict[str, Format] = {
    "eson/1": "eson/1",
    "eson": "eson/1",
    "toon": "toon",
    "columnar": "columnar",
    "json": "json",
}


def document_format(format: object) -> LayoutFormat:
    """The short name of a document format: ``"eson"`` (for ``"eson"`` or ``"eson/1"``) or ``"toon"``.

    What a stream reads, a prompt teaches and an adapter asks a model to
    write.

    Raises:
        ValueError: for anything else.
    """
    token = _ALIASES.get(format) if isinstance(format, str) else None
    if token is not None and WIRE_FORMATS[token].document:
        return cast("LayoutFormat", WIRE_FORMATS[token].name)
    raise ValueError(f"format must be 'eson' (or 'eson/1') or 'toon', not {echo(format)}")


def short_name(name: object) -> object:
    """A format's short name (``"eson"`` for ``"eson/1"``) when ``name`` spells one exactly; else ``name``."""
    token = _ALIASES.get(name) if isinstance(name, str) else None
    return name if token is None else WIRE_FORMATS[token].name


def normalize_format(token: str) -> Format | None:
    """The format a capability token names (``"eson"`` is ``"eson/1"``), else ``None``."""
    return _ALIASES.get(token.strip().lower())


def plain_value(value: Any) -> Any:
    """The JSON-mode dump of a model instance; any other value as it is."""
    cls = model_class_of(value)
    if cls is None:
        return value
    return binding_for(cls).dump(value)


def compact_json(value: Any) -> str:
    """Compact JSON of a plain value or model instance (checked: finite numbers, ``str`` keys).

    Raises:
        EncodeError: for a value JSON cannot hold.
    """
    from eson._internal.wire.columnar import check_json

    plain = plain_value(value)
    check_json(plain)
    return json.dumps(plain, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def pretty_json(value: Any) -> str:
    """JSON with a two-space indent (``JSON.stringify(value, null, 2)``), for comparison."""
    from eson._internal.wire.columnar import check_json

    plain = plain_value(value)
    check_json(plain)
    return json.dumps(plain, ensure_ascii=False, indent=2, allow_nan=False)


def _write_eson(value: Any, number: bool | None, delimiter: str) -> str:
    from eson._internal.api import encode

    if not isinstance(value, dict) and model_class_of(value) is None:
        raise EncodeError("ESON documents are objects: the value is not a mapping")
    return encode(value, number=number)


def _write_toon(value: Any, number: bool | None, delimiter: str) -> str:
    from eson import toon

    return toon.encode(value, delimiter=delimiter)


def _write_columnar(value: Any, number: bool | None, delimiter: str) -> str:
    from eson import columnar

    return columnar.encode(value)


def _write_json(value: Any, number: bool | None, delimiter: str) -> str:
    return compact_json(value)


def _read_eson(text: str, type: builtins.type[Any], strict: bool | None, context: Any) -> Any:
    from eson._internal.api import decode

    return decode(text, type=type, validation_strict=strict, context=context)


def _read_toon(text: str, type: builtins.type[Any], strict: bool | None, context: Any) -> Any:
    from eson import toon

    return toon.decode(text, type=type, validation_strict=strict, context=context)


def _read_columnar(text: str, type: builtins.type[Any], strict: bool | None, context: Any) -> Any:
    from eson._internal.api import validate

    return validate(_load_columnar(text), type, strict=strict, context=context)


def _read_json(text: str, type: builtins.type[Any], strict: bool | None, context: Any) -> Any:
    from eson._internal.api import validate

    return validate(_load_json(text), type, strict=strict, context=context)


def _load_eson(text: str) -> Any:
    from eson._internal.api import decode

    return decode(text)


def _load_toon(text: str) -> Any:
    from eson import toon

    return toon.decode(text)


def _load_columnar(text: str) -> Any:
    from eson._internal.wire.columnar import decode_columnar

    return decode_columnar(text.removeprefix("\ufeff"))


def _load_json(text: str) -> Any:
    from eson._internal.wire.columnar import load_json_text

    return load_json_text(text.removeprefix("\ufeff"))


def _value_carve_outs(text: str, plain: Any) -> list[str]:
    from eson.agent.profile import carve_out_keys

    return carve_out_keys(plain, True)


def _columnar_carve_outs(text: str, plain: Any) -> list[str]:
    from eson.agent.profile import carve_out_keys

    return carve_out_keys(json.loads(text), False)


def _no_carve_outs(text: str, plain: Any) -> list[str]:
    return []


@dataclass(frozen=True, eq=False)
class WireFormat:
    """One wire format: its names, what it is, and how a value is written in it and read back.

    The agent layer, the adapters, ``eson eval`` and the CLI ask a format
    these questions instead of comparing its name.

    Attributes:
        token: The capability token (``"eson/1"``, ``"toon"``, ``"columnar"``,
            ``"json"``), the format's name in negotiation and in
            :func:`eson.choose`.
        name: The short name (``"eson"`` for ESON, the token otherwise): the
            name of the reply readers, the prompts and ``eson eval``.
        title: What people call it (``"ESON"``, ``"compact JSON"``).
        media_type: Its media type (``Content-Type`` without the charset).
        document: Whether it is a document format models are taught by a
            prompt layout and a stream reads line by line (ESON, TOON).
        json_text: Whether its text is JSON (columnar JSON, compact JSON):
            JSON's own spelling rules apply to it, and a payload in it is its
            own end mark (a JSON text cut short does not parse).
        floor: Whether it is the format every receiver takes (compact JSON,
            W8): what a sender falls back to, and the one a wildcard media
            range advertises.
        in_replies: Whether :func:`eson.parse_reply` looks for it in a
            model's reply (columnar JSON is sent between agents, not asked
            of models).
        read_as: The formats whose readers take a text in this one: a
            plain JSON text is also columnar JSON with no blocks.
        lints_as_toon: Whether :func:`eson.lint` checks its text as TOON
            (``toon=True``); the others are checked as ESON or JSON, which
            the linter tells apart itself.
    """

    token: Format
    name: str
    title: str
    media_type: str
    document: bool
    json_text: bool
    floor: bool
    in_replies: bool
    read_as: tuple[Format, ...]
    lints_as_toon: bool
    _write: Callable[[Any, bool | None, str], str]
    _read: Callable[[str, builtins.type[Any], bool | None, Any], Any]
    _load: Callable[[str], Any]
    _carve_outs: Callable[[str, Any], list[str]]

    def write(self, value: Any, *, number: bool | None = None, delimiter: str = ",") -> str:
        """``value`` (plain data or a model instance) written in this format.

        Args:
            value: The payload.
            number: ESON only: number record arrays (``None``: the model's
                own option, or no numbering for plain data).
            delimiter: TOON only: the delimiter of its arrays and tables
                (``","``, ``"\\t"`` or ``"|"``).

        Raises:
            eson.ESONError: (``EncodeError``, ``TOONError``) when the format
                cannot hold the value (ESON, for one, needs an object root
                with ESON names).
        """
        return self._write(value, number, delimiter)

    def read(
        self,
        text: str,
        type: builtins.type[T],
        *,
        validation_strict: bool | None = None,
        context: Any = None,
    ) -> T:
        """A whole text in this format (not a model's reply) read into a validated ``type``.

        One leading byte-order mark is ignored, as :func:`eson.detect` ignores it.

        Raises:
            eson.DecodeError: (``TOONError`` for TOON) for malformed text.
            eson.ValidationError: for values the model rejects.
        """
        value: T = self._read(text, type, validation_strict, context)
        return value

    def load(self, text: str) -> Any:
        """A whole text in this format read into plain values (dicts, lists, scalars).

        Raises:
            eson.DecodeError: (``TOONError`` for TOON) for malformed text.
        """
        return self._load(text)

    def carve_outs(self, text: str, plain: Any) -> list[str]:
        """The fields this format's ``text`` of ``plain`` carries densely though W6 forbids it.

        ESON and TOON write record arrays of any value densely; columnar
        JSON does so for the arrays it turned into blocks; compact JSON
        never does.
        """
        return self._carve_outs(text, plain)

    def __repr__(self) -> str:
        return f"<wire format {self.token!r}>"


#: ESON's media type, with its version (``text/vnd.eson`` is ESON SPEC.md's suggestion).
ESON_MEDIA_TYPE = "text/vnd.eson; version=1"
#: TOON's media type (TOON SPEC.md's provisional registration).
TOON_MEDIA_TYPE = "text/toon"

#: Every wire format by capability token, densest-first (the order of :data:`FORMATS`).
WIRE_FORMATS: dict[Format, WireFormat] = {
    "eson/1": WireFormat(
        "eson/1", "eson", "ESON", ESON_MEDIA_TYPE,
        document=True, json_text=False, floor=False, in_replies=True, read_as=("eson/1",), lints_as_toon=False,
        _write=_write_eson, _read=_read_eson, _load=_load_eson, _carve_outs=_value_carve_outs,
    ),
    "toon": WireFormat(
        "toon", "toon", "TOON", TOON_MEDIA_TYPE,
        document=True, json_text=False, floor=False, in_replies=True, read_as=("toon",), lints_as_toon=True,
        _write=_write_toon, _read=_read_toon, _load=_load_toon, _carve_outs=_value_carve_outs,
    ),
    "columnar": WireFormat(
        "columnar", "columnar", "columnar JSON", "application/vnd.typed-eson.columnar+json",
        document=False, json_text=True, floor=False, in_replies=False, read_as=("columnar",), lints_as_toon=False,
        _write=_write_columnar, _read=_read_columnar, _load=_load_columnar,
        _carve_outs=_columnar_carve_outs,
    ),
    "json": WireFormat(
        "json", "json", "compact JSON", "application/json",
        document=False, json_text=True, floor=True, in_replies=True,
        read_as=("json", "columnar"), lints_as_toon=False,
        _write=_write_json, _read=_read_json, _load=_load_json, _carve_outs=_no_carve_outs,
    ),
}  # fmt: skip

#: The format every receiver takes (W8): compact JSON.
FLOOR: WireFormat = WIRE_FORMATS["json"]

#: What people call them (and pretty JSON, the baseline ``eson stats`` shows).
FORMAT_NAMES: dict[str, str] = {
    **{token: found.title for token, found in WIRE_FORMATS.items()},
    "pretty": "pretty JSON",
}


def find_format(name: object) -> WireFormat | None:
    """The wire format a token or short name names (``"eson"`` and ``"eson/1"`` are ESON), else ``None``."""
    token = normalize_format(name) if isinstance(name, str) else None
    return None if token is None else WIRE_FORMATS[token]


def wire_format(name: str) -> WireFormat:
    """The wire format a token or short name names (``"eson"`` and ``"eson/1"`` are ESON).

    Raises:
        ValueError: for a name that is no wire format.
    """
    found = find_format(name)
    if found is None:
        raise ValueError(f"unknown format {name!r}: choose one of {', '.join(FORMATS)}")
    return found


def render(value: Any, format: Format, *, number: bool | None = None) -> str:
    """Write ``value`` (plain data or a model instance) in one format.

    Args:
        value: The payload.
        format: A token of :data:`FORMATS`.
        number: ESON only: number record arrays (``None``: the model's own
            option, or no numbering for plain data).

    Raises:
        eson.ESONError: (``EncodeError``, ``TOONError``) when the format
            cannot hold the value (ESON, for one, needs an object root with
            ESON names).
        ValueError: for an unknown format.
    """
    found = WIRE_FORMATS.get(format)
    if found is None:
        raise ValueError(f"unknown format {format!r}: choose one of {', '.join(FORMATS)}")
    return found.write(value, number=number)
