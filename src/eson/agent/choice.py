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
4. The candidate with the fewest tokens (or bytes, or characters: ``by=``)
   wins; a tie goes to the format listed first in ``accept``.

Every candidate is counted exactly -- texts that are identical (columnar
JSON of a value without record arrays *is* compact JSON) are counted once
-- so the result is the exact minimum, never an estimate.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from eson.agent.formats import FORMAT_NAMES, Format, plain_value, render
from eson.agent.negotiation import accepted_formats
from eson.agent.profile import carve_out_keys
from eson.errors import ESONError

__all__ = ["DEFAULT_ACCEPT", "Choice", "Measure", "choose"]

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


def _breaks_w6(format: Format, text: str, plain: Any) -> list[str]:
    """The carve-out fields this candidate would carry densely (W6)."""
    if format in ("eson/1", "toon"):
        return carve_out_keys(plain, True)
    if format == "columnar":
        return carve_out_keys(json.loads(text), False)
    return []


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
        eson.EncodeError: when not even compact JSON can hold the value.
        ImportError: for ``by="tokens"`` without the ``tokens`` extra.
        ValueError: for an unknown ``by`` or ``encoding``.
    """
    if by not in ("tokens", "bytes", "chars"):
        raise ValueError(f"by must be 'tokens', 'bytes' or 'chars', not {by!r}")
    accepted = accepted_formats(accept)
    order: list[Format] = list(accepted)
    if "json" not in order:
        order.append("json")  # the floor every receiver takes
    plain = plain_value(value)
    texts: dict[Format, str] = {}
    dropped: list[str] = []
    for format in order:
        try:
            text = render(value, format, number=number)
        except ESONError:
            if format == "json":
                raise
            continue
        if protect_irreversible:
            fields = _breaks_w6(format, text, plain)
            if fields:
                dropped.append(f"{FORMAT_NAMES[format]} (W6: {', '.join(fields[:3])})")
                continue
        texts[format] = text
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
