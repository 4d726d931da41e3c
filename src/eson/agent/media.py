"""The media types of the wire formats, and HTTP-style ``Accept`` negotiation over them.

Where a transport labels payloads with media types (HTTP's ``Content-Type``
and ``Accept``, an A2A part's ``mediaType`` and an agent card's input and
output modes), the adapters name the formats with this one table:

======================  ==============================================  ===========================
token                   media type                                      where the name comes from
======================  ==============================================  ===========================
``"eson/1"``            ``text/vnd.eson; version=1``                    ESON SPEC.md's suggested
                                                                        ``text/vnd.eson``, with the
                                                                        version of its ``!eson/1``
``"toon"``              ``text/toon``                                   TOON SPEC.md's provisional
                                                                        media type
``"columnar"``          ``application/vnd.typed-eson.columnar+json``    this library (columnar JSON
                                                                        is JSON: ``+json``)
``"json"``              ``application/json``                            RFC 8259
======================  ==============================================  ===========================

A sent payload is labelled with the type and, for text, ``charset=utf-8``.
A received label is read leniently: case, spaces and other parameters do
not matter, ``text/vnd.eson`` without ``version`` is version 1 (the payload
names its version in its first line anyway), another ``version`` is no
known format, and any ``+json`` type is JSON.

**Negotiation** (:func:`negotiate`) follows the negotiation rules' Wire
Profile W8 -- a receiver that does not name ESON or TOON gets compact JSON
-- inside HTTP's ``Accept`` semantics: ESON and TOON are chosen only when
named explicitly (a wildcard ``*/*`` or ``text/*`` advertises nothing), by
the highest ``q`` and then the sender's order; JSON is the floor, sent when
nothing named matches, unless the receiver refused it (``q=0``, directly or
through a wildcard), and only then is there nothing to send.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from eson.agent.formats import ESON_MEDIA_TYPE, FLOOR, TOON_MEDIA_TYPE, WIRE_FORMATS, Format
from eson.agent.negotiation import accepted_formats

__all__ = [
    "ESON_MEDIA_TYPE",
    "MEDIA_TYPES",
    "TOON_MEDIA_TYPE",
    "content_type",
    "format_of",
    "media_type",
    "negotiate",
]

#: The media type of each wire format, by capability token.
MEDIA_TYPES: dict[Format, str] = {token: found.media_type for token, found in WIRE_FORMATS.items()}


def media_type(format: str) -> str:
    """The media type of a format (a capability token: ``"eson"``, ``"eson/1"``, ``"toon"``...).

    Raises:
        ValueError: for a token that names no known format.
    """
    found = accepted_formats([format]) if isinstance(format, str) else ()
    if not found:
        raise ValueError(f"no media type for the format {format!r}")
    return MEDIA_TYPES[found[0]]


def content_type(format: str) -> str:
    """The ``Content-Type`` to label a payload in ``format``: its media type, ``charset=utf-8``."""
    return f"{media_type(format)}; charset=utf-8"


@dataclass(frozen=True)
class _Range:
    essence: str  # "type/subtype", lower case, possibly with "*"
    params: dict[str, str]
    q: float
    order: int


def _split(value: str) -> tuple[str, dict[str, str]]:
    head, *rest = value.split(";")
    params: dict[str, str] = {}
    for item in rest:
        name, sep, param = item.partition("=")
        if sep:
            params[name.strip().lower()] = param.strip().strip('"')
    return head.strip().lower(), params


#: Each format's media type without its parameters, and the parameters it requires.
_ESSENCE: dict[str, tuple[Format, dict[str, str]]] = {
    essence: (token, params)
    for token, (essence, params) in ((token, _split(found)) for token, found in MEDIA_TYPES.items())
}


def _required(params: dict[str, str], required: dict[str, str]) -> bool:
    """Whether a media type's ``params`` agree with the ones its format requires (absent is fine)."""
    return all(params.get(name, value) == value for name, value in required.items())


def format_of(label: str | None) -> Format | None:
    """The format a media type names (a ``Content-Type`` or a part's media type), or ``None``.

    Lenient as the module documentation says; ``None`` for an absent,
    malformed or unknown type (``text/plain``, ``text/vnd.eson; version=2``).
    """
    if not label:
        return None
    essence, params = _split(label)
    known = _ESSENCE.get(essence)
    if known is not None:
        return known[0] if _required(params, known[1]) else None
    if "/" in essence and essence.endswith("+json"):
        return FLOOR.token
    return None


def _ranges(accept: str) -> list[_Range]:
    ranges: list[_Range] = []
    for order, item in enumerate(accept.split(",")):
        if not item.strip():
            continue
        essence, params = _split(item)
        if essence.count("/") != 1:
            continue
        try:
            q = float(params.pop("q", "1"))
        except ValueError:
            continue
        ranges.append(_Range(essence, params, min(max(q, 0.0), 1.0), order))
    return ranges


def _specificity(entry: _Range, format: Format) -> int | None:
    """How specifically ``entry`` names ``format`` (higher wins), ``None`` if it does not."""
    essence, params = _split(MEDIA_TYPES[format])
    if entry.essence == essence:
        return 3 if _required(entry.params, params) else None
    if not WIRE_FORMATS[format].floor:
        return None  # a wildcard advertises nothing but the JSON floor (W8)
    if entry.essence == "application/*":
        return 2
    if entry.essence == "*/*":
        return 1
    return None


def _quality(ranges: Sequence[_Range], format: Format) -> float | None:
    best: tuple[int, float] | None = None
    for entry in ranges:
        level = _specificity(entry, format)
        if level is not None and (best is None or level > best[0]):
            best = (level, entry.q)
    return None if best is None else best[1]


def negotiate(
    accept: str | None, offered: Iterable[str] = ("eson/1", "toon", "json")
) -> Format | None:
    """The format to send a receiver whose ``Accept`` header is ``accept``; ``None``: none (406).

    Args:
        accept: The ``Accept`` header (``None`` or empty: nothing said).
        offered: The formats the sender can write, in its order of
            preference (capability tokens; ``"json"`` is always offered).

    Returns:
        The named offered format of highest ``q`` (ties: ``offered``'s
        order); else ``"json"`` unless the receiver refused it; else ``None``.
    """
    formats = list(accepted_formats(offered))
    if "json" not in formats:
        formats.append("json")
    ranges = _ranges(accept or "")
    best: tuple[float, int] | None = None
    chosen: Format | None = None
    for rank, format in enumerate(formats):
        q = _quality(ranges, format)
        if q is None or q <= 0:
            continue
        if best is None or q > best[0]:
            best, chosen = (q, rank), format
    if chosen is not None:
        return chosen
    if _quality(ranges, "json") == 0:
        return None
    return "json"
