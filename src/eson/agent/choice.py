"""``eson.choose``: the densest format the receiver accepts, for *this* message.

No format wins everywhere: on the reference table ESON is 28% below compact
JSON overall, yet 8% above it on an envelope of scalars, and TOON is 21%
above it on a nested configuration.  :func:`choose` writes the value in
every accepted format, counts each text exactly, and returns the cheapest::

    choice = eson.choose(review, accept=("eson/1", "toon", "columnar", "json"))
    choice.format      # "eson/1"
    choice.text        # the payload to send
    choice.tokens      # its o200k_base token count

The rules, in order:

1. **W8**: the accepted formats are those of ``accept`` this library knows
   (:func:`eson.agent.negotiation.accepted_formats`); when none is left --
   ``accept`` empty, ``None`` or all unknown -- the answer is compact JSON.
   Compact JSON is always a candidate: every receiver takes it.
2. **W6**: a candidate whose text would carry a field that names an
   irreversible action (``payment``, ``password``, ``delete`` ...) densely
   -- anywhere in ESON or TOON, inside a columnar block -- is dropped, so
   the choice always passes :func:`eson.lint`'s W6; such a value goes as
   plain JSON (columnar when its blocks hold no such field).  Turn this off
   with ``protect_irreversible=False`` only when the application validates
   those fields itself.
3. A format that cannot hold the value (ESON needs an object root with ESON
   names, columnar JSON a value without ``#c``/``#r`` look-alikes) is
   skipped.
4. **Lint**: a candidate whose text :func:`eson.lint` fails (an error
   finding: W1, W4, or W6 unless turned off) is dropped, so the choice
   always lints clean -- ESON, columnar and compact JSON as ``lint(text)``
   reads them, TOON as ``lint(text, toon=True)`` reads it (without
   ``toon=True`` the linter reports every TOON text as neither ESON nor
   JSON).  Compact JSON whose numbers Python spells otherwise than
   JavaScript (``1.0``, ``1e-07``), which the linter's W1 measures as
   longer than minified, is written with JavaScript's spelling (``1``,
   ``1e-7``: the same numbers); when even that fails (an integer beyond
   2**53, which JavaScript cannot hold exactly, or a float JavaScript would
   write as one) and no other candidate is left, :func:`choose` raises
   rather than return a text that fails.
5. The candidate with the fewest tokens (or bytes, or characters: ``by=``)
   wins; a tie goes to the format listed first in ``accept``.

Every candidate is counted exactly -- texts that are identical (columnar
JSON of a value without record arrays *is* compact JSON) are counted once
-- so the result is the exact minimum, never an estimate.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from eson._internal.wire.eson_lexicon import NUMBER_SOURCE, QUOTED_SOURCE
from eson._internal.wire.eson_numbers import format_float
from eson.agent.formats import (
    FLOOR,
    FORMAT_NAMES,
    WIRE_FORMATS,
    Format,
    WireFormat,
    normalize_format,
    plain_value,
    render,
)
from eson.agent.linter import LintFinding, lint
from eson.agent.negotiation import accepted_formats
from eson.errors import EncodeError, ESONError

__all__ = [
    "DEFAULT_ACCEPT",
    "Choice",
    "Measure",
    "SendFormat",
    "choose",
    "send",
    "send_format",
    "send_to",
]

Measure = Literal["tokens", "bytes", "chars"]

#: What :func:`choose` accepts unless told: every format this library writes.
DEFAULT_ACCEPT: tuple[str, ...] = ("eson/1", "toon", "columnar", "json")


@dataclass(frozen=True)
class Choice:
    """The format :func:`choose` picked, the text to send, and what it costs.

    Attributes:
        format: The capability token: ``"eson/1"``, ``"toon"``,
            ``"columnar"`` or ``"json"``.
        text: The payload in that format.
        tokens: Its exact token count in ``encoding`` (``None`` when the
            choice was made by bytes or characters).
        size: The measure the choice was made by (tokens, UTF-8 bytes or
            characters).
        sizes: That measure for every candidate that was written, by format.
        reason: One line saying why this format won.
    """

    format: Format
    text: str
    tokens: int | None
    size: int
    sizes: Mapping[str, int] = field(default_factory=dict)
    reason: str = ""


def _measure(texts: list[str], by: Measure, encoding: str) -> list[int]:
    if by == "tokens":
        from eson.agent.tokens import count_tokens_many

        return count_tokens_many(texts, encoding)
    if by == "bytes":
        return [len(text.encode("utf-8", "surrogatepass")) for text in texts]
    return [len(text) for text in texts]


def _lint_errors(format: WireFormat, text: str, protect_irreversible: bool) -> list[LintFinding]:
    """The error findings :func:`eson.lint` reports for a candidate (W6 only when protected)."""
    return [
        finding
        for finding in lint(text, toon=format.lints_as_toon)
        if finding.level == "error" and (protect_irreversible or finding.rule != "W6")
    ]


# A JSON string (kept as it is) or a number (respelled).
_JSON_TOKEN = re.compile(f"{QUOTED_SOURCE}|{NUMBER_SOURCE}")
_EXACT_INTEGER = 2**53


def _javascript_spelling(text: str) -> str | None:
    """Compact JSON with its numbers as ``JSON.stringify`` writes them (``1.0`` -> ``1``).

    ``None`` when a number would change for some reader: an integer beyond
    2**53, which a JavaScript reader cannot hold exactly, or a float that
    JavaScript writes as such an integer (``6.65e+16``), which a Python
    reader would take as another number.
    """
    exact = True

    def spell(match: re.Match[str]) -> str:
        nonlocal exact
        token = match.group(0)
        if token[0] == '"':
            return token
        if not any(char in token for char in ".eE"):
            if abs(int(token)) > _EXACT_INTEGER:
                exact = False
            return token
        number = float(token)
        if number.is_integer() and abs(number) <= _EXACT_INTEGER:
            return str(int(number))
        spelled = format_float(number)
        spelled = spelled[:-2] if spelled.endswith(".0") else spelled
        if not any(char in spelled for char in ".e"):
            exact = False  # 6.65e+16 as digits: a Python reader would take another integer
        return spelled

    spelled = _JSON_TOKEN.sub(spell, text)
    return spelled if exact else None


def choose(
    value: Any,
    *,
    accept: str | Iterable[str] | None = DEFAULT_ACCEPT,
    by: Measure = "tokens",
    encoding: str = "o200k_base",
    number: bool | None = None,
    protect_irreversible: bool = True,
) -> Choice:
    """Pick the densest accepted format for ``value`` by exact count (see the module docs).

    Args:
        value: Plain data (the JSON data model) or a model instance.
        accept: The receiver's capability tokens, in its order of
            preference (a list, or one comma-separated string).
        by: ``"tokens"`` (exact, needs ``typed-eson[tokens]``), ``"bytes"``
            (UTF-8) or ``"chars"``.
        encoding: The token encoding (``"o200k_base"`` or ``"cl100k_base"``).
        number: ESON only: number record arrays (``None``: the model's own
            option; no numbering for plain data).
        protect_irreversible: Apply W6 (keep irreversible-action fields out
            of dense formats).

    Raises:
        eson.EncodeError: when not even compact JSON can hold the value, or
            no candidate passes :func:`eson.lint` (compact JSON of an
            integer beyond 2**53, when no other format is accepted).
        ImportError: for ``by="tokens"`` without the ``tokens`` extra.
        ValueError: for an unknown ``by`` or ``encoding``.
    """
    if by not in ("tokens", "bytes", "chars"):
        raise ValueError(f"by must be 'tokens', 'bytes' or 'chars', not {by!r}")
    accepted = accepted_formats(accept)
    order: list[Format] = list(accepted)
    if FLOOR.token not in order:
        order.append(FLOOR.token)  # the floor every receiver takes
    plain = plain_value(value)
    texts: dict[Format, str] = {}
    dropped: list[str] = []
    failures: list[str] = []
    for format in order:
        wire = WIRE_FORMATS[format]
        try:
            text = wire.write(value, number=number)
        except ESONError:
            if wire.floor:
                raise
            continue
        if protect_irreversible:
            fields = wire.carve_outs(text, plain)
            if fields:
                dropped.append(f"{FORMAT_NAMES[format]} (W6: {', '.join(fields[:3])})")
                continue
        errors = _lint_errors(wire, text, protect_irreversible)
        if errors and wire.json_text:
            spelled = _javascript_spelling(text)
            if spelled is not None and not _lint_errors(wire, spelled, protect_irreversible):
                text, errors = spelled, []
        if errors:
            rules = ", ".join(dict.fromkeys(finding.rule for finding in errors))
            dropped.append(f"{FORMAT_NAMES[format]} (lint {rules})")
            failures.append(f"{FORMAT_NAMES[format]}: {errors[0]}")
            continue
        texts[format] = text
    if not texts:
        raise EncodeError(
            "no accepted format writes this value so that eson.lint passes; "
            + "; ".join(failures)[:300]
        )
    unique = list(dict.fromkeys(texts.values()))
    counted = dict(zip(unique, _measure(unique, by, encoding)))
    sizes: dict[str, int] = {format: counted[text] for format, text in texts.items()}
    best = min(texts, key=lambda format: (sizes[format], order.index(format)))
    if not accepted:
        reason = "no known format accepted: compact JSON (W8)"
    elif len(texts) == 1:
        reason = f"only {FORMAT_NAMES[best]} can carry this value"
    else:
        unit = {"tokens": f"{encoding} tokens", "bytes": "bytes", "chars": "characters"}[by]
        reason = f"fewest {unit}: {sizes[best]} of " + ", ".join(
            f"{FORMAT_NAMES[format]} {sizes[format]}" for format in texts
        )
    if dropped:
        reason += "; left out " + ", ".join(dropped)
    return Choice(
        best,
        texts[best],
        sizes[best] if by == "tokens" else None,
        sizes[best],
        sizes,
        reason,
    )


#: The format an adapter sends a value in: a wire format (by token or short
#: name) or ``"auto"``, the densest the receiver accepts (:func:`eson.choose`).
SendFormat = Literal["auto", "eson", "eson/1", "toon", "columnar", "json"]


def send_format(format: str) -> Literal["auto"] | Format:
    """``format`` checked as a :data:`SendFormat`: ``"auto"`` or a capability token.

    Raises:
        ValueError: for anything else.
    """
    if format == "auto":
        return "auto"
    known = normalize_format(format) if isinstance(format, str) else None
    if known is None:
        raise ValueError(
            f"format must be 'auto', 'eson', 'toon', 'columnar' or 'json', not {format!r}"
        )
    return known


def send_to(
    value: Any,
    format: Literal["auto"] | Format,
    accepted: tuple[Format, ...],
    *,
    by: Measure = "tokens",
    encoding: str = "o200k_base",
    number: bool | None = None,
    floor_if_unchosen: bool = False,
) -> Choice:
    """What an adapter sends a receiver that reads ``accepted``: ``value`` in ``format`` or a choice.

    With nothing accepted (the receiver's capability is unknown), compact
    JSON (W8).  A fixed ``format`` is sent when the receiver reads it (the
    floor always is); if the value does not fit it (an ESON document is an
    object) or the receiver does not read it, the densest of ``accepted`` by
    ``by`` (:func:`choose`).  ``floor_if_unchosen``: when no accepted format
    writes the value lint-clean (an integer past 2**53, say), compact JSON
    rather than :class:`eson.EncodeError`.  A text not chosen by weighing
    has ``tokens=None`` and its length in characters as ``size``.

    Raises:
        eson.EncodeError: for a value not even JSON can hold, or (without
            ``floor_if_unchosen``) none of ``accepted`` can.
    """
    if not accepted:  # capability unknown: compact JSON, nothing to weigh
        text = FLOOR.write(value)
        return Choice(FLOOR.token, text, None, len(text), reason="no formats accepted: the floor")
    if format != "auto" and (WIRE_FORMATS[format].floor or format in accepted):
        try:
            text = render(value, format, number=number)
            return Choice(format, text, None, len(text), reason="the format asked for")
        except ESONError:
            if WIRE_FORMATS[format].floor:
                raise
            # this value does not fit that format: choose
    try:
        return choose(value, accept=accepted, by=by, encoding=encoding, number=number)
    except EncodeError:
        if not floor_if_unchosen:
            raise
        text = FLOOR.write(value)
        return Choice(FLOOR.token, text, None, len(text), reason="no accepted format: the floor")


def send(
    value: Any,
    format: str,
    *,
    accept: str | Iterable[str] | None = None,
    by: Measure = "tokens",
    number: bool | None = None,
) -> str:
    """The text an adapter sends for ``value``: in ``format``, or compact JSON.

    ``"auto"`` picks the densest format of ``accept`` (default: all four) by
    ``by`` (:func:`eson.choose`); a fixed format that cannot hold the value
    (ESON needs an object) falls back to compact JSON.

    Raises:
        ValueError: for a ``format`` that is no :data:`SendFormat`.
        eson.EncodeError: for a value not even JSON can hold.
    """
    known = send_format(format)
    if known == "auto":
        chosen = DEFAULT_ACCEPT if accept is None else accept
        return choose(value, accept=chosen, by=by, number=number).text
    try:
        return render(value, known, number=number)
    except ESONError:
        if WIRE_FORMATS[known].floor:
            raise
        return FLOOR.write(value)
