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
"""

from __future__ import annotations

import builtins
import json
from typing import Any, Literal

from eson.errors import EncodeError
from eson.schema.compile import binding_for, is_model_class

__all__ = [
    "FORMATS",
    "FORMAT_NAMES",
    "Format",
    "compact_json",
    "normalize_format",
    "plain_value",
    "pretty_json",
    "render",
]

Format = Literal["eson/1", "toon", "columnar", "json"]

#: Every format, densest-first as the negotiation ranks them.
FORMATS: tuple[Format, ...] = ("eson/1", "toon", "columnar", "json")

#: What people call them.
FORMAT_NAMES: dict[str, str] = {
    "eson/1": "ESON",
    "toon": "TOON",
    "columnar": "columnar JSON",
    "json": "compact JSON",
    "pretty": "pretty JSON",
}

_ALIASES: dict[str, Format] = {
    "eson/1": "eson/1",
    "eson": "eson/1",
    "toon": "toon",
    "columnar": "columnar",
    "json": "json",
}
_PLAIN_TYPES = frozenset({dict, list, tuple, str, int, float, bool, type(None)})


def normalize_format(token: str) -> Format | None:
    """The format a capability token names (``"eson"`` is ``"eson/1"``), else ``None``."""
    return _ALIASES.get(token.strip().lower())


def _model_class(value: object) -> type | None:
    cls = builtins.type(value)
    if cls in _PLAIN_TYPES or isinstance(value, (dict, list, tuple, str, int, float)):
        return None
    return cls if is_model_class(cls) else None


def plain_value(value: Any) -> Any:
    """The JSON-mode dump of a model instance; any other value as it is."""
    cls = _model_class(value)
    if cls is None:
        return value
    return binding_for(cls).dump(value)


def compact_json(value: Any) -> str:
    """Compact JSON of a plain value or model instance (checked: finite numbers, ``str`` keys).

    Raises:
        EncodeError: for a value JSON cannot hold.
    """
    from eson.wire.columnar import check_json

    plain = plain_value(value)
    check_json(plain)
    return json.dumps(plain, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def pretty_json(value: Any) -> str:
    """JSON with a two-space indent (``JSON.stringify(value, null, 2)``), for comparison."""
    from eson.wire.columnar import check_json

    plain = plain_value(value)
    check_json(plain)
    return json.dumps(plain, ensure_ascii=False, indent=2, allow_nan=False)


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
    if format == "eson/1":
        from eson.api import encode

        if not isinstance(value, dict) and _model_class(value) is None:
            raise EncodeError("ESON documents are objects: the value is not a mapping")
        return encode(value, number=number)
    if format == "toon":
        from eson import toon

        return toon.encode(value)
    if format == "columnar":
        from eson import columnar

        return columnar.encode(value)
    if format == "json":
        return compact_json(value)
    raise ValueError(f"unknown format {format!r}: choose one of {', '.join(FORMATS)}")
