"""Wire negotiation: what a receiver accepts, and what a payload is.

Following the negotiation rules (``NEGOTIATION.md``), extended to TOON:

- a receiver advertises **capability tokens** -- ``eson/1``, ``toon``,
  ``columnar``, ``json`` -- in its agent card or tool description;
  :func:`accepted_formats` reads such a list (or a comma-separated header
  value), ignoring tokens it does not know.  Compact JSON is the floor
  every receiver takes, and an empty or unknown list means exactly that
  (Wire Profile W8);
- payloads identify themselves, and :func:`detect` tells which one a text
  is, in this order:

  1. it starts with ``!eson/1`` -> ``"eson/1"`` (a decode failure then
     means the message is corrupt, never that it is something else);
  2. it parses as JSON -> ``"columnar"`` when some object in it is a
     columnar block (``#c`` a list of strings, ``#r`` rows as long as
     ``#c``), else ``"json"``;
  3. it reads as a TOON document whose root is an object or an array, and
     every key in it is one a TOON encoder could have written there ->
     ``"toon"``;
  4. anything else -> ``"prose"``.

Rule 3 reads TOON leniently (counts unchecked), so a TOON payload with a
damaged count is still detected as TOON and then fails its strict decode;
the key check keeps ordinary sentences (``Here are the results: ...``) out.
A single ``key: value`` line (``Note: done``) *is* a TOON document: prose that
short is ambiguous by nature.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, TypeVar

from eson._internal.wire.eson_lexicon import HEADER
from eson.agent.formats import FORMATS, WIRE_FORMATS, Format, WireFormat, normalize_format
from eson.agent.profile import is_columnar_block
from eson.errors import DecodeError, ESONError

__all__ = ["Detected", "accepted_formats", "decode_as", "detect"]

T = TypeVar("T")

Detected = Literal["eson/1", "toon", "columnar", "json", "prose"]

_ESON_PREFIX = HEADER
_KEY_SAMPLE = 256


def accepted_formats(accept: str | Iterable[str] | None) -> tuple[Format, ...]:
    """The known formats in a receiver's ``accept`` list, in its order, without repeats.

    ``accept`` is a list of capability tokens (``["eson/1", "json"]``) or one
    string of them separated by commas or white space (``"eson/1, json"``).
    Tokens are matched case-insensitively; ``"eson"`` means ``"eson/1"``;
    unknown tokens (``"eson/2"``, ``"yaml"``) are ignored.  An empty result
    means: send compact JSON (W8).
    """
    if accept is None:
        return ()
    tokens = accept.replace(",", " ").split() if isinstance(accept, str) else accept
    found: list[Format] = []
    for token in tokens:
        if not isinstance(token, str):
            raise TypeError(f"capability tokens are str, not {type(token).__name__}")
        known = normalize_format(token)
        if known is not None and known not in found:
            found.append(known)
    return tuple(found)


def _has_block(value: Any) -> bool:
    """Whether some object inside a parsed JSON value is a columnar block (iterative)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if is_columnar_block(item):
                return True
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _keys(value: Any) -> set[str]:
    """Up to :data:`_KEY_SAMPLE` distinct keys of a decoded value, breadth first."""
    keys: set[str] = set()
    queue = [value]
    while queue and len(keys) < _KEY_SAMPLE:
        item = queue.pop(0)
        if isinstance(item, dict):
            keys.update(list(item)[: _KEY_SAMPLE - len(keys)])
            queue.extend(item.values())
        elif isinstance(item, list):
            queue.extend(item)
    return keys


def _reads_as_toon(text: str) -> bool:
    from eson import toon
    from eson._internal.wire.toon_quoting import format_key

    try:
        value = toon.decode(text, strict=False)
    except (ESONError, RecursionError):
        return False
    if isinstance(value, dict):
        if not value:
            return False
    elif not isinstance(value, list):
        return False

    def written(key: str) -> bool:
        try:
            return format_key(key) in text
        except ESONError:  # a key no encoder writes (a lone surrogate), read from the text
            return True

    return all(map(written, _keys(value)))


def _text(data: str | bytes | bytearray | memoryview) -> str | None:
    if isinstance(data, str):
        text = data
    elif isinstance(data, (bytes, bytearray, memoryview)):
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError:
            return None
    else:
        raise TypeError(f"detect reads str or bytes, not {type(data).__name__}")
    return text[1:] if text.startswith("\ufeff") else text


def detect(text: str | bytes | bytearray | memoryview) -> Detected:
    """Which payload ``text`` is: ``"eson/1"``, ``"toon"``, ``"columnar"``, ``"json"`` or ``"prose"``.

    Applies the detection rules of the module documentation; never raises
    for any ``str`` (bytes that are not UTF-8 are ``"prose"``).  One leading
    byte-order mark is ignored.  Detection says what a payload claims to be;
    decoding it (:func:`decode_as`, :func:`eson.decode`) checks it.

    Raises:
        TypeError: when ``text`` is neither ``str`` nor bytes-like.
    """
    found = _text(text)
    if found is None:
        return "prose"
    if found.startswith(_ESON_PREFIX):
        return "eson/1"
    from eson._internal.wire.columnar import load_json_text

    try:
        value = load_json_text(found)
    except DecodeError:
        pass
    else:
        return "columnar" if _has_block(value) else "json"
    if _reads_as_toon(found):
        return "toon"
    return "prose"


def detect_format(text: str | bytes | bytearray | memoryview) -> WireFormat | None:
    """The wire format :func:`detect` finds ``text`` in, or ``None`` for prose.

    Raises:
        TypeError: when ``text`` is neither ``str`` nor bytes-like.
    """
    found = detect(text)
    return None if found == "prose" else WIRE_FORMATS[found]


def decode_as(
    text: str | bytes | bytearray | memoryview,
    type: type[T],
    *,
    formats: Iterable[str] = FORMATS,
) -> T:
    """Detect the payload's format and decode it strictly into a validated ``type``.

    Args:
        text: The payload.
        type: The model class.
        formats: The formats to allow (capability tokens); a payload in
            another format is an error.

    Raises:
        eson.DecodeError: for prose, a format not allowed, or a malformed
            payload (``eson.TOONError`` for TOON).
        eson.ValidationError: for a payload the model rejects.
    """
    allowed = accepted_formats(formats)
    wire = detect_format(text)
    if wire is None:
        raise DecodeError("the text is not an ESON, TOON or JSON payload")
    if not any(reader in allowed for reader in wire.read_as):
        raise DecodeError(
            f"the payload is {wire.token}, which is not among the allowed formats "
            f"({', '.join(allowed) or 'none'})"
        )
    from eson._internal.wire.eson_reader import text_of

    return wire.read(text_of(text), type)
